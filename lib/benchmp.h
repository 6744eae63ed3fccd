/* benchmp.h: the public API of libbenchmp, an lmbench-style benchmark engine. */
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

/*
 * Errors.  Every function that can fail returns 0 on success or a negative
 * code: either one of these, or a system error as -errno.  bm_strerror()
 * names both kinds.
 */
enum bm_error {
	BM_OK = 0,
	BM_EPARSE = -1001,	/* a value is malformed */
	BM_ERANGE = -1002,	/* a value is out of its range */
	BM_ECONFIG = -1003,	/* an unknown word in a config string */
	BM_ENOTIMER = -1004,	/* no listed subtimer initialised */
	BM_ENOTSUP = -1005,	/* not supported on this machine */
	BM_ECHILD = -1006,	/* a worker process died */
	BM_ETIMEDOUT = -1007,	/* a worker did not answer in time */
	BM_EPROTO = -1008,	/* a worker sent a malformed record */
	BM_EINTR = -1009,	/* the run was interrupted by a signal */
	BM_EBENCH = -1010,	/* a benchmark callback reported failure */
	BM_ECALIB = -1011,	/* calibration failed */
	BM_ERANK = -1012,	/* this or another MPI rank failed */
	BM_EOVERHEAD = -1013,	/* the overheads swallow the measurement */
	BM_ENOTIME = -1014	/* the benchmark takes no measurable time */
};

/* Name an error code returned by any bm_ function. */
BM_EXTERN const char *bm_strerror(int err);

/* The library's version string, e.g. "0.1.0". */
BM_EXTERN const char *bm_version(void);

/* Iteration counts. */
typedef uint64_t bm_iter_t;

/*
 * Parsers for numbers a user types, with full checking: no sign, no
 * trailing garbage, no overflow.  They return 0, BM_EPARSE or BM_ERANGE.
 */

/* Parse a size with an optional k/m/g suffix (powers of 1024, as lmbench). */
BM_EXTERN int bm_parse_size(const char *s, uint64_t *out);
/* Parse an unsigned decimal integer within [min, max]. */
BM_EXTERN int bm_parse_uint(const char *s, uint64_t min, uint64_t max,
    uint64_t *out);
/* Parse a finite decimal number within [min, max]. */
BM_EXTERN int bm_parse_double(const char *s, double min, double max,
    double *out);

/*
 * Timers.  A timer is a clock subtimer (passage of time) and an optional
 * cycle subtimer, chosen by a config string such as
 * "clock=posix-monotonic-raw,posix-monotonic cycle=x86-rdtscp,null".
 */
enum bm_subtimer_kind {
	BM_SUBTIMER_CLOCK = 0,
	BM_SUBTIMER_CYCLE = 1
};

/* What bm_timer_list() says of one subtimer. */
typedef struct bm_subtimer_info {
	const char *name;	/* e.g. "posix-monotonic" */
	int kind;		/* enum bm_subtimer_kind */
	int status;		/* 0 when it initialises here, else an error */
	char detail[96];	/* why it does not work, or what it reads */
} bm_subtimer_info;

/* Fill up to max entries describing every subtimer; *count gets the total. */
BM_EXTERN int bm_timer_list(bm_subtimer_info *out, size_t max, size_t *count);
/* Return 1 when a config string contains the word "list", else 0. */
BM_EXTERN int bm_timer_config_wants_list(const char *config);
/*
 * Print bm_timer_list() to standard output, one subtimer a line ("clock
 * posix-monotonic ok: ..."), as mLib's "list" word does; what
 * bm_ctx_set_timer() does with a config holding "list".  0, or -errno
 * when standard output cannot take it (-ENOSPC on a full disk).
 */
BM_EXTERN int bm_timer_list_print(void);

/*
 * A subtimer a program provides (after mLib's bench_timerops): init()
 * prepares it, returning 0 or a negative error with the reason written to
 * detail (then the next subtimer of the config list is tried); now()
 * reads nanoseconds (a clock) or a count (a cycle counter);
 * after_fork() reopens per-process resources in a forked worker and
 * fini() releases them (both may be NULL).  The callbacks must be safe
 * to call in forked workers.
 */
typedef struct bm_subtimer_class {
	const char *name;	/* the name a config string uses */
	int kind;		/* enum bm_subtimer_kind */
	int (*init)(void **priv, char *detail, size_t len);
	uint64_t (*now)(void *priv);
	int (*after_fork)(void *priv);
	void (*fini)(void *priv);
	/*
	 * BM_SUBTIMER_CONSTANT_RATE (cycle counters only): it counts at a
	 * rate that does not follow the core's frequency, as an invariant
	 * TSC does, so the library measures that rate and converts its
	 * counts to time (bm_ctx_cycle_hz).  0: counts are not converted.
	 */
	unsigned flags;
} bm_subtimer_class;

/* Flags of a bm_subtimer_class. */
enum {
	BM_SUBTIMER_CONSTANT_RATE = 1u << 0
};

#define BM_MAX_REGISTERED_TIMERS 16
#define BM_TIMER_NAME_MAX 32

/*
 * Add a subtimer to the process's registry so that a config string
 * ("clock=NAME" or "cycle=NAME", --timer, BENCHMP_TIMER) can choose it
 * and bm_timer_list() lists it.  The class is copied (its name too).
 * Not thread-safe: register before creating contexts.  0, -EINVAL (a NULL
 * class, name or callback), BM_ERANGE (unknown kind, empty name or one of
 * BM_TIMER_NAME_MAX bytes or more), BM_EPARSE (a character other than
 * letters, digits, '-', '_' and '.'), BM_ECONFIG (the name "list"),
 * -EEXIST (a name already known) or -ENOSPC (BM_MAX_REGISTERED_TIMERS
 * added already); -EINVAL too for flags unknown, or CONSTANT_RATE on a
 * clock.
 */
BM_EXTERN int bm_timer_register(const bm_subtimer_class *c);

/*
 * The context: a timer, the calibration, the worker placement policy and
 * the detail of the last error.  One per process is the usual use.
 */
typedef struct bm_ctx bm_ctx;
/* Where records go: see bm_sink_open(). */
typedef struct bm_sink bm_sink;

