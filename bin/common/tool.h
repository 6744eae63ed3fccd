/*
 * tool.h: what every benchmp command-line tool shares: options and the
 * context (tool.c), messages, exits and the private directory
 * (tool-exit.c), results (tool-report.c) and MPI ranks (tool-cluster.c).
 */
#ifndef BM_TOOL_H
#define BM_TOOL_H

#include <getopt.h>
#include <signal.h>
#include <stdint.h>

#include "benchmp.h"
#include "benchmp/figures.h"
#include "benchmp/sinks.h"
#include "benchmp/worker.h"

/* A tool's run: its name, options, context and output mode. */
struct tool {
	const char *name;		/* for messages: "lat_syscall" */
	const char *args;		/* positional part of the usage line */
	const char *extra_usage;	/* tool-specific option lines, or NULL */
	int options_first;		/* options end at the first operand */
	bm_ctx *ctx;
	bm_options opts;
	int json;			/* --json: records instead of lines */
	int warmup_given;		/* -W was on the command line */
	int reps_given;			/* -N was on the command line */
	int force;			/* --force, BENCHMP_FORCE=1: any -P */
	int force_source;		/* BM_SOURCE_*: where force came from */
	const char *timer;		/* --timer=CONFIG */
	const char *output;		/* --output=SINK */
	const char *events;		/* --events=LIST */
	const char *processes;		/* --processes=MIN[:MAX] */
	const char *interference;	/* "off" with --no-interference */
	double max_time_s;		/* --max-time, BENCHMP_MAX_TIME; 0 unset */
	int max_time_given;		/* max_time_s is not the default */
	/*
	 * --later-warmup, BENCHMP_LATER_WARMUP: the warmup of each round
	 * after a figure's first (bm_options' later_warmup_us; 0 unset:
	 * TOOL_LATER_WARMUP_US, or -W's time when -W was given).  A figure
	 * whose processes cross CPUs warms up fully every round
	 * (placement_begin): the warmup decides the state such a pair
	 * settles in (doc/measurements.md, "The later rounds' warmup").
	 */
	uint64_t later_warmup_us;
	double precision;		/* --precision, BENCHMP_PRECISION; 0 unset */
	double served_s;		/* --served=S: under benchmp-sched; 0 not */
	int no_served;			/* --served does not apply (no figure) */
	int own_timeout;		/* its --timeout is its own (lat_cmd) */
	/*
	 * --served: how many figures the run measures one after another,
	 * and how many of the first are parts the tool takes off the
	 * figures after them (such as lat_ctx's overhead), for benchmp-
	 * sched's figures= and parts=: from the operands tool_parse leaves
	 * (ops, nops) and the options it parsed into cookie.  NULL: one
	 * figure a placement.
	 */
	unsigned (*served_figures)(const struct tool *t, char *const *ops,
	    int nops, const void *cookie, unsigned *parts);
	unsigned placements;		/* 2 under --placement=both, else 0, 1 */
	/*
	 * Served already: served_figures's figures and parts, which
	 * tool_setup tells the scheduler (bm_serve_figures); 0: one figure.
	 */
	unsigned serve_figures, serve_parts;
	uint64_t started_ns;		/* when the tool started */
	/*
	 * Where tool_run stops the rounds of the runs that follow, as it does
	 * at --max-time (tool_share_end); 0: only --max-time.
	 */
	uint64_t part_end_ns;
	int budget_hit;			/* a sweep was cut: derived records say so */
	int overhead_warned;		/* the given overheads were warned of */
	/*
	 * TIMING_O and LOOP_O from the environment that this machine's
	 * calibration contradicts by far (tool-probe.c): every record
	 * carries them under "contradicts", which flags it noisy.
	 */
	bm_contradiction probe_off[2];
	size_t nprobe_off;
	/* The tool's own defaults, below the environment (NULL/0: none). */
	const char *default_timer;
	uint64_t default_enough_us;
	bm_sink *sink;			/* where records go, or NULL */
	/* Under MPI: the records rank 0 prints for cluster_rec. */
	const bm_record *cluster_rec;
	char *cluster_json;
	/* Removes what the tool made (temporary files) on every exit. */
	void (*cleanup)(void);
};

