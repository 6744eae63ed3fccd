/* ab-figure.c: benchmp-ab's figures: the two arms' records paired, in one unit, and printed. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"

/* How many records are paired between two looks at the stop flag. */
#define FIG_LOOK_EVERY		1024

/* An empty table. */
void
ab_table_init(struct ab_table *t)
{
	memset(t, 0, sizeof *t);
}

/* The hash of a figure's command and key (FNV-1a). */
static size_t
fig_hash(size_t cmd, const char *key)
{
	uint64_t h = 14695981039346656037ULL ^ (uint64_t)cmd;

	for (; *key != '\0'; key++) {
		h ^= (unsigned char)*key;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

/* The slot of (cmd, key) in the hash: its figure's or the empty one. */
static size_t
fig_slot(const struct ab_table *t, size_t cmd, const char *key)
{
	size_t mask = t->nslot - 1, s = fig_hash(cmd, key) & mask;

	while (t->slot[s] != 0) {
		const struct ab_figure *f = &t->fig[t->slot[s] - 1];

		if (f->cmd == cmd && strcmp(f->key, key) == 0)
			break;
		s = (s + 1) & mask;
	}
	return s;
}

/* Make the hash twice as large as the figures (a power of two): 0 or -1. */
static int
fig_rehash(struct ab_table *t, size_t want)
{
	size_t n = 64, i;

	while (n < 2 * want)
		n *= 2;
	if (n <= t->nslot)
		return 0;
	free(t->slot);
	if ((t->slot = calloc(n, sizeof *t->slot)) == NULL) {
		t->nslot = 0;
		return -1;
	}
	t->nslot = n;
	for (i = 0; i < t->n; i++)
		t->slot[fig_slot(t, t->fig[i].cmd, t->fig[i].key)] = i + 1;
	return 0;
}

/* Release what a figure holds. */
static void
fig_clear(struct ab_figure *f)
{
	free(f->key);
	free(f->tool);
	free(f->kase);
	free(f->params);
	free(f->metric);
	free(f->unit);
	free(f->a);
	free(f->b);
	memset(f, 0, sizeof *f);
}

/*
 * The figure of command cmd with r's key, made from r when new (its
 * unit r's, its threshold threshold); NULL without memory.
 */
static struct ab_figure *
fig_find(struct ab_table *t, size_t cmd, const struct ab_rec *r,
    double threshold)
{
	struct ab_figure *f, *grown;
	size_t s;

	if (fig_rehash(t, t->n + 1) != 0)
		return NULL;
	s = fig_slot(t, cmd, r->key);
	if (t->slot[s] != 0)
		return &t->fig[t->slot[s] - 1];
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;

		if ((grown = realloc(t->fig, cap * sizeof *grown)) == NULL)
			return NULL;
		t->fig = grown;
		t->cap = cap;
	}
	f = &t->fig[t->n];
	memset(f, 0, sizeof *f);
	f->cmd = cmd;
	f->better = r->better;
	f->threshold = threshold;
	f->more_s = NAN;
	f->key = strdup(r->key);
	f->tool = strdup(r->tool);
	f->kase = strdup(r->kase ? r->kase : "");
	f->params = strdup(r->params ? r->params : "{}");
	f->metric = strdup(r->metric ? r->metric : "");
	f->unit = strdup(r->unit ? r->unit : "");
	if (!f->key || !f->tool || !f->kase || !f->params || !f->metric ||
	    !f->unit) {
		fig_clear(f);
		return NULL;
	}
	t->slot[s] = ++t->n;
	return f;
}

/* Append a pair to a figure.  0 or -1 (no memory, too many). */
static int
fig_append(struct ab_figure *f, double a, double b)
{
	if (f->n >= BM__PAIRED_MAX)
		return -1;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 32;
		double *na = realloc(f->a, cap * sizeof *na), *nb;

		if (na == NULL)
			return -1;
		f->a = na;
		if ((nb = realloc(f->b, cap * sizeof *nb)) == NULL)
			return -1;
		f->b = nb;
		f->cap = cap;
	}
	f->a[f->n] = a;
	f->b[f->n] = b;
	f->n++;
	return 0;
}

