/* check_ctx.c: the context and the environment it reads. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "internal.h"

static const char *const env_names[] = {
	"ENOUGH", "TIMING_O", "LOOP_O", "BENCHMP_TIMER", "BENCHMP_SCHED",
	"LMBENCH_SCHED", "BENCHMP_PROCESSES", "BENCHMP_EVENTS", "BENCHMP_OUTPUT",
	"BENCHMP_REGIONS", "BENCHMP_OVERHEAD_CLOCK"
};

/* Start every test from an environment without our variables. */
static void
ctx_clear_env(void)
{
	size_t i;

	for (i = 0; i < sizeof env_names / sizeof env_names[0]; i++)
		unsetenv(env_names[i]);
}

/* Make a context or fail the test. */
static bm_ctx *
ctx_make(void)
{
	bm_ctx *ctx = NULL;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_ptr_nonnull(ctx);
	return ctx;
}

/*
 * TIMING_O is the clock's it was measured on (unset
 * BENCHMP_OVERHEAD_CLOCK: posix-monotonic's): a context on another clock
 * sets it aside, to be measured, and says so; ENOUGH and LOOP_O (the
 * processor's) hold on any clock.
 */
START_TEST(test_env_other_clock)
{
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("ENOUGH", "5000", 1);
	setenv("TIMING_O", "0.031", 1);
	setenv("LOOP_O", "0.0003", 1);
	setenv("BENCHMP_TIMER", "clock=stdc-clock", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "stdc-clock");
	ck_assert_uint_eq(ctx->cal.from_env, BM_CAL_ENOUGH | BM_CAL_LOOP_O);
	ck_assert_uint_eq(ctx->known & BM_CAL_TIMING_O, 0);
	ck_assert(ctx->cal.loop_o_us == 0.0003);
	ck_assert_uint_eq(ctx->cal_other_clock, BM_CAL_TIMING_O);
	ck_assert_str_eq(ctx->cal_clock, "posix-monotonic");
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TIMING_O),
	    BM_SOURCE_BUILTIN);
	bm_ctx_free(ctx);
	/* Said to be this clock's: taken. */
	setenv("BENCHMP_OVERHEAD_CLOCK", "stdc-clock", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert(ctx->cal.timing_o_us == 0.031);
	ck_assert_uint_eq(ctx->cal_other_clock, 0);
	bm_ctx_free(ctx);
	/* Not a clock's name: refused, naming the variable. */
	setenv("BENCHMP_OVERHEAD_CLOCK", "no clock", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), BM_EPARSE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "BENCHMP_OVERHEAD_CLOCK"));
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

