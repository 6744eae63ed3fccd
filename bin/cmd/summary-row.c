/* summary-row.c: a record as a figure's row of the summary, or as a rank of a host. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "summary.h"

/* Whether the array member name of obj holds the string word. */
static int
row_has(const struct bm__jval *obj, const char *name, const char *word)
{
	const struct bm__jval *a = bm__jget(obj, name);
	size_t i;

	for (i = 0; a != NULL && a->type == BM__J_ARRAY && i < a->n; i++)
		if (a->item[i].type == BM__J_STRING &&
		    strcmp(a->item[i].str, word) == 0)
			return 1;
	return 0;
}

/*
 * Append the text of v to b: a string as it is (a NUL as the \x00 it is
 * printed as), anything else as compact JSON (a number in the fewest
 * digits); nul for null or no member.
 */
static void
row_put(struct bm__json *b, const struct bm__jval *v, const char *nul)
{
	size_t at;
	char *js;

	if (v == NULL || v->type == BM__J_NULL) {
		bm__json_printf(b, "%s", nul);
	} else if (v->type == BM__J_STRING) {
		for (at = 0; at <= v->len; at += strlen(v->str + at) + 1)
			bm__json_printf(b, "%s%s", at > 0 ? "\\x00" : "",
			    v->str + at);
	} else if (bm__jwrite(v, &js) == 0) {
		bm__json_printf(b, "%s", js);
		free(js);
	} else {
		b->err = -ENOMEM;
	}
}

/* Append a mode centre or a machine fact: four significant digits, whole from 1000 up. */
static void
row_put_fact(struct bm__json *b, double x)
{
	bm__json_printf(b, fabs(x) >= 1000 ? "%.0f" : "%.4g", x);
}

/* The string b built, or NULL (b freed) when out of memory. */
static char *
row_done(struct bm__json *b)
{
	if (b->err == 0)
		return b->s;
	free(b->s);
	return NULL;
}

/* The text of v (see row_put) as a new string, or NULL when out of memory. */
static char *
row_text(const struct bm__jval *v, const char *nul)
{
	struct bm__json b;

	memset(&b, 0, sizeof b);
	bm__json_printf(&b, "%s", "");
	row_put(&b, v, nul);
	return row_done(&b);
}

/* The name of a record benchmp-run did not tag: tool, case and parameters ("[size=4096]"). */
static char *
row_name(const struct bm__jval *rec)
{
	const struct bm__jval *kase = bm__jget(rec, "case");
	const struct bm__jval *params = bm__jget(rec, "params");
	struct bm__json b;
	size_t i;

	memset(&b, 0, sizeof b);
	row_put(&b, bm__jget(rec, "tool"), "");
	if (kase != NULL && kase->type != BM__J_NULL &&
	    !(kase->type == BM__J_STRING && kase->len == 0)) {
		bm__json_printf(&b, " ");
		row_put(&b, kase, "");
	}
	for (i = 0; params != NULL && params->type == BM__J_OBJECT &&
	    i < params->n; i++) {
		bm__json_printf(&b, "%s%s=", i == 0 ? " [" : " ",
		    params->key[i]);
		row_put(&b, &params->item[i], "null");
	}
	if (i > 0)
		bm__json_printf(&b, "]");
	return row_done(&b);
}

/* The contradictions of rec (its objects in "contradicts") into r; 0 or -ENOMEM. */
static int
row_contra(const struct bm__jval *rec, struct summary_row *r)
{
	static const char *const name[SUMMARY_NPARTS] = { "what", "measured",
	    "machine", "unit", "source" };
	const struct bm__jval *a = bm__jget(rec, "contradicts");
	size_t i, k;

	if (a == NULL || a->type != BM__J_ARRAY || a->n == 0)
		return 0;
	if ((r->contra = calloc(a->n, sizeof *r->contra)) == NULL)
		return -ENOMEM;
	for (i = 0; i < a->n; i++) {
		struct summary_contra *c = &r->contra[r->ncontra];

		if (a->item[i].type != BM__J_OBJECT)
			continue;
		r->ncontra++;
		for (k = 0; k < SUMMARY_NPARTS; k++) {
			const struct bm__jval *v = bm__jget(&a->item[i],
			    name[k]);
			struct bm__json b;

			memset(&b, 0, sizeof b);
			bm__json_printf(&b, "%s", "");
			if (v != NULL && v->type == BM__J_NUMBER &&
			    (k == SUMMARY_MEASURED || k == SUMMARY_MACHINE))
				row_put_fact(&b, v->num);
			else
				row_put(&b, v, "");
			if ((c->part[k] = row_done(&b)) == NULL)
				return -ENOMEM;
		}
	}
	return 0;
}

