/* reader.c: stored JSON Lines records read back, one figure each, with one key. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/* The separator of the key's parts: no record's name holds it unescaped. */
#define READER_SEP	"\037"

/*
 * The length of s's prefix that is a private temporary directory (up to
 * and with the last "/benchmp-NAME.XXXXXX/"), or 0: such a path differs
 * between runs of one figure, so the key shows it as <tmp>/.
 */
static size_t
reader_private(const char *s)
{
	const char *q = s + strlen(s);

	while (q > s) {
		const char *p, *r;
		size_t k;

		q--;
		if (strncmp(q, "/benchmp-", 9) != 0)
			continue;
		for (p = q + 9; *p != '\0' && (strchr("_-", *p) != NULL ||
		    (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z')); p++)
			;
		if (p == q + 9 || *p != '.')
			continue;
		for (r = p + 1, k = 0; k < 6 && ((*r >= '0' && *r <= '9') ||
		    (*r >= 'a' && *r <= 'z') || (*r >= 'A' && *r <= 'Z')); r++)
			k++;
		if (k == 6 && *r == '/')
			return (size_t)(r + 1 - s);
	}
	return 0;
}

/* Append a parameter's value as a user reads it (4096 as 4k) to b. */
static void
reader_human(struct bm__json *b, const struct bm__jval *v)
{
	static const struct { double f; char c; } sfx[] = {
		{ 1073741824.0, 'g' }, { 1048576.0, 'm' }, { 1024.0, 'k' }
	};
	size_t i;
	char *s;

	if (v->type == BM__J_STRING) {
		size_t pre = reader_private(v->str);

		bm__json_printf(b, "%s%s", pre > 0 ? "<tmp>/" : "",
		    v->str + pre);
		return;
	}
	if (v->type == BM__J_NUMBER) {
		for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
			if (v->num >= sfx[i].f &&
			    fmod(v->num, sfx[i].f) == 0 && v->num < 1e18) {
				bm__json_printf(b, "%.0f%c", v->num / sfx[i].f,
				    sfx[i].c);
				return;
			}
	}
	if (bm__jwrite(v, &s) == 0) {
		bm__json_printf(b, "%s", s);
		free(s);
	} else {
		b->err = -ENOMEM;
	}
}

/* A parameter's value as compact JSON (a private path as <tmp>/) into *out. */
static int
reader_param_json(const struct bm__jval *v, char **out)
{
	struct bm__json b;
	size_t pre;
	char *t;

	if (v->type != BM__J_STRING || (pre = reader_private(v->str)) == 0)
		return bm__jwrite(v, out);
	if ((t = malloc(strlen(v->str) + 8)) == NULL)
		return -ENOMEM;
	snprintf(t, strlen(v->str) + 8, "<tmp>/%s", v->str + pre);
	memset(&b, 0, sizeof b);
	bm__json_string(&b, t);
	free(t);
	if (b.err != 0) {
		free(b.s);
		return b.err;
	}
	*out = b.s;
	return 0;
}

/*
 * Append the parameters to the key (their JSON, private paths as <tmp>/)
 * in k and to the name (their values but "no") in n.
 */
static void
reader_params(struct bm__json *k, struct bm__json *n,
    const struct bm__jval *params)
{
	size_t i;
	char *s;

	bm__json_printf(k, "{");
	for (i = 0; params != NULL && params->type == BM__J_OBJECT &&
	    i < params->n; i++) {
		const struct bm__jval *v = &params->item[i];

		bm__json_printf(k, "%s", i > 0 ? "," : "");
		bm__json_string(k, params->key[i]);
		bm__json_printf(k, ":");
		if (reader_param_json(v, &s) == 0) {
			bm__json_printf(k, "%s", s);
			free(s);
		} else {
			k->err = -ENOMEM;
		}
		if (v->type == BM__J_STRING && strcmp(v->str, "no") == 0)
			continue;
		bm__json_printf(n, " ");
		reader_human(n, v);
	}
	bm__json_printf(k, "}");
}

/* Which way the figure of rec is better: its "better", else its metric and unit. */
enum bm__better
bm__reader_better(const struct bm__jval *rec)
{
	const char *b = bm__jstr(rec, "better"), *m = bm__jstr(rec, "metric");
	const char *u = bm__jstr(rec, "unit");
	static const char *const higher[] = { "bandwidth", "rate", "clock",
	    "parallelism", "throughput" };
	size_t i, ul;

	if (b != NULL && strcmp(b, "lower") == 0)
		return BM__BETTER_LOWER;
	if (b != NULL && strcmp(b, "higher") == 0)
		return BM__BETTER_HIGHER;
	if (b != NULL && strcmp(b, "none") == 0)
		return BM__BETTER_NONE;
	if (m != NULL && (strcmp(m, "latency") == 0 || strcmp(m, "time") == 0))
		return BM__BETTER_LOWER;
	for (i = 0; m != NULL && i < sizeof higher / sizeof higher[0]; i++)
		if (strcmp(m, higher[i]) == 0)
			return BM__BETTER_HIGHER;
	ul = u != NULL ? strlen(u) : 0;
	if (ul >= 2 && strcmp(u + ul - 2, "/s") == 0)
		return BM__BETTER_HIGHER;
	if (u != NULL && (strcmp(u, "ns") == 0 || strcmp(u, "us") == 0 ||
	    strcmp(u, "ms") == 0 || strcmp(u, "s") == 0))
		return BM__BETTER_LOWER;
	return BM__BETTER_NONE;
}

/* The processes' values and the modes of rec into f. */
static int
reader_samples(const struct bm__jval *rec, struct bm__fig *f)
{
	const struct bm__jval *pv = bm__jget(rec, "process_values");
	const struct bm__jval *md = bm__jget(rec, "modes");
	size_t i;

	if (pv != NULL && pv->type == BM__J_ARRAY && pv->n > 0) {
		if ((f->procs = malloc(pv->n * sizeof *f->procs)) == NULL)
			return -ENOMEM;
		/* A process without a positive value (null) is left out. */
		for (i = 0; i < pv->n; i++)
			if (pv->item[i].type == BM__J_NUMBER &&
			    pv->item[i].num > 0 && isfinite(pv->item[i].num))
				f->procs[f->nprocs++] = pv->item[i].num;
	}
	if (md != NULL && md->type == BM__J_ARRAY && md->n > 0) {
		if ((f->modes = malloc(md->n * sizeof *f->modes)) == NULL)
			return -ENOMEM;
		for (i = 0; i < md->n; i++) {
			double c = bm__jnum(&md->item[i], "centre");
			double s = bm__jnum(&md->item[i], "share");

			if (isfinite(c) && isfinite(s)) {
				f->modes[f->nmodes].centre = c;
				f->modes[f->nmodes++].share = s;
			}
		}
	}
	return 0;
}

/* Why the value of rec cannot be judged, or NULL. */
static const char *
reader_bad_value(const struct bm__jval *rec)
{
	const struct bm__jval *v = bm__jget(rec, "value");

	if (v == NULL)
		return "no value";
	if (v->type == BM__J_NULL)
		return "the value is null (not a number)";
	if (v->type != BM__J_NUMBER)
		return "the value is not a number";
	if (v->num == 0)
		return "the value is 0";
	if (v->num < 0)
		return "the value is negative";
	return NULL;
}

/* Keep the parts of the key apart in f: tool, case, placement, parallel, parameters. */
static int
reader_parts(const struct bm__jval *rec, struct bm__fig *f, const char *tool)
{
	const struct bm__jval *params = bm__jget(rec, "params");
	const struct bm__jval *kase = bm__jget(rec, "case");
	const struct bm__jval *imp = bm__jget(rec, "imported");
	const char *pl = bm__jstr(rec, "placement");
	size_t i, n;

	f->parallel = bm__jnum(rec, "parallel");
	if (!isfinite(f->parallel))
		f->parallel = 1;
	f->imported = imp != NULL && imp->type != BM__J_NULL &&
	    imp->type != BM__J_FALSE;
	if ((f->tool = strdup(tool)) == NULL ||
	    (pl != NULL && (f->placement = strdup(pl)) == NULL))
		return -ENOMEM;
	if (kase != NULL && kase->type != BM__J_NULL &&
	    bm__jwrite(kase, &f->kase) != 0)
		return -ENOMEM;
	n = params != NULL && params->type == BM__J_OBJECT ? params->n : 0;
	if (n == 0)
		return 0;
	f->pname = calloc(n, sizeof *f->pname);
	f->pval = calloc(n, sizeof *f->pval);
	if (f->pname == NULL || f->pval == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		f->nparams = i + 1;
		if ((f->pname[i] = strdup(params->key[i])) == NULL ||
		    reader_param_json(&params->item[i], &f->pval[i]) != 0)
			return -ENOMEM;
	}
	return 0;
}

/* The value of rec as written, compact ("-" when missing); NULL on ENOMEM. */
static char *
reader_value_text(const struct bm__jval *rec)
{
	const struct bm__jval *v = bm__jget(rec, "value");
	char *s;

	if (v == NULL)
		return strdup("-");
	return bm__jwrite(v, &s) == 0 ? s : NULL;
}

/* The figure of one record. */
int
bm__reader_figure(const struct bm__jval *rec, struct bm__fig *f)
{
	struct bm__json k, n;
	const char *tool = bm__jstr(rec, "tool"), *s, *bad;
	const struct bm__jval *kase = bm__jget(rec, "case");
	const struct bm__jval *suite = bm__jget(rec, "suite");
	double par = bm__jnum(rec, "parallel");
	int rc;

	memset(f, 0, sizeof *f);
	if (tool == NULL)
		return BM_EPARSE;
	memset(&k, 0, sizeof k);
	memset(&n, 0, sizeof n);
	bm__json_printf(&k, "%s" READER_SEP, tool);
	bm__json_printf(&n, "%s", tool);
	if (kase != NULL && kase->type != BM__J_NULL) {
		bm__json_printf(&n, " ");
		reader_human(&n, kase);
		reader_human(&k, kase);
	}
	bm__json_printf(&k, READER_SEP);
	reader_params(&k, &n, bm__jget(rec, "params"));
	s = bm__jstr(rec, "metric");
	bm__json_printf(&k, READER_SEP "%s" READER_SEP, s != NULL ? s : "");
	if (isfinite(par))
		bm__json_printf(&k, "%g", par);
	if (isfinite(par) && par > 1)
		bm__json_printf(&n, " -P%g", par);
	s = bm__jstr(rec, "placement");
	bm__json_printf(&k, READER_SEP "%s", s != NULL ? s : "");
	if (s != NULL)
		bm__json_printf(&n, " [%s]", s);
	s = bm__jstr(rec, "unit");
	if (s != NULL)
		bm__json_printf(&n, " (%s)", s);
	f->key = k.s;
	f->name = n.s;
	if (k.err != 0 || n.err != 0) {
		rc = -ENOMEM;
		goto fail;
	}
	f->unit = strdup(s != NULL ? s : "");
	bad = reader_bad_value(rec);
	s = bm__jstr(rec, "unsteady");
	if (f->unit == NULL || (bad != NULL && (f->bad = strdup(bad)) == NULL) ||
	    (s != NULL && (f->unsteady = strdup(s)) == NULL)) {
		rc = -ENOMEM;
		goto fail;
	}
	if ((f->value_text = reader_value_text(rec)) == NULL ||
	    reader_parts(rec, f, tool) != 0) {
		rc = -ENOMEM;
		goto fail;
	}
	f->better = bm__reader_better(rec);
	f->value = bm__jnum(rec, "value");
	f->median = bm__jnum(rec, "median");
	f->ci_lo = bm__jnum(rec, "ci_lo");
	f->ci_hi = bm__jnum(rec, "ci_hi");
	f->ci_level = bm__jnum(rec, "ci_level");
	f->samples = bm__jnum(rec, "samples");
	f->noisy = bm__jtrue(rec, "noisy");
	f->past_median = bm__jnum(bm__jget(rec, "history"), "past_median");
	f->bimodal = bm__jtrue(rec, "bimodal");
	f->curve = bm__jtrue(suite, "curve");
	f->burst = bm__jtrue(suite, "burst");
	s = bm__jstr(rec, "stat");
	f->served = s != NULL && strcmp(s, "median of visits") == 0;
	if ((rc = reader_samples(rec, f)) == 0)
		return 0;
fail:
	bm__reader_fig_free(f);
	return rc;
}

/* Free what a figure holds. */
void
bm__reader_fig_free(struct bm__fig *f)
{
	size_t i;

	free(f->key);
	free(f->name);
	free(f->unit);
	free(f->procs);
	free(f->modes);
	free(f->bad);
	free(f->unsteady);
	free(f->value_text);
	free(f->tool);
	free(f->kase);
	free(f->placement);
	for (i = 0; i < f->nparams; i++) {
		free(f->pname[i]);
		free(f->pval[i]);
	}
	free(f->pname);
	free(f->pval);
	memset(f, 0, sizeof *f);
}

/* Free a set's figures. */
void
bm__reader_free(struct bm__figset *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		bm__reader_fig_free(&set->fig[i]);
	free(set->fig);
	bm__keymap_free(&set->map);
	set->fig = NULL;
	set->n = set->cap = 0;
}
