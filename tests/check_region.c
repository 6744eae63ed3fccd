/* check_region.c: regions' counts, overhead, split readings, results and switches. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_common.h"
#include "check_run.h"
#include "internal.h"
#include "region-off.h"

/* Pages a region's body touches for the first time. */
#define FRESH_PAGES 16

/* The software events every Linux machine counts without privileges. */
#define SW_EVENTS "task-clock,page-faults,context-switches"

/* A context with a fixed calibration, no setting from outside. */
static bm_ctx *
test_ctx(double timing_o_us)
{
	bm_ctx *ctx;

	unsetenv("BENCHMP_REGIONS");
	ctx = check_ctx(2000);
	check_ctx_overheads(ctx, timing_o_us, 0);
	return ctx;
}

/* Return 1 when the software events open here (perf_event built in). */
static int
sw_events_work(bm_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->events.n; i++)
		if (ctx->events.info[i].status != 0)
			return 0;
	return ctx->events.n > 0;
}

/* Fill a result with a byte pattern, to see whether a call touched it. */
static void
poison(void *p, size_t len)
{
	memset(p, 0xa5, len);
}

/* The counting operations: zero, copy, add, subtract, NAN and NULL. */
START_TEST(test_counts_ops)
{
	bm_counts a, b, c;

	ck_assert_int_eq(bm_counts_zero(&a), 0);
	ck_assert_uint_eq(a.count, 0);
	ck_assert(a.ns == 0 && a.cycles == 0 && a.nevents == 0);
	memset(&b, 0, sizeof b);
	b.id = 9;
	b.count = 1;
	b.ns = 100;
	b.cycles = 250;
	b.nevents = 2;
	b.events[0] = 3;
	b.events[1] = NAN;	/* not counted */
	ck_assert_int_eq(bm_counts_add(&a, &b), 0);
	ck_assert_int_eq(bm_counts_add(&a, &b), 0);
	ck_assert_uint_eq(a.id, 0);	/* the accumulator keeps its id */
	ck_assert_uint_eq(a.count, 2);
	ck_assert(a.ns == 200 && a.cycles == 500);
	ck_assert_uint_eq(a.nevents, 2);
	ck_assert(a.events[0] == 6);
	ck_assert(isnan(a.events[1]));	/* not counted stays so */
	ck_assert_int_eq(bm_counts_copy(&c, &a), 0);
	ck_assert_int_eq(memcmp(&c, &a, sizeof c), 0);
	ck_assert_int_eq(bm_counts_sub(&c, &b), 0);
	ck_assert_uint_eq(c.count, 1);
	ck_assert(c.ns == 100 && c.cycles == 250 && c.events[0] == 3);
	/* A difference may go negative; the count stops at 0. */
	ck_assert_int_eq(bm_counts_sub(&c, &a), 0);
	ck_assert_uint_eq(c.count, 0);
	ck_assert(c.ns == -100 && c.cycles == -250 && c.events[0] == -3);
	/* Events the accumulator did not have start from 0. */
	ck_assert_int_eq(bm_counts_zero(&a), 0);
	b.nevents = 1;
	ck_assert_int_eq(bm_counts_add(&a, &b), 0);
	ck_assert_uint_eq(a.nevents, 1);
	b.nevents = 2;
	b.events[1] = 5;
	ck_assert_int_eq(bm_counts_add(&a, &b), 0);
	ck_assert(a.events[0] == 6 && a.events[1] == 5);
	/* Zero clears NAN too. */
	a.cycles = NAN;
	ck_assert_int_eq(bm_counts_zero(&a), 0);
	ck_assert(a.cycles == 0);
	ck_assert_int_eq(bm_counts_zero(NULL), -EINVAL);
	ck_assert_int_eq(bm_counts_copy(NULL, &a), -EINVAL);
	ck_assert_int_eq(bm_counts_copy(&a, NULL), -EINVAL);
	ck_assert_int_eq(bm_counts_add(&a, NULL), -EINVAL);
	ck_assert_int_eq(bm_counts_sub(NULL, &a), -EINVAL);
}
END_TEST