/* The modes of a bimodal record into r: how many, the first two centres; 0 or -ENOMEM. */
static int
row_modes(const struct bm__jval *rec, struct summary_row *r)
{
	const struct bm__jval *m = bm__jget(rec, "modes");
	struct bm__json b;
	size_t i;

	memset(&b, 0, sizeof b);
	/* A merged record may keep a pass's modes beside a figure not bimodal. */
	for (i = 0; bm__jtrue(rec, "bimodal") && m != NULL &&
	    m->type == BM__J_ARRAY && i < m->n; i++) {
		double c = bm__jnum(&m->item[i], "centre");

		if (!isfinite(c) || !isfinite(bm__jnum(&m->item[i], "share")))
			continue;
		if (r->nmodes++ < 2) {
			bm__json_printf(&b, "%s", r->nmodes > 1 ? "/" : "");
			row_put_fact(&b, c);
		}
	}
	r->modes = b.s;
	return b.err;
}

/* How many contradictions with the machine rec holds (the objects of its "contradicts"). */
static size_t
row_ncontra(const struct bm__jval *rec)
{
	const struct bm__jval *a = bm__jget(rec, "contradicts");
	size_t i, n = 0;

	for (i = 0; a != NULL && a->type == BM__J_ARRAY && i < a->n; i++)
		n += a->item[i].type == BM__J_OBJECT;
	return n;
}

/*
 * Whether value, rec's figure, can be one: a number, and above 0 where
 * the metric is a time or a rate (latency, bandwidth, rate), which no
 * measurement gives as 0 or less; a reading (a size, a count) may be 0.
 */
static int
row_valid(const struct bm__jval *rec, double value)
{
	static const char *const positive[] = { "latency", "bandwidth",
	    "rate" };
	const char *metric = bm__jstr(rec, "metric");
	size_t i;

	if (!isfinite(value))
		return 0;
	for (i = 0; metric != NULL && i < sizeof(positive) /
	    sizeof(positive[0]); i++)
		if (strcmp(metric, positive[i]) == 0)
			return value > 0;
	return 1;
}

/*
 * The figure and flags of rec into r.  A record shows its value; one
 * written before its value was its robust figure (the best process, see
 * benchmp(3)) shows that figure the same way: its interval ("best" for
 * a coverage) and its own flags (noisy when wide or of few processes,
 * disturbed).
 */
void
summary_row_figure(const struct bm__jval *rec, struct summary_row *r)
{
	const struct bm__jval *rb = bm__jget(rec, "robust");
	const struct bm__jval *intf = bm__jget(rec, "interference");
	const char *stat = bm__jstr(rec, "stat");
	const char *level = bm__jstr(rec, "ci_level");
	int robust = isfinite(bm__jnum(rb, "value"));
	int shown = robust && !(stat != NULL &&
	    strcmp(stat, "best process") == 0);
	const struct bm__jval *from = shown ? rb : rec;
	int noisy, disturbed, bimodal;

	r->robust = robust;
	r->value = bm__jnum(from, "value");
	r->lo = bm__jnum(from, "ci_lo");
	r->hi = bm__jnum(from, "ci_hi");
	r->best = shown || (level != NULL && strcmp(level, "best") == 0);
	r->level = r->best ? 1 : bm__jnum(rec, "ci_level");
	r->cv = bm__jnum(rec, "cv");
	r->parallel = bm__jnum(rec, "parallel");
	if (isnan(r->parallel))
		r->parallel = 1;
	noisy = shown ? row_has(rb, "causes", "wide") ||
	    row_has(rb, "causes", "few") : bm__jtrue(rec, "noisy");
	disturbed = shown ? row_has(rb, "causes", "disturbed") :
	    bm__jtrue(rec, "disturbed");
	/* Modes split a median; a robust figure is one process's. */
	bimodal = bm__jtrue(rec, "bimodal") && !robust;
	r->flags = (unsigned)!row_valid(rec, r->value) << SUMMARY_INVALID |
	    (unsigned)noisy << SUMMARY_NOISY |
	    (unsigned)disturbed << SUMMARY_DISTURBED |
	    (unsigned)bimodal << SUMMARY_BIMODAL |
	    (unsigned)bm__jtrue(rec, "disagree") << SUMMARY_DISAGREE |
	    (unsigned)(row_ncontra(rec) > 0) << SUMMARY_CONTRADICTS |
	    (unsigned)bm__jtrue(intf, "bound_hit") << SUMMARY_BOUND |
	    (unsigned)bm__jtrue(rec, "budget_hit") << SUMMARY_BUDGET;
	r->slow = bm__jtrue(intf, "accounted") &&
	    bm__jnum(intf, "disturbed") > 0;
}

/* Free what a row holds. */
static void
row_free(struct summary_row *r)
{
	size_t i, k;

	free(r->group);
	free(r->label);
	free(r->unit);
	free(r->modes);
	for (i = 0; i < r->ncontra; i++)
		for (k = 0; k < SUMMARY_NPARTS; k++)
			free(r->contra[i].part[k]);
	free(r->contra);
}

