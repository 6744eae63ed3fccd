/*
 * stats.h: a figure's statistics (figure.c, stats.c, stats-json.c) and
 * the change between two arms (paired.c).
 */
#ifndef BM_STATS_STATS_H
#define BM_STATS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "benchmp.h"

/*
 * The least coverage of a figure's interval for it to be settled: below
 * it the figure is flagged noisy (stats.c), and adaptive rounds do not
 * stop before it (engine.c).  Five rounds cover 93.75%.
 */
#define BM__SETTLED_LEVEL 0.9

/*
 * A figure's statistics in its record's unit (figure.c), computed once
 * for whatever shows or decides on them (the record's value and its
 * JSON, bm_stats_json): the values and their rounds, the statistics over
 * the rounds' medians (proc) and within rounds (within, see
 * bm_stats_levels), each round's median and count of values.
 */
struct bm__figure {
	double *x;
	unsigned *round;
	size_t n;
	unsigned nr;
	bm_stats proc;
	bm_stats within;
	double *med;
	double *count;
};

/*
 * A record's figure: its result's samples in the record's unit, a rate of
 * several workers scaled to each round's aggregate.  0, BM_ERANGE without
 * samples, or an error; the caller frees f (bm__figure_free) either way.
 */
int bm__figure_record(struct bm__figure *f, const bm_record *rec);
/* The figure of n values v from rounds round (each below nr). */
int bm__figure_levels(struct bm__figure *f, const double *v,
    const unsigned *round, size_t n, unsigned nr);
void bm__figure_free(struct bm__figure *f);
/*
 * The value a record shows, from its rounds' medians alone (figure.c):
 * the best process (with best 1, where there is one: 1) or the median of
 * the rounds' medians (0); BM_ERANGE without samples, or -ENOMEM.
 */
int bm__figure_value(const bm_record *rec, int best, double *out);
/*
 * A record's robust figure over its figure f (bm__figure_record): the
 * best process (higher: higher is better),
 * its interval and flags (bm__stats_robust); BM_ERANGE when it has none.
 */
struct bm__robust;
int bm__figure_robust(const struct bm__figure *f, const bm_record *rec,
    int higher, double precision, struct bm__robust *out);

/*
 * The least half-width of a figure's interval, relative to its median:
 * how far the host lets a figure move from one run to the next whatever
 * the run's own scatter (doc/measurements.md, "benchmp(3): the
 * interval's floor").  The interval of one run cannot see that drift; it
 * is added as a systematic part, and the record keeps the statistical
 * interval apart (ci_stat_lo, ci_stat_hi).  The engine's "another round?" reads
 * the same widened interval (bm__stats_interval).
 */
#define BM__CI_FLOOR 0.005

/* The interval of st widened to floor times its median on each side. */
void bm__stats_interval(const bm_stats *st, double floor, double *lo,
    double *hi);
/*
 * Where the next run's median falls, from st (a served figure's), into
 * lo and hi: each side of the median's interval times sqrt 2, with floor
 * times the median added in quadrature.  A positive median's lower
 * side never reaches zero: where it would, it is taken the same way in
 * ratios (the median's lower side as a log ratio, times sqrt 2, the
 * floor's in quadrature), as a cache level whose sizes ran from 6 to
 * 105 ns under load would otherwise have had an interval from -2 ns.
 * 1 when either side reaches past precision times the median, else 0.
 */
int bm__stats_next_run(const bm_stats *st, double floor, double precision,
    double *lo, double *hi);

/*
 * A figure's robust statistic (bm__stats_robust): the best process's
 * median, its interval, and why it is flagged (a BM__ROBUST_* set).
 */
typedef struct bm__robust {
	double value;
	double ci_lo;
	double ci_hi;
	unsigned flags;
} bm__robust;
#define BM__ROBUST_WIDE		(1u << 0)	/* wider than the precision */
/*
 * The least half-width of the robust figure's interval, relative to it
 * (doc/measurements.md, "benchmp(3): the robust figure's interval").
 */
#define BM__ROBUST_FLOOR	0.01
/*
 * The robust figure needs this many processes: its interval leans on
 * the third-best (bm__stats_robust), which with three is the worst.
 */
#define BM__ROBUST_MIN		3
/*
 * A result whose rounds are a scheduler's visits (BENCHMP_SERVE): marked
 * in the first of the public struct's reserved words, so that its layout
 * stays.  Its figure is the median of the visits, not the best one: the
 * visits sample the machine's phases across a whole run, and their
 * median repeated from run to run where the best visit did not (three
 * suites on a 2-vCPU AMD EPYC KVM guest, 2026-11-29: 89% of the figures
 * within 3% against 77%, doc/measurements.md).
 */
#define BM__RESULT_SERVED(r)	((r)->reserved[0])
/*
 * A served figure's interval is where the next run's median falls: its
 * median's interval twice over (the next run has its own), and a part
 * no run can see in its own visits (another worker set, the host's
 * mood from one minute to the next): BM__SERVED_FLOOR of the median,
 * added in quadrature (bm__stats_next_run).  On three suites of a 2-vCPU
 * AMD EPYC KVM guest (2026-11-29, 606 ordered pairs of runs) that held
 * the next run 92% of the time, against 73% for the median's interval
 * (doc/measurements.md, "A served figure's interval"); on the twenty
 * sets of three suites of that guest on 2026-11-30 (quiet, loaded and
 * in the host's slow hours; 3358 pairs of a run and the next) 87.6%,
 * and a wider floor adds little: 89.0% at 0.025 (doc/measurements.md,
 * "2026-11-30, from 14:10 UTC: the flag's reach, a worker set's
 * placement, a visit's warmup").  The record states BM__SERVED_LEVEL,
 * what the intervals held there, as its level.
 */
