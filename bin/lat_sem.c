/* lat_sem.c: the round-trip latency of semaphores between two processes, as lmbench's lat_sem. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/worker.h"
#include "common/partner.h"
#include "common/placement.h"
#include "common/tool.h"

/*
 * --posix: how long one wait may last before the partner is checked: a
 * partner that died never posts, and the worker must notice instead of
 * hanging.
 */
#define SEM_SLICE_MS 200
/* The pongs a dead partner's SIGCHLD posts (below SEMVMX, 32767). */
#define SEM_WAKE_ALL 16384

enum { SEM_OPT_POSIX = TOOL_OPT_BASE };

/* --posix: the two semaphores, in memory both processes share. */
struct sem_pair {
	sem_t ping;		/* posted by the worker */
	sem_t pong;		/* posted by the partner */
};

/* One worker's semaphores and partner. */
struct sem_state {
	int posix;		/* --posix instead of System V */
	int semid;		/* System V: the set the parent made */
	unsigned short ping, pong;	/* System V: this worker's two */
	struct sem_pair *pair;	/* --posix */
	struct partner partner;
	struct placement place;
};

/*
 * The System V set and the process that made it, for the removal on exit:
 * a set outlives every process that used it, so each way out of the tool
 * (the end, a failure, a fatal signal: tool_fatal_signals) removes it.
 * SIGKILL cannot be caught, and the kernel removes a set at once, not
 * when its last user goes (as it does a shared memory segment), so the
 * set has a guardian: a process in a session of its own, forked right after
 * the set is made, that waits on a pipe whose write end only the tool,
 * its workers and their partners hold.  When they have all gone without
 * a word (killed), the guardian reads end of file and removes the set;
 * when the tool removes it itself, it tells the guardian so first.
 */
static volatile sig_atomic_t sem_set_id = -1;
static pid_t sem_set_owner;
static pid_t sem_guard_pid = -1;
static int sem_guard_fd = -1;	/* the write end, in the tool */

/*
 * Remove the System V set if this process made it, telling its guardian
 * (which then leaves) and reaping it (async-signal-safe).
 */
static void
sem_set_remove(void)
{
	char done = 'x';
	int err = errno;

	if (sem_set_id < 0 || sem_set_owner != getpid())
		return;
	(void)semctl(sem_set_id, 0, IPC_RMID);
	sem_set_id = -1;
	if (sem_guard_fd >= 0) {
		(void)!write(sem_guard_fd, &done, 1);
		(void)close(sem_guard_fd);
		sem_guard_fd = -1;
	}
	if (sem_guard_pid > 0) {
		while (waitpid(sem_guard_pid, NULL, 0) < 0 && errno == EINTR)
			continue;
		sem_guard_pid = -1;
	}
	errno = err;
}

/*
 * In the guardian: close every descriptor but keep (stdout held open
 * would keep a pipeline reading the tool's output waiting).
 */
static void
sem_guard_close_all(int keep)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char *end;
	long fd;
	int self;

	if (d == NULL) {
		for (fd = 0; fd < 1024; fd++)
			if (fd != keep)
				(void)close(fd);
		return;
	}
	self = dirfd(d);
	while ((e = readdir(d)) != NULL) {
		fd = strtol(e->d_name, &end, 10);
		if (end != e->d_name && *end == '\0' && fd >= 0 &&
		    fd != keep && fd != self && fd <= INT_MAX)
			(void)close((int)fd);
	}
	(void)closedir(d);
}

/*
 * The guardian of set id: in a session of its own (a signal to the
 * tool's process group is not meant for it), wait on the pipe's read end
 * rd; end of file without the tool's word means the tool and its workers
 * were killed: remove the set.
 */
static void __attribute__((noreturn))
sem_guard_main(int id, int rd)
{
	sigset_t none;
	char c;
	ssize_t got;
	size_t i;

	(void)setsid();
	for (i = 0; i < tool_nfatal; i++)
		(void)signal(tool_fatal_signals[i], SIG_DFL);
	(void)sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	sem_guard_close_all(rd);
	while ((got = read(rd, &c, 1)) < 0 && errno == EINTR)
		continue;
	if (got == 0)
		(void)semctl(id, 0, IPC_RMID);
	_exit(0);
}