START_TEST(test_defaults)
{
	bm_ctx *ctx;

	ctx_clear_env();
	ctx = ctx_make();
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-monotonic");
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CYCLE), "null");
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->known, 0);
	ck_assert_uint_eq(ctx->cal.from_env, 0);
	ck_assert_int_eq(ctx->sched.kind, BM__SCHED_DEFAULT);
	ck_assert_str_eq(bm_ctx_errmsg(ctx), "");
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_good_env)
{
	bm_calibration cal;
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("ENOUGH", "5000", 1);
	setenv("TIMING_O", "0.031", 1);
	setenv("LOOP_O", "0.0003", 1);
	setenv("BENCHMP_SCHED", "unique", 1);
	setenv("BENCHMP_TIMER", "clock=posix-monotonic-raw,posix-monotonic",
	    1);
	/* The overheads given are the clock's that wins (raw, if any). */
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_set_timer(ctx,
	    "clock=posix-monotonic-raw,posix-monotonic"), 0);
	setenv("BENCHMP_OVERHEAD_CLOCK", bm_ctx_timer_name(ctx,
	    BM_SUBTIMER_CLOCK), 1);
	bm_ctx_free(ctx);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->cal_other_clock, 0);
	ck_assert_uint_eq(ctx->cal.enough_us, 5000);
	ck_assert(ctx->cal.timing_o_us == 0.031);
	ck_assert(ctx->cal.loop_o_us == 0.0003);
	ck_assert_uint_eq(ctx->cal.from_env, BM__KNOWN_ALL);
	ck_assert_int_eq(ctx->sched.kind, BM__SCHED_UNIQUE);
	ck_assert_ptr_nonnull(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK));
	/* Everything is given: calibrating measures nothing. */
	ck_assert_int_eq(bm_calibrate(ctx, &cal), 0);
	ck_assert_uint_eq(cal.enough_us, 5000);
	ck_assert(cal.seconds == 0.0);
	ck_assert_uint_eq(cal.from_env, BM__KNOWN_ALL);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_empty_is_unset)
{
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("ENOUGH", "", 1);
	setenv("BENCHMP_TIMER", "", 1);
	setenv("BENCHMP_SCHED", "", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->known, 0);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_lmbench_sched)
{
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("LMBENCH_SCHED", "SINGLE", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(ctx->sched.kind, BM__SCHED_SINGLE);
	setenv("BENCHMP_SCHED", "list:0", 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(ctx->sched.kind, BM__SCHED_LIST);
	bm_ctx_free(ctx);
}
END_TEST

struct bad_env {
	const char *name;
	const char *value;
	int rc;
};

/* Malformed and out-of-range values: each must name its variable. */
static const struct bad_env bad_envs[] = {
	{ "ENOUGH", "abc", BM_EPARSE },
	{ "ENOUGH", "12x", BM_EPARSE },
	{ "ENOUGH", "-5", BM_EPARSE },
	{ "ENOUGH", "0", BM_ERANGE },
	{ "ENOUGH", "60000001", BM_ERANGE },
	{ "ENOUGH", "5000.5", BM_EPARSE },
	{ "ENOUGH", "99999999999999999999999", BM_ERANGE },
	{ "TIMING_O", "-1", BM_EPARSE },
	{ "TIMING_O", "nan", BM_EPARSE },
	{ "TIMING_O", "1e7", BM_ERANGE },
	{ "TIMING_O", "0.1us", BM_EPARSE },
	{ "LOOP_O", "1e9", BM_ERANGE },
	{ "LOOP_O", "1001", BM_ERANGE },
	{ "LOOP_O", "inf", BM_EPARSE },
	{ "LOOP_O", " 1", BM_EPARSE },
	{ "BENCHMP_TIMER", "bogus", BM_ECONFIG },
	{ "BENCHMP_TIMER", "clock=nope", BM_ECONFIG },
	{ "BENCHMP_SCHED", "sometimes", BM_ECONFIG },
	{ "BENCHMP_SCHED", "list:9-2", BM_EPARSE },
	/* A CPU this process may not use (no test machine has 1024). */
	{ "BENCHMP_SCHED", "list:0,1023", BM_ERANGE },
	{ "LMBENCH_SCHED", "custom 1023", BM_ERANGE },
	{ "LMBENCH_SCHED", "CUSTOM", BM_ECONFIG },
	{ "BENCHMP_PROCESSES", "0", BM_ERANGE },
	{ "BENCHMP_PROCESSES", "101", BM_ERANGE },
	{ "BENCHMP_PROCESSES", "3:2", BM_ERANGE },
	{ "BENCHMP_PROCESSES", "3:101", BM_ERANGE },
	{ "BENCHMP_PROCESSES", "x", BM_EPARSE },
	{ "BENCHMP_PROCESSES", "5:", BM_EPARSE },
	{ "BENCHMP_PROCESSES", ":5", BM_EPARSE },
	{ "BENCHMP_PROCESSES", "2:3:4", BM_EPARSE },
	{ "BENCHMP_PROCESSES", "-2", BM_EPARSE },
	{ "BENCHMP_PROCESSES", "999999999999999999999999999999999",
	    BM_ERANGE },
};

START_TEST(test_bad_env)
{
	const struct bad_env *b = &bad_envs[_i];
	bm_ctx *ctx;
	int rc;

	ctx_clear_env();
	/* A good value beside the bad one must not be applied either. */
	if (strcmp(b->name, "TIMING_O") != 0)
		setenv("TIMING_O", "0.5", 1);
	setenv(b->name, b->value, 1);
	ctx = ctx_make();
	rc = bm_ctx_load_env(ctx);
	ck_assert_msg(rc == b->rc, "%s=%s: rc %d (%s), expected %d", b->name,
	    b->value, rc, bm_ctx_errmsg(ctx), b->rc);
	ck_assert_msg(strstr(bm_ctx_errmsg(ctx), b->name) != NULL,
	    "%s=%s: message '%s' does not name the variable", b->name,
	    b->value, bm_ctx_errmsg(ctx));
	ck_assert_uint_eq(ctx->known, 0);
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-monotonic");
	bm_ctx_free(ctx);
}
END_TEST

/*
 * BENCHMP_PROCESSES=MIN[:MAX] sets the rounds on the context (MAX 0 when
 * absent); bm_parse_processes reads the same forms.
 */
START_TEST(test_processes_env)
{
	unsigned lo = 9, hi = 9;
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("BENCHMP_PROCESSES", "3:7", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->proc_min, 3);
	ck_assert_uint_eq(ctx->proc_max, 7);
	setenv("BENCHMP_PROCESSES", "2", 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->proc_min, 2);
	ck_assert_uint_eq(ctx->proc_max, 0);
	bm_ctx_free(ctx);
	ck_assert_int_eq(bm_parse_processes("100:100", &lo, &hi), 0);
	ck_assert_uint_eq(lo, 100);
	ck_assert_uint_eq(hi, 100);
	ck_assert_int_eq(bm_parse_processes("", &lo, &hi), BM_EPARSE);
	ck_assert_int_eq(bm_parse_processes("4 ", &lo, &hi), BM_EPARSE);
	ck_assert_int_eq(bm_parse_processes("4:3", &lo, &hi), BM_ERANGE);
	ck_assert_uint_eq(lo, 100);
}
END_TEST

START_TEST(test_set_calibration)
{
	bm_ctx *ctx;

	ctx_clear_env();
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 0),
	    BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 1.5),
	    BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_LOOP_O, -1),
	    BM_ERANGE);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, 99, 1), -EINVAL);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, 99, NAN), -EINVAL);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "unknown"));
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_TIMING_O, NAN),
	    BM_ERANGE);
	ck_assert_uint_eq(ctx->known, 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 2000), 0);
	ck_assert_uint_eq(ctx->cal.enough_us, 2000);
	ck_assert_uint_eq(ctx->known, BM_CAL_ENOUGH);
	ck_assert_uint_eq(ctx->cal.from_env, BM_CAL_ENOUGH);
	bm_ctx_free(ctx);
}
END_TEST