#define BM__SERVED_FLOOR	0.02
#define BM__SERVED_LEVEL	0.87
/*
 * A figure read off each process's sweep (its answers judged by an
 * agreement rule: cache's levels, par_mem's parallelism, tlb's reach,
 * line's knee) takes the same rule over its processes: its runs move
 * more than its three or four processes do (a sweep measured in bursts
 * meets one moment of the host).  On the eighteen sets of three suites
 * recorded on a 2-vCPU Intel Xeon KVM guest from 2026-12-01 03:08 UTC
 * to 2026-12-02 00:31 UTC (245 pairs of a run and the next) it held the
 * next run 73% of the time, the median's interval 60%
 * (doc/measurements.md, "2026-12-02, from 02:22 UTC: the sweeps'
 * figures"): the level the record states.
 */
#define BM__DERIVED_LEVEL	0.73
/*
 * The share of next runs the robust figure's interval held on recorded
 * suites, which the record states as its level (doc/measurements.md,
 * "One figure, one interval").
 */
#define BM__ROBUST_LEVEL	0.90
/*
 * A figure is noisy when its interval reaches further than this share
 * of it on either side, unless bm_ctx_set_precision() says otherwise.
 */
#define BM__PRECISION_DEFAULT	0.03

/* 1 when disturbed of intervals make a figure disturbed, else 0. */
int bm__stats_disturbed(uint64_t intervals, uint64_t disturbed);

/*
 * The best of nr rounds' medians of v (the greatest when higher is 1),
 * its interval widened to floor, and its flags.  0, BM_ERANGE, -ENOMEM.
 */
int bm__stats_robust(const double *v, const unsigned *round, size_t n,
    unsigned nr, int higher, double floor, double precision,
    bm__robust *out);
/*
 * The same from nr rounds' medians med and their median (bm_stats_levels
 * gives both), for a figure whose statistics are computed already.
 */
int bm__stats_robust_med(const double *med, unsigned nr, double median,
    int higher, double floor, double precision, bm__robust *out);
/*
 * The median of n values (bm__stats_median), and each of nr rounds'
 * medians (bm__stats_medians): the numbers bm_stats_levels() gives, for
 * a caller that needs no more.  0, BM_ERANGE or -ENOMEM.
 */
int bm__stats_median(const double *v, size_t n, double *out);
int bm__stats_medians(const double *v, const unsigned *round, size_t n,
    unsigned nr, double *med);

/*
 * Values from rounds as a record shows them (stats-json.c, for
 * benchmp-stats): value, the levels, the robust figure when higher is 0
 * or 1 and there is one.  0, BM_ERANGE, -EINVAL or -ENOMEM.
 */
int bm__stats_json_figure(const double *v, const unsigned *round, size_t n,
    unsigned nr, int higher, double precision, char **out);

/*
 * A change between two arms as the log of a ratio B/A (paired.c): the
 * Hodges-Lehmann estimate, its rank interval and its achieved level,
 * the p value of no change and the pairs (or the smaller sample) used.
 */
typedef struct bm__paired {
	size_t n;
	double shift;
	double lo;
	double hi;
	double level;
	double p;
} bm__paired;
/* At most this many pairs, or values in a sample (n(n+1)/2 averages). */
#define BM__PAIRED_MAX		2000
/*
 * The tests of paired rounds: Wilcoxon's signed ranks, signs alone, or
 * Student's t over the mean log ratio (for a few values that are each
 * already a median of many, where ranks cannot reach a small p), or
 * Yuen's trimmed t (the same, with the values at either end trimmed
 * once there are BM__TRIM_FROM of them: a few values a host's burst
 * shifted do not widen the interval).
 */
enum bm__paired_test {
	BM__PAIRED_SIGNED_RANK,
	BM__PAIRED_SIGN,
	BM__PAIRED_T,
	BM__PAIRED_TRIMMED
};
/* Yuen's trim: this share of the values off each end, from this many on. */
#define BM__TRIM_SHARE		0.2
#define BM__TRIM_FROM		10
/* P(|T| >= t) for Student's t with df degrees of freedom. */
double bm__student_tail(double t, double df);
/* The z with P(|Z| >= z) = tail for a normal Z (tail in (0, 1)). */
double bm__normal_quantile(double tail);
/* The t with P(|T| >= t) = tail for Student's t (tail in (0, 1)). */
double bm__student_quantile(double tail, double df);
/* Paired rounds a[i], b[i] by test.  0, BM_ERANGE, -ENOMEM. */
int bm__paired_logratio(const double *a, const double *b, size_t n,
    double level, enum bm__paired_test test, bm__paired *out);
/* n log ratios d in two blocks blk[i] shifted apart.  0, BM_ERANGE, -ENOMEM. */
int bm__paired_blocked(const double *d, const int *blk, size_t n,
    double level, bm__paired *out);
/* Two independent samples (rank sums).  0, BM_ERANGE, -ENOMEM. */
int bm__shift_logratio(const double *a, size_t na, const double *b,
    size_t nb, double level, bm__paired *out);

#endif /* BM_STATS_STATS_H */
