/* report-rec.c: benchmp report's records: their names and sections, scaling series, the latest of each name, pairs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
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

/* Append s to b with its length before it ("5:lat_x"), NULL as "-": no two lists of parts read alike. */
static void
rec_part(struct bm__json *b, const char *s)
{
	if (s == NULL)
		bm__json_printf(b, "-");
	else
		bm__json_printf(b, "%zu:%s", strlen(s), s);
}

/*
 * The key of x's figure at any worker count: its tool, unit, case,
 * metric and parameters, so that two records have one key when they are
 * one figure (the same strings, NULL only as NULL); NULL on ENOMEM.
 */
static char *
rec_series_key(const struct report_rec *x)
{
	struct bm__json b;
	size_t i;

	memset(&b, 0, sizeof b);
	rec_part(&b, x->f.tool);
	rec_part(&b, x->f.unit);
	rec_part(&b, x->f.kase);
	rec_part(&b, bm__jstr(x->j, "metric"));
	bm__json_printf(&b, "%zu;", x->f.nparams);
	for (i = 0; i < x->f.nparams; i++) {
		rec_part(&b, x->f.pname[i]);
		rec_part(&b, x->f.pval[i]);
	}
	if (b.err == 0 && b.s != NULL)
		return b.s;
	free(b.s);
	return NULL;
}

/* The string at place at of an array of strings (a bm__keymap_key). */
static const char *
rec_string_at(const void *arg, size_t at)
{
	char *const *key = arg;

	return key[at];
}

/* One figure's records at their worker counts: the first, the last linked, whether one is at 1 worker and one at another count. */
struct rec_figure {
	size_t first;
	size_t tail;
	int one;
	int other;
};

/*
 * Mark the scaling series of a run: the records of one figure at two or
 * more worker counts, one of them 1 (as benchmp-scaling writes them),
 * each marked with its first record and linked to the next (next); 0
 * or -ENOMEM.
 */
static int
rec_series(struct report_run *run)
{
	struct bm__keymap map;
	struct rec_figure *fg;
	char **key;
	uint64_t hash;
	size_t i, k;
	int rc = -ENOMEM;

	memset(&map, 0, sizeof map);
	key = calloc(run->n + 1, sizeof *key);
	fg = calloc(run->n + 1, sizeof *fg);
	if (key == NULL || fg == NULL)
		goto out;
	/* Each record's figure: its first record's place, in fg[i].first. */
	for (i = 0; i < run->n; i++) {
		double p = bm__jnum(run->rec[i].j, "parallel");

		if ((key[i] = rec_series_key(&run->rec[i])) == NULL)
			goto out;
		hash = bm__keymap_hash(key[i]);
		if (!bm__keymap_find_hash(&map, hash, key[i], rec_string_at,
		    key, &k)) {
			if (bm__keymap_add_hash(&map, hash, i) != 0)
				goto out;
			k = i;
		}
		fg[i].first = k;
		fg[k].one |= p == 1;
		fg[k].other |= isfinite(p) && p != 1;
	}
	for (i = 0; i < run->n; i++) {
		k = fg[i].first;
		if (!fg[k].one || !fg[k].other)
			continue;
		run->rec[i].series = k + 1;
		if (i != k)
			run->rec[fg[k].tail].next = i + 1;
		fg[k].tail = i;
	}
	rc = 0;
out:
	for (i = 0; key != NULL && i < run->n; i++)
		free(key[i]);
	free(key);
	free(fg);
	bm__keymap_free(&map);
	return rc;
}

/* The name of the record at place at of a run (a bm__keymap_key). */
static const char *
rec_label_at(const void *arg, size_t at)
{
	const struct report_run *run = arg;

	return run->rec[at].label;
}

/*
 * The latest record of each name outside the series, kept on the name's
 * first record (the page lists names in the order of their first), and
 * which of them a section shows: not a sweep's point (suite.curve), and
 * of lat_mem_rd only the points the summary gave a role; 0 or -ENOMEM.
 */
