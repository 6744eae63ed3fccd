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

/*
 * The width rule: noisy over 10% of the median.  An interval 8% wide (a
 * figure that moves by less than the 10% a user is promised) is not
 * noisy; it was under the 5% rule.  One 24% wide is.
 */
START_TEST(test_noisy_width)
{
	const double eight[] = { 96, 97, 98, 99, 100, 100, 100, 101, 102, 103,
	    104 };
	const double wide[] = { 88, 91, 94, 97, 100, 100, 100, 103, 106, 109,
	    112 };
	bm_stats s;

	ck_assert_int_eq(bm_stats_compute(eight, 11, &s), 0);
	ck_assert(s.ci_hi - s.ci_lo > 0.05 * s.median);
	ck_assert(!(s.flags & BM_STATS_NOISY));
	ck_assert_int_eq(bm_stats_compute(wide, 11, &s), 0);
	ck_assert(s.flags & BM_STATS_NOISY);
}
END_TEST

/* Six processes within 0.4% of each other, three values each. */
static const double tight_base[] = { 100.2, 100, 100.4, 100.1, 100.3, 100.2 };
static const double tight_spread[] = { -0.1, 0, 0.1 };

/* Six rounds of n values each: round r's values are base[r] + spread[k]. */
static void
rounds_of(const double *base, const double *spread, unsigned n, double *v,
    unsigned *round)
{
	unsigned r, k;

	for (r = 0; r < 6; r++)
		for (k = 0; k < n; k++) {
			v[r * n + k] = base[r] + spread[k];
			round[r * n + k] = r;
		}
}

/*
 * The interval the robust figure predicts for the next run: value times
 * and divided by exp(h), h twice the log distance to third, at least
 * log(1.01) (BM__ROBUST_FLOOR).
 */
static void
robust_is(const bm__robust *rb, double value, double third, unsigned flags)
{
	double h = fmax(2 * fabs(log(third / value)), log1p(BM__ROBUST_FLOOR));

	ck_assert(NEAR(rb->value, value));
	ck_assert(NEAR(rb->ci_lo, value * exp(-h)));
	ck_assert(NEAR(rb->ci_hi, value * exp(h)));
	ck_assert_uint_eq(rb->flags, flags);
}

/*
 * Six tight processes: the best is 100 - 0.1 = 99.9, the third-best
 * 100.1 (100.2 - 0.1): within the 1% floor, not wide at 3%.  Higher is
 * better: the greatest process, 100.4.
 */
START_TEST(test_robust_tight)
{
	double v[18];
	unsigned round[18];
	bm__robust rb;
	bm_stats p, w;
	double med[6];

	rounds_of(tight_base, tight_spread, 3, v, round);
	ck_assert_int_eq(bm_stats_levels(v, round, 18, 6, &p, &w, med), 0);
	ck_assert(!(p.flags & (BM_STATS_NOISY | BM_STATS_BIMODAL)));
	ck_assert_int_eq(bm__stats_robust(v, round, 18, 6, 0,
	    BM__ROBUST_FLOOR, 0.03, &rb), 0);
	robust_is(&rb, 100, 100.2, 0);
	ck_assert_int_eq(bm__stats_robust(v, round, 18, 6, 1,
	    BM__ROBUST_FLOOR, 0.03, &rb), 0);
	robust_is(&rb, 100.4, 100.2, 0);
	/* Held to 0.5%, the 1% floor is wide. */
	ck_assert_int_eq(bm__stats_robust(v, round, 18, 6, 0,
	    BM__ROBUST_FLOOR, 0.005, &rb), 0);
	ck_assert_uint_eq(rb.flags, BM__ROBUST_WIDE);
}
END_TEST

/* Three values a round about base[r], for the robust figure's tests. */
static const double three_spread[] = { -0.2, 0, 0.2 };

/*
 * The robust figure of the first nr (3 to 6) rounds of three values about
 * base[r], and where p is not NULL their statistics (bm_stats_levels).
 */
static void
robust_of(const double *base, unsigned nr, int higher, bm__robust *rb,
    bm_stats *p)
{
	double v[18], med[6];
	unsigned round[18];
	bm_stats w;

	rounds_of(base, three_spread, 3, v, round);
	if (p != NULL)
		ck_assert_int_eq(bm_stats_levels(v, round, 3 * nr, nr, p, &w,
		    med), 0);
	ck_assert_int_eq(bm__stats_robust(v, round, 3 * nr, nr, higher,
	    BM__ROBUST_FLOOR, 0.03, rb), 0);
}