/* Create a context with the default timer; calibration is deferred. */
BM_EXTERN int bm_ctx_new(bm_ctx **ctxp);
/* Release a context. */
BM_EXTERN void bm_ctx_free(bm_ctx *ctx);
/* The detail of the last error on this context ("" when there is none). */
BM_EXTERN const char *bm_ctx_errmsg(const bm_ctx *ctx);
/*
 * Choose the timer from a config string; NULL or "" keeps the current
 * one.  The word "list" prints the subtimers (bm_timer_list_print()) as
 * mLib's bench(3) does; with no clock= or cycle= word beside it the
 * timer stays as it was.
 */
BM_EXTERN int bm_ctx_set_timer(bm_ctx *ctx, const char *config);

/* A reading of a context's timer (after mLib's struct bench_time). */
typedef struct bm_time {
	unsigned flags;		/* BM_TIME_OK, BM_TIME_CYCLES_OK */
	uint64_t ns;		/* the clock subtimer, in ns */
	uint64_t cycles;	/* the cycle subtimer's count */
} bm_time;

enum {
	BM_TIME_OK = 1u << 0,		/* ns is valid */
	BM_TIME_CYCLES_OK = 1u << 1	/* cycles is valid */
};

/*
 * Read the context's timer now, as its intervals read it: the clock
 * subtimer, and the cycle subtimer when there is one that counts
 * (otherwise cycles is 0 without BM_TIME_CYCLES_OK).  Neither has a
 * defined origin: subtract two readings.  0 or -EINVAL.
 */
BM_EXTERN int bm_timer_now(const bm_ctx *ctx, bm_time *t);
/* The name of the active clock or cycle subtimer. */
BM_EXTERN const char *bm_ctx_timer_name(const bm_ctx *ctx, int kind);
/* Choose the worker placement policy: default, single, unique, list:CPUS. */
BM_EXTERN int bm_ctx_set_sched(bm_ctx *ctx, const char *policy);
/*
 * Run every benchmark in at least min and at most max rounds of fresh
 * worker processes (max 0: as many as min), whatever bm_options says:
 * the environment's BENCHMP_PROCESSES and a tool's --processes come here.
 * Out of range (min 1 to BM_MAX_PROCESSES, max 0 or min to
 * BM_MAX_PROCESSES) is BM_ERANGE.
 */
BM_EXTERN int bm_ctx_set_processes(bm_ctx *ctx, unsigned min, unsigned max);
/*
 * Interference accounting on (1, the default) or off (0): with it on,
 * each worker reads its run-queue wait, CPU time, involuntary switches
 * and CPU before and after every timed interval (outside it), discards a
 * disturbed interval and runs it again, up to as many again as it keeps;
 * bm_result's interference says what it saw.  BENCHMP_INTERFERENCE
 * (on/off, 1/0) sets it from the environment.
 */
BM_EXTERN int bm_ctx_set_interference(bm_ctx *ctx, int on);
/*
 * The precision a figure is held to: it is flagged noisy when the
 * interval its record shows reaches further than share of it on either
 * side (default 0.03).  Out of range (0.001 to 1) is BM_ERANGE.
 */
BM_EXTERN int bm_ctx_set_precision(bm_ctx *ctx, double share);
/*
 * Parse "MIN" or "MIN:MAX" as bm_ctx_set_processes() takes it; 0,
 * BM_EPARSE or BM_ERANGE.
 */
BM_EXTERN int bm_parse_processes(const char *s, unsigned *min, unsigned *max);
/*
 * Read BENCHMP_TIMER, BENCHMP_SCHED, BENCHMP_PROCESSES, BENCHMP_EVENTS,
 * BENCHMP_OUTPUT, BENCHMP_REGIONS, BENCHMP_TSC_HZ, BENCHMP_INTERFERENCE,
 * ENOUGH, TIMING_O and
 * LOOP_O: bm_ctx_configure() with no
 * program defaults and no command line.  A malformed or out-of-range
 * value is an error whose detail names the variable; nothing is silently
 * ignored.
 */
BM_EXTERN int bm_ctx_load_env(bm_ctx *ctx);

/* Where a setting's value came from, lowest precedence first. */
enum {
	BM_SOURCE_BUILTIN = 0,	/* the library's default or measurement */
	BM_SOURCE_TOOL,		/* the program's own default */
	BM_SOURCE_ENV,		/* the environment (or bm_ctx_set_calibration) */
	BM_SOURCE_CMDLINE	/* the command line (or a bm_ctx_set_* call) */
};

/* The settings a context keeps the source of. */
enum {
	BM_SETTING_TIMER,	/* BENCHMP_TIMER, --timer */
	BM_SETTING_ENOUGH,	/* ENOUGH */
	BM_SETTING_TIMING_O,	/* TIMING_O */
	BM_SETTING_LOOP_O,	/* LOOP_O */
	BM_SETTING_SCHED,	/* BENCHMP_SCHED, LMBENCH_SCHED */
	BM_SETTING_PROCESSES,	/* BENCHMP_PROCESSES, --processes */
	BM_SETTING_EVENTS,	/* BENCHMP_EVENTS, --events */
	BM_SETTING_OUTPUT,	/* BENCHMP_OUTPUT, --output */
	BM_SETTING_REGIONS,	/* BENCHMP_REGIONS, bm_ctx_set_regions */
	BM_SETTING_TSC_HZ,	/* BENCHMP_TSC_HZ, bm_ctx_set_cycle_hz */
	BM_SETTING_INTERFERENCE,	/* BENCHMP_INTERFERENCE, --no-interference */
	BM_NSETTINGS
};

/*
 * A program's defaults and its command line, for bm_ctx_configure().
 * NULL (0 for a number) means not given.  The command-line strings are
 * named in errors as the options --timer, --enough, --output, --events
 * and --processes; an empty one is an error, as typed.
 */
typedef struct bm_settings {
	const char *timer_default;	/* the program's timer config */
	uint64_t enough_default_us;	/* the program's ENOUGH */
	const char *output_default;	/* the program's sink spec */
	const char *timer;		/* --timer=CONFIG */
	const char *enough;		/* --enough=US */
	const char *output;		/* --output=SINK */
	const char *events;		/* --events=LIST */
	const char *processes;		/* --processes=MIN[:MAX] */
	const char *interference;	/* "on" or "off" (--no-interference) */
} bm_settings;