/* A program's default is used unless ENOUGH gave one, and is not ENOUGH's. */
START_TEST(test_default_calibration)
{
	bm_ctx *ctx;

	ctx_clear_env();
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, BM_CAL_ENOUGH, 0),
	    BM_ERANGE);
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, 99, 1), -EINVAL);
	ck_assert_int_eq(bm_ctx_default_calibration(NULL, BM_CAL_ENOUGH, 1),
	    -EINVAL);
	ck_assert_uint_eq(ctx->known, 0);
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, BM_CAL_ENOUGH, 2000),
	    0);
	ck_assert_uint_eq(ctx->cal.enough_us, 2000);
	ck_assert_uint_eq(ctx->known, BM_CAL_ENOUGH);
	ck_assert_uint_eq(ctx->cal.from_env, 0);
	bm_ctx_free(ctx);
	/* ENOUGH set (or empty, which is unset). */
	setenv("ENOUGH", "300", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, BM_CAL_ENOUGH, 2000),
	    0);
	ck_assert_uint_eq(ctx->cal.enough_us, 300);
	ck_assert_uint_eq(ctx->cal.from_env, BM_CAL_ENOUGH);
	bm_ctx_free(ctx);
	setenv("ENOUGH", "", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, BM_CAL_ENOUGH, 2000),
	    0);
	ck_assert_uint_eq(ctx->cal.enough_us, 2000);
	ck_assert_uint_eq(ctx->cal.from_env, 0);
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

/* A forced value holds over the environment and is the program's. */
START_TEST(test_force_calibration)
{
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("LOOP_O", "5", 1);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->cal.from_env, BM_CAL_LOOP_O);
	ck_assert_int_eq(bm_ctx_force_calibration(ctx, BM_CAL_LOOP_O, -1),
	    BM_ERANGE);
	ck_assert_int_eq(bm_ctx_force_calibration(ctx, 99, 0), -EINVAL);
	ck_assert_int_eq(bm_ctx_force_calibration(ctx, BM_CAL_LOOP_O, 0), 0);
	ck_assert(ctx->cal.loop_o_us == 0);
	ck_assert_uint_eq(ctx->cal.from_env, 0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_LOOP_O),
	    BM_SOURCE_TOOL);
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

