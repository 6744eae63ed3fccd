/* json.c: the JSON writer of records: a growing buffer, strings, numbers, lists. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Append formatted text, its numbers with C's decimal point whatever
 * locale the program set (parse.c).
 */
void
bm__json_printf(struct bm__json *b, const char *fmt, ...)
{
	va_list ap;
	size_t need;
	locale_t old;
	char *n;
	int w;

	if (b->err)
		return;
	old = bm__numeric_enter();
	/* An empty buffer has no memory yet: NULL + 0 is undefined in C. */
	va_start(ap, fmt);
	w = vsnprintf(b->s != NULL ? b->s + b->len : NULL, b->cap - b->len,
	    fmt, ap);
	va_end(ap);
	if (w < 0) {
		b->err = -EINVAL;
		goto done;
	}
	if ((size_t)w < b->cap - b->len) {
		b->len += (size_t)w;
		goto done;
	}
	need = b->len + (size_t)w + 1;
	if ((n = realloc(b->s, need * 2)) == NULL) {
		b->err = -ENOMEM;
		goto done;
	}
	b->s = n;
	b->cap = need * 2;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)w;
done:
	bm__numeric_leave(old);
}

/* Length of the valid UTF-8 sequence at p (at most left bytes), or 0; its code point in *cpp. */
size_t
bm__json_utf8(const unsigned char *p, size_t left, unsigned *cpp)
{
	size_t n, i;
	unsigned cp;

	if (p[0] < 0x80)
		n = 1, cp = p[0];
	else if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are invalid. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	if (cpp != NULL)
		*cpp = cp;
	return n;
}

/*
 * Append a JSON string.  Control characters are escaped and bytes that are
 * not valid UTF-8 become U+FFFD, so the line is valid JSON whatever a file
 * name or host name contains.
 */
void
bm__json_string(struct bm__json *b, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;
	size_t left, n;

	if (str == NULL) {
		bm__json_printf(b, "null");
		return;
	}
	left = strlen(str);
	bm__json_printf(b, "\"");
	while (left > 0) {
		n = bm__json_utf8(p, left, NULL);
		if (n == 0) {
			bm__json_printf(b, "\\ufffd");
			n = 1;
		} else if (*p == '"' || *p == '\\')
			bm__json_printf(b, "\\%c", *p);
		else if (*p == '\n')
			bm__json_printf(b, "\\n");
		else if (*p == '\t')
			bm__json_printf(b, "\\t");
		else if (*p == '\r')
			bm__json_printf(b, "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			bm__json_printf(b, "\\u%04x", *p);
		else
			bm__json_printf(b, "%.*s", (int)n, (const char *)p);
		p += n;
		left -= n;
	}
	bm__json_printf(b, "\"");
}

/*
 * Append a number exactly, or null where JSON has no number for it.  The
 * point is C's: in the C locale, or the locale's own point replaced when
 * no C locale could be made (1,5 is no JSON number).
 */
void
bm__json_number(struct bm__json *b, double v)
{
	char num[64], fixed[64];
	const char *dp;
	locale_t old;

	if (!isfinite(v)) {
		bm__json_printf(b, "null");
		return;
	}
	if ((old = bm__numeric_enter()) != (locale_t)0) {
		(void)snprintf(num, sizeof num, "%.17g", v);
		bm__numeric_leave(old);
	} else {
		(void)snprintf(num, sizeof num, "%.17g", v);
		dp = localeconv()->decimal_point;
		if (dp != NULL && *dp != '\0' && strcmp(dp, ".") != 0 &&
		    bm__numeric_swap(num, dp, ".", fixed, sizeof fixed) == 0)
			memcpy(num, fixed, sizeof num);
	}
	bm__json_printf(b, "%s", num);
}

/* Append "key":value for a string. */
void
bm__json_kstr(struct bm__json *b, const char *key, const char *v)
{
	bm__json_printf(b, ",\"%s\":", key);
	bm__json_string(b, v);
}

/* Append "key":value for a number. */
void
bm__json_knum(struct bm__json *b, const char *key, double v)
{
	bm__json_printf(b, ",\"%s\":", key);
	bm__json_number(b, v);
}

/* Append a list of numbers as "key":[...]. */
void
bm__json_list(struct bm__json *b, const char *key, const double *x,
    size_t n)
{
	size_t i;

	bm__json_printf(b, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i > 0)
			bm__json_printf(b, ",");
		bm__json_number(b, x[i]);
	}
	bm__json_printf(b, "]");
}
