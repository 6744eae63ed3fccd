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
 * SIGCHLD during a run.  The engine needs each worker's exit status: an
 * application that ignores SIGCHLD (SIG_IGN, SA_NOCLDWAIT) has the
 * kernel reap its children unwaited, and one whose handler waits for any
 * child takes the status first, so a worker killed by a signal could not
 * be told from one that exited.  During the run SIGCHLD is therefore
 * held in the thread that runs it, and its default put in place of
 * ignoring it; afterwards the application's handler runs once for
 * whatever ended meanwhile (its own children among them) and finds the
 * workers reaped.  (A child of its own that ends during the run of an
 * application that ignores SIGCHLD stays a zombie until it waits.)
 */
static struct sigaction signals_chld_saved;
static int signals_chld_replaced;
static sigset_t signals_mask_saved;
static int signals_mask_held;

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

	sigset_t chld;

	if (pipe2(signals_sigpipe, O_CLOEXEC | O_NONBLOCK) != 0)
		return -errno;
	signals_caught = 0;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	signals_mask_held = sigprocmask(SIG_BLOCK, &chld,
	    &signals_mask_saved) == 0;
	signals_chld_replaced = 0;
	if (sigaction(SIGCHLD, NULL, &signals_chld_saved) == 0 &&
	    (signals_chld_saved.sa_handler == SIG_IGN ||
	    (signals_chld_saved.sa_flags & SA_NOCLDWAIT))) {
		sa.sa_handler = SIG_DFL;
		signals_chld_replaced = sigaction(SIGCHLD, &sa, NULL) == 0;
	}
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
 * Put back the dispositions replaced by bm__signals_install(), then the
 * signal mask (SIGCHLD held during the run).
 */
static void
signals_restore(void)
{
	size_t i;

	for (i = 0; i < SIGNALS_N; i++) {
		if (signals_installed[i])
			(void)sigaction(signals_list[i], &signals_saved[i],
			    NULL);
		signals_installed[i] = 0;
	}
	if (signals_chld_replaced)
		(void)sigaction(SIGCHLD, &signals_chld_saved, NULL);
	signals_chld_replaced = 0;
	if (signals_mask_held)
		(void)sigprocmask(SIG_SETMASK, &signals_mask_saved, NULL);
	signals_mask_held = 0;
}

/*
 * Restore the application's dispositions and signal mask, and close the
 * signal pipe.
 */
void
bm__signals_close(void)
{
	signals_restore();
	if (signals_sigpipe[0] >= 0)
		(void)close(signals_sigpipe[0]);
	if (signals_sigpipe[1] >= 0)
		(void)close(signals_sigpipe[1]);
	signals_sigpipe[0] = signals_sigpipe[1] = -1;
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

	bm__signals_close();
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

/* Empty the signal pipe after a SIGCONT woke the parent's poll. */
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
