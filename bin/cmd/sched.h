/* sched.h: what the visit scheduler's parts (benchmp-sched) share. */
#ifndef BM_SCHED_H
#define BM_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <signal.h>
#include <stdarg.h>

#include "internal.h"
#include "ab.h"

#define SCHED_NAME "benchmp-sched"
/* The shortest budget: a quick figure's least visits fit in 0.2 s. */
#define SCHED_MIN_BUDGET_S 0.2
/*
 * A visit's wait: a figure's first one sets the workers up (gigabytes,
 * maybe); a later one SCHED_VISIT_TIMES the longest visit its process
 * has taken (a set-up included), within SCHED_VISIT_MIN_S and
 * SCHED_VISIT_S, so that a tool that hangs in a run of 20 ms visits
 * holds the run for half a minute, not two.
 */
#define SCHED_FIRST_VISIT_S 600.0
#define SCHED_VISIT_S 120.0
#define SCHED_VISIT_MIN_S 30.0
#define SCHED_VISIT_TIMES 20.0
/* A line run once, not served: its wait, past the budget. */
#define SCHED_ONCE_S SCHED_FIRST_VISIT_S
/* A process's wait to announce its first figure (calibration included). */
#define SCHED_START_S 300.0
/* The most figures a group may announce (BM_MAX_GROUP). */
#define SCHED_MAX_GROUP 64
/* The most figures a line serves one after another (BM_MAX_SERVED_FIGURES). */
#define SCHED_MAX_FIGURES 1000
/* The most visits a burst= line gives each figure in a row. */
#define SCHED_MAX_BURST 100
/* A process's wait to end once its last figure has ended. */
#define SCHED_EXIT_S 60.0
/*
 * A process's wait to end after its SIGTERM (a signal's, a wait's bound,
 * the run's end) before its SIGKILL: its tool removes its temporary
 * directory and stops its workers.
 */
#define SCHED_TERM_S 5.0
/*
 * A process's wait status where it was not seen (waitpid's ECHILD: a
 * parent that ignored SIGCHLD reaped it): neither an exit nor a signal.
 */
#define SCHED_STATUS_LOST (-1)
/* The longest path of a line's file under --outdir, its NUL included. */
#define SCHED_PATH_MAX 4096
/* A line's longest file name under --outdir: its line, arm and kind. */
#define SCHED_OUTDIR_FILE "/4294967295-A.out"
/* The fewest visits a figure is judged on, and paired on in an A/B. */
#define SCHED_MIN_VISITS 5
/*
 * Outside an A/B, the fewest a figure gets when the budget cannot hold
 * SCHED_MIN_VISITS for every figure (run_floor): a median of three still
 * says where the figure was, its record too few to bound it.
 */
#define SCHED_LEAST_VISITS 3
/*
 * How far past the budget SCHED_MIN_VISITS of every figure may take a
 * run before it gets fewer: a second, so that a tool's own budget of a
 * fraction of one still gives its figure five visits and an interval.
 */
#define SCHED_FLOOR_SLACK_S 1.0
/*
 * The most visits a figure gets unless --max-visits says (about 10 s of
 * measuring): a run given a day's budget still ends.
 */
#define SCHED_MAX_VISITS 400
/* The largest --pool (MB) the options take; the machine bounds it further. */
#define SCHED_MAX_POOL_MB 1048576
/*
 * An A/B's fresh workers: every this many calls (SCHED_AB_ALT visits of
 * each arm), SCHED_AB_FRESH_ONE in a plan of one line.  A set of workers
 * differs from the next that its tool forks by about 2% in lat_syscall
 * null's B/A for as long as it lives (on a 2-vCPU AMD EPYC KVM guest,
 * 2026-12-07: two calls of one set 1.0-1.4% apart, SD; of two sets
 * 2.6-3.1%), so a set a call makes a generation's median the mean of its
 * sets: +1% caught in 10 of 10 trials (3.2 s in the median) where a set
 * every four calls caught it in 9 (6.7 s), the A/As alike.  In a suite's
 * A/B the sets' cost is the other figures' time: a set a call left its
 * figures a third fewer pairs (doc/measurements.md, "Decisions: a set of
 * workers a call").
 */
