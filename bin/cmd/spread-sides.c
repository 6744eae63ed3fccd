/* spread-sides.c: benchmp spread --sides: lmbench's runs of the shared figures beside benchmp's, judged. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "benchmp/stats.h"
#include "spread.h"
#include "summary.h"

/*
 * The verdict of a row (benchmp-vs-lmbench(1)): benchmp's value within
 * 10% of lmbench's, its run-to-run CV at or under lmbench's (or both
 * under 3%: below that the two repeat alike), and its wall time at most
 * a fifth of lmbench's (benchmp calibrates itself in each cold run).
 * The value and the CVs are judged as the row prints them, rounded.
 */
#define SIDES_VALUE_PCT		10
#define SIDES_CV_FLOOR_PCT	3
#define SIDES_WALL_PART		5

/* The most fields a line of the inputs is cut into. */
#define SIDES_FIELDS		3

/* One side's numbers of a figure (its values) or of a run (its wall times), room for cap, and their statistics. */
struct sides_group {
	char *side;
	char *name;
	double *v;
	size_t n;
	size_t cap;
	bm_stats st;
};

/* A side of a set: its name, and its groups by name (places in the set's g). */
struct sides_side {
	char *side;
	struct bm__keymap map;
};

/* Groups of numbers, in the order first seen (room for cap), and the sides seen (a few). */
struct sides_set {
	struct sides_group *g;
	size_t n;
	size_t cap;
	struct sides_side *side;
	size_t nside;
};

/* A run of the table: its name, and whether benchmp ran it at both placements. */
struct sides_run {
	char *name;
	int two;
};

/*
 * The table: the runs, each side's values of each figure, its wall
 * times and failed runs of each run, the figures in the order first
 * seen with the run each came from, and the rows' verdicts counted.
 */
struct sides {
	const char *prog;
	struct sides_run *run;
	size_t nrun;
	struct sides_set val;
	struct sides_set wall;
	struct sides_set failed;
	char **fig;
	const char **figrun;
	size_t nfig;
	size_t figcap;
	struct bm__keymap figs;
	size_t nok;
	size_t ndiffer;
	size_t nother;
};

/* Where a row stands to lmbench's placement. */
enum { SIDES_ONE, SIDES_HERE, SIDES_OTHER, SIDES_UNKNOWN };

/* The name of the group at place at of a set (a bm__keymap_key). */
static const char *
sides_name_at(const void *arg, size_t at)
{
	const struct sides_set *set = arg;

	return set->g[at].name;
}

/* The side of set named side, or NULL. */
static struct sides_side *
sides_side(const struct sides_set *set, const char *side)
{
	size_t i;

	for (i = 0; i < set->nside; i++)
		if (strcmp(set->side[i].side, side) == 0)
			return &set->side[i];
	return NULL;
}

/* The group of side and name in set, or NULL. */
static struct sides_group *
sides_find(const struct sides_set *set, const char *side, const char *name)
{
	const struct sides_side *sd = sides_side(set, side);
	size_t i;

	return sd != NULL && bm__keymap_find(&sd->map, name, sides_name_at,
	    set, &i) ? &set->g[i] : NULL;
}

/* The side of set named side, made when new; NULL on ENOMEM. */
static struct sides_side *
sides_side_add(struct sides_set *set, const char *side)
{
	struct sides_side *sd = sides_side(set, side), *grown;

	if (sd != NULL)
		return sd;
	grown = realloc(set->side, (set->nside + 1) * sizeof *grown);
	if (grown == NULL)
		return NULL;
	set->side = grown;
	sd = &set->side[set->nside];
	memset(sd, 0, sizeof *sd);
	if ((sd->side = strdup(side)) == NULL)
		return NULL;
	set->nside++;
	return sd;
}

