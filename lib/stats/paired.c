/* paired.c: rank statistics of a change between two arms: paired rounds and two samples. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Both statistics work on log values, so a change is a ratio (B/A) and
 * its interval never crosses zero in the figure's own scale.  They are
 * rank statistics: the Hodges-Lehmann estimate (the median of the pairs'
 * averages, or of the differences between the samples) and the interval
 * its rank test inverts (Wilcoxon's signed-rank test for paired rounds,
 * Mann-Whitney's for two samples).  On a 2-vCPU KVM guest most figures'
 * processes fall in two modes, 25% apart: a pair whose two runs met
 * different modes is an outlier a mean and a t interval follow, a rank
 * statistic does not.  Where a third of the pairs are such outliers,
 * the sign test (which counts only which way each pair moved) resolves
 * a change in fewer pairs than the signed ranks: see "Decisions:
 * benchmp-ab" in doc/measurements.md.
 */

/* Up to this many pairs (or this product of sample sizes) the
 * distribution of the rank statistic is counted exactly, beyond it the
 * normal approximation with a continuity correction is used (its error
 * at 60 pairs is under 0.001 in the tail). */
#define PAIRED_EXACT_MAX	60
#define SHIFT_EXACT_MAX		400

/* Order doubles for qsort. */
static int
paired_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of sorted values. */
static double
paired_median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The standard normal distribution function. */
static double
paired_phi(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/*
 * The distribution of a rank statistic: cdf[k] = P(T <= k) for k from 0
 * to max, exact, from counts[k] (the number of arrangements giving k) and
 * their total.
 */
static void
paired_counts_cdf(double *counts, size_t max, double total)
{
	double acc = 0;
	size_t k;

	for (k = 0; k <= max; k++) {
		acc += counts[k];
		counts[k] = acc / total;
	}
}

/*
 * Fill cdf[0..n(n+1)/2] with P(T+ <= k) for the signed-rank statistic of
 * n untied pairs: exact for up to PAIRED_EXACT_MAX pairs (each rank is in
 * the sum or not, 2^n arrangements alike), the normal approximation
 * beyond.
 */
static void
paired_signed_rank_cdf(size_t n, double *cdf)
{
	size_t max = n * (n + 1) / 2, i, k;

	if (n <= PAIRED_EXACT_MAX) {
		memset(cdf, 0, (max + 1) * sizeof *cdf);
		cdf[0] = 1;
		for (i = 1; i <= n; i++)
			for (k = i * (i + 1) / 2; k >= i; k--)
				cdf[k] += cdf[k - i];
		paired_counts_cdf(cdf, max, ldexp(1.0, (int)n));
		return;
	}
	for (k = 0; k <= max; k++) {
		double mu = (double)max / 2;
		double sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24.0);

		cdf[k] = paired_phi(((double)k + 0.5 - mu) / sd);
	}
}

/*
 * Fill cdf[0..n] with P(S <= k) for the sign statistic of n untied pairs
 * (the number of positive differences, binomial with p = 1/2), exact.
 */
static void
paired_sign_cdf(size_t n, double *cdf)
{
	double acc = 0, ln2n = (double)n * log(2.0);
	size_t k;

	for (k = 0; k <= n; k++) {
		acc += exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
		    lgamma((double)(n - k) + 1) - ln2n);
		cdf[k] = acc < 1 ? acc : 1;
	}
}

/*
 * Fill cdf[0..na*nb] with P(U <= k) for Mann-Whitney's statistic of two
 * untied samples of na and nb values: exact up to SHIFT_EXACT_MAX
 * products (the counts of arrangements of the two samples, grown one
 * value at a time), the normal approximation beyond.  0 or -ENOMEM.
 */
static int
paired_rank_sum_cdf(size_t na, size_t nb, double *cdf)
{
	size_t max = na * nb, i, j, k;
	double *f, *g;

	if (max > SHIFT_EXACT_MAX) {
		double mu = (double)max / 2;
		double sd = sqrt((double)max * (double)(na + nb + 1) / 12.0);

		for (k = 0; k <= max; k++)
			cdf[k] = paired_phi(((double)k + 0.5 - mu) / sd);
		return 0;
	}
	/*
	 * f[j][k]: arrangements of i values of A and j of B with U = k, U
	 * the number of (a, b) with b above a.  Adding one more value of A
	 * above all j of B's adds nothing, one of B above all i of A's
	 * adds i: f(i, j, k) = f(i - 1, j, k) + f(i, j - 1, k - i).
	 */
	f = calloc((nb + 1) * (max + 1), sizeof *f);
	g = calloc((nb + 1) * (max + 1), sizeof *g);
	if (f == NULL || g == NULL) {
		free(f);
		free(g);
		return -ENOMEM;
	}
	for (j = 0; j <= nb; j++)
		f[j * (max + 1)] = 1;	/* i = 0: U is 0 */
	for (i = 1; i <= na; i++) {
		double *t;

		memset(g, 0, (nb + 1) * (max + 1) * sizeof *g);
		for (j = 0; j <= nb; j++)
			for (k = 0; k <= max; k++) {
				double v = f[j * (max + 1) + k];

				if (j > 0 && k >= i)
					v += g[(j - 1) * (max + 1) + k - i];
				g[j * (max + 1) + k] = v;
			}
		t = f;
		f = g;
		g = t;
	}
	memcpy(cdf, f + nb * (max + 1), (max + 1) * sizeof *cdf);
	free(f);
	free(g);
	/* The total is the number of arrangements, C(na + nb, na). */
	paired_counts_cdf(cdf, max, exp(lgamma((double)(na + nb + 1)) -
	    lgamma((double)(na + 1)) - lgamma((double)(nb + 1))));
	return 0;
}