#define SCHED_AB_FRESH 4
#define SCHED_AB_FRESH_ONE 1
/*
 * An A/B visits a pair's two arms in turns, SCHED_AB_ALT visits each of
 * a SCHED_AB_ALT-th of the visit's length (A B B A A B B A), and pairs
 * each turn: the host's states (on a 2-vCPU Intel Xeon guest,
 * 2026-12-01, null system calls of 72 or 89 ns, each lasting a few
 * milliseconds to a second) then fall on both arms of a pair far more
 * often.  Over a 12 s trace of that host (tests/bench/turns), the median
 * of four turns of 5 ms put 90% of A/A calls within +-8.0%, one pair of
 * 20 ms visits within +-21.3%; ten turns of 2 ms, +-1.5%, cost 1.6 times
 * the wall time (doc/measurements.md, "Decisions: A and B in turns").
 */
#define SCHED_AB_ALT 4
/*
 * Outside an A/B, fresh workers every this many visits of a figure unless
 * --fresh-every says.  Every 4 visits repeated no better from run to run
 * in suites of a noisy hour: within 3% 40% of the figures against 38%,
 * measuring 57-59% of the wall time against 62-64% (a 2-vCPU AMD EPYC
 * KVM guest, 2026-12-07): unpaired, the host's phases move a figure from
 * visit to visit (3.4-4.8%) by more than a set's offset (about 2%), which
 * an A/B's pairing leaves, and renews (SCHED_AB_FRESH).  See
 * doc/measurements.md, "2026-12-07, from 10:47 UTC: a suite's sets of
 * workers, every 10 visits or 4".
 */
#define SCHED_FRESH_EVERY 10
/*
 * Outside an A/B, fresh workers no oftener than keeps what setting them
 * up costs (a 256 MB buffer faulted: 200 ms) within this share of the
 * time the kept ones' visits take.
 */
#define SCHED_FRESH_SHARE 0.25
/*
 * An A/B's generations: both arms' tools of a line's last figure started
 * afresh once a restart costs at most this share of the pairs' time
 * since the last, at the latest after SCHED_AB_GEN_MAX pairs; the first
 * restart (its cost not known yet) after SCHED_AB_GEN_FIRST pairs.
 */
#define SCHED_AB_GEN_SHARE 0.5
#define SCHED_AB_GEN_FIRST 4
#define SCHED_AB_GEN_MAX 50
/*
 * And no later than leaves a figure this many generations of the pairs
 * it can expect in the budget (two pairs a generation at the least): a
 * suite's A/B at 240 s gives a cheap figure about 15 pairs.
 */
#define SCHED_AB_GENS 20
/* The fewest clusters (generations, or sets of workers) an A/B judges. */
#define SCHED_MIN_CLUSTERS 6
/* At most this many pairs of a cheap figure in a row in a sweep. */
#define SCHED_AB_REPS 4
/*
 * A pair whose last look's p (no change) is under SCHED_AB_HOT_P gets
 * SCHED_AB_HOT times a sweep's share of time (and of SCHED_AB_REPS): the
 * budget goes where a verdict is near.  Equal shares left a +5% on
 * lat_syscall null undecided in a suite's A/B at 240 s: 13 clusters,
 * [1.011, 1.078] on a 2-vCPU Intel Xeon guest (2026-12-01), where a
 * sweep already gave it its share (doc/measurements.md, "2026-12-01,
 * from 03:05 UTC: the Intel Xeon guest").
 */
