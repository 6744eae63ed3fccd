/* ab-run.c: benchmp-ab's runs of an arm: start, read with a deadline, reap, kill. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_PRCTL
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"

/* The most a run may print on stdout: records of a sweep, bounded. */
#define AB_OUT_MAX		(16u << 20)
/* The descriptors the guard closes, all but its pipe's. */
#define RUN_GUARD_FDS		1024
/* The most reads of what an ended run left in its pipes (all AB_OUT_MAX). */
#define RUN_DRAIN_READS		((int)(AB_OUT_MAX / 65536) + 2)

/*
 * What a signal handler must reach, so file-level (one benchmp-ab, one
 * run at a time): the process group of the run under way (0 when none)
 * and the pipe to the guard that kills it if benchmp-ab dies.
 */
static volatile sig_atomic_t run_live;
static int run_guard_fd = -1;

/* Seconds on the monotonic clock. */
static double
run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Note the process group of the run under way (0: none), and tell the guard. */
static void
run_tell(pid_t pgid)
{
	int v = (int)pgid;

	run_live = v;
	if (run_guard_fd >= 0 && write(run_guard_fd, &v, sizeof v) < 0)
		(void)0;	/* a dead guard: the handlers still kill */
}

/*
 * The guard: read the process groups benchmp-ab announces until the
 * pipe ends, which is when benchmp-ab ends, however (SIGKILL too), and
 * then kill the last one announced.  Its own group and no terminal
 * signal, so what ends benchmp-ab's group does not end it first.
 */
static void __attribute__((noreturn))
run_guard(int fd)
{
	int v, pg = 0, nul, i;
	ssize_t got;

	(void)setpgid(0, 0);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	if ((nul = open("/dev/null", O_RDWR)) >= 0) {
		(void)dup2(nul, STDIN_FILENO);
		(void)dup2(nul, STDOUT_FILENO);
		(void)dup2(nul, STDERR_FILENO);
	}
	for (i = STDERR_FILENO + 1; i < RUN_GUARD_FDS; i++)
		if (i != fd)
			(void)close(i);
	for (;;) {
		got = read(fd, &v, sizeof v);
		if (got == (ssize_t)sizeof v) {
			pg = v;
			continue;
		}
		if (got < 0 && errno == EINTR)
			continue;
		break;
	}
	if (pg > 0)
		(void)kill(-pg, SIGKILL);
	_exit(0);
}

/* A catchable fatal signal: kill the run under way, then die of it. */
static void
run_on_fatal(int sig)
{
	pid_t pg = (pid_t)run_live;

	if (pg > 0)
		(void)kill(-pg, SIGKILL);
	/* SA_RESETHAND and SA_NODEFER: this raise ends the process. */
	(void)raise(sig);
}

/* 1 when sig is one of the n in keep. */
static int
run_kept(int sig, const int *keep, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (keep[i] == sig)
			return 1;
	return 0;
}

/*
 * Make sure no arm outlives benchmp-ab: a guard process that kills the
 * running arm's group when benchmp-ab ends in any way (SIGKILL too), and
 * handlers of the catchable fatal signals but those in keep (which the
 * caller handles) that kill it and die of the signal.  0 or -1 (errno).
 */
int
ab_run_guard(const int *keep, size_t nkeep)
{
	static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP,
	    SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE,
	    SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#ifdef SIGSTKFLT
	    SIGSTKFLT,
#endif
#ifdef SIGPWR
	    SIGPWR,
#endif
#ifdef SIGIO
	    SIGIO,
#endif
	};
	struct sigaction sa;
	int fds[2], sig;
	size_t i;
	pid_t pid;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		if (!run_kept(fatal[i], keep, nkeep) &&
		    sigaction(fatal[i], &sa, NULL) != 0)
			return -1;
#ifdef SIGRTMIN
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if (!run_kept(sig, keep, nkeep))
			(void)sigaction(sig, &sa, NULL);
#else
	(void)sig;
#endif
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[1]);
		run_guard(fds[0]);
	}
	close(fds[0]);
	run_guard_fd = fds[1];
	return 0;
}

/*
 * Catch SIGINT, SIGTERM and SIGHUP with on_signal (which ends the runs
 * early: a run is in a process group of its own, which the terminal's
 * ^C does not reach, so the caller kills it), ignore SIGPIPE (a closed
 * output is an error said), put SIGCHLD back to its default, and start
 * the guard and the handlers that take the run along on every other
 * fatal signal.  0 or -1 (errno).
 *
 * SIGCHLD ignored (inherited through exec, as a caller may leave it)
 * would have the kernel reap the runs: their exit status lost, every
 * run would fail, its end not seen.  A SIGHUP ignored at the start
 * (nohup) stays ignored, for the runs too: the comparison goes on after
 * a logout, as nohup promises.  SIGINT is caught even when ignored (a
 * background job's): a run's own process group is out of the terminal's
 * reach, so only this process can end it.
 */
