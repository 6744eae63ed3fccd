/* fuzz_double.c: libFuzzer target for bm_parse_double(): the grammar it takes and the range. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>

#include "fuzz.h"
#include "internal.h"

/* Return 1 when *p is a decimal digit. */
static int
is_digit(const char *p)
{
	return *p >= '0' && *p <= '9';
}

/*
 * Return 1 when s is, in full, what the documentation promises to read:
 * digits with an optional point and fraction, or a point and digits, then
 * an optional exponent (e or E, an optional sign, digits).  No sign, no
 * blanks, no hex, no inf or nan.
 */
static int
ref_grammar(const char *s)
{
	const char *p = s;
	int mant = 0;

	while (is_digit(p)) {
		p++;
		mant = 1;
	}
	if (*p == '.') {
		p++;
		if (!mant && !is_digit(p))
			return 0;
		while (is_digit(p))
			p++;
		mant = 1;
	}
	if (!mant)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!is_digit(p))
			return 0;
		while (is_digit(p))
			p++;
	}
	return *p == '\0';
}

/* Parse s within [min, max] and check the result against the grammar. */
static void
check_range(const char *s, double min, double max)
{
	double got = -1.0, v;
	int rc;

	rc = bm_parse_double(s, min, max, &got);
	FUZZ_CHECK(rc == 0 || rc == BM_EPARSE || rc == BM_ERANGE);
	FUZZ_CHECK((rc == BM_EPARSE) == !ref_grammar(s));
	if (rc == BM_EPARSE) {
		FUZZ_CHECK(got == -1.0);
		return;
	}
	v = strtod(s, NULL);
	if (rc == 0) {
		/* What was read is the C library's value, finite, in range. */
		FUZZ_CHECK(isfinite(got));
		FUZZ_CHECK(got >= min && got <= max);
		FUZZ_CHECK(got == v);
	} else {
		/* Out of range means what it says, not "hard to read". */
		FUZZ_CHECK(got == -1.0);
		FUZZ_CHECK(!isfinite(v) || v < min || v > max);
	}
}

/* Parse the input over TIMING_O's range, LOOP_O's and all of them. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	check_range(s, 0.0, 1000000.0);
	check_range(s, 0.0, 1000.0);
	check_range(s, 0.0, DBL_MAX);
	free(s);
	return 0;
}
