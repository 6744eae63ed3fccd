/*
 * check_tsc.c: the cycle subtimer's rate and cycles converted to time, on
 * fake counters (the real TSC in check_tsc_x86.c, a skip where none is).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_run.h"
#include "internal.h"

/* Reads of the fake counters, to tell whether a measurement ran. */
static unsigned long fake_reads;

/* Nanoseconds of the monotonic clock, the one the rate is measured on. */
static uint64_t
fake_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Initialise a fake: nothing to prepare. */
static int
fake_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	snprintf(detail, len, "fake");
	return 0;
}

/* A counter at 3 GHz: three counts per nanosecond. */
static uint64_t
fake_3ghz_now(void *priv)
{
	(void)priv;
	fake_reads++;
	return fake_mono_ns() * 3;
}

/* A counter at 1.5 GHz. */
static uint64_t
fake_1g5_now(void *priv)
{
	(void)priv;
	fake_reads++;
	return fake_mono_ns() * 3 / 2;
}

/* A counter that stands still. */
static uint64_t
fake_stuck_now(void *priv)
{
	(void)priv;
	fake_reads++;
	return 42;
}

static const bm_subtimer_class fake_3ghz = {
	.name = "fake-3ghz", .kind = BM_SUBTIMER_CYCLE, .init = fake_init,
	.now = fake_3ghz_now, .flags = BM_SUBTIMER_CONSTANT_RATE
};
static const bm_subtimer_class fake_1g5 = {
	.name = "fake-1g5", .kind = BM_SUBTIMER_CYCLE, .init = fake_init,
	.now = fake_1g5_now, .flags = BM_SUBTIMER_CONSTANT_RATE
};
static const bm_subtimer_class fake_stuck = {
	.name = "fake-stuck", .kind = BM_SUBTIMER_CYCLE, .init = fake_init,
	.now = fake_stuck_now, .flags = BM_SUBTIMER_CONSTANT_RATE
};
/* Counts like the 3 GHz one but, unregistered as constant, is core cycles. */
static const bm_subtimer_class fake_core = {
	.name = "fake-core", .kind = BM_SUBTIMER_CYCLE, .init = fake_init,
	.now = fake_3ghz_now
};

/* Register the fakes (once per test process) and clear the variables. */
static void
tsc_setup(void)
{
	const bm_subtimer_class *c[] = { &fake_3ghz, &fake_1g5, &fake_stuck,
	    &fake_core };
	size_t i;
	int rc;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		rc = bm_timer_register(c[i]);
		ck_assert(rc == 0 || rc == -EEXIST);
	}
	unsetenv("BENCHMP_TSC_HZ");
	unsetenv("BENCHMP_TIMER");
	fake_reads = 0;
}

/* A context on the given timer config. */
static bm_ctx *
tsc_ctx(const char *timer)
{
	bm_ctx *ctx = NULL;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	if (timer != NULL)
		ck_assert_int_eq(bm_ctx_set_timer(ctx, timer), 0);
	return ctx;
}

/*
 * Format a record of a one-sample result of 300 cycles per operation
 * with ctx; free() the string.
 */
static char *
tsc_record(const bm_ctx *ctx)
{
	static bm_sample s;
	bm_result r;
	bm_record rec;
	double v = 100;
	char *out = NULL;

	memset(&s, 0, sizeof s);
	s.ns = 100000;
	s.n = 1000;
	s.cycles = 300000;
	memset(&r, 0, sizeof r);
	ck_assert_int_eq(bm_stats_compute(&v, 1, &r.per_op_ns), 0);
	r.samples = &s;
	r.nsamples = 1;
	r.parallel = 1;
	r.repetitions = 1;
	r.processes = 1;
	r.cycles_per_op = 300;
	ck_assert_int_eq(bm_record_latency(&rec, "tsc_test", "x", "ns", &r),
	    0);
	ck_assert_int_eq(bm_record_json(ctx, &rec, &out), 0);
	ck_assert_ptr_nonnull(out);
	return out;
}

/* The number after "key": in a record, or NAN for null. */
static double
tsc_num(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof pat, "\"%s\":", key);
	p = strstr(json, pat);
	ck_assert_msg(p != NULL, "no %s in %s", key, json);
	p += strlen(pat);
	if (strncmp(p, "null", 4) == 0)
		return NAN;
	return strtod(p, NULL);
}

static const struct {
	const char *timer;
	double hz;
} rates[] = {
	{ "cycle=fake-3ghz", 3e9 },
	{ "cycle=fake-1g5", 1.5e9 },
};

