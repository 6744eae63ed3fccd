/* check_tsc_x86.c: the real TSC's rate, or a skip where there is none. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "internal.h"

#define TSC_TIMER "cycle=x86-rdtscp,x86-rdtsc"

/*
 * An invariant TSC has a rate of a real CPU's order; one that is not
 * invariant is said so and converts nothing.
 */
START_TEST(test_x86_tsc)
{
	bm_ctx *ctx;
	double hz = 0;
	int inv = -2, rc;

	unsetenv("BENCHMP_TSC_HZ");
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_msg(bm_ctx_set_timer(ctx, TSC_TIMER) == 0, "%s",
	    bm_ctx_errmsg(ctx));
	rc = bm_ctx_cycle_hz(ctx, &hz, &inv);
	if (inv == 1) {
		ck_assert_msg(rc == 0, "%s", bm_ctx_errmsg(ctx));
		ck_assert_msg(hz > 1e8 && hz < 1e11, "%g Hz", hz);
		ck_assert_ptr_nonnull(strstr(ctx->rate.detail, "invariant TSC"));
	} else {
		ck_assert_int_eq(inv, 0);
		ck_assert_int_eq(rc, BM_ENOTSUP);
		ck_assert(isnan(hz));
		ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
		    "not invariant"));
	}
	bm_ctx_free(ctx);
}
END_TEST

/*
 * NULL when the TSC subtimers start here; otherwise why not (not an x86
 * build, or a CPU or hypervisor without a usable TSC), in a buffer of
 * the caller's.
 */
static const char *
tsc_missing(char *why, size_t len)
{
	bm_ctx *ctx;
	int rc;

	if ((rc = bm_ctx_new(&ctx)) != 0) {
		snprintf(why, len, "no context: %s", bm_strerror(rc));
		return why;
	}
	rc = bm_ctx_set_timer(ctx, TSC_TIMER);
	if (rc != 0)
		snprintf(why, len, "no TSC here: %s", bm_ctx_errmsg(ctx));
	bm_ctx_free(ctx);
	return rc == 0 ? NULL : why;
}

/* Build the suite. */
static Suite *
tsc_x86_suite(void)
{
	Suite *s = suite_create("tsc_x86");
	TCase *tc = tcase_create("tsc_x86");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_x86_tsc);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite where a TSC subtimer starts; skip it elsewhere. */
int
main(void)
{
	char why[256];

	unsetenv("BENCHMP_TIMER");
	return check_run_unless("check_tsc_x86", tsc_missing(why, sizeof why),
	    tsc_x86_suite);
}
