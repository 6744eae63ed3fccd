/*
 * check_common.h: the setup the engine, events, region and measure suites
 * share: contexts with a fixed calibration, a run that must succeed, no
 * child left, a spin of known wall time, a record through a file sink, a
 * fake /proc and /sys tree and a one-case suite's main.
 */
#ifndef BM_CHECK_COMMON_H
#define BM_CHECK_COMMON_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A new context with ENOUGH given as enough_us, so the tests run fast. */
bm_ctx *check_ctx(double enough_us);

/* Give ctx the timing and loop overheads (microseconds) by hand. */
void check_ctx_overheads(bm_ctx *ctx, double timing_o_us, double loop_o_us);

/* Assert that bm_run() succeeds, naming the caller's line and the detail. */
#define check_run_ok(ctx, b, o, r) \
	check_run_ok_at(__FILE__, __LINE__, (ctx), (b), (o), (r))
void check_run_ok_at(const char *file, int line, bm_ctx *ctx,
    const bm_bench *b, const bm_options *o, bm_result *r);

/* Assert this process has no child left, running or zombie. */
void check_no_children(void);

/* Free a run's result and context, then assert no child is left. */
void check_end_run(bm_ctx *ctx, bm_result *r);

/* Spin until ns nanoseconds of the monotonic clock have passed. */
void check_spin_ns(uint64_t ns);

/*
 * Make a fresh file from the mkstemp template path (rewritten in place)
 * and put its sink spec "file:PATH" in spec; the caller unlinks it.
 */
void check_sink_file(char *path, char *spec, size_t speclen);

/* Write the region's record through the sink spec (opened and closed). */
void check_region_write(bm_ctx *ctx, bm_region *rg, const char *spec);

/* Read the first line of the file path into line; fail if there is none. */
void check_first_line(const char *path, char *line, size_t len);

/*
 * A fake /proc and /sys tree (the machine suites): made fresh under
 * $TMPDIR, its path returned; a file of it written from a format (its
 * folders made), a link made in it; removed.
 */
const char *check_tree_new(const char *name);
void check_tree_write(const char *rel, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void check_tree_link(const char *rel, const char *target);
void check_tree_free(void);

/*
 * Run a suite of one test case, both called name, of the n tests with a
 * timeout of timeout_s seconds each; the exit status of main().
 */
int check_suite_main(const char *name, int timeout_s,
    const TTest *const tests[], size_t n);

#endif /* BM_CHECK_COMMON_H */