/*
 * Resolve every setting from its sources, built-in default < the
 * program's default < environment < command line, and remember each
 * one's source.  Every value of every source is checked before anything
 * is applied, so an error leaves the context as it was; the timer is
 * built once, from the winning source.  BENCHMP_TIMER containing the word
 * "list" is refused (BM_ECONFIG) unless the command line names a timer.
 * s NULL: the environment alone, as bm_ctx_load_env().
 */
BM_EXTERN int bm_ctx_configure(bm_ctx *ctx, const bm_settings *s);
/* The source of a setting (BM_SOURCE_*), or -EINVAL. */
BM_EXTERN int bm_ctx_source(const bm_ctx *ctx, unsigned setting);
/* "builtin", "tool", "env" or "cmdline"; NULL for another value. */
BM_EXTERN const char *bm_source_name(int source);
/* The sink spec chosen by bm_ctx_configure(), or NULL for none (stdout). */
BM_EXTERN const char *bm_ctx_output(const bm_ctx *ctx);

/*
 * Counters: perf_event events counted with every interval, chosen by name
 * from a comma-separated list: cycles, instructions, cache-references,
 * cache-misses, branch-misses, task-clock, page-faults, context-switches,
 * cpu-migrations, or rNNNN (a raw hexadecimal event code).  An unknown
 * name is BM_ECONFIG; an event this machine cannot count is kept and
 * reported as not supported while the run goes on.  BENCHMP_EVENTS is
 * read by bm_ctx_load_env().
 */
#define BM_MAX_EVENTS 8

BM_EXTERN int bm_ctx_set_events(bm_ctx *ctx, const char *list);

/* Calibration values: microseconds, as lmbench's timing(3). */
enum {
	BM_CAL_ENOUGH = 1u << 0,	/* enough came from ENOUGH */
	BM_CAL_TIMING_O = 1u << 1,	/* timing_o came from TIMING_O */
	BM_CAL_LOOP_O = 1u << 2		/* loop_o came from LOOP_O */
};

typedef struct bm_calibration {
	uint64_t enough_us;	/* shortest trustworthy interval */
	double timing_o_us;	/* cost of one start+stop of the clock */
	double loop_o_us;	/* cost of one empty loop iteration */
	unsigned from_env;	/* BM_CAL_* bits */
	double seconds;		/* how long measuring took */
	/*
	 * With a cycle subtimer (NAN without one): the cycles counted by one
	 * start+stop of an interval around an empty call, and by one empty
	 * loop iteration, subtracted from every interval's cycles as
	 * timing_o and loop_o are from its time.  Always measured.
	 */
	double cycle_o;
	double loop_o_cycles;
	/*
	 * What the measurement met: probes judged disturbed by the
	 * interference accounting (preempted, stopped, stolen, migrated)
	 * and measured again, and settled 0 when a value had to be taken
	 * from a disturbed probe or enough was given up on at the time
	 * bound: then the values are the best that could be had, not clean
	 * ones, and exporting them is not advised.
	 */
	unsigned disturbed;
	int settled;
} bm_calibration;

/* Set one calibration value by hand, as the environment would. */
BM_EXTERN int bm_ctx_set_calibration(bm_ctx *ctx, unsigned which,
    double value);
/*
 * A program's own value for one calibration value, used unless the
 * environment (or bm_ctx_set_calibration) gave one: the record does not
 * count it as from the environment.  0, -EINVAL or BM_ERANGE.
 */
BM_EXTERN int bm_ctx_default_calibration(bm_ctx *ctx, unsigned which,
    double value);
/*
 * A program's value for one calibration value that holds whatever the
 * environment or the command line say, because its measurement's
 * definition needs it (the memory chase subtracts no loop overhead): the
 * source is the program's, not the environment's.  0, -EINVAL or
 * BM_ERANGE.
 */
BM_EXTERN int bm_ctx_force_calibration(bm_ctx *ctx, unsigned which,
    double value);
/* Calibrate what is not yet known (once per context) and report it. */
BM_EXTERN int bm_calibrate(bm_ctx *ctx, bm_calibration *out);

/*
 * The cycle subtimer's rate, to turn its counts into time.  Only a
 * counter that ticks at a constant rate has one: the x86 TSC when it is
 * invariant (CPUID 0x80000007 EDX bit 8, or constant_tsc and nonstop_tsc
 * in /proc/cpuinfo) and a registered BM_SUBTIMER_CONSTANT_RATE counter;
 * core cycles (linux-perf-event) follow the core's frequency and null
 * counts nothing.  The rate is measured once per context and timer
 * (against CLOCK_MONOTONIC, the median of a few windows of 5 ms, about
 * 25 ms in all; bm_calibrate() does it too), unless BENCHMP_TSC_HZ or
 * bm_ctx_set_cycle_hz() gives it.  0 with *hz; BM_ENOTSUP when the
 * counter has no constant rate (*invariant -1: not a reference counter,
 * 0: a TSC that is not invariant); BM_ECALIB when the measurement failed
 * (the counter stood still or ran backwards, or the machine was too busy
 * for a clean window).  The detail is on ctx; *hz is NAN then.
 * invariant may be NULL.
 */
BM_EXTERN int bm_ctx_cycle_hz(bm_ctx *ctx, double *hz, int *invariant);
/*
 * Give the cycle subtimer's rate, as BENCHMP_TSC_HZ would but over it
 * (source cmdline), so that no measurement runs; 0 forgets it (measured
 * again when needed).  Out of BM_CYCLE_HZ_MIN to BM_CYCLE_HZ_MAX is
 * BM_ERANGE.  A counter without a constant rate still converts nothing.
 */
BM_EXTERN int bm_ctx_set_cycle_hz(bm_ctx *ctx, double hz);
#define BM_CYCLE_HZ_MIN 1e6	/* 1 MHz */
#define BM_CYCLE_HZ_MAX 1e11	/* 100 GHz */

/*
 * A benchmark: initialize(n, cookie) once per worker, benchmark(n, cookie)
 * to do the operation n times, cleanup(n, cookie) at the end.  Each returns
 * 0 or a negative error; initialize and cleanup may be NULL.
 */
