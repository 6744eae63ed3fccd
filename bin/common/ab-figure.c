/* ab-figure.c: benchmp-ab's figures: records read from the arms, paired, printed. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"

/* How deep a record's JSON may nest. */
#define FIG_DEPTH		32

/* What benchmp-ab reads of a record. */
struct fig_rec {
	char *tool;
	char *kase;
	char *params;
	char *metric;
	char *unit;
	int higher;
	int has_value;
	double value;
	char *key;
};

/* Skip blanks. */
static const char *
fig_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/*
 * Read the JSON string at p (its opening quote); into *out (malloc, the
 * escapes decoded, \u as '?' beyond ASCII) when out is not NULL.  The
 * position after it, or NULL when it is not a string.
 */
static const char *
fig_string(const char *p, const char *end, char **out)
{
	const char *q;
	char *o = NULL;
	size_t k = 0;

	if (p >= end || *p != '"')
		return NULL;
	for (q = p + 1; q < end && *q != '"'; q++)
		if (*q == '\\' && ++q >= end)
			return NULL;
	if (q >= end)
		return NULL;
	if (out != NULL && (o = malloc((size_t)(q - p))) == NULL)
		return NULL;
	for (p++; p < q; p++) {
		char c = *p;

		if (c == '\\') {
			c = *++p;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				c = '?';
				p += p + 4 < q ? 4 : 0;
				break;
			default: break;
			}
		}
		if (o != NULL)
			o[k++] = c;
	}
	if (o != NULL) {
		o[k] = '\0';
		*out = o;
	}
	return q + 1;
}

/* Skip the JSON value at p; the position after it, or NULL. */
static const char *
fig_skip(const char *p, const char *end, int depth)
{
	p = fig_ws(p, end);
	if (p >= end || depth > FIG_DEPTH)
		return NULL;
	if (*p == '"')
		return fig_string(p, end, NULL);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		p = fig_ws(p + 1, end);
		if (p < end && *p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if ((p = fig_string(fig_ws(p, end), end,
				    NULL)) == NULL)
					return NULL;
				p = fig_ws(p, end);
				if (p >= end || *p++ != ':')
					return NULL;
			}
			if ((p = fig_skip(p, end, depth + 1)) == NULL)
				return NULL;
			p = fig_ws(p, end);
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			return p < end && *p == close ? p + 1 : NULL;
		}
	}
	while (p < end && (isalnum((unsigned char)*p) || *p == '-' ||
	    *p == '+' || *p == '.'))
		p++;
	return p;
}

/* Release what a record holds. */
static void
fig_rec_free(struct fig_rec *r)
{
	free(r->tool);
	free(r->kase);
	free(r->params);
	free(r->metric);
	free(r->unit);
	free(r->key);
	memset(r, 0, sizeof *r);
}

/*
 * Read one record line [p, end) into r: the top-level keys benchmp-ab
 * needs.  0, or -1 when the line is not a JSON object.
 */
static int
fig_rec_parse(const char *p, const char *end, struct fig_rec *r)
{
	memset(r, 0, sizeof *r);
	p = fig_ws(p, end);
	if (p >= end || *p++ != '{')
		return -1;
	p = fig_ws(p, end);
	if (p < end && *p == '}')
		return 0;
	for (;;) {
		char *key = NULL, **slot = NULL;
		const char *v;

		if ((p = fig_string(fig_ws(p, end), end, &key)) == NULL)
			return -1;
		p = fig_ws(p, end);
		if (p >= end || *p++ != ':') {
			free(key);
			return -1;
		}
		v = fig_ws(p, end);
		if (strcmp(key, "tool") == 0)
			slot = &r->tool;
		else if (strcmp(key, "case") == 0)
			slot = &r->kase;
		else if (strcmp(key, "metric") == 0)
			slot = &r->metric;
		else if (strcmp(key, "unit") == 0)
			slot = &r->unit;
		if (slot != NULL && *slot == NULL && v < end && *v == '"') {
			p = fig_string(v, end, slot);
		} else if (strcmp(key, "better") == 0 && v < end && *v == '"') {
			char *b = NULL;

			p = fig_string(v, end, &b);
			r->higher = b != NULL && strcmp(b, "higher") == 0;
			free(b);
		} else if (strcmp(key, "value") == 0 && v < end &&
		    *v != 'n' && *v != '"' && *v != '{' && *v != '[') {
			char *num_end;

			p = fig_skip(v, end, 1);
			r->value = strtod(v, &num_end);
			r->has_value = p != NULL && num_end == p;
		} else if (strcmp(key, "params") == 0 && r->params == NULL) {
			p = fig_skip(v, end, 1);
			if (p != NULL && (r->params = strndup(v,
			    (size_t)(p - v))) == NULL)
				p = NULL;
		} else {
			p = fig_skip(v, end, 1);
		}
		free(key);
		if (p == NULL)
			return -1;
		p = fig_ws(p, end);
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		return p < end && *p == '}' ? 0 : -1;
	}
}

