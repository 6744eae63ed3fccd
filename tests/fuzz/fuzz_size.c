/* fuzz_size.c: libFuzzer target for bm_parse_size(), checked against a plain reference. */
#include "config.h"

#include "fuzz.h"
#include "internal.h"

/*
 * The reference: digits then at most one k, m or g (either case) for a
 * shift of 10, 20 or 30; the digits and the shifted value must fit in 64
 * bits.  Returns 0, BM_EPARSE or BM_ERANGE and the digits and shift.
 */
static int
ref_size(const char *s, uint64_t *v, unsigned *shift)
{
	const char *p, *end;

	*v = 0;
	*shift = 0;
	for (end = s; *end >= '0' && *end <= '9'; end++)
		;
	if (end == s)
		return BM_EPARSE;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		*shift = 10;
		break;
	case 'm': case 'M':
		*shift = 20;
		break;
	case 'g': case 'G':
		*shift = 30;
		break;
	default:
		return BM_EPARSE;
	}
	if (*shift != 0 && end[1] != '\0')
		return BM_EPARSE;
	for (p = s; p < end; p++) {
		if (*v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return BM_ERANGE;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	if (*v > (UINT64_MAX >> *shift))
		return BM_ERANGE;
	return 0;
}

/* Parse the input as a size and compare with the reference. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t want, got = 0xdeadbeef;
	unsigned shift;
	int ref, rc;
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	ref = ref_size(s, &want, &shift);
	rc = bm_parse_size(s, &got);
	FUZZ_CHECK(rc == ref);
	if (rc == 0) {
		/* The size is the digits times the unit, exactly. */
		FUZZ_CHECK(got >> shift == want);
		FUZZ_CHECK((got & ((UINT64_C(1) << shift) - 1)) == 0);
	} else
		FUZZ_CHECK(got == 0xdeadbeef);
	free(s);
	return 0;
}
