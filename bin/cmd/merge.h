/* merge.h: benchmp merge, the passes of each figure merged into one record (merge*.c). */
#ifndef BM_MERGE_H
#define BM_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "internal.h"
#include "verdict/verdict.h"

/* The exit statuses. */
enum merge_exit {
	MERGE_OK = 0,		/* written, whatever figures were kept apart */
	MERGE_FAILED = 1,	/* the input, its records, memory or the output */
	MERGE_USAGE = 2
};

/* No next record: the last of its figure. */
#define MERGE_NONE	((size_t)-1)

/*
 * The most rounds and values of one figure merged, benchmp-stats' own
 * bounds (a suite's figure has tens of rounds, thousands of values).
 */
#define MERGE_ROUNDS_MAX	100000u
#define MERGE_VALUES_MAX	10000000u

/*
 * One record read: the parsed object (with its line of the plan in
 * "_line"), its line in the input, its figure's key (compact JSON), the
 * first record of its figure and the next one (MERGE_NONE after the
 * last), and on a figure's first record the count of its records and
 * what is written in its place (the merged record, or the last pass;
 * NULL on the others: their figure is written where it first came).
 */
struct merge_rec {
	struct bm__jval *rec;
	size_t line;
	char *key;
	size_t first;
	size_t next;
	size_t count;
	struct bm__jval *out;
};

/*
 * A merge: the program's name for messages, the input and output
 * (NULL: standard output), the records in the order read, and how many
 * figures were merged and how many kept as their last pass.
 */
struct merge {
	const char *prog;
	const char *input;
	const char *output;
	struct merge_rec *rec;
	size_t n;
	size_t cap;
	size_t merged;
	size_t kept;
};

/* merge.c: run benchmp merge with its arguments; the exit status. */
int merge_main(const char *prog, int argc, char **argv);
/* Print the usage text to f. */
void merge_usage(FILE *f, const char *prog);

/*
 * merge-key.c: key each record by its figure and chain the records of
 * each figure; 0, or -1 with a message (out of memory).
 */
int merge_key_group(struct merge *m);
/*
 * The key of a record's figure as compact JSON into *key (malloc'd):
 * [suite.figure, tool, case, metric, params.placement, parallel, rank,
 * aggregate], and a record without suite.figure's parameters after them;
 * 0 or -ENOMEM.
 */
int merge_key_of(const struct bm__jval *rec, char **key);
/*
 * merge-figure.c: merge the records of each figure recorded more than once, setting
 * each first record's out (a figure that cannot be merged keeps its last
 * pass, with a warning); 0, or -1 with a message (out of memory).
 */
int merge_figure_all(struct merge *m);

/*
 * merge-json.c: set an object's member name to *v (taken: *v is null
 * after), in place where the object has it, else last, as jq's + does;
 * 0 or -ENOMEM (*v then untouched).
 */
int merge_json_set(struct bm__jval *obj, const char *name,
    struct bm__jval *v);
/* Remove an object's members named name, as jq's del does. */
void merge_json_del(struct bm__jval *obj, const char *name);
/* Move *from into *to (freed first); *from is null after. */
void merge_json_move(struct bm__jval *to, struct bm__jval *from);

#endif /* BM_MERGE_H */