/* Add a per-rank record of host to s's ranks; 0 or -ENOMEM. */
static int
row_rank(struct summary *s, const struct bm__jval *rec,
    const struct bm__jval *host)
{
	const struct bm__jval *fig = bm__jget(bm__jget(rec, "suite"),
	    "figure");
	struct summary_rank *grown, *k;
	size_t cap;

	if (fig == NULL || fig->type == BM__J_NULL)
		fig = bm__jget(rec, "tool");

	if (s->nrank == s->rank_cap) {
		cap = s->rank_cap > 0 ? 2 * s->rank_cap : 64;
		if ((grown = realloc(s->rank, cap * sizeof *grown)) == NULL)
			return -ENOMEM;
		s->rank = grown;
		s->rank_cap = cap;
	}
	k = &s->rank[s->nrank];
	memset(k, 0, sizeof *k);
	k->batch = bm__jnum(bm__jget(rec, "suite"), "batch");
	k->batch = isnan(k->batch) ? 0 : k->batch;
	k->rank = bm__jnum(rec, "rank");
	k->rank = isnan(k->rank) ? 0 : k->rank;
	k->at = s->nrank;
	k->value = bm__jnum(rec, "value");
	k->host = row_text(host, "");
	k->label = row_text(fig, "");
	s->nrank++;
	return k->host != NULL && k->label != NULL ? 0 : -ENOMEM;
}

/* The label of the row at place at of a summary (a bm__keymap_key). */
static const char *
row_label(const void *arg, size_t at)
{
	const struct summary *s = arg;

	return s->row[at].label;
}

/* Make r the row of its figure: a new one, or in place of an earlier record's. */
static int
row_keep(struct summary *s, struct summary_row *r)
{
	struct summary_row *grown;
	uint64_t hash = bm__keymap_hash(r->label);
	size_t i, cap;

	if (bm__keymap_find_hash(&s->rows, hash, r->label, row_label, s,
	    &i)) {
		row_free(&s->row[i]);
		s->row[i] = *r;
		return 0;
	}
	if (s->nrow == s->row_cap) {
		cap = s->row_cap > 0 ? 2 * s->row_cap : 64;
		if ((grown = realloc(s->row, cap * sizeof *grown)) == NULL)
			return -ENOMEM;
		s->row = grown;
		s->row_cap = cap;
	}
	if (bm__keymap_add_hash(&s->rows, hash, s->nrow) != 0)
		return -ENOMEM;
	s->row[s->nrow++] = *r;
	return 0;
}

/*
 * Add one record to the summary in arg: a per-rank record to the ranks,
 * a sweep's point that benchmp-run marks "curve" to their count, any
 * other as its figure's row.  A record of benchmp-run is named by its
 * suite's group and figure, any other by its tool, case and parameters.
 */
static int
row_add(struct summary *s, const struct bm__jval *rec, size_t line,
    char *why, size_t whysize)
{
	const struct bm__jval *suite = bm__jget(rec, "suite");
	const struct bm__jval *agg = bm__jget(rec, "aggregate");
	const struct bm__jval *host = bm__jget(rec, "host");
	struct summary_row r;
	int rc;

	memset(&r, 0, sizeof r);
	if (agg != NULL && agg->type == BM__J_FALSE) {
		if (bm__jtrue(suite, "curve"))
			return 0;
		if (host == NULL || host->type != BM__J_STRING) {
			snprintf(why, whysize, "line %zu: a per-rank record "
			    "(aggregate false) without its host", line);
			return BM_EPARSE;
		}
		rc = row_rank(s, rec, host);
	} else if (bm__jtrue(suite, "curve")) {
		s->ncurve++;
		return 0;
	} else {
		r.group = suite != NULL && suite->type == BM__J_OBJECT ?
		    row_text(bm__jget(suite, "group"), "") : strdup("other");
		r.label = suite != NULL && suite->type == BM__J_OBJECT ?
		    row_text(bm__jget(suite, "figure"), "") : row_name(rec);
		r.unit = row_text(bm__jget(rec, "unit"), "");
		rc = r.group == NULL || r.label == NULL || r.unit == NULL ||
		    row_contra(rec, &r) != 0 || row_modes(rec, &r) != 0 ?
		    -ENOMEM : 0;
		summary_row_figure(rec, &r);
		r.past = clock_record_shift(rec);
		clock_run_note(&s->clock, rec);
		if (rc == 0)
			rc = row_keep(s, &r);
		if (rc != 0)
			row_free(&r);
	}
	if (rc != 0)
		snprintf(why, whysize, "line %zu: out of memory", line);
	return rc;
}

/* A bm__reader_each: add rec (see row_add), then free it. */
int
summary_row_add(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize)
{
	int rc = row_add(arg, rec, line, why, whysize);

	bm__jval_free(rec);
	return rc;
}

/* How many of the summary's figures are flagged. */
size_t
summary_row_flagged(const struct summary *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nrow; i++)
		n += s->row[i].flags != 0;
	return n;
}

/* Free what the summary holds. */
void
summary_row_free_all(struct summary *s)
{
	size_t i;

	for (i = 0; i < s->nrow; i++)
		row_free(&s->row[i]);
	for (i = 0; i < s->nrank; i++) {
		free(s->rank[i].host);
		free(s->rank[i].label);
	}
	free(s->row);
	bm__keymap_free(&s->rows);
	free(s->rank);
	free(s->host);
	free(s->med);
	free(s->mid);
}