int
ab_run_signals(void (*on_signal)(int))
{
	static const int keep[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL) != 0)
		return -1;
	sa.sa_handler = on_signal;
	for (i = 0; i < 3; i++) {
		if (sigaction(keep[i], NULL, &old) != 0)
			return -1;
		if (keep[i] == SIGHUP && old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(keep[i], &sa, NULL) != 0)
			return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	return ab_run_guard(keep, sizeof keep / sizeof keep[0]);
}

/*
 * In the child: its own process group, the pipes in place, exec argv;
 * on failure say why on stderr and exit 127 as a shell does.
 */
static void __attribute__((noreturn))
run_child(char *const *argv, int out, int err, pid_t parent)
{
	if (setpgid(0, 0) != 0)
		_exit(127);
#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
	/* No orphan: the run dies with benchmp-ab, even of SIGKILL. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
#else
	(void)parent;
#endif
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	if (out != STDOUT_FILENO)
		close(out);
	if (err != STDERR_FILENO)
		close(err);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "cannot run '%s': %s\n", argv[0],
	    strerror(errno));
	_exit(127);
}

/*
 * The parent's caught signals are blocked across the fork: one sent to
 * the child's group between the fork and the exec would otherwise run the
 * parent's handler in the child and be lost (benchmp-sched's SIGTERM to a
 * tool it had just started, on a signal of its own, so came to nothing
 * and its SIGKILL followed 5 s later).  The child puts each caught signal
 * back to its default, and SIGPIPE (which the parent ignores) too, as a
 * shell leaves them, then unblocks: a pending one ends it.
 */
pid_t
ab_fork_tool(void)
{
	sigset_t all, old;
	struct sigaction sa;
	pid_t pid;
	int sig, saved;

	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	saved = errno;
	if (pid == 0) {
		for (sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP &&
			    sigaction(sig, NULL, &sa) == 0 &&
			    sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
				(void)signal(sig, SIG_DFL);
		(void)signal(SIGPIPE, SIG_DFL);
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return pid;
}

/* Start argv with its output on pipes.  0 or -1 and why. */
int
ab_run_start(struct ab_run *run, char *const *argv)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 };
	pid_t self = getpid();

	memset(run, 0, sizeof *run);
	run->status = -1;
	run->out_fd = run->err_fd = -1;
	run->pid = -1;
	run->out_cap = 65536;
	if ((run->out = malloc(run->out_cap)) == NULL) {
		snprintf(run->why, sizeof run->why, "out of memory");
		return -1;
	}
	run->out[0] = '\0';
	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
		snprintf(run->why, sizeof run->why, "cannot make a pipe: %s",
		    strerror(errno));
		goto fail;
	}
	if ((run->pid = ab_fork_tool()) < 0) {
		snprintf(run->why, sizeof run->why, "cannot fork: %s",
		    strerror(errno));
		goto fail;
	}
	if (run->pid == 0)
		run_child(argv, out[1], err[1], self);
	/* Also here, so a kill of the group cannot miss the child's start. */
	(void)setpgid(run->pid, run->pid);
	run_tell(run->pid);
	close(out[1]);
	close(err[1]);
	run->out_fd = out[0];
	run->err_fd = err[0];
	return 0;
fail:
	if (out[0] >= 0) {
		close(out[0]);
		close(out[1]);
	}
	if (err[0] >= 0) {
		close(err[0]);
		close(err[1]);
	}
	free(run->out);
	run->out = NULL;
	return -1;
}

/* Read what is there on fd into the run (stdout when is_out); 0 at EOF. */
static int
run_read(struct ab_run *run, int is_out)
{
	/* Static: 64 KB off a stack that a user may limit to 32 KB. */
	static char buf[65536];
	ssize_t got;

	got = read(is_out ? run->out_fd : run->err_fd, buf, sizeof buf);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (got == 0)
		return 0;
	if (is_out) {
		size_t g = (size_t)got;

		if (run->out_len + g + 1 > AB_OUT_MAX) {
			run->too_long = 1;
			return 1;
		}
		if (run->out_len + g + 1 > run->out_cap) {
			size_t cap = run->out_cap;
			char *p;

			while (run->out_len + g + 1 > cap)
				cap *= 2;
			if ((p = realloc(run->out, cap)) == NULL) {
				run->too_long = 1;
				return 1;
			}
			run->out = p;
			run->out_cap = cap;
		}
		memcpy(run->out + run->out_len, buf, g);
		run->out_len += g;
		run->out[run->out_len] = '\0';
	} else if (run->err_len + 1 < sizeof run->err) {
		size_t room = sizeof run->err - 1 - run->err_len;
		size_t g = (size_t)got < room ? (size_t)got : room;

		memcpy(run->err + run->err_len, buf, g);
		run->err_len += g;
		run->err[run->err_len] = '\0';
	}
	return 1;
}