/* Add v (none when NAN) to the group of side and name, made when new; 0 or -ENOMEM. */
static int
sides_add(struct sides_set *set, const char *side, const char *name, double v)
{
	struct sides_group *g = sides_find(set, side, name), *grown;
	struct sides_side *sd;
	double *nv;
	size_t cap;

	if (g == NULL) {
		if ((sd = sides_side_add(set, side)) == NULL)
			return -ENOMEM;
		if (set->n == set->cap) {
			cap = set->cap > 0 ? 2 * set->cap : 16;
			if ((grown = realloc(set->g, cap * sizeof *grown)) ==
			    NULL)
				return -ENOMEM;
			set->g = grown;
			set->cap = cap;
		}
		g = &set->g[set->n];
		memset(g, 0, sizeof *g);
		if ((g->side = strdup(side)) == NULL ||
		    (g->name = strdup(name)) == NULL ||
		    bm__keymap_add(&sd->map, name, set->n) != 0) {
			free(g->side);
			free(g->name);
			return -ENOMEM;
		}
		set->n++;
	}
	if (isnan(v))
		return 0;
	if (g->n == g->cap) {
		cap = g->cap > 0 ? 2 * g->cap : 8;
		if ((nv = realloc(g->v, cap * sizeof *nv)) == NULL)
			return -ENOMEM;
		g->v = nv;
		g->cap = cap;
	}
	g->v[g->n++] = v;
	return 0;
}

/* The figure at place at of the table (a bm__keymap_key). */
static const char *
sides_fig_at(const void *arg, size_t at)
{
	const struct sides *sd = arg;

	return sd->fig[at];
}

/* Add figure name to the figures when it is new; 0 or -ENOMEM. */
static int
sides_add_fig(struct sides *sd, const char *name)
{
	char **grown;
	uint64_t hash = bm__keymap_hash(name);
	size_t i, cap;

	if (bm__keymap_find_hash(&sd->figs, hash, name, sides_fig_at, sd,
	    &i))
		return 0;
	if (sd->nfig == sd->figcap) {
		cap = sd->figcap > 0 ? 2 * sd->figcap : 16;
		if ((grown = realloc(sd->fig, cap * sizeof *grown)) == NULL)
			return -ENOMEM;
		sd->fig = grown;
		sd->figcap = cap;
	}
	if ((sd->fig[sd->nfig] = strdup(name)) == NULL)
		return -ENOMEM;
	if (bm__keymap_add_hash(&sd->figs, hash, sd->nfig) != 0) {
		free(sd->fig[sd->nfig]);
		return -ENOMEM;
	}
	sd->nfig++;
	return 0;
}

/* Add a run of the table: NAME|KIND; 0 or -ENOMEM. */
static int
sides_add_run(struct sides *sd, const char *name, const char *kind)
{
	struct sides_run *grown;

	grown = realloc(sd->run, (sd->nrun + 1) * sizeof *grown);
	if (grown == NULL)
		return -ENOMEM;
	sd->run = grown;
	if ((sd->run[sd->nrun].name = strdup(name)) == NULL)
		return -ENOMEM;
	sd->run[sd->nrun++].two = strcmp(kind, "two") == 0;
	return 0;
}

/* A number of a file: all of s, finite; 0, or -1. */
static int
sides_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s != '\0' && *end == '\0' && errno == 0 && isfinite(*v) ?
	    0 : -1;
}

/* The kinds of input file, each with its separator and fields. */
enum sides_kind { SIDES_TABLE, SIDES_VALUES, SIDES_WALLS, SIDES_FAILED };

/* Take one line's fields f[0..nf) of a file of kind k into sd; 0, BM_EPARSE or -ENOMEM. */
static int
sides_take(struct sides *sd, enum sides_kind k, char **f, size_t nf)
{
	double v;

	switch (k) {
	case SIDES_TABLE:
		return nf >= 2 ? sides_add_run(sd, f[0], f[1]) : BM_EPARSE;
	case SIDES_VALUES:
		if (nf != 3 || sides_number(f[2], &v) != 0)
			return BM_EPARSE;
		return sides_add_fig(sd, f[1]) != 0 ||
		    sides_add(&sd->val, f[0], f[1], v) != 0 ? -ENOMEM : 0;
	case SIDES_WALLS:
		if (nf != 3 || sides_number(f[2], &v) != 0 || v < 0)
			return BM_EPARSE;
		return sides_add(&sd->wall, f[0], f[1], v);
	default:
		return nf == 2 ? sides_add(&sd->failed, f[0], f[1], NAN) :
		    BM_EPARSE;
	}
}

