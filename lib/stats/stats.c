/* stats.c: robust statistics of a sample: median, spread, confidence, modes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A figure is flagged noisy when the 95% confidence interval of its median
 * is wider than 10% of the median, the promise a user reads a figure by
 * (doc/measurements.md, "benchmp(3): which statistic a figure shows").
 */
#define STATS_NOISY_WIDTH	0.10
/*
 * A figure over rounds is noisy too when its interval covers the median
 * with less than this probability: from four rounds or fewer the widest
 * interval, min to max, covers 87.5% at most, and a figure from one or two
 * rounds (0% and 50%) is not settled, however close its values.  With one
 * round, what is within it is flagged so too.
 */
#define STATS_NOISY_LEVEL	BM__SETTLED_LEVEL
/*
 * Two modes: a gap between neighbouring sorted values at least this many
 * times the spread (MAD) within the larger side and at least 5% of the
 * median, with at least two values on each side (one outlier is not a
 * mode).  getppid() costing 165 ns for a while and then 225 ns is the case
 * this is for.
 */
#define STATS_GAP_MADS		4.0
#define STATS_GAP_MEDIAN	0.05
#define STATS_MODE_MIN		2

/* Order doubles for qsort. */
static int
stats_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of sorted values. */
static double
stats_median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Median absolute deviation of sorted values around their median. */
static double
stats_mad(const double *s, size_t n, double *tmp)
{
	double m = stats_median_sorted(s, n);
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = fabs(s[i] - m);
	qsort(tmp, n, sizeof *tmp, stats_cmp);
	return stats_median_sorted(tmp, n);
}

/* The p-th percentile of sorted values, interpolated between ranks. */
double
bm_percentile(const double *sorted, size_t n, double p)
{
	double rank, frac;
	size_t lo;

	if (sorted == NULL || n == 0 || !(p >= 0 && p <= 100))
		return NAN;
	rank = p / 100.0 * (double)(n - 1);
	lo = (size_t)rank;
	if (lo + 1 >= n)
		return sorted[n - 1];
	frac = rank - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/*
 * The ranks (0-based) of the distribution-free confidence interval of the
 * median, and its exact coverage: the interval between order statistics
 * lo and hi covers the median unless at most lo values fall below it or at
 * most lo above, so its coverage is 1 - 2 P(X <= lo) for X a Binomial(n,
 * 1/2) count.  The narrowest such interval whose coverage reaches 95% is
 * chosen, exact for n up to 1000 (summed in log space), by the normal
 * approximation beyond.  Below 6 values no interval reaches 95%: the whole
 * range is reported with what it covers (93.75% for 5 values, 0 for one).
 */
static double
stats_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
	double lp, tail = 0, half;
	size_t j;

	*lo = 0;
	*hi = n - 1;
	if (n < 6)
		return 1.0 - 2.0 * pow(0.5, (double)n);
	if (n > 1000) {
		half = 0.98 * sqrt((double)n);
		j = (size_t)floor((double)n / 2 - half);
		*lo = j > 0 ? j - 1 : 0;
		*hi = (size_t)ceil((double)n / 2 + half);
		if (*hi > n - 1)
			*hi = n - 1;
		return 0.95;
	}
	/* Grow the lower tail P(X <= j) while it stays within 2.5%. */
	for (j = 0; j < n / 2; j++) {
		lp = lgamma((double)n + 1) - lgamma((double)j + 1) -
		    lgamma((double)(n - j) + 1) - (double)n * log(2.0);
		if (tail + exp(lp) > 0.025)
			break;
		tail += exp(lp);
	}
	/* X <= j - 1 has probability tail <= 2.5%: order statistic j - 1. */
	if (j == 0)
		return 1.0 - 2.0 * pow(0.5, (double)n);
	*lo = j - 1;
	*hi = n - j;
	return 1.0 - 2.0 * tail;
}

