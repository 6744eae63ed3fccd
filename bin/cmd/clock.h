/* clock.h: the host's moves: a run's clock as mhz read it, a figure scaled to another clock, a run against its past runs (spread, compare, summary, report). */
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

/*
 * Sum the n shifts of d up into p (median NAN for none); p->n is 0 where
 * n is below CLOCK_PAST_MIN, too few to set a run against.
 */
void clock_past_sum(const double *d, size_t n, struct clock_past *p);

/* The median of n values, the library's; NAN for none or out of memory. */
double clock_median(const double *v, size_t n);

/* Whether rec, a record read, is a run's clock: mhz's figure, in MHz. */
int clock_is_record(const struct bm__jval *rec);

/*
 * A run's clock against its past runs on the machine: what mhz read, and
 * the median of its past runs and their count (benchmp history's
 * past_median and runs); 0 when not known.
 */
struct clock_run {
	double mhz;
	double past;
	double runs;
};

/*
 * The shift of record rec against the median of its past runs
 * (history.past_median), which way better as bm__reader_better says:
 * mhz's own record too, a rate.  NAN where clock_shift gives it.
 */
double clock_record_shift(const struct bm__jval *rec);

/*
 * Note the run's clock in k from rec when it is mhz's figure with a
 * positive value: that value, and the median and count of its past runs
 * where benchmp history gave them (0 where it did not).
 */
void clock_run_note(struct clock_run *k, const struct bm__jval *rec);

/*
 * A run's records rec[0..n) against its past runs: the shifts of those
 * with a past median summed into p (clock_past_sum), and into k the
 * clock of the last that is mhz's figure; 0 or -ENOMEM.
 */
int clock_records(const struct bm__jval *const *rec, size_t n,
    struct clock_past *p, struct clock_run *k);

/*
 * Room for the words of clock_run_words or clock_past_line: three numbers
 * of up to 312 characters (a double in full) and the words around them.
 */
#define CLOCK_LINE	1200

/*
 * The clock line's words into buf ("mhz read 3600 MHz, +20.0% from 3000
 * MHz, the median of its last 9 runs on this machine: the figures the
 * clock times moved with it") where k's clock lies more than CLOCK_WITH
 * from the median of its past runs; 0, or -1 (buf empty) where it does
 * not or either is not known.
 */
int clock_run_words(const struct clock_run *k, char *buf, size_t size);

/*
 * The run against its past runs as words into buf ("the median figure
 * 10.0% worse than its median over this machine's past runs; 4 of 5
 * worse by more than 3%, 0 better"); 0, or -1 (buf empty) where p has no
 * figures.
 */
int clock_past_line(const struct clock_past *p, char *buf, size_t size);

/*
 * One of two runs against its past runs as words into buf, after "A's
 * median figure": "10.0% worse than its median over its machine's past
 * runs (5 of 5 worse by more than 3%, 0 better)", or "not known".
 */
void clock_past_side(const struct clock_past *p, char *buf, size_t size);

#endif /* BM_CLOCK_H */
