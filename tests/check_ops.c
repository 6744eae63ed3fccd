/*
 * check_ops.c: what the chains of lat_ops and par_ops compute (bin/common/
 * ops.c), checked against the recurrences their man pages define.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "check_run.h"
#include "common/ops.h"
#include "common/sweep.h"
#include "common/tool.h"

/* The index in ops_cases of a label, failing the test when it is absent. */
static size_t
case_index(const char *label)
{
	size_t i;

	for (i = 0; i < OPS_NCASES; i++)
		if (strcmp(ops_cases[i].label, label) == 0)
			return i;
	ck_abort_msg("no case '%s'", label);
	return 0;
}

/*
 * The mod chains run through the dividend: x = x % m + k from x = k, the
 * remainder by a fixed modulus, as lmbench's figure shows; a chain
 * through the divisor (x = k % x + m) gives another value.
 */
START_TEST(test_mod_dividend)
{
	struct ops_state s;
	int32_t x;
	int64_t q;
	int i;

	ops_state_init(&s);
	ck_assert_int_eq(ops_cases[case_index("integer mod")].fn(1, &s), 0);
	for (x = s.i_k, i = 0; i < OPS_BLOCK; i++)
		x = x % s.i_m + s.i_k;
	ck_assert(x >= s.i_k && x - s.i_k < s.i_m);
	ck_assert_double_eq(ops_result(), (double)x);

	ck_assert_int_eq(ops_cases[case_index("int64 mod")].fn(1, &s), 0);
	for (q = s.q_k, i = 0; i < OPS_BLOCK; i++)
		q = q % s.q_m + s.q_k;
	ck_assert(q >= s.q_k && q - s.q_k < s.q_m);
	ck_assert_double_eq(ops_result(), (double)q);
}
END_TEST

/* The div chains run through the divisor: x = k / x from x = m. */
START_TEST(test_div_divisor)
{
	struct ops_state s;
	int32_t x;
	int64_t q;
	int i;

	ops_state_init(&s);
	ck_assert_int_eq(ops_cases[case_index("integer div")].fn(1, &s), 0);
	for (x = s.i_x, i = 0; i < OPS_BLOCK; i++)
		x = s.i_k / x;
	ck_assert_double_eq(ops_result(), (double)x);

	ck_assert_int_eq(ops_cases[case_index("int64 div")].fn(1, &s), 0);
	for (q = s.q_x, i = 0; i < OPS_BLOCK; i++)
		q = s.q_k / q;
	ck_assert_double_eq(ops_result(), (double)q);
}
END_TEST

/*
 * One bogomflops operation updates each of the OPS_FLOPS elements once
 * with (x - 1) * 7 / (x + 1), in float and in double.
 */
START_TEST(test_bogo_one_pass)
{
	struct ops_state s, start;
	size_t i;

	ck_assert_str_eq(ops_flops[0].label, "float bogomflops");
	ck_assert_str_eq(ops_flops[1].label, "double bogomflops");
	ops_state_init(&s);
	start = s;
	ck_assert_int_eq(ops_flops[0].fn(1, &s), 0);
	ck_assert_int_eq(ops_flops[1].fn(1, &s), 0);
	for (i = 0; i < OPS_FLOPS; i++) {
		float f = start.f_v[i];
		double d = start.d_v[i];

		ck_assert_float_eq(s.f_v[i], (f - 1) * 7 / (f + 1));
		ck_assert_double_eq(s.d_v[i], (d - 1) * 7 / (d + 1));
	}
	/* The last one run was the double's. */
	ck_assert_double_eq(ops_result(), s.d_v[0]);
}
END_TEST

/*
 * Pass after pass the values settle at 3 + sqrt(2) and stay normal
 * numbers: no denormal, infinity or NaN slows the divider down.
 */
START_TEST(test_bogo_stays_normal)
{
	struct ops_state s;
	const double fix = 3 + sqrt(2);
	size_t i;

	ops_state_init(&s);
	ck_assert_int_eq(ops_flops[0].fn(500, &s), 0);
	ck_assert_int_eq(ops_flops[1].fn(500, &s), 0);
	for (i = 0; i < OPS_FLOPS; i++) {
		ck_assert(isnormal(s.f_v[i]) && fabs(s.f_v[i] - fix) < 1e-5);
		ck_assert(isnormal(s.d_v[i]) && fabs(s.d_v[i] - fix) < 1e-12);
	}
}
END_TEST