/* Look for two clusters: a wide gap with two populated sides. */
static int
stats_bimodal(const double *s, size_t n, double median, double *tmp)
{
	double gap = 0, d, mad_lo, mad_hi;
	size_t i, at = 0;

	if (n < 2 * STATS_MODE_MIN + 2)
		return 0;
	for (i = STATS_MODE_MIN; i + STATS_MODE_MIN <= n; i++) {
		d = s[i] - s[i - 1];
		if (d > gap) {
			gap = d;
			at = i;
		}
	}
	if (at == 0 || gap < STATS_GAP_MEDIAN * fabs(median))
		return 0;
	mad_lo = stats_mad(s, at, tmp);
	mad_hi = stats_mad(s + at, n - at, tmp);
	return gap > STATS_GAP_MADS * fmax(mad_lo, mad_hi);
}

/* Compute statistics of n values; v is left as it was. */
int
bm_stats_compute(const double *v, size_t n, bm_stats *out)
{
	double *s, *tmp, sum = 0, ss = 0;
	size_t i, lo, hi;

	if (v == NULL || out == NULL || n == 0)
		return BM_ERANGE;
	s = malloc(n * sizeof *s);
	tmp = malloc(n * sizeof *tmp);
	if (s == NULL || tmp == NULL) {
		free(s);
		free(tmp);
		return -ENOMEM;
	}
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, stats_cmp);
	memset(out, 0, sizeof *out);
	out->count = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = stats_median_sorted(s, n);
	for (i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
	out->ci_level = stats_ci_ranks(n, &lo, &hi);
	out->ci_lo = s[lo];
	out->ci_hi = s[hi];
	out->mad = stats_mad(s, n, tmp);
	if (out->ci_hi - out->ci_lo > STATS_NOISY_WIDTH * fabs(out->median))
		out->flags |= BM_STATS_NOISY;
	if (stats_bimodal(s, n, out->median, tmp))
		out->flags |= BM_STATS_BIMODAL;
	free(s);
	free(tmp);
	return 0;
}

/*
 * One mode: the rounds from to end - 1 of nr, sorted by their medians;
 * its centre is the median of their medians.
 */
static void
stats_mode(const bm_stats *rs, unsigned from, unsigned end, unsigned nr,
    bm_mode *m)
{
	unsigned n = end - from, mid = from + n / 2;

	m->count = n;
	m->share = (double)n / (double)nr;
	m->centre = n % 2 ? rs[mid].median :
	    (rs[mid - 1].median + rs[mid].median) / 2;
}

/* Order rounds by their median, for the process-level modes. */
static int
stats_cmp_median(const void *a, const void *b)
{
	const bm_stats *x = a, *y = b;

	return (x->median > y->median) - (x->median < y->median);
}

/*
 * Two modes at the process level: the rounds, ordered by their medians,
 * split into two groups of at least two rounds each, between which the
 * medians jump by at least 5% of the overall median and the rounds' own
 * intervals do not overlap (every lower round's interval ends below every
 * upper round's).  A worker and its partner on one CPU in some rounds and
 * on two in others is the case this is for; one odd round is not a mode.
 * The lowest start of the upper rounds' intervals is kept for every split
 * (top_lo) so that many rounds cost a sort, not a square.  1, 0 or
 * -ENOMEM.
 */
static int
stats_rounds_bimodal(bm_stats *rs, unsigned nr, double median, bm_stats *out)
{
	double *top_lo, low_hi;
	unsigned i, k, split = 0;
	int found = 0;

	if (nr < 2 * STATS_MODE_MIN)
		return 0;
	if ((top_lo = malloc(nr * sizeof *top_lo)) == NULL)
		return -ENOMEM;
	qsort(rs, nr, sizeof *rs, stats_cmp_median);
	top_lo[nr - 1] = rs[nr - 1].ci_lo;
	for (k = nr - 1; k > 0; k--)
		top_lo[k - 1] = fmin(top_lo[k], rs[k - 1].ci_lo);
	low_hi = rs[0].ci_hi;
	for (i = 1; i + STATS_MODE_MIN <= nr && !found; i++) {
		if (i >= STATS_MODE_MIN && rs[i].median - rs[i - 1].median >=
		    STATS_GAP_MEDIAN * fabs(median) && low_hi < top_lo[i]) {
			found = 1;
			split = i;
		}
		low_hi = fmax(low_hi, rs[i].ci_hi);
	}
	free(top_lo);
	if (found) {
		stats_mode(rs, 0, split, nr, &out->modes[0]);
		stats_mode(rs, split, nr, nr, &out->modes[1]);
		out->nmodes = 2;
	}
	return found;
}

