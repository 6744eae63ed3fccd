/* ab.h: the parts of benchmp-ab: an arm's run, the plan, the records, the paired figures. */
#ifndef BM_AB_H
#define BM_AB_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "internal.h"

/* One run of a command: its process, what it printed, how it ended. */
struct ab_run {
	pid_t pid;
	int out_fd;
	int err_fd;
	char *out;		/* stdout, NUL-terminated */
	size_t out_len;
	size_t out_cap;
	char err[2048];		/* the start of stderr, NUL-terminated */
	size_t err_len;
	int status;		/* the wait status; -1 before it is reaped */
	int timed_out;
	int too_long;		/* stdout passed AB_OUT_MAX */
	char why[512];		/* why it could not start */
};

/* Start argv (NULL-terminated) with its output on pipes. */
int ab_run_start(struct ab_run *run, char *const *argv);
/*
 * fork() for a child that execs a tool: the child has every caught signal
 * and SIGPIPE at their defaults, and no signal sent to it before the
 * exec is lost.  fork()'s value, errno kept.
 */
pid_t ab_fork_tool(void);
/* Read n runs' output until they end or timeout seconds pass; 0 or -1. */
int ab_run_wait(struct ab_run *runs, int n, double timeout,
    volatile sig_atomic_t *stop);
/* 1 (with why) when a run did not end well: signal, status, timeout. */
int ab_run_failed(const struct ab_run *run, char *why, size_t size);
/* Release a run's buffers. */
void ab_run_free(struct ab_run *run);
/*
 * Calibrate once for both arms (enough --export --all, the values set
 * in the environment unless there already).  0, or -1 and why.
 */
int ab_run_calibrate(volatile sig_atomic_t *stop, char *why, size_t size);
/*
 * Make sure no arm outlives benchmp-ab: a guard process that kills the
 * running arm's group when benchmp-ab ends in any way (SIGKILL too), and
 * handlers of the catchable fatal signals but those in keep (which the
 * caller handles) that kill it and die of the signal.  0 or -1 (errno).
 */
int ab_run_guard(const int *keep, size_t nkeep);
/*
 * Catch SIGINT, SIGTERM and SIGHUP (unless ignored at the start: nohup)
 * with on_signal, ignore SIGPIPE, put SIGCHLD back to its default, and
 * start the guard (ab_run_guard) for every other fatal signal; 0 or -1.
 */
int ab_run_signals(void (*on_signal)(int));

/* One command of the plan: TOOL ARGS, and as typed. */
struct ab_cmd {
	char **argv;		/* NULL-terminated */
	size_t argc;
	char *text;
	double threshold;	/* its figures' own (a fraction), or 0 */
};
struct ab_plan {
	struct ab_cmd *cmd;
	size_t n;
};
/* The most commands of a plan, its longest line and its largest file. */
#define AB_PLAN_MAX		1000
#define AB_LINE_MAX		4096
#define AB_PLAN_BYTES		(1u << 20)
/* The range of a threshold, in percent (--threshold, threshold=). */
#define AB_THRESHOLD_MIN	0.1
#define AB_THRESHOLD_MAX	50

/* Split s into words as a shell would without expansions; NULL and *err. */
char **ab_split_words(const char *s, const char **err);
/* Add a command (copied) to the plan.  0 or -1 (no memory). */
int ab_plan_add(struct ab_plan *p, char *const *argv, size_t argc);
/* Read a plan file: one TOOL ARGS a line.  0, or -1 and *err. */
int ab_plan_read(struct ab_plan *p, const char *path, const char **err);
/* Release a plan. */
void ab_plan_free(struct ab_plan *p);
/* 1 when the last of a prefix's n words is a directory (ends in /). */
int ab_dir_prefix(char **prefix, size_t n);
/* PREFIX TOOL ARGS [TAIL], a directory prefix joined to TOOL (free it). */
char **ab_prefix_argv(char **prefix, const char *tool, char *const *args,
    size_t nargs, const char *tail);
/* An arm's argv for a command: PREFIX TOOL ARGS --json (free it). */
char **ab_arm_argv(char **prefix, const struct ab_cmd *cmd);
/* The program an arm runs that cannot be found, or NULL (static). */
char *ab_arm_missing(char **prefix, const char *tool);
/* The path of name beside this program, if it is there: 0 or -1. */
int ab_beside_self(const char *name, char *path, size_t size);
/* The folder of this program (/proc/self/exe), into dir: 0 or -1. */
int ab_self_dir(char *dir, size_t size);
/* 1 when name (a path, else looked up on PATH) is found as execvp() would find it. */
int ab_plan_found(const char *name);

/* Which way a figure is better: a record's "better". */
enum ab_better { AB_LOWER, AB_HIGHER, AB_NONE };

/* What benchmp-ab reads of one record an arm printed. */
struct ab_rec {
	char *tool;
	char *kase;
	char *params;		/* its JSON text, private directories as <tmp> */
	char *metric;
	char *unit;
	enum ab_better better;
	double value;
	char *key;		/* tool, case, params, metric and occurrence */
};
/*
 * Read the records of an arm's output (one JSON object a line, other
 * lines ignored), each checked: valid JSON, a tool, a value that is a
 * measurement.  The count, -1 and why (naming the arm), or -2 when
 * *stop was set.
 */
