/* scaling.h: benchmp scaling, one tool at 1, 2, 4, ... workers (scaling*.c). */
#ifndef BM_SCALING_H
#define BM_SCALING_H

#include <stddef.h>
#include <stdio.h>

#include "internal.h"
#include "verdict/verdict.h"

/* The exit statuses (a signal that stops the runs: 128 + the signal). */
enum {
	SCALING_OK = 0,
	SCALING_FAILED = 1,	/* a run, the records file, the plot, stdout */
	SCALING_USAGE = 2
};

/* The largest worker count, and the default and largest timeout of a run (s). */
#define SCALING_MAX_WORKERS	4096
#define SCALING_TIMEOUT		600
#define SCALING_TIMEOUT_MAX	86400

/*
 * One point of the table, from the record its run printed: the workers
 * (the record's parallel, else the -P given), the aggregate throughput
 * and its interval (the library's, bm__throughput), the record's own
 * figure (NAN when not a number) and unit, and the one reason the point
 * is not to be taken at its word ("" when none).
 */
struct scaling_row {
	double workers;
	struct bm__throughput tp;
	double value;
	char *unit;
	char note[32];
};

/*
 * A scaling run: the options (NULL and 0 where not given), the tool and
 * its arguments as given, then what was found: the tool as run, the
 * records file and its descriptor, the plot's base name (NULL: none),
 * the folder of this program, the CPUs this process may use, and the
 * points measured.
 */
struct scaling {
	const char *prog;
	unsigned max;
	const char *output;
	const char *plot;
	int noplot;
	unsigned timeout;
	char **args;
	int nargs;
	char *tool;
	char *records;
	int fd;
	char *base;
	char self[4096];
	unsigned ncpu;
	struct scaling_row *row;
	size_t nrow;
};

/* scaling.c: run benchmp scaling with its arguments; the exit status. */
int scaling_main(const char *prog, int argc, char **argv);
/* Print the usage text to f. */
void scaling_usage(FILE *f, const char *prog);
/* Say why the command fails (printf-like) and return the failing status. */
int scaling_fail(const struct scaling *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* scaling-find.c: the folder of this program into s->self ("" when unknown). */
void scaling_find_self(struct scaling *s);
/*
 * The program name as the scripts find a tool: a path as it is, else
 * beside this program, in build/bin or bin/ of the tree it is in, else
 * name itself (for PATH); malloc'd, or NULL when out of memory.
 */
char *scaling_find(const struct scaling *s, const char *name);

/* scaling-files.c: check where the records and plots go, make and open the records file; 0 or the exit status. */
int scaling_files_prepare(struct scaling *s);
/* Append one record (len bytes, no newline) to the records file; 0 or the exit status. */
int scaling_files_append(struct scaling *s, const char *rec, size_t len);

/* scaling-run.c: run the tool at every point, keep its records and rows; 0 or the exit status. */
int scaling_run_points(struct scaling *s);
/* Draw the plot with benchmp-plot, if there is one to draw; 0 or the exit status. */
int scaling_run_plot(struct scaling *s);

/* scaling-table.c: the row of one record (parsed) at workers p; 0 or -ENOMEM. */
int scaling_table_add(struct scaling *s, const struct bm__jval *rec,
    unsigned p);
/* Print the table of the points to out. */
void scaling_table_print(const struct scaling *s, FILE *out);
/* Free the rows. */
void scaling_table_free(struct scaling *s);

#endif /* BM_SCALING_H */