/*
 * The params' JSON text with each path into a private directory a tool
 * made for itself (/.../benchmp-NAME.XXXXXX/rest, a new one each run) as
 * <tmp>/rest, as benchmp-compare shows it: the same figure in both arms.
 * A new string (malloc), or NULL without memory.
 */
static char *
fig_private(const char *params)
{
	size_t len = strlen(params), i = 0, k = 0;
	char *out = malloc(len + 1);

	if (out == NULL)
		return NULL;
	while (i < len) {
		const char *q = params + i, *m, *end;
		size_t name, rnd;

		if (*q != '"') {
			out[k++] = params[i++];
			continue;
		}
		/* A string: look for benchmp-NAME.XXXXXX/ inside it. */
		for (end = q + 1; *end != '\0' && *end != '"'; end++)
			if (*end == '\\' && end[1] != '\0')
				end++;
		m = strstr(q, "/benchmp-");
		if (m != NULL && m < end) {
			const char *p = m + 9;

			for (name = 0; isalnum((unsigned char)p[name]) ||
			    p[name] == '_' || p[name] == '-'; name++)
				;
			p += name;
			for (rnd = 0; *p == '.' && isalnum((unsigned char)p[1 + rnd]);
			    rnd++)
				;
			if (name > 0 && rnd == 6 && p[7] == '/') {
				memcpy(out + k, "\"<tmp>", 6);
				k += 6;
				i = (size_t)(p + 7 - params);
				continue;
			}
		}
		out[k++] = params[i++];
	}
	out[k] = '\0';
	return out;
}

/*
 * Read every record of an arm's output into *recs: one JSON object a
 * line (other lines ignored), each with a key naming its figure (tool,
 * case, params, metric, and which of the same it is).  The count, or
 * -1 with why.
 */
static long
fig_read(const char *out, struct fig_rec **recs, char *why, size_t size)
{
	struct fig_rec *v = NULL;
	long n = 0, i;
	const char *p = out;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n'), *end;
		struct fig_rec r, *grown;
		size_t klen;
		int same = 0;

		end = nl != NULL ? nl : p + strlen(p);
		if (*fig_ws(p, end) != '{' || fig_ws(p, end) >= end) {
			p = nl != NULL ? nl + 1 : end;
			continue;
		}
		if (fig_rec_parse(p, end, &r) != 0 || r.tool == NULL ||
		    !r.has_value) {
			snprintf(why, size, "a record it printed is not a "
			    "JSON object with a tool and a value");
			fig_rec_free(&r);
			goto fail;
		}
		klen = strlen(r.tool) + (r.kase ? strlen(r.kase) : 0) +
		    (r.params ? strlen(r.params) : 0) +
		    (r.metric ? strlen(r.metric) : 0) + 32;
		if (r.params != NULL) {
			char *priv = fig_private(r.params);

			free(r.params);
			r.params = priv;
		}
		if ((r.key = malloc(klen)) == NULL ||
		    (grown = realloc(v, (size_t)(n + 1) * sizeof *v)) == NULL) {
			snprintf(why, size, "out of memory");
			fig_rec_free(&r);
			goto fail;
		}
		v = grown;
		snprintf(r.key, klen, "%s\037%s\037%s\037%s", r.tool,
		    r.kase ? r.kase : "", r.params ? r.params : "",
		    r.metric ? r.metric : "");
		/* A figure printed twice by one run is told apart by order. */
		for (i = 0; i < n; i++) {
			size_t kl = strlen(r.key);

			same += strncmp(v[i].key, r.key, kl) == 0 &&
			    (v[i].key[kl] == '\0' || v[i].key[kl] == '\037');
		}
		if (same > 0) {
			size_t at = strlen(r.key);

			snprintf(r.key + at, klen - at, "\037#%d", same);
		}
		v[n++] = r;
		p = nl != NULL ? nl + 1 : end;
	}
	*recs = v;
	return n;
