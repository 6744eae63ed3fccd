/* check_paired.c: the tests of a change between two arms (lib/stats/paired.c). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "check_run.h"
#include "internal.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/* Ten pairs whose log ratios are 0.01, 0.02, ... 0.10 (a[i] = 1). */
static void
ten_pairs(double *a, double *b)
{
	int i;

	for (i = 0; i < 10; i++) {
		a[i] = 1;
		b[i] = exp((i + 1) / 100.0);
	}
}

/*
 * The sign test over ten pairs: P(S <= 1) = 11/1024 is the last tail
 * under 0.025, so the interval is the 2nd to the 9th difference.
 */
START_TEST(test_sign_ten)
{
	double a[10], b[10];
	bm__paired st;

	ten_pairs(a, b);
	ck_assert_int_eq(bm__paired_logratio(a, b, 10, 0.95, BM__PAIRED_SIGN,
	    &st), 0);
	ck_assert(NEAR(st.shift, 0.055));
	ck_assert(NEAR(st.lo, 0.02));
	ck_assert(NEAR(st.hi, 0.09));
	ck_assert(NEAR(st.level, 1 - 2 * 11 / 1024.0));
	ck_assert(NEAR(st.p, 2 / 1024.0));
	ck_assert_uint_eq(st.n, 10);
}
END_TEST

/*
 * The signed-rank test over the same pairs: P(T+ <= 8) = 25/1024, so the
 * interval is the 9th smallest and the 9th largest Walsh average.
 */
START_TEST(test_signed_rank_ten)
{
	double a[10], b[10];
	bm__paired st;

	ten_pairs(a, b);
	ck_assert_int_eq(bm__paired_logratio(a, b, 10, 0.95,
	    BM__PAIRED_SIGNED_RANK, &st), 0);
	ck_assert(NEAR(st.shift, 0.055));
	ck_assert(NEAR(st.lo, 0.03));
	ck_assert(NEAR(st.hi, 0.08));
	ck_assert(NEAR(st.level, 1 - 2 * 25 / 1024.0));
	ck_assert(NEAR(st.p, 2 / 1024.0));
}
END_TEST

/*
 * A third of the pairs far out, both ways, around a 5% change: the sign
 * test's interval stays near the change and leaves no change out.
 */
START_TEST(test_sign_outliers)
{
	double a[30], b[30];
	bm__paired st;
	int i;

	for (i = 0; i < 30; i++) {
		a[i] = 1;
		if (i % 3 == 2)
			b[i] = exp(i % 2 ? 0.3 : -0.3);
		else
			b[i] = exp(0.05 + (i % 5 - 2) * 0.002);
	}
	ck_assert_int_eq(bm__paired_logratio(a, b, 30, 0.95, BM__PAIRED_SIGN,
	    &st), 0);
	ck_assert(st.lo > 0);
	ck_assert(st.hi < 0.3);
	ck_assert(fabs(st.shift - 0.05) < 0.005);
	ck_assert(st.p < 0.05);
}
END_TEST

/* Bad input: too few pairs, a value not positive, a level out of range. */
START_TEST(test_errors)
{
	double a[3] = { 1, 1, 1 }, b[3] = { 1, 0, 1 };
	bm__paired st;

	ck_assert_int_eq(bm__paired_logratio(a, a, 1, 0.95, BM__PAIRED_SIGN,
	    &st), BM_ERANGE);
	ck_assert_int_eq(bm__paired_logratio(a, b, 3, 0.95, BM__PAIRED_SIGN,
	    &st), BM_ERANGE);
	ck_assert_int_eq(bm__paired_logratio(a, a, 3, 1, BM__PAIRED_SIGNED_RANK,
	    &st), BM_ERANGE);
	/* Three pairs reach no 95% interval, but the estimate is set. */
	ck_assert_int_eq(bm__paired_logratio(a, a, 3, 0.95, BM__PAIRED_SIGN,
	    &st), BM_ERANGE);
	ck_assert(NEAR(st.shift, 0));
	ck_assert(NEAR(st.p, 1));
}
END_TEST

/* Two samples a factor 2 apart: the shift is log 2 whichever test. */
START_TEST(test_shift)
{
	double a[8], b[8];
	bm__paired st;
	int i;

	for (i = 0; i < 8; i++) {
		a[i] = 1 + i / 1000.0;
		b[i] = 2 * (1 + i / 1000.0);
	}
	ck_assert_int_eq(bm__shift_logratio(a, 8, b, 8, 0.95, &st), 0);
	ck_assert(fabs(st.shift - log(2)) < 0.01);
	ck_assert(st.lo > 0.6 && st.hi < 0.8);
	ck_assert(st.p < 0.001);
}
END_TEST

