/* check_interfere.c: interference accounting: the judge on made-up readings, discards through the engine. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_common.h"
#include "check_run.h"
#include "internal.h"

/* A reading: run-queue wait, partners' wait, CPU time, switches, CPU. */
static struct bm__ireading
reading(uint64_t wait, uint64_t pwait, uint64_t cpu, int on)
{
	struct bm__ireading r;

	memset(&r, 0, sizeof r);
	r.wait_ns = wait;
	r.partner_wait_ns = pwait;
	r.cpu_ns = cpu;
	r.cpu = on;
	return r;
}

/* Judge an interval of el ns and n operations that ran cpu ns, waited w. */
static int
judge(struct bm__ibase *b, uint64_t el, uint64_t n, uint64_t cpu, uint64_t w,
    uint64_t pw, int cpu0, int cpu1, int learn, struct bm__idelta *d)
{
	struct bm__ireading r0 = reading(1000, 500, 7000, cpu0);
	struct bm__ireading r1 = reading(1000 + w, 500 + pw, 7000 + cpu,
	    cpu1);

	return bm__interfere_judge(b, &r0, &r1, el, n, 1, learn, d);
}

/* A CPU-bound interval that ran the whole time is not disturbed. */
START_TEST(test_judge_clean)
{
	struct bm__ibase b;
	struct bm__idelta d;

	memset(&b, 0, sizeof b);
	ck_assert_int_eq(judge(&b, 1000000, 1000, 1000000, 0, 0, 0, 0, 0, &d),
	    0);
	ck_assert(d.wait_ns == 0 && d.lost_ns == 0 && !d.migrated);
	/* CPU time read outside the clock's reads may exceed the interval. */
	ck_assert_int_eq(judge(&b, 1000000, 1000, 1000400, 0, 0, 0, 0, 0, &d),
	    0);
	ck_assert(d.lost_ns == 0);
}
END_TEST

/* Waiting on a run queue beyond the share of the interval is disturbed. */
START_TEST(test_judge_wait)
{
	struct bm__ibase b;
	struct bm__idelta d;
	uint64_t el = 1000000, below = (uint64_t)(BM__DISTURB_SHARE * 1e6) / 2;

	memset(&b, 0, sizeof b);
	/* 1% of the interval on a run queue. */
	ck_assert_int_eq(judge(&b, el, 1000, el - 10000, 10000, 0, 0, 0, 0,
	    &d), 1);
	ck_assert(d.wait_ns == 10000 && d.lost_ns == 0);
	/* Below the share: an interrupt's worth, not a disturbance. */
	ck_assert_int_eq(judge(&b, el, 1000, el - below, below, 0, 0, 0, 0,
	    &d), 0);
	/* Time neither running nor waiting (stopped, stolen) counts too. */
	ck_assert_int_eq(judge(&b, el, 1000, el - 20000, 0, 0, 0, 0, 0, &d), 1);
	ck_assert(d.lost_ns == 20000 && d.wait_ns == 0);
}
END_TEST

/* An interval that changed CPU is disturbed however clean its time. */
START_TEST(test_judge_migrated)
{
	struct bm__ibase b;
	struct bm__idelta d;

	memset(&b, 0, sizeof b);
	ck_assert_int_eq(judge(&b, 1000000, 1000, 1000000, 0, 0, 0, 1, 0, &d),
	    1);
	ck_assert(d.migrated);
	/* An unknown CPU (-1) says nothing about migration. */
	ck_assert_int_eq(judge(&b, 1000000, 1000, 1000000, 0, 0, -1, 1, 0, &d),
	    0);
}
END_TEST

/*
 * A ping-pong is off its CPU half the time by design: the warmup teaches
 * the baseline, and only what exceeds it by more than the slack is a
 * disturbance; a disturbed timed interval does not move the baseline.
 */
START_TEST(test_judge_baseline)
{
	struct bm__ibase b;
	struct bm__idelta d;
	uint64_t el = 1000000;
	int i;

	memset(&b, 0, sizeof b);
	for (i = 0; i < 5; i++)
		(void)judge(&b, el, 100, el / 2, el / 4, 0, 0, 0, 1, &d);
	ck_assert_uint_eq(b.count, 5);
	/* 52% off the CPU: within the baseline's slack. */
	ck_assert_int_eq(judge(&b, el, 100, el * 48 / 100, el / 4, 0, 0, 0, 0,
	    &d), 0);
	ck_assert_uint_eq(b.count, 6);
	/* 80% off the CPU: disturbed, and not learnt. */
	ck_assert_int_eq(judge(&b, el, 100, el / 5, el / 4, 0, 0, 0, 0, &d), 1);
	ck_assert_uint_eq(b.count, 6);
	/* The partner's run-queue wait beyond the baseline counts. */
	ck_assert_int_eq(judge(&b, el, 100, el / 2, el / 4, el / 3, 0, 0, 0,
	    &d), 1);
	ck_assert(d.wait_ns == el / 4 + el / 3);
}
END_TEST