/* Read the file of kind k at path into sd; 0, or -1 with a message naming the line. */
static int
sides_read(struct sides *sd, const char *path, enum sides_kind k)
{
	static const char *const form[] = { "NAME|KIND",
	    "SIDE<tab>FIGURE<tab>VALUE", "SIDE<tab>RUN<tab>SECONDS",
	    "SIDE<tab>RUN" };
	char why[512], *buf, *line, *nl, *f[SIDES_FIELDS + 1], *p;
	size_t len, n, nf;
	int rc = 0;

	if (bm__reader_slurp(path, &buf, &len, why, sizeof why) != 0) {
		fprintf(stderr, "%s: %s: %s\n", sd->prog, path, why);
		return -1;
	}
	for (line = buf, n = 1; rc == 0 && line < buf + len; line = nl + 1,
	    n++) {
		if ((nl = memchr(line, '\n', len - (size_t)(line - buf))) == NULL)
			nl = buf + len;
		*nl = '\0';
		if (*line == '\0')
			continue;
		for (nf = 0, p = line; p != NULL && nf <= SIDES_FIELDS; nf++) {
			f[nf] = p;
			if ((p = strchr(p, k == SIDES_TABLE ? '|' : '\t')) != NULL)
				*p++ = '\0';
		}
		rc = sides_take(sd, k, f, p != NULL ? nf + 1 : nf);
	}
	if (rc == BM_EPARSE)
		fprintf(stderr, "%s: %s: line %zu: not %s\n", sd->prog, path,
		    n - 1, form[k]);
	else if (rc != 0)
		fprintf(stderr, "%s: out of memory\n", sd->prog);
	free(buf);
	return rc != 0 ? -1 : 0;
}

/* The statistics of each group of set; 0 or -ENOMEM. */
static int
sides_stats(struct sides_set *set)
{
	size_t i;
	int rc;

	for (i = 0; i < set->n; i++)
		if (set->g[i].n > 0 &&
		    (rc = bm_stats_compute(set->g[i].v, set->g[i].n,
		    &set->g[i].st)) != 0)
			return rc;
	return 0;
}

/* A side's median of a figure or a run, or NULL for none. */
static const bm_stats *
sides_stat(const struct sides_set *set, const char *side, const char *name)
{
	const struct sides_group *g = sides_find(set, side, name);

	return g != NULL && g->n > 0 ? &g->st : NULL;
}

/*
 * The run each figure came from: the longest run's name that its name
 * starts with; a run that no figure came from (none on either side) is
 * a figure of its own name, so that it gets its row.  0 or -ENOMEM.
 */
static int
sides_runs_of(struct sides *sd)
{
	size_t i, r, k, nfig = sd->nfig;

	if ((sd->figrun = calloc(sd->nfig + sd->nrun + 1,
	    sizeof *sd->figrun)) == NULL)
		return -ENOMEM;
	for (i = 0; i < nfig; i++)
		for (r = 0; r < sd->nrun; r++) {
			k = strlen(sd->run[r].name);
			if (strncmp(sd->fig[i], sd->run[r].name, k) == 0 &&
			    (sd->figrun[i] == NULL ||
			    k > strlen(sd->figrun[i])))
				sd->figrun[i] = sd->run[r].name;
		}
	for (r = 0; r < sd->nrun; r++) {
		for (i = 0; i < nfig; i++)
			if (sd->figrun[i] == sd->run[r].name)
				break;
		if (i < nfig)
			continue;
		if (sides_add_fig(sd, sd->run[r].name) != 0)
			return -ENOMEM;
		for (i = 0; i < sd->nfig; i++)
			if (strcmp(sd->fig[i], sd->run[r].name) == 0)
				sd->figrun[i] = sd->run[r].name;
	}
	return 0;
}

/* Write a median as the table shows it: four significant digits, whole from 10000 up. */
static void
sides_num(char *buf, size_t size, const bm_stats *st)
{
	if (st == NULL)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, st->median >= 10000 ? "%.0f" : "%.4g",
		    st->median);
}

/* Write a median wall time in seconds, "-" for none. */
static void
sides_wall(char *buf, size_t size, const bm_stats *st)
{
	if (st == NULL)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.2f", st->median);
}