/* Read the clock, the cycle subtimer and a group of events now. */
static void
outer_read(bm_ctx *ctx, bm__counters *ctr, uint64_t *ns,
    uint64_t *cy, double *ev)
{
	*ns = bm__clock_now(&ctx->timer);
	*cy = bm__timer_has_cycles(&ctx->timer) ?
	    bm__cycle_now(&ctx->timer) : 0;
	ck_assert_int_eq(bm__counters_read(ctr, &ctx->events, ev), 0);
}

/* max(0, d - o), as a region subtracts its overhead. */
static double
less(double d, double o)
{
	return d - o > 0 ? d - o : 0;
}

/*
 * The overhead is subtracted from time, cycles and events: every reading
 * lies between what a window inside the region's and one outside it
 * count, each less the region's overhead.  That holds in any timing, and
 * the upper bound fails when nothing is subtracted.
 */
START_TEST(test_counts_subtract)
{
	double ev_out0[BM_MAX_EVENTS], ev_out1[BM_MAX_EVENTS];
	double ev_in0[BM_MAX_EVENTS], ev_in1[BM_MAX_EVENTS];
	uint64_t ns_out0, ns_out1, ns_in0, ns_in1, cy_out0, cy_out1, cy_in0;
	uint64_t cy_in1;
	bm__counters outer, inner;
	bm_ctx *ctx = test_ctx(20.0);
	bm_counts o, c, total, sum, first;
	bm_region *rg;
	long page = sysconf(_SC_PAGESIZE);
	char *mem;
	size_t i, k;
	int rep;

	/* TSC where this machine has one; the null subtimer elsewhere. */
	ck_assert_int_eq(bm_ctx_set_timer(ctx,
	    "cycle=x86-rdtscp,x86-rdtsc,null"), 0);
	ck_assert_int_eq(bm_ctx_set_events(ctx, SW_EVENTS), 0);
	ck_assert_int_eq(bm_region_new(ctx, "subtract", &rg), 0);
	ck_assert_ptr_nonnull(rg);
	ck_assert_int_eq(bm_region_overhead(rg, &o), 0);
	ck_assert(o.ns == 20000.0);	/* TIMING_O, in ns */
	ck_assert_uint_eq(o.nevents, 3);
	if (bm__timer_has_cycles(&ctx->timer))
		ck_assert(isfinite(o.cycles) && o.cycles >= 0);
	else
		ck_assert(isnan(o.cycles));
	if (!sw_events_work(ctx)) {
		/* Built without perf_event, or refused: nothing counted. */
		for (i = 0; i < 3; i++)
			ck_assert_int_eq(ctx->events.info[i].status,
			    BM_ENOTSUP);
		bm_region_free(rg);
		bm_ctx_free(ctx);
		return;
	}
	for (i = 0; i < 3; i++)
		ck_assert(isfinite(o.events[i]) && o.events[i] >= 0);
	/* The region's first pair. */
	mem = mmap(NULL, FRESH_PAGES * (size_t)page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(mem != MAP_FAILED);
	bm_region_start(rg);
	for (k = 0; k < FRESH_PAGES; k++)
		mem[k * (size_t)page] = 1;
	bm_region_stop(rg);
	ck_assert_int_eq(munmap(mem, FRESH_PAGES * (size_t)page), 0);
	ck_assert_int_eq(bm_region_read(rg, &c), 0);
	/*
	 * Not asserted: that it counts all FRESH_PAGES faults.  Quiet, it
	 * does; under stress-ng a group just opened counted none (0 of 16,
	 * run 2 of a stress loop), despite bm_region_new()'s switch: see
	 * BUGS in benchmp(3).  What holds in every timing is below.
	 */
	ck_assert(c.events[1] >= 0 && c.events[1] <= 64 * FRESH_PAGES);
	ck_assert_int_eq(bm_counts_copy(&first, &c), 0);
	ck_assert_int_eq(bm__counters_open(&outer, &ctx->events), 0);
	ck_assert_int_eq(bm__counters_open(&inner, &ctx->events), 0);
	/* As bm_region_new() does: a switch schedules the groups in. */
	ck_assert_int_eq(usleep(1), 0);
	ck_assert_int_eq(bm_counts_zero(&sum), 0);
	for (rep = 0; rep < 5; rep++) {
		mem = mmap(NULL, FRESH_PAGES * (size_t)page, PROT_READ |
		    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ck_assert(mem != MAP_FAILED);
		outer_read(ctx, &outer, &ns_out0, &cy_out0, ev_out0);
		bm_region_start(rg);
		outer_read(ctx, &inner, &ns_in0, &cy_in0, ev_in0);
		for (k = 0; k < FRESH_PAGES; k++)
			mem[k * (size_t)page] = 1;
		check_spin_ns(50000);
		outer_read(ctx, &inner, &ns_in1, &cy_in1, ev_in1);
		bm_region_stop(rg);
		outer_read(ctx, &outer, &ns_out1, &cy_out1, ev_out1);
		ck_assert_int_eq(munmap(mem, FRESH_PAGES * (size_t)page), 0);
		ck_assert_int_eq(bm_region_read(rg, &c), 0);
		ck_assert_int_eq(bm_counts_add(&sum, &c), 0);
		ck_assert_uint_eq(c.count, 1);
		ck_assert(c.ns >= less((double)(ns_in1 - ns_in0), o.ns));
		ck_assert(c.ns <= less((double)(ns_out1 - ns_out0), o.ns));
		if (bm__timer_has_cycles(&ctx->timer)) {
			ck_assert(c.cycles >= less((double)(cy_in1 - cy_in0),
			    o.cycles));
			ck_assert(c.cycles <= less((double)(cy_out1 -
			    cy_out0), o.cycles));
		}
		for (i = 0; i < 3; i++) {
			ck_assert_msg(c.events[i] >= less(ev_in1[i] -
			    ev_in0[i], o.events[i]), "%s: %g below %g - %g",
			    ctx->events.info[i].name, c.events[i],
			    ev_in1[i] - ev_in0[i], o.events[i]);
			ck_assert_msg(c.events[i] <= less(ev_out1[i] -
			    ev_out0[i], o.events[i]), "%s: %g above %g - %g",
			    ctx->events.info[i].name, c.events[i],
			    ev_out1[i] - ev_out0[i], o.events[i]);
		}
		/*
		 * The fresh pages fault around the region (the inner group,
		 * opened last, can miss them on this kernel even after the
		 * switch: seen under stress-ng, "in 0 0 out 0 16"; its bound
		 * above then holds trivially).
		 */
		ck_assert_msg(ev_out1[1] - ev_out0[1] >= 1, "outer %g %g, "
		    "inner %g %g, region %g", ev_out0[1], ev_out1[1],
		    ev_in0[1], ev_in1[1], c.events[1]);
	}
	/* The total is the sum of the pairs, added in the same order. */
	ck_assert_int_eq(bm_region_total(rg, &total), 0);
	ck_assert_int_eq(bm_counts_sub(&total, &first), 0);
	ck_assert_uint_eq(total.count, 5);
	ck_assert(total.ns == sum.ns);
	for (i = 0; i < 3; i++)
		ck_assert(total.events[i] == sum.events[i]);
	bm__counters_close(&outer);
	bm__counters_close(&inner);
	bm_region_free(rg);
	bm_ctx_free(ctx);
}
END_TEST

/* Split readings while the region runs never go back, and stop follows. */
START_TEST(test_split_monotonic)
{
	bm_ctx *ctx = test_ctx(0.0);
	bm_counts prev, c, last;
	bm_region *rg;
	size_t i;
	int k;

	ck_assert_int_eq(bm_ctx_set_timer(ctx,
	    "cycle=x86-rdtscp,x86-rdtsc,null"), 0);
	ck_assert_int_eq(bm_ctx_set_events(ctx, SW_EVENTS), 0);
	ck_assert_int_eq(bm_region_new(ctx, "split", &rg), 0);
	ck_assert_int_eq(bm_region_read(rg, &c), BM_ERANGE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "never started"));
	ck_assert_int_eq(bm_region_set_id(rg, 77), 0);
	bm_region_start(rg);
	ck_assert_int_eq(bm_region_read(rg, &prev), 0);
	ck_assert_uint_eq(prev.id, 77);
	for (k = 0; k < 200; k++) {
		check_spin_ns(2000);
		ck_assert_int_eq(bm_region_read(rg, &c), 0);
		ck_assert(c.ns >= prev.ns);
		ck_assert(isnan(c.cycles) == !bm__timer_has_cycles(
		    &ctx->timer));
		if (!isnan(c.cycles))
			ck_assert(c.cycles >= prev.cycles);
		for (i = 0; i < c.nevents; i++) {
			if (isnan(c.events[i]))
				continue;
			ck_assert_msg(c.events[i] >= prev.events[i],
			    "%s went back: %g after %g",
			    ctx->events.info[i].name, c.events[i],
			    prev.events[i]);
		}
		prev = c;
	}
	/* The clock moved: 200 spins of 2 us. */
	ck_assert(prev.ns >= 400000.0);
	bm_region_stop(rg);
	/* After the stop: the pair's counts, at least the last split. */
	ck_assert_int_eq(bm_region_read(rg, &last), 0);
	ck_assert(last.ns >= prev.ns);
	for (i = 0; i < last.nevents; i++)
		if (!isnan(last.events[i]))
			ck_assert(last.events[i] >= prev.events[i]);
	/* Splits add no sample: one pair. */
	ck_assert_int_eq(bm_region_total(rg, &c), 0);
	ck_assert_uint_eq(c.count, 1);
	ck_assert(c.ns == last.ns);
	ck_assert_uint_eq(c.id, 77);
	/* A stop without a start adds nothing. */
	bm_region_stop(rg);
	ck_assert_int_eq(bm_region_total(rg, &c), 0);
	ck_assert_uint_eq(c.count, 1);
	ck_assert_int_eq(bm_region_read(rg, NULL), -EINVAL);
	bm_region_free(rg);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * BENCHMP_REGIONS=off: the region is NULL and every call returns at once
 * without touching its result; the source is recorded; a program's
 * bm_ctx_set_regions() wins over the variable.
 */
START_TEST(test_switch_runtime)
{
	bm_counts c, ref;
	bm_result res, rref;
	bm_region *rg = (bm_region *)&c;	/* not NULL before */
	bm_region *on;
	bm_ctx *ctx = test_ctx(0.0);

	ck_assert_int_eq(bm_ctx_regions(ctx), 1);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_REGIONS),
	    BM_SOURCE_BUILTIN);
	/* A region made while on keeps working after the switch. */
	ck_assert_int_eq(bm_region_new(ctx, "on", &on), 0);
	ck_assert_ptr_nonnull(on);
	setenv("BENCHMP_REGIONS", "off", 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_regions(ctx), 0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_REGIONS),
	    BM_SOURCE_ENV);
	ck_assert_int_eq(bm_region_new(ctx, "off", &rg), 0);
	ck_assert_ptr_null(rg);
	poison(&c, sizeof c);
	poison(&ref, sizeof ref);
	poison(&res, sizeof res);
	poison(&rref, sizeof rref);
	ck_assert_int_eq(bm_region_set_id(rg, 5), 0);
	bm_region_start(rg);
	bm_region_stop(rg);
	ck_assert_int_eq(bm_region_read(rg, &c), 0);
	ck_assert_int_eq(bm_region_total(rg, &c), 0);
	ck_assert_int_eq(bm_region_overhead(rg, &c), 0);
	ck_assert_int_eq(memcmp(&c, &ref, sizeof c), 0);
	ck_assert_int_eq(bm_region_result(rg, &res), BM_ENOTSUP);
	ck_assert_int_eq(memcmp(&res, &rref, sizeof res), 0);
	ck_assert_int_eq(bm_region_write(rg, NULL), 0);
	bm_region_free(rg);
	bm_region_start(on);
	bm_region_stop(on);
	ck_assert_int_eq(bm_region_total(on, &c), 0);
	ck_assert_uint_eq(c.count, 1);
	bm_region_free(on);
	/* The program's call is above the environment. */
	ck_assert_int_eq(bm_ctx_set_regions(ctx, 1), 0);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_regions(ctx), 1);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_REGIONS),
	    BM_SOURCE_CMDLINE);
	ck_assert_int_eq(bm_ctx_set_regions(ctx, 2), -EINVAL);
	ck_assert_int_eq(bm_ctx_set_regions(NULL, 1), -EINVAL);
	ck_assert_int_eq(bm_ctx_regions(NULL), 0);
	bm_ctx_free(ctx);
	/* "on" and a bad value, named. */
	ctx = test_ctx(0.0);
	setenv("BENCHMP_REGIONS", "on", 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_regions(ctx), 1);
	setenv("BENCHMP_REGIONS", "no", 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), BM_EPARSE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "BENCHMP_REGIONS"));
	unsetenv("BENCHMP_REGIONS");
	bm_ctx_free(ctx);
}
END_TEST

