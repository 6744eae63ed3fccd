/* clock.c: the host's moves: a run's clock, a figure scaled to another clock, a run against its past runs. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* Whether f is a run's clock. */
int
clock_is(const struct bm__fig *f)
{
	return f->tool != NULL && strcmp(f->tool, "mhz") == 0 &&
	    f->unit != NULL && strcmp(f->unit, "MHz") == 0;
}

/* v of f at clock mhz, scaled to clock ref. */
double
clock_scaled(const struct bm__fig *f, double v, double mhz, double ref)
{
	if (!(isfinite(v) && mhz > 0 && ref > 0 && isfinite(mhz) &&
	    isfinite(ref)))
		return NAN;
	if (f->better == BM__BETTER_LOWER)
		return v * mhz / ref;
	if (f->better == BM__BETTER_HIGHER)
		return v * ref / mhz;
	return NAN;
}

/* The shift of v against past median m. */
double
clock_shift(enum bm__better b, double v, double m)
{
	if (!(v > 0 && m > 0 && isfinite(v) && isfinite(m)))
		return NAN;
	if (b == BM__BETTER_LOWER)
		return log(v / m);
	if (b == BM__BETTER_HIGHER)
		return log(m / v);
	return NAN;
}

/* Order doubles, for the median. */
static int
clock_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sum the shifts of d up into p. */
void
clock_past_sum(double *d, size_t n, struct clock_past *p)
{
	size_t i;

	memset(p, 0, sizeof *p);
	p->n = n;
	p->median = NAN;
	if (n == 0)
		return;
	qsort(d, n, sizeof *d, clock_cmp);
	p->median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	for (i = 0; i < n; i++) {
		p->worse += d[i] > log1p(CLOCK_WITH);
		p->better += d[i] < log1p(-CLOCK_WITH);
	}
}

/* p's median as words, before "its median". */
void
clock_past_words(const struct clock_past *p, char *buf, size_t size)
{
	double x = 100 * fabs(expm1(p->median));

	if (x < 0.05)
		snprintf(buf, size, "within 0.05%% of");
	else
		snprintf(buf, size, "%.1f%% %s than", x, p->median > 0 ?
		    "worse" : "better");
}
