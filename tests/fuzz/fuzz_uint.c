/* fuzz_uint.c: libFuzzer target for bm_parse_uint(), checked against a plain reference. */
#include "config.h"

#include <inttypes.h>

#include "fuzz.h"
#include "internal.h"

/* ENOUGH's range, the narrowest a caller passes. */
#define FUZZ_MIN 1
#define FUZZ_MAX 60000000

/*
 * The reference: 0 and the value when s is one or more decimal digits that
 * fit in 64 bits, BM_ERANGE when they do not fit, BM_EPARSE otherwise.
 */
static int
ref_uint(const char *s, uint64_t *v)
{
	const char *p;

	*v = 0;
	if (*s == '\0')
		return BM_EPARSE;
	for (p = s; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return BM_EPARSE;
	}
	for (p = s; *p != '\0'; p++) {
		if (*v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return BM_ERANGE;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return 0;
}

/* Parse the input over the whole range and over ENOUGH's. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *digits;
	char back[32];
	uint64_t want, got, narrow;
	int ref, rc;
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	ref = ref_uint(s, &want);

	got = 0xdeadbeef;
	rc = bm_parse_uint(s, 0, UINT64_MAX, &got);
	FUZZ_CHECK(rc == ref);
	if (rc == 0) {
		FUZZ_CHECK(got == want);
		/* It reads back as the input less its leading zeros. */
		for (digits = s; digits[0] == '0' && digits[1] != '\0';)
			digits++;
		snprintf(back, sizeof back, "%" PRIu64, got);
		FUZZ_CHECK(strcmp(back, digits) == 0);
	} else
		FUZZ_CHECK(got == 0xdeadbeef);

	narrow = 0xdeadbeef;
	rc = bm_parse_uint(s, FUZZ_MIN, FUZZ_MAX, &narrow);
	if (ref == 0 && (want < FUZZ_MIN || want > FUZZ_MAX))
		ref = BM_ERANGE;
	FUZZ_CHECK(rc == ref);
	if (rc == 0)
		FUZZ_CHECK(narrow == want);
	else
		FUZZ_CHECK(narrow == 0xdeadbeef);
	free(s);
	return 0;
}