/* Kill run's process group (what it forked too) and reap it. */
static void
run_kill(struct ab_run *run)
{
	if (run->pid <= 0)
		return;
	(void)kill(-run->pid, SIGKILL);
	if (run->status == -1) {
		while (waitpid(run->pid, &run->status, 0) < 0 && errno == EINTR)
			;
	}
}

/* Close what is open of a run's pipes. */
static void
run_close(struct ab_run *run)
{
	if (run->out_fd >= 0)
		close(run->out_fd);
	if (run->err_fd >= 0)
		close(run->err_fd);
	run->out_fd = run->err_fd = -1;
}

/*
 * Read what is left in a run's pipes without waiting for more: once the
 * run has ended, all it wrote is there.  At most RUN_DRAIN_READS reads,
 * for a process that left its group and writes on.
 */
static void
run_drain(struct ab_run *run)
{
	int k, is_out, more = 1;

	for (k = 0; k < RUN_DRAIN_READS && more; k++) {
		more = 0;
		for (is_out = 0; is_out < 2; is_out++) {
			int *fd = is_out ? &run->out_fd : &run->err_fd;
			struct pollfd pfd;

			if (*fd < 0)
				continue;
			pfd.fd = *fd;
			pfd.events = POLLIN;
			pfd.revents = 0;
			if (poll(&pfd, 1, 0) <= 0 ||
			    !(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			more = 1;
			if (run_read(run, is_out) == 0) {
				close(*fd);
				*fd = -1;
			}
		}
	}
}

/*
 * The deadline has passed, or a signal stopped the runs (stopped).  A
 * run that ended by now is looked for once more, and what it wrote is
 * read: this process may have been kept from running (stopped, a loaded
 * machine) until past the deadline while the run ended in time, and its
 * record was then lost unread.  A run still going is timed out, unless
 * stopped; either way its group is killed and its pipes closed.
 */
static void
run_deadline(struct ab_run *run, int stopped)
{
	int st;

	if (!stopped && run->status == -1 && run->pid > 0 &&
	    waitpid(run->pid, &st, WNOHANG) == run->pid)
		run->status = st;
	if (!stopped && run->status != -1) {
		/* What it left behind holding its pipes writes no more. */
		(void)kill(-run->pid, SIGKILL);
		run_drain(run);
	} else if (!stopped) {
		run->timed_out = 1;
	}
	run_kill(run);
	run_close(run);
}

/*
 * Read the n runs' output until each has closed its pipes and exited, or
 * timeout seconds pass (the late ones are killed, timed_out set) or *stop
 * is set (all are killed).  Whatever a run forked and left is killed
 * with its group.  0, or -1 when stopped.
 */
int
ab_run_wait(struct ab_run *runs, int n, double timeout,
    volatile sig_atomic_t *stop)
{
	double deadline = run_now() + timeout;
	int i, left;

	for (;;) {
		struct pollfd pfd[4];
		struct ab_run *who[4];
		int is_out[4], np = 0, ms;
		double rest = deadline - run_now();

		left = 0;
		for (i = 0; i < n && i < 2; i++) {
			struct ab_run *r = &runs[i];

			if (r->out_fd >= 0) {
				pfd[np].fd = r->out_fd;
				pfd[np].events = POLLIN;
				who[np] = r;
				is_out[np++] = 1;
			}
			if (r->err_fd >= 0) {
				pfd[np].fd = r->err_fd;
				pfd[np].events = POLLIN;
				who[np] = r;
				is_out[np++] = 0;
			}
			/*
			 * The run ends with its process: what it left
			 * behind holding the pipes is killed with its
			 * group, and what it wrote is still read to EOF.
			 */
			if (r->status == -1 &&
			    waitpid(r->pid, &r->status, WNOHANG) == 0)
				left++;
			else if (r->out_fd >= 0 || r->err_fd >= 0)
				(void)kill(-r->pid, SIGKILL);
			left += r->status != -1 &&
			    (r->out_fd >= 0 || r->err_fd >= 0);
		}
		if (left == 0)
			break;
		if (*stop || rest <= 0) {
			for (i = 0; i < n; i++)
				run_deadline(&runs[i], *stop != 0);
			run_tell(0);
			return *stop ? -1 : 0;
		}
		/* Look for the process's exit every 10 ms at most. */
		ms = (int)ceil(rest * 1000);
		if (ms > 10)
			ms = 10;
		if (np == 0) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			continue;
		}
		if (poll(pfd, (nfds_t)np, ms) < 0 && errno != EINTR)
			break;
		for (i = 0; i < np; i++) {
			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (run_read(who[i], is_out[i]) == 0) {
				int *fd = is_out[i] ? &who[i]->out_fd :
				    &who[i]->err_fd;

				close(*fd);
				*fd = -1;
			}
		}
	}
	for (i = 0; i < n; i++) {
		run_close(&runs[i]);
		if (runs[i].status == -1)
			run_kill(&runs[i]);
		/* The group may outlive its leader: leave nothing behind. */
		(void)kill(-runs[i].pid, SIGKILL);
	}
	run_tell(0);
	return 0;
}

/* The first line of s, without control characters, into buf. */
static void
run_first_line(const char *s, char *buf, size_t size)
{
	size_t i = 0;

	for (; *s != '\0' && *s != '\n' && i + 1 < size; s++)
		buf[i++] = (unsigned char)*s < 0x20 ? '?' : *s;
	buf[i] = '\0';
}

/* 1 (with why) when a run did not end well: signal, status, timeout. */
int
ab_run_failed(const struct ab_run *run, char *why, size_t size)
{
	char line[256];

	run_first_line(run->err, line, sizeof line);
	if (run->timed_out)
		snprintf(why, size, "did not finish within its timeout "
		    "(--timeout)");
	else if (run->too_long)
		snprintf(why, size, "printed over %u MB", AB_OUT_MAX >> 20);
	else if (run->status == -1)
		snprintf(why, size, "its end was not seen");
	else if (WIFSIGNALED(run->status))
		snprintf(why, size, "killed by signal %d (%s)%s%s",
		    WTERMSIG(run->status), strsignal(WTERMSIG(run->status)),
		    line[0] ? ": " : "", line);
	else if (WEXITSTATUS(run->status) != 0)
		snprintf(why, size, "exit status %d%s%s",
		    WEXITSTATUS(run->status), line[0] ? ": " : "", line);
	else
		return 0;
	return 1;
}

/* Release a run's buffers. */
void
ab_run_free(struct ab_run *run)
{
	run_close(run);
	free(run->out);
	run->out = NULL;
}

/*
 * Calibrate once for both arms: run enough --export --all (beside this
 * program, else on PATH) and export what it prints, unless the caller
 * exported the three values already (with BENCHMP_CALIBRATED, which
 * names the two overheads it measured: a value the caller gave is not
 * named, so the tools check that one; and with BENCHMP_OVERHEAD_CLOCK,
 * the clock of the TIMING_O taken from it when that is not the one the
 * tools assume, so that a tool on another clock measures its own).
 * Both arms then subtract the same overheads, so a calibration that
 * differs between runs is not a difference between the arms.  0, or -1
 * and why (each run then calibrates itself).
 */
int
ab_run_calibrate(volatile sig_atomic_t *stop, char *why, size_t size)
{
	char *argv[] = { NULL, "--export", "--all", NULL }, *line, *save;
	struct ab_run run;
	/* Static: an A/B's stack may be bound by its user (ulimit -s). */
	static char path[4096];
	int own_timing = getenv("TIMING_O") == NULL;

	if (getenv("ENOUGH") != NULL && !own_timing && getenv("LOOP_O") != NULL)
		return 0;
	if (ab_beside_self("enough", path, sizeof path) != 0)
		snprintf(path, sizeof path, "enough");
	argv[0] = path;
	if (ab_run_start(&run, argv) != 0 ||
	    ab_run_wait(&run, 1, 120, stop) != 0 || run.status != 0) {
		snprintf(why, size, "%s", run.why[0] ? run.why :
		    "enough failed");
		ab_run_free(&run);
		return -1;
	}
	for (line = strtok_r(run.out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *eq;

		if (strncmp(line, "export ", 7) != 0 ||
		    (eq = strchr(line + 7, '=')) == NULL)
			continue;
		*eq = '\0';
		if (strcmp(line + 7, "ENOUGH") != 0 &&
		    strcmp(line + 7, "TIMING_O") != 0 &&
		    strcmp(line + 7, "LOOP_O") != 0 &&
		    strcmp(line + 7, "BENCHMP_CALIBRATED") != 0 &&
		    (strcmp(line + 7, "BENCHMP_OVERHEAD_CLOCK") != 0 ||
		    !own_timing))
			continue;
		if (getenv(line + 7) == NULL)
			setenv(line + 7, eq + 1, 0);
	}
	ab_run_free(&run);
	return 0;
}
