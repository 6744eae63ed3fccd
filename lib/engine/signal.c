/* signal.c: fatal signals and SIGCONT during a run, so workers are reaped. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/*
 * Signals.  A handler can reach nothing but globals, so the engine keeps
 * the pipe it writes to and the dispositions it replaced here.  They are
 * set only while bm_run() is running.
 */
static const int signals_list[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE,
    SIGCONT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM,
    SIGPROF };
/*
 * From SIGQUIT on, the other signals whose default is to end the process
 * (the ones that can be caught and are not a fault of the code itself):
 * caught only where the application left the default, so that a handler
 * of its own (a profiler's SIGPROF, a SIGUSR1 it uses) stays.
 */
#define SIGNALS_FIRST_DFL_ONLY 5
#define SIGNALS_N (sizeof(signals_list) / sizeof(signals_list[0]))
static struct sigaction signals_saved[SIGNALS_N];
static int signals_installed[SIGNALS_N];
static int signals_sigpipe[2] = { -1, -1 };
static volatile sig_atomic_t signals_caught;
static volatile sig_atomic_t signals_continued;
/*
 * SIGCHLD during a run.  The engine needs each worker's exit status, and
 * to know at once that a worker ended, also when a process its benchmark
 * forked still holds the worker's pipes (no end of file comes then).  An
 * application that ignores SIGCHLD (SIG_IGN, SA_NOCLDWAIT) has the kernel
 * reap its children unwaited, and one whose handler waits for any child
 * takes the status first: a worker killed by a signal could not be told
 * from one that exited.  So during the run SIGCHLD has the engine's
 * handler, which counts and wakes the parent's poll; afterwards the
 * application's disposition is put back, and its handler, if it has
 * one, is sent one SIGCHLD for whatever ended meanwhile (its own
 * children among them).  (A child of its own that ends during the run
 * of an application that ignores SIGCHLD stays a zombie until it waits.)
 */
static struct sigaction signals_chld_saved;
static int signals_chld_installed;
static volatile sig_atomic_t signals_children;

/*
 * Note that the process was continued after a stop (job control: Ctrl-Z
 * and fg) and wake the parent's poll, which then counts its deadlines
 * again from now: a stopped run is not a hung worker.
 */
static void
signals_on_cont(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;

	signals_continued++;
	if (signals_sigpipe[1] >= 0 && write(signals_sigpipe[1], &c, 1) < 0) {
		/* The pipe is full: the counter alone is enough. */
	}
	errno = saved;
}

/* Count a child's end and wake the parent's poll (see signals_children). */
static void
signals_on_child(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;

	signals_children++;
	if (signals_sigpipe[1] >= 0 && write(signals_sigpipe[1], &c, 1) < 0) {
		/* The pipe is full: the counter alone is enough. */
	}
	errno = saved;
}

/* Note a signal and wake the parent's poll. */
static void
signals_on_signal(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;

	if (signals_caught == 0)
		signals_caught = sig;
	if (write(signals_sigpipe[1], &c, 1) < 0) {
		/* The pipe is full: the flag alone is enough. */
	}
	errno = saved;
}

/*
 * Catch SIGINT, SIGTERM, SIGHUP and the other fatal signals so the
 * workers can be reaped, and ignore SIGPIPE so a dead worker's pipe is an
 * error, not a death.  A signal the application ignores stays ignored.
 */
