/* benchmp/stats.h: the statistics a result holds, computed from any values. */
#ifndef BENCHMP_STATS_H
#define BENCHMP_STATS_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The p-th percentile (0 to 100) of sorted values, interpolated. */
BM_EXTERN double bm_percentile(const double *sorted, size_t n, double p);
/*
 * Compute statistics of n values (n >= 1); v is not modified.  The
 * interval is distribution-free: the narrowest pair of order statistics
 * that covers the median with probability >= 95%, or the whole range
 * when no pair does (n < 6), with its exact coverage in ci_level.
 */
BM_EXTERN int bm_stats_compute(const double *v, size_t n, bm_stats *out);

/*
 * Statistics at two levels: n values, value k from round round[k] of nr
 * (rounds of fresh processes; each with at least one value).  proc
 * describes the rounds' medians (written to med[0..nr-1]): median,
 * spread, the order-statistic interval with its coverage, noisy when that
 * interval is wider than 10% of the median or covers less than 90% (too
 * few rounds to bound the median: four or fewer), bimodal when the
 * rounds split into two groups of at least two whose own intervals do not
 * overlap, with each group's centre, share and count in modes.
 * within describes every value shifted by the overall median minus its
 * round's median: the scatter inside processes.  With one round both are
 * that round's statistics, noisy whatever they are (one round bounds
 * nothing of the next).  0, BM_ERANGE or -ENOMEM.
 */
BM_EXTERN int bm_stats_levels(const double *v, const unsigned *round,
    size_t n, unsigned nr, bm_stats *proc, bm_stats *within, double *med);

/*
 * Format bm_stats_levels() of n finite values (value k from round
 * round[k] of nr) as one JSON object without a newline, the members a
 * record holds from "median" to "process_samples", in its order and
 * number format; free() the string.  0, BM_ERANGE (n or nr 0, a round
 * without a value or out of range, a value not finite), -EINVAL (a NULL
 * pointer) or -ENOMEM.
 */
BM_EXTERN int bm_stats_json(const double *v, const unsigned *round,
    size_t n, unsigned nr, char **out);

/*
 * Format the robust figure of the same values (the best round's median,
 * the lowest or, with higher, the highest; its interval and flags: the
 * "robust" member of a record) as one JSON object; disturbed of intervals
 * (as a record's interference counts them) may flag it.  0, BM_ERANGE
 * (as bm_stats_json, fewer than three rounds, or disturbed > intervals),
 * -EINVAL or -ENOMEM.
 */
BM_EXTERN int bm_stats_robust_json(const double *v, const unsigned *round,
    size_t n, unsigned nr, int higher, uint64_t intervals,
    uint64_t disturbed, char **out);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_STATS_H */
