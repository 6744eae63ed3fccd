/* lat_proc.c: the cost of a procedure call, fork, fork+exec and fork+sh -c. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/tool.h"

/* The helper exec and shell run, installed beside the tools. */
#define PROC_HELPER "benchmp-hello"

/* What the workers need: the helper's path and /dev/null for its output. */
struct proc_state {
	char helper[PATH_MAX];
	char quoted[4 * PATH_MAX + 3];	/* the helper quoted for sh -c */
	int devnull;
	int how;	/* the child: 0 exits, 1 execs, 2 runs sh -c */
};

/* A procedure the compiler must really call (reached through a pointer). */
static __attribute__((noinline)) int
proc_callee(int a)
{
	__asm__ volatile("" : "+r"(a));
	return a + 1;
}

static int (*volatile proc_fn)(int) = proc_callee;

/* n procedure calls, each depending on the last. */
static int
proc_procedure(bm_iter_t n, void *cookie)
{
	int a = 0;

	(void)cookie;
	while (n-- > 0)
		a = proc_fn(a);
	return a < 0 ? -EOVERFLOW : 0;
}

/*
 * Wait for a child and turn its exit into 0 or an error that says what
 * failed.  126 and 127 are an exec that failed (ours, or the shell's);
 * a shell that exits with 2 after the helper's path was quoted failed to
 * fork (dash: "Cannot fork", under RLIMIT_NPROC), which was reported as
 * "No child processes"; anything else is the benchmark's failure.
 */
static int
proc_reap(pid_t pid, int how)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 126 || WEXITSTATUS(st) == 127))
		return -ENOEXEC;
	if (how == 2 && WIFEXITED(st) && WEXITSTATUS(st) == 2)
		return -EAGAIN;
	return BM_EBENCH;
}

/* Quote the helper's path for sh -c, so that no character is special. */
static int
proc_quote_helper(struct proc_state *s)
{
	const char *p;
	size_t n = 0;

	s->quoted[n++] = '\'';
	for (p = s->helper; *p != '\0'; p++) {
		if (n + 5 >= sizeof s->quoted)
			return -ENAMETOOLONG;
		if (*p == '\'') {
			memcpy(s->quoted + n, "'\\''", 4);
			n += 4;
		} else
			s->quoted[n++] = *p;
	}
	s->quoted[n++] = '\'';
	s->quoted[n] = '\0';
	return 0;
}

/*
 * The environment of the exec'd helper: none, as lmbench's lat_proc exec
 * gives its program.  An inherited one changes what is timed: with
 * LD_LIBRARY_PATH (a build tree's libtool wrapper sets it) the helper's
 * loader probes about twenty directories before it finds libc.  The shell
 * case keeps the environment, as lmbench's does.
 */
static char *const proc_no_env[] = { NULL };

/*
 * Fork a child that runs how (0: exit, 1: exec, 2: sh -c) and reap it.
 *
 * The fork child leaves through exit(3), not _exit(2), as lmbench's does
 * (its fork+exit is "have one exit"): exit runs the atexit handlers and
 * flushes every stdio stream, and the writes to libc's data that this
 * takes fault in private copies of their pages in the child, about 8
 * page faults more per fork (perf stat -e page-faults: lmbench's 30 per
 * fork, ours 22 with _exit, 30 with exit).  With _exit ours read 34%
 * below lmbench's.  proc_flush() empties the buffers first, so the child
 * writes nothing.
 */
static int
proc_spawn(const struct proc_state *s, int how)
{
	pid_t pid;

	if ((pid = fork()) < 0)
		return -errno;
	if (pid == 0) {
		if (how == 0)
			exit(0);
		if (dup2(s->devnull, STDOUT_FILENO) < 0)
			_exit(127);
		if (how == 1)
			execle(s->helper, PROC_HELPER, (char *)NULL,
			    proc_no_env);
		else
			execl("/bin/sh", "sh", "-c", s->quoted, (char *)NULL);
		_exit(127);
	}
	return proc_reap(pid, how);
}

/* n fork+exit, fork+execve of the helper or fork+/bin/sh -c helper. */
static int
proc_spawns(bm_iter_t n, void *cookie)
{
	const struct proc_state *s = cookie;
	int rc;

	while (n-- > 0) {
		if ((rc = proc_spawn(s, s->how)) != 0)
			return rc;
	}
	return 0;
}

/* Empty the stdio buffers in the worker, so no fork child writes them again. */
static int
proc_flush(bm_iter_t n, void *cookie)
{
	(void)n;
	(void)cookie;
	return fflush(NULL) == 0 ? 0 : -errno;
}

/*
 * Find the helper beside the running program.  In the build tree libtool
 * may run the real program from bin/.libs while the helper sits in bin.
 */
static int
proc_find_helper(struct proc_state *s)
{
	char self[PATH_MAX], *slash;
	ssize_t len;

	if ((len = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
		return -errno;
	self[len] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		return -ENOENT;
	*slash = '\0';
	if ((size_t)snprintf(s->helper, sizeof s->helper, "%s/%s", self,
	    PROC_HELPER) < sizeof s->helper && access(s->helper, X_OK) == 0)
		return 0;
	slash = strrchr(self, '/');
	if (slash != NULL && strcmp(slash + 1, ".libs") == 0) {
		*slash = '\0';
		if ((size_t)snprintf(s->helper, sizeof s->helper, "%s/%s",
		    self, PROC_HELPER) < sizeof s->helper &&
		    access(s->helper, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

/* The modes; how is proc_spawn's child (0, 1, 2), or -1 for a procedure call. */
static const struct proc_mode {
	const char *name;
	const char *label;
	int how;
} proc_modes[] = {
	{ "procedure", "Procedure call", -1 },
	{ "fork", "Process fork+exit", 0 },
	{ "exec", "Process fork+execve", 1 },
	{ "shell", "Process fork+/bin/sh -c", 2 },
};

/* Measure one mode and print its latency. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_proc",
		.args = "procedure|fork|exec|shell"
	};
	const struct proc_mode *m = NULL;
	struct proc_state *s;
	bm_bench b;
	bm_result r;

	m = tool_parse_mode(&t, argc, argv, NULL, 1, NULL, NULL,
	    TOOL_TABLE(proc_modes));
	tool_setup(&t);
	tool_wall_clock(&t);
	/*
	 * On the heap: its paths are 20 KB, which a small stack limit
	 * (ulimit -s 32) turned into a SIGSEGV before any message.
	 */
	if ((s = calloc(1, sizeof *s)) == NULL)
		tool_exit_fail(&t, "cannot allocate the state: %s",
		    strerror(errno));
	if ((s->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		tool_exit_fail(&t, "cannot open /dev/null: %s",
		    strerror(errno));
	s->how = m->how;
	if (s->how >= 1 && proc_find_helper(s) != 0)
		tool_exit_fail(&t,
		    "cannot find the helper %s beside the program",
		    PROC_HELPER);
	if (s->how == 2 && proc_quote_helper(s) != 0)
		tool_exit_fail(&t, "the helper's path is too long: %s",
		    s->helper);
	b.initialize = s->how == 0 ? proc_flush : NULL;
	b.benchmark = s->how < 0 ? proc_procedure : proc_spawns;
	b.cleanup = NULL;
	b.cookie = s;
	tool_run(&t, &b, &r);
	tool_report_us(&t, m->name, NULL, 0, &r, m->label);
	bm_result_free(&r);
	close(s->devnull);
	free(s);
	return tool_finish(&t);
}