typedef int (*bm_fn)(bm_iter_t n, void *cookie);

typedef struct bm_bench {
	bm_fn initialize;
	bm_fn benchmark;
	bm_fn cleanup;
	void *cookie;
} bm_bench;

/* How to run a benchmark. */
typedef struct bm_options {
	uint64_t enough_us;	/* interval floor; 0: the calibrated one */
	unsigned parallel;	/* worker processes, >= 1 */
	uint64_t warmup_us;	/* all workers run untimed this long first */
	unsigned repetitions;	/* timed intervals per worker, >= 1 */
	uint64_t timeout_us;	/* bound on each wait; 0: derived */
	/*
	 * With percentiles > 0, each worker slot also times that many single
	 * operations one by one after its intervals, shared out over the
	 * first processes rounds (at most 2 s of them per round),
	 * subtracting the measured cost of an empty measurement; the
	 * times land in bm_result's op_ns.  Not for benchmarks that call
	 * bm_interval() themselves.
	 */
	unsigned percentiles;
	/*
	 * Rounds: the whole protocol (fork, initialize, first pass, warmup,
	 * intervals, record, exit) runs at least processes times (0: the
	 * default, BM_DEFAULT_PROCESSES), each time in fresh workers, so the
	 * figure's interval covers what differs between processes (CPUs,
	 * physical pages, partners).  After that minimum, rounds are added
	 * while the interval's relative half-width (the record's, with its
	 * 0.5% floor) exceeds precision (0: BM_DEFAULT_PRECISION) and fewer than max_processes have run (0: as
	 * many as processes, that is no adaptive rounds).  A context's
	 * bm_ctx_set_processes() overrides both counts.
	 */
	unsigned processes;
	unsigned max_processes;
	double precision;
	/*
	 * A bound on the run's wall time (0: none): no round is started
	 * that the rounds so far say would end past it, even below the
	 * minimum count (the first round always runs); bm_result's
	 * budget_hit then says the run was cut short.
	 */
	uint64_t max_time_us;
	/*
	 * The warmup of every round after the first, when nonzero and
	 * shorter than warmup_us (0: warmup_us, as the first).  The first
	 * round's warmup brings the machine to the state the figure
	 * measures; a later round's fresh workers still need their page
	 * faults, caches and predictors warm, which takes milliseconds.
	 */
	uint64_t later_warmup_us;
} bm_options;

#define BM_MAX_PERCENTILE_OPS 1000000

#define BM_DEFAULT_REPETITIONS 11
#define BM_MAX_PARALLEL 4096
#define BM_MAX_REPETITIONS 100000
#define BM_DEFAULT_PROCESSES 5
#define BM_MAX_PROCESSES 100
#define BM_DEFAULT_PRECISION 0.01

/*
 * Fill options with the defaults (parallel 1, warmup 0, 11 repetitions,
 * the default number of rounds).
 */
BM_EXTERN void bm_options_init(bm_options *o);
/*
 * The number of CPUs this process may run on (its affinity mask, or the
 * CPUs online when the mask cannot be read); at least 1.  bm_run() makes
 * intervals longer when the workers outnumber them.
 */
BM_EXTERN unsigned bm_cpus_allowed(void);

/* One accepted timing interval of one worker. */
typedef struct bm_sample {
	double ns;		/* interval length, overheads subtracted */
	uint64_t n;		/* operations in the interval */
	double cycles;		/* cycles in the interval, or NAN */
	unsigned worker;	/* which worker */
	double events[BM_MAX_EVENTS];	/* counts in the interval, or NAN */
	unsigned process;	/* which round of fresh workers, from 0 */
	/*
	 * Interference accounting (0 when it was off): run-queue wait of
	 * the worker and its watched partners during the interval, time
	 * lost (neither running nor waiting: blocked, stopped, stolen),
	 * involuntary switches, and BM_SAMPLE_* flags.
	 */
	double wait_ns;
	double lost_ns;
	unsigned ivcsw;
	unsigned flags;
} bm_sample;

enum {
	BM_SAMPLE_MIGRATED = 1u << 0,	/* ran on two CPUs */
	BM_SAMPLE_DISTURBED = 1u << 1	/* disturbed, kept: bound reached */
};

/*
 * What the machine did to a run (bm_result's interference): with the
 * accounting on (see bm_ctx_set_interference), every worker judges each
 * timed interval and runs a disturbed one again, up to as many again as
 * it keeps; the counts are summed over workers and rounds.
 */
typedef struct bm_interference {
	int accounted;		/* 1: on and readable; 0: off or unsupported */
	int off;		/* 1: turned off by the setting */
	uint64_t intervals;	/* timed intervals run, kept or not */
	uint64_t disturbed;	/* of them judged disturbed */
	uint64_t discarded;	/* of those, thrown away and run again */
	unsigned bound_hit;	/* workers that reached the bound */
	double discarded_s;	/* time spent in discarded intervals */
	double wait_s;		/* run-queue wait in the kept intervals */
	double lost_s;		/* lost time in the kept intervals */
	uint64_t ivcsw;		/* involuntary switches in kept intervals */
	uint64_t migrated;	/* kept intervals that changed CPU */
	double steal_s;		/* hypervisor steal, all CPUs, timing phases */
	double timed_s;		/* the timing phases' wall time, summed */
	/*
	 * Timed intervals that spanned a stop (job control) and were run
	 * again, with the accounting on or off; their time is in
	 * discarded_s when it is on.
	 */
	uint64_t stopped;
} bm_interference;

/*
 * Whether a CPU quota throttled the run (bm_result's throttle): the
 * kernel's counts in the cpu.stat of the process's cgroup and of its
 * ancestors (cgroup v2 or v1), read before the calibration and after the
 * last round.  Throttled time is time off every CPU inside the timed
 * intervals: a throttled run's figures are too slow.
 */
typedef struct bm_throttle {
	int known;		/* 1: cpu.stat had the counts, both times */
	uint64_t nr_throttled;	/* periods throttled during the run */
	double throttled_s;	/* time throttled during the run */
	double quota_cpus;	/* the tightest quota on the path, 0: none */
} bm_throttle;

