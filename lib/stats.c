/* stats.c: robust statistics of a sample: median, spread, confidence, modes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A figure is flagged noisy when the 95% confidence interval of its median
 * is wider than 5% of the median: at that width two runs of an unchanged
 * system can differ by the 4-11% that lmbench and Google Benchmark scatter
 * by here, and the user should not read a change into it.
 */
#define STATS_NOISY_WIDTH	0.05
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

/*
 * The ranks (0-based) of the distribution-free 95% confidence interval of
 * the median: the interval between order statistics j and k covers the
 * median with the probability that a Binomial(n, 1/2) count falls in
 * [j + 1, k].  Exact for n up to 1000 (summed in log space), the normal
 * approximation beyond.  Below 6 values no interval reaches 95%, and the
 * whole range is reported.
 */
static void
stats_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
	double lp, tail = 0, half;
	size_t j;

	*lo = 0;
	*hi = n - 1;
	if (n < 6)
		return;
	if (n > 1000) {
		half = 0.98 * sqrt((double)n);
		j = (size_t)floor((double)n / 2 - half);
		*lo = j > 0 ? j - 1 : 0;
		*hi = (size_t)ceil((double)n / 2 + half);
		if (*hi > n - 1)
			*hi = n - 1;
		return;
	}
	/* Grow the lower tail P(X <= j) while it stays within 2.5%. */
	for (j = 0; j < n / 2; j++) {
		lp = lgamma((double)n + 1) - lgamma((double)j + 1) -
		    lgamma((double)(n - j) + 1) - (double)n * log(2.0);
		if (tail + exp(lp) > 0.025)
			break;
		tail += exp(lp);
	}
	/* X <= j - 1 has probability <= 2.5%: use order statistic j - 1. */
	if (j == 0)
		return;
	*lo = j - 1;
	*hi = n - j;
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
	stats_ci_ranks(n, &lo, &hi);
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
