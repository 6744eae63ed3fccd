/* command.c: measure another program, run after run, with its counters. */
#include "config.h"

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

#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
	/* No orphans: the command dies with the tool that measures it. */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (read(go, &byte, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	err = errno;
	(void)write(errfd, &err, sizeof err);
	_exit(127);
}

/* Wait for the child within timeout_ns; 0 with its status or an error. */
static int
command_wait(bm_ctx *ctx, pid_t pid, uint64_t timeout_ns, int *status,
    const char *name)
{
	uint64_t deadline = bm__deadline_now() + timeout_ns, now;
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
		now = bm__deadline_now();
		if (now >= deadline) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return bm__fail(ctx, BM_ETIMEDOUT, "%s did not finish "
			    "within %.0f s: killed", name,
			    (double)timeout_ns / 1e9);
		}
		/* SIGCHLD is blocked: wake when it arrives, or at the end. */
		ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline - now) % 1000000000u);
		(void)sigtimedwait(&set, NULL, &ts);
	}
}

/* Run the command once and time it from the go byte to its reaping. */
static int
command_once(bm_ctx *ctx, char *const argv[], uint64_t timeout_ns,
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
	/* Count from the exec on, in the command and everything it starts. */
	rc = bm__counters_open_task(&c, &ctx->events, (int)pid);
	if (rc != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(go[1]);
		close(errp[0]);
		return bm__fail(ctx, rc, "counting events of %s: %s", argv[0],
		    bm_strerror(rc));
	}
	t0 = bm__clock_now(&ctx->timer);
	if (write(go[1], &byte, 1) != 1)
		rc = bm__fail(ctx, -errno, "starting %s: %s", argv[0],
		    strerror(errno));
	close(go[1]);
	if (rc == 0)
		rc = command_wait(ctx, pid, timeout_ns, &status, argv[0]);
	else {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	t1 = bm__clock_now(&ctx->timer);
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
	bm__counters_close(&c);
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
	sigset_t block, old;
	bm_calibration cal;
	uint64_t t0;
	unsigned i;
	int rc = 0;

	if (ctx == NULL || res == NULL || argv == NULL || argv[0] == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	ctx->err[0] = '\0';
	if (reps < 1 || reps > BM_MAX_REPETITIONS)
		return bm__fail(ctx, BM_ERANGE, "repetitions %u is out of range "
		    "(1 to %u)", reps, BM_MAX_REPETITIONS);
	if ((rc = bm_calibrate(ctx, &cal)) != 0)
		return rc;
	if ((res->samples = calloc(reps, sizeof(*res->samples))) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for %u runs", reps);
	/* Each run is a fresh process: one round of one interval. */
	res->parallel = 1;
	res->repetitions = 1;
	res->nevents = ctx->events.n;
	memcpy(res->events, ctx->events.info, sizeof(res->events));
	/* SIGCHLD stays blocked so that the wait can sleep on it. */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	t0 = bm__deadline_now();
	for (i = 0; i < reps && rc == 0; i++) {
		rc = command_once(ctx, argv, (timeout_us ? timeout_us :
		    COMMAND_TIMEOUT_US) * 1000u, &res->samples[i]);
		res->samples[i].process = i;
		res->nsamples = i + 1;
		res->processes = i + 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	res->wall_s = (double)(bm__deadline_now() - t0) / 1e9;
	if (rc == 0)
		rc = bm__result_merge(ctx, res, 1);
	if (rc != 0)
		bm_result_free(res);
	return rc;
}