/* One requested event and whether it was counted. */
typedef struct bm_event_info {
	char name[24];
	int status;		/* 0: counted; else why not (BM_ENOTSUP...) */
	char detail[80];	/* why it is not supported */
} bm_event_info;

/* One mode of a figure's process-level values (see bm_stats_levels). */
typedef struct bm_mode {
	double centre;		/* the median of the mode's values */
	double share;		/* its part of the values, 0 to 1 */
	unsigned count;		/* how many values (rounds) it holds */
} bm_mode;

#define BM_MAX_MODES 2

/* Robust statistics of a sample of values. */
typedef struct bm_stats {
	size_t count;
	double median;
	double min;
	double max;
	double mean;
	double stddev;		/* sample standard deviation */
	double cv;		/* stddev / mean */
	double ci_lo;		/* confidence interval of the median */
	double ci_hi;
	double mad;		/* median absolute deviation */
	unsigned flags;		/* BM_STATS_* */
	double ci_level;	/* the interval's exact coverage, 0 to 1 */
	/*
	 * With BM_STATS_BIMODAL from bm_stats_levels(): the two modes of the
	 * rounds' medians, lower first (nmodes 2); otherwise nmodes 0.
	 */
	unsigned nmodes;
	bm_mode modes[BM_MAX_MODES];
} bm_stats;

enum {
	BM_STATS_NOISY = 1u << 0,	/* the CI is wide relative to median */
	BM_STATS_BIMODAL = 1u << 1	/* the values form two clusters */
};

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
 * that round's statistics.  0, BM_ERANGE or -ENOMEM.
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

/*
 * Everything a run produced.  per_op_ns is at the process level: its
 * values are the rounds' medians (each the median of all intervals of that
 * round's workers), so its interval covers the scatter between processes;
 * with one round it is the statistics of that round's intervals.  within
 * describes the scatter inside processes: every interval scaled so that
 * its round's median sits on the overall median.
 */
typedef struct bm_result {
	bm_stats per_op_ns;	/* over the rounds: ns per operation */
	double ops_per_s;	/* median over rounds of workers' summed rate */
	double cycles_per_op;	/* median of the rounds' medians, or NAN */
	bm_sample *samples;	/* processes * parallel * repetitions */
	size_t nsamples;
	unsigned parallel;
	unsigned repetitions;
	uint64_t warmup_us;
	uint64_t enough_us;	/* the interval length used */
	double wall_s;		/* the whole run, fork to reap */
	size_t nevents;		/* events requested */
	bm_event_info events[BM_MAX_EVENTS];
	double event_per_op[BM_MAX_EVENTS];	/* median, or NAN */
	double *op_ns;		/* single operations' times, sorted */
	size_t nop;
	unsigned processes;	/* rounds of fresh workers that ran */
	double *process_ns;	/* each round's median ns per operation */
	bm_stats within;	/* inside processes (see above) */
	/*
	 * With nop > 0: the single operations' mean and sample variance
	 * (n - 1), as the rdtsc article computes them, in ns and ns^2; with
	 * a cycle subtimer also their counts in op_cycles (sorted apart
	 * from op_ns, nop of them; NULL without one) with mean and variance
	 * (NAN without one).
	 */
	double op_mean_ns;
	double op_var_ns;
	double *op_cycles;
	double op_mean_cycles;
	double op_var_cycles;
	bm_interference interference;
	/* 1: max_time_us stopped rounds that were wanted (see bm_options). */
	int budget_hit;
	bm_throttle throttle;
	/*
	 * Each round's summed rate of its workers (operations per second),
	 * processes of them, in round order: ops_per_s is their median.
	 */
	double *process_ops_per_s;
	/* The warmup of the rounds after the first (bm_options). */
	uint64_t later_warmup_us;
} bm_result;

/*
 * Measure another program: run argv (argv[0] found on PATH) reps times,
 * one after the other, counting the context's events in it and its
 * children (inherit, from exec on), and fill res as bm_run does: one
 * sample per run (ns, n = 1, events).  A run that exits non-zero or dies
 * is BM_EBENCH, and one that outlives timeout_us (0: ten minutes) is
 * BM_ETIMEDOUT, each with the detail on ctx; no process is left behind:
 * the command's process group and whatever it orphaned (the caller is a
 * child subreaper during the runs) are killed after each run.  SIGINT,
 * SIGTERM, SIGHUP and the other fatal signals end the runs with BM_EINTR,
 * as in bm_run().
 */
BM_EXTERN int bm_run_command(bm_ctx *ctx, char *const argv[], unsigned reps,
    uint64_t timeout_us, bm_result *res);

/* One periodic reading of a command's run (bm_run_command_every). */
typedef struct bm_reading {
	unsigned run;		/* the run, from 0 */
	unsigned index;		/* the reading in its run, from 1 */
	int last;		/* 1: the rest of the run, to the command's exit */
	double since_ns;	/* from the run's start to this reading */
	/*
	 * The interval since the previous reading (or the start) alone: one
	 * sample, its ns the interval's time and its events the counts in it
	 * (NAN for an event not counted), merged as bm_run's results are.
	 */
	const bm_result *result;
} bm_reading;

/* Called with each reading; not 0 stops the runs with that error. */
typedef int (*bm_reading_fn)(bm_ctx *ctx, const bm_reading *rd,
    void *cookie);

/*
 * As bm_run_command, and every every_us (10 ms to 1 h, else BM_ERANGE)
 * during each run, read the time and the counters without stopping them
 * and call fn, like perf stat -I; then once more at the command's exit
 * (last = 1), so that a run's readings add up to its sample (the times
 * before the clock overhead is subtracted from the sample).  every_us 0
 * takes no reading.  fn's error kills the command and ends the runs,
 * returned as it is (with its detail on ctx, or a generic one).
 */
BM_EXTERN int bm_run_command_every(bm_ctx *ctx, char *const argv[],
    unsigned reps, uint64_t timeout_us, uint64_t every_us, bm_reading_fn fn,
    void *cookie, bm_result *res);

