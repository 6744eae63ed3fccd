/* lat_fcntl.c: the round-trip latency of fcntl record locks between two processes. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchmp/worker.h"
#include "common/partner.h"
#include "common/placement.h"
#include "common/tool.h"

/*
 * A lock is a baton only its holder can release, so strict alternation
 * takes three of them (bytes 0, 1 and 2 of a file): the worker holds k and
 * asks for k+1, which the partner releases before asking for k, which the
 * worker then releases.  Each side's step is one lock and one unlock, and
 * one worker step is one round trip.
 */
#define FCNTL_LOCKS 3

/* One worker's lock file and partner. */
struct fcntl_state {
	const char *dir;
	char path[600];
	int fd;
	int k;			/* the lock the worker holds */
	struct partner partner;
	struct placement place;
};

/* Lock (F_SETLKW) or unlock one byte. */
static int
fcntl_lock(int fd, int which, int type)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = (short)type;
	fl.l_whence = SEEK_SET;
	fl.l_start = which;
	fl.l_len = 1;
	while (fcntl(fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &fl) != 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* The partner: holds 1 and 2, then releases one and takes the one before. */
static int
fcntl_partner(void *arg)
{
	struct fcntl_state *s = arg;
	int fd, k = 1;
	char ready = 'r';

	if ((fd = open(s->path, O_RDWR | O_CLOEXEC)) < 0 ||
	    fcntl_lock(fd, 1, F_WRLCK) != 0 || fcntl_lock(fd, 2, F_WRLCK) != 0)
		return 1;
	/* The worker waits for this byte on the descriptor it reads. */
	if (partner_write(s->fd, &ready, 1) != 0)
		return 1;
	for (;;) {
		if (fcntl_lock(fd, k, F_UNLCK) != 0 ||
		    fcntl_lock(fd, (k + FCNTL_LOCKS - 1) % FCNTL_LOCKS,
		    F_WRLCK) != 0)
			return 1;
		k = (k + 1) % FCNTL_LOCKS;
	}
}

/* The worker's side: its file, lock 0, the partner holding 1 and 2. */
static int
fcntl_init(bm_iter_t n, void *cookie)
{
	struct fcntl_state *s = cookie;
	int p[2], rc, fd;
	char ready;

	(void)n;
	if ((rc = placement_worker(&s->place,
	    bm_worker_index(bm_state_current()))) != 0)
		return rc;
	/*
	 * Named by the worker's process too: in suite A/Bs on a 2-vCPU Intel
	 * Xeon guest (2026-12-01) a new set's worker found the file of an
	 * earlier worker of its number still there, and failed (EEXIST).
	 * The directory is the tool's own, removed with what it holds.
	 */
	if ((size_t)snprintf(s->path, sizeof s->path, "%s/lock.%u.%ld", s->dir,
	    bm_worker_index(bm_state_current()), (long)getpid()) >=
	    sizeof s->path)
		return -ENAMETOOLONG;
	if ((fd = open(s->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) < 0)
		return -errno;
	if (pipe2(p, O_CLOEXEC) != 0) {
		rc = -errno;
		close(fd);
		(void)unlink(s->path);
		return rc;
	}
	s->fd = p[1];
	rc = placement_start(&s->place, 1, &s->partner, fcntl_partner, s);
	close(p[1]);
	if (rc == 0)
		rc = partner_read(p[0], &ready, 1);
	close(p[0]);
	s->fd = fd;
	if (rc == 0)
		rc = fcntl_lock(fd, 0, F_WRLCK);
	if (rc != 0) {
		/* No cleanup follows a failed initialize: leave nothing. */
		(void)partner_stop(&s->partner);
		close(fd);
		s->fd = -1;
		(void)unlink(s->path);
	}
	return rc;
}

/* n round trips: take the next lock, release the one held before it. */
static int
fcntl_bench(bm_iter_t n, void *cookie)
{
	struct fcntl_state *s = cookie;
	int rc;

	while (n-- > 0) {
		if ((rc = fcntl_lock(s->fd, (s->k + 1) % FCNTL_LOCKS,
		    F_WRLCK)) != 0 ||
		    (rc = fcntl_lock(s->fd, s->k, F_UNLCK)) != 0)
			return rc;
		s->k = (s->k + 1) % FCNTL_LOCKS;
	}
	/*
	 * A dead partner's locks are released, after which the loop would
	 * run unopposed and report a figure for no handoff at all.
	 */
	if (waitpid(s->partner.pid, NULL, WNOHANG) != 0)
		return -EPIPE;
	return 0;
}

/* Stop the partner, close and remove the file. */
static int
fcntl_cleanup(bm_iter_t n, void *cookie)
{
	struct fcntl_state *s = cookie;

	(void)n;
	(void)partner_stop(&s->partner);
	if (s->fd >= 0)
		close(s->fd);
	(void)unlink(s->path);
	return 0;
}

/* Take --placement into the fcntl_state cookie. */
static void
fcntl_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct fcntl_state *s = cookie;

	(void)opt;
	placement_option(&s->place, t, arg);
}

/* Measure and print one figure, or two for --placement=both. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_fcntl", .args = "" };
	struct fcntl_state state, *sp = &state;
	bm_bench b;

	memset(&state, 0, sizeof state);
	sp->fd = -1;
	t.extra_usage = placement_usage;
	if (tool_parse(&t, argc, argv, NULL, placement_long, fcntl_option,
	    sp) != argc)
		tool_exit_usage(&t, "unexpected argument '%s'", argv[optind]);
	tool_setup(&t);
	tool_wall_clock(&t);
	sp->dir = tool_exit_tmpdir(&t);
	b.initialize = fcntl_init;
	b.benchmark = fcntl_bench;
	b.cleanup = fcntl_cleanup;
	b.cookie = sp;
	placement_run_us(&t, &sp->place, &b, "record", "Fcntl lock latency");
	return tool_finish(&t);
}