/*
 * Group n values v by their rounds round[k] (0 to nr - 1), in their order
 * (a counting sort): into *xp, round r's values ending at (*atp)[r] and
 * starting at (*atp)[r - 1] (0 for the first).  The caller frees both,
 * also on failure.  0, BM_ERANGE for a round out of range, or -ENOMEM.
 */
static int
stats_group(const double *v, const unsigned *round, size_t n, unsigned nr,
    double **xp, size_t **atp)
{
	double *x;
	size_t k, *at;
	unsigned r;

	*xp = x = malloc(n * sizeof *x);
	*atp = at = calloc((size_t)nr + 1, sizeof *at);
	if (x == NULL || at == NULL)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		if (round[k] >= nr)
			return BM_ERANGE;
		at[round[k] + 1]++;
	}
	for (r = 0; r < nr; r++)
		at[r + 1] += at[r];
	for (k = 0; k < n; k++)
		x[at[round[k]]++] = v[k];
	return 0;
}

/*
 * Statistics at two levels of n values, value k from round round[k] (0 to
 * nr - 1, every round with at least one value): proc over the rounds'
 * medians (which go to med), within over every value shifted by the
 * overall median minus its round's median.  See bm_stats_levels().
 */
int
bm_stats_levels(const double *v, const unsigned *round, size_t n,
    unsigned nr, bm_stats *proc, bm_stats *within, double *med)
{
	bm_stats *rs = NULL;
	double *x = NULL;
	size_t k, *at = NULL;
	unsigned r;
	int rc = 0;

	if (v == NULL || round == NULL || n == 0 || nr == 0 || proc == NULL ||
	    within == NULL || med == NULL)
		return BM_ERANGE;
	if ((rs = calloc(nr, sizeof *rs)) == NULL)
		return -ENOMEM;
	if ((rc = stats_group(v, round, n, nr, &x, &at)) != 0)
		goto out;
	for (r = 0; r < nr && rc == 0; r++) {
		k = r > 0 ? at[r - 1] : 0;
		rc = at[r] > k ? bm_stats_compute(x + k, at[r] - k, &rs[r]) :
		    BM_ERANGE;
		med[r] = rs[r].median;
	}
	if (rc != 0)
		goto out;
	if (nr == 1) {
		/*
		 * One round bounds nothing of the next, however many its
		 * values and however close: its interval is that process's
		 * own.  par_ops within a suite's share called operations of
		 * one process steady that then moved by up to 17%
		 * (doc/measurements.md, "2026-12-01, from 19:54 UTC: one pool
		 * for the bandwidths").
		 */
		*proc = *within = rs[0];
		proc->flags |= BM_STATS_NOISY;
		within->flags |= BM_STATS_NOISY;
		goto out;
	}
	if ((rc = bm_stats_compute(med, nr, proc)) != 0)
		goto out;
	for (k = 0; k < n; k++)
		x[k] = v[k] - med[round[k]] + proc->median;
	if ((rc = bm_stats_compute(x, n, within)) != 0)
		goto out;
	proc->flags &= ~(unsigned)BM_STATS_BIMODAL;
	if (proc->ci_level < STATS_NOISY_LEVEL)
		proc->flags |= BM_STATS_NOISY;
	if ((rc = stats_rounds_bimodal(rs, nr, proc->median, proc)) < 0)
		goto out;
	if (rc == 1)
		proc->flags |= BM_STATS_BIMODAL;
	rc = 0;
out:
	free(rs);
	free(x);
	free(at);
	return rc;
}

