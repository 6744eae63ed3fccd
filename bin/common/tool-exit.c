/*
 * tool-exit.c: how a tool ends: its messages, its exit status and the
 * signal-safe removal of its private directory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cluster.h"
#include "progress.h"
#include "tool.h"
#include "tool-private.h"

/*
 * Exit 0 once what was printed on stdout is out, or say why it is not
 * (a full disk, a closed stdout) and exit 1: a silent exit 1 tells the
 * user nothing.
 */
void
tool_exit_printed(const struct tool *t)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		cluster_exit(0, 0);
	fprintf(stderr, "%s: writing to standard output: %s\n", t->name,
	    strerror(errno));
	cluster_exit(1, 0);
}

/* The private directory of tool_exit_tmpdir(), and the process that owns it. */
static char tool_dir[512];
static pid_t tool_dir_owner;

/* The part of a Linux directory entry that getdents64 returns. */
struct tool_dirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * Remove everything under the directory dirfd, then close it, with calls
 * that are safe in a signal handler (no malloc, no stdio, no nftw: a
 * signal that lands inside malloc would otherwise deadlock the tool).
 * Depth is bounded; the tools make one level.
 */
static void
tool_exit_rm_under(int dirfd, int depth)
{
	char buf[2048] __attribute__((aligned(8)));
	struct tool_dirent *d;
	long got, i;
	int sub, again;

	do {
		again = 0;
		/* Entries are removed as they are read: read from the start. */
		(void)lseek(dirfd, 0, SEEK_SET);
		while ((got = syscall(SYS_getdents64, dirfd, buf,
		    sizeof buf)) > 0) {
			for (i = 0; i < got; i += d->reclen) {
				d = (struct tool_dirent *)(void *)(buf + i);
				if (strcmp(d->name, ".") == 0 ||
				    strcmp(d->name, "..") == 0)
					continue;
				if (unlinkat(dirfd, d->name, 0) == 0)
					continue;
				if (errno != EISDIR || depth >= 4)
					continue;
				sub = openat(dirfd, d->name, O_RDONLY |
				    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					continue;
				tool_exit_rm_under(sub, depth + 1);
				if (unlinkat(dirfd, d->name, AT_REMOVEDIR) == 0)
					again = 1;
			}
		}
	} while (again);
	(void)close(dirfd);
}

/* Remove the private directory (async-signal-safe). */
static void
tool_exit_rm_dir(void)
{
	int fd;

	if (tool_dir[0] == '\0' || tool_dir_owner != getpid())
		return;
	fd = open(tool_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		tool_exit_rm_under(fd, 0);
	(void)rmdir(tool_dir);
}

/*
 * Run the tool's cleanup hook and remove its private directory.  Only the
 * process that made the directory removes it: a worker or partner that
 * fails must not pull it from under the others.
 */
void
tool_exit_cleanup(const struct tool *t)
{
	if (t->cleanup != NULL)
		t->cleanup();
	tool_exit_rm_dir();
	tool_dir[0] = '\0';
}

/*
 * The signals whose default ends the process and that a tool catches to
 * clean up before it dies of them (the faults, SIGSEGV and the like, are
 * left to kill it: the state is not to be trusted then).  SIGXFSZ is not
 * here: the tools that write files ignore it and report EFBIG.
 */
const int tool_fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE,
    SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF };
const size_t tool_nfatal = sizeof(tool_fatal_signals) /
    sizeof(tool_fatal_signals[0]);

/* The name of one of tool_fatal_signals without its SIG, or "a signal". */
const char *
tool_exit_signal_name(int sig)
{
	static const char *const names[] = { "INT", "TERM", "HUP", "PIPE",
	    "QUIT", "USR1", "USR2", "ALRM", "XCPU", "VTALRM", "PROF" };
	size_t i;

	for (i = 0; i < tool_nfatal; i++)
		if (tool_fatal_signals[i] == sig)
			return names[i];
	return "NAL";
}

/*
 * What the fatal signals' handler removes (tool_exit_fatal_hold), and, during
 * bm_run (tool_run), the signal it turned into a SIGTERM.
 */
#define TOOL_FATAL_FNS 4
static void (*tool_fatal_fns[TOOL_FATAL_FNS])(void);
static volatile sig_atomic_t tool_fatal_nfns;
static volatile sig_atomic_t tool_in_run;
static volatile sig_atomic_t tool_run_signal;
static pid_t tool_run_owner;

/*
 * A fatal signal: remove what the tool made (each remover acts only in
 * the process that made its object), then die of the signal.  During a
 * run, in the tool's own process, the workers must be reaped first, and
 * bm_run does that for the signals it replaces (SIGINT, SIGTERM, SIGHUP),
 * not for one the tool catches itself: the signal is noted and turned
 * into a SIGTERM, and tool_exit_run() dies of the noted one.
 */
static void
tool_exit_on_fatal(int sig)
{
	struct sigaction term;
	sig_atomic_t i;

	/*
	 * Only while bm_run's own SIGTERM handler is in place (not before
	 * its workers exist, during the calibration, nor after): otherwise
	 * SIGTERM would come back here and the tool die of the wrong signal.
	 */
	if (tool_in_run && tool_run_owner == getpid() && sig != SIGTERM &&
	    sigaction(SIGTERM, NULL, &term) == 0 &&
	    term.sa_handler != tool_exit_on_fatal &&
	    term.sa_handler != SIG_IGN && term.sa_handler != SIG_DFL) {
		if (tool_run_signal == 0)
			tool_run_signal = sig;
		(void)raise(SIGTERM);
		return;
	}
	for (i = 0; i < tool_fatal_nfns; i++)
		tool_fatal_fns[i]();
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
}

/*
 * Hold the fatal signals (in *old the mask before), add remove (async-
 * signal-safe) to what their handler runs, and install it for each
 * signal that is not ignored: a tool makes what must be removed between
 * this and tool_exit_fatal_release(), so no signal can come between the object
 * and its handler.  A signal ignored when the tool started stays ignored,
 * as bm_run leaves it: nohup's SIGHUP, or a background job's SIGINT.
 */
void
tool_exit_fatal_hold(void (*remove)(void), sigset_t *old)
{
	struct sigaction sa;
	sigset_t fatal;
	sig_atomic_t k;
	size_t i;

	(void)sigemptyset(&fatal);
	for (i = 0; i < tool_nfatal; i++)
		(void)sigaddset(&fatal, tool_fatal_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &fatal, old);
	for (k = 0; k < tool_fatal_nfns && tool_fatal_fns[k] != remove; k++)
		continue;
	if (k == tool_fatal_nfns && k < TOOL_FATAL_FNS) {
		tool_fatal_fns[k] = remove;
		tool_fatal_nfns = k + 1;
	}
	for (i = 0; i < tool_nfatal; i++) {
		if (sigaction(tool_fatal_signals[i], NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN)
			continue;
		(void)signal(tool_fatal_signals[i], tool_exit_on_fatal);
	}
}

/* Put back the mask tool_exit_fatal_hold() saved. */
void
tool_exit_fatal_release(const sigset_t *old)
{
	(void)sigprocmask(SIG_SETMASK, old, NULL);
}

/* Note that bm_run is running (1) or not (0) in this process. */
void
tool_exit_fatal_in_run(int on)
{
	tool_run_owner = getpid();
	tool_in_run = on;
}

/*
 * The fatal signal a run was interrupted by: the one the tool noted and
 * turned into a SIGTERM, else sig (bm_ctx_signal's).
 */
int
tool_exit_fatal_run_signal(int sig)
{
	return tool_run_signal != 0 ? (int)tool_run_signal : sig;
}

/* Make the private directory under $TMPDIR once, or exit 1. */
const char *
tool_exit_tmpdir(struct tool *t)
{
	const char *tmp = getenv("TMPDIR");
	sigset_t old;
	int err;

	if (tool_dir[0] != '\0')
		return tool_dir;
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	if ((size_t)snprintf(tool_dir, sizeof tool_dir, "%s/benchmp-%s.XXXXXX",
	    tmp, t->name) >= sizeof tool_dir) {
		tool_dir[0] = '\0';
		tool_exit_fail(t, "TMPDIR is too long: %s", tmp);
	}
	tool_dir_owner = getpid();
	/*
	 * The handlers go in before the directory exists, with the signals
	 * held: one that came between the two would leave it behind.
	 * SIGPIPE too: a reader that goes away (| head) outside a run
	 * (bm_run ignores it during one).
	 */
	tool_exit_fatal_hold(tool_exit_rm_dir, &old);
	if (mkdtemp(tool_dir) == NULL) {
		err = errno;
		tool_dir[0] = '\0';
		tool_exit_fatal_release(&old);
		tool_exit_fail(t, "cannot make a private directory in %s: %s",
		    tmp,
		    strerror(err));
	}
	tool_exit_fatal_release(&old);
	return tool_dir;
}

/*
 * Append s to buf (of size bytes, holding len) with its control bytes
 * escaped (\xHH): a message quotes what the user typed or a worker sent,
 * and an ESC or a BEL in it must not reach the terminal as such.  Bytes
 * from 0x80 on pass, so that a UTF-8 name reads as it was written.  The
 * new length; what does not fit is cut.
 */
static size_t
tool_exit_escape(char *buf, size_t size, size_t len, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0' && len + 5 < size; p++) {
		if (*p < 0x20 || *p == 0x7f)
			len += (size_t)snprintf(buf + len, size - len, "\\x%02x",
			    *p);
		else
			buf[len++] = (char)*p;
	}
	buf[len] = '\0';
	return len;
}

/*
 * Write one line to stderr in one write: under an MPI launcher that tags
 * each write of a rank, a line written a byte at a time came out a tag a
 * byte.
 */
static void
tool_exit_line(const char *line)
{
	fputs(line, stderr);
	fflush(stderr);
}

/*
 * Print "name: message" to stderr, the message escaped.  The buffers are
 * static, not on the stack: a message is printed on the way out, where a
 * small stack limit leaves no room for 20 KB (a sanitized lat_proc under
 * ulimit -s 32 died of a stack overflow in here, its message unsaid).  A
 * tool prints from one thread, and nothing it calls here prints again.
 */
static void __attribute__((format(printf, 2, 0)))
tool_exit_vwarn(const struct tool *t, const char *fmt, va_list ap)
{
	static char msg[4096], line[16384];
	size_t len;

	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	progress_clear_any();	/* a message never follows a progress line */
	len = (size_t)snprintf(line, sizeof(line) - 8, "%s: %s", t->name,
	    cluster_where());
	if (len >= sizeof(line) - 8)
		len = sizeof(line) - 9;
	len = tool_exit_escape(line, sizeof(line) - 1, len, msg);
	line[len++] = '\n';
	line[len] = '\0';
	tool_exit_line(line);
}

/* Print a message and the usage line to stderr and exit 2. */
void
tool_exit_usage(const struct tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_exit_vwarn(t, fmt, ap);
	va_end(ap);
	tool_usage_line(t, stderr);
	tool_exit_cleanup(t);
	cluster_exit(2, 0);
}

/* Print a runtime failure and exit 1. */
void
tool_exit_fail(const struct tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_exit_vwarn(t, fmt, ap);
	va_end(ap);
	tool_exit_cleanup(t);
	cluster_exit(1, 0);
}

/* Report a library error: bad input exits 2, anything else 1. */
void
tool_exit_lib(const struct tool *t, int rc, const char *doing)
{
	const char *detail = t->ctx != NULL ? bm_ctx_errmsg(t->ctx) : "";

	if (*detail == '\0')
		detail = bm_strerror(rc);
	/*
	 * A failure every MPI rank agreed on (BM_ERANK) already names the
	 * rank that failed, and rank 0 says it once for the job.
	 */
	progress_clear_any();
	if (rc != BM_ERANK || cluster_rank() == 0) {
		/* Static, as tool_exit_vwarn's: no 16 KB on a small stack. */
		static char line[16384];
		size_t len;

		len = (size_t)snprintf(line, sizeof(line) - 8, "%s: %s",
		    t->name, rc == BM_ERANK ? "" : cluster_where());
		if (len >= sizeof(line) - 8)
			len = sizeof(line) - 9;
		if (doing != NULL) {
			len = tool_exit_escape(line, sizeof(line) - 4, len,
			    doing);
			line[len++] = ':';
			line[len++] = ' ';
			line[len] = '\0';
		}
		len = tool_exit_escape(line, sizeof(line) - 1, len, detail);
		/* A bound the engine derived: say how to give another. */
		if (rc == BM_ETIMEDOUT && t->opts.timeout_us == 0)
			len = tool_exit_escape(line, sizeof(line) - 1, len,
			    " (--timeout=S or BENCHMP_TIMEOUT waits longer)");
		line[len++] = '\n';
		line[len] = '\0';
		tool_exit_line(line);
	}
	tool_exit_cleanup(t);
	switch (rc) {
	case BM_ERANK:
		cluster_exit(1, 1);
	case BM_EPARSE:
	case BM_ERANGE:
	case BM_ECONFIG:
		cluster_exit(2, 0);
	default:
		cluster_exit(1, 0);
	}
}

/*
 * Exit for a failed run: an interrupted one says so and dies of the same
 * signal, so the shell sees it; any other prints the library's message.
 */
void
tool_exit_run(struct tool *t, int rc)
{
	int sig;

	sig = tool_exit_fatal_run_signal(bm_ctx_signal(t->ctx));
	if (rc == BM_EINTR && sig > 0) {
		progress_clear_any();
		fprintf(stderr, "%s: interrupted by SIG%s\n", t->name,
		    tool_exit_signal_name(sig));
		fflush(NULL);
		tool_exit_cleanup(t);
		signal(sig, SIG_DFL);
		raise(sig);
		exit(128 + sig);
	}
	if (rc == BM_ERANGE || rc == BM_EPARSE)
		rc = -EINVAL;	/* options were checked: not a usage error */
	tool_exit_lib(t, rc, NULL);
}