/*
 * Two modes, three processes at 100-101 and three at 130 (a worker and
 * its partner on one CPU or two, lat_syscall stat's 0.37 and 0.60 us):
 * the median is flagged, noisy and bimodal with both modes; the best
 * process is 100 and, with three processes in its mode, its interval is
 * twice its distance to the third-best (101) each side in log space:
 * narrow, not wide.  Higher is better: 130, from three at 130.
 */
START_TEST(test_robust_two_modes)
{
	const double base[] = { 100, 130, 100.5, 130, 101, 130 };
	bm__robust rb;
	bm_stats p;

	robust_of(base, 6, 0, &rb, &p);
	robust_is(&rb, 100, 101, 0);
	ck_assert(p.flags & BM_STATS_NOISY);
	ck_assert(p.flags & BM_STATS_BIMODAL);
	ck_assert_uint_eq(p.nmodes, 2);
	ck_assert(NEAR(p.modes[0].centre, 100.5) &&
	    NEAR(p.modes[0].share, 0.5));
	robust_of(base, 6, 1, &rb, NULL);
	robust_is(&rb, 130, 130, 0);
}
END_TEST

/*
 * Too few in the fast mode: two processes at 100 and 100.5, four at 130.
 * The next run may have none there, so the interval reaches from the
 * best to twice the third-best's distance: wide, and never below zero.
 */
START_TEST(test_robust_fast_few)
{
	const double base[] = { 130, 100, 130, 130, 100.5, 130 };
	bm__robust rb;

	robust_of(base, 6, 0, &rb, NULL);
	robust_is(&rb, 100, 130, BM__ROBUST_WIDE);
	ck_assert(rb.ci_lo > 0);
}
END_TEST

/*
 * One wide cluster: six processes spread evenly over 100-125, no modes.
 * The third-best is 10% above the best: wide.  From five processes the
 * third-best is the median one, 115.
 */
START_TEST(test_robust_one_wide)
{
	const double base[] = { 125, 100, 115, 105, 120, 110 };
	bm__robust rb;
	bm_stats p;

	robust_of(base, 6, 0, &rb, &p);
	ck_assert(!(p.flags & BM_STATS_BIMODAL));
	robust_is(&rb, 100, 110, BM__ROBUST_WIDE);
	robust_of(base, 5, 0, &rb, NULL);
	robust_is(&rb, 100, 115, BM__ROBUST_WIDE);
}
END_TEST

/*
 * Wide but stable: every process's intervals scatter by +-20%, but the
 * six processes' medians agree within 0.5%.  What the next run repeats is
 * the process level, so neither the median nor the robust figure is
 * flagged; the scatter inside processes is (within).
 */
START_TEST(test_robust_wide_stable)
{
	const double base[] = { 100, 100.5, 100.2, 100.1, 100.4, 100.3 };
	const double spread[] = { -20, -10, 0, 10, 20 };
	double v[30], med[6];
	unsigned round[30];
	bm__robust rb;
	bm_stats p, w;

	rounds_of(base, spread, 5, v, round);
	ck_assert_int_eq(bm_stats_levels(v, round, 30, 6, &p, &w, med), 0);
	ck_assert(!(p.flags & BM_STATS_NOISY));
	ck_assert(w.flags & BM_STATS_NOISY);
	ck_assert_int_eq(bm__stats_robust(v, round, 30, 6, 0,
	    BM__ROBUST_FLOOR, 0.03, &rb), 0);
	ck_assert(NEAR(rb.value, 100));
	ck_assert_uint_eq(rb.flags, 0);
}
END_TEST

/*
 * How many processes: three give a robust figure (the third-best the
 * worst of them), not flagged for being three; two give none.  The
 * disturbed share is judged apart (bm__stats_disturbed), in the record.
 * A figure of a hundredfold spread keeps its interval above zero.
 */