/* An interval shorter than wanted is measured, never judged. */
START_TEST(test_judge_short)
{
	struct bm__ibase b;
	struct bm__ireading r0 = reading(0, 0, 0, 0), r1 = reading(500000, 0,
	    100, 0);
	struct bm__idelta d;

	memset(&b, 0, sizeof b);
	ck_assert_int_eq(bm__interfere_judge(&b, &r0, &r1, 1000000, 10, 0, 0,
	    &d), 0);
	ck_assert(d.wait_ns == 500000);
	ck_assert_uint_eq(b.count, 0);
}
END_TEST

/* The timed calls to sleep in (counted from 1), 0-terminated. */
struct sleepy {
	const unsigned *at;
	unsigned calls;
	int every;
};

/* Spin 1 us per operation; sleep 50 ms in chosen timed calls. */
static int
bench_sleepy(bm_iter_t n, void *cookie)
{
	struct sleepy *s = cookie;
	struct timespec nap = { 0, 50000000 };
	const unsigned *a;
	int sleep = 0;

	if (bm__state_phase(bm_state_current()) == BM__STATE_TIMING) {
		s->calls++;
		sleep = s->every;
		for (a = s->at; *a != 0; a++)
			sleep |= *a == s->calls;
	}
	while (n-- > 0)
		check_spin_ns(1000);
	if (sleep)
		(void)nanosleep(&nap, NULL);
	return 0;
}

/* Whether this kernel gives a thread its run-queue wait. */
static int
schedstat_readable(void)
{
	return access("/proc/thread-self/schedstat", R_OK) == 0 ||
	    access("/proc/self/schedstat", R_OK) == 0;
}

/* A run of one worker and one round of bench_sleepy. */
static void
run_sleepy(bm_ctx *ctx, struct sleepy *s, bm_result *r)
{
	bm_bench b = { .benchmark = bench_sleepy, .cookie = s };
	bm_options o;

	bm_options_init(&o);
	o.repetitions = 11;
	o.processes = 1;
	o.warmup_us = 20000;
	check_run_ok(ctx, &b, &o, r);
}

/*
 * Three timed intervals that sleep are discarded and run again: at least
 * those three (the machine may disturb others), every interval run is
 * counted, and no kept one holds a sleep unless the bound was reached.
 */
START_TEST(test_discard_counted)
{
	static const unsigned at[] = { 2, 5, 7, 0 };
	struct sleepy s = { at, 0, 0 };
	bm_ctx *ctx = check_ctx(1000);
	bm_result r;
	size_t i;

	check_ctx_overheads(ctx, 0, 0);
	run_sleepy(ctx, &s, &r);
	if (!schedstat_readable()) {
		ck_assert_int_eq(r.interference.accounted, 0);
		check_end_run(ctx, &r);
		return;
	}
	ck_assert_int_eq(r.interference.accounted, 1);
	ck_assert_uint_ge(r.interference.discarded, 3);
	ck_assert_uint_ge(r.interference.disturbed,
	    r.interference.discarded);
	ck_assert_uint_eq(r.interference.intervals,
	    r.nsamples + r.interference.discarded);
	ck_assert(r.interference.discarded_s >= 0.15);
	for (i = 0; i < r.nsamples && r.interference.bound_hit == 0; i++)
		ck_assert(r.samples[i].lost_ns < 40e6);
	check_end_run(ctx, &r);
}
END_TEST

/*
 * Every timed interval sleeps: a worker discards as many as it keeps,
 * then keeps the rest flagged, and says it reached the bound.
 */
START_TEST(test_discard_bound)
{
	static const unsigned none[] = { 0 };
	struct sleepy s = { none, 0, 1 };
	bm_ctx *ctx = check_ctx(1000);
	bm_result r;
	size_t i;

	check_ctx_overheads(ctx, 0, 0);
	run_sleepy(ctx, &s, &r);
	if (!schedstat_readable()) {
		ck_assert_int_eq(r.interference.accounted, 0);
		check_end_run(ctx, &r);
		return;
	}
	ck_assert_uint_eq(r.interference.discarded, 11);
	ck_assert_uint_eq(r.interference.disturbed, 22);
	ck_assert_uint_eq(r.interference.intervals, 22);
	ck_assert_uint_eq(r.interference.bound_hit, 1);
	for (i = 0; i < r.nsamples; i++)
		ck_assert(r.samples[i].flags & BM_SAMPLE_DISTURBED);
	check_end_run(ctx, &r);
}
END_TEST

/* Turned off, nothing is judged, discarded or read. */
START_TEST(test_accounting_off)
{
	static const unsigned at[] = { 2, 0 };
	struct sleepy s = { at, 0, 0 };
	bm_ctx *ctx = check_ctx(1000);
	bm_result r;

	check_ctx_overheads(ctx, 0, 0);
	ck_assert_int_eq(bm_ctx_set_interference(ctx, 0), 0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_INTERFERENCE),
	    BM_SOURCE_CMDLINE);
	run_sleepy(ctx, &s, &r);
	ck_assert_int_eq(r.interference.accounted, 0);
	ck_assert_int_eq(r.interference.off, 1);
	ck_assert_uint_eq(r.interference.discarded, 0);
	ck_assert_uint_eq(r.nsamples, 11);
	check_end_run(ctx, &r);
}
END_TEST