/*
 * Start the guardian of set id (the fatal signals held by the caller);
 * without one (no pipe, no fork) the other ways out still remove it.
 */
static void
sem_guard_start(int id)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return;
	pid = fork();
	if (pid == 0) {
		(void)close(fds[1]);
		sem_guard_main(id, fds[0]);
	}
	(void)close(fds[0]);
	if (pid < 0) {
		(void)close(fds[1]);
		return;
	}
	sem_guard_pid = pid;
	sem_guard_fd = fds[1];
}

/*
 * Make the set (two semaphores per worker) with the handlers that remove
 * it in place first and the signals held in between, so no signal can
 * leave it behind.  A signal ignored when the tool started stays ignored.
 */
static void
sem_set_make(struct tool *t, unsigned workers)
{
	sigset_t old;
	int id, err;

	tool_exit_fatal_hold(sem_set_remove, &old);
	sem_set_owner = getpid();
	id = semget(IPC_PRIVATE, (int)(2 * workers), IPC_CREAT | 0600);
	err = errno;
	if (id >= 0) {
		sem_set_id = id;
		sem_guard_start(id);
	}
	tool_exit_fatal_release(&old);
	if (id < 0)
		tool_exit_fail(t,
		    "cannot make a set of %u System V semaphores: %s",
		    2 * workers, strerror(err));
}

/*
 * System V, in the worker: the set, its pong semaphore, and whether the
 * partner died.  lmbench's wait is a plain semop(), without a timeout:
 * semtimedop() arms a timer at every block, which cost 0.2 us of a 2 us
 * round trip pinned to one CPU.  A partner that dies never posts, so
 * instead the worker's SIGCHLD handler marks it dead and posts many
 * pongs: a wait under way or to come returns at once and sees the mark
 * (a signal that came just before the semop() would otherwise leave it
 * blocked for ever), and semop() is never restarted after a handler.
 */
static int sem_child_semid = -1;
static unsigned short sem_child_pong;
static volatile sig_atomic_t sem_partner_dead;

/* SIGCHLD in the worker: the partner died; wake its waits for good. */
static void
sem_on_child(int sig)
{
	struct sembuf op = { 0, SEM_WAKE_ALL, 0 };
	int err = errno;

	(void)sig;
	sem_partner_dead = 1;
	op.sem_num = sem_child_pong;
	if (sem_child_semid >= 0)
		(void)semop(sem_child_semid, &op, 1);
	errno = err;
}

/*
 * System V: take one from semaphore num.  In the worker (dead_check),
 * -EPIPE once the partner died; the partner itself dies with its worker.
 */
static int
sem_sysv_wait(int semid, unsigned short num, int dead_check)
{
	struct sembuf op = { num, -1, 0 };

	for (;;) {
		if (semop(semid, &op, 1) == 0)
			return dead_check && sem_partner_dead ? -EPIPE : 0;
		if (errno != EINTR)
			return -errno;
		if (dead_check && sem_partner_dead)
			return -EPIPE;
	}
}

