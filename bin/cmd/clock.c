/* clock.c: the host's moves: a run's clock, a figure scaled to another clock, a run against its past runs. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchmp/stats.h"
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

/* The median of n values, the library's (NAN for none, or out of memory). */
double
clock_median(const double *v, size_t n)
{
	bm_stats st;

	return bm_stats_compute(v, n, &st) == 0 ? st.median : NAN;
}

/* Sum the shifts of d up into p. */
void
clock_past_sum(const double *d, size_t n, struct clock_past *p)
{
	size_t i;

	memset(p, 0, sizeof *p);
	p->n = n;
	p->median = clock_median(d, n);
	for (i = 0; i < n; i++) {
		p->worse += d[i] > log1p(CLOCK_WITH);
		p->better += d[i] < log1p(-CLOCK_WITH);
	}
}

/* Whether rec is a run's clock. */
int
clock_is_record(const struct bm__jval *rec)
{
	const char *tool = bm__jstr(rec, "tool"), *unit = bm__jstr(rec, "unit");

	return tool != NULL && unit != NULL && strcmp(tool, "mhz") == 0 &&
	    strcmp(unit, "MHz") == 0;
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
