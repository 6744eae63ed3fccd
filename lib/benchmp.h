/*
 * benchmp.h: the core of libbenchmp, an lmbench-style benchmark engine: a
 * context, a benchmark and its options, bm_run() and its result, and the
 * record that reports it.  Everything else has a header of its own under
 * <benchmp/...> that includes this one: timers.h, settings.h,
 * calibration.h, counters.h, stats.h, worker.h, measure.h, command.h,
 * regions.h, sinks.h and figures.h; benchmp(3) says which declares what.
 *
 * Growing without breaking programs: every public struct a program
 * allocates or reads ends with reserved room (zero).  A new member takes
 * reserved words of its size, so sizes and offsets stay and an older
 * program still works; zero a struct before filling it (bm_options_init(),
 * the bm_record_* calls, "= {0}" or designated initializers do) so that a
 * member added later reads 0, its default.  Opaque types with accessors
 * would have cost a call for every figure a program reads.
 *
 * Example: time getppid() and print the lmbench line and the JSON record
 * (cc example.c $(pkg-config --cflags --libs benchmp)).
 *
 *	#include <stdio.h>
 *	#include <stdlib.h>
 *	#include <unistd.h>
 *	#include <benchmp.h>
 *	static int
 *	bench_getppid(bm_iter_t n, void *cookie)
 *	{
 *		(void)cookie;
 *		while (n-- > 0)
 *			(void)getppid();
 *		return 0;
 *	}
 *	int
 *	main(void)
 *	{
 *		bm_bench b = { .benchmark = bench_getppid };
 *		bm_ctx *ctx;
 *		bm_options o;
 *		bm_result r;
 *		bm_record rec;
 *		char *json;
 *		int err;
 *		if ((err = bm_ctx_new(&ctx)) != 0) {
 *			fprintf(stderr, "example: %s\n", bm_strerror(err));
 *			return 1;
 *		}
 *		bm_options_init(&o);
 *		if ((err = bm_ctx_load_env(ctx)) != 0 ||
 *		    (err = bm_run(ctx, &b, &o, &r)) != 0) {
 *			fprintf(stderr, "example: %s: %s\n", bm_strerror(err),
 *			    bm_ctx_errmsg(ctx));
 *			bm_ctx_free(ctx);
 *			return 1;
 *		}
 *		if (bm_record_latency(&rec, "example", "getppid", "us", &r) == 0 &&
 *		    bm_record_json(ctx, &rec, &json) == 0) {
 *			printf("getppid: %.4f microseconds\n", rec.value);
 *			fputs(json, stdout);
 *			free(json);
 *		}
 *		bm_result_free(&r);
 *		bm_ctx_free(ctx);
 *		return 0;
 *	}
 */
#ifndef BENCHMP_H
#define BENCHMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(BM_BUILDING_LIBRARY) && defined(__GNUC__)
#define BM_EXTERN __attribute__((visibility("default")))
#else
#define BM_EXTERN
#endif

/* A call returns 0, one of these or -errno; bm_strerror() names each. */
enum bm_error {
	BM_OK = 0, BM_EPARSE = -1001, BM_ERANGE = -1002, BM_ECONFIG = -1003,
	BM_ENOTIMER = -1004, BM_ENOTSUP = -1005, BM_ECHILD = -1006,
	BM_ETIMEDOUT = -1007, BM_EPROTO = -1008, BM_EINTR = -1009,
	BM_EBENCH = -1010, BM_ECALIB = -1011, BM_ERANK = -1012,
	BM_EOVERHEAD = -1013, BM_ENOTIME = -1014
};

/* Name an error code returned by any bm_ function. */
BM_EXTERN const char *bm_strerror(int err);
/* The library's version string, e.g. "0.1.0". */
BM_EXTERN const char *bm_version(void);
typedef uint64_t bm_iter_t;	/* iteration counts */

/* The context: timer, calibration, placement, settings, last error. */
typedef struct bm_ctx bm_ctx;
/* Create a context with the default timer; calibration is deferred. */
BM_EXTERN int bm_ctx_new(bm_ctx **ctxp);
/* Release a context. */
BM_EXTERN void bm_ctx_free(bm_ctx *ctx);
/* The detail of the last error on this context ("" when there is none). */
BM_EXTERN const char *bm_ctx_errmsg(const bm_ctx *ctx);
/* Apply ENOUGH, TIMING_O, LOOP_O and BENCHMP_*; an error names a bad one. */
BM_EXTERN int bm_ctx_load_env(bm_ctx *ctx);
/* After BM_EINTR: the signal that interrupted the run. */
BM_EXTERN int bm_ctx_signal(const bm_ctx *ctx);