/* System V: give one to semaphore num. */
static int
sem_sysv_post(int semid, unsigned short num)
{
	struct sembuf op = { num, 1, 0 };

	while (semop(semid, &op, 1) != 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* --posix: wait for a semaphore in slices, checking the peer between them. */
static int
sem_posix_wait(sem_t *sem, pid_t peer)
{
	struct timespec until;

	for (;;) {
		if (sem_trywait(sem) == 0)
			return 0;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SEM_SLICE_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (sem_timedwait(sem, &until) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != ETIMEDOUT)
			return -errno;
		if (peer > 0 && waitpid(peer, NULL, WNOHANG) != 0)
			return -EPIPE;
	}
}

/* The partner: answer every ping with a pong. */
static int
sem_partner(void *arg)
{
	struct sem_state *s = arg;

	for (;;) {
		if (s->posix) {
			if (sem_posix_wait(&s->pair->ping, 0) != 0 ||
			    sem_post(&s->pair->pong) != 0)
				return 1;
		} else if (sem_sysv_wait(s->semid, s->ping, 0) != 0 ||
		    sem_sysv_post(s->semid, s->pong) != 0)
			return 1;
	}
}

/* Set this worker's two semaphores to 0 and start the partner. */
static int
sem_init_state(bm_iter_t n, void *cookie)
{
	struct sem_state *s = cookie;
	unsigned w = bm_worker_index(bm_state_current());
	void *m;
	int rc;

	(void)n;
	if ((rc = placement_worker(&s->place, w)) != 0)
		return rc;
	if (!s->posix) {
		s->ping = (unsigned short)(2 * w);
		s->pong = (unsigned short)(2 * w + 1);
		if (semctl(s->semid, s->ping, SETVAL, 0) != 0 ||
		    semctl(s->semid, s->pong, SETVAL, 0) != 0)
			return -errno;
		/* Before the fork: a partner may die at once. */
		sem_child_semid = s->semid;
		sem_child_pong = s->pong;
		sem_partner_dead = 0;
		if ((rc = tool_catch_signal(SIGCHLD, sem_on_child,
		    SA_NOCLDSTOP)) != 0)
			return rc;
		return placement_start(&s->place, 1, &s->partner,
		    sem_partner, s);
	}
	m = mmap(NULL, sizeof *s->pair, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -errno;
	s->pair = m;
	if (sem_init(&s->pair->ping, 1, 0) != 0 ||
	    sem_init(&s->pair->pong, 1, 0) != 0)
		return -errno;
	return placement_start(&s->place, 1, &s->partner, sem_partner, s);
}

/* n round trips: post ping, wait for pong. */
static int
sem_bench(bm_iter_t n, void *cookie)
{
	struct sem_state *s = cookie;
	int rc;

	while (n-- > 0) {
		if (s->posix) {
			if (sem_post(&s->pair->ping) != 0)
				return -errno;
			rc = sem_posix_wait(&s->pair->pong, s->partner.pid);
		} else if ((rc = sem_sysv_post(s->semid, s->ping)) == 0)
			rc = sem_sysv_wait(s->semid, s->pong, 1);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Stop the partner and unmap the semaphores (--posix). */
static int
sem_cleanup(bm_iter_t n, void *cookie)
{
	struct sem_state *s = cookie;

	(void)n;
	(void)partner_stop(&s->partner);
	(void)signal(SIGCHLD, SIG_DFL);
	sem_child_semid = -1;
	if (s->pair != NULL)
		munmap(s->pair, sizeof *s->pair);
	s->pair = NULL;
	return 0;
}

/* Take --posix or --placement into the sem_state cookie. */
static void
sem_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct sem_state *s = cookie;

	if (opt == SEM_OPT_POSIX)
		s->posix = 1;
	else
		placement_option(&s->place, t, arg);
}

/* Measure and print one figure, or two for --placement=both. */
int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "posix", no_argument, NULL, SEM_OPT_POSIX },
		{ "placement", required_argument, NULL, PLACEMENT_OPT },
		{ NULL, 0, NULL, 0 }
	};
	static char usage[512];
	struct tool t = {
		.name = "lat_sem",
		.args = "[--posix] [--placement=WHERE]",
		.extra_usage = usage,
		.cleanup = sem_set_remove
	};
	struct sem_state state, *sp = &state;
	bm_bench b;

	memset(&state, 0, sizeof state);
	(void)snprintf(usage, sizeof usage, "\n  --posix      POSIX semaphores "
	    "in shared memory instead of lmbench's System V\n"
	    "               semaphore pair\n%s", placement_usage);
	if (tool_parse(&t, argc, argv, NULL, longopts, sem_option, sp) != argc)
		tool_exit_usage(&t, "unexpected argument '%s'", argv[optind]);
	tool_setup(&t);
	tool_wall_clock(&t);
	if (!sp->posix) {
		sem_set_make(&t, t.opts.parallel > 0 ? t.opts.parallel : 1);
		sp->semid = sem_set_id;
	}
	b.initialize = sem_init_state;
	b.benchmark = sem_bench;
	b.cleanup = sem_cleanup;
	b.cookie = sp;
	placement_run_us(&t, &sp->place, &b, sp->posix ? "posix" : "sysv",
	    sp->posix ? "Semaphore latency (POSIX)" : "Semaphore latency");
	sem_set_remove();
	return tool_finish(&t);
}
