/* check_common.c: the setup the Check suites share (check_common.h). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchmp/calibration.h"
#include "benchmp/regions.h"
#include "benchmp/sinks.h"
#include "check_common.h"
#include "check_run.h"

/* A new context with ENOUGH given, so that nothing is calibrated. */
bm_ctx *
check_ctx(double enough_us)
{
	bm_ctx *ctx = NULL;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH,
	    enough_us), 0);
	return ctx;
}

/* Give the context both overheads, so that none is measured. */
void
check_ctx_overheads(bm_ctx *ctx, double timing_o_us, double loop_o_us)
{
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_TIMING_O,
	    timing_o_us), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_LOOP_O,
	    loop_o_us), 0);
}

/* Run b and fail the test, naming file:line, unless the run succeeds. */
void
check_run_ok_at(const char *file, int line, bm_ctx *ctx, const bm_bench *b,
    const bm_options *o, bm_result *r)
{
	int rc = bm_run(ctx, b, o, r);

	ck_assert_msg(rc == 0, "%s:%d: bm_run: %s (%s)", file, line,
	    bm_strerror(rc), bm_ctx_errmsg(ctx));
}

/* Fail the test if waitpid finds any child, running or zombie. */
void
check_no_children(void)
{
	pid_t got = waitpid(-1, NULL, WNOHANG);
	int err = errno;

	ck_assert_msg(got == -1 && err == ECHILD, "a child is left (waitpid "
	    "gave %ld, errno %d)", (long)got, got == -1 ? err : 0);
}

/* Free the result and the context; the run must have left no child. */
void
check_end_run(bm_ctx *ctx, bm_result *r)
{
	bm_result_free(r);
	bm_ctx_free(ctx);
	check_no_children();
}

/* Busy-wait on the monotonic clock for ns nanoseconds. */
void
check_spin_ns(uint64_t ns)
{
	uint64_t until = bm__deadline_now() + ns;

	while (bm__deadline_now() < until)
		;
}

/* Make a fresh temporary file and its file sink spec. */
void
check_sink_file(char *path, char *spec, size_t speclen)
{
	int fd = mkstemp(path), n;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(close(fd), 0);
	n = snprintf(spec, speclen, "file:%s", path);
	ck_assert(n > 0 && (size_t)n < speclen);
}

/* Open the sink, write the region's record to it and close it. */
void
check_region_write(bm_ctx *ctx, bm_region *rg, const char *spec)
{
	bm_sink *sink = NULL;

	ck_assert_int_eq(bm_sink_open(ctx, spec, &sink), 0);
	ck_assert_int_eq(bm_region_write(rg, sink), 0);
	ck_assert_int_eq(bm_sink_close(ctx, sink), 0);
}

/* Read a file's first line. */
void
check_first_line(const char *path, char *line, size_t len)
{
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, (int)len, f));
	fclose(f);
}

/* Build a one-case suite of the tests and run it (check_run). */
int
check_suite_main(const char *name, int timeout_s, const TTest *const tests[],
    size_t n)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	size_t i;

	tcase_set_timeout(tc, timeout_s);
	for (i = 0; i < n; i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return check_run(s);
}

/* The fake /proc and /sys tree of this test's process (check_tree_new). */
static char check_tree[PATH_MAX];

/* Make the directory rel of the tree and its parents. */
static void
check_tree_mkdir(const char *rel)
{
	char path[PATH_MAX], *p;

	ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s", check_tree,
	    rel), (int)sizeof path);
	for (p = path + strlen(check_tree) + 1; (p = strchr(p, '/')) != NULL;
	    p++) {
		*p = '\0';
		ck_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
		*p = '/';
	}
	ck_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
}

/* Make a fresh, empty tree under $TMPDIR; its path. */
const char *
check_tree_new(const char *name)
{
	const char *tmp = getenv("TMPDIR");

	(void)snprintf(check_tree, sizeof check_tree, "%s/%s.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", name);
	ck_assert(mkdtemp(check_tree) != NULL);
	return check_tree;
}

/* Write the file rel of the tree (its directory made first) from a format. */
void
check_tree_write(const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	va_list ap;
	FILE *f;

	(void)snprintf(dir, sizeof dir, "%s", rel);
	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		check_tree_mkdir(dir);
	}
	(void)snprintf(path, sizeof path, "%s/%s", check_tree, rel);
	ck_assert((f = fopen(path, "w")) != NULL);
	va_start(ap, fmt);
	(void)vfprintf(f, fmt, ap);
	va_end(ap);
	ck_assert_int_eq(fclose(f), 0);
}

/* Make rel of the tree a symbolic link to target. */
void
check_tree_link(const char *rel, const char *target)
{
	char path[PATH_MAX];

	ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s", check_tree,
	    rel), (int)sizeof path);
	(void)unlink(path);
	ck_assert_int_eq(symlink(target, path), 0);
}

/* Remove the tree (rm -r: the test made every file in it). */
void
check_tree_free(void)
{
	char cmd[PATH_MAX + 16];

	(void)snprintf(cmd, sizeof cmd, "rm -rf '%s'", check_tree);
	ck_assert_int_eq(system(cmd), 0);
}
