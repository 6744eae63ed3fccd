/* ab-record.c: benchmp-ab's records: an arm's output read, checked and keyed. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "verdict/verdict.h"

/* How deep a record's JSON may nest. */
#define REC_DEPTH		32
/* How many lines are read between two looks at the stop flag. */
#define REC_LOOK_EVERY		1024

/* Skip blanks. */
static const char *
rec_ws(const char *p, const char *end)
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
rec_string(const char *p, const char *end, char **out)
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
rec_skip(const char *p, const char *end, int depth)
{
	p = rec_ws(p, end);
	if (p >= end || depth > REC_DEPTH)
		return NULL;
	if (*p == '"')
		return rec_string(p, end, NULL);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		p = rec_ws(p + 1, end);
		if (p < end && *p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if ((p = rec_string(rec_ws(p, end), end,
				    NULL)) == NULL)
					return NULL;
				p = rec_ws(p, end);
				if (p >= end || *p++ != ':')
					return NULL;
			}
			if ((p = rec_skip(p, end, depth + 1)) == NULL)
				return NULL;
			p = rec_ws(p, end);
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

/*
 * Where the record on the line [p, end) starts (its '{'), or NULL when
 * the line is not one: the one test of what is a record, for reading
 * and for saving alike.
 */
static const char *
rec_start(const char *p, const char *end)
{
	p = rec_ws(p, end);
	return p < end && *p == '{' ? p : NULL;
}

/* Release what a record holds. */
static void
rec_clear(struct ab_rec *r)
{
	free(r->tool);
	free(r->kase);
	free(r->params);
	free(r->metric);
	free(r->unit);
	free(r->key);
	memset(r, 0, sizeof *r);
}

/* Release n records and their array. */
void
ab_record_free(struct ab_rec *v, long n)
{
	long i;

	for (i = 0; i < n; i++)
		rec_clear(&v[i]);
	free(v);
}

/* The record's "better" from its word: none, higher, else lower. */
static enum ab_better
rec_better(const char *word)
{
	if (word != NULL && strcmp(word, "higher") == 0)
		return AB_HIGHER;
	if (word != NULL && strcmp(word, "none") == 0)
		return AB_NONE;
	return AB_LOWER;
}

/*
 * Read one record line [p, end), valid JSON, into r: the top-level keys
 * benchmp-ab needs; a value that is no number (null) is NAN.  0, or -1
 * when the line is not an object with a tool and a value.
 */
static int
rec_parse(const char *p, const char *end, struct ab_rec *r)
{
	int has_value = 0;

	memset(r, 0, sizeof *r);
	p = rec_ws(p, end);
	if (p >= end || *p++ != '{')
		return -1;
	p = rec_ws(p, end);
	if (p < end && *p == '}')
		return -1;
	for (;;) {
		char *key = NULL, **slot = NULL;
		const char *v;

		if ((p = rec_string(rec_ws(p, end), end, &key)) == NULL)
			return -1;
		p = rec_ws(p, end);
		if (p >= end || *p++ != ':') {
			free(key);
			return -1;
		}
		v = rec_ws(p, end);
		if (strcmp(key, "tool") == 0)
			slot = &r->tool;
		else if (strcmp(key, "case") == 0)
			slot = &r->kase;
		else if (strcmp(key, "metric") == 0)
			slot = &r->metric;
		else if (strcmp(key, "unit") == 0)
			slot = &r->unit;
		if (slot != NULL && *slot == NULL && v < end && *v == '"') {
			p = rec_string(v, end, slot);
		} else if (strcmp(key, "better") == 0 && v < end && *v == '"') {
			char *b = NULL;

			p = rec_string(v, end, &b);
			r->better = rec_better(b);
			free(b);
		} else if (strcmp(key, "value") == 0 && v < end &&
		    (*v == '-' || isdigit((unsigned char)*v) ||
		    strchr("NIni", *v) != NULL)) {
			/* NaN, Infinity, null too: named as no measurement. */
			p = rec_skip(v, end, 1);
			r->value = *v == 'n' ? NAN : strtod(v, NULL);
			has_value = 1;
		} else if (strcmp(key, "params") == 0 && r->params == NULL) {
			p = rec_skip(v, end, 1);
			if (p != NULL && (r->params = strndup(v,
			    (size_t)(p - v))) == NULL)
				p = NULL;
		} else {
			p = rec_skip(v, end, 1);
		}
		free(key);
		if (p == NULL)
			return -1;
		p = rec_ws(p, end);
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		return p < end && *p == '}' && r->tool != NULL && has_value ?
		    0 : -1;
	}
}

/*
 * The params' JSON text with each path into a private directory a tool
 * made for itself (/.../benchmp-NAME.XXXXXX/rest, a new one each run) as
 * <tmp>/rest, as benchmp-compare shows it: the same figure in both arms.
 * A new string (malloc), or NULL without memory.
 */
static char *
rec_private(const char *params)
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

/* A record's figure for messages: tool case metric, control bytes as '?'. */
void
ab_record_name(const struct ab_rec *r, char *buf, size_t size)
{
	char *p;

	snprintf(buf, size, "%s%s%s %s", r->tool, r->kase && *r->kase ? " " :
	    "", r->kase ? r->kase : "", r->metric ? r->metric : "");
	for (p = buf; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* Order records by key, then by their place in the output (qsort). */
static int
rec_cmp_key(const void *x, const void *y)
{
	const struct ab_rec *a = *(const struct ab_rec *const *)x;
	const struct ab_rec *b = *(const struct ab_rec *const *)y;
	int c = strcmp(a->key, b->key);

	return c != 0 ? c : (a > b) - (a < b);
}

/*
 * Pointers to the n records of v sorted by key, and by their place in
 * the output among the same keys (malloc); NULL without memory.
 */
struct ab_rec **
ab_record_sorted(struct ab_rec *v, long n)
{
	struct ab_rec **by = malloc((size_t)(n + 1) * sizeof *by);
	long i;

	if (by == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		by[i] = &v[i];
	qsort(by, (size_t)n, sizeof *by, rec_cmp_key);
	return by;
}

/*
 * Tell apart the records of one figure printed more than once by one
 * run: the second and later get "\037#k" on their key, in their order.
 * Sorted, not compared pairwise: a sweep prints tens of thousands.
 * 0 or -1 (no memory).
 */
static int
rec_number(struct ab_rec *v, long n)
{
	struct ab_rec **by = ab_record_sorted(v, n);
	long i, k = 0;
	int rc = 0;

	if (by == NULL)
		return -1;
	for (i = 1; i < n && rc == 0; i++) {
		size_t len = strlen(by[i]->key) + 24;
		char *key;

		if (strcmp(by[i]->key, by[i - 1 - k]->key) != 0) {
			k = 0;
			continue;
		}
		k++;
		if ((key = malloc(len)) == NULL) {
			rc = -1;
			break;
		}
		snprintf(key, len, "%s\037#%ld", by[i]->key, k);
		free(by[i]->key);
		by[i]->key = key;
	}
	free(by);
	return rc;
}

/* Make r's key: tool, case, params, metric.  0 or -1 (no memory). */
static int
rec_key(struct ab_rec *r)
{
	size_t klen;

	if (r->params != NULL) {
		char *priv = rec_private(r->params);

		free(r->params);
		if ((r->params = priv) == NULL)
			return -1;
	}
	klen = strlen(r->tool) + (r->kase ? strlen(r->kase) : 0) +
	    (r->params ? strlen(r->params) : 0) +
	    (r->metric ? strlen(r->metric) : 0) + 8;
	if ((r->key = malloc(klen)) == NULL)
		return -1;
	snprintf(r->key, klen, "%s\037%s\037%s\037%s", r->tool,
	    r->kase ? r->kase : "", r->params ? r->params : "",
	    r->metric ? r->metric : "");
	return 0;
}

/*
 * Check one record line [p, end) of arm and read it into r: 0, or -1
 * and why (the arm named, and the figure where there is one).
 */
static int
rec_line(const char *p, const char *end, char arm, struct ab_rec *r,
    char *why, size_t size)
{
	int parsed = rec_parse(p, end, r), rc;
	struct bm__jval *root = NULL;
	const struct bm__jval *params;
	const char *jwhy = "";
	size_t at = 0;
	char name[256];

	/*
	 * No ratio of a value at or below zero or of no number: such a
	 * value is the arm's failure to measure, never a round to drop
	 * (dropping every round so made a failing arm "undecided").  Looked
	 * at before the JSON is checked, so that NaN is named as such.
	 */
	if (parsed == 0 && (!(r->value > 0) || !isfinite(r->value))) {
		ab_record_name(r, name, sizeof name);
		snprintf(why, size, "arm %c printed %s = %g: no measurement "
		    "(a value must be positive and finite)", arm, name,
		    r->value);
		return -1;
	}
	if ((rc = bm__jparse(p, (size_t)(end - p), &root, &at, &jwhy)) != 0) {
		if (rc == -ENOMEM)
			snprintf(why, size, "out of memory");
		else
			snprintf(why, size, "arm %c printed a record that is "
			    "not valid JSON (byte %zu: %s): %.*s", arm, at + 1,
			    jwhy, end - p > 80 ? 80 : (int)(end - p), p);
		return -1;
	}
	rc = -1;
	if (parsed != 0 || root->type != BM__J_OBJECT) {
		snprintf(why, size, "arm %c printed a record that is not a "
		    "JSON object with a tool and a value", arm);
		goto out;
	}
	/*
	 * The params as JSON writes them (what benchmp-ab prints of them):
	 * valid UTF-8 and one spelling, whatever bytes the arm printed.
	 */
	if ((params = bm__jget(root, "params")) != NULL) {
		free(r->params);
		r->params = NULL;
		if (bm__jwrite(params, &r->params) != 0) {
			snprintf(why, size, "out of memory");
			goto out;
		}
	}
	if (rec_key(r) != 0) {
		snprintf(why, size, "out of memory");
		goto out;
	}
	rc = 0;
out:
	bm__jval_free(root);
	return rc;
}

/*
 * Read the records of an arm's output (one JSON object a line, other
 * lines ignored), each checked: valid JSON, a tool, a value that is a
 * measurement.  The count, -1 and why (naming the arm), or -2 when
 * *stop was set.
 */
long
ab_record_read(const char *out, char arm, struct ab_rec **recs, char *why,
    size_t size, volatile sig_atomic_t *stop)
{
	struct ab_rec *v = NULL, *grown;
	long n = 0, cap = 0, lines = 0;
	const char *p = out;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n'), *end;

		end = nl != NULL ? nl : p + strlen(p);
		if (++lines % REC_LOOK_EVERY == 0 && *stop) {
			ab_record_free(v, n);
			return -2;
		}
		if (rec_start(p, end) == NULL) {
			p = nl != NULL ? nl + 1 : end;
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			if ((grown = realloc(v, (size_t)cap * sizeof *v)) ==
			    NULL) {
				snprintf(why, size, "out of memory");
				goto fail;
			}
			v = grown;
		}
		if (rec_line(p, end, arm, &v[n], why, size) != 0) {
			rec_clear(&v[n]);
			goto fail;
		}
		n++;
		p = nl != NULL ? nl + 1 : end;
	}
	if (rec_number(v, n) != 0) {
		snprintf(why, size, "out of memory");
		goto fail;
	}
	*recs = v;
	return n;
fail:
	ab_record_free(v, n);
	return -1;
}

/*
 * Append the records of one run to f, each marked with its arm and
 * round (the keys go first in the object).  The lines saved are those
 * ab_record_read takes as records, which the caller has read without an
 * error first: each is a JSON object with members, so the file holds
 * nothing else.  0 or -1 (errno).
 */
int
ab_record_save(FILE *f, const char *out, char arm, unsigned round)
{
	const char *p = out;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n'), *end, *rec, *last;

		end = nl != NULL ? nl : p + strlen(p);
		if ((rec = rec_start(p, end)) != NULL) {
			/* Its blanks (a CR) after the closing brace left out. */
			for (last = end; last > rec && (last[-1] == ' ' ||
			    last[-1] == '\t' || last[-1] == '\r'); last--)
				;
			fprintf(f, "{\"ab_arm\":\"%c\",\"ab_round\":%u,%.*s\n",
			    arm, round, (int)(last - rec - 1), rec + 1);
		}
		p = nl != NULL ? nl + 1 : end;
	}
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
