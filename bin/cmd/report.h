/* report.h: benchmp report, one self-contained HTML page of a run's records (report*.c). */
#ifndef BM_REPORT_H
#define BM_REPORT_H

#include <stdio.h>

#include "compare.h"

/* Room for one number as text (four digits, a coordinate, a tick). */
#define REPORT_NUM	48

/*
 * One record of a file, as the page shows it: the record as read, its
 * figure as benchmp compare reads it, its name on the page, its section
 * (suite.group, else memory or other) and placement (params.placement),
 * 1 + the first record of its scaling series (0 in none) and 1 + the
 * next record of that series (0: the last, or none), on the first
 * record of a name that name's last, whether it is the last of its name
 * (shown: a series' records never are) and shown in its section (plain:
 * not a sweep's point); A's partner in B and compare's row of the two;
 * for B, whether a shown (paired) or plain (used) record of A has a
 * partner of its key.
 */
struct report_rec {
	struct bm__jval *j;
	struct bm__fig f;
	char *label;
	const char *group;
	const char *place;
	size_t series;
	size_t next;
	struct report_rec *latest;
	int shown;
	int plain;
	struct report_rec *pair;
	const struct compare_row *row;
	int paired;
	int used;
};

/* The records of one file, in its order. */
struct report_run {
	const char *path;
	struct report_rec *rec;
	size_t n;
	size_t cap;
};

/* Records picked for a part of the page, in the order of the file. */
struct report_list {
	const struct report_rec **r;
	size_t n;
};

/* A report: its options, its runs, the machine, the comparison, the page. */
struct report {
	const char *prog;
	const char *output;
	const char *machine_path;
	char *own[2];			/* the default output and machine */
	struct report_run run[2];
	size_t nrun;
	struct bm__jval *machine;	/* NULL without a description */
	struct compare cmp;		/* with B: benchmp compare's rows */
	FILE *o;			/* the page, drawn in memory */
	int err;			/* -ENOMEM: a part not drawn */
};

/* Run benchmp report with its arguments; the exit status. */
int report_main(const char *prog, int argc, char **argv);
/* Print report's usage text to f. */
void report_usage(FILE *f, const char *prog);

/* Names, sections, scaling series, the latest record of each name, pairs (report-rec.c); 0 or -ENOMEM. */
int report_rec_prepare(struct report *r);
/* Free the records of a run. */
void report_rec_free(struct report_run *run);
/* The records of in (or, with in NULL, run's latest of each name) that keep accepts, into out; 0 or -ENOMEM. */
int report_rec_pick(struct report_list *out, const struct report_run *run,
    const struct report_list *in,
    int (*keep)(const struct report_rec *, const void *), const void *arg);
/* Whether x is flagged (invalid, noisy, bimodal, disagree, contradicts, bound or budget hit). */
int report_rec_flagged(const struct report_rec *x);

/*
 * Write fmt to r's page (report-put.c), its directives replaced: %s a
 * string as it is, %h a string escaped for HTML, %c escaped and cut to a
 * label's width, %f a number in four digits, %p a coordinate, %g a
 * number, %t an axis value, %k a size (32K), %d an int, %z a size_t.
 */
void report_put(struct report *r, const char *fmt, ...);
/* Write v escaped: a string as it is, else as JSON; dflt for null or false when not NULL. */
void report_put_text(struct report *r, const struct bm__jval *v,
    const char *dflt);
/* A size as 32K, 1M or 8G where it is whole in those, into buf. */
char *report_put_human(char *buf, double x);
/* Write the interval of x with its coverage, "-" without one. */
void report_put_ival(struct report *r, const struct report_rec *x);
/* Write the note of x (its flags, what explains them), "; " after *n items before, a record's first item led by lead. */
void report_put_note(struct report *r, const struct report_rec *x,
    const char *lead, size_t *n);

/* A step for an axis from 0 to at least top: 1, 2 or 5 times a power of ten, at most eight steps (report-chart.c). */
double report_chart_step(double top);
/* One bar chart of the records of a section in one unit. */
void report_chart_bars(struct report *r, const char *group, const char *unit,
    const struct report_list *l);
/* One row of the comparison: A's record x, B's y, B/A and its range, the verdict. */
struct report_cmp {
	const struct report_rec *x;
	const struct report_rec *y;
	double ratio;
	double lo;
	double hi;
	const char *verdict;
};
/* The chart of the ratios B/A, coloured by verdict. */
void report_chart_ratios(struct report *r, const struct report_cmp *c,
    size_t n);

/* The scaling section: each series' speed-up chart and table (report-scale.c). */
void report_scale(struct report *r);
/* The lat_mem_rd section: its text, its curve and its table (report-mem.c). */
void report_mem(struct report *r, const struct report_list *mem);

/* The paragraphs on the host's moves: the run against its past runs, its clock (report-past.c); A's latest records a, B's b. */
void report_past(struct report *r, const struct report_list *a,
    const struct report_list *b);

/* Draw the page into r->o (report-page.c). */
void report_page(struct report *r);
/* Write the table of records l (report-page.c). */
void report_page_table(struct report *r, const struct report_list *l);

#endif /* BM_REPORT_H */
