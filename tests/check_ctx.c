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
	"LMBENCH_SCHED", "BENCHMP_PROCESSES"
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
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
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

START_TEST(test_set_timer_forgets_measured)
{
	bm_calibration cal;
	bm_ctx *ctx;

	ctx_clear_env();
	ctx = ctx_make();
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 3000), 0);
	ck_assert_int_eq(bm_calibrate(ctx, &cal), 0);
	ck_assert_uint_eq(ctx->known, BM__KNOWN_ALL);
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

/* Build the suite. */
static Suite *
ctx_suite(void)
{
	Suite *s = suite_create("ctx");
	TCase *tc = tcase_create("ctx");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_good_env);
	tcase_add_test(tc, test_empty_is_unset);
	tcase_add_test(tc, test_lmbench_sched);
	tcase_add_loop_test(tc, test_bad_env, 0,
	    (int)(sizeof bad_envs / sizeof bad_envs[0]));
	tcase_add_test(tc, test_processes_env);
	tcase_add_test(tc, test_set_calibration);
	tcase_add_test(tc, test_default_calibration);
	tcase_add_test(tc, test_set_timer_forgets_measured);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(ctx_suite());
}