/* A constant-rate counter of known rate is measured within 1%. */
START_TEST(test_known_rate)
{
	bm_ctx *ctx;
	double hz = 0, want = rates[_i].hz;
	int inv = -2;
	char *s;

	tsc_setup();
	ctx = tsc_ctx(rates[_i].timer);
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, &inv), 0);
	ck_assert_msg(fabs(hz - want) < 0.01 * want, "measured %g Hz, not "
	    "%g", hz, want);
	ck_assert_int_eq(inv, 1);
	ck_assert_uint_gt(fake_reads, 0);
	ck_assert_uint_ge(ctx->rate.windows, 3);
	/* Once per timer: asking again measures nothing. */
	fake_reads = 0;
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, NULL), 0);
	ck_assert_uint_eq(fake_reads, 0);
	s = tsc_record(ctx);
	ck_assert_msg(fabs(tsc_num(s, "cycle_hz") - hz) <= 1e-6 * hz, "%s", s);
	/* 300 cycles per operation at the measured rate. */
	ck_assert_msg(fabs(tsc_num(s, "cycle_ns_per_op") - 300e9 / hz) <
	    1e-9, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "\"cycle_hz_source\":\"measured\""));
	ck_assert_ptr_nonnull(strstr(s, "\"cycle_invariant\":true"));
	ck_assert_ptr_nonnull(strstr(s, "\"tsc_hz\":\"builtin\""));
	ck_assert(isfinite(tsc_num(s, "cycle_hz_spread")));
	free(s);
	/* A new timer forgets the measured rate. */
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "cycle=null"), 0);
	s = tsc_record(ctx);
	ck_assert(isnan(tsc_num(s, "cycle_hz")));
	free(s);
	bm_ctx_free(ctx);
}
END_TEST

/* bm_calibrate() settles the rate, so that every run's record has it. */
START_TEST(test_calibrate_measures)
{
	bm_calibration cal;
	bm_ctx *ctx;

	tsc_setup();
	ctx = tsc_ctx("cycle=fake-3ghz");
	/* Given values: only the cycle overheads and the rate are measured. */
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 1000), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_TIMING_O, 0), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_LOOP_O, 0.001),
	    0);
	ck_assert_int_eq(ctx->rate.known, 0);
	ck_assert_int_eq(bm_calibrate(ctx, &cal), 0);
	ck_assert_int_eq(ctx->rate.known, 1);
	ck_assert_int_eq(ctx->rate.status, 0);
	ck_assert_msg(fabs(ctx->rate.hz - 3e9) < 0.01 * 3e9, "%g",
	    ctx->rate.hz);
	bm_ctx_free(ctx);
}
END_TEST

/* BENCHMP_TSC_HZ is used as given and nothing is measured. */
START_TEST(test_env_override)
{
	bm_ctx *ctx;
	double hz = 0;
	int inv = -2;
	char *s;

	tsc_setup();
	setenv("BENCHMP_TSC_HZ", "2.5e9", 1);
	ctx = tsc_ctx("cycle=fake-3ghz");
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TSC_HZ), BM_SOURCE_ENV);
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, &inv), 0);
	ck_assert(hz == 2.5e9);
	ck_assert_int_eq(inv, 1);
	ck_assert_uint_eq(fake_reads, 0);
	s = tsc_record(ctx);
	ck_assert(tsc_num(s, "cycle_hz") == 2.5e9);
	ck_assert(fabs(tsc_num(s, "cycle_ns_per_op") - 120) < 1e-9);
	ck_assert_ptr_nonnull(strstr(s, "\"cycle_hz_source\":\"env\""));
	ck_assert_ptr_nonnull(strstr(s, "\"tsc_hz\":\"env\""));
	ck_assert(isnan(tsc_num(s, "cycle_hz_spread")));
	free(s);
	/* A given rate outlives a change of timer. */
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "cycle=fake-1g5"), 0);
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, NULL), 0);
	ck_assert(hz == 2.5e9);
	ck_assert_uint_eq(fake_reads, 0);
	/* The program's value is above the variable's. */
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, 2e9), 0);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, NULL), 0);
	ck_assert(hz == 2e9);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TSC_HZ),
	    BM_SOURCE_CMDLINE);
	/* 0 forgets it: measured again. */
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, 0), 0);
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, NULL), 0);
	ck_assert_msg(fabs(hz - 1.5e9) < 0.01 * 1.5e9, "%g", hz);
	ck_assert_uint_gt(fake_reads, 0);
	bm_ctx_free(ctx);
}
END_TEST

static const struct {
	const char *value;
	int rc;
} bad_hz[] = {
	{ "fast", BM_EPARSE }, { "3GHz", BM_EPARSE }, { "-5", BM_EPARSE },
	{ "nan", BM_EPARSE }, { "inf", BM_EPARSE }, { "0", BM_ERANGE },
	{ "999999", BM_ERANGE }, { "1e12", BM_ERANGE }, { "1e400", BM_ERANGE },
};