/* Order records by key alone (bsearch: keys are told apart by then). */
static int
fig_cmp_key(const void *x, const void *y)
{
	const struct ab_rec *a = *(const struct ab_rec *const *)x;
	const struct ab_rec *b = *(const struct ab_rec *const *)y;

	return strcmp(a->key, b->key);
}

/* The record of the sorted by[n] with r's key, or NULL. */
static struct ab_rec *
fig_lookup(struct ab_rec **by, long n, struct ab_rec *r)
{
	struct ab_rec **hit = bsearch(&r, by, (size_t)n, sizeof *by,
	    fig_cmp_key);

	return hit != NULL ? *hit : NULL;
}

/*
 * The pair of A's and B's values in the figure's unit: 0, or -1 and why
 * when a record's unit is not of the figure's kind (us against ops/s):
 * refused, not paired, as 1 us and 1000 ns once were (B/A 1000).
 */
static int
fig_in_unit(const struct ab_figure *f, const struct ab_rec *ra,
    const struct ab_rec *rb, double *a, double *b, char *why, size_t size)
{
	const char *ua = ra->unit ? ra->unit : "", *ub = rb->unit ?
	    rb->unit : "";
	double fa, fb;
	char name[256];

	if (ab_unit_factor(ua, f->unit, &fa) == 0 &&
	    ab_unit_factor(ub, f->unit, &fb) == 0) {
		*a = ra->value * fa;
		*b = rb->value * fb;
		return 0;
	}
	ab_record_name(ra, name, sizeof name);
	if (strcmp(ua, f->unit) != 0)
		snprintf(why, size, "%s: arm A reports it in '%s', in an "
		    "earlier round in '%s': not comparable", name, ua, f->unit);
	else
		snprintf(why, size, "%s: arm A reports it in '%s', arm B in "
		    "'%s': not comparable", name, ua, ub);
	return -1;
}

/*
 * Pair the records of two arms' outputs of command cmd, whose figures'
 * threshold is threshold: every figure A printed must be in B's and the
 * other way round.  Records are matched through a sort of their keys,
 * not pairwise.  0, -1 and why, or -2 when *stop was set.
 */
