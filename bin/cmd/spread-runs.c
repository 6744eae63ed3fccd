/* spread-runs.c: the runs' records read, each figure matched across the runs and its spread judged. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "benchmp/stats.h"
#include "clock.h"
#include "spread.h"
#include "summary.h"

/* One run being read: the run, and its summary for the share of flagged figures. */
struct runs_reading {
	struct spread_run *run;
	struct summary sum;
};

/*
 * What rec shows (as benchmp summary shows it, see spread_shown) from
 * its figure f.  A record with a robust figure is judged by that figure
 * alone; one without by its median against the other runs' intervals,
 * and by its value for the spread (a record's value is its median but
 * for a figure picked otherwise, a sweep's answer).
 */
static void
runs_shown(const struct bm__jval *rec, const struct bm__fig *f,
    struct spread_shown *sh)
{
	struct summary_row r;

	memset(&r, 0, sizeof r);
	summary_row_figure(rec, &r);
	sh->value = r.value;
	sh->mid = r.robust || !isfinite(f->median) ? r.value : f->median;
	sh->lo = r.lo;
	sh->hi = r.hi;
	/* An interval of one sample is no interval (samples NAN: not said). */
	sh->interval = isfinite(r.lo) && isfinite(r.hi) && r.lo <= r.hi &&
	    !(f->samples < 2);
	sh->flagged = r.flags != 0;
	sh->curve = f->curve;
}

/* Add one record to the run being read (a bm__reader_each): its figure, what it shows, its summary row. */
static int
runs_each(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize)
{
	struct runs_reading *rd = arg;
	struct spread_run *run = rd->run;
	struct spread_shown sh, *grown = run->shown;
	struct bm__fig f;
	size_t at, cap;
	int rc;

	if ((rc = bm__reader_figure(rec, &f)) == 0) {
		runs_shown(rec, &f, &sh);
		if (run->set.n == run->shown_cap) {
			cap = run->shown_cap > 0 ? 2 * run->shown_cap : 64;
			grown = realloc(run->shown, cap * sizeof *grown);
			if (grown != NULL) {
				run->shown = grown;
				run->shown_cap = cap;
			}
		}
		if (grown == NULL ||
		    (rc = bm__reader_add(&run->set, &f, &at)) != 0) {
			bm__reader_fig_free(&f);
			rc = -ENOMEM;
		} else {
			run->shown[at] = sh;
		}
	}
	if (rc != 0) {
		bm__jval_free(rec);
		snprintf(why, whysize, "line %zu: out of memory", line);
		return rc;
	}
	return summary_row_add(&rd->sum, rec, line, why, whysize);
}

/* Read each run's records. */
int
spread_runs_read(struct spread *s)
{
	struct runs_reading rd;
	char why[512];
	size_t i;
	int rc;

	for (i = 0; i < s->nrun; i++) {
		memset(&rd, 0, sizeof rd);
		rd.run = &s->run[i];
		rd.sum.prog = s->prog;
		rc = bm__reader_records(rd.run->path, runs_each, &rd, why,
		    sizeof why);
		rd.run->nflagged = summary_row_flagged(&rd.sum);
		rd.run->nrows = rd.sum.nrow;
		summary_row_free_all(&rd.sum);
		if (rc != 0) {
			fprintf(stderr, "%s: %s: %s\n", s->prog, rd.run->path,
			    why);
			return -1;
		}
		if (rd.run->set.n == 0) {
			fprintf(stderr, "%s: %s: holds no records\n", s->prog,
			    rd.run->path);
			return -1;
		}
	}
	return 0;
}

/* What run r shows of figure g. */
static const struct spread_shown *
runs_at(const struct spread *s, const struct spread_fig *g, size_t r)
{
	return &s->run[r].shown[g->at[r]];
}

/*
 * Find the figure of key in every run (its places into at) with a value
 * that is a number over 0 in each; 1 when it is, 0 when not.  A value of
 * 0 or less is no measurement, as benchmp compare reads it: a figure at
 * 0 in every run would count as repeating exactly (CV 0).
 */
static int
runs_everywhere(const struct spread *s, const char *key, size_t *at)
{
	const struct bm__fig *f;
	double v;
	size_t r;

	for (r = 0; r < s->nrun; r++) {
		if ((f = bm__reader_find(&s->run[r].set, key)) == NULL)
			return 0;
		at[r] = (size_t)(f - s->run[r].set.fig);
		v = s->run[r].shown[at[r]].value;
		if (!isfinite(v) || !(v > 0))
			return 0;
	}
	return 1;
}