/*
 * Regions: time and count a stretch of your own code (after ntime's
 * results).  Each start/stop pair reads the clock, the timer's cycle
 * subtimer and the context's events (one perf_event group per region),
 * and adds one sample: the differences minus what a start/stop pair
 * around nothing costs (the clock's from TIMING_O; the cycles' and
 * events' measured once, by bm_region_new()).  bm_region_result() gives
 * the statistics as a bm_result and bm_region_write() sends the
 * cumulative record through a sink.
 *
 * Regions can be switched off: at run time by BENCHMP_REGIONS=off (read
 * by bm_ctx_configure()) or bm_ctx_set_regions(), where bm_region_new()
 * then gives a NULL region and every call on it returns at once without
 * touching its result arguments; at compile time by defining
 * BM_REGIONS_OFF before including this header, where every region call
 * becomes a constant no-op that does not evaluate its arguments (only
 * bm_region_new() stores NULL in *out).
 */
typedef struct bm_region bm_region;

/* One reading of a region, or a sum or difference of readings. */
typedef struct bm_counts {
	uint64_t id;		/* the region's id when it was read */
	uint64_t count;		/* start/stop pairs it covers */
	double ns;		/* clock time, overhead subtracted */
	double cycles;		/* cycle subtimer, or NAN without one */
	size_t nevents;		/* the context's events, in its order */
	double events[BM_MAX_EVENTS];	/* counts, or NAN: not counted */
	/*
	 * When the reading was taken (its end: the stop, or the split
	 * read), after ntime's timestamps: the clock's own reading in ns
	 * (with posix-monotonic, comparable across regions and processes
	 * of the machine) and the ns since the region was created.  A sum
	 * or difference keeps the later of the two readings' times.
	 */
	uint64_t clock_ns;
	double timestamp_ns;
} bm_counts;

/* Zero a result (NAN figures become 0 too); 0 or -EINVAL. */
BM_EXTERN int bm_counts_zero(bm_counts *c);
/* Copy src to dst; 0 or -EINVAL. */
BM_EXTERN int bm_counts_copy(bm_counts *dst, const bm_counts *src);
/*
 * Add src to dst: count, ns, cycles and each event (NAN, not counted,
 * stays NAN); dst keeps its id; 0 or -EINVAL.
 */
BM_EXTERN int bm_counts_add(bm_counts *dst, const bm_counts *src);
/*
 * Subtract src from dst as bm_counts_add adds: figures may become
 * negative (a difference), the count stops at 0; 0 or -EINVAL.
 */
BM_EXTERN int bm_counts_sub(bm_counts *dst, const bm_counts *src);

/*
 * Switch regions of this context on (1) or off (0), over BENCHMP_REGIONS;
 * regions created before keep their state.  0 or -EINVAL.
 */
BM_EXTERN int bm_ctx_set_regions(bm_ctx *ctx, int on);
/* Return 1 when the context's regions are on, 0 when off. */
BM_EXTERN int bm_ctx_regions(const bm_ctx *ctx);

BM_EXTERN int bm_region_new(bm_ctx *ctx, const char *name, bm_region **out);
/* Set the region's numeric id, carried in its readings and record. */
BM_EXTERN int bm_region_set_id(bm_region *r, uint64_t id);
BM_EXTERN void bm_region_start(bm_region *r);
BM_EXTERN void bm_region_stop(bm_region *r);
/*
 * A split reading: while the region runs, its counts since start,
 * without stopping it; after a stop, the last pair's counts.  0,
 * BM_ERANGE before the first start, or -EINVAL.
 */
BM_EXTERN int bm_region_read(bm_region *r, bm_counts *out);
/* The sum of every start/stop pair so far; 0 or -EINVAL. */
BM_EXTERN int bm_region_total(const bm_region *r, bm_counts *out);
/*
 * The counting overhead bm_region_new() measured and subtracts from each
 * reading (ns is TIMING_O's); 0 or -EINVAL.
 */
BM_EXTERN int bm_region_overhead(const bm_region *r, bm_counts *out);
/*
 * Build a result of the samples so far (free it with bm_result_free);
 * BM_ENOTSUP, res untouched, for a region that is off (NULL).
 */
BM_EXTERN int bm_region_result(const bm_region *r, bm_result *res);
/*
 * Write the region's cumulative record (tool "region") to a sink; with
 * sink NULL, to the configured one (bm_ctx_output(): --output or
 * BENCHMP_OUTPUT as bm_ctx_configure() resolved it), or standard output.
 */
BM_EXTERN int bm_region_write(bm_region *r, bm_sink *sink);
/*
 * Write one reading (from bm_region_read(), a stop's, or a sum or
 * difference of them) as its own record, as ntime writes a result per
 * reading: tool "region", the region's name as case, the reading's time
 * per start/stop pair in microseconds as value, its count, id,
 * timestamp_us and clock_ns as params, its cycles and events.  The sink
 * as bm_region_write's.  0, -EINVAL (c NULL), BM_ERANGE (a count of 0,
 * or a time that is not finite) or the sink's error.
 */
BM_EXTERN int bm_region_write_counts(bm_region *r, const bm_counts *c,
    bm_sink *sink);
/*
 * The names of the region's counters, in the order of bm_counts'
 * events, joined by join (after ntime's counter names, for a header):
 * "cycles, instructions" with ", ".  An empty string without events.
 * 0, -EINVAL (join or buf NULL, len 0) or BM_ERANGE when buf is too
 * short (it then holds as much as fits, terminated).
 */
BM_EXTERN int bm_region_names(const bm_region *r, const char *join,
    char *buf, size_t len);
BM_EXTERN void bm_region_free(bm_region *r);

#if defined(BM_REGIONS_OFF) && !defined(BM_BUILDING_LIBRARY)
/*
 * Compiled out: sizeof names each argument (no unused-variable warning)
 * without evaluating it or emitting code.  A call that returns a value is
 * a statement expression, so that it may be used as a statement without
 * -Wunused-value ("right-hand operand of comma expression has no
 * effect") as well as for its value; compilers without GNU C's
 * statement expressions get the comma form.
 */
#if defined(__GNUC__) || defined(__clang__)
#define BM__OFF(expr, value) (__extension__({ expr; (value); }))
#else
#define BM__OFF(expr, value) ((expr), (value))
#endif
#define bm_region_new(ctx, name, out) \
	BM__OFF(((void)sizeof(ctx), (void)sizeof(name), *(out) = NULL), 0)