/* Write a run-to-run CV in percent, "-" from fewer than two runs. */
static void
sides_cv(char *buf, size_t size, const bm_stats *st)
{
	if (st == NULL || st->count < 2 || st->mean == 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f", st->cv * (st->mean < 0 ? -100 :
		    100));
}

/*
 * The verdict of a row of figure f at side (ours, same or cross) into v,
 * given the medians, the CVs and the wall times as the row prints them.
 */
static void
sides_verdict(const struct sides *sd, char *v, size_t size, const char *run,
    const char *side, int mark, const bm_stats *lm, const bm_stats *om,
    const char *lc, const char *oc, const char *d, const bm_stats *lw,
    const bm_stats *ow)
{
	double dv = strcmp(d, "-") != 0 ? strtod(d, NULL) : 0;
	int value, cv, wall;

	if (om == NULL) {
		snprintf(v, size, "%s", sides_find(&sd->failed, side, run) ?
		    "benchmp failed" : "benchmp lacks it");
		return;
	}
	if (lm == NULL) {
		snprintf(v, size, "%s", sides_find(&sd->failed, "lmbench",
		    run) ? "lmbench failed" : "lmbench lacks it");
		return;
	}
	if (mark == SIDES_OTHER) {
		snprintf(v, size, "(other placement)");
		return;
	}
	value = dv > SIDES_VALUE_PCT || dv < -SIDES_VALUE_PCT;
	cv = strcmp(oc, "-") != 0 && strcmp(lc, "-") != 0 &&
	    strtod(oc, NULL) > strtod(lc, NULL) &&
	    !(strtod(oc, NULL) < SIDES_CV_FLOOR_PCT &&
	    strtod(lc, NULL) < SIDES_CV_FLOOR_PCT);
	wall = ow != NULL && lw != NULL &&
	    ow->median > lw->median / SIDES_WALL_PART;
	if (!value && !cv && !wall)
		snprintf(v, size, "ok%s", mark == SIDES_HERE ? " <- lmbench" :
		    "");
	else
		snprintf(v, size, "differs:%s%s%s%s%s%s", value ? "value" : "",
		    value && (cv || wall) ? "," : "", cv ? "cv" : "",
		    cv && wall ? "," : "", wall ? "wall" : "",
		    mark == SIDES_HERE ? " <- lmbench" : "");
}

/* Print the row of figure f (of run) at side, labelled label, and count its verdict. */
static void
sides_row(struct sides *sd, FILE *out, const char *f, const char *run,
    const char *label, const char *side, int mark)
{
	const bm_stats *lm = sides_stat(&sd->val, "lmbench", f);
	const bm_stats *om = sides_stat(&sd->val, side, f);
	const bm_stats *lw = sides_stat(&sd->wall, "lmbench", run);
	const bm_stats *ow = sides_stat(&sd->wall, side, run);
	char ln[32], on[32], lc[32], oc[32], lws[32], ows[32], d[32], v[64];

	sides_num(ln, sizeof ln, lm);
	sides_num(on, sizeof on, om);
	sides_cv(lc, sizeof lc, lm);
	sides_cv(oc, sizeof oc, om);
	sides_wall(lws, sizeof lws, lw);
	sides_wall(ows, sizeof ows, ow);
	if (lm != NULL && om != NULL && lm->median != 0)
		snprintf(d, sizeof d, "%+.1f", 100 * (om->median /
		    lm->median - 1));
	else
		snprintf(d, sizeof d, "-");
	sides_verdict(sd, v, sizeof v, run, side, mark, lm, om, lc, oc, d, lw,
	    ow);
	summary_table_pad(out, label, 34);
	fprintf(out, " %10s %6s %8s  %10s %6s %8s %7s  %s\n", ln, lc, lws, on,
	    oc, ows, d, v);
	if (strncmp(v, "ok", 2) == 0)
		sd->nok++;
	else if (strncmp(v, "differs", 7) == 0)
		sd->ndiffer++;
	else
		sd->nother++;
}

/*
 * The placement lmbench's value sat at for a figure of two processes:
 * the nearer of benchmp's two medians by ratio; SIDES_UNKNOWN without
 * all three.
 */
