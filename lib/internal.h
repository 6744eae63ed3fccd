/* internal.h: declarations shared between library files, never installed. */
#ifndef BM_INTERNAL_H
#define BM_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "benchmp.h"
#include "benchmp/calibration.h"
#include "benchmp/command.h"
#include "benchmp/counters.h"
#include "benchmp/figures.h"
#include "benchmp/measure.h"
#include "benchmp/regions.h"
#include "benchmp/settings.h"
#include "benchmp/sinks.h"
#include "benchmp/stats.h"
#include "benchmp/timers.h"
#include "benchmp/worker.h"

/* Flags of a subtimer backend. */
enum {
	BM__ST_NODATA = 1u << 0	/* initialises but reports nothing (null) */
};

/*
 * One subtimer backend, defined in its own file (timer-*.c, cycle-*.c).
 * init() returns 0 or an error and writes why into detail; now() reads
 * nanoseconds (clocks) or a count (cycle counters); after_fork() reopens
 * per-process resources in a freshly forked worker.
 */
typedef struct bm__subtimer_ops {
	const char *name;
	int kind;			/* enum bm_subtimer_kind */
	unsigned flags;			/* BM__ST_* */
	const char *what;		/* one line: what it reads */
	int (*init)(void **priv, char *detail, size_t len);
	uint64_t (*now)(void *priv);
	int (*after_fork)(void *priv);	/* may be NULL */
	void (*fini)(void *priv);	/* may be NULL */
	/*
	 * A cycle counter that may tick at a constant rate: 1 when it does
	 * here, 0 when not, with how that was found or why not in detail.
	 * NULL: its counts follow the core (or are none), never converted.
	 */
	int (*constant_rate)(char *detail, size_t len);
} bm__subtimer_ops;

/* The backends the build includes (see timer.c's registry). */
extern const bm__subtimer_ops bm__clock_posix_monotonic;
extern const bm__subtimer_ops bm__clock_posix_monotonic_raw;
extern const bm__subtimer_ops bm__clock_posix_thread_cputime;
extern const bm__subtimer_ops bm__clock_stdc_clock;
extern const bm__subtimer_ops bm__cycle_x86_rdtscp;
extern const bm__subtimer_ops bm__cycle_x86_rdtsc;
extern const bm__subtimer_ops bm__cycle_linux_perf_event;
extern const bm__subtimer_ops bm__cycle_null;

/*
 * Shared by the POSIX clock backends (timer.c): check that a clock works
 * and describe it in detail; read it in nanoseconds.
 */
int bm__posix_clock_init(clockid_t id, const char *name, char *detail,
    size_t len);

