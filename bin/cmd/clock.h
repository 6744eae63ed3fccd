/* clock.h: the host's moves: a run's clock as mhz read it, a figure scaled to another clock, a run against its past runs (spread, compare, summary). */
#ifndef BM_CLOCK_H
#define BM_CLOCK_H

#include <stddef.h>

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
 * NAN when f says neither, v is not finite or a clock not a positive
 * number.
 */
double clock_scaled(const struct bm__fig *f, double v, double mhz,
    double ref);

/* The fewest figures with past runs to set a run against them. */
#define CLOCK_PAST_MIN	5

/*
 * A run against the machine's past runs: of its n figures with a past
 * median, the median shift (|log| of value over past median, signed
 * worse positive) and how many lie more than CLOCK_WITH worse or better.
 * A host that moves the whole run moves most figures one way.
 */
struct clock_past {
	size_t n;
	double median;
	size_t worse;
	size_t better;
};

/*
 * The shift of value v against past median m, for a figure better which
 * way (b): log(v / m) for a time, log(m / v) for a rate; NAN when not
 * known, or the figure is better neither way.
 */
double clock_shift(enum bm__better b, double v, double m);

/* Sum the n shifts of d up into p (median NAN for none). */
void clock_past_sum(const double *d, size_t n, struct clock_past *p);

/* The median of n values, the library's; NAN for none or out of memory. */
double clock_median(const double *v, size_t n);

/* Whether rec, a record read, is a run's clock: mhz's figure, in MHz. */
int clock_is_record(const struct bm__jval *rec);

/* p's median as words into buf, before "its median": "4.7% worse than". */
void clock_past_words(const struct clock_past *p, char *buf, size_t size);

#endif /* BM_CLOCK_H */