START_TEST(test_robust_disturbed)
{
	const double spread10[] = { 1, 100, 1.01, 1, 1, 1 };
	double v[18];
	unsigned round[18];
	bm__robust rb;

	ck_assert_int_eq(bm__stats_disturbed(100, 20), 1);
	ck_assert_int_eq(bm__stats_disturbed(100, 19), 0);
	ck_assert_int_eq(bm__stats_disturbed(10, 10), 1);
	ck_assert_int_eq(bm__stats_disturbed(0, 0), 0);
	rounds_of(tight_base, tight_spread, 3, v, round);
	ck_assert_int_eq(bm__stats_robust(v, round, 9, 3, 0,
	    BM__ROBUST_FLOOR, 0.03, &rb), 0);
	robust_is(&rb, 100, 100.4, 0);
	ck_assert_int_eq(bm__stats_robust(v, round, 6, 2, 0,
	    BM__ROBUST_FLOOR, 0.03, &rb), BM_ERANGE);
	ck_assert_int_eq(bm__stats_robust(v, round, 18, 6, 0,
	    BM__ROBUST_FLOOR, 0.03, NULL), BM_ERANGE);
	rounds_of(spread10, tight_spread, 3, v, round);
	ck_assert_int_eq(bm__stats_robust(v, round, 9, 3, 0,
	    BM__ROBUST_FLOOR, 0.03, &rb), 0);
	ck_assert(rb.ci_lo > 0 && rb.ci_lo < rb.value);
	ck_assert_uint_eq(rb.flags, BM__ROBUST_WIDE);
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

/*
 * The interval's exact coverage: 1 - 2 P(X <= lo) for X ~ Binomial(n,
 * 1/2): the whole range of 5 values covers 93.75%, of 6 values 96.875%,
 * one value nothing; the 2nd to 10th of 11 values 1 - 2 * 12 / 2048.
 */
START_TEST(test_ci_level)
{
	double v[11];
	bm_stats s;
	int i;

	for (i = 0; i < 11; i++)
		v[i] = 100 + i;
	ck_assert_int_eq(bm_stats_compute(v, 1, &s), 0);
	ck_assert(NEAR(s.ci_level, 0));
	ck_assert_int_eq(bm_stats_compute(v, 5, &s), 0);
	ck_assert(NEAR(s.ci_lo, 100) && NEAR(s.ci_hi, 104));
	ck_assert(NEAR(s.ci_level, 0.9375));
	ck_assert_int_eq(bm_stats_compute(v, 6, &s), 0);
	ck_assert(NEAR(s.ci_level, 0.96875));
	ck_assert_int_eq(bm_stats_compute(v, 11, &s), 0);
	ck_assert(NEAR(s.ci_level, 1 - 2 * 12.0 / 2048));
	ck_assert(s.ci_level >= 0.95);
}
END_TEST

/*
 * Two levels: three rounds of four values whose medians are 10, 20 and
 * 30; the process level is over the medians, within over the values
 * shifted onto the overall median; one round is plain statistics.
 */
START_TEST(test_levels)
{
	const double v[] = { 9.9, 10, 10, 10.1, 19.9, 20, 20, 20.1, 29.9, 30,
	    30, 30.1 };
	const unsigned round[] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 };
	const unsigned bad[] = { 0, 0, 0, 0, 2, 2, 2, 2, 3, 3, 3, 3 };
	double med[3];
	bm_stats p, w, plain;

	ck_assert_int_eq(bm_stats_levels(v, round, 12, 3, &p, &w, med), 0);
	ck_assert(NEAR(med[0], 10) && NEAR(med[1], 20) && NEAR(med[2], 30));
	ck_assert_uint_eq(p.count, 3);
	ck_assert(NEAR(p.median, 20) && NEAR(p.min, 10) && NEAR(p.max, 30));
	ck_assert(NEAR(p.ci_lo, 10) && NEAR(p.ci_hi, 30));
	ck_assert(NEAR(p.ci_level, 0.75));
	ck_assert(p.flags & BM_STATS_NOISY);
	/* Within: 19.9, 20, 20, 20.1 three times over. */
	ck_assert_uint_eq(w.count, 12);
	ck_assert(NEAR(w.median, 20) && NEAR(w.min, 19.9) &&
	    NEAR(w.max, 20.1));
	ck_assert(!(w.flags & BM_STATS_NOISY));
	/* One round: the statistics of its values. */
	ck_assert_int_eq(bm_stats_levels(v, round, 4, 1, &p, &w, med), 0);
	ck_assert_int_eq(bm_stats_compute(v, 4, &plain), 0);
	ck_assert(NEAR(p.median, plain.median) && NEAR(p.ci_lo, plain.ci_lo)
	    && NEAR(p.ci_hi, plain.ci_hi) && NEAR(w.cv, plain.cv));
	/* A round without values, or a round past nr, is refused. */
	ck_assert_int_eq(bm_stats_levels(v, bad, 12, 4, &p, &w, med),
	    BM_ERANGE);
	ck_assert_int_eq(bm_stats_levels(v, bad, 12, 3, &p, &w, med),
	    BM_ERANGE);
	ck_assert_int_eq(bm_stats_levels(v, round, 0, 3, &p, &w, med),
	    BM_ERANGE);
}
END_TEST

