/*
 * timing.h: lmbench's timing(3) interface on top of libbenchmp, so that an
 * lmbench-style benchmark ports by changing its include.
 */
#ifndef BENCHMP_TIMING_H
#define BENCHMP_TIMING_H

/*
 * lmbench's header brought in the C and POSIX headers its benchmarks use,
 * and a benchmark ported by changing its include expects them: stdio
 * (stderr, perror), stdlib (exit, malloc), string, unistd (read, write,
 * fork, getppid), errno, signal, fcntl, time, the sys/ headers of
 * processes, files, mappings, limits and sockets.  A program that needs
 * feature-test macros (_GNU_SOURCE) defines them before this include.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>

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
 * warmup in microseconds.  initialize and cleanup run once per worker
 * with n 0 and, untimed, around every interval with its n, as lmbench's.
 * On failure (also for a NULL benchmark or a negative argument) get_n()
 * is 1 and gettime() 0, as lmbench leaves them, and bm_compat_errmsg()
 * says why.
 */
BM_EXTERN void benchmp(support_f initialize, bench_f benchmark,
    support_f cleanup, int enough, int parallel, int warmup,
    int repetitions, void *cookie);
/* The running worker's state, for benchmp_interval(). */
BM_EXTERN void *benchmp_getstate(void);
/* End an interval and return the next one's count (0 outside a worker). */
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

/*
 * lmbench's result type: intervals, each u microseconds for n
 * operations, kept sorted by time per operation, the slowest first and
 * the fastest last.  v has room for TRIES; an array allocated with
 * sizeof_result(N) bytes holds N.
 */
#ifndef TRIES
#define TRIES 11
#endif

typedef struct {
	uint64 u;
	uint64 n;
} value_t;

typedef struct {
	int N;
	value_t v[TRIES];
} result_t;

/* Bytes of a result_t holding n entries. */
BM_EXTERN int sizeof_result(int n);
/* Empty a result. */
BM_EXTERN void insertinit(result_t *r);
/* Add an interval, keeping the order by u / n (u or n 0: dropped). */
BM_EXTERN void insertsort(uint64 u, uint64 n, result_t *r);
/* The kept results (after benchmp(): the reported round's intervals). */
BM_EXTERN result_t *get_results(void);
/* Keep r itself (not a copy) as the results, then save_median(). */
BM_EXTERN void set_results(result_t *r);
/* Keep the fastest (last) result's n and u for get_n() and gettime(). */
BM_EXTERN void save_minimum(void);
/* Keep the median result's n and u for get_n() and gettime(). */
BM_EXTERN void save_median(void);

/* lmbench's older name of set_n(). */
BM_EXTERN void save_n(uint64 n);
/* Microseconds since start(), without stopping. */
BM_EXTERN uint64 usecs_spent(void);
/* Microseconds from start to stop (0 when stop is earlier). */
BM_EXTERN uint64 tvdelta(struct timeval *start, struct timeval *stop);
/* tdiff = t1 - t0, normalised; zero when t1 is earlier than t0. */
BM_EXTERN void tvsub(struct timeval *tdiff, struct timeval *t1,
    struct timeval *t0);

/*
 * Print the kept interval to standard error in lmbench's formats:
 * "S: T microseconds" (micro, 4 decimals), "S: T milliseconds" (milli,
 * 2), "S: T nanoseconds" (nano, 2), each gettime() / n, and a
 * bandwidth of bytes over gettime(), "B MB/sec" (mb, 2 decimals, MB =
 * 10^6 bytes) or "B KB/sec" (kb, 0 decimals, KB = 10^3 bytes).  Nothing
 * is printed when n or the time is 0.
 */
BM_EXTERN void micro(char *s, uint64 n);
BM_EXTERN void milli(char *s, uint64 n);
BM_EXTERN void nano(char *s, uint64 n);
BM_EXTERN void mb(uint64 bytes);
BM_EXTERN void kb(uint64 bytes);

/* In a benchmp() worker, its index from 0 (0 outside a worker). */
BM_EXTERN int benchmp_childid(void);
/*
 * Pin the calling process per LMBENCH_SCHED (DEFAULT, SINGLE, UNIQUE,
 * CUSTOM cpus or list:cpus); process number childno * (nbenchprocs + 1)
 * + benchproc.  0, or -1 when the policy is bad or cannot be applied.
 */
BM_EXTERN int handle_scheduler(int childno, int benchproc, int nbenchprocs);
/* Raise the soft limit of open files to the hard limit. */
BM_EXTERN void morefds(void);

/* Why the last compat call failed, or NULL. */
BM_EXTERN const char *bm_compat_errmsg(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_TIMING_H */