START_TEST(test_set_timer_forgets_measured)
{
	bm_calibration cal;
	bm_ctx *ctx;

	ctx_clear_env();
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 3000), 0);
	ck_assert_int_eq(bm_calibrate(ctx, &cal), 0);
	ck_assert_uint_eq(ctx->known, BM__KNOWN_ALL | BM__KNOWN_CYCLES);
	ck_assert_uint_eq(cal.enough_us, 3000);
	ck_assert(cal.seconds > 0);
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "clock=posix-monotonic"), 0);
	ck_assert_uint_eq(ctx->known, BM_CAL_ENOUGH);
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "clock=nope"), BM_ECONFIG);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "nope"));
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-monotonic");
	ck_assert_int_eq(bm_ctx_set_sched(ctx, "list:x"), BM_EPARSE);
	ck_assert_int_eq(bm_ctx_set_sched(ctx, "single"), 0);
	ck_assert_int_eq(ctx->sched.kind, BM__SCHED_SINGLE);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * The precedence tests: one setting given by some of the sources, each
 * with its own value, so that the value seen tells which source won.
 */
enum { SET_TIMER, SET_ENOUGH, SET_OUTPUT, NSETS };

/* Each source's value of each setting (the built-in one is not given). */
static const char *const timer_by_source[] = { "posix-monotonic",
	"clock=posix-monotonic-raw", "clock=stdc-clock",
	"clock=posix-thread-cputime" };
static const char *const timer_clock_by_source[] = { "posix-monotonic",
	"posix-monotonic-raw", "stdc-clock", "posix-thread-cputime" };
static const char *const enough_by_source[] = { NULL, "2000", "3000",
	"4000" };
static const uint64_t enough_us_by_source[] = { 0, 2000, 3000, 4000 };
static const char *const output_by_source[] = { NULL, "file:/tool",
	"file:/env", "file:/cmdline" };

/* The pairs (lower, higher) of sources, every one. */
static const int prec_pairs[][2] = {
	{ BM_SOURCE_BUILTIN, BM_SOURCE_TOOL },
	{ BM_SOURCE_TOOL, BM_SOURCE_ENV },
	{ BM_SOURCE_ENV, BM_SOURCE_CMDLINE },
	{ BM_SOURCE_BUILTIN, BM_SOURCE_ENV },
	{ BM_SOURCE_BUILTIN, BM_SOURCE_CMDLINE },
	{ BM_SOURCE_TOOL, BM_SOURCE_CMDLINE }
};
#define NPAIRS (sizeof prec_pairs / sizeof prec_pairs[0])

/* Give setting `set` from source src in the environment or st. */
static void
prec_give(bm_settings *st, int set, int src)
{
	switch (set) {
	case SET_TIMER:
		if (src == BM_SOURCE_TOOL)
			st->timer_default = timer_by_source[src];
		else if (src == BM_SOURCE_ENV)
			setenv("BENCHMP_TIMER", timer_by_source[src], 1);
		else if (src == BM_SOURCE_CMDLINE)
			st->timer = timer_by_source[src];
		break;
	case SET_ENOUGH:
		if (src == BM_SOURCE_TOOL)
			st->enough_default_us = enough_us_by_source[src];
		else if (src == BM_SOURCE_ENV)
			setenv("ENOUGH", enough_by_source[src], 1);
		else if (src == BM_SOURCE_CMDLINE)
			st->enough = enough_by_source[src];
		break;
	case SET_OUTPUT:
		if (src == BM_SOURCE_TOOL)
			st->output_default = output_by_source[src];
		else if (src == BM_SOURCE_ENV)
			setenv("BENCHMP_OUTPUT", output_by_source[src], 1);
		else if (src == BM_SOURCE_CMDLINE)
			st->output = output_by_source[src];
		break;
	}
}

