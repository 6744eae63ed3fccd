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

/* The private directory of tool_tmpdir(), and the process that owns it. */
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
tool_rm_under(int dirfd, int depth)
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
				tool_rm_under(sub, depth + 1);
				if (unlinkat(dirfd, d->name, AT_REMOVEDIR) == 0)
					again = 1;
			}
		}
	} while (again);
	(void)close(dirfd);
}

/* Remove the private directory (async-signal-safe). */
static void
tool_rm_dir(void)
{
	int fd;

	if (tool_dir[0] == '\0' || tool_dir_owner != getpid())
		return;
	fd = open(tool_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		tool_rm_under(fd, 0);
	(void)rmdir(tool_dir);
}

/*
 * Run the tool's cleanup hook and remove its private directory.  Only the
 * process that made the directory removes it: a worker or partner that
 * fails must not pull it from under the others.
 */
void
tool_cleanup(const struct tool *t)
{
	if (t->cleanup != NULL)
		t->cleanup();
	tool_rm_dir();
	tool_dir[0] = '\0';
}

/* Remove the private directory on a fatal signal outside bm_run, then die of it. */
static void
tool_on_signal(int sig)
{
	tool_rm_dir();
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
}

/* Make the private directory under $TMPDIR once, or exit 1. */
const char *
tool_tmpdir(struct tool *t)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	const char *tmp = getenv("TMPDIR");
	struct sigaction sa;
	sigset_t fatal, old;
	size_t i;
	int err;

	if (tool_dir[0] != '\0')
		return tool_dir;
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	/*
	 * The handlers go in before the directory exists, with the signals
	 * held: one that came between the two would leave it behind.
	 */
	(void)sigemptyset(&fatal);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		(void)sigaddset(&fatal, sigs[i]);
	(void)sigprocmask(SIG_BLOCK, &fatal, &old);
	if ((size_t)snprintf(tool_dir, sizeof tool_dir, "%s/benchmp-%s.XXXXXX",
	    tmp, t->name) >= sizeof tool_dir) {
		tool_dir[0] = '\0';
		tool_fail(t, "TMPDIR is too long: %s", tmp);
	}
	tool_dir_owner = getpid();
	/*
	 * SIGPIPE too: a reader that goes away (| head) outside a run
	 * (bm_run ignores it during one).  A signal ignored when the tool
	 * started stays ignored, as bm_run leaves it: nohup's SIGHUP, or a
	 * background job's SIGINT.
	 */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN)
			continue;
		(void)signal(sigs[i], tool_on_signal);
	}
	if (mkdtemp(tool_dir) == NULL) {
		err = errno;
		tool_dir[0] = '\0';
		(void)sigprocmask(SIG_SETMASK, &old, NULL);
		tool_fail(t, "cannot make a private directory in %s: %s", tmp,
		    strerror(err));
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return tool_dir;
}

/* Print "name: message" to stderr. */
static void __attribute__((format(printf, 2, 0)))
tool_vwarn(const struct tool *t, const char *fmt, va_list ap)
{
	progress_clear_any();	/* a message never follows a progress line */
	fprintf(stderr, "%s: %s", t->name, cluster_where());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Print a message and the usage line to stderr and exit 2. */
void
tool_usage_error(const struct tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vwarn(t, fmt, ap);
	va_end(ap);
	tool_usage_line(t, stderr);
	tool_cleanup(t);
	cluster_exit(2, 0);
}

/* Print a runtime failure and exit 1. */
void
tool_fail(const struct tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vwarn(t, fmt, ap);
	va_end(ap);
	tool_cleanup(t);
	cluster_exit(1, 0);
}

/* Report a library error: bad input exits 2, anything else 1. */
void
tool_lib_fail(const struct tool *t, int rc, const char *doing)
{
	const char *detail = t->ctx != NULL ? bm_ctx_errmsg(t->ctx) : "";

	if (*detail == '\0')
		detail = bm_strerror(rc);
	/*
	 * A failure every MPI rank agreed on (BM_ERANK) already names the
	 * rank that failed, and rank 0 says it once for the job.
	 */
	progress_clear_any();
	if (rc != BM_ERANK || cluster_rank() == 0)
		fprintf(stderr, "%s: %s%s%s%s\n", t->name,
		    rc == BM_ERANK ? "" : cluster_where(),
		    doing != NULL ? doing : "", doing != NULL ? ": " : "",
		    detail);
	tool_cleanup(t);
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
tool_run_fail(struct tool *t, int rc)
{
	int sig;

	if (rc == BM_EINTR && (sig = bm_ctx_signal(t->ctx)) > 0) {
		progress_clear_any();
		fprintf(stderr, "%s: interrupted by SIG%s\n", t->name,
		    sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" :
		    sig == SIGHUP ? "HUP" : "NAL");
		fflush(NULL);
		tool_cleanup(t);
		signal(sig, SIG_DFL);
		raise(sig);
		exit(128 + sig);
	}
	if (rc == BM_ERANGE || rc == BM_EPARSE)
		rc = -EINVAL;	/* options were checked: not a usage error */
	tool_lib_fail(t, rc, NULL);
}
