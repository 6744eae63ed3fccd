/* command.c: measure another program, run after run, with its counters. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "internal.h"

/* A run may last ten minutes unless the caller says otherwise. */
#define COMMAND_TIMEOUT_US (600ull * 1000000u)

/* How long stopping what a run left behind may take. */
#define COMMAND_SWEEP_NS 5000000000ull

/*
 * The longest sleep between checks for a signal while waiting: SIGCHLD
 * wakes the wait at once, a SIGINT that lands between the check and the
 * sleep waits for the end of the slice at most.
 */
#define COMMAND_SLICE_NS 50000000ull
/*
 * How long a command killed with SIGKILL may take to be reaped: one in
 * uninterruptible sleep (a hung NFS or FUSE mount) is not, and the run
 * must still end within its bound, leaving it to init.
 */
#define COMMAND_REAP_NS (30ull * 1000000000u)

/*
 * Periodic readings (--interval): perf stat -I refuses intervals under
 * 10 ms, as each costs a read of every counter and a record; an hour is
 * the longest that still reads during a run.
 */
#define COMMAND_EVERY_MIN_US 10000ull
#define COMMAND_EVERY_MAX_US 3600000000ull

/* The readings of one run: where the last one ended and when the next is. */
struct command_tick {
	bm_reading_fn fn;
	void *cookie;
	bm__counters *c;
	uint64_t every_ns;	/* 0: no readings */
	uint64_t next;		/* the next reading, on bm__deadline_now() */
	uint64_t t0, tprev;	/* the run's start, the last reading (timer) */
	unsigned run, index;
	double prev[BM_MAX_EVENTS];	/* the counts at the last reading */
};

/* The children this process had before the runs, which are not ours. */
struct command_kids {
	pid_t *pid;
	size_t n;
};

/*
 * List this process's children from /proc into *out (malloc'd; the caller
 * frees it), skipping those in before (may be NULL).  Returns the count,
 * or a negative errno.
 */
static long
command_children(const struct command_kids *before, pid_t **out)
{
	char path[300], buf[512], *p;
	pid_t me = getpid(), *list = NULL, *grown;
	size_t n = 0, cap = 0, k;
	struct dirent *d;
	long ppid;
	DIR *dir;
	FILE *f;

	*out = NULL;
	if ((dir = opendir("/proc")) == NULL)
		return -errno;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", d->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;	/* gone already */
		p = fgets(buf, sizeof buf, f);
		fclose(f);
		/* pid (comm) state ppid ...: comm may hold anything. */
		if (p == NULL || (p = strrchr(buf, ')')) == NULL ||
		    sscanf(p + 1, " %*c %ld", &ppid) != 1 || ppid != me)
			continue;
		ppid = strtol(d->d_name, NULL, 10);
		for (k = 0; before != NULL && k < before->n; k++)
			if (before->pid[k] == (pid_t)ppid)
				break;
		if (before != NULL && k < before->n)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if ((grown = realloc(list, cap * sizeof(*list))) ==
			    NULL) {
				free(list);
				closedir(dir);
				return -ENOMEM;
			}
			list = grown;
		}
		list[n++] = (pid_t)ppid;
	}
	closedir(dir);
	*out = list;
	return (long)n;
}

/*
 * Stop everything a run left behind: the command's process group (a
 * background job of a shell), then every child this process adopted as a
 * subreaper (double-forked and setsid daemons, whose own groups go too),
 * again and again as their orphans come to us, until none is left or
 * COMMAND_SWEEP_NS have passed.
 */
static int
command_sweep(bm_ctx *ctx, pid_t pgid, const struct command_kids *before,
    const char *name)
{
	uint64_t deadline = bm__deadline_now() + COMMAND_SWEEP_NS;
	struct timespec ts = { 0, 5000000 };
	pid_t *kids;
	long n, k;

	if (pgid > 0)
		(void)kill(-pgid, SIGKILL);
	for (;;) {
		if ((n = command_children(before, &kids)) < 0)
			return bm__fail(ctx, (int)n, "listing what %s left "
			    "running: %s", name, strerror((int)-n));
		for (k = 0; k < n; k++) {
			(void)kill(-kids[k], SIGKILL);
			(void)kill(kids[k], SIGKILL);
			(void)waitpid(kids[k], NULL, WNOHANG);
		}
		free(kids);
		if (n == 0)
			return 0;
		if (bm__deadline_now() >= deadline)
			return bm__fail(ctx, BM_ETIMEDOUT, "%ld process(es) "
			    "started by %s still running after %.0f s of "
			    "SIGKILL", n, name, COMMAND_SWEEP_NS / 1e9);
		(void)nanosleep(&ts, NULL);
	}
}

