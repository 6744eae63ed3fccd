/* lmbench-stats.c: lmbench's statistics on arrays and result printers (lmbench.h). */
#include "config.h"

#include <math.h>

#include "benchmp/lmbench.h"

/* qsort order of ints. */
int
int_compare(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* qsort order of uint64s. */
int
uint64_compare(const void *a, const void *b)
{
	uint64 x = *(const uint64 *)a, y = *(const uint64 *)b;

	return (x > y) - (x < y);
}

/* qsort order of doubles. */
int
double_compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The medians sort the array in place, as lmbench's do; an even count
 * gives the mean of the middle two.
 */
int
int_median(int *values, int size)
{
	if (size <= 0)
		return 0;
	qsort(values, (size_t)size, sizeof(*values), int_compare);
	if (size % 2)
		return values[size / 2];
	return (values[size / 2 - 1] + values[size / 2]) / 2;
}

/* The median of uint64s (sorted in place). */
uint64
uint64_median(uint64 *values, int size)
{
	if (size <= 0)
		return 0;
	qsort(values, (size_t)size, sizeof(*values), uint64_compare);
	if (size % 2)
		return values[size / 2];
	return (values[size / 2 - 1] + values[size / 2]) / 2;
}

/* The median of doubles (sorted in place). */
double
double_median(double *values, int size)
{
	if (size <= 0)
		return 0;
	qsort(values, (size_t)size, sizeof(*values), double_compare);
	if (size % 2)
		return values[size / 2];
	return (values[size / 2 - 1] + values[size / 2]) / 2;
}

/* The mean of ints, in integers. */
int
int_mean(int *values, int size)
{
	long long s = 0;
	int i;

	for (i = 0; i < size; i++)
		s += values[i];
	return size > 0 ? (int)(s / size) : 0;
}

/* The mean of uint64s, in integers. */
uint64
uint64_mean(uint64 *values, int size)
{
	double s = 0;
	int i;

	for (i = 0; i < size; i++)
		s += (double)values[i];
	return size > 0 ? (uint64)(s / size) : 0;
}

/* The mean of doubles. */
double
double_mean(double *values, int size)
{
	double s = 0;
	int i;

	for (i = 0; i < size; i++)
		s += values[i];
	return size > 0 ? s / size : 0;
}

/* The least int. */
int
int_min(int *values, int size)
{
	int i, m = size > 0 ? values[0] : 0;

	for (i = 1; i < size; i++)
		if (values[i] < m)
			m = values[i];
	return m;
}

/* The least uint64. */
uint64
uint64_min(uint64 *values, int size)
{
	uint64 m = size > 0 ? values[0] : 0;
	int i;

	for (i = 1; i < size; i++)
		if (values[i] < m)
			m = values[i];
	return m;
}

/* The least double. */
double
double_min(double *values, int size)
{
	double m = size > 0 ? values[0] : 0;
	int i;

	for (i = 1; i < size; i++)
		if (values[i] < m)
			m = values[i];
	return m;
}

/* The greatest int. */
int
int_max(int *values, int size)
{
	int i, m = size > 0 ? values[0] : 0;

	for (i = 1; i < size; i++)
		if (values[i] > m)
			m = values[i];
	return m;
}

/* The greatest uint64. */
uint64
uint64_max(uint64 *values, int size)
{
	uint64 m = size > 0 ? values[0] : 0;
	int i;

	for (i = 1; i < size; i++)
		if (values[i] > m)
			m = values[i];
	return m;
}

/* The greatest double. */
double
double_max(double *values, int size)
{
	double m = size > 0 ? values[0] : 0;
	int i;

	for (i = 1; i < size; i++)
		if (values[i] > m)
			m = values[i];
	return m;
}

/* The sample variance of doubles (n - 1 in the denominator). */
double
double_variance(double *values, int size)
{
	double m = double_mean(values, size), s = 0;
	int i;

	if (size < 2)
		return 0;
	for (i = 0; i < size; i++)
		s += (values[i] - m) * (values[i] - m);
	return s / (size - 1);
}

/* The standard error of the mean of doubles. */
double
double_stderr(double *values, int size)
{
	return size > 1 ? sqrt(double_variance(values, size) / size) : 0;
}

/*
 * Weighted least squares of y = a + b x over n points (weights 1/sig^2,
 * or 1 when sig is NULL): a, b, their standard errors and chi^2.
 */
void
regression(double *x, double *y, double *sig, int n, double *a, double *b,
    double *sig_a, double *sig_b, double *chi2)
{
	double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, w, d, r;
	int i;

	for (i = 0; i < n; i++) {
		w = sig != NULL && sig[i] != 0 ? 1 / (sig[i] * sig[i]) : 1;
		s += w;
		sx += w * x[i];
		sy += w * y[i];
		sxx += w * x[i] * x[i];
		sxy += w * x[i] * y[i];
	}
	d = s * sxx - sx * sx;
	if (n < 2 || d == 0) {
		*a = n > 0 ? sy / s : 0;
		*b = *sig_a = *sig_b = *chi2 = 0;
		return;
	}
	*a = (sxx * sy - sx * sxy) / d;
	*b = (s * sxy - sx * sy) / d;
	*sig_a = sqrt(sxx / d);
	*sig_b = sqrt(s / d);
	*chi2 = 0;
	for (i = 0; i < n; i++) {
		r = (y[i] - *a - *b * x[i]);
		w = sig != NULL && sig[i] != 0 ? 1 / (sig[i] * sig[i]) : 1;
		*chi2 += w * r * r;
	}
}

/* Each kept result as "u n" (details: also u/n), to standard error. */
void
print_results(int details)
{
	result_t *r = get_results();
	int i;

	for (i = 0; i < r->N; i++) {
		(void)fprintf(stderr, "%llu %llu", (unsigned long long)r->v[i].u,
		    (unsigned long long)r->v[i].n);
		if (details && r->v[i].n > 0)
			(void)fprintf(stderr, " %.4f",
			    (double)r->v[i].u / (double)r->v[i].n);
		(void)fputc('\n', stderr);
	}
}

/* The kept result at quarter q (0: fastest .. 4: slowest) as u/n. */
static double
stats_quartile(int q, uint64 *n)
{
	result_t *r = get_results();
	int i;

	if (r->N <= 0) {
		*n = 1;
		return 0;
	}
	/* The results are kept the slowest first. */
	i = (r->N - 1) - q * (r->N - 1) / 4;
	*n = r->v[i].n;
	return (double)r->v[i].u;
}

/* The five quartiles of the kept results as MB/s of bytes per operation. */
void
bw_quartile(uint64 nbytes)
{
	uint64 n;
	double u;
	int q;

	for (q = 0; q <= 4; q++) {
		u = stats_quartile(q, &n);
		(void)fprintf(stderr, "%s%.2f", q ? " " : "",
		    u > 0 ? (double)nbytes * (double)n / u : 0.0);
	}
	(void)fputc('\n', stderr);
}

/* The five quartiles of the kept results as nanoseconds per n operations. */
void
nano_quartile(uint64 count)
{
	uint64 n;
	double u;
	int q;

	for (q = 0; q <= 4; q++) {
		u = stats_quartile(q, &n);
		(void)fprintf(stderr, "%s%.2f", q ? " " : "",
		    count > 0 && n > 0 ? u * 1000 / ((double)count * (double)n) :
		    0.0);
	}
	(void)fputc('\n', stderr);
}