/* A callback doing its part n times; 0 or a negative error. */
typedef int (*bm_fn)(bm_iter_t n, void *cookie);
/* A benchmark: initialize once per worker (or NULL), benchmark, cleanup. */
typedef struct bm_bench {
	bm_fn initialize, benchmark, cleanup;
	void *cookie;
	uint64_t reserved[4];
} bm_bench;

/* How to run a benchmark; start from bm_options_init(). */
typedef struct bm_options {
	uint64_t enough_us;	/* interval floor; 0: the calibrated one */
	unsigned parallel;	/* worker processes, >= 1 */
	uint64_t warmup_us;	/* all workers run untimed this long first */
	unsigned repetitions;	/* timed intervals per worker, >= 1 */
	uint64_t timeout_us;	/* bound on each wait; 0: derived */
	unsigned percentiles;	/* single operations timed, into op_ns */
	unsigned processes, max_processes;	/* rounds: least, most */
	double precision;	/* the interval's wanted half-width */
	uint64_t max_time_us;	/* no round started past it; 0: none */
	uint64_t later_warmup_us;	/* warmup of rounds after the first */
	uint64_t reserved[8];
} bm_options;

#define BM_DEFAULT_REPETITIONS 11
#define BM_DEFAULT_PROCESSES 5
#define BM_DEFAULT_PRECISION 0.01
#define BM_MAX_EVENTS 8
#define BM_MAX_MODES 2
/* Fill options with the defaults (parallel 1, 11 repetitions, 5 rounds). */
BM_EXTERN void bm_options_init(bm_options *o);

/* One accepted timing interval of one worker. */
typedef struct bm_sample {
	double ns;		/* interval length, overheads subtracted */
	uint64_t n;		/* operations in the interval */
	double cycles;		/* cycles in the interval, or NAN */
	unsigned worker;	/* which worker */
	double events[BM_MAX_EVENTS];	/* counts in the interval, or NAN */
	unsigned process;	/* which round of fresh workers, from 0 */
	double wait_ns, lost_ns;	/* run-queue wait (and partners'), lost */
	unsigned ivcsw, flags;	/* involuntary switches, BM_SAMPLE_* */
	uint64_t reserved[4];
} bm_sample;
/* A sample's flags: it ran on two CPUs; disturbed, kept at the redo bound. */
enum { BM_SAMPLE_MIGRATED = 1u << 0, BM_SAMPLE_DISTURBED = 1u << 1 };

/* What the machine did to a run, summed over workers and rounds. */
typedef struct bm_interference {
	int accounted, off;	/* 1: on and readable; 1: off by the setting */
	uint64_t intervals, disturbed, discarded;	/* timed, judged, redone */
	unsigned bound_hit;	/* workers that reached the redo bound */
	double discarded_s, wait_s, lost_s;	/* redone; kept: waited, lost */
	uint64_t ivcsw, migrated;	/* kept: switches, CPU changes */
	double steal_s, timed_s;	/* hypervisor steal, timed wall time */
	uint64_t stopped;	/* intervals that spanned a stop, run again */
	uint64_t reserved[4];
} bm_interference;

/* Whether a cgroup CPU quota throttled the run (its figures too slow). */
typedef struct bm_throttle {
	int known;		/* 1: cpu.stat had the counts, both times */
	uint64_t nr_throttled;	/* periods throttled during the run */
	double throttled_s, quota_cpus;	/* time throttled; tightest quota */
	uint64_t reserved[4];
} bm_throttle;

/* One requested event and whether it was counted. */
typedef struct bm_event_info {
	char name[24];
	int status;		/* 0: counted; else why not (BM_ENOTSUP...) */
	char detail[80];	/* why it is not supported */
	uint64_t reserved[4];
} bm_event_info;

/* One mode of a figure's process-level values. */
typedef struct bm_mode {
	double centre, share;	/* the mode's median, its part 0 to 1 */
	unsigned count;		/* how many values (rounds) it holds */
	uint64_t reserved[2];
} bm_mode;