static int
rec_latest(struct report_run *run)
{
	struct bm__keymap map;
	uint64_t hash;
	size_t i, k;

	memset(&map, 0, sizeof map);
	for (i = 0; i < run->n; i++) {
		struct report_rec *x = &run->rec[i];
		const struct bm__jval *suite = bm__jget(x->j, "suite");
		const struct bm__jval *role = bm__jget(suite, "role");

		x->plain = !x->f.curve &&
		    (strcmp(x->f.tool, "lat_mem_rd") != 0 ||
		    (role != NULL && role->type != BM__J_NULL));
		if (x->series != 0)
			continue;
		hash = bm__keymap_hash(x->label);
		if (bm__keymap_find_hash(&map, hash, x->label, rec_label_at,
		    run, &k)) {
			run->rec[k].latest = x;
		} else if (bm__keymap_add_hash(&map, hash, i) != 0) {
			bm__keymap_free(&map);
			return -ENOMEM;
		} else {
			x->latest = x;
		}
	}
	bm__keymap_free(&map);
	for (i = 0; i < run->n; i++)
		if (run->rec[i].latest != NULL)
			run->rec[i].latest->shown = 1;
	for (i = 0; i < run->n; i++)
		run->rec[i].plain &= run->rec[i].shown;
	return 0;
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

/* The key of A's figure in row at of a comparison (a bm__keymap_key). */
static const char *
rec_row_key(const void *arg, size_t at)
{
	const struct compare *c = arg;

	return c->row[at].a->key;
}

/* The key of the partner of the record at place at of A (a bm__keymap_key). */
static const char *
rec_pair_key(const void *arg, size_t at)
{
	const struct report_run *run = arg;

	return run->rec[at].pair->f.key;
}

/*
 * Each shown record of A with its partner in B as benchmp compare paired
 * their figures (the same key, an lmbench import by its parameters, an
 * unpinned figure by its placement): the row of its key.  Then each
 * shown record of B whose key a record of A was paired with; 0 or
 * -ENOMEM.
 */
static int
rec_pairs(struct report *r)
{
	const struct compare *c = &r->cmp;
	struct report_run *a = &r->run[0], *b = &r->run[1];
	struct bm__keymap rows, keys;
	uint64_t hash;
	size_t i, k;
	int *use, rc = -ENOMEM;

	memset(&rows, 0, sizeof rows);
	memset(&keys, 0, sizeof keys);
	if ((use = calloc(a->n + 1, sizeof *use)) == NULL)
		return -ENOMEM;
	/* The first row of each key of A that has both figures. */
	for (k = 0; k < c->nrow; k++) {
		if (c->row[k].a == NULL || c->row[k].b == NULL)
			continue;
		hash = bm__keymap_hash(c->row[k].a->key);
		if (!bm__keymap_find_hash(&rows, hash, c->row[k].a->key,
		    rec_row_key, c, &i) &&
		    bm__keymap_add_hash(&rows, hash, k) != 0)
			goto out;
	}
	for (i = 0; i < a->n; i++) {
		struct report_rec *x = &a->rec[i];

		if (x->shown && bm__keymap_find(&rows, x->f.key, rec_row_key,
		    c, &k)) {
			x->row = &c->row[k];
			x->pair = rec_at(b, c->row[k].b->line);
		}
		if (x->pair != NULL && !x->pair->shown)
			x->pair = NULL;
	}
	/*
	 * A record of B of a key paired (several names may share one) is
	 * not B's own: the keys of the partners, each on the first record
	 * of A paired with it, and whether a plain record of A has a plain
	 * partner of it (use).
	 */
	for (i = 0; i < a->n; i++) {
		const struct report_rec *x = &a->rec[i];

		if (x->pair == NULL)
			continue;
		hash = bm__keymap_hash(x->pair->f.key);
		if (!bm__keymap_find_hash(&keys, hash, x->pair->f.key,
		    rec_pair_key, a, &k)) {
			if (bm__keymap_add_hash(&keys, hash, i) != 0)
				goto out;
			k = i;
		}
		use[k] |= x->plain && x->pair->plain;
	}
	for (i = 0; i < b->n; i++) {
		struct report_rec *y = &b->rec[i];

		if (y->shown && bm__keymap_find(&keys, y->f.key, rec_pair_key,
		    a, &k)) {
			y->paired = 1;
			y->used |= use[k];
		}
	}
	rc = 0;
out:
	free(use);
	bm__keymap_free(&rows);
	bm__keymap_free(&keys);
	return rc;
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
		if ((i == 0 && rec_series(run) != 0) ||
		    rec_latest(run) != 0)
			return -ENOMEM;
	}
	if (r->nrun == 2)
		return rec_pairs(r);
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
