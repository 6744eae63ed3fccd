/* parse.c: strict parsers for the numbers a user types. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A program that calls setlocale(LC_ALL, "") in a locale with a decimal
 * comma (de_DE) would have printf() write 1,5 into a record, which is no
 * JSON (or two numbers in a list), and strtod() stop at the point of
 * "0.5".  Numbers of records, of the scheduler's lines and of a user's
 * settings are C's, whatever the locale: the thread switches to this C
 * locale (made once, shared by every thread) around the formatting or
 * parsing, and back.  (locale_t)0 when it cannot be made (no memory): the
 * callers then fix the decimal point themselves.
 */
static _Atomic(locale_t) parse_c_locale;

/* The C locale for numbers, or (locale_t)0; made on the first call. */
static locale_t
parse_locale_c(void)
{
	locale_t l, none = (locale_t)0;

	if ((l = atomic_load(&parse_c_locale)) != (locale_t)0)
		return l;
	if ((l = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0)) == (locale_t)0)
		return l;
	/* Two threads made one each: the first stored is kept. */
	if (!atomic_compare_exchange_strong(&parse_c_locale, &none, l)) {
		freelocale(l);
		l = none;
	}
	return l;
}

/* Switch this thread to C's numbers; returns what bm__numeric_leave takes. */
locale_t
bm__numeric_enter(void)
{
	locale_t c = parse_locale_c();

	return c != (locale_t)0 ? uselocale(c) : (locale_t)0;
}

/* Put back the locale bm__numeric_enter() replaced ((locale_t)0: none). */
void
bm__numeric_leave(locale_t old)
{
	if (old != (locale_t)0)
		(void)uselocale(old);
}

/*
 * Write s into buf (cap bytes) with each "from" replaced by "to"; 0, or -1
 * when it does not fit.  The fallback when no C locale could be made.
 */
int
bm__numeric_swap(const char *s, const char *from, const char *to, char *buf,
    size_t cap)
{
	size_t nf = strlen(from), nt = strlen(to), at = 0;

	while (*s != '\0') {
		if (nf > 0 && strncmp(s, from, nf) == 0) {
			if (cap - at <= nt)
				return -1;
			memcpy(buf + at, to, nt);
			at += nt;
			s += nf;
		} else {
			if (cap - at <= 1)
				return -1;
			buf[at++] = *s++;
		}
	}
	if (cap - at < 1)
		return -1;
	buf[at] = '\0';
	return 0;
}

/*
 * Parse the leading unsigned decimal digits of s into *out and return a
 * pointer past them, or NULL (and BM_EPARSE) when there are none.
 * strtoull() alone would accept leading blanks, a sign (and negate "-1"
 * into 2^64 - 1) and hex, so the digits are checked first.  Overflow sets
 * *err to BM_ERANGE but still returns the end: the caller reports it only
 * once the rest is known to be well formed, so that "99999999999999999999x"
 * is malformed, like "9x", rather than out of range.
 */
static const char *
parse_digits(const char *s, uint64_t *out, int *err)
{
	char *end;
	unsigned long long v;

	*err = 0;
	if (s == NULL || !isdigit((unsigned char)*s)) {
		*err = BM_EPARSE;
		return NULL;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		*err = BM_ERANGE;
	*out = v;
	return end;
}

/* Parse an unsigned decimal integer within [min, max]. */
int
bm_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int err;

	if ((end = parse_digits(s, &v, &err)) == NULL)
		return err;
	if (*end != '\0')
		return BM_EPARSE;
	if (err != 0)
		return err;
	if (v < min || v > max)
		return BM_ERANGE;
	*out = v;
	return 0;
}

/*
 * Parse a size: digits and an optional k, m or g (either case), meaning
 * 2^10, 2^20 or 2^30 as in lmbench.  A trailing "b" ("64kb") is not
 * accepted: lmbench never did, and refusing it keeps sizes unambiguous.
 */
int
bm_parse_size(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	unsigned shift = 0;
	int err;

	if ((end = parse_digits(s, &v, &err)) == NULL)
		return err;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return BM_EPARSE;
	}
	if (shift != 0 && end[1] != '\0')
		return BM_EPARSE;
	if (err != 0)
		return err;
	if (shift != 0 && v > (UINT64_MAX >> shift))
		return BM_ERANGE;
	*out = v << shift;
	return 0;
}

/*
 * strtod() of C's numbers, a decimal point whatever the program's locale;
 * *whole says whether all of s was read.  Without a C locale the point is
 * turned into the locale's first (s holds no comma: the caller refused
 * it; and a number too long for the buffer is none a user types).
 */
static double
parse_strtod(const char *s, int *whole)
{
	const char *dp;
	char buf[256], *end;
	locale_t old;
	double v;

	if ((old = bm__numeric_enter()) != (locale_t)0) {
		v = strtod(s, &end);
		bm__numeric_leave(old);
		*whole = end != s && *end == '\0';
		return v;
	}
	dp = localeconv()->decimal_point;
	if (dp == NULL || *dp == '\0' || strcmp(dp, ".") == 0) {
		v = strtod(s, &end);
		*whole = end != s && *end == '\0';
		return v;
	}
	if (bm__numeric_swap(s, ".", dp, buf, sizeof buf) != 0) {
		*whole = 0;
		return 0;
	}
	v = strtod(buf, &end);
	*whole = end != buf && *end == '\0';
	return v;
}

/*
 * Parse a finite decimal number (no sign, no hex, no inf) in [min, max],
 * with a decimal point whatever the locale.
 */
int
bm_parse_double(const char *s, double min, double max, double *out)
{
	const char *p;
	double v;
	int whole;

	if (s == NULL)
		return BM_EPARSE;
	/* Only digits, one point and an exponent: strtod takes too much. */
	p = s;
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return BM_EPARSE;
	for (p = s; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != 'e' &&
		    *p != 'E' && *p != '-' && *p != '+')
			return BM_EPARSE;
	}
	v = parse_strtod(s, &whole);
	if (!whole)
		return BM_EPARSE;
	/*
	 * strtod() sets ERANGE on underflow too, but "1e-400" reads as 0 (or
	 * a subnormal), the nearest double, which the range below judges
	 * correctly; only an overflow, read as infinity, is out of range
	 * whatever the bounds.
	 */
	if (!isfinite(v))
		return BM_ERANGE;
	if (v < min || v > max)
		return BM_ERANGE;
	*out = v;
	return 0;
}

/*
 * Parse "MIN" or "MIN:MAX" rounds of fresh workers: MIN from 1 to
 * BM_MAX_PROCESSES, MAX from MIN to BM_MAX_PROCESSES (without it, MAX is
 * 0: as many as MIN).
 */
int
bm_parse_processes(const char *s, unsigned *min, unsigned *max)
{
	char buf[32];
	const char *colon;
	uint64_t lo = 0, hi = 0;
	size_t len;
	int rc;

	if (s == NULL || min == NULL || max == NULL)
		return BM_EPARSE;
	colon = strchr(s, ':');
	len = colon != NULL ? (size_t)(colon - s) : strlen(s);
	if (len == 0 || strspn(s, "0123456789") < len)
		return BM_EPARSE;
	if (len >= sizeof buf)
		return BM_ERANGE;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if ((rc = bm_parse_uint(buf, 1, BM_MAX_PROCESSES, &lo)) != 0)
		return rc;
	if (colon != NULL && (rc = bm_parse_uint(colon + 1, lo,
	    BM_MAX_PROCESSES, &hi)) != 0)
		return rc;
	*min = (unsigned)lo;
	*max = (unsigned)hi;
	return 0;
}
