/* compare-pair.c: benchmp compare's pairs: by key, lmbench imports by their parameters, unpinned figures by placement. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* The value (compact JSON) of parameter name of f, or NULL. */
static const char *
pair_param(const struct bm__fig *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nparams; i++)
		if (strcmp(f->pname[i], name) == 0)
			return f->pval[i];
	return NULL;
}

/* Whether two strings that may be NULL are equal. */
static int
pair_eq(const char *x, const char *y)
{
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

/* The same tool, case and parallelism. */
static int
pair_head(const struct bm__fig *x, const struct bm__fig *y)
{
	return pair_eq(x->tool, y->tool) && pair_eq(x->kase, y->kase) &&
	    x->parallel == y->parallel;
}

/* Every parameter of i (but one named skip) is r's too, with its value. */
static int
pair_within(const struct bm__fig *i, const struct bm__fig *r, const char *skip)
{
	size_t k;

	for (k = 0; k < i->nparams; k++)
		if ((skip == NULL || strcmp(i->pname[k], skip) != 0) &&
		    !pair_eq(pair_param(r, i->pname[k]), i->pval[k]))
			return 0;
	return 1;
}

/*
 * An lmbench import knows only the parameters lmbench's line gives: it
 * pairs with a record of the other run that holds all of them.
 */
static int
pair_holds(const struct bm__fig *i, const struct bm__fig *r)
{
	return i->imported && pair_head(i, r) &&
	    pair_eq(i->placement, r->placement) && pair_within(i, r, NULL);
}

/* A figure whose partner was left to the scheduler (params.placement "unpinned"). */
static int
pair_unpinned(const struct bm__fig *f)
{
	return pair_eq(pair_param(f, "placement"), "\"unpinned\"");
}

/* Whether r is a pinned placement (same or cross) of unpinned u's figure. */
static int
pair_placed(const struct bm__fig *u, const struct bm__fig *r)
{
	const char *p = pair_param(r, "placement");

	return pair_head(u, r) && p != NULL && (strcmp(p, "\"same\"") == 0 ||
	    strcmp(p, "\"cross\"") == 0) && pair_within(u, r, "placement");
}

/* The distance of two values on a log scale (infinite when not both positive). */
static double
pair_dist(double x, double y)
{
	return x > 0 && y > 0 && isfinite(x) && isfinite(y) ?
	    fabs(log(x / y)) : INFINITY;
}

/*
 * The placement of set whose figure unpinned u's value sat at: the
 * nearest by ratio, when within the threshold t or at most a third as far
 * (on a log scale) as the other; NULL with *none 0 when there is no
 * placement of it, with *none 1 when it sat at neither.
 */
static const struct bm__fig *
pair_pick(const struct bm__fig *u, const struct bm__figset *set, double t,
    int *none)
{
	const struct bm__fig *best = NULL;
	double d1 = INFINITY, d2 = INFINITY;
	size_t i, k = 0;

	*none = 0;
	for (i = 0; i < set->n; i++) {
		double d;

		if (!pair_placed(u, &set->fig[i]))
			continue;
		d = pair_dist(u->value, set->fig[i].value);
		k++;
		if (best == NULL || d < d1) {
			d2 = d1;
			d1 = d;
			best = &set->fig[i];
		} else if (d < d2) {
			d2 = d;
		}
	}
	if (best == NULL || d1 <= log1p(t) || (k >= 2 && d1 * 3 <= d2))
		return best;
	*none = 1;
	return NULL;
}

/* The placement a pinned figure names, unquoted, into buf. */
static const char *
pair_where(const struct bm__fig *f, char *buf, size_t size)
{
	const char *p = pair_param(f, "placement");
	size_t n;

	if (p == NULL || (n = strlen(p)) < 2 || p[0] != '"')
		return "?";
	snprintf(buf, size, "%.*s", (int)(n - 2), p + 1);
	return buf;
}

/*
 * B's figures that pair otherwise than by key, in their order: its
 * lmbench imports and its unpinned figures, so that a figure of A
 * found in B by neither key nor import reads these, not all of B.
 */
struct pair_odd {
	const struct bm__fig **f;
	size_t n;
};

/* The figure of B for a (not found by key): an import's, or an unpinned one's. */
static const struct bm__fig *
pair_other(const struct compare *c, const struct pair_odd *odd,
    const struct bm__fig *a)
{
	const struct bm__fig *b = NULL, *p, *x;
	size_t i, n = a->imported ? c->sb.n : odd->n;
	int none;

	/* A figure not imported pairs with an import alone. */
	for (i = 0; i < n; i++) {
		x = a->imported ? &c->sb.fig[i] : odd->f[i];
		if (pair_holds(a, x) || pair_holds(x, a))
			b = x;
	}
	if (b != NULL)
		return b;
	for (i = 0; i < odd->n; i++) {
		const struct bm__fig *u = odd->f[i];

		if (pair_unpinned(u) && pair_placed(u, a) &&
		    (p = pair_pick(u, &c->sa, c->threshold, &none)) == a)
			b = u;
	}
	return b;
}

/* Fill row r with a of A (unpinned or not) and its pair in B. */
static void
pair_a(const struct compare *c, const struct pair_odd *odd,
    const struct bm__fig *a, struct compare_row *r)
{
	char w[64];
	int none;

	r->a = a;
	if (pair_unpinned(a)) {
		r->b = pair_pick(a, &c->sb, c->threshold, &none);
		r->noplace = none;
		if (r->b != NULL)
			snprintf(r->at, sizeof r->at, " [unpinned at %s]",
			    pair_where(r->b, w, sizeof w));
		if (r->b != NULL || none)
			return;
	}
	if ((r->b = bm__reader_find(&c->sb, a->key)) == NULL)
		r->b = pair_other(c, odd, a);
	if (r->b != NULL && pair_unpinned(r->b))
		snprintf(r->at, sizeof r->at, " [B unpinned at %s]",
		    pair_where(a, w, sizeof w));
}

/*
 * Pair the figures of A and B into rows: A's in order, then B's own
 * (those no row of A took, marked in used).
 */
int
compare_pair(struct compare *c)
{
	struct pair_odd odd;
	char *used;
	size_t i, j, n = 0;

	c->row = calloc(c->sa.n + c->sb.n + 1, sizeof *c->row);
	odd.f = calloc(c->sb.n + 1, sizeof *odd.f);
	used = calloc(c->sb.n + 1, 1);
	if (c->row == NULL || odd.f == NULL || used == NULL) {
		free(odd.f);
		free(used);
		return -ENOMEM;
	}
	odd.n = 0;
	for (i = 0; i < c->sb.n; i++)
		if (c->sb.fig[i].imported || pair_unpinned(&c->sb.fig[i]))
			odd.f[odd.n++] = &c->sb.fig[i];
	for (i = 0; i < c->sa.n; i++) {
		pair_a(c, &odd, &c->sa.fig[i], &c->row[n]);
		if (c->row[n].b != NULL)
			used[c->row[n].b - c->sb.fig] = 1;
		n++;
	}
	for (i = 0; i < c->sb.n; i++) {
		const struct bm__fig *b = &c->sb.fig[i];

		if (used[i] || bm__reader_find(&c->sa, b->key) != NULL)
			continue;
		c->row[n].b = b;
		for (j = 0; j < c->sa.n && pair_unpinned(b); j++)
			c->row[n].noplace |= pair_placed(b, &c->sa.fig[j]);
		n++;
	}
	free(odd.f);
	free(used);
	c->nrow = n;
	return 0;
}