#define SCHED_AB_HOT_P 0.05
#define SCHED_AB_HOT 4
/* A/B: looks at 1 - alpha/figures, final intervals at 95%, FDR 5%. */
#define SCHED_LOOK_ALPHA 0.005
#define SCHED_LEVEL 0.95
#define SCHED_FDR 0.05

/* Exit statuses, the gate's: as benchmp-ab's and benchmp compare's. */
enum {
	SCHED_EXIT_OK = 0,
	SCHED_EXIT_WORSE = 1,
	SCHED_EXIT_USAGE = 2,
	SCHED_EXIT_UNDECIDED = 3,
	SCHED_EXIT_FAIL = 4
};

/* What a process of the plan is doing. */
enum sched_state {
	SCHED_P_NEW,		/* not started */
	SCHED_P_START,		/* started, its first figure not announced */
	SCHED_P_IDLE,		/* a figure announced, waiting for a visit */
	SCHED_P_VISIT,		/* a visit asked for, not answered yet */
	SCHED_P_RELEASE,	/* its workers asked to go, not answered yet */
	SCHED_P_END,		/* its figure ended, the next not announced */
	SCHED_P_GONE		/* exited (and reaped) */
};

/* One figure a process serves: its visits' medians and times. */
struct sched_fig {
	struct sched_proc *p;
	unsigned seq;		/* the process's figure number, from 1 */
	unsigned visits;
	double *med;		/* each visit's median time per operation */
	double wall_ns, timed_ns;	/* over its visits */
	unsigned on_set;	/* visits on its current worker set */
	unsigned nset, nkept;	/* later sets' first visits, kept visits */
	double set_ns, kept_ns;	/* their wall times */
	double longest;		/* its longest visit as waited for (s) */
	unsigned vbase;		/* visits before its process's (a restart) */
	int precise;		/* ended on reaching --precision */
	int done;		/* ended */
	unsigned pair;		/* A/B: the pair it belongs to, + 1 */
};

/* One process of the plan: a tool served (or run once) in one arm. */
struct sched_proc {
	char **argv;		/* NULL-terminated; argv[0] the program */
	unsigned line;		/* plan line, from 1 */
	char arm;		/* 'A', 'B', or 0 outside an A/B */
	int once;		/* run between sweeps, to its end */
	unsigned burst;		/* once: served, each figure this many visits in a row */
	int restart;		/* A/B: a fresh process for every visit */
	uint64_t visit_us;	/* its visits' timed length, 0: the run's */
	unsigned figures;	/* figures the plan says it serves */
	unsigned parts;		/* of them the first, parts of the others */
	int counted;		/* the plan gave figures= or parts= */
	int told;		/* its tool's first figure said them instead */
	pid_t pid;
	/*
	 * Its pipes, -1 when closed: a process whose command pipe is closed
	 * (a protocol fault, a command it could not be sent) is sent SIGTERM
	 * and never visited again, whatever its state says.
	 */
	int cmd, resp, out;
	enum sched_state state;
	int status;		/* wait status once gone, or SCHED_STATUS_LOST */
	char rbuf[256];		/* a response line read in part */
	size_t rlen;
	char *text;		/* what it printed on stdout */
	size_t tlen, tcap;
	struct sched_fig *cur;	/* the figure it serves now */
	/*
	 * A group (bm_run_group): figures served together on one set of
	 * workers, visited in any order: those announced and not ended
	 * (cur among them, the one visited), how many are still to be
	 * announced after its "group" line, and how many it announced.
	 */
	struct sched_fig **grp;
	unsigned ngrp, gwant, gsize;
	unsigned on_set;	/* visits of its figures on its worker set */
	int held;		/* its figure's workers are set up */
	double rss_kb;		/* their memory when last measured */
	double last_visit;	/* when it was last visited (s) */
	double longest;		/* its longest visit as waited for (s) */
	double started;		/* when it was started (s) */
	unsigned starts;	/* how often it was started */
	size_t *seg;		/* where each start's output begins in text */
	unsigned nseg;
	char cpus[160];		/* A/B: BENCHMP_SCHED for its workers, or "" */
	char why[160];		/* a protocol failure, or "" */
};