/* For every setting and every pair of sources, the higher one wins. */
START_TEST(test_precedence)
{
	int set = _i / (int)NPAIRS, lo = prec_pairs[_i % NPAIRS][0],
	    hi = prec_pairs[_i % NPAIRS][1];
	bm_settings st;
	bm_ctx *ctx;

	ctx_clear_env();
	memset(&st, 0, sizeof st);
	prec_give(&st, set, lo);
	prec_give(&st, set, hi);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_configure(ctx, &st), 0);
	switch (set) {
	case SET_TIMER:
		ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TIMER), hi);
		ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
		    timer_clock_by_source[hi]);
		break;
	case SET_ENOUGH:
		ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_ENOUGH), hi);
		ck_assert_uint_eq(ctx->cal.enough_us, enough_us_by_source[hi]);
		ck_assert_uint_eq(ctx->known, BM_CAL_ENOUGH);
		/* from_env says the environment, and nothing else. */
		ck_assert_uint_eq(ctx->cal.from_env,
		    hi == BM_SOURCE_ENV ? BM_CAL_ENOUGH : 0);
		break;
	case SET_OUTPUT:
		ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_OUTPUT), hi);
		ck_assert_str_eq(bm_ctx_output(ctx), output_by_source[hi]);
		break;
	}
	/* The other settings stay built in. */
	ck_assert_int_eq(bm_ctx_source(ctx, set == SET_TIMER ?
	    BM_SETTING_ENOUGH : BM_SETTING_TIMER), BM_SOURCE_BUILTIN);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_EVENTS),
	    BM_SOURCE_BUILTIN);
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

/* Nothing given: every setting is built in, nothing is read or built. */
START_TEST(test_configure_nothing)
{
	bm_settings st;
	bm_ctx *ctx;
	unsigned i;

	ctx_clear_env();
	memset(&st, 0, sizeof st);
	ctx = ctx_make();
	ck_assert_uint_eq(ctx->timer_builds, 1);
	ck_assert_int_eq(bm_ctx_configure(ctx, &st), 0);
	ck_assert_int_eq(bm_ctx_configure(ctx, NULL), 0);
	ck_assert_uint_eq(ctx->timer_builds, 1);
	for (i = 0; i < BM_NSETTINGS; i++)
		ck_assert_int_eq(bm_ctx_source(ctx, i), BM_SOURCE_BUILTIN);
	ck_assert_ptr_null(bm_ctx_output(ctx));
	ck_assert_int_eq(bm_ctx_source(ctx, BM_NSETTINGS), -EINVAL);
	ck_assert_int_eq(bm_ctx_source(NULL, 0), -EINVAL);
	ck_assert_str_eq(bm_source_name(BM_SOURCE_BUILTIN), "builtin");
	ck_assert_str_eq(bm_source_name(BM_SOURCE_TOOL), "tool");
	ck_assert_str_eq(bm_source_name(BM_SOURCE_ENV), "env");
	ck_assert_str_eq(bm_source_name(BM_SOURCE_CMDLINE), "cmdline");
	ck_assert_ptr_null(bm_source_name(4));
	ck_assert_ptr_null(bm_source_name(-1));
	ck_assert_int_eq(bm_ctx_configure(NULL, &st), -EINVAL);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * With a timer from the tool, the environment and the command line, one
 * timer is built beyond bm_ctx_new()'s default: the command line's.
 */
START_TEST(test_timer_built_once)
{
	bm_settings st;
	bm_ctx *ctx;

	ctx_clear_env();
	memset(&st, 0, sizeof st);
	prec_give(&st, SET_TIMER, BM_SOURCE_TOOL);
	prec_give(&st, SET_TIMER, BM_SOURCE_ENV);
	prec_give(&st, SET_TIMER, BM_SOURCE_CMDLINE);
	ctx = ctx_make();
	ck_assert_uint_eq(ctx->timer_builds, 1);
	ck_assert_int_eq(bm_ctx_configure(ctx, &st), 0);
	ck_assert_uint_eq(ctx->timer_builds, 2);
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-thread-cputime");
	bm_ctx_free(ctx);
	/* The environment alone: one build too. */
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_uint_eq(ctx->timer_builds, 2);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TIMER), BM_SOURCE_ENV);
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "stdc-clock");
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