/*
 * The spread of figure g over the runs: the library's median and CV of
 * its values; each run's value inside each other run's interval, and
 * the next run's inside the previous one's, counted when every run has
 * an interval (a derived or imported figure has none); the runs off the
 * median by more than SPREAD_OFF that did not flag it.
 */
static int
runs_spread(const struct spread *s, struct spread_fig *g, double *v)
{
	const struct spread_shown *x, *y;
	size_t i, j, intervals = 0;
	bm_stats st;
	int rc;

	for (i = 0; i < s->nrun; i++) {
		x = runs_at(s, g, i);
		v[i] = x->value;
		intervals += x->interval;
		g->curve |= x->curve;
	}
	if ((rc = bm_stats_compute(v, s->nrun, &st)) != 0)
		return rc;
	g->median = st.median;
	g->cv = st.cv;
	for (i = 0; i < s->nrun && intervals == s->nrun; i++) {
		x = runs_at(s, g, i);
		for (j = 0; j < s->nrun; j++) {
			y = runs_at(s, g, j);
			if (j == i)
				continue;
			g->npairs++;
			g->hits += y->mid >= x->lo && y->mid <= x->hi;
			if (j != i + 1)
				continue;
			g->nnext++;
			g->next += y->mid >= x->lo && y->mid <= x->hi;
		}
	}
	for (i = 0; i < s->nrun && g->median != 0; i++)
		g->off += !runs_at(s, g, i)->flagged &&
		    fabs((v[i] - g->median) / g->median) > SPREAD_OFF;
	return 0;
}

/* Count figure g into the totals of its kind. */
static void
runs_total(struct spread *s, const struct spread_fig *g)
{
	struct spread_total *t = g->curve ? &s->curve : &s->total;

	t->n++;
	t->within += g->cv <= SPREAD_WITHIN;
	t->beyond += g->cv > SPREAD_BEYOND;
	/* A figure that moved, and a run misled a user who read it alone. */
	t->misled += g->cv > SPREAD_BEYOND && g->off > 0;
	t->next += g->next;
	t->nnext += g->nnext;
}

/* Add the figure of run 1's place i when every run has it; 0, or -ENOMEM. */
static int
runs_add(struct spread *s, size_t i, double *v)
{
	struct spread_fig *g = &s->fig[s->nfig];
	size_t p;
	int rc;

	memset(g, 0, sizeof *g);
	g->fig = &s->run[0].set.fig[i];
	if ((g->at = calloc(s->nrun, sizeof *g->at)) == NULL ||
	    (g->verdict = calloc(s->npair + 1, sizeof *g->verdict)) == NULL) {
		free(g->at);
		return -ENOMEM;
	}
	s->nfig++;
	if (!runs_everywhere(s, g->fig->key, g->at)) {
		s->nfig--;
		free(g->at);
		free(g->verdict);
		return 0;
	}
	if ((rc = runs_spread(s, g, v)) != 0)
		return rc;
	for (p = 0; p < s->npair; p++)
		if ((g->verdict[p] = spread_pair_verdict(&s->pair[p],
		    g->fig->name)) == NULL)
			return -ENOMEM;
	runs_total(s, g);
	return 0;
}

/*
 * The runs' clock, where mhz's figure is in every run, and of the other
 * figures that moved beyond SPREAD_WITHIN those within it once each
 * run's value is scaled by its run's clock (to the clock's median); v
 * holds a value a run.  0, or an error of the library's statistics.
 */
static int
runs_clock(struct spread *s, double *v)
{
	const struct spread_fig *c = NULL, *g;
	bm_stats st;
	size_t i, r;
	int rc;

	for (i = 0; i < s->nfig && c == NULL; i++)
		if (!s->fig[i].curve && clock_is(s->fig[i].fig))
			c = &s->fig[i];
	if ((s->clock.fig = c) == NULL)
		return 0;
	for (i = 0; i < s->nfig; i++) {
		g = &s->fig[i];
		if (g == c || g->curve || g->cv <= SPREAD_WITHIN)
			continue;
		s->clock.n++;
		for (r = 0; r < s->nrun; r++)
			if (!isfinite(v[r] = clock_scaled(g->fig,
			    runs_at(s, g, r)->value, runs_at(s, c, r)->value,
			    c->median)))
				break;
		if (r < s->nrun)
			continue;
		if ((rc = bm_stats_compute(v, s->nrun, &st)) != 0)
			return rc;
		s->clock.within += st.cv <= SPREAD_WITHIN;
	}
	return 0;
}