/*
 * The estimate, interval and p value from N sorted candidates w (the
 * Walsh averages or the differences), the statistic's distribution cdf
 * over 0..N, the statistic's value stat at no change, and the level.
 * The interval [w(k+1), w(N-k)] covers the true shift with probability
 * 1 - 2 P(T <= k): k is the largest with P(T <= k) <= (1 - level) / 2.
 * BM_ERANGE when even the widest interval covers less than level.
 */
static int
paired_invert(const double *w, size_t N, const double *cdf, double stat,
    double level, bm__paired *out)
{
	double alpha = (1 - level) / 2, lo_tail, hi_tail;
	size_t k, s;

	out->shift = paired_median_sorted(w, N);
	s = (size_t)stat;
	lo_tail = cdf[s];
	hi_tail = s == 0 ? 1 : 1 - cdf[s - 1];
	out->p = 2 * (lo_tail < hi_tail ? lo_tail : hi_tail);
	if (out->p > 1)
		out->p = 1;
	if (cdf[0] > alpha)
		return BM_ERANGE;
	for (k = 0; k + 1 < N / 2 && cdf[k + 1] <= alpha; k++)
		;
	out->lo = w[k];
	out->hi = w[N - 1 - k];
	out->level = 1 - 2 * cdf[k];
	return 0;
}

/*
 * The regularized incomplete beta function I_x(a, b), by its continued
 * fraction (modified Lentz), on the side of x where it converges fast.
 */
static double
paired_incbeta(double x, double a, double b)
{
	double front, f, c, d, num;
	int i, m;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - paired_incbeta(1 - x, b, a);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x)) / a;
	f = 1;
	c = 1;
	d = 0;
	for (i = 0; i <= 400; i++) {
		m = i / 2;
		if (i == 0)
			num = 1;
		else if (i % 2 == 0)
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		else
			num = -(a + m) * (a + b + m) * x /
			    ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		if (fabs(d) < 1e-300)
			d = 1e-300;
		d = 1 / d;
		c = 1 + num / c;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		f *= c * d;
		if (fabs(1 - c * d) < 1e-14)
			break;
	}
	return front * (f - 1);
}

/* P(|T| >= t) for Student's t with df degrees of freedom. */
double
bm__student_tail(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return paired_incbeta(df / (df + t * t), df / 2, 0.5);
}

