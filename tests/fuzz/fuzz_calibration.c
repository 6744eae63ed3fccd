/* fuzz_calibration.c: libFuzzer target for bm_ctx_set_calibration() with any value and selector. */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "benchmp/calibration.h"
#include "fuzz.h"

/* Return 0 when value is in which's documented range, else the error. */
static int
ref_check(unsigned which, double value)
{
	switch (which) {
	case BM_CAL_ENOUGH:
		return value >= 1 && value <= 60000000 &&
		    value == floor(value) ? 0 : BM_ERANGE;
	case BM_CAL_TIMING_O:
		return value >= 0 && value <= 1000000 ? 0 : BM_ERANGE;
	case BM_CAL_LOOP_O:
		return value >= 0 && value <= 1000 ? 0 : BM_ERANGE;
	}
	return -EINVAL;
}

/*
 * The input: one byte that selects the value (BM_CAL_* or anything else)
 * and the eight bytes of a double, NaN, infinities and negative zero
 * included.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bm_ctx *ctx;
	struct bm_ctx before;
	unsigned which;
	double value;
	int rc, ref;

	if (size != 1 + sizeof value)
		return -1;
	which = data[0];
	memcpy(&value, data + 1, sizeof value);
	ref = ref_check(which, value);

	FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
	before = *ctx;
	rc = bm_ctx_set_calibration(ctx, which, value);
	FUZZ_CHECK(rc == ref);
	if (rc != 0) {
		FUZZ_CHECK(*bm_ctx_errmsg(ctx) != '\0');
		FUZZ_CHECK(fuzz_ctx_same(ctx, &before));
	} else {
		/* The value is stored as given and marked as the user's. */
		FUZZ_CHECK(ctx->known == which && ctx->cal.from_env == which);
		if (which == BM_CAL_ENOUGH)
			FUZZ_CHECK((double)ctx->cal.enough_us == value);
		else if (which == BM_CAL_TIMING_O)
			FUZZ_CHECK(ctx->cal.timing_o_us == value);
		else
			FUZZ_CHECK(ctx->cal.loop_o_us == value);
	}
	bm_ctx_free(ctx);
	return 0;
}
