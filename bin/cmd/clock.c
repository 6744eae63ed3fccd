/* clock.c: a run's clock as mhz read it, and a figure scaled to another clock. */
#include "config.h"

#include <math.h>
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