/* The z with P(|Z| >= z) = tail for a normal Z, by bisection. */
double
bm__normal_quantile(double tail)
{
	double lo = 0, hi = 40, mid;
	int i;

	if (!(tail > 0 && tail < 1))
		return NAN;
	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		mid = (lo + hi) / 2;
		if (erfc(mid / sqrt(2.0)) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The t with P(|T| >= t) = tail, by bisection (tail in (0, 1)). */
double
bm__student_quantile(double tail, double df)
{
	double lo = 0, hi = 1, mid;
	int i;

	while (bm__student_tail(hi, df) > tail && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (bm__student_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The (trimmed) mean of the n values d, sorted and winsorized here with
 * g > 0 (g values off each end), the square of its standard error from
 * the (winsorized) variance, and the values kept (h).  What an outlier
 * adds is bounded: a value a host's burst shifted counts in the variance
 * as the nearest value kept.  BM_ERANGE with fewer than two kept.
 */
static int
paired_moments(double *d, size_t n, size_t g, double *mean, double *se2,
    size_t *h)
{
	double m = 0, wm = 0, ss = 0;
	size_t i;

	if (2 * g + 2 > n)
		return BM_ERANGE;
	*h = n - 2 * g;
	if (g > 0) {
		/* Winsorized: each trimmed value counts as the nearest kept. */
		qsort(d, n, sizeof *d, paired_cmp);
		for (i = 0; i < g; i++) {
			d[i] = d[g];
			d[n - 1 - i] = d[n - g - 1];
		}
	}
	for (i = 0; i < n; i++) {
		wm += d[i];
		if (i >= g && i < n - g)
			m += d[i];
	}
	*mean = m / (double)*h;
	wm /= (double)n;
	for (i = 0; i < n; i++)
		ss += (d[i] - wm) * (d[i] - wm);
	*se2 = ss / ((double)*h * (double)(*h - 1));
	return 0;
}

/*
 * Fill out from a mean, the square of its standard error and its degrees:
 * the interval at level and the p value of no change.  A mean that does
 * not vary at all gives a point interval (p 0 unless the mean is 0).
 */
static void
paired_student(double mean, double se2, double df, double level,
    bm__paired *out)
{
	double se = sqrt(se2), q;

	out->shift = mean;
	out->level = level;
	if (!(se > 0)) {
		out->lo = out->hi = mean;
		out->p = mean == 0 ? 1 : 0;
		return;
	}
	out->p = bm__student_tail(fabs(mean / se), df);
	q = bm__student_quantile(1 - level, df);
	out->lo = mean - q * se;
	out->hi = mean + q * se;
}

/*
 * Student's t over the n log ratios d, or with g > 0 Yuen's trimmed t
 * (paired_moments): the (trimmed) mean, its interval at level on
 * h - 1 degrees, and the p value of no change.
 */
static int
paired_t(double *d, size_t n, size_t g, double level, bm__paired *out)
{
	double mean, se2;
	size_t h;

	if (paired_moments(d, n, g, &mean, &se2, &h) != 0)
		return BM_ERANGE;
	paired_student(mean, se2, (double)(h - 1), level, out);
	return 0;
}

/*
 * The change over n log ratios d that fall in two blocks (blk[i] 0 or 1)
 * whose values a cause of their own shifts apart, each block's alike:
 * the mean of the two blocks' means (Yuen's trimmed means, a fifth off
 * each end of each block once there are BM__TRIM_FROM values in all),
 * so that the shift cancels whatever each block's count; its interval at
 * level from the blocks' own variances, on Welch's degrees, and the p
 * value of no change.  An A/B's generations so fall in those whose arm
 * A was started first and those whose arm B was: on a 2-vCPU AMD EPYC
 * KVM guest the tool started second measured lat_syscall null about 2%
 * slower for as long as it lived (doc/measurements.md, "Decisions: the
 * arm started first").  0, BM_ERANGE (a block with fewer than two
 * values kept, a value not finite) or -ENOMEM.
 */
int
bm__paired_blocked(const double *d, const int *blk, size_t n, double level,
    bm__paired *out)
{
	double *v[2] = { NULL, NULL }, mean[2], se2[2], df;
	size_t nb[2] = { 0, 0 }, h[2], i, g;
	int rc = BM_ERANGE, k;

	if (out == NULL || d == NULL || blk == NULL || n < 4 ||
	    n > BM__PAIRED_MAX || !(level > 0 && level < 1))
		return BM_ERANGE;
	memset(out, 0, sizeof *out);
	out->n = n;
	for (k = 0; k < 2; k++)
		if ((v[k] = malloc(n * sizeof(*v[k]))) == NULL) {
			rc = -ENOMEM;
			goto out;
		}
	for (i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			goto out;
		k = blk[i] != 0;
		v[k][nb[k]++] = d[i];
	}
	for (k = 0; k < 2; k++) {
		g = n >= BM__TRIM_FROM ? (size_t)(BM__TRIM_SHARE *
		    (double)nb[k]) : 0;
		if (paired_moments(v[k], nb[k], g, &mean[k], &se2[k],
		    &h[k]) != 0)
			goto out;
	}
	/* Welch: the degrees of the sum of the two blocks' variances. */
	if (se2[0] > 0 || se2[1] > 0)
		df = (se2[0] + se2[1]) * (se2[0] + se2[1]) /
		    (se2[0] * se2[0] / (double)(h[0] - 1) +
		    se2[1] * se2[1] / (double)(h[1] - 1));
	else
		df = (double)(h[0] + h[1] - 2);
	paired_student((mean[0] + mean[1]) / 2, (se2[0] + se2[1]) / 4, df,
	    level, out);
	rc = 0;
out:
	free(v[0]);
	free(v[1]);
	return rc;
}

/*
 * The change from a[i] to b[i] over n paired rounds, as the log of the
 * ratio b/a, by test: for the signed-rank test the Hodges-Lehmann
 * estimate (the median of the Walsh averages) and Wilcoxon's interval,
 * for the sign test the median of the differences and the binomial
 * interval of order statistics, for Student's t the mean and its t
 * interval, for Yuen's the trimmed mean and its trimmed t interval; at
 * the given level (or above: ranks give only some levels),
 * with the p value of no change.  Values must be
 * positive.  0, BM_ERANGE (fewer than two pairs, a value not positive,
 * or too few pairs for the level: out->shift and out->p are still set
 * when n >= 2) or -ENOMEM.
 */
int
bm__paired_logratio(const double *a, const double *b, size_t n, double level,
    enum bm__paired_test test, bm__paired *out)
{
	double *d, *w = NULL, *cdf = NULL, stat = 0;
	size_t N, i, j, m;
	int rc;

	if (out == NULL || a == NULL || b == NULL || n < 2 || n > BM__PAIRED_MAX ||
	    !(level > 0 && level < 1))
		return BM_ERANGE;
	memset(out, 0, sizeof *out);
	out->n = n;
	for (i = 0; i < n; i++)
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) ||
		    !isfinite(b[i]))
			return BM_ERANGE;
	N = test == BM__PAIRED_SIGNED_RANK ? n * (n + 1) / 2 : n;
	d = malloc(n * sizeof *d);
	if (test == BM__PAIRED_SIGNED_RANK)
		w = malloc(N * sizeof *w);
	cdf = malloc((N + 1) * sizeof *cdf);
	if (d == NULL || (test == BM__PAIRED_SIGNED_RANK && w == NULL) ||
	    cdf == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		d[i] = log(b[i]) - log(a[i]);
	if (test == BM__PAIRED_T || test == BM__PAIRED_TRIMMED) {
		/* Trimmed: a fifth off each end from BM__TRIM_FROM values on. */
		rc = paired_t(d, n, test == BM__PAIRED_TRIMMED &&
		    n >= BM__TRIM_FROM ? (size_t)(BM__TRIM_SHARE * (double)n) :
		    0, level, out);
		goto out;
	}
	if (test == BM__PAIRED_SIGN) {
		/* The candidates are the differences themselves. */
		qsort(d, n, sizeof *d, paired_cmp);
		for (i = 0; i < n; i++)
			stat += d[i] > 0 ? 1 : d[i] == 0 ? 0.5 : 0;
		paired_sign_cdf(n, cdf);
		rc = paired_invert(d, n, cdf, floor(stat), level, out);
		goto out;
	}
	for (i = 0, m = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[m++] = (d[i] + d[j]) / 2;
	qsort(w, N, sizeof *w, paired_cmp);
	/*
	 * The statistic at no change, T+: the number of Walsh averages above
	 * zero (equal to the sum of the positive differences' ranks), half
	 * for one at zero exactly.
	 */
	for (i = 0; i < N; i++)
		stat += w[i] > 0 ? 1 : w[i] == 0 ? 0.5 : 0;
	paired_signed_rank_cdf(n, cdf);
	rc = paired_invert(w, N, cdf, floor(stat), level, out);
out:
	free(d);
	free(w);
	free(cdf);
	return rc;
}

/*
 * The change from sample a (na values) to sample b (nb values), two
 * independent runs' process values, as the log of the ratio: the
 * Hodges-Lehmann estimate (the median of the differences of logs), the
 * Mann-Whitney interval at the given level (or above) and the p value of
 * no change.  0, BM_ERANGE (an empty sample, a value not positive, or
 * too few values for the level: out->shift and out->p are still set) or
 * -ENOMEM.
 */
int
bm__shift_logratio(const double *a, size_t na, const double *b, size_t nb,
    double level, bm__paired *out)
{
	double *w, *cdf, stat = 0;
	size_t N, i, j, m;
	int rc;

	if (out == NULL || a == NULL || b == NULL || na < 1 || nb < 1 ||
	    na > BM__PAIRED_MAX || nb > BM__PAIRED_MAX ||
	    !(level > 0 && level < 1))
		return BM_ERANGE;
	memset(out, 0, sizeof *out);
	out->n = na < nb ? na : nb;
	for (i = 0; i < na; i++)
		if (!(a[i] > 0) || !isfinite(a[i]))
			return BM_ERANGE;
	for (j = 0; j < nb; j++)
		if (!(b[j] > 0) || !isfinite(b[j]))
			return BM_ERANGE;
	N = na * nb;
	w = malloc(N * sizeof *w);
	cdf = malloc((N + 1) * sizeof *cdf);
	if (w == NULL || cdf == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0, m = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			w[m++] = log(b[j]) - log(a[i]);
	qsort(w, N, sizeof *w, paired_cmp);
	for (i = 0; i < N; i++)
		stat += w[i] > 0 ? 1 : w[i] == 0 ? 0.5 : 0;
	if ((rc = paired_rank_sum_cdf(na, nb, cdf)) == 0)
		rc = paired_invert(w, N, cdf, floor(stat), level, out);
out:
	free(w);
	free(cdf);
	return rc;
}