/*
 * The median of n values v (left as they were) into *out, as
 * bm_stats_compute() finds it.  0, BM_ERANGE without values, -ENOMEM.
 */
int
bm__stats_median(const double *v, size_t n, double *out)
{
	double *s;

	if (v == NULL || n == 0 || out == NULL)
		return BM_ERANGE;
	if ((s = malloc(n * sizeof *s)) == NULL)
		return -ENOMEM;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, stats_cmp);
	*out = stats_median_sorted(s, n);
	free(s);
	return 0;
}

/*
 * Each round's median of n values v from rounds round[k] (0 to nr - 1,
 * every round with a value) into med, the same numbers bm_stats_levels()
 * puts there, without the statistics around them: what a record's value
 * and a rate's aggregate need.  0, BM_ERANGE or -ENOMEM.
 */
int
bm__stats_medians(const double *v, const unsigned *round, size_t n,
    unsigned nr, double *med)
{
	double *x;
	size_t from, *at;
	unsigned r;
	int rc = 0;

	if (v == NULL || round == NULL || n == 0 || nr == 0 || med == NULL)
		return BM_ERANGE;
	if ((rc = stats_group(v, round, n, nr, &x, &at)) != 0)
		goto out;
	for (r = 0; r < nr && rc == 0; r++) {
		from = r > 0 ? at[r - 1] : 0;
		rc = at[r] > from ? bm__stats_median(x + from, at[r] - from,
		    &med[r]) : BM_ERANGE;
	}
out:
	free(x);
	free(at);
	return rc;
}

/*
 * The interval a record shows and the engine decides on: st's, widened
 * where it is narrower than floor times the median on each side.
 */
void
bm__stats_interval(const bm_stats *st, double floor, double *lo, double *hi)
{
	double w = fabs(st->median) * floor;

	*lo = st->ci_lo < st->median - w ? st->ci_lo : st->median - w;
	*hi = st->ci_hi > st->median + w ? st->ci_hi : st->median + w;
}

/* See stats/stats.h. */
int
bm__stats_next_run(const bm_stats *st, double floor, double precision,
    double *lo, double *hi)
{
	double m = st->median, f = fabs(m) * floor;
	double l = m - st->ci_lo, h = st->ci_hi - m;
	double dl = sqrt(2 * l * l + f * f), ll;

	*lo = m - dl;
	if (m > 0 && *lo <= 0) {
		/* In ratios: the lower side's log ratio, sqrt 2 times. */
		ll = st->ci_lo > 0 && st->ci_lo < m ? log(m / st->ci_lo) : 0;
		*lo = ll > 0 ? m * exp(-sqrt(2 * ll * ll +
		    log1p(floor) * log1p(floor))) : m * m / (m + dl);
	}
	*hi = m + sqrt(2 * h * h + f * f);
	return m - *lo > precision * fabs(m) || *hi - m > precision * fabs(m);
}

/*
 * A figure is disturbed, and flagged so, when the interference accounting
 * judged at least this share of its timed intervals disturbed (kept or
 * discarded; doc/measurements.md, "benchmp(3): which statistic a figure
 * shows").  Redoing a disturbed
 * interval takes the time lost out of the sample, but not what a busy
 * machine does to the rest (caches, the partner's wakeup, the CPU it
 * was moved to): past a fifth of the intervals that is the figure's
 * normal state, and the next run meets another one.
 */
#define STATS_DISTURBED_SHARE	0.20
/*
 * The robust figure's interval reaches from the best process this many
 * times its distance to the process of rank STATS_ROBUST_RANK (0 the
 * best: the third-best), each side, in log space.  See
 * bm__stats_robust().
 */
#define STATS_ROBUST_RANK	2
#define STATS_ROBUST_SPAN	2.0

/* Whether a figure with this interference is disturbed (see above). */
int
bm__stats_disturbed(uint64_t intervals, uint64_t disturbed)
{
	return intervals > 0 &&
	    (double)disturbed >= STATS_DISTURBED_SHARE * (double)intervals;
}