/* CLOCK_MONOTONIC in ns, the tool's clock. */
static uint64_t
mono_ns(void)
{
	struct timespec ts;

	ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * par_ops shares its bound (tool_share_end): the next of n parts ends at
 * now plus what is left before the end over n; now once the end has
 * passed; no end without a bound given.  now is read between t0 and t1, so
 * the end lies between what each gives.
 */
START_TEST(test_share_end)
{
	struct tool t;
	uint64_t t0, t1, end, r;

	memset(&t, 0, sizeof t);
	ck_assert_uint_eq(tool_share_end(&t, 0, 4), 0);
	/* The default bound: no share. */
	t.max_time_s = 60;
	ck_assert_uint_eq(tool_share_end(&t, 0, 4), 0);
	t.max_time_given = 1;
	t.max_time_s = 8;
	t0 = t.started_ns = mono_ns();
	end = t0 + 8000000000u;
	r = tool_share_end(&t, 0, 4);
	t1 = mono_ns();
	ck_assert_uint_ge(r, t0 + (end - t0) / 4 - 1);
	ck_assert_uint_le(r, t1 + (end - t1) / 4 + 1);
	/* An end of the caller's, and n 0 taken as 1. */
	end = t1 + 1000000000u;
	t0 = mono_ns();
	r = tool_share_end(&t, end, 2);
	t1 = mono_ns();
	ck_assert_uint_ge(r, t0 + (end - t0) / 2 - 1);
	ck_assert_uint_le(r, t1 + (end - t1) / 2 + 1);
	ck_assert_uint_eq(tool_share_end(&t, end, 0), end);
	/* An end that has passed: now. */
	t0 = mono_ns();
	r = tool_share_end(&t, t0 - 1, 3);
	t1 = mono_ns();
	ck_assert_uint_ge(r, t0);
	ck_assert_uint_le(r, t1);
}
END_TEST

/*
 * A sweep whose points fit what is left of the bound (par_ops) goes on
 * while what is left is as long as its shortest point; any other stops
 * once it is shorter than the longest.  The points' times are set, not
 * slept: one of 100 s and one of about none, with 10 s left.
 */
START_TEST(test_sweep_fits)
{
	struct tool t;
	struct sweep sw;
	int fits;

	for (fits = 0; fits <= 1; fits++) {
		memset(&t, 0, sizeof t);
		t.max_time_s = 1000;
		t.started_ns = mono_ns();
		sweep_begin(&sw, "points", 4);
		sw.fits = fits;
		sw.last_ns = mono_ns() - 100000000000u;
		ck_assert_int_eq(sweep_point(&t, &sw, 0), 1);
		sw.last_ns = mono_ns();
		t.started_ns = mono_ns() - 990000000000u;
		ck_assert_int_eq(sweep_point(&t, &sw, 0), fits);
		ck_assert_int_eq(sw.cut, !fits);
		ck_assert(sw.longest_s >= 100 && sw.shortest_s < 10);
	}
}
END_TEST

/*
 * An operation's name: its label, its words joined by '-', within the
 * table asked for (the bogomflops only when asked for); a prefix, a
 * longer word or another joiner is none.  Named twice, it counts once;
 * no words count every operation.
 */
START_TEST(test_named)
{
	char *words[] = { "int64-add", "int64 add", "double-div", "bogus" };
	char *flops[] = { "float-bogomflops" };

	ck_assert_uint_eq(ops_named("integer-bit", OPS_NCASES), 0);
	ck_assert_uint_eq(ops_named("int64 add", OPS_NCASES), 6);
	ck_assert_uint_eq(ops_named("int64-add", OPS_NALL), 6);
	ck_assert_uint_eq(ops_named("double-div", OPS_NCASES),
	    OPS_NCASES - 1);
	ck_assert_uint_eq(ops_named("double-bogomflops", OPS_NALL),
	    OPS_NALL - 1);
	ck_assert_str_eq(ops_label(OPS_NALL - 1), "double bogomflops");
	ck_assert_uint_eq(ops_named("double-bogomflops", OPS_NCASES),
	    OPS_NCASES);
	ck_assert_uint_eq(ops_named("int64-", OPS_NCASES), OPS_NCASES);
	ck_assert_uint_eq(ops_named("int64-addx", OPS_NCASES), OPS_NCASES);
	ck_assert_uint_eq(ops_named("int64_add", OPS_NCASES), OPS_NCASES);
	ck_assert_uint_eq(ops_named("", OPS_NCASES), OPS_NCASES);
	ck_assert_uint_eq(ops_count(NULL, words, 4, OPS_NCASES), 2);
	ck_assert_uint_eq(ops_count(NULL, words, 0, OPS_NCASES), OPS_NCASES);
	ck_assert_uint_eq(ops_count(NULL, flops, 1, OPS_NCASES), 0);
	ck_assert_uint_eq(ops_count(NULL, flops, 1, OPS_NALL), 1);
}
END_TEST

/* Build the suite. */
static Suite *
ops_suite(void)
{
	Suite *s = suite_create("ops");
	TCase *tc = tcase_create("ops");

	tcase_add_test(tc, test_mod_dividend);
	tcase_add_test(tc, test_div_divisor);
	tcase_add_test(tc, test_bogo_one_pass);
	tcase_add_test(tc, test_bogo_stays_normal);
	tcase_add_test(tc, test_share_end);
	tcase_add_test(tc, test_sweep_fits);
	tcase_add_test(tc, test_named);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(ops_suite());
}