#define bm_region_set_id(r, id) \
	BM__OFF(((void)sizeof(r), (void)sizeof(id)), 0)
#define bm_region_start(r) ((void)sizeof(r))
#define bm_region_stop(r) ((void)sizeof(r))
#define bm_region_read(r, out) \
	BM__OFF(((void)sizeof(r), (void)sizeof(out)), 0)
#define bm_region_total(r, out) \
	BM__OFF(((void)sizeof(r), (void)sizeof(out)), 0)
#define bm_region_overhead(r, out) \
	BM__OFF(((void)sizeof(r), (void)sizeof(out)), 0)
#define bm_region_result(r, res) \
	BM__OFF(((void)sizeof(r), (void)sizeof(res)), BM_ENOTSUP)
#define bm_region_write(r, sink) \
	BM__OFF(((void)sizeof(r), (void)sizeof(sink)), 0)
#define bm_region_write_counts(r, c, sink) \
	BM__OFF(((void)sizeof(r), (void)sizeof(c), (void)sizeof(sink)), 0)
#define bm_region_names(r, join, buf, len) \
	BM__OFF(((void)sizeof(r), (void)sizeof(join), (void)sizeof(buf), \
	    (void)sizeof(len)), 0)
#define bm_region_free(r) ((void)sizeof(r))
#elif !defined(BM_BUILDING_LIBRARY)
/*
 * Switched off at run time, a region is NULL: the test is made here, in
 * line, so that an off start/stop pair costs two compares and no call.
 */
static inline void
bm__region_start_if(bm_region *r)
{
	if (r != NULL)
		(bm_region_start)(r);
}

static inline void
bm__region_stop_if(bm_region *r)
{
	if (r != NULL)
		(bm_region_stop)(r);
}
#define bm_region_start(r) bm__region_start_if(r)
#define bm_region_stop(r) bm__region_stop_if(r)
#endif

/* The p-th percentile (0 to 100) of sorted values, interpolated. */
BM_EXTERN double bm_percentile(const double *sorted, size_t n, double p);

/*
 * Run a benchmark in options->parallel worker processes and collect their
 * samples.  Calibrates the context first if needed.  On failure the detail
 * (which worker, which signal) is in bm_ctx_errmsg(); every worker has been
 * killed and reaped either way.
 *
 * In a library built with MPI, once the program has initialised MPI every
 * rank of MPI_COMM_WORLD must call bm_run the same number of times: the
 * ranks meet when all their workers are warm (then every rank starts its
 * intervals), when all have finished their intervals, and at the end.  A
 * failure on any rank makes bm_run fail on every rank with BM_ERANK and
 * the detail "rank N on HOST: ..." of the lowest failing rank.
 */
BM_EXTERN int bm_run(bm_ctx *ctx, const bm_bench *b, const bm_options *o,
    bm_result *res);
/* Release the samples of a result. */
BM_EXTERN void bm_result_free(bm_result *res);

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
/* After BM_EINTR: the signal that interrupted the run. */
BM_EXTERN int bm_ctx_signal(const bm_ctx *ctx);

/*
 * Inside a worker.  A benchmark whose body cannot return (for example one
 * that leaves through a signal handler) calls bm_interval() itself to end
 * one interval and learn the count for the next, as lmbench's
 * benchmp_interval().
 */
typedef struct bm_state bm_state;

/* The running worker's state, or NULL outside a worker. */
BM_EXTERN bm_state *bm_state_current(void);
/* End the current interval and return the iteration count for the next. */
BM_EXTERN bm_iter_t bm_interval(bm_state *s);
/* The index of the running worker, 0 to parallel - 1. */
BM_EXTERN unsigned bm_worker_index(const bm_state *s);
/*
 * Count another process's run-queue wait as the worker's (a partner the
 * benchmark started in initialize, whose every wakeup the figure waits
 * for): 0, BM_ERANGE beyond four partners, -EINVAL outside a worker or
 * with the accounting off, or -errno when /proc has no such process.
 */
BM_EXTERN int bm_state_watch(bm_state *s, long pid);

/*
 * Result records: one JSON object (a line of JSON Lines) per result.
 */
typedef struct bm_param {
	const char *key;
	const char *str;	/* a string value, or NULL for num */
	double num;
} bm_param;

/* Which way a figure is better; BM_BETTER_AUTO derives it from the metric. */
typedef enum bm_better {
	BM_BETTER_AUTO = 0,
	BM_BETTER_LOWER,
	BM_BETTER_HIGHER,
	BM_BETTER_NONE		/* not judged: a size, a count, a limit */
} bm_better;

/*
 * A figure that contradicts what the machine states (a cache's line or
 * size in sysfs) or a figure it must not be below (the cache level
 * before it): "contradicts" in the record.
 */
typedef struct bm_contradiction {
	const char *what;	/* "line size", "L2 latency" */
	double measured;	/* the figure, in unit */
	double machine;		/* what the machine (or the reference) says */
	const char *source;	/* "sysfs coherency_line_size" */
	const char *unit;	/* "bytes", "ns" */
} bm_contradiction;

/* Whether independent processes gave a derived figure one answer. */
typedef enum bm_agreement {
	BM_AGREEMENT_NONE = 0,	/* not judged: no "disagree" in the record */
	BM_AGREEMENT_AGREE,	/* "disagree": false */
	BM_AGREEMENT_DISAGREE	/* "disagree": true, and noisy */
} bm_agreement;

typedef struct bm_record {
	const char *tool;	/* "lat_syscall" */
	const char *case_name;	/* "null" */
	const bm_param *params;
	size_t nparams;
	const char *metric;	/* "latency" or "bandwidth" */
	const char *unit;	/* "us", "ns", "MB/s" */
	double value;		/* the figure the classic line prints */
	/*
	 * How to turn a sample's ns per operation into the unit for the
	 * record's statistics (which describe one worker's intervals): with
	 * inverse 0, x = ns * scale - offset; with inverse 1, x = scale / ns.
	 */
	double scale;
	int inverse;
	const bm_result *result;
	/* A cost measured apart and taken off every sample (inverse 0). */
	double offset;
	/* "better" in the record; AUTO: latency lower, rates higher. */
	bm_better better;
	/* What the run found besides the value ("measured"); params are inputs. */
	const bm_param *measured;
	size_t nmeasured;
	/*
	 * A derived figure's judgement (bm_record_agreement(),
	 * bm_record_contradicts()): whether its processes agreed, each
	 * process's answer ("answers"), and what it contradicts.  A
	 * disagreement or a contradiction makes the record noisy.
	 */
	bm_agreement agreement;
	const double *answers;
	size_t nanswers;
	const bm_contradiction *contradicts;
	size_t ncontradicts;
} bm_record;

