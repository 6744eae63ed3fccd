/* check_stats.c: the statistics of a sample. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "internal.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

START_TEST(test_basic_odd)
{
	const double v[] = { 5, 1, 4, 2, 3 };
	double copy[5];
	bm_stats s;

	memcpy(copy, v, sizeof v);
	ck_assert_int_eq(bm_stats_compute(copy, 5, &s), 0);
	ck_assert(memcmp(copy, v, sizeof v) == 0);
	ck_assert_uint_eq(s.count, 5);
	ck_assert(NEAR(s.median, 3));
	ck_assert(NEAR(s.min, 1));
	ck_assert(NEAR(s.max, 5));
	ck_assert(NEAR(s.mean, 3));
	ck_assert(NEAR(s.stddev, sqrt(2.5)));
	ck_assert(NEAR(s.cv, sqrt(2.5) / 3));
	ck_assert(NEAR(s.mad, 1));
	/* Below six values no interval reaches 95%: the whole range. */
	ck_assert(NEAR(s.ci_lo, 1));
	ck_assert(NEAR(s.ci_hi, 5));
}
END_TEST

START_TEST(test_basic_even)
{
	const double v[] = { 4, 1, 3, 2 };
	bm_stats s;

	ck_assert_int_eq(bm_stats_compute(v, 4, &s), 0);
	ck_assert(NEAR(s.median, 2.5));
	ck_assert(NEAR(s.mean, 2.5));
}
END_TEST

START_TEST(test_single_and_errors)
{
	const double v[] = { 7 };
	bm_stats s;

	ck_assert_int_eq(bm_stats_compute(v, 1, &s), 0);
	ck_assert(NEAR(s.median, 7) && NEAR(s.stddev, 0) && NEAR(s.cv, 0));
	ck_assert_uint_eq(s.flags, 0);
	ck_assert_int_eq(bm_stats_compute(v, 0, &s), BM_ERANGE);
	ck_assert_int_eq(bm_stats_compute(NULL, 1, &s), BM_ERANGE);
	ck_assert_int_eq(bm_stats_compute(v, 1, NULL), BM_ERANGE);
}
END_TEST

START_TEST(test_ci_eleven)
{
	double v[11];
	bm_stats s;
	int i;

	/* For n = 11 the 95% interval is the 2nd to the 10th value. */
	for (i = 0; i < 11; i++)
		v[i] = 100 + i;
	ck_assert_int_eq(bm_stats_compute(v, 11, &s), 0);
	ck_assert(NEAR(s.ci_lo, 101));
	ck_assert(NEAR(s.ci_hi, 109));
}
END_TEST

START_TEST(test_ci_large)
{
	double *v = malloc(100001 * sizeof *v);
	bm_stats s;
	size_t i;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < 100001; i++)
		v[i] = (double)((i * 7919) % 100001);
	ck_assert_int_eq(bm_stats_compute(v, 100001, &s), 0);
	ck_assert(NEAR(s.median, 50000));
	/* About +-1.96 sqrt(n) / 2 = 310 ranks around the middle. */
	ck_assert(s.ci_lo < 50000 && s.ci_lo > 49600);
	ck_assert(s.ci_hi > 50000 && s.ci_hi < 50400);
	ck_assert(!(s.flags & BM_STATS_BIMODAL));
	free(v);
}
END_TEST

START_TEST(test_ci_exact_101)
{
	double v[101];
	bm_stats s;
	int i;

	for (i = 0; i < 101; i++)
		v[i] = i;
	ck_assert_int_eq(bm_stats_compute(v, 101, &s), 0);
	/* Binomial(101, 1/2): the 95% ranks are 41 and 61 (1-based). */
	ck_assert(NEAR(s.ci_lo, 40));
	ck_assert(NEAR(s.ci_hi, 60));
}
END_TEST

START_TEST(test_noisy)
{
	const double tight[] = { 100, 100.5, 99.8, 100.2, 100.1, 99.9, 100,
	    100.3, 99.7, 100.1, 100 };
	const double wide[] = { 100, 120, 90, 130, 85, 110, 95, 140, 80, 105,
	    115 };
	bm_stats s;

	ck_assert_int_eq(bm_stats_compute(tight, 11, &s), 0);
	ck_assert(!(s.flags & BM_STATS_NOISY));
	ck_assert_int_eq(bm_stats_compute(wide, 11, &s), 0);
	ck_assert(s.flags & BM_STATS_NOISY);
}
END_TEST

START_TEST(test_bimodal)
{
	const double two[] = { 165, 166, 164, 165.5, 165, 166, 225, 224, 226,
	    225, 225.5 };
	const double one[] = { 100, 103, 97, 101, 99, 104, 96, 102, 98, 100.5,
	    99.5 };
	const double outlier[] = { 100, 100.2, 99.9, 100.1, 100, 99.8, 100.3,
	    100, 99.9, 100.1, 180 };
	bm_stats s;

	ck_assert_int_eq(bm_stats_compute(two, 11, &s), 0);
	ck_assert(s.flags & BM_STATS_BIMODAL);
	ck_assert_int_eq(bm_stats_compute(one, 11, &s), 0);
	ck_assert(!(s.flags & BM_STATS_BIMODAL));
	/* One stray value is an outlier, not a second mode. */
	ck_assert_int_eq(bm_stats_compute(outlier, 11, &s), 0);
	ck_assert(!(s.flags & BM_STATS_BIMODAL));
}
END_TEST

/* Build the suite. */
static Suite *
stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, test_basic_odd);
	tcase_add_test(tc, test_basic_even);
	tcase_add_test(tc, test_single_and_errors);
	tcase_add_test(tc, test_ci_eleven);
	tcase_add_test(tc, test_ci_large);
	tcase_add_test(tc, test_ci_exact_101);
	tcase_add_test(tc, test_noisy);
	tcase_add_test(tc, test_bimodal);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(stats_suite());
}