/* BM_REGIONS_OFF: the calls compile to constants, arguments unevaluated. */
START_TEST(test_switch_compile)
{
	struct region_off_rc rc;
	bm_counts c, ref;
	bm_result res, rref;
	bm_region *rg = (bm_region *)&c;
	bm_ctx *ctx = test_ctx(0.0);

	poison(&c, sizeof c);
	poison(&ref, sizeof ref);
	poison(&res, sizeof res);
	poison(&rref, sizeof rref);
	region_off_calls(ctx, &rg, &c, &res, &rc);
	ck_assert_ptr_null(rg);
	ck_assert_int_eq(rc.new_rc, 0);
	ck_assert_int_eq(rc.set_id_rc, 0);
	ck_assert_int_eq(rc.read_rc, 0);
	ck_assert_int_eq(rc.total_rc, 0);
	ck_assert_int_eq(rc.overhead_rc, 0);
	ck_assert_int_eq(rc.result_rc, BM_ENOTSUP);
	ck_assert_int_eq(rc.write_rc, 0);
	ck_assert_uint_eq(rc.evals, 0);
	ck_assert_int_eq(memcmp(&c, &ref, sizeof c), 0);
	ck_assert_int_eq(memcmp(&res, &rref, sizeof res), 0);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * Events this machine cannot count are kept, NAN in the readings and "not
 * supported" in the result and the record, as events.c reports them; the
 * record carries the region's name and id.
 */
START_TEST(test_not_supported)
{
	char path[] = "/tmp/check_region.XXXXXX", spec[64], line[65536];
	int hw = check_hw_cycles_work();
	bm_ctx *ctx = test_ctx(0.0);
	bm_region *rg;
	bm_result r;
	bm_counts c;
	int k;

	ck_assert_int_eq(bm_ctx_set_events(ctx, "cycles,page-faults"), 0);
	ck_assert_int_eq(ctx->events.info[0].status, hw ? 0 : BM_ENOTSUP);
	ck_assert_int_eq(bm_region_new(ctx, "mixed", &rg), 0);
	ck_assert_int_eq(bm_region_set_id(rg, 42), 0);
	for (k = 0; k < 20; k++) {
		bm_region_start(rg);
		check_spin_ns(5000);
		bm_region_stop(rg);
	}
	ck_assert_int_eq(bm_region_read(rg, &c), 0);
	ck_assert_uint_eq(c.nevents, 2);
	ck_assert(hw ? isfinite(c.events[0]) : isnan(c.events[0]));
	ck_assert(ctx->events.info[1].status != 0 || isfinite(c.events[1]));
	ck_assert_int_eq(bm_region_result(rg, &r), 0);
	ck_assert_uint_eq(r.nsamples, 20);
	ck_assert_uint_eq(r.nevents, 2);
	ck_assert_int_eq(r.events[0].status, hw ? 0 : BM_ENOTSUP);
	ck_assert(hw ? isfinite(r.event_per_op[0]) : isnan(r.event_per_op[0]));
	bm_result_free(&r);
	check_sink_file(path, spec, sizeof spec);
	check_region_write(ctx, rg, spec);
	check_first_line(path, line, sizeof line);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(line, "\"case\":\"mixed\""));
	ck_assert_ptr_nonnull(strstr(line, "\"count\":20"));
	ck_assert_ptr_nonnull(strstr(line, "\"id\":42"));
	ck_assert_ptr_nonnull(strstr(line, "\"regions\":\"builtin\""));
	if (!hw)
		ck_assert_ptr_nonnull(strstr(line,
		    "\"cycles\":{\"supported\":false"));
	bm_region_free(rg);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * After ntime's readings: each reading has a timestamp (the clock's own
 * and since the region's creation, growing from pair to pair, a sum
 * keeping the later), each can be written as its own record, and the
 * names of the region's counters come joined as a header.
 */
