/* parse.c: strict parsers for the numbers a user types. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

/* Parse a finite decimal number (no sign, no hex, no inf) in [min, max]. */
int
bm_parse_double(const char *s, double min, double max, double *out)
{
	const char *p;
	char *end;
	double v;

	if (s == NULL)
		return BM_EPARSE;
	/* Only digits, one point and an exponent: strtod takes too much. */
	p = s;
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return BM_EPARSE;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return BM_EPARSE;
	for (p = s; p < end; p++) {
		if (isalpha((unsigned char)*p) && *p != 'e' && *p != 'E')
			return BM_EPARSE;
	}
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
