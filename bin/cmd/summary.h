/* summary.h: benchmp summary, the summary table of a results file (summary*.c). */
#ifndef BM_SUMMARY_H
#define BM_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "internal.h"
#include "clock.h"
#include "verdict/verdict.h"

/* A figure's flags, in the order the first line counts them. */
enum summary_flag {
	SUMMARY_INVALID,	/* the value is not a number */
	SUMMARY_NOISY,
	SUMMARY_DISTURBED,	/* a robust figure's intervals disturbed */
	SUMMARY_BIMODAL,	/* a median's processes in two groups */
	SUMMARY_DISAGREE,
	SUMMARY_CONTRADICTS,
	SUMMARY_BOUND,		/* the interference accounting's bound hit */
	SUMMARY_BUDGET,		/* the run stopped at its time bound */
	SUMMARY_NFLAGS
};

/* The parts of a contradiction with the machine, as printed. */
enum { SUMMARY_WHAT, SUMMARY_MEASURED, SUMMARY_MACHINE, SUMMARY_UNIT,
    SUMMARY_SOURCE, SUMMARY_NPARTS };

/* One contradiction with the machine: its parts as text. */
struct summary_contra {
	char *part[SUMMARY_NPARTS];
};

/*
 * A figure of the table, from the latest record of its name: the value
 * it shows (a robust figure's where the record has one), NAN when it is
 * not a number; its interval and cv, NAN when it has none; text as the
 * record holds it, escaped only when printed.
 */
struct summary_row {
	char *group;
	char *label;
	char *unit;
	double value;
	double lo;
	double hi;
	double level;		/* the interval's coverage */
	int best;		/* a robust figure's interval: "best" */
	double cv;
	double parallel;
	int robust;		/* the record has a robust figure */
	unsigned flags;		/* 1u << enum summary_flag */
	int slow;		/* intervals judged disturbed */
	size_t nmodes;
	char *modes;		/* the first two centres, "1.2/1.8" */
	struct summary_contra *contra;
	size_t ncontra;
	/*
	 * How far the record's value lies from the median of its past runs
	 * on the machine (benchmp history's past_median), as |log| signed
	 * worse positive; NAN when not known or better neither way.
	 */
	double past;
};

/* A per-rank record of an MPI run (aggregate false). */
struct summary_rank {
	double batch;
	double rank;
	size_t at;		/* its place: read, then in the run's order */
	size_t host_id;		/* its host's column */
	char *host;
	char *label;
	double value;		/* NAN when not a number */
};

/*
 * A summary: the options, the figures (the latest record of each, in
 * the order they first came, room for row_cap of them, indexed by
 * label), the per-rank records, the sweeps' points counted, and for the
 * hosts' table each figure's median of each host (med[figure * nhost +
 * host], NAN for none) and of the hosts (mid).
 */
struct summary {
	const char *prog;
	int hosts;		/* -1 as the records say, 0 or 1 */
	struct summary_row *row;
	size_t nrow;
	size_t row_cap;
	struct bm__keymap rows;
	struct summary_rank *rank;
	size_t nrank;
	size_t rank_cap;
	size_t ncurve;
	const char **host;
	size_t nhost;
	double *med;
	double *mid;
	/* The run's clock against its past runs on the machine. */
	struct clock_run clock;
};

/* summary.c: run benchmp summary with its arguments; the exit status. */
int summary_main(const char *prog, int argc, char **argv);
/* Print the usage text to f. */
void summary_usage(FILE *f, const char *prog);

/* summary-row.c: add one record (a bm__reader_each); 0, or -ENOMEM or BM_EPARSE with why. */
int summary_row_add(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize);
/* The figure rec shows (its robust figure where it has one) and its flags, into r. */
void summary_row_figure(const struct bm__jval *rec, struct summary_row *r);
/* How many of the summary's figures are flagged. */
size_t summary_row_flagged(const struct summary *s);
/* Free what the summary holds. */
void summary_row_free_all(struct summary *s);

/* summary-table.c: the columns s takes once printed escaped. */
size_t summary_table_width(const char *s);
/* Write s escaped, padded with spaces to w columns. */
void summary_table_pad(FILE *out, const char *s, size_t w);
/* The title of a group: lmbench's, else the group's name. */
const char *summary_table_title(const char *group);
/* The width of the figure column: 32, or the widest figure. */
size_t summary_table_figwidth(const struct summary *s);
/* A noisy figure's note: how far its interval reaches (summary-table.c). */
void summary_table_noisy(double value, double lo, double hi, char *buf,
    size_t size);
/* Print the whole table: the flagged line, the figures, the lines below. */
void summary_table_print(const struct summary *s, FILE *out);

/* summary-hosts.c: each host's median of each figure, and the hosts'; 0 or -ENOMEM. */
int summary_hosts_medians(struct summary *s);
/* Print the hosts side by side. */
void summary_hosts_print(const struct summary *s, FILE *out);

#endif /* BM_SUMMARY_H */
