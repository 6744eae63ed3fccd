/* placement.h: which CPUs a worker and its partners run on (--placement). */
#ifndef BM_PLACEMENT_H
#define BM_PLACEMENT_H

#include <sched.h>

#include "benchmp.h"
#include "partner.h"
#include "tool.h"

/* Where a worker's partners run relative to it. */
enum placement_mode {
	PLACEMENT_CROSS = 0,	/* each process of a group on its own CPU */
	PLACEMENT_SAME,		/* the whole group on one CPU */
	PLACEMENT_BOTH		/* cross, then same: two figures */
};

/* The option code of --placement (a tool's extra handler passes it on). */
#define PLACEMENT_OPT (TOOL_OPT_BASE + 0x40)

/* Workers whose CPUs the record lists (the first ones). */
#define PLACEMENT_SLOTS 64

/* The long option, for tool_parse's extra_long, and its help line. */
extern const struct option placement_long[];
extern const char placement_usage[];

/*
 * A tool's placement.  The parent chooses (setup, begin); each worker pins
 * itself and starts its partners pinned (placement_worker,
 * placement_start), so it holds for every worker process bm_run forks,
 * whenever it forks them.  The CPUs each process found itself on
 * (sched_getcpu after pinning) come back through memory the parent maps
 * shared before bm_run, and go into the record (placement_params).
 */
/* The most measured values placement_params keeps. */
#define PLACEMENT_NMEASURED 4

struct placement {
	struct tool *tool;	/* whose options placement_begin adjusts */
	uint64_t enough_us;	/* the tool's interval floor, as set up */
	unsigned repetitions;	/* ... and its intervals per worker */
	int asked;		/* enum placement_mode, default cross */
	int given;		/* --placement was on the command line */
	int mode;		/* of the run in progress: cross or same */
	int fallback;		/* cross asked, but only one CPU allowed */
	unsigned group;		/* processes per worker (the worker first) */
	unsigned nslots;	/* workers recorded, <= PLACEMENT_SLOTS */
	unsigned ncpus;		/* CPUs the tool may run on... */
	unsigned short cpus[CPU_SETSIZE];	/* ...ascending */
	cpu_set_t allowed;	/* the same as a set */
	int *seen;		/* shared: [slot][process] CPU seen, or -1 */
	size_t seen_bytes;
	/* In a worker: its slot (or -1) and the CPU of its process 0. */
	int slot;
	unsigned base;
	/* The record's text of the CPUs seen. */
	char text[1024];
	/*
	 * What the run found (the CPUs seen, what was asked when that
	 * differs): the record's measured values, apart from its params so
	 * that records of two runs still match (benchmp-compare).
	 */
	bm_param measured[PLACEMENT_NMEASURED];
	size_t nmeasured;
};

/* The most parameters placement_params appends. */
#define PLACEMENT_NPARAMS 1

/* Parse --placement's argument, or exit 2. */
void placement_option(struct placement *p, struct tool *t,
    const char *arg);

/*
 * After tool_setup: read the CPUs the tool may use, map the shared record
 * for groups of up to max_group processes, and say on stderr (once) when
 * cross is impossible.  Exits 1 on failure.
 */
void placement_setup(struct placement *p, struct tool *t,
    unsigned max_group);

/* How many figures the placement asks for: 2 for both, else 1. */
unsigned placement_runs(const struct placement *p);

/*
 * Before run i (0 or 1): the mode and group size; forgets the CPUs seen.
 * A cross run's intervals last at least PLACEMENT_CROSS_ENOUGH_US, and
 * there are PLACEMENT_CROSS_REPS of them unless -N was given; a same run
 * has the tool's own (see placement.c).
 */
void placement_begin(struct placement *p, unsigned run, unsigned group);

/*
 * In a worker's initialize: pin the worker to its CPU (worker index i, or
 * the CPU a BENCHMP_SCHED policy already put it on).  0 or -errno.
 */
int placement_worker(struct placement *p, unsigned worker);

/* In a worker, after placement_worker: the CPU of process proc. */
int placement_cpu(const struct placement *p, unsigned proc);

/*
 * In a worker: fork partner number proc (1 to group - 1) pinned to its
 * CPU, running fn(arg) as partner_start does.  0 or -errno.
 */
int placement_start(struct placement *p, unsigned proc, struct partner *pt,
    int (*fn)(void *), void *arg);

/*
 * After the run: append the record's parameter (the placement measured;
 * at most PLACEMENT_NPARAMS) to params[*n], advancing *n, and keep what
 * the run found (the CPUs seen, what was asked when that differs) for
 * placement_measured.
 */
void placement_params(struct placement *p, bm_param *params, size_t *n);

/* Point a record's measured values at those placement_params kept. */
void placement_measured(const struct placement *p, bm_record *rec);

/* How placement_run hands a tool each result (arg is the tool's). */
typedef void (*placement_report_fn)(struct tool *t, const bm_result *r,
    void *arg);

/*
 * After placement_setup: run b once per placement (twice for both; once,
 * placing nothing, when p is NULL), with groups of group processes, and
 * hand each result to report(t, r, arg), then free it.
 */
void placement_run(struct tool *t, struct placement *p, unsigned group,
    const bm_bench *b, placement_report_fn report, void *arg);

/*
 * Measure a two-process latency once per placement (twice for both) and
 * report each: placement_setup, then tool_run and placement_report_us.
 */
void placement_run_us(struct tool *t, struct placement *p, const bm_bench *b,
    const char *case_name, const char *label);

/* The classic line's suffix: " (cross)" or " (same)", "" when nothing was placed. */
const char *placement_suffix(const struct placement *p);

/*
 * Print "label: N microseconds" with the suffix (or the record), as
 * tool_report_us does.
 */
void placement_report_us(struct tool *t, const struct placement *p,
    const char *case_name, const bm_param *params, size_t nparams,
    const bm_result *r, const char *label);

/* The mode's name: "cross" or "same". */
const char *placement_name(int mode);

#endif /* BM_PLACEMENT_H */