/*
 * Student's t: its tail at the tables' points, and the paired t over six
 * log ratios whose mean (0.05) and standard error are known.
 */
START_TEST(test_student)
{
	double a[6], b[6], d[6] = { 0.04, 0.06, 0.05, 0.03, 0.07, 0.05 };
	double mean = 0.05, se, q = 2.570582;	/* t(5), 97.5% */
	bm__paired st;
	int i;

	ck_assert(fabs(bm__student_tail(12.7062, 1) - 0.05) < 1e-4);
	ck_assert(fabs(bm__student_tail(2.2281, 10) - 0.05) < 1e-4);
	ck_assert(fabs(bm__student_tail(0, 7) - 1) < 1e-12);
	ck_assert(fabs(bm__student_tail(1.96, 1e6) - 0.05) < 1e-3);
	/* sum of squares 0.001: variance 0.0002, se sqrt(0.0002 / 6) */
	se = sqrt(0.0002 / 6);
	for (i = 0; i < 6; i++) {
		a[i] = 10.0 + i;
		b[i] = a[i] * exp(d[i]);
	}
	ck_assert_int_eq(bm__paired_logratio(a, b, 6, 0.95, BM__PAIRED_T,
	    &st), 0);
	ck_assert(fabs(st.shift - mean) < 1e-12);
	ck_assert(fabs(st.lo - (mean - q * se)) < 1e-5);
	ck_assert(fabs(st.hi - (mean + q * se)) < 1e-5);
	ck_assert(fabs(st.level - 0.95) < 1e-12);
	/* t = 0.05 / se = 8.66 on 5 degrees: p about 0.00034 */
	ck_assert(st.p > 0.0002 && st.p < 0.0005);
	/* No change at all: p 1, a point interval. */
	ck_assert_int_eq(bm__paired_logratio(a, a, 6, 0.95, BM__PAIRED_T,
	    &st), 0);
	ck_assert(NEAR(st.p, 1));
	ck_assert(NEAR(st.lo, 0) && NEAR(st.hi, 0));
}
END_TEST

/*
 * Yuen's trimmed t: below BM__TRIM_FROM values it is Student's t; from
 * there a fifth off each end.  Nine log ratios near 0.05 and a burst of
 * 0.90: Student's t takes the burst into its mean (0.135) and cannot
 * tell the change from none; trimmed, two off each end leave a mean of
 * 0.31 / 6, a winsorized sum of squares of 0.00069 and a standard error
 * of sqrt(0.00069 / (6 * 5)) on 5 degrees.
 */
START_TEST(test_trimmed)
{
	double a[10], b[10], d[10] = { 0.05, 0.04, 0.06, 0.05, 0.03, 0.07,
	    0.05, 0.04, 0.06, 0.90 };
	double mean = 0.31 / 6, se = sqrt(0.00069 / 30), q = 2.570582;
	bm__paired st, tt;
	int i;

	for (i = 0; i < 10; i++) {
		a[i] = 10.0 + i;
		b[i] = a[i] * exp(d[i]);
	}
	ck_assert_int_eq(bm__paired_logratio(a, b, 6, 0.95, BM__PAIRED_T,
	    &tt), 0);
	ck_assert_int_eq(bm__paired_logratio(a, b, 6, 0.95,
	    BM__PAIRED_TRIMMED, &st), 0);
	ck_assert(NEAR(st.shift, tt.shift) && NEAR(st.lo, tt.lo) &&
	    NEAR(st.hi, tt.hi) && NEAR(st.p, tt.p));
	ck_assert_int_eq(bm__paired_logratio(a, b, 10, 0.95, BM__PAIRED_T,
	    &tt), 0);
	ck_assert(fabs(tt.shift - 0.135) < 1e-9);
	ck_assert(tt.lo < 0 && tt.p > 0.1);
	ck_assert_int_eq(bm__paired_logratio(a, b, 10, 0.95,
	    BM__PAIRED_TRIMMED, &st), 0);
	ck_assert(fabs(st.shift - mean) < 1e-9);
	ck_assert(fabs(st.lo - (mean - q * se)) < 1e-5);
	ck_assert(fabs(st.hi - (mean + q * se)) < 1e-5);
	ck_assert(fabs(st.level - 0.95) < 1e-12);
	/* t = 10.8 on 5 degrees: p about 0.00012 */
	ck_assert(st.p > 0.0001 && st.p < 0.00015);
	/* No change at all: p 1, a point interval. */
	ck_assert_int_eq(bm__paired_logratio(a, a, 10, 0.95,
	    BM__PAIRED_TRIMMED, &st), 0);
	ck_assert(NEAR(st.p, 1));
	ck_assert(NEAR(st.lo, 0) && NEAR(st.hi, 0));
}
END_TEST