/* Robust statistics of a sample of values (benchmp/stats.h computes them). */
typedef struct bm_stats {
	size_t count;
	double median, min, max, mean;
	double stddev, cv;	/* sample standard deviation, stddev / mean */
	double ci_lo, ci_hi;	/* confidence interval of the median */
	double mad;		/* median absolute deviation */
	unsigned flags;		/* BM_STATS_* */
	double ci_level;	/* the interval's exact coverage, 0 to 1 */
	unsigned nmodes;	/* 2 with BM_STATS_BIMODAL, else 0 */
	bm_mode modes[BM_MAX_MODES];	/* lower first */
	uint64_t reserved[4];
} bm_stats;
/* Statistics' flags: the interval is wide; the values form two clusters. */
enum { BM_STATS_NOISY = 1u << 0, BM_STATS_BIMODAL = 1u << 1 };

/* Everything a run produced; per_op_ns is over the rounds' medians. */
typedef struct bm_result {
	bm_stats per_op_ns;	/* over the rounds: ns per operation */
	double ops_per_s;	/* median over rounds of workers' summed rate */
	double cycles_per_op;	/* median of the rounds' medians, or NAN */
	bm_sample *samples;	/* processes * parallel * repetitions */
	size_t nsamples;
	unsigned parallel, repetitions;
	uint64_t warmup_us, enough_us;	/* enough: the interval used */
	double wall_s;		/* the whole run, fork to reap */
	size_t nevents;		/* events requested */
	bm_event_info events[BM_MAX_EVENTS];
	double event_per_op[BM_MAX_EVENTS];	/* median, or NAN */
	double *op_ns;		/* single operations' times, sorted */
	size_t nop;
	unsigned processes;	/* rounds of fresh workers that ran */
	double *process_ns;	/* each round's median ns per operation */
	bm_stats within;	/* inside processes */
	double op_mean_ns, op_var_ns;	/* single operations (variance n - 1) */
	double *op_cycles;	/* their cycles, sorted, or NULL */
	double op_mean_cycles, op_var_cycles;
	bm_interference interference;
	int budget_hit;		/* 1: max_time_us stopped wanted rounds */
	bm_throttle throttle;
	double *process_ops_per_s;	/* each round's summed rate */
	uint64_t later_warmup_us;
	uint64_t reserved[8];
} bm_result;

/*
 * Run a benchmark in rounds of o->parallel fresh worker processes,
 * calibrating first if needed; a failure's detail is in bm_ctx_errmsg().
 */
BM_EXTERN int bm_run(bm_ctx *ctx, const bm_bench *b, const bm_options *o,
    bm_result *res);
/* Release the samples of a result. */
BM_EXTERN void bm_result_free(bm_result *res);

/* A parameter or a measured value of a record: a string or a number. */
typedef struct bm_param {
	const char *key, *str;	/* key not NULL; str: a string, NULL for num */
	double num;
	uint64_t reserved[2];
} bm_param;

/* Which way a figure is better; BM_BETTER_AUTO derives it from the metric. */
typedef enum bm_better {	/* NONE: not judged (a size, a count) */
	BM_BETTER_AUTO = 0, BM_BETTER_LOWER, BM_BETTER_HIGHER, BM_BETTER_NONE
} bm_better;

/* One result as a record: a line of JSON Lines. */
typedef struct bm_record {
	const char *tool, *case_name;	/* "lat_syscall", "null" */
	const bm_param *params;	/* inputs */
	size_t nparams;
	const char *metric, *unit;	/* "latency", "us" */
	double value;		/* the figure the classic line prints */
	double scale;		/* inverse 0: x = ns * scale - offset */
	int inverse;		/* inverse 1: x = scale / ns */
	const bm_result *result;
	double offset;		/* a cost measured apart, per operation */
	bm_better better;
	const bm_param *measured;	/* what the run found besides value */
	size_t nmeasured;
	int agreement;		/* BM_AGREEMENT_*, set by benchmp/figures.h */
	const double *answers;	/* each process's answer */
	size_t nanswers;
	const struct bm_contradiction *contradicts;	/* stands against */
	size_t ncontradicts;
	uint64_t reserved[8];
} bm_record;

/*
 * A latency record: zero rec, fill it with the time per operation in
 * unit (ns, us, ms, s), the best process's or else the median; 0 or -EINVAL.
 */
BM_EXTERN int bm_record_latency(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r);
/* A bandwidth in MB/s of bytes per operation, summed over workers. */
BM_EXTERN int bm_record_bandwidth(bm_record *rec, const char *tool,
    const char *case_name, const bm_result *r, double bytes);
/* A rate in unit ("ops/s", "files/s") of items per operation, as above. */
BM_EXTERN int bm_record_rate(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r,
    double items);
/* Format a record as one line of JSON (with '\n'); free() the string. */
BM_EXTERN int bm_record_json(const bm_ctx *ctx, const bm_record *rec,
    char **out);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_H */