/*
 * The robust figure of values v from rounds round[k] (0 to nr - 1): the
 * best process, i.e. the least of the rounds' medians (the greatest when
 * higher is 1).  A busy machine slows processes and never speeds one
 * up: the best process is the one it slowed least, and it repeats run to
 * run better than the median process, which sits in a slow mode as often
 * as not on a shared VM (doc/measurements.md, "One figure, one
 * interval").
 *
 * Its interval predicts the next run's figure: the best process times
 * and divided by exp(h), h twice the distance in log space from the best
 * to the third-best process (STATS_ROBUST_SPAN, STATS_ROBUST_RANK), at
 * least log(1 + floor).  In log space a positive figure's interval never
 * reaches zero.  With three or more processes in the best one's mode the
 * interval is narrow; with one or two it reaches into the other mode.
 * On recorded suites it held the next run's figure in 90-93% of figure
 * pairs (BM__ROBUST_LEVEL).  It is flagged wide, noisy, when h passes
 * log(1 + precision): the next run may move by more than precision.  A
 * figure that is not positive (an overhead subtracted from a tiny one)
 * takes the same rule in its own scale.  0, BM_ERANGE with fewer than
 * BM__ROBUST_MIN rounds, a best process at or below zero beside a
 * positive median, or bad input, or -ENOMEM.
 */
int
bm__stats_robust(const double *v, const unsigned *round, size_t n,
    unsigned nr, int higher, double floor, double precision,
    bm__robust *out)
{
	double *med, median;
	int rc;

	if (out == NULL || nr < BM__ROBUST_MIN)
		return BM_ERANGE;
	memset(out, 0, sizeof *out);
	if ((med = malloc(nr * sizeof *med)) == NULL)
		return -ENOMEM;
	if ((rc = bm__stats_medians(v, round, n, nr, med)) == 0 &&
	    (rc = bm__stats_median(med, nr, &median)) == 0)
		rc = bm__stats_robust_med(med, nr, median, higher, floor,
		    precision, out);
	free(med);
	return rc;
}

/*
 * The robust figure of nr rounds' medians med (their median median, as
 * bm_stats_levels gives both), as bm__stats_robust() says.
 */
int
bm__stats_robust_med(const double *med, unsigned nr, double median,
    int higher, double floor, double precision, bm__robust *out)
{
	double *s, best, third, h;

	if (out == NULL || med == NULL || nr < BM__ROBUST_MIN)
		return BM_ERANGE;
	memset(out, 0, sizeof *out);
	if ((s = malloc(nr * sizeof *s)) == NULL)
		return -ENOMEM;
	memcpy(s, med, nr * sizeof *s);
	/* Best first: ascending for lower is better, descending for higher. */
	qsort(s, nr, sizeof *s, stats_cmp);
	best = higher ? s[nr - 1] : s[0];
	third = higher ? s[nr - 1 - STATS_ROBUST_RANK] : s[STATS_ROBUST_RANK];
	free(s);
	/*
	 * A best process at or below zero where the median is above it is
	 * an overhead subtracted from a figure smaller than its noise
	 * (lat_sig prot gave -0.04 us beside a median of 1.1): not a figure
	 * to show; the median is.
	 */
	if (best <= 0 && median > 0)
		return BM_ERANGE;
	out->value = best;
	if (best > 0 && third > 0) {
		h = STATS_ROBUST_SPAN * fabs(log(third) - log(best));
		if (h < log1p(floor))
			h = log1p(floor);
		out->ci_lo = best * exp(-h);
		out->ci_hi = best * exp(h);
	} else {
		h = STATS_ROBUST_SPAN * fabs(third - best);
		if (h < fabs(best) * floor)
			h = fabs(best) * floor;
		out->ci_lo = best - h;
		out->ci_hi = best + h;
		h = best != 0 ? log1p(h / fabs(best)) : INFINITY;
	}
	if (h > log1p(precision))
		out->flags |= BM__ROBUST_WIDE;
	return 0;
}