/* One plan line: a tool's words and what the scheduler is told of it. */
struct sched_line {
	char **argv;
	size_t argc;
	char *path;		/* the tool's path beside this program, or NULL */
	int once;
	int restart;
	unsigned burst;
	uint64_t visit_us;
	unsigned figures;
	unsigned parts;		/* its first figures, parts of the others */
	int counted;		/* figures= or parts= given */
	double threshold;	/* A/B: this line's, or 0: the default */
};

/* The plan: its lines. */
struct sched_plan {
	struct sched_line *line;
	size_t n;
};

/* sched-plan.c: read a plan file ("-": stdin); 0 or a message in why. */
int sched_plan_read(const char *path, struct sched_plan *plan, char *why,
    size_t size);
/* A plan of one command, its words taken as they are (not split). */
int sched_plan_command(char **argv, size_t argc, struct sched_plan *plan,
    char *why, size_t size);
void sched_plan_free(struct sched_plan *plan);

/* sched-proc.c: processes and their pipes. */
int sched_proc_start(struct sched_proc *p, uint64_t visit_us,
    const char *outdir, int pool);
int sched_proc_send(struct sched_proc *p, const char *cmd);
/* Take an ended figure out of p's group. */
void sched_proc_drop(struct sched_proc *p, const struct sched_fig *f);
void sched_proc_pump(struct sched_proc **ps, size_t n, int sigfd, int ms,
    struct sched_fig *(*newfig)(void *, struct sched_proc *, unsigned),
    void *arg);
void sched_proc_kill(struct sched_proc *p, int sig);
void sched_proc_reap(struct sched_proc *p);


/* The options. */
struct sched_opts {
	double budget;		/* s */
	uint64_t visit_us;
	unsigned fresh_every;	/* visits on one worker set, 0: never new */
	int fresh_given;	/* --fresh-every given */
	unsigned max_visits;	/* the most visits a figure gets */
	double memory_kb;	/* the most the held figures may hold, 0: all */
	double pool_mb;		/* --pool: memory set aside for bandwidths */
	double precision;	/* 0, or the interval's half width sought */
	double threshold;	/* A/B */
	double timeout;		/* --timeout: the longest wait, 0 none */
	unsigned long seed;
	int progress;		/* -1: when stderr is a terminal */
	int json;
	int allow_undecided;
	const char *plan;
	char **command;		/* -- TOOL ARGS: the plan's one command */
	size_t ncommand;
	const char *stats;	/* --stats FILE */
	const char *outdir;	/* --outdir DIR: each line's output apart */
	const char *a, *b;	/* A/B prefixes, or NULL */
};

/*
 * One A/B pair of figures: the same plan line's figure seq in each arm.
 * Its pairs of visits fall in clusters, the unit its verdict counts:
 * the generations of a line whose tools are started afresh (what is
 * fixed at exec, such as the address-space layout, then varies with the
 * cluster, not with the arm), else its sets of workers.
 */
struct sched_pair {
	struct sched_fig *fa, *fb;
	double *a, *b;		/* paired visit medians */
	unsigned *cl;		/* each pair's cluster, from 0 */
	signed char *first;	/* each cluster's arm started first */
	size_t n;
	unsigned ncl;		/* clusters so far */
	unsigned gens;		/* restarts of both arms' tools */
	unsigned on_gen;	/* pairs since the last restart */
	double gen_wall;	/* those pairs' wall time (s), the first excluded */
	double gen_cost;	/* what the last restart cost (s), 0: not known */
	double first_s;		/* its first call's wall time (s) */
	/*
	 * Its restarts cost more than the budget holds for the generations
	 * a verdict needs (pair_out_of_reach): ended, undecided; what reaching
	 * them would have taken (s).
	 */
	int out_of_reach;
	double reach_s;
	double look_p;		/* the last look's p of no change, 1: none */
	double threshold;
	int settled;
	enum ab_verdict verdict;
	bm__paired st;
	int st_rc;
	int blocked;		/* st takes the generations' blocks apart */
	size_t rec;		/* its figure in the records' table + 1, or 0 */
	char nofig;		/* 'A' or 'B': that arm's tool gave no figure */
};

