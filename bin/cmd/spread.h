/* spread.h: benchmp spread, how the figures of several runs spread from run to run (spread*.c). */
#ifndef BM_SPREAD_H
#define BM_SPREAD_H

#include <stddef.h>
#include <stdio.h>

#include "internal.h"
#include "verdict/verdict.h"

/* The exit statuses. */
enum spread_exit {
	SPREAD_OK = 0,		/* the report was printed, whatever it says */
	SPREAD_FAILED = 1,	/* a file, its records, memory or the output */
	SPREAD_USAGE = 2
};

/* The most runs read: K*(K-1) ordered pairs of them are judged. */
#define SPREAD_RUNS_MAX		100

/*
 * The rules and targets of the repeatability report (benchmp-repeat
 * prints them with the totals): a figure repeats when its run-to-run CV
 * is at most 3%, and 80% of the figures should; one beyond 10% moves,
 * and a run more than 10% off the median of the runs that did not flag
 * the figure is a false assurance (a user reads one run), of which there
 * should be none; 90% of next runs should fall inside the previous
 * run's interval; a run should flag at most 15% of its figures, last
 * at most 90 s and measure for at least 60% of that.
 */
#define SPREAD_WITHIN		0.03
#define SPREAD_WITHIN_SHARE	0.8
#define SPREAD_BEYOND		0.10
#define SPREAD_OFF		0.10
#define SPREAD_NEXT_SHARE	0.9
#define SPREAD_FLAGGED_SHARE	0.15
#define SPREAD_WALL_S		90
#define SPREAD_MEASURED_SHARE	0.6
/* The rounding of a run's wall and measured seconds that --measured forgives. */
#define SPREAD_ROUNDING_S	0.1

/*
 * What one record of a run shows, as benchmp summary shows it: the value
 * (its robust figure, the best process, where the record has one; NAN
 * when not a number), the value judged against another run's interval
 * (that figure, else the record's median, else its value), its interval
 * and whether it is one worth the name (both ends, in order, from two
 * samples or more), whether the summary flags it, and whether it is a
 * point of a size sweep (suite.curve).
 */
struct spread_shown {
	double value;
	double mid;
	double lo;
	double hi;
	int interval;
	int flagged;
	int curve;
};

/*
 * One run: its figures (the last record of each key, where the first
 * was), what each shows (shown[i] for set.fig[i], room for shown_cap
 * of them), the share of flagged figures its summary gives (nflagged of
 * nrows; none when nrows is 0), its wall time and the seconds it
 * measured (NAN when not known) and its exit status.
 */
struct spread_run {
	const char *path;
	struct bm__figset set;
	struct spread_shown *shown;
	size_t shown_cap;
	size_t nflagged;
	size_t nrows;
	double wall;
	double measured;
	int exit;
};

/*
 * A pair of runs that benchmp compare judged: the runs (0 is the first),
 * compare's exit status, and its --tsv rows: each figure's name (as
 * compare prints it, escaped) and verdict, sorted by name.
 */
struct spread_pair {
	size_t a;
	size_t b;
	int exit;
	const char *path;
	char *text;
	struct spread_verdict *row;
	size_t nrow;
};

/* One row of a pair: a figure's escaped name, its verdict, and where it came. */
struct spread_verdict {
	const char *name;
	const char *word;
	size_t at;
};

/*
 * A figure found with a value in every run: run 1's figure, the
 * library's median and CV of its values, the ordered pairs of runs (i,
 * j) whose value j fell inside i's interval (hits of npairs; npairs 0
 * when a run has no interval), the consecutive ones (next of nnext), the
 * runs off the median by more than SPREAD_OFF that did not flag it, and
 * compare's verdict of each pair ("?" when it has none).
 */
struct spread_fig {
	const struct bm__fig *fig;
	size_t *at;		/* its place in each run's set */
	double median;
	double cv;
	size_t hits;
	size_t npairs;
	size_t next;
	size_t nnext;
	size_t off;
	int curve;
	const char **verdict;
};

/* The totals of a kind of figure (a sweep's points apart). */
struct spread_total {
	size_t n;
	size_t within;
	size_t beyond;
	size_t misled;		/* beyond, and off in a run that did not flag it */
	size_t next;
	size_t nnext;
};

/*
 * The runs' clock, where mhz's figure is in every run (fig NULL when
 * not): that figure; of the other figures (a sweep's points apart),
 * the n beyond SPREAD_WITHIN run to run, and those of them within it
 * once each run's value is scaled by the clock its run read
 * (clock_scaled; a figure that is neither a time nor a rate is not).  A
 * report says how many figures moved with the host's clock, which
 * benchmp cannot hold still.
 */
struct spread_clock {
	const struct spread_fig *fig;
	size_t n;
	size_t within;
};

/* The targets of the totals, in the order they are printed. */
enum spread_target {
	SPREAD_T_WITHIN,	/* figures within 3% CV */
	SPREAD_T_MISLED,	/* no figure beyond 10% off in a run unflagged */
	SPREAD_T_NEXT,		/* next runs inside the previous interval */
	SPREAD_T_COMPARE,	/* every pair's compare exited 0 */
	SPREAD_T_FLAGGED,	/* each run's share of flagged figures */
	SPREAD_T_WALL,		/* each run's wall time */
	SPREAD_T_MEASURED,	/* each run's share of it measuring */
	SPREAD_NTARGETS
};

/* A target with nothing to judge it by. */
#define SPREAD_NONE	(-1)

/*
 * A report: its options, the runs, the pairs and the figures found in
 * every run, the totals and whether each target is met (1), missed (0)
 * or not judged (SPREAD_NONE).
 */
struct spread {
	const char *prog;
	int json;
	int walls;		/* --wall gave the wall times */
	int measured;		/* --measured gave the seconds measuring */
	struct spread_run *run;
	size_t nrun;
	struct spread_pair *pair;
	size_t npair;
	struct spread_fig *fig;
	size_t nfig;
	struct spread_total total;
	struct spread_total curve;
	struct spread_clock clock;
	int met[SPREAD_NTARGETS];
};

/* spread.c: run benchmp spread with its arguments; the exit status. */
int spread_main(const char *prog, int argc, char **argv);
/* Print the usage text to f. */
void spread_usage(FILE *f, const char *prog);

/* spread-runs.c: read each run's records; 0, or -1 with a message. */
int spread_runs_read(struct spread *s);
/* The figures found in every run, their statistics and the totals; 0, or -1 with a message. */
int spread_runs_judge(struct spread *s);
/* Free what the runs and figures hold. */
void spread_runs_free(struct spread *s);

/* spread-pair.c: read the rows of compare --tsv of each pair; 0, or -1 with a message. */
int spread_pair_read(struct spread *s);
/* The verdict of the figure named name (raw) in pair p, or "?"; NULL when out of memory. */
const char *spread_pair_verdict(const struct spread_pair *p, const char *name);
/* Free what the pairs hold. */
void spread_pair_free(struct spread *s);

/* spread-out.c: the table and the totals as text; 0, or -1 on a write error. */
int spread_out_text(const struct spread *s, FILE *out);
/* The report as one JSON object; 0, or -1. */
int spread_out_json(const struct spread *s, FILE *out);

/* spread-sides.c: benchmp spread --sides, two tools' runs side by side; the exit status. */
int spread_sides_main(const char *prog, const char *table, const char *walls,
    const char *failed, const char *values);

#endif /* BM_SPREAD_H */