/*
 * Record constructors: zero rec and fill tool, case, result, metric,
 * unit, better, value and the scaling of the samples (scale, inverse,
 * offset) consistently; the caller adds params and measured.  0, or
 * -EINVAL for a missing argument, an unknown unit or a count not above 0.
 */
/* A latency: the median time per operation in unit ("ns", "us", "ms", "s"). */
BM_EXTERN int bm_record_latency(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r);
/*
 * A latency of one of ops parts of an operation, less offset_ns (a cost
 * per operation measured apart): (median - offset_ns) / ops in unit.
 */
BM_EXTERN int bm_record_latency_per(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r, double ops,
    double offset_ns);
/*
 * A bandwidth in MB/s of bytes per operation: one worker's median, or
 * with several workers their aggregate (ops_per_s times bytes).
 */
BM_EXTERN int bm_record_bandwidth(bm_record *rec, const char *tool,
    const char *case_name, const bm_result *r, double bytes);
/* A rate in unit ("ops/s", "files/s") of items per operation, as above. */
BM_EXTERN int bm_record_rate(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r,
    double items);

/*
 * The agreement rule of a derived figure: n answers (one per independent
 * process; NAN for a process that could not tell) agree when all are
 * finite and max - min is at most tolerance times the median's magnitude
 * (0: all equal).  1 when they agree, 0 when not, BM_ERANGE for n 0,
 * -EINVAL for a NULL pointer or a tolerance below 0 or not finite; lo
 * and hi (each may be NULL) get the smallest and largest finite answer
 * (NAN when none is).
 */
BM_EXTERN int bm_agree(const double *answers, size_t n, double tolerance,
    double *lo, double *hi);
/*
 * Judge a record's figure by its processes' answers (bm_agree): sets
 * agreement and keeps answers (not copied: they must outlive the
 * record's use).  1 agree, 0 disagree, or bm_agree()'s error (then rec
 * is unchanged).
 */
BM_EXTERN int bm_record_agreement(bm_record *rec, const double *answers,
    size_t n, double tolerance);
/*
 * The contradiction rule: measured stands against machine (what the
 * machine states, or a reference figure) when it lies within
 * [machine * lo, machine * hi] (hi may be INFINITY: "not below").  When
 * it does not, c is filled (what, measured, machine, source, unit; the
 * strings not copied) and 1 is returned; 0 when it stands or machine is
 * unknown (not finite or not above 0); -EINVAL for a NULL c or what, a
 * measured value not finite, or not 0 < lo <= hi.
 */
BM_EXTERN int bm_contradiction_check(bm_contradiction *c, const char *what,
    double measured, double machine, double lo, double hi,
    const char *source, const char *unit);
/*
 * Attach n contradictions (not copied) to a record: "contradicts" in its
 * JSON, and the record is noisy when n > 0.  0, or -EINVAL for a NULL
 * rec, or c NULL with n > 0.
 */
BM_EXTERN int bm_record_contradicts(bm_record *rec,
    const bm_contradiction *c, size_t n);

/*
 * Make rec, the record of one job's figure, the record of the same figure
 * measured at the same time by n jobs (the ranks of an MPI job), whose
 * results are parts: their samples are joined into all (free it with
 * bm_result_free) and rec's value is the joined figure's median, as its
 * JSON shows it.  A bandwidth or a rate adds up: the jobs' workers are
 * joined round for round, as one run's would be with -P, so that each
 * round's figure is the sum of every worker's rate (the parts need equal
 * rounds and repetitions, else BM_ERANGE).  Any other figure does not:
 * each job's rounds are rounds of their own, the figure is the median
 * over all of them, and parallel the most workers of one job.  0,
 * -EINVAL, BM_ERANGE or -ENOMEM.
 */
BM_EXTERN int bm_record_join(bm_record *rec, bm_result *all,
    const bm_result *parts, size_t n);

/* Format a record as one line of JSON (with '\n'); free() the string. */
BM_EXTERN int bm_record_json(const bm_ctx *ctx, const bm_record *rec,
    char **out);
/*
 * The interval a record's JSON shows around its value (the next run's,
 * for a figure shown as its best process; the median's otherwise) and
 * whether it is noisy, as bm_record_json() writes them.  A figure
 * without an interval gets NAN bounds.  0 or an error.
 */
BM_EXTERN int bm_record_interval(const bm_ctx *ctx, const bm_record *rec,
    double *lo, double *hi, int *noisy);

/*
 * Sinks: where records go (after ntime's NTIME_OUTPUT).  A spec is "-"
 * (standard output), "file:PATH" (appended; each record is one write() on
 * an O_APPEND descriptor, so processes can share the file without
 * interleaving), "tcp:HOST:PORT" ("tcp:[ADDR]:PORT" for IPv6) or
 * "unix:PATH" (a stream socket to a listener, one record per line, 5 s
 * bounds on the connect and on each record) or "zmq:ENDPOINT" (a ZeroMQ
 * PUSH socket connected to ENDPOINT, when built with libzmq).
 */
/* Open a sink; an unusable one fails here, with the detail on ctx. */
BM_EXTERN int bm_sink_open(bm_ctx *ctx, const char *spec, bm_sink **out);
/* Write one record (a line of JSON) as one unit. */
BM_EXTERN int bm_sink_write(bm_ctx *ctx, bm_sink *s, const char *rec,
    size_t len);
/* Return 1 when the sink is standard output. */
BM_EXTERN int bm_sink_is_stdout(const bm_sink *s);
/* Flush and close a sink (bounded wait for zmq); 0 or an error. */
BM_EXTERN int bm_sink_close(bm_ctx *ctx, bm_sink *s);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_H */