/* One bad value, in one source, with good values everywhere else. */
static const struct bad_source {
	const char *var;	/* environment variable to set, or NULL */
	const char *value;
	int field;		/* which bm_settings member, when var NULL */
	int rc;
	const char *prefix;	/* how the detail starts */
} bad_sources[] = {
	{ "ENOUGH", "0", 0, BM_ERANGE, "ENOUGH: " },
	{ NULL, "abc", 1, BM_EPARSE, "--enough: " },
	{ NULL, "60000001", 2, BM_ERANGE, "the program's default ENOUGH" },
	{ "BENCHMP_TIMER", "clock=nope", 0, BM_ECONFIG, "BENCHMP_TIMER: " },
	{ "BENCHMP_TIMER", "list", 0, BM_ECONFIG,
	    "BENCHMP_TIMER: 'list' is a command-line request (--timer=list), "
	    "not a setting" },
	{ NULL, "clock=nope", 3, BM_ECONFIG, "--timer: " },
	{ NULL, "", 3, BM_EPARSE, "--timer: empty config" },
	{ NULL, "bogus", 4, BM_ECONFIG, "the program's default timer: " },
	{ "BENCHMP_OUTPUT", "nowhere:", 0, BM_ECONFIG, "BENCHMP_OUTPUT: " },
	{ NULL, "file:", 5, BM_EPARSE, "--output: sink 'file:' has no path" },
	{ NULL, "", 5, BM_EPARSE, "--output: empty sink" },
	{ NULL, "bogus:x", 6, BM_ECONFIG, "the program's default sink: " },
	{ NULL, "bogus", 7, BM_ECONFIG, "--events: " },
	{ "BENCHMP_EVENTS", "bogus", 0, BM_ECONFIG, "BENCHMP_EVENTS: " },
	{ NULL, "3:2", 8, BM_ERANGE, "--processes: '3:2' is out of range" },
	{ "BENCHMP_PROCESSES", "x", 0, BM_EPARSE, "BENCHMP_PROCESSES: " },
	{ "BENCHMP_SCHED", "bogus", 0, 0, "BENCHMP_SCHED: " },
	{ "TIMING_O", "-1", 0, 0, "TIMING_O: " },
	{ "BENCHMP_REGIONS", "maybe", 0, BM_EPARSE, "BENCHMP_REGIONS: " },
};
#define NBAD (sizeof bad_sources / sizeof bad_sources[0])

/* A bad value in any source fails, and nothing of the others is applied. */
START_TEST(test_bad_source_applies_nothing)
{
	const struct bad_source *b = &bad_sources[_i];
	bm_settings st;
	bm_ctx *ctx;
	unsigned i;
	int rc;

	ctx_clear_env();
	memset(&st, 0, sizeof st);
	/* Good values in every source, the bad one's own setting included. */
	prec_give(&st, SET_TIMER, BM_SOURCE_TOOL);
	prec_give(&st, SET_ENOUGH, BM_SOURCE_TOOL);
	prec_give(&st, SET_OUTPUT, BM_SOURCE_TOOL);
	prec_give(&st, SET_TIMER, BM_SOURCE_ENV);
	prec_give(&st, SET_ENOUGH, BM_SOURCE_ENV);
	prec_give(&st, SET_OUTPUT, BM_SOURCE_ENV);
	setenv("TIMING_O", "0.5", 1);
	setenv("BENCHMP_SCHED", "single", 1);
	setenv("BENCHMP_PROCESSES", "2", 1);
	setenv("BENCHMP_EVENTS", "task-clock", 1);
	setenv("BENCHMP_REGIONS", "off", 1);
	prec_give(&st, SET_TIMER, BM_SOURCE_CMDLINE);
	prec_give(&st, SET_ENOUGH, BM_SOURCE_CMDLINE);
	prec_give(&st, SET_OUTPUT, BM_SOURCE_CMDLINE);
	st.events = "page-faults";
	st.processes = "3";
	if (b->var != NULL)
		setenv(b->var, b->value, 1);
	switch (b->field) {
	case 1: st.enough = b->value; break;
	case 2: st.enough_default_us = strtoull(b->value, NULL, 10); break;
	case 3: st.timer = b->value; break;
	case 4: st.timer_default = b->value; break;
	case 5: st.output = b->value; break;
	case 6: st.output_default = b->value; break;
	case 7: st.events = b->value; break;
	case 8: st.processes = b->value; break;
	}
	/* "list" in the environment is refused only without --timer. */
	if (b->var != NULL && strcmp(b->value, "list") == 0)
		st.timer = NULL;
	ctx = ctx_make();
	rc = bm_ctx_configure(ctx, &st);
	if (b->rc != 0)
		ck_assert_int_eq(rc, b->rc);
	else
		ck_assert_int_lt(rc, 0);
	ck_assert_msg(strncmp(bm_ctx_errmsg(ctx), b->prefix,
	    strlen(b->prefix)) == 0, "detail '%s' does not start with '%s'",
	    bm_ctx_errmsg(ctx), b->prefix);
	ck_assert_uint_eq(ctx->timer_builds, 1);
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-monotonic");
	ck_assert_uint_eq(ctx->known, 0);
	ck_assert_uint_eq(ctx->cal.from_env, 0);
	ck_assert_uint_eq(ctx->cal.enough_us, 0);
	ck_assert_ptr_null(bm_ctx_output(ctx));
	ck_assert_int_eq(ctx->sched.kind, BM__SCHED_DEFAULT);
	ck_assert_uint_eq(ctx->proc_min, 0);
	ck_assert_uint_eq(ctx->events.n, 0);
	ck_assert_int_eq(bm_ctx_regions(ctx), 1);
	for (i = 0; i < BM_NSETTINGS; i++)
		ck_assert_int_eq(bm_ctx_source(ctx, i), BM_SOURCE_BUILTIN);
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

/* BENCHMP_TIMER=list gives way to a timer on the command line. */
START_TEST(test_env_list_with_cmdline)
{
	bm_settings st;
	bm_ctx *ctx;

	ctx_clear_env();
	setenv("BENCHMP_TIMER", "list", 1);
	memset(&st, 0, sizeof st);
	st.timer = "clock=posix-monotonic-raw";
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_configure(ctx, &st), 0);
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-monotonic-raw");
	ck_assert_int_eq(bm_ctx_load_env(ctx), BM_ECONFIG);
	bm_ctx_free(ctx);
	ctx_clear_env();
}
END_TEST

