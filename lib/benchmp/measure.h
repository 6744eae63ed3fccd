/* benchmp/measure.h: timing a function in the calling process. */
#ifndef BENCHMP_MEASURE_H
#define BENCHMP_MEASURE_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * In-process measurement (after mLib's bench_measure), for code that
 * cannot be forked (a GPU context, a database handle): fn(n, arg) does
 * the operation n times in the calling process.  The base (the same loop
 * around an empty body, timed with the same n) is subtracted from every
 * interval; seconds and cycles are the median per operation times n.
 */
typedef struct bm_measurement {
	bm_iter_t n;		/* operations per timed call */
	double seconds;		/* a call's time, base subtracted */
	double cycles;		/* its cycles, base subtracted, or NAN */
	double base_ns;		/* the empty loop of n iterations */
	double base_cycles;	/* its cycles, or NAN */
	bm_result result;	/* as bm_run's; free with bm_result_free */
	/*
	 * bm_measure_base(): the operations each iteration of fn does, and
	 * those of a timed call, n times base (mLib's t_out->n); the
	 * result's figures are per operation.  1 and n with bm_measure().
	 */
	uint64_t base;
	double ops;
	uint64_t reserved[8];
} bm_measurement;

/*
 * Time fn in the calling process: calibrate the context if needed, call
 * fn with growing counts (untimed for the result, at least o->warmup_us
 * long) until one call lasts about the context's enough (o->enough_us
 * when longer), time the base, then time o->repetitions calls of the
 * same count, each minus the base, counting the context's events too.
 * m->result holds the same statistics as bm_run's (one process, one
 * worker), for bm_record_latency() and the like.  o NULL: the defaults.
 * 0; -EINVAL; BM_ERANGE (parallel not 1, repetitions, enough or warmup
 * out of range); BM_ENOTSUP (percentiles); BM_EBENCH (fn failed: the
 * detail is on ctx); a calibration error.  fn runs in the caller, so a
 * call that never returns is not bounded by any timeout.
 */
BM_EXTERN int bm_measure(bm_ctx *ctx, bm_fn fn, void *arg,
    const bm_options *o, bm_measurement *m);
/*
 * As bm_measure(), for fn whose every iteration does base operations
 * (after mLib's bench_measure() base, for an unrolled loop): m->ops is a
 * call's operations (n times base) and the result's samples count
 * operations, so its statistics (and a record made of it) are per
 * operation.  base 1 to 2^32, else BM_ERANGE.
 */
BM_EXTERN int bm_measure_base(bm_ctx *ctx, bm_fn fn, void *arg,
    uint64_t base, const bm_options *o, bm_measurement *m);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_MEASURE_H */