START_TEST(test_readings)
{
	char path[] = "/tmp/check_region.XXXXXX", spec[64], line[65536];
	char names[64];
	bm_counts c[3], sum;
	bm_ctx *ctx = test_ctx(0.0);
	bm_region *rg;
	bm_sink *sink;
	FILE *f;
	int k, lines = 0;

	ck_assert_int_eq(bm_ctx_set_events(ctx, "page-faults,task-clock"), 0);
	ck_assert_int_eq(bm_region_new(ctx, "each", &rg), 0);
	ck_assert_int_eq(bm_region_names(rg, ", ", names, sizeof names), 0);
	ck_assert_str_eq(names, "page-faults, task-clock");
	ck_assert_int_eq(bm_region_names(rg, "|", names, 12), BM_ERANGE);
	ck_assert_str_eq(names, "page-faults");
	ck_assert_int_eq(bm_region_names(rg, NULL, names, 12), -EINVAL);
	check_sink_file(path, spec, sizeof spec);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &sink), 0);
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(bm_region_set_id(rg, (uint64_t)k + 10), 0);
		bm_region_start(rg);
		check_spin_ns(200000);
		bm_region_stop(rg);
		ck_assert_int_eq(bm_region_read(rg, &c[k]), 0);
		ck_assert_int_eq(bm_region_write_counts(rg, &c[k], sink), 0);
		/* 200 us of spinning since the region was created, at least. */
		ck_assert(c[k].timestamp_ns >= 200000.0 * (k + 1));
		ck_assert(c[k].clock_ns > 0);
		if (k > 0) {
			ck_assert(c[k].timestamp_ns >= c[k - 1].timestamp_ns +
			    c[k].ns);
			ck_assert_uint_gt(c[k].clock_ns, c[k - 1].clock_ns);
		}
	}
	ck_assert_int_eq(bm_sink_close(ctx, sink), 0);
	bm_counts_copy(&sum, &c[0]);
	ck_assert_int_eq(bm_counts_add(&sum, &c[2]), 0);
	ck_assert(sum.timestamp_ns == c[2].timestamp_ns);
	ck_assert_uint_eq(sum.clock_ns, c[2].clock_ns);
	ck_assert_int_eq(bm_region_write_counts(rg, NULL, NULL), -EINVAL);
	c[0].count = 0;
	ck_assert_int_eq(bm_region_write_counts(rg, &c[0], NULL), BM_ERANGE);
	/* One record per reading, each with its own id and timestamp. */
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		char want[64];

		ck_assert_ptr_nonnull(strstr(line, "\"tool\":\"region\""));
		ck_assert_ptr_nonnull(strstr(line, "\"case\":\"each\""));
		ck_assert_ptr_nonnull(strstr(line, "\"count\":1"));
		ck_assert_ptr_nonnull(strstr(line, "\"timestamp_us\":"));
		ck_assert_ptr_nonnull(strstr(line, "\"clock_ns\":"));
		(void)snprintf(want, sizeof want, "\"id\":%d", 10 + lines);
		ck_assert_msg(strstr(line, want) != NULL, "%s", line);
		ck_assert_ptr_nonnull(strstr(line, "\"page-faults\""));
		lines++;
	}
	fclose(f);
	unlink(path);
	ck_assert_int_eq(lines, 3);
	bm_region_free(rg);
	/* Without events the names are empty; a NULL region leaves buf. */
	ck_assert_int_eq(bm_ctx_set_events(ctx, ""), 0);
	ck_assert_int_eq(bm_region_new(ctx, "bare", &rg), 0);
	ck_assert_int_eq(bm_region_names(rg, ", ", names, sizeof names), 0);
	ck_assert_str_eq(names, "");
	bm_region_free(rg);
	strcpy(names, "kept");
	ck_assert_int_eq(bm_region_names(NULL, ", ", names, sizeof names), 0);
	ck_assert_str_eq(names, "kept");
	bm_ctx_free(ctx);
}
END_TEST

/* Run the suite: every test in its own process with a timeout. */
int
main(void)
{
	const TTest *const tests[] = {
		test_counts_ops,
		test_counts_subtract,
		test_split_monotonic,
		test_switch_runtime,
		test_switch_compile,
		test_not_supported,
		test_readings,
	};

	return check_suite_main("region", 30, tests,
	    sizeof tests / sizeof *tests);
}