static inline uint64_t
bm__posix_clock_read(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Return 1 when CPUID says the x86 TSC is invariant (cycle-x86-rdtscp.c). */
int bm__x86_tsc_invariant(void);
/*
 * Return 1 when the TSC ticks at a constant rate: CPUID's invariant bit,
 * or constant_tsc and nonstop_tsc in /proc/cpuinfo (a virtual machine
 * often hides the bit while the kernel knows); say which, or why not.
 */
int bm__x86_tsc_constant(char *detail, size_t len);

/* A timer: an initialised clock and cycle subtimer. */
typedef struct bm__timer {
	const bm__subtimer_ops *clock;
	void *clock_priv;
	const bm__subtimer_ops *cycle;	/* never NULL once initialised */
	void *cycle_priv;
} bm__timer;

/*
 * Initialise a timer from a config string (NULL: the default).  On error,
 * err names the offending word or subtimer.  The word "list" is ignored
 * here: the caller prints the list.
 */
int bm__timer_init(bm__timer *t, const char *config, char *err,
    size_t errlen);
/*
 * Check a config string as bm__timer_init() would, initialising nothing:
 * 0, or BM_EPARSE or BM_ECONFIG with err naming the word.
 */
int bm__timer_check(const char *config, char *err, size_t errlen);
/* Release a timer's subtimers. */
void bm__timer_fini(bm__timer *t);
/* Reopen per-process resources after fork (perf event descriptors). */
int bm__timer_after_fork(bm__timer *t);

/* Read the clock subtimer in nanoseconds. */
static inline uint64_t
bm__clock_now(const bm__timer *t)
{
	return t->clock->now(t->clock_priv);
}

/* Return 1 when the cycle subtimer reports counts. */
static inline int
bm__timer_has_cycles(const bm__timer *t)
{
	return t->cycle != NULL && !(t->cycle->flags & BM__ST_NODATA);
}

/* Read the cycle subtimer. */
static inline uint64_t
bm__cycle_now(const bm__timer *t)
{
	return t->cycle->now(t->cycle_priv);
}

/* Worker placement policy. */
enum bm__sched_kind {
	BM__SCHED_DEFAULT = 0,	/* leave placement to the kernel */
	BM__SCHED_SINGLE,	/* every worker on the first allowed CPU */
	BM__SCHED_UNIQUE,	/* worker i on the i-th allowed CPU, cycling */
	BM__SCHED_LIST		/* worker i on cpus[i % ncpus] */
};

#define BM__SCHED_MAX_CPUS 1024

typedef struct bm__sched {
	int kind;
	unsigned ncpus;
	unsigned short cpus[BM__SCHED_MAX_CPUS];
} bm__sched;

/* Parse a placement policy; detail says what was wrong. */
int bm__sched_parse(bm__sched *s, const char *policy, char *err,
    size_t errlen);
/*
 * Check that every CPU a list names is one this process may run on;
 * BM_ERANGE with the CPU named in err if not.
 */
int bm__sched_check(const bm__sched *s, char *err, size_t errlen);
/* Pin the calling worker according to the policy; 0 or -errno. */
int bm__sched_apply(const bm__sched *s, unsigned worker);

/* Which calibration values are known (measured or set). */
enum {
	BM__KNOWN_ENOUGH = BM_CAL_ENOUGH,
	BM__KNOWN_TIMING_O = BM_CAL_TIMING_O,
	BM__KNOWN_LOOP_O = BM_CAL_LOOP_O,
	BM__KNOWN_ALL = BM_CAL_ENOUGH | BM_CAL_TIMING_O | BM_CAL_LOOP_O,
	/*
	 * The cycle overheads (cal.cycle_o, cal.loop_o_cycles) belong to
	 * the cycle subtimer that measured them: forgotten with the timer.
	 */
	BM__KNOWN_CYCLES = 1u << 3
};

/* Requested perf events (events.c). */
typedef struct bm__events {
	size_t n;
	bm_event_info info[BM_MAX_EVENTS];
	uint32_t type[BM_MAX_EVENTS];	/* perf_event_attr type and config */
	uint64_t config[BM_MAX_EVENTS];
} bm__events;

/* Parse an event list into ev; err names a bad word. */
int bm__events_parse(bm__events *ev, const char *list, char *err,
    size_t errlen);
/* Try each event here and fill in its status and detail. */
void bm__events_probe(bm__events *ev);

/* The counters of one worker: a perf_event group of the events that work. */
typedef struct bm__counters {
	int leader;			/* -1: nothing is counted */
	int single;			/* one fd per event, read one by one */
	int fds[BM_MAX_EVENTS];
	size_t nopen;
	size_t slot[BM_MAX_EVENTS];	/* event i is the slot[i]-th member */
} bm__counters;

/* Open the group in the calling process; 0 or -errno. */
int bm__counters_open(bm__counters *c, const bm__events *ev);
/*
 * Open the events one by one (not grouped: the kernel refuses group reads
 * of inherited counters) on another process, disabled until it calls
 * exec and inherited by its children; 0 or -errno.
 */
int bm__counters_open_task(bm__counters *c, const bm__events *ev, int pid);
/*
 * Read the group into v[i] for every requested event (NAN where not
 * counted), scaled for multiplexing; 0 or -errno.
 */
int bm__counters_read(const bm__counters *c, const bm__events *ev,
    double *v);
void bm__counters_close(bm__counters *c);

/*
 * The phases of bm_run() at which the engine calls its meeting hook
 * (ctx->meet), named by what the run has done.  A run calls BEGIN first;
 * then, while all goes well, WARM and TIMED in each round and ROUND after
 * it, and MEASURED at the end.  A run that fails anywhere (in the hook
 * too) calls FAILED once, on its one way out, and no phase after it.
 */
enum bm__phase {
	BM__PHASE_BEGIN,	/* bm_run was called; nothing is checked yet */
	BM__PHASE_WARM,		/* the round's workers are warm: before start */
	BM__PHASE_TIMED,	/* they have timed their intervals */
	BM__PHASE_ROUND,	/* the round is over: is another due? */
	BM__PHASE_MEASURED,	/* the result is merged */
	BM__PHASE_FAILED	/* the run failed with status */
};

/* What the engine tells its meeting hook at a phase. */
struct bm__meeting {
	enum bm__phase phase;
	int status;		/* FAILED: the failure (BM_E*, -errno); else 0 */
	/* ROUND: in, this process wants another round; out, one is run. */
	int more;
	uint64_t timeout_ns;	/* the longest the hook may wait for others */
};

/*
 * A meeting hook: called by bm_run() at each phase of a run (above), it
 * returns 0 to go on or a failure, with its detail in ctx, that ends the
 * run; at FAILED it returns the failure bm_run reports (0 there keeps
 * the run's own).  It must not
 * outwait m->timeout_ns, and ends its wait on a signal
 * (bm__signals_caught()) with BM_EINTR.
 */
typedef int bm__meet_fn(bm_ctx *ctx, struct bm__meeting *m);

/*
 * The meeting hook a new context gets: the MPI ranks' (meet-mpi.c) in a
 * library built with MPI, none (no call at all) without.
 */
#ifdef BM_HAVE_MPI
int bm__meet_mpi(bm_ctx *ctx, struct bm__meeting *m);
#define BM__MEET_DEFAULT bm__meet_mpi
#else
#define BM__MEET_DEFAULT NULL
#endif

/*
 * The cycle subtimer's rate (tsc.c), decided once per timer: known is 0
 * until then and after the timer changes.  given_hz (BENCHMP_TSC_HZ or
 * bm_ctx_set_cycle_hz, 0: none) outlives the timer, as given calibration
 * values do.
 */
typedef struct bm__cycle_rate {
	int known;
	int status;		/* 0, BM_ENOTSUP or BM_ECALIB */
	int invariant;		/* 1, 0, or -1: not a reference counter */
	double hz;		/* NAN unless status is 0 */
	double given_hz;
	int measured;		/* 1: hz was measured here */
	double spread;		/* (max - min) / median of the windows, or NAN */
	unsigned windows;	/* clean windows behind a measured hz */
	char detail[160];	/* how invariance was found, or why no hz */
} bm__cycle_rate;

/*
 * Decide the context's cycle rate if it is not known for its timer:
 * measure it, take the given one, or note why there is none.  Never
 * fails the caller: the outcome is in ctx->rate.
 */
void bm__tsc_settle(bm_ctx *ctx);

/* The longest error detail a context keeps, with its NUL. */
#define BM__ERR_MAX 512

/*
 * A scheduler's channel (serve.c): with BENCHMP_SERVE=IN,OUT[,VISIT_US]
 * set, every bm_run() announces its figure on OUT and measures one visit
 * (a round of kept workers) for each command it reads on IN, until told
 * to end.  opened is 0 until the variable was read, then 1 (none) or 2.
 */
struct bm__serve {
	int opened;
	int in, out;		/* the descriptors, -1 without a scheduler */
	unsigned figures;	/* figures announced so far */
	uint64_t visit_us;	/* the timed length a visit aims at */
	char buf[128];		/* a command line read in part */
	size_t len;
};

enum bm__serve_cmd {
	BM__SERVE_VISIT = 1,	/* measure one visit on the kept workers */
	BM__SERVE_FRESH,	/* the same on fresh workers */
	BM__SERVE_RELEASE,	/* let the workers go: the next visit is fresh */
	BM__SERVE_END		/* no more visits: report the figure */
};

/* The context behind bm_ctx. */
struct bm_ctx {
	bm__timer timer;
	bm__sched sched;
	bm__events events;
	bm_calibration cal;
	unsigned known;		/* BM__KNOWN_* */
	int last_signal;
	bm__meet_fn *meet;	/* the meeting hook of bm_run, or NULL */
	unsigned proc_min;	/* rounds set by bm_ctx_set_processes, or 0 */
	unsigned proc_max;
	double precision;	/* bm_ctx_set_precision, or 0: the default */
	/* Where each setting came from: BM_SOURCE_* by BM_SETTING_*. */
	unsigned char source[BM_NSETTINGS];
	char *output;		/* the sink spec chosen, or NULL: stdout */
	int interference_off;	/* BENCHMP_INTERFERENCE=off */
	int regions_off;	/* BENCHMP_REGIONS=off: regions are NULL */
	unsigned timer_builds;	/* timers built, for the tests */
	bm__cycle_rate rate;	/* the cycle subtimer's rate (tsc.c) */
	struct bm__serve serve;	/* a scheduler's channel (serve.c) */
	/*
	 * TIMING_O (BM_CAL_TIMING_O) the environment gave for another
	 * clock than the context's, set aside and measured afresh, and the
	 * clock it was given for (ctx.c, record.c).
	 */
	unsigned cal_other_clock;
	char cal_clock[32];
	/* Room for "rank N on HOST: " before a detail from another rank. */
	char err[BM__ERR_MAX];
};

/* Record an error's detail on the context and return err. */
int bm__fail(bm_ctx *ctx, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* serve.c: 1 when a scheduler serves this process's runs, 0 when none. */
int bm__serve_open(bm_ctx *ctx);
/* Write one line to the scheduler; 0 or a negative error. */
int bm__serve_say(bm_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Wait for the scheduler's next command (enum bm__serve_cmd) in *cmd. */
int bm__serve_next(bm_ctx *ctx, int *cmd);

/*
 * The worker plan: what every worker of a run is to do, built once by
 * bm_run() (engine.c) after calibration and read by each worker.  Only
 * percentiles changes between rounds (the single operations are shared
 * out over the first rounds).
 */
struct bm__plan {
	bm_ctx *ctx;			/* the timer, counters and placement */
	const bm_bench *bench;		/* the callbacks and their cookie */
	unsigned parallel;		/* workers per round */
	unsigned repetitions;		/* intervals each worker keeps */
	unsigned percentiles;		/* single operations this round */
	uint64_t enough_us;		/* the interval length */
	uint64_t warmup_us;		/* the parent's warmup */
	double timing_o_ns;		/* subtracted once per interval */
	double loop_o_ns;		/* subtracted once per operation */
	double cycle_o;			/* cycles: once per interval */
	double loop_o_cycles;		/* cycles: once per operation */
	int shared;			/* more workers than CPUs */
	int interference;		/* account for interference */
	int keep;			/* served: a worker stays for visits */
	uint64_t later_warmup_us;	/* served: a kept worker's next visits' */
};

/*
 * The worker side: run worker number worker of plan p to completion,
 * reading commands on ctl_fd and answering on resp_fd.  Called in the
 * child right after fork; never returns: it ends with a BM__EXIT_* status.
 */
void bm__child_main(const struct bm__plan *p, unsigned worker, int ctl_fd,
    int resp_fd) __attribute__((noreturn));

/*
 * The pipe protocol between the parent (engine.c) and a worker
 * (child.c).  Parent to worker, on the control pipe: one byte per command.
 * Worker to parent, on the response pipe: one byte per event, and after
 * BM__MSG_RESULT a record: struct bm__record_hdr then count bm__wire
 * samples.  Every failure the engine knows of in a worker (a callback's,
 * its own set-up's) comes as BM__MSG_FAIL and a header with the error,
 * never as an exit status, which a benchmark could choose too.
 */
enum {
	BM__CMD_GO = 'G',	/* every worker is initialised: first pass */
	BM__CMD_START = 'S',	/* leave warmup, start timing */
	BM__CMD_RESULT = 'R',	/* send your record */
	BM__CMD_EXIT = 'X',	/* exit */
	BM__CMD_AGAIN = 'A',	/* kept worker: warm up and time a visit */
	BM__CMD_QUIT = 'Q',	/* kept worker: clean up, then exit */
	BM__MSG_INIT = 'i',	/* initialize returned */
	BM__MSG_READY = 'r',	/* first untimed pass done, warming up */
	BM__MSG_DONE = 'd',	/* all intervals recorded, cooling down */
	BM__MSG_RESULT = 'R',	/* a record follows */
	BM__MSG_CLEAN = 'c',	/* cleanup returned (after the record) */
	BM__MSG_FAIL = 'f'	/* a record with status < 0 follows */
};

/*
 * How a worker ends (its exit status).  The parent expects BM__EXIT_OK
 * after BM__CMD_EXIT; before that any end is a death, and the parent
 * learns of the engine's own failures from the pipe (BM__MSG_FAIL), not
 * from these.  They are what a worker exits with when the pipe cannot
 * carry the reason any more, and are chosen where a program's own exit
 * statuses are not: those are small (EXIT_FAILURE, sysexits' 64 to 78,
 * the shell's 126 and 127), and above 128 a shell reports a death by
 * signal (128 + n), which programs leave to it.
 */
enum {
	/* The record was sent, cleanup done and the exit byte read. */
	BM__EXIT_OK = 0,
	/* A failure was sent (BM__MSG_FAIL): the parent has the reason. */
	BM__EXIT_FAIL = 179,
	/*
	 * The parent is out of reach: a write failed, the control pipe
	 * ended, or no exit byte came in time.
	 */
	BM__EXIT_PARENT = 180
};

#define BM__RECORD_MAGIC 0x626d7031u	/* "bmp1" */

struct bm__record_hdr {
	uint32_t magic;
	int32_t status;		/* 0, or the error a callback returned */
	uint32_t worker;
	uint32_t count;		/* samples that follow */
	/*
	 * Then this many single-operation times, and with a cycle subtimer
	 * (bm__timer_has_cycles) as many cycle counts.
	 */
	uint32_t nops;
	/* Interference accounting: intervals judged disturbed, and of them
	 * those discarded and run again; 1 when the bound on discarding was
	 * reached and later disturbed intervals were kept. */
	uint32_t disturbed;
	uint32_t discarded;
	uint32_t bound_hit;
	uint32_t accounted;	/* the accounting was on and could read */
	/* Intervals that spanned a stop and a SIGCONT, always discarded. */
	uint32_t stopped;
	double discarded_ns;	/* time spent in discarded intervals */
};

struct bm__wire {
	double ns;
	uint64_t n;
	double cycles;
	double events[BM_MAX_EVENTS];
	double wait_ns;		/* run-queue wait in the interval */
	double lost_ns;		/* neither running nor waiting */
	uint32_t ivcsw;		/* involuntary switches */
	uint32_t flags;		/* BM_SAMPLE_* */
};

/*
 * Interference accounting (interfere.c): a worker's run-queue wait, CPU
 * time, involuntary switches and CPU, read outside its timed intervals.
 * An interval is disturbed when its time off the CPU (waiting on a run
 * queue, blocked, stopped, stolen) and its partners' run-queue wait
 * exceed what the benchmark's own rate explains by more than
 * BM__DISTURB_SHARE of the interval plus BM__DISTURB_SLACK of the
 * explained part, or when it moved to another CPU; see benchmp(3) for
 * how the numbers were chosen.
 */
#define BM__DISTURB_SHARE 0.002
#define BM__DISTURB_SLACK 0.25
#define BM__INTERFERE_PARTNERS 4

struct bm__interfere {
	int fd;				/* this thread's schedstat, or -1 */
	unsigned npartners;
	int partner_fd[BM__INTERFERE_PARTNERS];
};

struct bm__ireading {
	uint64_t wait_ns;		/* run-queue wait since it started */
	uint64_t partner_wait_ns;	/* the partners' */
	uint64_t cpu_ns;		/* the thread's CPU time */
	uint64_t ivcsw;			/* involuntary context switches */
	int cpu;			/* the CPU it ran on, or -1 */
};

/*
 * The benchmark's own time off the CPU per operation (a ping-pong waits
 * for every reply and every wakeup): the median of the last
 * BM__IBASE_RING full-length intervals of the warmup and the undisturbed
 * timed ones.
 */
#define BM__IBASE_RING 9
struct bm__ibase {
	unsigned count;
	unsigned next;
	double ring[BM__IBASE_RING];
};

/* What one interval met. */
struct bm__idelta {
	double wait_ns;
	double lost_ns;
	double ivcsw;
	int migrated;
	int disturbed;
};

int bm__interfere_open(struct bm__interfere *in);
int bm__interfere_watch(struct bm__interfere *in, long pid);
void bm__interfere_close(struct bm__interfere *in);
void bm__interfere_read(const struct bm__interfere *in,
    struct bm__ireading *r);
int bm__interfere_judge(struct bm__ibase *base, const struct bm__ireading *r0,
    const struct bm__ireading *r1, uint64_t elapsed_ns, uint64_t n, int full,
    int learn, struct bm__idelta *d);
int bm__interfere_steal(uint64_t *ns);

/*
 * Read exactly len bytes within timeout_ms (-1: no bound), surviving EINTR
 * and short reads: 0, -errno, BM_ETIMEDOUT, or BM_EPROTO at end of file.
 */
int bm__pipeio_read(int fd, void *buf, size_t len, int timeout_ms);
/* Write exactly len bytes, surviving EINTR and short writes; 0 or -errno. */
int bm__pipeio_write(int fd, const void *buf, size_t len);
/* Monotonic time in nanoseconds for deadlines (not for measuring). */
uint64_t bm__deadline_now(void);
/*
 * The first bound on a worker's initialize, in ns (engine.c; tests shorten
 * it); while its workers work, the wait is extended up to
 * BM__ENGINE_INIT_BOUNDS of these in all.
 */
extern uint64_t bm__engine_init_timeout_ns;
#define BM__ENGINE_INIT_BOUNDS 10

/*
 * The least coverage of a figure's interval for it to be settled: below
 * it the figure is flagged noisy (stats.c), and adaptive rounds do not
 * stop before it (engine.c).  Five rounds cover 93.75%.
 */
#define BM__SETTLED_LEVEL 0.9

/*
 * CPU quota throttling (throttle.c): the summed nr_throttled and throttled
 * time of the cpu.stat files from this process's cgroup up to its
 * hierarchy's root, and the tightest quota on that path, read under root
 * ("" for the machine's own /proc and /sys).
 */
struct bm__throttle {
	int known;
	uint64_t nr_throttled;
	uint64_t throttled_ns;
	double quota_cpus;
};
int bm__throttle_read(const char *root, struct bm__throttle *t);

/*
 * Signals during a run (signal.c): install catches SIGINT, SIGTERM and
 * SIGHUP (noting the first in bm__signals_caught() and waking
 * bm__signals_fd()), ignores SIGPIPE, and counts SIGCHLDs (waking the
 * pipe too); close restores the application's dispositions.  In a freshly forked worker, restore_in_child gives back
 * the application's dispositions and closes the signal pipe.
 */
int bm__signals_install(void);
void bm__signals_close(void);
void bm__signals_restore_in_child(void);
int bm__signals_caught(void);
/* SIGCONTs seen during the run, and emptying the signal pipe. */
unsigned bm__signals_continued(void);
/* SIGCHLDs seen during the run: a child (a worker?) has ended. */
unsigned bm__signals_children(void);
void bm__signals_drain(void);
int bm__signals_fd(void);


/*
 * Merge the samples of a finished run into its figures (result.c): they
 * come from r->processes rounds (sample.process) of r->parallel workers
 * with reps intervals each.
 */
int bm__result_merge(bm_ctx *ctx, bm_result *r, unsigned reps);

/*
 * Fail with BM_EOVERHEAD when the clock and loop overheads subtracted
 * from the count samples of one round swallow them (result.c).
 */
int bm__result_check_overhead(bm_ctx *ctx, const bm_sample *s,
    size_t count);
/*
 * A figure is flagged (noisy, with "overhead_flagged" in its record) when
 * the overheads given by TIMING_O or LOOP_O make more than this share of
 * its median raw interval; see bm__result_overhead_share (result.c).
 */
#define BM__OVERHEAD_FLAG 0.25
/*
 * The median share of the raw interval that the clock and loop overheads
 * took off the samples of r, or NAN without samples (result.c).
 */
double bm__result_overhead_share(const bm_ctx *ctx, const bm_result *r);
/*
 * Fail with BM_ENOTIME when count samples of one round measured no time:
 * most of them ran the most iterations allowed (result.c).
 */
int bm__result_check_time(bm_ctx *ctx, const bm_sample *s, size_t count);
/*
 * Join n results measured at the same time into out (result.c): round for
 * round as one run's workers, or with each part's rounds apart; free out
 * with bm_result_free.
 */
int bm__result_join(bm_result *out, const bm_result *parts, size_t n,
    int apart);
/* Return 1 when a timer config has no word but "list" (timer.c). */
int bm__timer_config_only_list(const char *config);
/* The iteration cap of workers and bm_measure(): an empty body ends. */
#define BM__MAX_ITER ((bm_iter_t)1 << 62)

/* The kinds of sink a spec names (sink.c). */
enum {
	BM__SINK_STDOUT,	/* "-" */
	BM__SINK_FILE,		/* file:PATH */
	BM__SINK_ZMQ,		/* zmq:ENDPOINT */
	BM__SINK_TCP,		/* tcp:HOST:PORT */
	BM__SINK_UNIX		/* unix:PATH */
};

/*
 * Split a sink spec into its kind and its argument (the path or endpoint,
 * pointing into spec) without opening anything; 0, or BM_EPARSE or
 * BM_ECONFIG with the detail on ctx.
 */
int bm__sink_parse(bm_ctx *ctx, const char *spec, int *kind,
    const char **arg);

/*
 * The ZeroMQ sink backend (sink-zmq.c, built with libzmq): open a PUSH
 * socket connected to endpoint, send one message, close with a bounded
 * linger.  The handle is opaque to sink.c; bm__sink_parse() has already
 * refused an empty endpoint.
 */
int bm__zmq_open(bm_ctx *ctx, const char *endpoint, void **handle);
int bm__zmq_send(bm_ctx *ctx, void *handle, const char *msg, size_t len);
int bm__zmq_close(bm_ctx *ctx, void *handle);

/*
 * The stream sockets' sink backend (sink-stream.c): check a tcp: or unix:
 * argument (BM_EPARSE, or BM_ERANGE for a port or a path out of range),
 * connect within a bounded time, and send a record whole, handling EINTR,
 * short sends and a gone listener (no SIGPIPE); *sent says how much of a
 * failed record left.  spec names the sink in messages.
 */
int bm__stream_check(bm_ctx *ctx, int kind, const char *arg);
int bm__stream_open(bm_ctx *ctx, int kind, const char *arg, const char *spec,
    int *fd);
int bm__stream_send(bm_ctx *ctx, int fd, const char *rec, size_t len,
    const char *spec, size_t *sent);

/* The calibration's measurements (calibrate.c). */
int bm__calibrate(bm_ctx *ctx);
/*
 * Measure the cycle subtimer's overheads when it counts and they are not
 * known yet (calibrate.c); NAN without a cycle subtimer.
 */
int bm__calibrate_cycles(bm_ctx *ctx);

/* A loop of n empty iterations, kept by the compiler (calibrate.c). */
void bm__empty_loop(bm_iter_t n);

/* A worker's place in the protocol, for tests that act in each state. */
enum {
	BM__STATE_FIRST_PASS,	/* finding its count, before ready */
	BM__STATE_WARMUP,	/* ready, waiting for start */
	BM__STATE_TIMING,	/* timed intervals */
	BM__STATE_COOLDOWN	/* done, waiting to send its record */
};
int bm__state_phase(const bm_state *s);
/*
 * lmbench's start() and stop() inside a benchmark (compat.c): time the
 * call in flight from now, or end it now (1 and its nanoseconds, or 0
 * with no call in flight); the worker's context.
 */
void bm__state_restart(bm_state *s);
int bm__state_stop(bm_state *s, uint64_t *ns);
bm_ctx *bm__state_ctx(const bm_state *s);
/* Whether benchmp() (compat.c) runs with the interference accounting. */
int bm__compat_interference(void);

/* A growing string of JSON (json.c); after a failure it stays failed. */
struct bm__json {
	char *s;
	size_t len;
	size_t cap;
	int err;
};

/*
 * The JSON writer (json.c): formatted text; a string, escaped and made
 * valid UTF-8 (NULL is null); a number exactly (null where JSON has
 * none); ,"key":value members; ,"key":[numbers].
 */
void bm__json_printf(struct bm__json *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void bm__json_string(struct bm__json *b, const char *str);
void bm__json_number(struct bm__json *b, double v);
void bm__json_kstr(struct bm__json *b, const char *key, const char *v);
void bm__json_knum(struct bm__json *b, const char *key, double v);
void bm__json_list(struct bm__json *b, const char *key, const double *x,
    size_t n);

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
 * Append a figure's statistics as the members of a record from ,"median"
 * to "process_samples" (record.c), with noisy, its decided flag
 * (bm__figure_noisy): the writer formats, it does not judge.  next, when
 * not NULL, is a served figure's decided interval (lo, hi).
 */
void bm__record_levels(struct bm__json *b, const struct bm__figure *f,
    int noisy, const struct bm__robust *rb, const double *next);

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
 * Where the next run's median falls, from st (a served figure's): each
 * side of the median's interval times sqrt 2, with floor times the
 * median added in quadrature.
 */
void bm__stats_next_run(const bm_stats *st, double floor, double *lo,
    double *hi);

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
 * (doc/measurements.md, "A served figure's interval").  The record
 * states BM__SERVED_LEVEL as its level.
 */
#define BM__SERVED_FLOOR	0.02
#define BM__SERVED_LEVEL	0.90
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
/* Append a robust figure as a JSON object (record.c). */
void bm__record_robust(struct bm__json *b, const bm__robust *rb);
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
 * Whether a figure f (its robust figure rb, or NULL) is noisy, and why
 * (BM_NOISY_* into *reasons, which may be NULL), given flagged, the
 * record's judgement: 1 flags it (with its own reasons), -1 leaves it to
 * the agreement rule alone, 0 to the interval (record-decide.c).
 */
int bm__figure_noisy(const struct bm__figure *f, int flagged,
    const bm__robust *rb, unsigned *reasons);

/*
 * A record decided (record-decide.c): everything its JSON and its line
 * show beyond the record's own fields, computed once.  has_figure 0: no
 * samples (then f is empty, the interval NAN and the figure not noisy).
 */
struct bm_decision {
	const bm_ctx *ctx;
	const bm_record *rec;
	const char *better;	/* "lower", "higher" or "none" */
	int has_figure;
	struct bm__figure f;	/* its statistics in its unit */
	int has_robust;		/* 1: shown as rb, its best process */
	bm__robust rb;
	int served;		/* 1: shown as a served figure's next run */
	int flagged;		/* the judgement, as bm__figure_noisy takes */
	int noisy;
	unsigned reasons;	/* BM_NOISY_* */
	double lo, hi;		/* the interval shown, NAN without one */
	int overhead_flagged;
	double overhead_share;
};
/*
 * Decide rec into d (record-decide.c); 0 or -ENOMEM.  Release d with
 * bm__decision_release either way.
 */
int bm__record_decide(struct bm_decision *d, const bm_ctx *ctx,
    const bm_record *rec);
void bm__decision_release(struct bm_decision *d);
/* 0 when a record can be formatted, else -EINVAL (record.c). */
int bm__record_check(const bm_record *rec);

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
/* The tests of paired rounds: Wilcoxon's signed ranks, or signs alone. */
enum bm__paired_test {
	BM__PAIRED_SIGNED_RANK,
	BM__PAIRED_SIGN
};
/* Paired rounds a[i], b[i] by test.  0, BM_ERANGE, -ENOMEM. */
int bm__paired_logratio(const double *a, const double *b, size_t n,
    double level, enum bm__paired_test test, bm__paired *out);
/* Two independent samples (rank sums).  0, BM_ERANGE, -ENOMEM. */
int bm__shift_logratio(const double *a, size_t na, const double *b,
    size_t nb, double level, bm__paired *out);

/*
 * The calibration's interval search over a fake loop (fn(arg, n) gives
 * the ns of n iterations), for tests: the answer in us and *settled.
 */
uint64_t bm__calibrate_enough_fake(double (*fn)(void *, bm_iter_t),
    void *arg, double per_iter_ns, double ovh_ns, double res_ns, int *settled);

#endif /* BM_INTERNAL_H */
