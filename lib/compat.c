/* compat.c: lmbench's timing(3) names, a thin layer over the bm_ API. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "internal.h"
#include "timing.h"

/*
 * lmbench's interface keeps its state between calls (get_n() after
 * benchmp(), stop() after start()), so this layer has what lmbench has:
 * one process-wide state.  It is the only file-level state of the
 * library, and it lives in the calling process, never shared with the
 * workers, which get their own copy at fork.
 */
static struct {
	bm_ctx *ctx;
	int setup_rc;		/* the environment was bad */
	uint64_t n;
	uint64_t usecs;
	uint64_t start_ns;
	char err[256];
} compat;

/* The callbacks lmbench passed, for the int-returning adapters. */
struct compat_cookie {
	support_f initialize;
	bench_f benchmark;
	support_f cleanup;
	void *cookie;
};

/* Create the process-wide context and read the environment, once. */
static bm_ctx *
compat_ctx(void)
{
	if (compat.ctx != NULL || compat.setup_rc != 0)
		return compat.setup_rc == 0 ? compat.ctx : NULL;
	compat.setup_rc = bm_ctx_new(&compat.ctx);
	if (compat.setup_rc != 0) {
		(void)snprintf(compat.err, sizeof(compat.err), "%s",
		    bm_strerror(compat.setup_rc));
		return NULL;
	}
	compat.setup_rc = bm_ctx_load_env(compat.ctx);
	if (compat.setup_rc != 0) {
		(void)snprintf(compat.err, sizeof(compat.err), "%s",
		    bm_ctx_errmsg(compat.ctx));
		bm_ctx_free(compat.ctx);
		compat.ctx = NULL;
		return NULL;
	}
	return compat.ctx;
}

/* Adapter: lmbench's initialize. */
static int
compat_initialize(bm_iter_t n, void *cookie)
{
	struct compat_cookie *c = cookie;

	c->initialize((iter_t)n, c->cookie);
	return 0;
}

/* Adapter: lmbench's benchmark. */
static int
compat_benchmark(bm_iter_t n, void *cookie)
{
	struct compat_cookie *c = cookie;

	c->benchmark((iter_t)n, c->cookie);
	return 0;
}

/* Adapter: lmbench's cleanup. */
static int
compat_cleanup(bm_iter_t n, void *cookie)
{
	struct compat_cookie *c = cookie;

	c->cleanup((iter_t)n, c->cookie);
	return 0;
}

/*
 * Keep the median sample as (n, usecs).  lmbench's get_n()/gettime() pair
 * counts whole microseconds, which would cost precision on our short
 * intervals, so both are scaled by the same factor until the time is at
 * least a second: every ratio (time per operation, bandwidth) is exact.
 * With parallel workers n is summed over them, as lmbench does.
 */
static void
compat_keep(const bm_result *r)
{
	double ns_per_op = r->per_op_ns.median, scale;
	uint64_t n = 1000000;

	if (!(ns_per_op > 0)) {
		compat.n = n * r->parallel;
		compat.usecs = 0;
		return;
	}
	scale = ceil(1e9 / (ns_per_op * (double)n));
	if (scale < 1)
		scale = 1;
	compat.n = (uint64_t)((double)n * scale) * r->parallel;
	compat.usecs = (uint64_t)llround(ns_per_op * (double)n * scale /
	    1000.0);
}

/* Measure benchmark in parallel workers and keep the median interval. */
void
benchmp(support_f initialize, bench_f benchmark, support_f cleanup,
    int enough, int parallel, int warmup, int repetitions, void *cookie)
{
	struct compat_cookie c = { initialize, benchmark, cleanup, cookie };
	bm_bench b = { NULL, compat_benchmark, NULL, &c };
	bm_options o;
	bm_result r;
	bm_ctx *ctx;
	int rc;

	compat.n = compat.usecs = 0;
	compat.err[0] = '\0';
	if ((ctx = compat_ctx()) == NULL)
		return;
	if (initialize != NULL)
		b.initialize = compat_initialize;
	if (cleanup != NULL)
		b.cleanup = compat_cleanup;
	bm_options_init(&o);
	o.enough_us = enough > 0 ? (uint64_t)enough : 0;
	o.parallel = parallel > 0 ? (unsigned)parallel : 1;
	o.warmup_us = warmup > 0 ? (uint64_t)warmup : 0;
	if (repetitions > 0)
		o.repetitions = (unsigned)repetitions;
	rc = bm_run(ctx, &b, &o, &r);
	if (rc != 0) {
		(void)snprintf(compat.err, sizeof(compat.err), "%s: %s",
		    bm_strerror(rc), bm_ctx_errmsg(ctx));
		return;
	}
	compat_keep(&r);
	bm_result_free(&r);
}

/* The running worker's state. */
void *
benchmp_getstate(void)
{
	return bm_state_current();
}

/* End an interval and return the count for the next. */
iter_t
benchmp_interval(void *state)
{
	return (iter_t)bm_interval(state);
}

/* Start a timing interval. */
void
start(struct timeval *begin)
{
	bm_ctx *ctx = compat_ctx();

	if (begin != NULL)
		(void)gettimeofday(begin, NULL);
	compat.start_ns = ctx != NULL ? bm__clock_now(&ctx->timer) : 0;
}

/* Stop the interval and keep its length in microseconds. */
uint64
stop(struct timeval *begin, struct timeval *end)
{
	bm_ctx *ctx = compat_ctx();
	uint64_t now;

	(void)begin;
	if (end != NULL)
		(void)gettimeofday(end, NULL);
	if (ctx == NULL)
		return 0;
	now = bm__clock_now(&ctx->timer);
	compat.usecs = now > compat.start_ns ?
	    (now - compat.start_ns + 500) / 1000 : 0;
	return compat.usecs;
}

/* Iterations of the kept interval. */
uint64
get_n(void)
{
	return compat.n;
}

/* Set the iterations of the kept interval. */
void
set_n(uint64 n)
{
	compat.n = n;
}

/* Microseconds of the kept interval. */
uint64
gettime(void)
{
	return compat.usecs;
}

/* Set the microseconds of the kept interval. */
void
settime(uint64 usecs)
{
	compat.usecs = usecs;
}

/* The calibrated interval, never shorter than the caller's enough. */
uint64
get_enough(uint64 enough)
{
	bm_calibration cal;
	bm_ctx *ctx = compat_ctx();

	if (ctx == NULL || bm_calibrate(ctx, &cal) != 0)
		return enough;
	return cal.enough_us > enough ? cal.enough_us : enough;
}

/*
 * The timing overhead in whole microseconds, as lmbench declares it; with
 * a nanosecond clock it rounds to 0 (bm_calibrate() has the fraction).
 */
uint64
t_overhead(void)
{
	bm_calibration cal;
	bm_ctx *ctx = compat_ctx();

	if (ctx == NULL || bm_calibrate(ctx, &cal) != 0)
		return 0;
	return (uint64_t)llround(cal.timing_o_us);
}

/* The loop overhead in microseconds. */
double
l_overhead(void)
{
	bm_calibration cal;
	bm_ctx *ctx = compat_ctx();

	if (ctx == NULL || bm_calibrate(ctx, &cal) != 0)
		return 0;
	return cal.loop_o_us;
}

/* Why the last compat call failed, or NULL. */
const char *
bm_compat_errmsg(void)
{
	return compat.err[0] != '\0' ? compat.err : NULL;
}