/* A malformed or out-of-range BENCHMP_TSC_HZ is an error naming it. */
START_TEST(test_env_bad)
{
	bm_ctx *ctx;

	tsc_setup();
	setenv("BENCHMP_TSC_HZ", bad_hz[_i].value, 1);
	ctx = tsc_ctx("cycle=fake-3ghz");
	ck_assert_int_eq(bm_ctx_load_env(ctx), bad_hz[_i].rc);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "BENCHMP_TSC_HZ"));
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TSC_HZ),
	    BM_SOURCE_BUILTIN);
	ck_assert(ctx->rate.given_hz == 0);
	bm_ctx_free(ctx);
}
END_TEST

/* bm_ctx_set_cycle_hz() checks its range. */
START_TEST(test_set_range)
{
	bm_ctx *ctx;

	tsc_setup();
	ctx = tsc_ctx(NULL);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, 999999), BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, 1.1e11), BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, -1e9), BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, NAN), BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, INFINITY), BM_ERANGE);
	ck_assert(ctx->rate.given_hz == 0);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, BM_CYCLE_HZ_MIN), 0);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(ctx, BM_CYCLE_HZ_MAX), 0);
	ck_assert_int_eq(bm_ctx_set_cycle_hz(NULL, 1e9), -EINVAL);
	ck_assert_int_eq(bm_ctx_cycle_hz(NULL, NULL, NULL), -EINVAL);
	bm_ctx_free(ctx);
}
END_TEST

static const char *const no_rate[] = { NULL, "cycle=fake-core" };

/*
 * A counter without a constant rate (null, core cycles) has no rate and
 * converts nothing, even with BENCHMP_TSC_HZ given; the record says null.
 */
START_TEST(test_no_rate)
{
	bm_ctx *ctx;
	double hz = 0;
	int inv = -2;
	char *s;

	tsc_setup();
	setenv("BENCHMP_TSC_HZ", "3e9", 1);
	ctx = tsc_ctx(no_rate[_i]);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, &inv), BM_ENOTSUP);
	ck_assert(isnan(hz));
	ck_assert_int_eq(inv, -1);
	ck_assert_uint_eq(fake_reads, 0);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), _i == 0 ?
	    "counts nothing" : "no constant rate"));
	s = tsc_record(ctx);
	ck_assert(isnan(tsc_num(s, "cycle_hz")));
	ck_assert(isnan(tsc_num(s, "cycle_ns_per_op")));
	ck_assert_ptr_nonnull(strstr(s, "\"cycle_hz_source\":null"));
	ck_assert_ptr_nonnull(strstr(s, "\"cycle_invariant\":null"));
	free(s);
	bm_ctx_free(ctx);
}
END_TEST

/* A counter that stands still fails the measurement, saying why. */
START_TEST(test_stuck)
{
	bm_ctx *ctx;
	double hz = 0;
	char *s;

	tsc_setup();
	ctx = tsc_ctx("cycle=fake-stuck");
	ck_assert_int_eq(bm_ctx_cycle_hz(ctx, &hz, NULL), BM_ECALIB);
	ck_assert(isnan(hz));
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "windows clean"));
	s = tsc_record(ctx);
	ck_assert(isnan(tsc_num(s, "cycle_hz")));
	ck_assert_ptr_nonnull(strstr(s, "windows clean"));
	free(s);
	bm_ctx_free(ctx);
}
END_TEST

/* Flags a registration refuses. */
START_TEST(test_register_flags)
{
	bm_subtimer_class c = fake_3ghz;

	c.name = "fake-flags";
	c.flags = 1u << 5;
	ck_assert_int_eq(bm_timer_register(&c), -EINVAL);
	c.flags = BM_SUBTIMER_CONSTANT_RATE;
	c.kind = BM_SUBTIMER_CLOCK;
	ck_assert_int_eq(bm_timer_register(&c), -EINVAL);
}
END_TEST

/* Build the suite. */
static Suite *
tsc_suite(void)
{
	Suite *s = suite_create("tsc");
	TCase *tc = tcase_create("tsc");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_known_rate, 0,
	    (int)(sizeof rates / sizeof rates[0]));
	tcase_add_test(tc, test_calibrate_measures);
	tcase_add_test(tc, test_env_override);
	tcase_add_loop_test(tc, test_env_bad, 0,
	    (int)(sizeof bad_hz / sizeof bad_hz[0]));
	tcase_add_test(tc, test_set_range);
	tcase_add_loop_test(tc, test_no_rate, 0,
	    (int)(sizeof no_rate / sizeof no_rate[0]));
	tcase_add_test(tc, test_stuck);
	tcase_add_test(tc, test_register_flags);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(tsc_suite());
}