/*
 * Two blocks of log ratios shifted apart (an A/B's generations whose arm
 * A, or B, was started first): three at 0.03 +- 0.01, five at -0.01 +-
 * 0.01.  The blocks' means 0.03 and -0.01 give 0.01 whatever their
 * counts (all eight's mean is 0.005); their squared standard errors
 * 0.0002 / (3 * 2) and 0.0002 / (5 * 4) add to the interval's, on
 * Welch's degrees.
 */
START_TEST(test_blocked)
{
	double d[12] = { 0.03, -0.01, 0.02, -0.02, 0.04, 0.00, -0.01, -0.01,
	    0.9, 0.9, 0.03, -0.01 };
	int blk[12] = { 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1 }, flip[12], i;
	int one[4] = { 0, 1, 1, 1 };
	double v0 = 0.0002 / 6, v1 = 0.0002 / 20, se, df, q;
	bm__paired st, sw;

	se = sqrt((v0 + v1) / 4);
	df = (v0 + v1) * (v0 + v1) / (v0 * v0 / 2 + v1 * v1 / 4);
	q = bm__student_quantile(0.05, df);
	ck_assert_int_eq(bm__paired_blocked(d, blk, 8, 0.95, &st), 0);
	ck_assert(fabs(st.shift - 0.01) < 1e-12);
	ck_assert(fabs(st.hi - st.shift - q * se) < 1e-9);
	ck_assert(fabs(st.shift - st.lo - q * se) < 1e-9);
	ck_assert(fabs(st.p - bm__student_tail(0.01 / se, df)) < 1e-9);
	ck_assert(st.p > 0.01 && st.p < 0.1 && st.n == 8);
	/* Which block is which does not matter. */
	for (i = 0; i < 12; i++)
		flip[i] = !blk[i];
	ck_assert_int_eq(bm__paired_blocked(d, flip, 8, 0.95, &sw), 0);
	ck_assert(NEAR(sw.shift, st.shift) && NEAR(sw.lo, st.lo) &&
	    NEAR(sw.hi, st.hi) && NEAR(sw.p, st.p));
	/* From ten values a fifth of each block is trimmed: bursts stay out. */
	ck_assert_int_eq(bm__paired_blocked(d, blk, 12, 0.95, &st), 0);
	ck_assert(st.hi < 0.1 && st.lo > -0.05);
	/* A block of one, no block, too few, a value not finite. */
	ck_assert_int_eq(bm__paired_blocked(d, one, 4, 0.95, &st),
	    BM_ERANGE);
	for (i = 0; i < 12; i++)
		flip[i] = 0;
	ck_assert_int_eq(bm__paired_blocked(d, flip, 8, 0.95, &st),
	    BM_ERANGE);
	ck_assert_int_eq(bm__paired_blocked(d, blk, 3, 0.95, &st),
	    BM_ERANGE);
	d[2] = NAN;
	ck_assert_int_eq(bm__paired_blocked(d, blk, 8, 0.95, &st),
	    BM_ERANGE);
	ck_assert_int_eq(bm__paired_blocked(d, blk, 8, 1.5, &st),
	    BM_ERANGE);
	/* The same values in each block: a point interval at their mean. */
	for (i = 0; i < 8; i++)
		d[i] = blk[i] ? -0.02 : 0.02;
	ck_assert_int_eq(bm__paired_blocked(d, blk, 8, 0.95, &st), 0);
	ck_assert(NEAR(st.shift, 0) && NEAR(st.lo, 0) && NEAR(st.hi, 0));
	ck_assert(NEAR(st.p, 1));
}
END_TEST

/* Build the suite. */
static Suite *
paired_suite(void)
{
	Suite *s = suite_create("paired");
	TCase *tc = tcase_create("paired");

	tcase_add_test(tc, test_sign_ten);
	tcase_add_test(tc, test_signed_rank_ten);
	tcase_add_test(tc, test_trimmed);
	tcase_add_test(tc, test_blocked);
	tcase_add_test(tc, test_sign_outliers);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_shift);
	tcase_add_test(tc, test_student);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(paired_suite());
}