int
bm__signals_install(void)
{
	struct sigaction sa;
	size_t i;

	if (pipe2(signals_sigpipe, O_CLOEXEC | O_NONBLOCK) != 0)
		return -errno;
	signals_caught = 0;
	signals_children = 0;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* Ended children only (not stopped ones), and no unwaited reaping. */
	sa.sa_handler = signals_on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	signals_chld_installed = sigaction(SIGCHLD, &sa, &signals_chld_saved)
	    == 0;
	sa.sa_flags = 0;
	for (i = 0; i < SIGNALS_N; i++) {
		signals_installed[i] = 0;
		if (sigaction(signals_list[i], NULL, &signals_saved[i]) != 0)
			continue;
		if (signals_saved[i].sa_handler == SIG_IGN)
			continue;
		sa.sa_handler = signals_list[i] == SIGPIPE ? SIG_IGN :
		    signals_list[i] == SIGCONT ? signals_on_cont :
		    signals_on_signal;
		/* An application's own SIGCONT handler stays, as these do. */
		if ((signals_list[i] == SIGCONT ||
		    i >= SIGNALS_FIRST_DFL_ONLY) &&
		    signals_saved[i].sa_handler != SIG_DFL)
			continue;
		if (sigaction(signals_list[i], &sa, NULL) == 0)
			signals_installed[i] = 1;
	}
	return 0;
}

/*
 * Put back the dispositions replaced by bm__signals_install().  In the
 * parent (tell set), an application's SIGCHLD handler is then sent the
 * SIGCHLD that the engine's took in its place.
 */
static void
signals_restore(int tell)
{
	size_t i;

	for (i = 0; i < SIGNALS_N; i++) {
		if (signals_installed[i])
			(void)sigaction(signals_list[i], &signals_saved[i],
			    NULL);
		signals_installed[i] = 0;
	}
	if (signals_chld_installed) {
		(void)sigaction(SIGCHLD, &signals_chld_saved, NULL);
		if (tell && signals_children != 0 &&
		    signals_chld_saved.sa_handler != SIG_DFL &&
		    signals_chld_saved.sa_handler != SIG_IGN)
			(void)raise(SIGCHLD);
	}
	signals_chld_installed = 0;
}

/* Close the signal pipe. */
static void
signals_close_pipe(void)
{
	if (signals_sigpipe[0] >= 0)
		(void)close(signals_sigpipe[0]);
	if (signals_sigpipe[1] >= 0)
		(void)close(signals_sigpipe[1]);
	signals_sigpipe[0] = signals_sigpipe[1] = -1;
}

/* Restore the application's dispositions and close the signal pipe. */
void
bm__signals_close(void)
{
	signals_restore(1);
	signals_close_pipe();
}

/* The number of SIGCHLDs the run has seen so far. */
unsigned
bm__signals_children(void)
{
	return (unsigned)signals_children;
}

/*
 * In a worker: the application's dispositions, no signal pipe, and a
 * SIGCONT counter where the application has no SIGCONT handler of its
 * own, so that the worker can tell an interval that spanned a stop (job
 * control) from one that ran.  The handler restarts system calls
 * (SA_RESTART); those that are never restarted after a handler (poll,
 * select, nanosleep, semop) fail with EINTR only in the interval that
 * spanned the stop, which is thrown away.  exec() resets it, so a program
 * a benchmark runs sees the default.
 */
void
bm__signals_restore_in_child(void)
{
	struct sigaction sa, old;
	sigset_t none;

	signals_restore(0);
	signals_close_pipe();
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	signals_continued = 0;
	if (sigaction(SIGCONT, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = signals_on_cont;
	sa.sa_flags = SA_RESTART;
	(void)sigaction(SIGCONT, &sa, NULL);
}

/* The signal that interrupted the run, or 0. */
int
bm__signals_caught(void)
{
	return signals_caught;
}

/*
 * How many times the process was continued (SIGCONT) during the run, in
 * the parent or in a worker.
 */
unsigned
bm__signals_continued(void)
{
	return (unsigned)signals_continued;
}

/* Empty the signal pipe (before the parent reads the signals' counts). */
void
bm__signals_drain(void)
{
	unsigned char buf[64];

	if (signals_sigpipe[0] < 0)
		return;
	while (read(signals_sigpipe[0], buf, sizeof buf) > 0)
		continue;
}

/* The descriptor that becomes readable when a signal arrives. */
int
bm__signals_fd(void)
{
	return signals_sigpipe[0];
}
