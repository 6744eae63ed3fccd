/* clock.h: a run's clock as mhz read it, and a figure scaled to another clock (benchmp spread, compare). */
#ifndef BM_CLOCK_H
#define BM_CLOCK_H

#include "verdict/verdict.h"

/*
 * How near a figure's move must come to its clock's to have moved with
 * it: within 3% once scaled by the clock, the bar a figure must meet run
 * to run (SPREAD_WITHIN).
 */
#define CLOCK_WITH	0.03

/* Whether f is a run's clock: mhz's figure, in MHz. */
int clock_is(const struct bm__fig *f);

/*
 * v, a value of figure f read while the clock read mhz, as it would read
 * at clock ref had it moved with the clock alone: a time (lower is
 * better) times mhz / ref, a rate (higher is better) times ref / mhz.
 * NAN when f says neither, or a number is not a positive one.
 */
double clock_scaled(const struct bm__fig *f, double v, double mhz,
    double ref);

#endif /* BM_CLOCK_H */