/* Tool-specific options start here so they never clash with ours. */
#define TOOL_OPT_BASE 0x100

/* A tool's handler of its own options: opt, its value, and the cookie. */
typedef void tool_option_fn(struct tool *t, int opt, const char *arg,
    void *cookie);

/*
 * Parse the command line: the common options here, tool-specific ones
 * (short letters in extra_short, long ones in extra_long) through extra(),
 * which stores them in cookie (the tool's own options struct) or calls
 * tool_exit_usage().  Options may come before, between or after the
 * operands, as GNU tools take them, and "--" ends them: argv is reordered
 * so that the operands come last, from the index returned (optind).  A
 * tool whose operands are a command with options of its own sets
 * t->options_first: its options then end at the first operand.  Handles
 * -h and -V (exit 0) and usage errors (exit 2).
 */
int tool_parse(struct tool *t, int argc, char **argv,
    const char *extra_short, const struct option *extra_long,
    tool_option_fn *extra, void *cookie);

/*
 * Resolve the tool's own setting force (--force over BENCHMP_FORCE, which
 * must be 0 or 1) and refuse more than 64 workers per CPU unless forced;
 * create the context, resolve its settings with bm_ctx_configure() (the
 * tool's defaults, the environment, --timer, --events, --processes and
 * --output) and open the sink it chose; exits on error, before anything
 * is measured.
 */
void tool_setup(struct tool *t);

/*
 * Whether a scheduler serves this process (BENCHMP_SERVE): its runs are
 * then visits spread over the scheduler's budget (tool-served.c).
 */
int tool_served_inside(void);
/*
 * Whether it serves an A/B's arm (BENCHMP_SERVE_ARM): the figures the
 * scheduler was told of, no more (tool-served.c).
 */
int tool_served_arm(void);
/*
 * Warn when TIMING_O or LOOP_O from the environment differ from what this
 * machine measures by a large factor, unless BENCHMP_CALIBRATED vouches
 * for them (tool-probe.c).
 */
void tool_probe_overheads(struct tool *t);
/*
 * This boot's identity, a UUID the kernel draws at boot (Linux's
 * TOOL_BOOT_ID_FILE), into buf: 0, or -1 where there is none.
 */
#define TOOL_BOOT_ID_FILE "/proc/sys/kernel/random/boot_id"
int tool_boot_id(char *buf, size_t size);

/*
 * For a tool that sleeps or waits on another process: refuse a CPU-time
 * clock (exit 2).  Call after tool_setup().
 */
void tool_wall_clock(struct tool *t);