/* BENCHMP_INTERFERENCE: on/off, anything else refused naming it. */
START_TEST(test_env_switch)
{
	bm_ctx *ctx = NULL;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(setenv("BENCHMP_INTERFERENCE", "sometimes", 1), 0);
	ck_assert_int_eq(bm_ctx_load_env(ctx), BM_EPARSE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "BENCHMP_INTERFERENCE"));
	ck_assert_int_eq(setenv("BENCHMP_INTERFERENCE", "off", 1), 0);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_INTERFERENCE),
	    BM_SOURCE_ENV);
	/* The command line wins over the environment. */
	ck_assert_int_eq(bm_ctx_set_interference(ctx, 1), 0);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_INTERFERENCE),
	    BM_SOURCE_CMDLINE);
	ck_assert_int_eq(unsetenv("BENCHMP_INTERFERENCE"), 0);
	bm_ctx_free(ctx);
}
END_TEST

/* A bound on the run's time stops rounds and says so. */
START_TEST(test_max_time)
{
	static const unsigned none[] = { 0 };
	struct sleepy s = { none, 0, 0 };
	bm_bench b = { .benchmark = bench_sleepy, .cookie = &s };
	bm_ctx *ctx = check_ctx(1000);
	bm_options o;
	bm_result r;

	check_ctx_overheads(ctx, 0, 0);
	bm_options_init(&o);
	o.processes = 5;
	o.warmup_us = 1000;
	o.max_time_us = 1;
	check_run_ok(ctx, &b, &o, &r);
	ck_assert_uint_eq(r.processes, 1);
	ck_assert_int_eq(r.budget_hit, 1);
	bm_result_free(&r);
	o.max_time_us = 0;
	check_run_ok(ctx, &b, &o, &r);
	ck_assert_uint_eq(r.processes, 5);
	ck_assert_int_eq(r.budget_hit, 0);
	bm_result_free(&r);
	/*
	 * The second round is judged by what it repeats: not the first's
	 * 600 ms warmup, which alone would have stopped the run after one
	 * round (600 twice is past the second), but 1 ms of it.  A round
	 * whose other work took 400 ms would still stop it.
	 */
	o.warmup_us = 600000;
	o.later_warmup_us = 1000;
	o.max_time_us = 1000000;
	check_run_ok(ctx, &b, &o, &r);
	ck_assert_uint_ge(r.processes, 2);
	ck_assert_int_eq(r.budget_hit, r.processes < 5);
	check_end_run(ctx, &r);
}
END_TEST

/*
 * /proc/stat and a schedstat read under a root: all CPUs' line and each
 * CPU's, steal and busy ticks (user, nice, system, irq, softirq, steal);
 * a CPU without a line, or a line of too few columns, is not known.
 */
START_TEST(test_cputimes)
{
	struct bm__procfs p;
	struct bm__cputime all, per[4];
	uint64_t run, wait;

	memset(&p, 0, sizeof p);
	p.root = check_tree_new("check_interfere");
	check_tree_write("proc/stat", "cpu  10 1 2 400 3 4 5 6 0 0\n"
	    "cpu0 5 1 1 200 2 2 2 3 0 0\ncpu2 5 0 1 200 1 2 3 3 0 0\n"
	    "cpu3 1 2 3\nintr 5 6\nprocs_running 2\n");
	check_tree_write("proc/self/schedstat", "1000001000 2000 9\n");
	ck_assert_int_eq(bm__interfere_cputimes(&p, &all, per, 4), 0);
	ck_assert(all.known && all.steal == 6 && all.busy == 28);
	ck_assert(per[0].known && per[0].steal == 3 && per[0].busy == 14);
	ck_assert(!per[1].known && per[2].known && !per[3].known);
	ck_assert_uint_eq(per[2].busy, 14);
	ck_assert_int_eq(bm__interfere_schedstat(&p, "/proc/self/schedstat",
	    &run, &wait), 0);
	ck_assert_uint_eq(run, 1000001000u);
	ck_assert_uint_eq(wait, 2000);
	check_tree_write("proc/self/schedstat", "none\n");
	ck_assert_int_eq(bm__interfere_schedstat(&p, "/proc/self/schedstat",
	    &run, &wait), BM_EPARSE);
	ck_assert_int_eq(bm__interfere_cputimes(&p, NULL, per, 0), 0);
	check_tree_free();
	p.root = "/nonexistent-root";
	ck_assert_int_eq(bm__interfere_cputimes(&p, &all, per, 4), -ENOENT);
	ck_assert(!all.known && !per[0].known);
}
END_TEST

int
main(void)
{
	const TTest *const tests[] = {
		test_judge_clean, test_judge_wait, test_judge_migrated,
		test_judge_baseline, test_judge_short, test_discard_counted,
		test_discard_bound, test_accounting_off, test_env_switch,
		test_max_time, test_cputimes
	};

	return check_suite_main("interfere", 120, tests,
	    sizeof tests / sizeof tests[0]);
}