/*
 * Judge the totals against their targets: met (1), missed (0), or
 * SPREAD_NONE when there is nothing to judge by (no figure but a
 * sweep's points, no figure with an interval in every run, no compare,
 * a run whose wall time or summary is not known): none of none is no
 * pass.
 */
static void
runs_targets(struct spread *s)
{
	size_t i;

	s->met[SPREAD_T_WITHIN] = s->total.n == 0 ? SPREAD_NONE :
	    (double)s->total.within >= SPREAD_WITHIN_SHARE *
	    (double)s->total.n;
	s->met[SPREAD_T_MISLED] = s->total.n == 0 ? SPREAD_NONE :
	    s->total.misled == 0;
	s->met[SPREAD_T_NEXT] = s->total.nnext == 0 ? SPREAD_NONE :
	    (double)s->total.next >= SPREAD_NEXT_SHARE *
	    (double)s->total.nnext;
	s->met[SPREAD_T_COMPARE] = s->npair > 0 ? 1 : SPREAD_NONE;
	for (i = 0; i < s->npair; i++)
		if (s->pair[i].exit != 0)
			s->met[SPREAD_T_COMPARE] = 0;
	s->met[SPREAD_T_FLAGGED] = 1;
	s->met[SPREAD_T_WALL] = s->walls ? 1 : SPREAD_NONE;
	s->met[SPREAD_T_MEASURED] = s->measured ? 1 : SPREAD_NONE;
	for (i = 0; i < s->nrun; i++) {
		const struct spread_run *r = &s->run[i];

		if (r->nrows == 0)
			s->met[SPREAD_T_FLAGGED] = SPREAD_NONE;
		else if (s->met[SPREAD_T_FLAGGED] == 1 && (double)r->nflagged >
		    SPREAD_FLAGGED_SHARE * (double)r->nrows)
			s->met[SPREAD_T_FLAGGED] = 0;
		if (!s->walls)
			continue;
		if (isnan(r->wall))
			s->met[SPREAD_T_WALL] = SPREAD_NONE;
		else if (s->met[SPREAD_T_WALL] == 1 && r->wall > SPREAD_WALL_S)
			s->met[SPREAD_T_WALL] = 0;
		if (!s->measured)
			continue;
		if (!(r->wall > 0) || isnan(r->measured))
			s->met[SPREAD_T_MEASURED] = SPREAD_NONE;
		else if (s->met[SPREAD_T_MEASURED] == 1 && r->measured <
		    SPREAD_MEASURED_SHARE * r->wall)
			s->met[SPREAD_T_MEASURED] = 0;
	}
}

/* The figures found in every run, in the order of the first run, their spread and the totals. */
int
spread_runs_judge(struct spread *s)
{
	const struct bm__figset *first = &s->run[0].set;
	double *v;
	size_t i;
	int rc = 0;

	s->fig = calloc(first->n, sizeof *s->fig);
	v = calloc(s->nrun, sizeof *v);
	for (i = 0; s->fig != NULL && v != NULL && rc == 0 && i < first->n;
	    i++)
		rc = runs_add(s, i, v);
	if (s->fig != NULL && v != NULL && rc == 0)
		rc = runs_clock(s, v);
	free(v);
	if (s->fig == NULL || v == NULL || rc != 0) {
		fprintf(stderr, "%s: out of memory\n", s->prog);
		return -1;
	}
	if (s->nfig == 0) {
		fprintf(stderr, "%s: no figure was measured in every run\n",
		    s->prog);
		return -1;
	}
	runs_targets(s);
	return 0;
}

/* Free what the runs and figures hold. */
void
spread_runs_free(struct spread *s)
{
	size_t i;

	for (i = 0; i < s->nfig; i++) {
		free(s->fig[i].at);
		free(s->fig[i].verdict);
	}
	free(s->fig);
	for (i = 0; i < s->nrun; i++) {
		bm__reader_free(&s->run[i].set);
		free(s->run[i].shown);
	}
	free(s->run);
}