/*
 * The child: wait for the go byte, then exec.  If exec fails, its errno
 * goes back on the error pipe (closed by a successful exec, which the
 * parent sees as end of file).
 */
static void __attribute__((noreturn))
command_child(char *const argv[], int go, int errfd)
{
	unsigned char byte;
	int err;

	/* The caller's dispositions and no blocked signal, as exec expects. */
	bm__signals_restore_in_child();
#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
	/* No orphans: the command dies with the tool that measures it. */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	/* Its own group, which the parent kills whole after the run. */
	(void)setpgid(0, 0);
	if (read(go, &byte, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	err = errno;
	(void)write(errfd, &err, sizeof err);
	_exit(127);
}

/*
 * Take one reading: the time and the counts since the previous one, as a
 * result of one sample, handed to the caller's function.  The last one
 * (at the command's exit) takes the run's final time and counts, so that
 * the readings add up to the run.
 */
static int
command_reading(bm_ctx *ctx, struct command_tick *tk, uint64_t t,
    const double *final)
{
	double v[BM_MAX_EVENTS];
	bm_reading rd;
	bm_result r;
	size_t i;
	int rc;

	if (final != NULL)
		memcpy(v, final, sizeof v);
	else if (bm__counters_read(tk->c, &ctx->events, v) != 0)
		return bm__fail(ctx, -EIO, "reading the counters during a run");
	memset(&r, 0, sizeof r);
	if ((r.samples = calloc(1, sizeof(*r.samples))) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for a reading");
	r.nsamples = 1;
	r.parallel = r.repetitions = r.processes = 1;
	r.nevents = ctx->events.n;
	memcpy(r.events, ctx->events.info, sizeof(r.events));
	r.samples[0].ns = (double)(t - tk->tprev);
	r.samples[0].n = 1;
	r.samples[0].cycles = NAN;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		r.samples[0].events[i] = v[i] - tk->prev[i];
	r.wall_s = (double)(t - tk->tprev) / 1e9;
	if ((rc = bm__result_merge(ctx, &r, 1)) == 0) {
		rd.run = tk->run;
		rd.index = ++tk->index;
		rd.last = final != NULL;
		rd.since_ns = (double)(t - tk->t0);
		rd.result = &r;
		rc = tk->fn(ctx, &rd, tk->cookie);
		if (rc != 0 && ctx->err[0] == '\0')
			rc = bm__fail(ctx, rc, "reading %u of run %u: %s",
			    rd.index, rd.run + 1, bm_strerror(rc));
	}
	bm_result_free(&r);
	memcpy(tk->prev, v, sizeof v);
	tk->tprev = t;
	return rc;
}

/*
 * Kill the command pid and reap it within COMMAND_REAP_NS: 0, or
 * BM_ETIMEDOUT when it is still there (then it is said, and left).
 * status may be NULL.
 */
static int
command_kill(bm_ctx *ctx, pid_t pid, int *status, const char *name)
{
	uint64_t deadline = bm__deadline_now() + COMMAND_REAP_NS;
	struct timespec pause = { 0, 1000000 };
	int st;
	pid_t got;

	(void)kill(pid, SIGKILL);
	for (;;) {
		got = waitpid(pid, &st, WNOHANG);
		if (got == pid || (got < 0 && errno == ECHILD))
			break;
		if (got < 0 && errno != EINTR)
			break;
		if (bm__deadline_now() >= deadline) {
			(void)bm__fail(ctx, BM_ETIMEDOUT, "%s was killed but "
			    "did not end within %.0f s (uninterruptible "
			    "sleep?)", name, (double)COMMAND_REAP_NS / 1e9);
			return BM_ETIMEDOUT;
		}
		(void)nanosleep(&pause, NULL);
	}
	if (status != NULL)
		*status = got == pid ? st : 0;
	return 0;
}

/* Wait for the child within timeout_ns; 0 with its status or an error. */
static int
command_wait(bm_ctx *ctx, pid_t pid, uint64_t timeout_ns, int *status,
    const char *name, struct command_tick *tk)
{
	uint64_t deadline = bm__deadline_now() + timeout_ns, now, wake;
	int rc;
	struct timespec ts;
	sigset_t set;
	pid_t got;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (;;) {
		got = waitpid(pid, status, WNOHANG);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return bm__fail(ctx, -errno, "waiting for %s: %s", name,
			    strerror(errno));
		if (bm__signals_caught()) {
			(void)command_kill(ctx, pid, status, name);
			ctx->last_signal = bm__signals_caught();
			return bm__fail(ctx, BM_EINTR, "interrupted by signal "
			    "%d (%s)", ctx->last_signal,
			    strsignal(ctx->last_signal));
		}
		now = bm__deadline_now();
		if (now >= deadline) {
			if ((rc = command_kill(ctx, pid, status, name)) != 0)
				return rc;
			return bm__fail(ctx, BM_ETIMEDOUT, "%s did not finish "
			    "within %.0f s: killed", name,
			    (double)timeout_ns / 1e9);
		}
		if (tk->every_ns != 0 && now >= tk->next) {
			rc = command_reading(ctx, tk,
			    bm__clock_now(&ctx->timer), NULL);
			if (rc != 0) {
				(void)command_kill(ctx, pid, status, name);
				return rc;
			}
			/* Late (a slow callback): skip, never bunch up. */
			while (tk->next <= now)
				tk->next += tk->every_ns;
		}
		/* SIGCHLD is blocked: wake when it arrives, or at the end. */
		wake = deadline;
		if (tk->every_ns != 0 && tk->next < wake)
			wake = tk->next;
		if (wake - now < COMMAND_SLICE_NS)
			ts.tv_nsec = (long)(wake - now);
		else
			ts.tv_nsec = (long)COMMAND_SLICE_NS;
		ts.tv_sec = 0;
		(void)sigtimedwait(&set, NULL, &ts);
	}
}

/* Run the command once and time it from the go byte to its reaping. */
static int
command_once(bm_ctx *ctx, char *const argv[], uint64_t timeout_ns,
    const struct command_kids *before, struct command_tick *tk,
    bm_sample *out)
{
	bm__counters c;
	int go[2], errp[2], status, err, rc;
	uint64_t t0, t1;
	unsigned char byte = 1;
	ssize_t got;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) != 0)
		return bm__fail(ctx, -errno, "pipe: %s", strerror(errno));
	if (pipe2(errp, O_CLOEXEC) != 0) {
		err = errno;
		close(go[0]);
		close(go[1]);
		return bm__fail(ctx, -err, "pipe: %s", strerror(err));
	}
	if ((pid = fork()) < 0) {
		err = errno;
		close(go[0]);
		close(go[1]);
		close(errp[0]);
		close(errp[1]);
		return bm__fail(ctx, -err, "fork: %s", strerror(err));
	}
	if (pid == 0) {
		close(go[1]);
		close(errp[0]);
		command_child(argv, go[0], errp[1]);
	}
	close(go[0]);
	close(errp[1]);
	/* Also here, so that the group exists whichever runs first. */
	(void)setpgid(pid, pid);
	/* Count from the exec on, in the command and everything it starts. */
	rc = bm__counters_open_task(&c, &ctx->events, (int)pid);
	if (rc != 0) {
		(void)command_kill(ctx, pid, NULL, argv[0]);
		close(go[1]);
		close(errp[0]);
		(void)command_sweep(ctx, pid, before, argv[0]);
		return bm__fail(ctx, rc, "counting events of %s: %s", argv[0],
		    bm_strerror(rc));
	}
	tk->c = &c;
	tk->index = 0;
	memset(tk->prev, 0, sizeof(tk->prev));
	tk->next = bm__deadline_now() + tk->every_ns;
	t0 = bm__clock_now(&ctx->timer);
	tk->t0 = tk->tprev = t0;
	if (write(go[1], &byte, 1) != 1)
		rc = bm__fail(ctx, -errno, "starting %s: %s", argv[0],
		    strerror(errno));
	close(go[1]);
	if (rc == 0)
		rc = command_wait(ctx, pid, timeout_ns, &status, argv[0], tk);
	else
		(void)command_kill(ctx, pid, NULL, argv[0]);
	t1 = bm__clock_now(&ctx->timer);
	/* Nothing the command started outlives its run. */
	if ((err = command_sweep(ctx, pid, before, argv[0])) != 0 && rc == 0)
		rc = err;
	got = read(errp[0], &err, sizeof err);
	close(errp[0]);
	if (rc == 0 && got == (ssize_t)sizeof err)
		rc = bm__fail(ctx, BM_EBENCH, "cannot run %s: %s", argv[0],
		    strerror(err));
	else if (rc == 0 && WIFSIGNALED(status))
		rc = bm__fail(ctx, BM_EBENCH, "%s was killed by signal %d (%s)",
		    argv[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (rc == 0 && WEXITSTATUS(status) != 0)
		rc = bm__fail(ctx, BM_EBENCH, "%s exited with status %d",
		    argv[0], WEXITSTATUS(status));
	if (rc == 0 && bm__counters_read(&c, &ctx->events, out->events) != 0)
		rc = bm__fail(ctx, -EIO, "reading the counters of %s",
		    argv[0]);
	/* The rest of the run since the last reading, so that they add up. */
	if (rc == 0 && tk->every_ns != 0)
		rc = command_reading(ctx, tk, t1, out->events);
	bm__counters_close(&c);
	tk->c = NULL;
	out->ns = (double)(t1 - t0) - ctx->cal.timing_o_us * 1000.0;
	if (out->ns < 0)
		out->ns = 0;
	out->n = 1;
	out->cycles = NAN;
	out->worker = 0;
	return rc;
}

/* Run a command reps times and gather its times and counts. */
int
bm_run_command(bm_ctx *ctx, char *const argv[], unsigned reps,
    uint64_t timeout_us, bm_result *res)
{
	return bm_run_command_every(ctx, argv, reps, timeout_us, 0, NULL, NULL,
	    res);
}

/* As bm_run_command, with a reading every every_us handed to fn. */
int
bm_run_command_every(bm_ctx *ctx, char *const argv[], unsigned reps,
    uint64_t timeout_us, uint64_t every_us, bm_reading_fn fn, void *cookie,
    bm_result *res)
{
	struct command_kids before = { NULL, 0 };
	struct command_tick tk;
	sigset_t block, old;
	bm_calibration cal;
	uint64_t t0;
	unsigned i;
	int rc = 0, reaper = 0;
	long n;

	if (ctx == NULL || res == NULL || argv == NULL || argv[0] == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	ctx->err[0] = '\0';
	if (reps < 1 || reps > BM_MAX_REPETITIONS)
		return bm__fail(ctx, BM_ERANGE, "repetitions %u is out of range "
		    "(1 to %u)", reps, BM_MAX_REPETITIONS);
	if (every_us != 0 && fn == NULL)
		return -EINVAL;
	if (every_us != 0 && (every_us < COMMAND_EVERY_MIN_US ||
	    every_us > COMMAND_EVERY_MAX_US))
		return bm__fail(ctx, BM_ERANGE, "a reading every %llu us is "
		    "out of range (%llu to %llu)", (unsigned long long)every_us,
		    COMMAND_EVERY_MIN_US, COMMAND_EVERY_MAX_US);
	memset(&tk, 0, sizeof tk);
	tk.fn = fn;
	tk.cookie = cookie;
	tk.every_ns = every_us * 1000u;
	if ((rc = bm_calibrate(ctx, &cal)) != 0)
		return rc;
	if ((res->samples = calloc(reps, sizeof(*res->samples))) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for %u runs", reps);
	/* Each run is a fresh process: one round of one interval. */
	res->parallel = 1;
	res->repetitions = 1;
	res->nevents = ctx->events.n;
	memcpy(res->events, ctx->events.info, sizeof(res->events));
	/* The caller's own children are not the command's: leave them. */
	if ((n = command_children(NULL, &before.pid)) < 0) {
		bm_result_free(res);
		return bm__fail(ctx, (int)n, "listing child processes: %s",
		    strerror((int)-n));
	}
	before.n = (size_t)n;
	t0 = bm__deadline_now();
	/*
	 * A subreaper adopts the orphans of the command (a daemon that forks
	 * twice, or calls setsid), so they can be found and stopped; the
	 * caller's setting is put back after the runs.
	 */
#if defined(HAVE_PRCTL) && defined(PR_SET_CHILD_SUBREAPER)
	if (prctl(PR_GET_CHILD_SUBREAPER, &reaper) != 0)
		reaper = 0;
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
	if ((rc = bm__signals_install()) != 0) {
		rc = bm__fail(ctx, rc, "signal pipe: %s", bm_strerror(rc));
		goto out;
	}
	/* SIGCHLD stays blocked so that the wait can sleep on it. */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < reps && rc == 0; i++) {
		tk.run = i;
		rc = command_once(ctx, argv, (timeout_us ? timeout_us :
		    COMMAND_TIMEOUT_US) * 1000u, &before, &tk,
		    &res->samples[i]);
		res->samples[i].process = i;
		res->nsamples = i + 1;
		res->processes = i + 1;
		if (rc == 0 && bm__signals_caught()) {
			ctx->last_signal = bm__signals_caught();
			rc = bm__fail(ctx, BM_EINTR, "interrupted by signal "
			    "%d (%s)", ctx->last_signal,
			    strsignal(ctx->last_signal));
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	bm__signals_close();
out:
#if defined(HAVE_PRCTL) && defined(PR_SET_CHILD_SUBREAPER)
	(void)prctl(PR_SET_CHILD_SUBREAPER, reaper);
#endif
	(void)reaper;
	free(before.pid);
	res->wall_s = (double)(bm__deadline_now() - t0) / 1e9;
	if (rc == 0)
		rc = bm__result_merge(ctx, res, 1);
	if (rc != 0)
		bm_result_free(res);
	return rc;
}
