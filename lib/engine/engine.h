/*
 * engine.h: the engine's internals: the context, the meeting hook, the
 * worker plan and the pipe protocol, signals, results and calibration.
 */
#ifndef BM_ENGINE_ENGINE_H
#define BM_ENGINE_ENGINE_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>

#include "benchmp.h"
#include "benchmp/calibration.h"
#include "benchmp/settings.h"
#include "benchmp/worker.h"
#include "machine/machine.h"
#include "timer/timer.h"

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
 * The longest a served figure waits for the scheduler's next command
 * (serve.c): an hour.
 */
#define BM__SERVE_IDLE_MS (3600 * 1000)

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
	int arm;		/* an A/B's arm (BENCHMP_SERVE_ARM): no group */
	unsigned said_figures;	/* bm_serve_figures: figures, 0 unsaid */
	unsigned said_parts;	/* and parts */
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

/* dlerror()'s reason why (NULL: none) for file, without file's name. */
const char *bm__dl_reason(const char *file, const char *why);
/* Record an error's detail on the context and return err. */
int bm__fail(bm_ctx *ctx, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * parse.c: numbers in C's format whatever the program's locale.  enter
 * switches the calling thread to the C locale and returns the one it
 * replaced, for leave to put back; (locale_t)0 when no C locale could be
 * made, and the caller then turns the locale's decimal point into '.'
 * (or back) with swap: 0, or -1 when the text does not fit in cap bytes.
 */
locale_t bm__numeric_enter(void);
void bm__numeric_leave(locale_t old);
int bm__numeric_swap(const char *s, const char *from, const char *to,
    char *buf, size_t cap);

/* serve.c: 1 when a scheduler serves this process's runs, 0 when none. */
int bm__serve_open(bm_ctx *ctx);
/* Write one line to the scheduler; 0 or a negative error. */
int bm__serve_say(bm_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Wait for the scheduler's next command (enum bm__serve_cmd) in *cmd. */
int bm__serve_next(bm_ctx *ctx, int *cmd);
/* The same, *seq the figure the command names (a group's), or 0. */
int bm__serve_next_fig(bm_ctx *ctx, int *cmd, unsigned *seq);

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
	/*
	 * A group (bm_run_group): ngroup benchmarks, bench among them;
	 * BM__CMD_BENCH switches a kept worker from one to another (through
	 * the one's cleanup and the other's initialize where they do not
	 * share them: bm__bench_shares).  NULL and 0 outside a group.
	 */
	const bm_bench *group;
	unsigned ngroup;
	/*
	 * What a worker needs to bound its waits for the parent by the
	 * parent's own (bm__engine_init_bound_ns, bm__engine_reply_bound_ns):
	 * the caller's timeout_us (0: derived), the CPUs the workers share,
	 * and the parent's pid, which a worker that finds another parent
	 * after fork (the parent died before the worker asked to die with
	 * it) leaves on.
	 */
	uint64_t timeout_us;
	unsigned cpus;
	long parent;
};

/*
 * The longest the parent waits for its workers' initialize (engine.c): a
 * worker waits for the go at least this long after its own.
 */
uint64_t bm__engine_init_bound_ns(const struct bm__plan *p);
/*
 * The longest the parent may take from a worker's message to its next
 * command (engine.c) once the worker has seen an untimed pass of pass_us:
 * the other workers' records and cleanups, the meetings, the warmup and,
 * for a kept worker, the scheduler's next command.
 */
uint64_t bm__engine_reply_bound_ns(const struct bm__plan *p,
    uint64_t pass_us);

/*
 * Whether benchmarks a and b share their set-up (initialize, cleanup and
 * cookie): a worker switches between them without either.
 */
static inline int
bm__bench_shares(const bm_bench *a, const bm_bench *b)
{
	return a->initialize == b->initialize && a->cleanup == b->cleanup &&
	    a->cookie == b->cookie;
}

/* BM__CMD_BENCH's payload: the group's benchmark and the warmup it gets. */
struct bm__cmd_bench {
	uint32_t index;
	uint64_t warmup_us;
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
	BM__CMD_BENCH = 'B',	/* kept worker: AGAIN on another benchmark */
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

/* The iteration cap of workers and bm_measure(): an empty body ends. */
#define BM__MAX_ITER ((bm_iter_t)1 << 62)

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

/*
 * The calibration's interval search over a fake loop (fn(arg, n) gives
 * the ns of n iterations), for tests: the answer in us and *settled.
 */
uint64_t bm__calibrate_enough_fake(double (*fn)(void *, bm_iter_t),
    void *arg, double per_iter_ns, double ovh_ns, double res_ns, int *settled);

#endif /* BM_ENGINE_ENGINE_H */