long ab_record_read(const char *out, char arm, struct ab_rec **recs,
    char *why, size_t size, volatile sig_atomic_t *stop);
/*
 * Pointers to the n records of v sorted by key, and by their place in
 * the output among the same keys (malloc); NULL without memory.
 */
struct ab_rec **ab_record_sorted(struct ab_rec *v, long n);
/*
 * Append the records of one run to f (read by ab_record_read without an
 * error first), each marked with its arm and round (the keys go first in
 * the object).  0 or -1 (errno).
 */
int ab_record_save(FILE *f, const char *out, char arm, unsigned round);
/* Release n records and their array. */
void ab_record_free(struct ab_rec *v, long n);
/* A record's figure for messages: tool case metric, control bytes as '?'. */
void ab_record_name(const struct ab_rec *r, char *buf, size_t size);

/*
 * The factor that turns a value in unit from into unit to (both of one
 * kind: time, size, bandwidth or frequency, or the same word): 0, or -1
 * when they are not of one kind.
 */
int ab_unit_factor(const char *from, const char *to, double *factor);

enum ab_verdict { AB_UNDECIDED, AB_SAME, AB_WORSE, AB_BETTER, AB_CHANGED };

/* The A/B verdict of a verdict of the library's (bm__verdict_paired). */
static inline enum ab_verdict
ab_verdict_of(enum bm__verdict v)
{
	switch (v) {
	case BM__V_SAME:
		return AB_SAME;
	case BM__V_WORSE:
		return AB_WORSE;
	case BM__V_BETTER:
		return AB_BETTER;
	case BM__V_CHANGED:
		return AB_CHANGED;
	default:
		return AB_UNDECIDED;
	}
}

/* One figure: its identity, its paired values, its verdict. */
struct ab_figure {
	size_t cmd;
	char *key;		/* tool, case, params, metric and occurrence */
	char *tool;
	char *kase;
	char *params;		/* the record's JSON text */
	char *metric;
	char *unit;		/* A's first; every value is paired in it */
	enum ab_better better;
	double threshold;	/* a fraction */
	double *a;
	double *b;
	size_t n;
	size_t cap;
	int settled;
	enum ab_verdict verdict;
	int stats_rc;
	bm__paired st;
	double more_s;		/* the time that would decide it, or NAN */
};
struct ab_table {
	struct ab_figure *fig;
	size_t n;
	size_t cap;
	size_t *slot;		/* a hash of (cmd, key): index + 1, 0 empty */
	size_t nslot;
};

/* An empty table. */
void ab_table_init(struct ab_table *t);
/*
 * Pair the records of two arms' outputs of command cmd, whose figures'
 * threshold is threshold.  0, -1 and why, or -2 when *stop was set.
 */
int ab_table_add(struct ab_table *t, size_t cmd, double threshold,
    const char *out_a, const char *out_b, char *why, size_t size,
    volatile sig_atomic_t *stop);
/* 1 when every figure of command cmd is settled. */
int ab_table_settled(const struct ab_table *t, size_t cmd);
/* Release a table. */
void ab_table_free(struct ab_table *t);
/* Look at every figure not settled yet after a round: settle what is clear. */
void ab_decide_look(struct ab_table *t, unsigned min_rounds,
    enum bm__paired_test test, volatile sig_atomic_t *stop);
/*
 * The final verdicts, and for the figures left undecided the time that
 * would decide them (spent[c]: command c's pairs' seconds).  0 or -1.
 */
int ab_decide_finish(struct ab_table *t, unsigned min_rounds,
    enum bm__paired_test test, const double *spent);

/*
 * How many times its rounds or clusters an undecided interval [lo, hi]
 * around shift (logs of B/A) needs to decide at threshold, or NAN.
 */
double ab_more_factor(double lo, double hi, double shift, double threshold);
/* The verdict's word. */
const char *ab_verdict_word(enum ab_verdict v);
/* Print a figure as a line of text. */
void ab_print_line(FILE *f, const struct ab_figure *fig, int control);
/*
 * A plan line's leading threshold=P word (percent, an optional %, from
 * AB_THRESHOLD_MIN to AB_THRESHOLD_MAX) into *fraction: 1 when the word
 * is one, 0 when not, -1 when its value is out of range.
 */
int ab_plan_threshold(const char *word, double *fraction);
/* The median of n values (NAN for none). */
double ab_median(const double *v, size_t n);
/* Print ,"key":v in JSON (null when v is not finite). */
void ab_json_number(FILE *f, const char *key, double v);
/* Print fig's tool, case, params, metric, unit and better as JSON members. */
void ab_json_ident(FILE *f, const struct ab_figure *fig);
/* Print a figure as one JSON object on a line. */
void ab_print_json(FILE *f, const struct ab_figure *fig, int control,
    const char *mode, const char *test, int interrupted);

#endif