/*
 * A program default set after the settings (bm_ctx_default_calibration) counts
 * as the tool's below the environment and the command line, and a timer
 * change keeps it (it was given, not measured).
 */
START_TEST(test_default_after_configure)
{
	bm_settings st;
	bm_ctx *ctx;

	ctx_clear_env();
	memset(&st, 0, sizeof st);
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_configure(ctx, &st), 0);
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, BM_CAL_ENOUGH, 2000),
	    0);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_ENOUGH),
	    BM_SOURCE_TOOL);
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "clock=posix-monotonic-raw"),
	    0);
	ck_assert_uint_eq(ctx->known, BM_CAL_ENOUGH);
	ck_assert_uint_eq(ctx->cal.enough_us, 2000);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_TIMER),
	    BM_SOURCE_CMDLINE);
	bm_ctx_free(ctx);
	st.enough = "4000";
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_configure(ctx, &st), 0);
	ck_assert_int_eq(bm_ctx_default_calibration(ctx, BM_CAL_ENOUGH, 2000),
	    0);
	ck_assert_uint_eq(ctx->cal.enough_us, 4000);
	ck_assert_int_eq(bm_ctx_source(ctx, BM_SETTING_ENOUGH),
	    BM_SOURCE_CMDLINE);
	bm_ctx_free(ctx);
}
END_TEST

/* Build the suite. */
static Suite *
ctx_suite(void)
{
	Suite *s = suite_create("ctx");
	TCase *tc = tcase_create("ctx");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_good_env);
	tcase_add_test(tc, test_env_other_clock);
	tcase_add_test(tc, test_empty_is_unset);
	tcase_add_test(tc, test_lmbench_sched);
	tcase_add_loop_test(tc, test_bad_env, 0,
	    (int)(sizeof bad_envs / sizeof bad_envs[0]));
	tcase_add_test(tc, test_processes_env);
	tcase_add_test(tc, test_set_calibration);
	tcase_add_test(tc, test_default_calibration);
	tcase_add_test(tc, test_force_calibration);
	tcase_add_test(tc, test_set_timer_forgets_measured);
	tcase_add_loop_test(tc, test_precedence, 0, (int)(NSETS * NPAIRS));
	tcase_add_test(tc, test_configure_nothing);
	tcase_add_test(tc, test_timer_built_once);
	tcase_add_loop_test(tc, test_bad_source_applies_nothing, 0, (int)NBAD);
	tcase_add_test(tc, test_env_list_with_cmdline);
	tcase_add_test(tc, test_default_after_configure);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(ctx_suite());
}
