/*
 * timing.h: lmbench's timing(3) interface on top of libbenchmp, so that an
 * lmbench-style benchmark ports by changing its include.
 */
#ifndef BENCHMP_TIMING_H
#define BENCHMP_TIMING_H

#include <stdint.h>
#include <sys/time.h>

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long iter_t;
typedef uint64_t uint64;

typedef void (*bench_f)(iter_t iterations, void *cookie);
typedef void (*support_f)(iter_t iterations, void *cookie);

/*
 * Measure benchmark in parallel workers and keep the median interval for
 * get_n() and gettime().  enough is in microseconds (0: calibrated),
 * warmup in microseconds.  On failure get_n() and gettime() are 0 and
 * bm_compat_errmsg() says why.
 */
BM_EXTERN void benchmp(support_f initialize, bench_f benchmark,
    support_f cleanup, int enough, int parallel, int warmup,
    int repetitions, void *cookie);
/* The running worker's state, for benchmp_interval(). */
BM_EXTERN void *benchmp_getstate(void);
/* End an interval and return the iteration count for the next. */
BM_EXTERN iter_t benchmp_interval(void *state);

/* Start a timing interval; begin, if not NULL, gets the wall time. */
BM_EXTERN void start(struct timeval *begin);
/* Stop it; return and keep (settime) the elapsed microseconds. */
BM_EXTERN uint64 stop(struct timeval *begin, struct timeval *end);
/* Iterations and microseconds of the kept interval. */
BM_EXTERN uint64 get_n(void);
BM_EXTERN void set_n(uint64 n);
BM_EXTERN uint64 gettime(void);
BM_EXTERN void settime(uint64 usecs);

/* Calibration, in microseconds (ENOUGH, TIMING_O, LOOP_O override). */
BM_EXTERN uint64 get_enough(uint64 enough);
BM_EXTERN uint64 t_overhead(void);
BM_EXTERN double l_overhead(void);

/* Why the last compat call failed, or NULL. */
BM_EXTERN const char *bm_compat_errmsg(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_TIMING_H */