/* Print the usage line to stderr after a message and exit 2. */
void tool_exit_usage(const struct tool *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Print a runtime failure and exit 1. */
void tool_exit_fail(const struct tool *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Report a library error and exit: 2 for bad input, 1 otherwise. */
void tool_exit_lib(const struct tool *t, int rc, const char *doing)
    __attribute__((noreturn));

/* Parse a size argument (k/m/g) within [min, max]; usage error if bad. */
uint64_t tool_size(const struct tool *t, const char *what, const char *s,
    uint64_t min, uint64_t max);

/*
 * Find name in a table of n entries of size bytes whose first member is
 * the entry's name (const char *): the entry, or a usage error "unknown
 * what 'name'".
 */
const void *tool_mode(const struct tool *t, const char *what,
    const char *name, const void *table, size_t n, size_t size);
/* The same without exiting: the entry, or NULL when none has the name. */
const void *tool_mode_find(const char *name, const void *table, size_t n,
    size_t size);

/* A table's address, entry count and entry size, as tool_mode takes them. */
#define TOOL_TABLE(a) (a), sizeof (a) / sizeof (a)[0], sizeof (a)[0]

/*
 * For a tool with no options of its own whose first argument names its
 * mode: tool_parse(), then the entry of the table named by that argument
 * (tool_mode, naming the argument what), or a usage error, the message
 * missing when there is no argument, or "too many arguments" (more than
 * max_args).  what and missing may be NULL: "mode" and "missing the
 * mode".  *first, unless first is NULL, is the mode argument's index.
 */
const void *tool_parse_mode(struct tool *t, int argc, char **argv,
    int *first, int max_args, const char *what, const char *missing,
    const void *table, size_t n, size_t size);

/*
 * Install handler for the signal sig with sa_flags flags and an empty
 * mask: 0, or -errno if sigaction() fails.
 */
int tool_catch_signal(int sig, void (*handler)(int), int flags);

/*
 * The catchable signals whose default ends the process (tool-exit.c),
 * which a tool that made something to remove (a directory, an IPC object)
 * catches to remove it before it dies of them; tool_exit_signal_name() gives
 * one's name without SIG.  tool_exit_fatal_hold() holds them, adds remove
 * (async-signal-safe) to what their handler runs and installs it for each
 * that is not ignored, saving the mask in *old; tool_exit_fatal_release() puts
 * the mask back.
 */
extern const int tool_fatal_signals[];
extern const size_t tool_nfatal;
const char *tool_exit_signal_name(int sig);
void tool_exit_fatal_hold(void (*remove)(void), sigset_t *old);
void tool_exit_fatal_release(const sigset_t *old);
/*
 * Around bm_run in tool_run: the fatal signals the tool catches become a
 * SIGTERM, so that bm_run reaps the workers before anything is removed;
 * tool_exit_fatal_run_signal(sig) is the one that came (sig if none did).
 */
void tool_exit_fatal_in_run(int on);
int tool_exit_fatal_run_signal(int sig);

/* Parse an unsigned argument within [min, max]; usage error if bad. */
uint64_t tool_uint(const struct tool *t, const char *what, const char *s,
    uint64_t min, uint64_t max);

/*
 * Short intervals for a tool whose kernels need no long ones: use us as
 * the interval unless ENOUGH was set.  Call after tool_setup().
 */

/*
 * A floor on the interval for a tool whose definition needs long ones:
 * intervals of at least us whatever ENOUGH says (bm_options.enough_us;
 * the record's enough_us is the interval used, its calibration ENOUGH's).
 */
void tool_min_enough(struct tool *t, uint64_t us);

/*
 * A run whose every worker initialises bytes of memory: at 64 MB and more
 * the default is 3 rounds of fresh workers with 2 intervals each (unless
 * -N was given; --processes and BENCHMP_PROCESSES still win), so that
 * touching the buffers in every round keeps the standard suite in its
 * budget.  Call after tool_parse().
 */
void tool_big_run(struct tool *t, uint64_t bytes);

/* Cap the warmup of the runs after the first at us, unless -W was given. */
void tool_served_warmup(struct tool *t, int full);
void tool_later_warmup(struct tool *t, uint64_t us);

/*
 * The end of a share of what is left before end_ns (0: before --max-time)
 * for the next of n parts to run: now plus that time over n; now when it
 * has passed; 0 when no bound was given (--max-time, BENCHMP_MAX_TIME):
 * the default bound is shared by no one.  A tool whose sweep would
 * otherwise lose its last points to the bound sets part_end_ns to it.
 */
uint64_t tool_share_end(const struct tool *t, uint64_t end_ns, unsigned n);

/*
 * Run a benchmark with the tool's options; on failure print why and exit
 * (re-raising an interrupting signal).
 */
void tool_run(struct tool *t, const bm_bench *b, bm_result *res);
/*
 * Run n benchmarks into res[0..n-1]: served (benchmp-sched), as one group
 * on one set of workers (bm_run_group: those that share initialize,
 * cleanup and cookie set up once a set, the others each on a switch);
 * else one after another, as tool_run runs each.
 */
void tool_run_group(struct tool *t, const bm_bench *b, size_t n,
    bm_result *res);

/*
 * Exit after a failed run (rc from the library): "interrupted by SIGx"
 * and death by that signal for BM_EINTR, the library's message otherwise.
 */
void tool_exit_run(struct tool *t, int rc) __attribute__((noreturn));

/*
 * Under MPI, gather rec from every rank and make rec->value the aggregate
 * (the sum over ranks for a bandwidth or rate, the median of all samples
 * otherwise); without MPI nothing.  Every rank must call it for the same
 * records.  The reporting paths, tool_report_value() and
 * tool_report_line(), call it; no tool calls it itself.
 */
void tool_cluster_aggregate(struct tool *t, bm_record *rec);

/*
 * Print a result: the classic line (already formatted, with its newline)
 * or, with --json or the sink "-", the record on stdout; and the record to
 * a file or zmq sink.  Exits 1 if an output fails.  Under MPI only
 * rank 0 prints, the line or every rank's record and the aggregate's; a
 * line that shows the record's value goes through tool_report_value().
 */
void tool_report(struct tool *t, const bm_record *rec, const char *line);

/*
 * Report a record whose classic line shows its value: aggregate it across
 * MPI ranks (tool_cluster_aggregate), then format the line as prefix,
 * rec->value with digits decimals, suffix and a newline, and tool_report()
 * it.
 */
void tool_report_value(struct tool *t, bm_record *rec, const char *prefix,
    int digits, const char *suffix);

/* The longest classic line tool_report_line() formats. */
#define TOOL_LINE_MAX 512

/*
 * Format a classic line (with its newline, "" for none) into line from
 * an aggregated record and the caller's cookie.
 */
typedef void (*tool_line_fn)(const bm_record *rec, const void *cookie,
    char *line, size_t len);

/*
 * Report a record whose classic line shows more than its value (a rounded
 * clock, figures in its measured params): aggregate it across MPI ranks
 * (the value as tool_cluster_aggregate(), and on rank 0 every numeric measured
 * param becomes the median over ranks), then format the line with fn from
 * the aggregated record and tool_report() it.
 */
void tool_report_line(struct tool *t, bm_record *rec, tool_line_fn fn,
    const void *cookie);

/*
 * The main of enough, timing_o and loop_o: calibrate and print the value
 * which (BM_CAL_*) as lmbench did, or as export lines.
 */
int calib_main(const char *name, unsigned which, int argc,
    char **argv);

/* Print "label: N microseconds" (or the record) for a latency. */
void tool_report_us(struct tool *t, const char *case_name,
    const bm_param *params, size_t nparams, const bm_result *r,
    const char *label);

/* A record parameter: key and a string, or (str NULL) the number num. */
bm_param tool_record_param(const char *key, const char *str, double num);

/* Fill a latency record: microseconds per operation, one worker's median. */
void tool_record_us(bm_record *rec, const struct tool *t,
    const char *case_name, const bm_param *params, size_t nparams,
    const bm_result *r);

/*
 * Fill a bandwidth record for bytes moved per operation: MB/s of one
 * worker's median, or with -P the aggregate of all workers.
 */
void tool_record_bw(bm_record *rec, const struct tool *t,
    const char *case_name, const bm_param *params, size_t nparams,
    const bm_result *r, double bytes);

/*
 * Fill the record of a figure the tool derives itself (a clock rate, a
 * parallelism, a size): metric, unit, better and value, no result (the
 * memory tools' mem_report_derived() gives it the value's statistics).
 */
void tool_record_figure(bm_record *rec, const struct tool *t,
    const char *case_name, const char *metric, const char *unit,
    bm_better better, double value);

/*
 * Give a figure's record the statistics of r, each sample's figure being
 * per_ns over its nanoseconds per operation (scale, inverse).
 */
void tool_record_per_ns(bm_record *rec, const bm_result *r, double per_ns);

/*
 * Make the tool's private directory under $TMPDIR (once; later calls
 * return the same path).  It is removed with everything in it by
 * tool_finish, by every failure exit and on SIGINT, SIGTERM and SIGHUP.
 * Exits 1 if it cannot be made.
 */
const char *tool_exit_tmpdir(struct tool *t);

/* Release the context; check that stdout reached its destination. */
int tool_finish(struct tool *t);

#endif /* BM_TOOL_H */
