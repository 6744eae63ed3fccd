/* compare.h: benchmp compare, two runs' records judged figure by figure (compare.c, compare-out.c). */
#ifndef BM_COMPARE_H
#define BM_COMPARE_H

#include <stdio.h>

#include "internal.h"
#include "clock.h"
#include "verdict/verdict.h"

/* The exit statuses of the gate, agreed project-wide. */
enum compare_exit {
	COMPARE_OK = 0,		/* nothing worse, nothing undecided */
	COMPARE_WORSE = 1,	/* a figure worse */
	COMPARE_USAGE = 2,	/* a usage error */
	COMPARE_UNDECIDED = 3,	/* a figure undecided, none worse */
	COMPARE_FAILED = 4	/* a file, a record or a figure failed */
};

/* One row: the figures of A and B (either may be NULL) and the judgement. */
struct compare_row {
	const struct bm__fig *a;
	const struct bm__fig *b;
	struct bm__judgement j;
	int gating;		/* 0 for a sweep's point (suite.curve) */
	int noplace;		/* unpinned, near no placement of the other */
	char at[80];		/* " [unpinned at cross]" */
};

/* One difference of the two machines: a member's path and both values. */
struct compare_mdiff {
	char *key;
	char *a;
	char *b;
};

/* A comparison: its settings, its rows and their counts. */
struct compare {
	const char *prog;
	double threshold;
	double alpha;
	enum bm__correction corr;
	int allow_undecided;
	int tsv;
	int matched;		/* -1 not said, 0 --all, 1 --matched */
	int json;
	const char *junit;
	const char *markdown;
	const char *file_a;
	const char *file_b;
	const char *machine_a;
	const char *machine_b;
	int machines;		/* 0 none, 1 both, 2 A's alone, 3 B's alone */
	struct compare_mdiff *md;
	size_t nmd;
	struct bm__figset sa;
	struct bm__figset sb;
	struct compare_row *row;
	size_t nrow;
	size_t count[BM__V_FAILED + 1];
	size_t only_a;
	size_t only_b;
	size_t noplace;
	int status;
	/*
	 * The clock: mhz's row where both runs read it and its verdict is
	 * better or worse (NULL when not), and of the other figures better
	 * or worse (a sweep's points apart), those within CLOCK_WITH of no
	 * change once scaled by the clock's ratio: what the clock explains.
	 */
	const struct compare_row *clock;
	size_t clock_decided;
	size_t clock_with;
	/*
	 * Each run against its machine's past runs (records that benchmp
	 * history gave a past_median; n 0 where fewer than CLOCK_PAST_MIN).
	 */
	struct clock_past past[2];
	/* --threshold-for: glob patterns of names and their thresholds. */
	char **pat;
	double *pat_t;
	size_t npat;
};

/* Run benchmp compare with its arguments; the exit status. */
int compare_main(const char *prog, int argc, char **argv);
/* Set c to a comparison's defaults (threshold, alpha, correction). */
void compare_init(struct compare *c, const char *prog);
/* Pair and judge the figures of c->sa and c->sb into c's rows; 0 or -ENOMEM. */
int compare_decide(struct compare *c);
/* Free what c holds (its sets too). */
void compare_free(struct compare *c);
/* Print compare's usage text to f. */
void compare_usage(FILE *f, const char *prog);
/* Pair the figures of A and B into c's rows; 0 or -ENOMEM. */
int compare_pair(struct compare *c);
/* Find (NAME.machine.json beside NAME.jsonl) and read the machines; 0 or -1. */
int compare_machine_load(struct compare *c);
/* Print the machines' differences (or that one is not known); 0 or -1. */
int compare_machine_text(const struct compare *c, FILE *out);
/* Append the machines' differences to a JSON report. */
void compare_machine_json(const struct compare *c, struct bm__json *b);
/* Free the machines' differences. */
void compare_machine_free(struct compare *c);
/* Write the text report (or --tsv rows) to out; 0 or -1 on a write error. */
int compare_out_text(const struct compare *c, FILE *out);
/* Write the JSON text b built to out, and free it; 0, or -1 with errno. */
int compare_out_flush(struct bm__json *b, FILE *out);
/* Write the report as JSON to out; 0 or -1. */
int compare_out_json(const struct compare *c, FILE *out);
/* Write JUnit XML (one testcase a figure) to path; 0 or -1 with errno. */
int compare_out_junit(const struct compare *c, const char *path);
/* Write a Markdown summary table to path; 0 or -1 with errno. */
int compare_out_markdown(const struct compare *c, const char *path);
/* Write s to f with its control bytes escaped. */
void compare_put_escaped(FILE *f, const char *s);
/* The word of a row: its verdict, "only in A", "only in B", or "worse (curve)". */
const char *compare_row_word(const struct compare_row *r);

#endif /* BM_COMPARE_H */