fail:
	for (i = 0; i < n; i++)
		fig_rec_free(&v[i]);
	free(v);
	return -1;
}

/* An empty table. */
void
ab_table_init(struct ab_table *t, size_t ncmd)
{
	(void)ncmd;
	memset(t, 0, sizeof *t);
}

/* The figure of command cmd with key, made from r when new; NULL on ENOMEM. */
static struct ab_figure *
fig_find(struct ab_table *t, size_t cmd, const struct fig_rec *r)
{
	struct ab_figure *f, *grown;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->fig[i].cmd == cmd && strcmp(t->fig[i].key, r->key) == 0)
			return &t->fig[i];
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
	f->higher = r->higher;
	f->key = strdup(r->key);
	f->tool = strdup(r->tool);
	f->kase = strdup(r->kase ? r->kase : "");
	f->params = strdup(r->params ? r->params : "{}");
	f->metric = strdup(r->metric ? r->metric : "");
	f->unit = strdup(r->unit ? r->unit : "");
	if (!f->key || !f->tool || !f->kase || !f->params || !f->metric ||
	    !f->unit)
		return NULL;
	t->n++;
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

/* The figure's name for messages: tool case metric. */
static void
fig_name(const struct fig_rec *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s %s", r->tool, r->kase && *r->kase ? " " :
	    "", r->kase ? r->kase : "", r->metric ? r->metric : "");
}

/*
 * Pair the records of the two arms' outputs of command cmd: every figure
 * A printed must be in B's and the other way round, with a positive
 * value.  0, or -1 and why.
 */