int
ab_table_add(struct ab_table *t, size_t cmd, double threshold,
    const char *out_a, const char *out_b, char *why, size_t size,
    volatile sig_atomic_t *stop)
{
	struct ab_rec *ra = NULL, *rb = NULL, **bya = NULL, **byb = NULL, *m;
	long na, nb = 0, i;
	int rc = -1;
	char name[256];

	if ((na = ab_record_read(out_a, 'A', &ra, why, size, stop)) < 0)
		return (int)na;
	if ((nb = ab_record_read(out_b, 'B', &rb, why, size, stop)) < 0) {
		rc = (int)nb;
		nb = 0;
		goto out;
	}
	if (na == 0 || nb == 0) {
		snprintf(why, size, "arm %c printed no record", na ? 'B' : 'A');
		goto out;
	}
	if ((bya = ab_record_sorted(ra, na)) == NULL ||
	    (byb = ab_record_sorted(rb, nb)) == NULL) {
		snprintf(why, size, "out of memory");
		goto out;
	}
	for (i = 0; i < nb; i++) {
		if (i % FIG_LOOK_EVERY == 0 && *stop) {
			rc = -2;
			goto out;
		}
		if (fig_lookup(bya, na, &rb[i]) == NULL) {
			ab_record_name(&rb[i], name, sizeof name);
			snprintf(why, size, "arm B printed %s, arm A did not",
			    name);
			goto out;
		}
	}
	for (i = 0; i < na; i++) {
		struct ab_figure *f;
		double a, b;

		if (i % FIG_LOOK_EVERY == 0 && *stop) {
			rc = -2;
			goto out;
		}
		if ((m = fig_lookup(byb, nb, &ra[i])) == NULL) {
			ab_record_name(&ra[i], name, sizeof name);
			snprintf(why, size, "arm A printed %s, arm B did not",
			    name);
			goto out;
		}
		if ((f = fig_find(t, cmd, &ra[i], threshold)) == NULL) {
			snprintf(why, size, "out of memory");
			goto out;
		}
		if (fig_in_unit(f, &ra[i], m, &a, &b, why, size) != 0)
			goto out;
		if (fig_append(f, a, b) != 0) {
			snprintf(why, size, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	free(bya);
	free(byb);
	ab_record_free(ra, na);
	ab_record_free(rb, nb);
	return rc;
}

/* 1 when every figure of command cmd is settled (and it has one). */
int
ab_table_settled(const struct ab_table *t, size_t cmd)
{
	size_t i;
	int any = 0;

	for (i = 0; i < t->n; i++) {
		if (t->fig[i].cmd != cmd)
			continue;
		if (!t->fig[i].settled)
			return 0;
		any = 1;
	}
	return any;
}

/* Release a table. */
void
ab_table_free(struct ab_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		fig_clear(&t->fig[i]);
	free(t->fig);
	free(t->slot);
	memset(t, 0, sizeof *t);
}

/* The verdict's word. */
const char *
ab_verdict_word(enum ab_verdict v)
{
	static const char *const word[] = { "undecided", "same", "worse",
	    "better", "changed" };

	return word[v];
}

/* The median of n values (NAN for none), from a sorted copy. */
double
ab_median(const double *v, size_t n)
{
	double *s, m;
	size_t i, j;

	if (n == 0 || (s = malloc(n * sizeof *s)) == NULL)
		return NAN;
	for (i = 0; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && s[j - 1] > x; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* The params' JSON as k=v words for a line ("" when none). */
static void
fig_params_words(const char *params, char *buf, size_t size)
{
	size_t k = 0;
	const char *p;

	for (p = params; *p != '\0' && k + 2 < size; p++) {
		if (*p == '{' || *p == '}' || *p == '"')
			continue;
		buf[k++] = *p == ':' ? '=' : *p == ',' ? ' ' : *p;
	}
	buf[k] = '\0';
}

/*
 * The noise floor a control run saw: the larger distance of its
 * interval's ends from no change, as a share (A/A: what this machine
 * cannot resolve with these rounds).
 */
static double
fig_floor(const struct ab_figure *f)
{
	double lo = 1 - exp(f->st.lo), hi = exp(f->st.hi) - 1;

	return lo > hi ? lo : hi;
}

/* Print a figure as a line of text. */
void
ab_print_line(FILE *out, const struct ab_figure *f, int control)
{
	char params[256], name[512], *p;

	fig_params_words(f->params, params, sizeof params);
	snprintf(name, sizeof name, "%s%s%s%s%s %s", f->tool,
	    f->kase[0] ? " " : "", f->kase, params[0] ? " " : "", params,
	    f->metric);
	/* A record's strings may hold any byte: none raw on a terminal. */
	for (p = name; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (f->stats_rc != 0 || f->n < 2) {
		fprintf(out, "%-40s B/A -  (%zu rounds: too few for an "
		    "interval)  %s\n", name, f->n, ab_verdict_word(f->verdict));
		return;
	}
	fprintf(out, "%-40s B/A %.4f [%.4f, %.4f] %.0f%%  %-9s %zu rounds "
	    "(A %.4g, B %.4g %s)", name, exp(f->st.shift), exp(f->st.lo),
	    exp(f->st.hi), f->st.level * 100, ab_verdict_word(f->verdict),
	    f->n, ab_median(f->a, f->n), ab_median(f->b, f->n), f->unit);
	if (control)
		fprintf(out, "  noise floor +-%.2f%%", fig_floor(f) * 100);
	if (f->verdict == AB_UNDECIDED && isfinite(f->more_s))
		fprintf(out, "  (about %.0f s more would decide it)",
		    ceil(f->more_s));
	fputc('\n', out);
}

/* Print s as a JSON string: escaped, and valid UTF-8 (U+FFFD where not). */
static void
fig_json_string(FILE *out, const char *s)
{
	struct bm__json b;

	memset(&b, 0, sizeof b);
	bm__json_string(&b, s);
	fputs(b.err == 0 && b.s != NULL ? b.s : "null", out);
	free(b.s);
}

/*
 * How many times its units (rounds, clusters) an undecided interval
 * [lo, hi] around shift (logs of B/A) needs to decide at threshold, or
 * NAN: an interval's width shrinks as 1/sqrt(units), so the units that
 * bring its half width down to what a verdict needs (the gap between
 * the estimate and the threshold for same, the estimate itself for a
 * change) are (half / need)^2 times those it has.  An estimate: the
 * spread of the next units is this one's.
 */
double
ab_more_factor(double lo, double hi, double shift, double threshold)
{
	double band = log1p(threshold), half = (hi - lo) / 2, need;

	shift = fabs(shift);
	need = shift < band ? band - shift : shift;
	if (!(half > 0) || !(need > 0))
		return NAN;
	return (half / need) * (half / need);
}

/* Print a number as JSON (null when not finite). */
void
ab_json_number(FILE *out, const char *key, double v)
{
	fprintf(out, ",\"%s\":", key);
	if (isfinite(v))
		fprintf(out, "%.17g", v);
	else
		fputs("null", out);
}

/*
 * Print what names figure f and its values as JSON members (no braces):
 * its tool, case, params, metric, unit and better direction.
 */
void
ab_json_ident(FILE *out, const struct ab_figure *f)
{
	static const char *const better[] = { "lower", "higher", "none" };

	fputs("\"tool\":", out);
	fig_json_string(out, f->tool);
	fputs(",\"case\":", out);
	fig_json_string(out, f->kase);
	fprintf(out, ",\"params\":%s,\"metric\":", f->params);
	fig_json_string(out, f->metric);
	fputs(",\"unit\":", out);
	fig_json_string(out, f->unit);
	fprintf(out, ",\"better\":\"%s\"", better[f->better]);
}

/* Print a figure as one JSON object on a line. */
void
ab_print_json(FILE *out, const struct ab_figure *f, int control,
    const char *mode, const char *test, int interrupted)
{
	int ok = f->stats_rc == 0 && f->n >= 2;

	fputc('{', out);
	ab_json_ident(out, f);
	fprintf(out, ",\"verdict\":\"%s\"", ab_verdict_word(f->verdict));
	ab_json_number(out, "ratio", f->n >= 2 ? exp(f->st.shift) : NAN);
	ab_json_number(out, "ci_lo", ok ? exp(f->st.lo) : NAN);
	ab_json_number(out, "ci_hi", ok ? exp(f->st.hi) : NAN);
	ab_json_number(out, "ci_level", ok ? f->st.level : NAN);
	ab_json_number(out, "p", f->n >= 2 ? f->st.p : NAN);
	fprintf(out, ",\"rounds\":%zu", f->n);
	ab_json_number(out, "threshold", f->threshold);
	ab_json_number(out, "more_s", f->verdict == AB_UNDECIDED ?
	    f->more_s : NAN);
	ab_json_number(out, "a_median", ab_median(f->a, f->n));
	ab_json_number(out, "b_median", ab_median(f->b, f->n));
	fprintf(out, ",\"settled_early\":%s,\"control\":%s,\"mode\":\"%s\","
	    "\"test\":\"%s\"", f->settled ? "true" : "false",
	    control ? "true" : "false", mode, test);
	if (control)
		ab_json_number(out, "noise_floor", ok ? fig_floor(f) : NAN);
	if (interrupted)
		fputs(",\"interrupted\":true", out);
	fputs("}\n", out);
}
