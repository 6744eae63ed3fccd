/* report-rec.c: benchmp report's records: their names and sections, scaling series, the latest of each name, pairs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report.h"

/* Whether x is flagged, as benchmp-summary counts them. */
int
report_rec_flagged(const struct report_rec *x)
{
	const struct bm__jval *c = bm__jget(x->j, "contradicts");

	return !isfinite(x->f.value) || x->f.noisy || x->f.bimodal ||
	    bm__jtrue(x->j, "disagree") || bm__jtrue(x->j, "budget_hit") ||
	    (c != NULL && c->type == BM__J_ARRAY && c->n > 0) ||
	    bm__jtrue(bm__jget(x->j, "interference"), "bound_hit");
}

/* Whether two strings that may be NULL are equal. */
static int
rec_eq(const char *x, const char *y)
{
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

/*
 * Append a parameter as the page names it: a path by its role (its last
 * component, in parentheses), never by the private directory it was made
 * in; a size as 8M; anything else as JSON.
 */
static void
rec_param(struct bm__json *b, const struct bm__jval *v)
{
	char n[REPORT_NUM], *s;
	const char *slash;

	if (v->type == BM__J_STRING && (slash = strrchr(v->str, '/')) != NULL)
		bm__json_printf(b, " (%s)", slash + 1);
	else if (v->type == BM__J_STRING)
		bm__json_printf(b, " %s", v->str);
	else if (v->type == BM__J_NUMBER)
		bm__json_printf(b, " %s", report_put_human(n, v->num));
	else if (bm__jwrite(v, &s) == 0) {
		bm__json_printf(b, " %s", s);
		free(s);
	} else {
		b->err = -ENOMEM;
	}
}

/* The name of x: benchmp-run's (suite.figure), else its tool, case and parameters but "no"; NULL on ENOMEM. */
static char *
rec_label(const struct report_rec *x)
{
	const struct bm__jval *suite = bm__jget(x->j, "suite");
	const struct bm__jval *fig = bm__jget(suite, "figure");
	const struct bm__jval *kase = bm__jget(x->j, "case");
	const struct bm__jval *p = bm__jget(x->j, "params");
	struct bm__json b;
	char *s;
	size_t i;

	if (fig != NULL && fig->type == BM__J_STRING)
		return strdup(fig->str);
	memset(&b, 0, sizeof b);
	bm__json_printf(&b, "%s", x->f.tool);
	if (kase != NULL && kase->type == BM__J_STRING)
		bm__json_printf(&b, " %s", kase->str);
	else if (kase != NULL && kase->type != BM__J_NULL &&
	    kase->type != BM__J_FALSE && bm__jwrite(kase, &s) == 0) {
		bm__json_printf(&b, " %s", s);
		free(s);
	}
	for (i = 0; p != NULL && p->type == BM__J_OBJECT && i < p->n; i++)
		if (p->item[i].type != BM__J_STRING ||
		    strcmp(p->item[i].str, "no") != 0)
			rec_param(&b, &p->item[i]);
	if (b.err == 0)
		return b.s;
	free(b.s);
	return NULL;
}

/* The section of x: benchmp-run's (suite.group), else memory for lat_mem_rd, else other. */
static const char *
rec_group(const struct report_rec *x)
{
	const struct bm__jval *g = bm__jget(bm__jget(x->j, "suite"), "group");

	if (g != NULL && g->type == BM__J_STRING)
		return g->str;
	return strcmp(x->f.tool, "lat_mem_rd") == 0 ? "memory" : "other";
}

/* Whether x and y are one figure, at the same or other worker counts: tool, case, parameters, metric and unit. */
static int
rec_same_series(const struct report_rec *x, const struct report_rec *y)
{
	size_t i;

	if (strcmp(x->f.tool, y->f.tool) != 0 ||
	    strcmp(x->f.unit, y->f.unit) != 0 ||
	    !rec_eq(x->f.kase, y->f.kase) ||
	    !rec_eq(bm__jstr(x->j, "metric"), bm__jstr(y->j, "metric")) ||
	    x->f.nparams != y->f.nparams)
		return 0;
	for (i = 0; i < x->f.nparams; i++)
		if (strcmp(x->f.pname[i], y->f.pname[i]) != 0 ||
		    strcmp(x->f.pval[i], y->f.pval[i]) != 0)
			return 0;
	return 1;
}

/*
 * Mark the scaling series of a run: the records of one figure at two or
 * more worker counts, one of them 1 (as benchmp-scaling writes them),
 * each marked with its first record.
 */
static void
rec_series(struct report_run *run)
{
	size_t i, j;

	for (i = 0; i < run->n; i++) {
		int one = 0, other = 0;

		for (j = i; j < run->n && run->rec[i].series == 0; j++) {
			double p = bm__jnum(run->rec[j].j, "parallel");

			if (run->rec[j].series != 0 ||
			    !rec_same_series(&run->rec[i], &run->rec[j]))
				continue;
			one |= p == 1;
			other |= isfinite(p) && p != 1;
		}
		for (j = i; j < run->n && one && other; j++)
			if (run->rec[j].series == 0 &&
			    rec_same_series(&run->rec[i], &run->rec[j]))
				run->rec[j].series = i + 1;
	}
}

/*
 * The latest record of each name outside the series, kept on the name's
 * first record (the page lists names in the order of their first), and
 * which of them a section shows: not a sweep's point (suite.curve), and
 * of lat_mem_rd only the points the summary gave a role.
 */
static void
rec_latest(struct report_run *run)
{
	size_t i, k;

	for (i = 0; i < run->n; i++) {
		struct report_rec *x = &run->rec[i], *last = x;
		const struct bm__jval *suite = bm__jget(x->j, "suite");
		const struct bm__jval *role = bm__jget(suite, "role");

		x->plain = !x->f.curve &&
		    (strcmp(x->f.tool, "lat_mem_rd") != 0 ||
		    (role != NULL && role->type != BM__J_NULL));
		for (k = 0; k < i && x->series == 0; k++)
			if (run->rec[k].series == 0 &&
			    strcmp(run->rec[k].label, x->label) == 0)
				break;
		if (x->series != 0 || k < i)
			continue;
		for (k = i + 1; k < run->n; k++)
			if (run->rec[k].series == 0 &&
			    strcmp(run->rec[k].label, x->label) == 0)
				last = &run->rec[k];
		x->latest = last;
		last->shown = 1;
	}
	for (i = 0; i < run->n; i++)
		run->rec[i].plain &= run->rec[i].shown;
}

/* The record of run read from line, or NULL. */
static struct report_rec *
rec_at(const struct report_run *run, size_t line)
{
	size_t lo = 0, hi = run->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (run->rec[mid].f.line == line)
			return &run->rec[mid];
		if (run->rec[mid].f.line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Each shown record of A with its partner in B as benchmp compare paired
 * their figures (the same key, an lmbench import by its parameters, an
 * unpinned figure by its placement): the row of its key.
 */
static void
rec_pairs(struct report *r)
{
	const struct compare *c = &r->cmp;
	size_t i, k;

	for (i = 0; i < r->run[0].n; i++) {
		struct report_rec *x = &r->run[0].rec[i];

		for (k = 0; k < c->nrow && x->shown; k++)
			if (c->row[k].a != NULL && c->row[k].b != NULL &&
			    strcmp(c->row[k].a->key, x->f.key) == 0) {
				x->row = &c->row[k];
				x->pair = rec_at(&r->run[1], c->row[k].b->line);
				break;
			}
		if (x->pair != NULL && !x->pair->shown)
			x->pair = NULL;
	}
	/* A record of B of a key paired (several names may share one) is not B's own. */
	for (i = 0; i < r->run[1].n; i++) {
		struct report_rec *y = &r->run[1].rec[i];

		for (k = 0; k < r->run[0].n && y->shown; k++) {
			const struct report_rec *x = &r->run[0].rec[k];

			if (x->pair == NULL ||
			    strcmp(x->pair->f.key, y->f.key) != 0)
				continue;
			y->paired = 1;
			y->used |= x->plain && x->pair->plain;
		}
	}
}

/* Names, sections, scaling series, the latest record of each name, pairs. */
int
report_rec_prepare(struct report *r)
{
	size_t i, k;

	for (i = 0; i < r->nrun; i++) {
		struct report_run *run = &r->run[i];

		for (k = 0; k < run->n; k++) {
			struct report_rec *x = &run->rec[k];
			const struct bm__jval *pl = bm__jget(bm__jget(x->j,
			    "params"), "placement");

			if ((x->label = rec_label(x)) == NULL)
				return -ENOMEM;
			x->group = rec_group(x);
			x->place = pl != NULL && pl->type == BM__J_STRING ?
			    pl->str : NULL;
		}
		/* B's series are in its sections: only A has a scaling section. */
		if (i == 0)
			rec_series(run);
		rec_latest(run);
	}
	if (r->nrun == 2)
		rec_pairs(r);
	return 0;
}

/* The records of in (or, with in NULL, the run's latest of each name) that keep accepts. */
int
report_rec_pick(struct report_list *out, const struct report_run *run,
    const struct report_list *in,
    int (*keep)(const struct report_rec *, const void *), const void *arg)
{
	size_t i, n = in != NULL ? in->n : run->n;

	out->n = 0;
	if ((out->r = malloc((n + 1) * sizeof *out->r)) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct report_rec *x = in != NULL ? in->r[i] :
		    run->rec[i].latest;

		if (x != NULL && (keep == NULL || keep(x, arg)))
			out->r[out->n++] = x;
	}
	return 0;
}

/* Free the records of a run. */
void
report_rec_free(struct report_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++) {
		bm__jval_free(run->rec[i].j);
		bm__reader_fig_free(&run->rec[i].f);
		free(run->rec[i].label);
	}
	free(run->rec);
	run->rec = NULL;
	run->n = run->cap = 0;
}
