/* jparse.c: a strict, bounded JSON parser for stored records read back. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/* The parser's place in the text and the first fault it met. */
struct jp {
	const char *s;
	size_t len;
	size_t at;
	const char *why;
	int err;
};

static int jp_value(struct jp *p, struct bm__jval *v, unsigned depth);

/* Note a fault at the current place; the first one is kept. */
static int
jp_fail(struct jp *p, const char *why)
{
	if (p->err == 0) {
		p->err = BM_EPARSE;
		p->why = why;
	}
	return p->err;
}

/* Skip JSON's four blanks. */
static void
jp_ws(struct jp *p)
{
	while (p->at < p->len && (p->s[p->at] == ' ' || p->s[p->at] == '\t' ||
	    p->s[p->at] == '\n' || p->s[p->at] == '\r'))
		p->at++;
}

/* Consume the literal word w (true, false, null). */
static int
jp_word(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if (p->len - p->at < n || memcmp(p->s + p->at, w, n) != 0)
		return jp_fail(p, "not a JSON value");
	p->at += n;
	return 0;
}

/* Read the JSON number at the current place into *x (the grammar checked). */
static int
jp_number(struct jp *p, double *x)
{
	size_t b = p->at, i = p->at;
	char buf[64], *end;
	const char *s = p->s;

	if (i < p->len && s[i] == '-')
		i++;
	if (i < p->len && s[i] == '0')
		i++;
	else if (i < p->len && s[i] >= '1' && s[i] <= '9')
		while (i < p->len && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		return jp_fail(p, "not a JSON value");
	if (i < p->len && s[i] == '.') {
		if (++i >= p->len || s[i] < '0' || s[i] > '9')
			return jp_fail(p, "a digit must follow the point");
		while (i < p->len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < p->len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= p->len || s[i] < '0' || s[i] > '9')
			return jp_fail(p, "a digit must follow the exponent");
		while (i < p->len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i - b >= sizeof buf)
		return jp_fail(p, "a number too long");
	memcpy(buf, s + b, i - b);
	buf[i - b] = '\0';
	errno = 0;
	*x = strtod(buf, &end);
	/* 1e999 is valid JSON but no double: refused, never Infinity. */
	if (errno == ERANGE && (*x > 1 || *x < -1))
		return jp_fail(p, "a number out of range");
	p->at = i;
	return 0;
}

/* The value of n hexadecimal digits at s, or -1. */
static long
jp_hex(const char *s, size_t n)
{
	long v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int c = s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Append code point cp as UTF-8 to o at *k. */
static void
jp_utf8(char *o, size_t *k, unsigned long cp)
{
	if (cp < 0x80) {
		o[(*k)++] = (char)cp;
	} else if (cp < 0x800) {
		o[(*k)++] = (char)(0xc0 | cp >> 6);
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		o[(*k)++] = (char)(0xe0 | cp >> 12);
		o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		o[(*k)++] = (char)(0xf0 | cp >> 18);
		o[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	}
}

/* Read one \u escape (and its low surrogate) at s[*i], the backslash's next. */
static int
jp_uescape(struct jp *p, size_t *i, char *o, size_t *k)
{
	long hi, lo;

	if (p->len - *i < 5 || (hi = jp_hex(p->s + *i + 1, 4)) < 0)
		return jp_fail(p, "a bad \\u escape");
	*i += 5;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return jp_fail(p, "a lone low surrogate");
	if (hi >= 0xd800 && hi <= 0xdbff) {
		if (p->len - *i < 6 || p->s[*i] != '\\' || p->s[*i + 1] != 'u' ||
		    (lo = jp_hex(p->s + *i + 2, 4)) < 0xdc00 || lo > 0xdfff)
			return jp_fail(p, "a lone high surrogate");
		*i += 6;
		hi = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	}
	jp_utf8(o, k, (unsigned long)hi);
	return 0;
}

/*
 * The offset of the end of the string at the current place: its closing
 * quote, or the first control character, or the end of the text.  An
 * escape's next byte is skipped, so \" does not end it.
 */
static size_t
jp_string_end(const struct jp *p)
{
	size_t i = p->at + 1;

	while (i < p->len && p->s[i] != '"' &&
	    (unsigned char)p->s[i] >= 0x20)
		i += p->s[i] == '\\' ? 2 : 1;
	return i < p->len ? i : p->len;
}

/* Read the JSON string at the current place into *str (malloc) and *len. */
static int
jp_string(struct jp *p, char **str, size_t *len)
{
	size_t i = p->at + 1, k = 0;
	char *o;

	/*
	 * Decoded, a string is never longer than its text, so its own span
	 * is enough; the rest of the whole text for each string would make
	 * a line of many short strings ask for gigabytes.
	 */
	if ((o = malloc(jp_string_end(p) - p->at)) == NULL)
		return p->err = -ENOMEM;
	for (;;) {
		unsigned char c;

		if (i >= p->len) {
			free(o);
			return jp_fail(p, "an unterminated string");
		}
		c = (unsigned char)p->s[i];
		if (c == '"')
			break;
		if (c < 0x20) {
			free(o);
			return jp_fail(p, "a control character in a string");
		}
		if (c != '\\') {
			o[k++] = (char)c;
			i++;
			continue;
		}
		if (++i >= p->len) {
			free(o);
			return jp_fail(p, "an unterminated string");
		}
		switch (p->s[i]) {
		case '"': o[k++] = '"'; break;
		case '\\': o[k++] = '\\'; break;
		case '/': o[k++] = '/'; break;
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 't': o[k++] = '\t'; break;
		case 'u':
			p->at = i - 1;
			if (jp_uescape(p, &i, o, &k) != 0) {
				free(o);
				return p->err;
			}
			continue;
		default:
			free(o);
			p->at = i;
			return jp_fail(p, "a bad escape in a string");
		}
		i++;
	}
	o[k] = '\0';
	*str = o;
	*len = k;
	p->at = i + 1;
	return 0;
}

/* Read an array or an object (close is ']' or '}') into v. */
static int
jp_list(struct jp *p, struct bm__jval *v, char close, unsigned depth)
{
	size_t cap = 0;

	p->at++;
	jp_ws(p);
	if (p->at < p->len && p->s[p->at] == close) {
		p->at++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			struct bm__jval *ni = realloc(v->item, nc * sizeof *ni);
			char **nk;

			if (ni == NULL)
				return p->err = -ENOMEM;
			v->item = ni;
			if (close == '}') {
				if ((nk = realloc(v->key, nc * sizeof *nk)) == NULL)
					return p->err = -ENOMEM;
				v->key = nk;
			}
			cap = nc;
		}
		memset(&v->item[v->n], 0, sizeof v->item[v->n]);
		jp_ws(p);
		if (close == '}') {
			size_t kl;

			v->key[v->n] = NULL;
			if (p->at >= p->len || p->s[p->at] != '"')
				return jp_fail(p, "a member name must be a string");
			if (jp_string(p, &v->key[v->n], &kl) != 0)
				return p->err;
			jp_ws(p);
			if (p->at >= p->len || p->s[p->at] != ':')
				return v->n++, jp_fail(p, "a ':' must follow a name");
			p->at++;
		}
		v->n++;
		if (jp_value(p, &v->item[v->n - 1], depth + 1) != 0)
			return p->err;
		jp_ws(p);
		if (p->at < p->len && p->s[p->at] == ',') {
			p->at++;
			continue;
		}
		if (p->at < p->len && p->s[p->at] == close) {
			p->at++;
			return 0;
		}
		return jp_fail(p, close == '}' ? "a ',' or '}' expected" :
		    "a ',' or ']' expected");
	}
}

/* Read any JSON value at the current place into v (zeroed). */
static int
jp_value(struct jp *p, struct bm__jval *v, unsigned depth)
{
	jp_ws(p);
	if (depth >= BM__JSON_DEPTH)
		return jp_fail(p, "nested too deep");
	if (p->at >= p->len)
		return jp_fail(p, "a value expected");
	switch (p->s[p->at]) {
	case '{':
		v->type = BM__J_OBJECT;
		return jp_list(p, v, '}', depth);
	case '[':
		v->type = BM__J_ARRAY;
		return jp_list(p, v, ']', depth);
	case '"':
		v->type = BM__J_STRING;
		return jp_string(p, &v->str, &v->len);
	case 't':
		v->type = BM__J_TRUE;
		return jp_word(p, "true");
	case 'f':
		v->type = BM__J_FALSE;
		return jp_word(p, "false");
	case 'n':
		v->type = BM__J_NULL;
		return jp_word(p, "null");
	default:
		v->type = BM__J_NUMBER;
		return jp_number(p, &v->num);
	}
}

/* Free what v holds, not v itself. */
static void
jp_clear(struct bm__jval *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jp_clear(&v->item[i]);
		if (v->key != NULL)
			free(v->key[i]);
	}
	free(v->item);
	free(v->key);
	free(v->str);
}

/* Free what a value holds and make it null, for a value inside another. */
void
bm__jval_clear(struct bm__jval *v)
{
	jp_clear(v);
	memset(v, 0, sizeof *v);
	v->type = BM__J_NULL;
}

/* Free a value from bm__jparse. */
void
bm__jval_free(struct bm__jval *v)
{
	if (v == NULL)
		return;
	jp_clear(v);
	free(v);
}

/* Parse s[0..len) strictly into *out. */
int
bm__jparse(const char *s, size_t len, struct bm__jval **out, size_t *at,
    const char **why)
{
	struct jp p = { s, len, 0, NULL, 0 };
	struct bm__jval *v;

	*out = NULL;
	if ((v = calloc(1, sizeof *v)) == NULL)
		return -ENOMEM;
	if (jp_value(&p, v, 0) == 0) {
		jp_ws(&p);
		if (p.at < p.len)
			jp_fail(&p, "text after the value");
	}
	if (p.err != 0) {
		bm__jval_free(v);
		if (at != NULL)
			*at = p.at;
		if (why != NULL)
			*why = p.err == -ENOMEM ? "out of memory" : p.why;
		return p.err;
	}
	*out = v;
	return 0;
}

/* An object's member named name, or NULL (the last one of a repeated name). */
const struct bm__jval *
bm__jget(const struct bm__jval *obj, const char *name)
{
	size_t i;

	if (obj == NULL || obj->type != BM__J_OBJECT)
		return NULL;
	for (i = obj->n; i-- > 0;)
		if (strcmp(obj->key[i], name) == 0)
			return &obj->item[i];
	return NULL;
}

/* An object's number member, or NAN when it is missing or not a number. */
double
bm__jnum(const struct bm__jval *obj, const char *name)
{
	const struct bm__jval *v = bm__jget(obj, name);

	return v != NULL && v->type == BM__J_NUMBER ? v->num : NAN;
}

/* An object's string member, or NULL. */
const char *
bm__jstr(const struct bm__jval *obj, const char *name)
{
	const struct bm__jval *v = bm__jget(obj, name);

	return v != NULL && v->type == BM__J_STRING ? v->str : NULL;
}

/* Whether an object's member is true. */
int
bm__jtrue(const struct bm__jval *obj, const char *name)
{
	const struct bm__jval *v = bm__jget(obj, name);

	return v != NULL && v->type == BM__J_TRUE;
}

/* Append x in the fewest digits that read back as x (0.1, not 0.10000000000000001). */
static void
jp_number_out(struct bm__json *b, double x)
{
	char buf[40];
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	bm__json_printf(b, "%.*g", prec, x);
}

/* Append v as compact JSON to b. */
static void
jp_emit(struct bm__json *b, const struct bm__jval *v)
{
	size_t i;

	switch (v->type) {
	case BM__J_NULL: bm__json_printf(b, "null"); break;
	case BM__J_FALSE: bm__json_printf(b, "false"); break;
	case BM__J_TRUE: bm__json_printf(b, "true"); break;
	case BM__J_NUMBER: jp_number_out(b, v->num); break;
	case BM__J_STRING: bm__json_string(b, v->str); break;
	case BM__J_ARRAY:
	case BM__J_OBJECT:
		bm__json_printf(b, v->type == BM__J_ARRAY ? "[" : "{");
		for (i = 0; i < v->n; i++) {
			if (i > 0)
				bm__json_printf(b, ",");
			if (v->type == BM__J_OBJECT) {
				bm__json_string(b, v->key[i]);
				bm__json_printf(b, ":");
			}
			jp_emit(b, &v->item[i]);
		}
		bm__json_printf(b, v->type == BM__J_ARRAY ? "]" : "}");
		break;
	}
}

/* Write v as compact JSON into *out. */
int
bm__jwrite(const struct bm__jval *v, char **out)
{
	struct bm__json b;

	memset(&b, 0, sizeof b);
	jp_emit(&b, v);
	if (b.err != 0 || b.s == NULL) {
		free(b.s);
		return b.err != 0 ? b.err : -ENOMEM;
	}
	*out = b.s;
	return 0;
}