/*
 * Process-level modes: rounds at 10 and at 20 (two each side or more)
 * whose own intervals are tight are two modes; the same medians with
 * intervals that overlap across the gap are not, nor is one odd round.
 */
START_TEST(test_levels_bimodal)
{
	const double tight[] = { 9.9, 10, 10.1, 10, 10.1, 10.2, 19.9, 20, 20.1,
	    20.1, 20.2, 20.3, 10, 10.1, 10.2 };
	const double loose[] = { 5, 10, 25, 6, 10.1, 24, 4, 20, 30, 5, 20.1, 29,
	    6, 10.2, 26 };
	const double odd[] = { 9.9, 10, 10.1, 10, 10.1, 10.2, 19.9, 20, 20.1,
	    10, 10.1, 10.2, 9.9, 10, 10.1 };
	const unsigned round[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4,
	    4 };
	double med[5];
	bm_stats p, w;

	ck_assert_int_eq(bm_stats_levels(tight, round, 15, 5, &p, &w, med),
	    0);
	ck_assert(p.flags & BM_STATS_BIMODAL);
	ck_assert(!(w.flags & BM_STATS_BIMODAL));
	ck_assert_int_eq(bm_stats_levels(loose, round, 15, 5, &p, &w, med),
	    0);
	ck_assert(!(p.flags & BM_STATS_BIMODAL));
	ck_assert_int_eq(bm_stats_levels(odd, round, 15, 5, &p, &w, med), 0);
	ck_assert(!(p.flags & BM_STATS_BIMODAL));
}
END_TEST

/*
 * The next run's interval: each side of the median's interval times
 * sqrt 2 with the floor in quadrature; a positive median's lower side
 * stays above zero where that width reaches past it (a cache level whose
 * sizes ran from 6 to 105 ns under load), taken the same way in ratios.
 */
START_TEST(test_next_run)
{
	bm_stats st;
	double lo, hi;

	memset(&st, 0, sizeof st);
	st.median = 100;
	st.ci_lo = 99;
	st.ci_hi = 101.5;
	ck_assert_int_eq(bm__stats_next_run(&st, 0.02, 0.03, &lo, &hi), 0);
	ck_assert(NEAR(lo, 100 - sqrt(2 + 4)));
	ck_assert(NEAR(hi, 100 + sqrt(4.5 + 4)));
	ck_assert_int_eq(bm__stats_next_run(&st, 0.02, 0.01, &lo, &hi), 1);
	st.median = 24.6;
	st.ci_lo = 6;
	st.ci_hi = 105;
	ck_assert_int_eq(bm__stats_next_run(&st, 0.02, 0.03, &lo, &hi), 1);
	ck_assert(lo > 0 && lo < st.ci_lo);
	ck_assert(NEAR(lo, 24.6 * exp(-sqrt(2 * log(24.6 / 6) *
	    log(24.6 / 6) + log(1.02) * log(1.02)))));
	ck_assert(hi > st.ci_hi);
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
	tcase_add_test(tc, test_noisy_width);
	tcase_add_test(tc, test_robust_tight);
	tcase_add_test(tc, test_robust_two_modes);
	tcase_add_test(tc, test_robust_fast_few);
	tcase_add_test(tc, test_robust_one_wide);
	tcase_add_test(tc, test_robust_wide_stable);
	tcase_add_test(tc, test_robust_disturbed);
	tcase_add_test(tc, test_ci_level);
	tcase_add_test(tc, test_levels);
	tcase_add_test(tc, test_levels_bimodal);
	tcase_add_test(tc, test_next_run);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(stats_suite());
}