/* Which arm's tool a cluster started first (a generation's), or none. */
enum { SCHED_FIRST_NONE, SCHED_FIRST_A, SCHED_FIRST_B };

/* The scheduler's whole state. */
struct sched {
	struct sched_opts o;
	struct sched_plan plan;
	struct sched_proc *procs, **live;
	size_t np;
	char **prefix[2];	/* the arms' prefix words (ab_split_words) */
	struct sched_fig **figs;
	size_t nf;
	struct sched_pair **pairs;
	size_t npairs;
	double t0, last_progress, wall;
	double expect;		/* the visits a slot can expect in the budget */
	unsigned least;		/* the visits every figure gets (run_floor) */
	double least_at;	/* when it fell below SCHED_MIN_VISITS (s) */
	int sigpipe[2];
	volatile sig_atomic_t caught;
	unsigned visits;
	double timed_ns;
	double once_s;		/* the time the processes run once took */
	double start_s, end_s;	/* served tools' (re)starts, figures' ends */
	unsigned once_ran;
	unsigned releases;	/* figures' workers let go for memory */
	int pool_fd;		/* --pool's memory file, -1: none */
	double pool_s;		/* the time it took to set aside */
	int closing;		/* after the budget: no new generation */
	int cpu[64];		/* A/B: the CPUs its arms are pinned on, */
	unsigned ncpu;		/* 0: not pinned */
	struct ab_table recs;	/* A/B: the arms' records, paired */
};

/* sched-run.c: messages; the visits, until the budget ends; 0 or a signal number. */
double sched_now(void);
void sched_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sched_vsay(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));
int sched_run(struct sched *s);
void sched_start(struct sched *s, struct sched_proc *p);
void sched_terminate(struct sched *s, struct sched_proc *p);
int sched_launch(struct sched *s, struct sched_proc *p);
void sched_await_start(struct sched *s, struct sched_proc *p);
int sched_visit(struct sched *s, struct sched_proc *p);
void sched_end(struct sched *s, struct sched_proc *p);
int sched_end_ask(struct sched_proc *p);
void sched_pin_init(struct sched *s);
/* sched-mem.c: the figures' memory kept within --memory. */
double sched_mem_available_kb(void);
void sched_mem_pool(struct sched *s);
void sched_mem_room(struct sched *s, struct sched_proc *p);
void sched_mem_note(struct sched *s, struct sched_proc *p);
int sched_wait(struct sched *s, struct sched_proc *p, enum sched_state from,
    double limit);
/* sched-pair.c: an A/B's pairs, their looks and final verdicts. */
int sched_pair_visit(struct sched *s, struct sched_pair *pr);
void sched_pair_finish(struct sched *s);
/* Whether an A/B's tool p said at its end that it has no figure. */
int sched_arm_no_figure(const struct sched *s, const struct sched_proc *p);
struct sched_pair *sched_pair_of(struct sched *s, struct sched_fig *f);
int sched_pair_interval(const struct sched_pair *pr, double level,
    bm__paired *st, int *blocked);
int sched_pair_part(const struct sched_pair *pr);
double sched_pair_more_s(const struct sched *s, const struct sched_pair *pr);
unsigned sched_pair_alt(const struct sched_pair *pr);
uint64_t sched_ab_visit_us(const struct sched_line *l, uint64_t visit_us);
/*
 * sched-recs.c: an A/B's pairs named by the records their tools printed
 * (tool, case, unit, direction, each arm's figure); 0 or -1 (memory).
 */
int sched_pair_records(struct sched *s);

#endif
