/* ab.h: the parts of benchmp-ab: an arm's run, the plan, the paired figures. */
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
/* Read n runs' output until they end or timeout seconds pass; 0 or -1. */
int ab_run_wait(struct ab_run *runs, int n, double timeout,
    volatile sig_atomic_t *stop);
/* 1 (with why) when a run did not end well: signal, status, timeout. */
int ab_run_failed(const struct ab_run *run, char *why, size_t size);
/* Release a run's buffers. */
void ab_run_free(struct ab_run *run);

/* One command of the plan: TOOL ARGS, and as typed. */
struct ab_cmd {
	char **argv;		/* NULL-terminated */
	size_t argc;
	char *text;
};
struct ab_plan {
	struct ab_cmd *cmd;
	size_t n;
};
/* The most commands of a plan, and the longest line of a plan file. */
#define AB_PLAN_MAX		1000
#define AB_LINE_MAX		4096

/* Split s into words as a shell would without expansions; NULL and *err. */
char **ab_split_words(const char *s, const char **err);
/* Add a command (copied) to the plan.  0 or -1 (no memory). */
int ab_plan_add(struct ab_plan *p, char *const *argv, size_t argc);
/* Read a plan file: one TOOL ARGS a line.  0, or -1 and *err. */
int ab_plan_read(struct ab_plan *p, const char *path, const char **err);
/* Release a plan. */
void ab_plan_free(struct ab_plan *p);
/* An arm's argv for a command: PREFIX TOOL ARGS --json (free it). */
char **ab_arm_argv(char **prefix, const struct ab_cmd *cmd);
/* The program an arm runs that cannot be found, or NULL (static). */
char *ab_arm_missing(char **prefix, const char *tool);
/* The path of name beside this program, if it is there: 0 or -1. */
int ab_beside_self(const char *name, char *path, size_t size);

enum ab_verdict { AB_UNDECIDED, AB_SAME, AB_WORSE, AB_BETTER };

/* One figure: its identity, its paired values, its verdict. */
struct ab_figure {
	size_t cmd;
	char *key;		/* tool, case, params, metric and occurrence */
	char *tool;
	char *kase;
	char *params;		/* the record's JSON text */
	char *metric;
	char *unit;
	int higher;		/* a higher value is better */
	double *a;
	double *b;
	size_t n;
	size_t cap;
	size_t skipped;		/* rounds with a value not positive */
	int settled;
	enum ab_verdict verdict;
	int stats_rc;
	bm__paired st;
};
struct ab_table {
	struct ab_figure *fig;
	size_t n;
	size_t cap;
};

/* An empty table. */
void ab_table_init(struct ab_table *t, size_t ncmd);
/* Pair the records of two arms' outputs of command cmd.  0, or -1 and why. */
int ab_table_add(struct ab_table *t, size_t cmd, const char *out_a,
    const char *out_b, char *why, size_t size);
/* 1 when every figure of command cmd is settled. */
int ab_table_settled(const struct ab_table *t, size_t cmd);
/* Release a table. */
void ab_table_free(struct ab_table *t);
/* Print a figure as a line of text. */
void ab_print_line(FILE *f, const struct ab_figure *fig, int control);
/* Print a figure as one JSON object on a line. */
void ab_print_json(FILE *f, const struct ab_figure *fig, double threshold,
    int control, const char *mode, const char *test);

#endif