int
ab_table_add(struct ab_table *t, size_t cmd, const char *out_a,
    const char *out_b, char *why, size_t size)
{
	struct fig_rec *ra = NULL, *rb = NULL;
	long na, nb, i, j;
	int rc = -1;
	char name[256];

	if ((na = fig_read(out_a, &ra, why, size)) < 0)
		return -1;
	if ((nb = fig_read(out_b, &rb, why, size)) < 0)
		goto out;
	if (na == 0) {
		snprintf(why, size, "arm A printed no record");
		goto out;
	}
	if (nb == 0) {
		snprintf(why, size, "arm B printed no record");
		goto out;
	}
	for (i = 0; i < nb; i++) {
		for (j = 0; j < na && strcmp(ra[j].key, rb[i].key) != 0; j++)
			;
		if (j == na) {
			fig_name(&rb[i], name, sizeof name);
			snprintf(why, size, "arm B printed %s, arm A did not",
			    name);
			goto out;
		}
	}
	for (i = 0; i < na; i++) {
		struct ab_figure *f;

		for (j = 0; j < nb && strcmp(ra[i].key, rb[j].key) != 0; j++)
			;
		fig_name(&ra[i], name, sizeof name);
		if (j == nb) {
			snprintf(why, size, "arm A printed %s, arm B did not",
			    name);
			goto out;
		}
		if ((f = fig_find(t, cmd, &ra[i])) == NULL) {
			snprintf(why, size, "out of memory");
			goto out;
		}
		/* No ratio of a value at or below zero: the pair is left out. */
		if (!(ra[i].value > 0) || !(rb[j].value > 0) ||
		    !isfinite(ra[i].value) || !isfinite(rb[j].value)) {
			f->skipped++;
			continue;
		}
		if (fig_append(f, ra[i].value, rb[j].value) != 0) {
			snprintf(why, size, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	for (i = 0; i < na; i++)
		fig_rec_free(&ra[i]);
	for (i = 0; i < nb; i++)
		fig_rec_free(&rb[i]);
	free(ra);
	free(rb);
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

	for (i = 0; i < t->n; i++) {
		struct ab_figure *f = &t->fig[i];

		free(f->key);
		free(f->tool);
		free(f->kase);
		free(f->params);
		free(f->metric);
		free(f->unit);
		free(f->a);
		free(f->b);
	}
	free(t->fig);
	memset(t, 0, sizeof *t);
}

/* The verdict's word. */
static const char *
fig_verdict_word(enum ab_verdict v)
{
	static const char *const word[] = { "undecided", "same", "worse",
	    "better" };

	return word[v];
}

/* The median of n values (NAN for none), from a sorted copy. */
static double
fig_median(const double *v, size_t n)
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
	char params[256], name[512];

	fig_params_words(f->params, params, sizeof params);
	snprintf(name, sizeof name, "%s%s%s%s%s %s", f->tool,
	    f->kase[0] ? " " : "", f->kase, params[0] ? " " : "", params,
	    f->metric);
	if (f->stats_rc != 0 || f->n < 2) {
		fprintf(out, "%-40s B/A -  (%zu rounds: too few for an "
		    "interval)  %s\n", name, f->n, fig_verdict_word(f->verdict));
		return;
	}
	fprintf(out, "%-40s B/A %.4f [%.4f, %.4f] %.0f%%  %-9s %zu rounds "
	    "(A %.4g, B %.4g %s)", name, exp(f->st.shift), exp(f->st.lo),
	    exp(f->st.hi), f->st.level * 100, fig_verdict_word(f->verdict),
	    f->n, fig_median(f->a, f->n), fig_median(f->b, f->n), f->unit);
	if (control)
		fprintf(out, "  noise floor +-%.2f%%", fig_floor(f) * 100);
	if (f->skipped > 0)
		fprintf(out, "  (%zu rounds left out: a value not positive)",
		    f->skipped);
	fputc('\n', out);
}

/* Print s as a JSON string. */
static void
fig_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Print a number as JSON (null when not finite). */
static void
fig_json_number(FILE *out, const char *key, double v)
{
	fprintf(out, ",\"%s\":", key);
	if (isfinite(v))
		fprintf(out, "%.17g", v);
	else
		fputs("null", out);
}

/* Print a figure as one JSON object on a line. */
void
ab_print_json(FILE *out, const struct ab_figure *f, double threshold,
    int control, const char *mode, const char *test)
{
	int ok = f->stats_rc == 0 && f->n >= 2;

	fputs("{\"tool\":", out);
	fig_json_string(out, f->tool);
	fputs(",\"case\":", out);
	fig_json_string(out, f->kase);
	fprintf(out, ",\"params\":%s,\"metric\":", f->params);
	fig_json_string(out, f->metric);
	fputs(",\"unit\":", out);
	fig_json_string(out, f->unit);
	fprintf(out, ",\"better\":\"%s\",\"verdict\":\"%s\"",
	    f->higher ? "higher" : "lower", fig_verdict_word(f->verdict));
	fig_json_number(out, "ratio", f->n >= 2 ? exp(f->st.shift) : NAN);
	fig_json_number(out, "ci_lo", ok ? exp(f->st.lo) : NAN);
	fig_json_number(out, "ci_hi", ok ? exp(f->st.hi) : NAN);
	fig_json_number(out, "ci_level", ok ? f->st.level : NAN);
	fig_json_number(out, "p", f->n >= 2 ? f->st.p : NAN);
	fprintf(out, ",\"rounds\":%zu,\"skipped\":%zu", f->n, f->skipped);
	fig_json_number(out, "threshold", threshold);
	fig_json_number(out, "a_median", fig_median(f->a, f->n));
	fig_json_number(out, "b_median", fig_median(f->b, f->n));
	fprintf(out, ",\"settled_early\":%s,\"control\":%s,\"mode\":\"%s\","
	    "\"test\":\"%s\"", f->settled ? "true" : "false",
	    control ? "true" : "false", mode, test);
	if (control)
		fig_json_number(out, "noise_floor", ok ? fig_floor(f) : NAN);
	fputs("}\n", out);
}