static int
sides_at(const struct sides *sd, const char *f, const char *side)
{
	const bm_stats *lm = sides_stat(&sd->val, "lmbench", f);
	const bm_stats *s = sides_stat(&sd->val, "same", f);
	const bm_stats *c = sides_stat(&sd->val, "cross", f);
	const char *at;

	if (lm == NULL || s == NULL || c == NULL || !(lm->median > 0) ||
	    !(s->median > 0) || !(c->median > 0))
		return SIDES_UNKNOWN;
	at = fabs(log(lm->median / s->median)) <=
	    fabs(log(lm->median / c->median)) ? "same" : "cross";
	return strcmp(at, side) == 0 ? SIDES_HERE : SIDES_OTHER;
}

/* Print a row of a figure at a placement: "f [side]". */
static int
sides_placed(struct sides *sd, FILE *out, const char *f, const char *run,
    const char *side)
{
	char *label;
	int mark = sides_at(sd, f, side);
	size_t n = strlen(f) + strlen(side) + 4;

	if ((label = malloc(n)) == NULL)
		return -ENOMEM;
	snprintf(label, n, "%s [%s]", f, side);
	sides_row(sd, out, f, run, label, side,
	    mark == SIDES_UNKNOWN ? SIDES_ONE : mark);
	free(label);
	return 0;
}

/* Print the table: the rows of each run's figures, in the table's order, and their count. */
static int
sides_print(struct sides *sd, FILE *out)
{
	size_t r, i;

	fprintf(out, "%-34s %10s %6s %8s  %10s %6s %8s %7s  %s\n", "figure",
	    "lmbench", "cv%", "wall_s", "benchmp", "cv%", "wall_s", "diff%",
	    "verdict");
	for (r = 0; r < sd->nrun; r++)
		for (i = 0; i < sd->nfig; i++) {
			const char *run = sd->run[r].name;

			if (sd->figrun[i] != run)
				continue;
			if (!sd->run[r].two)
				sides_row(sd, out, sd->fig[i], run, sd->fig[i],
				    "ours", SIDES_ONE);
			else if (sides_placed(sd, out, sd->fig[i], run,
			    "same") != 0 || sides_placed(sd, out, sd->fig[i],
			    run, "cross") != 0)
				return -ENOMEM;
		}
	fprintf(out, "%zu rows: %zu ok, %zu differ, %zu other placement or "
	    "not compared\n", sd->nok + sd->ndiffer + sd->nother, sd->nok,
	    sd->ndiffer, sd->nother);
	return 0;
}

/* Free a set's groups. */
static void
sides_set_free(struct sides_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->g[i].side);
		free(set->g[i].name);
		free(set->g[i].v);
	}
	free(set->g);
	for (i = 0; i < set->nside; i++) {
		free(set->side[i].side);
		bm__keymap_free(&set->side[i].map);
	}
	free(set->side);
}

/* Free what the table holds. */
static void
sides_free(struct sides *sd)
{
	size_t i;

	for (i = 0; i < sd->nrun; i++)
		free(sd->run[i].name);
	free(sd->run);
	for (i = 0; i < sd->nfig; i++)
		free(sd->fig[i]);
	free(sd->fig);
	bm__keymap_free(&sd->figs);
	free(sd->figrun);
	sides_set_free(&sd->val);
	sides_set_free(&sd->wall);
	sides_set_free(&sd->failed);
}

/* Run benchmp spread --sides: read the files, print the table. */
int
spread_sides_main(const char *prog, const char *table, const char *walls,
    const char *failed, const char *values)
{
	struct sides sd;
	int rc = SPREAD_FAILED;

	memset(&sd, 0, sizeof sd);
	sd.prog = prog;
	if (sides_read(&sd, table, SIDES_TABLE) != 0 ||
	    sides_read(&sd, values, SIDES_VALUES) != 0 ||
	    (walls != NULL && sides_read(&sd, walls, SIDES_WALLS) != 0) ||
	    (failed != NULL && sides_read(&sd, failed, SIDES_FAILED) != 0))
		goto out;
	if (sides_stats(&sd.val) != 0 || sides_stats(&sd.wall) != 0 ||
	    sides_runs_of(&sd) != 0 || sides_print(&sd, stdout) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing to standard output failed\n",
		    prog);
		goto out;
	}
	rc = SPREAD_OK;
out:
	sides_free(&sd);
	return rc;
}
