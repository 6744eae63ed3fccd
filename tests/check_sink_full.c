/* check_sink_full.c: a file sink on a full disk (/dev/full), or a skip. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "internal.h"

START_TEST(test_full_disk)
{
	bm_sink *s;
	bm_ctx *ctx;

	/* /dev/full fails every write with ENOSPC, like a full disk. */
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, "file:/dev/full", &s), 0);
	ck_assert_int_eq(bm_sink_write(ctx, s, "{}\n", 3), -ENOSPC);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "/dev/full"));
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	bm_ctx_free(ctx);
}
END_TEST

/* Build the suite. */
static Suite *
sink_full_suite(void)
{
	Suite *s = suite_create("sink_full");
	TCase *tc = tcase_create("sink_full");

	tcase_add_test(tc, test_full_disk);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite where /dev/full can be written; skip it elsewhere. */
int
main(void)
{
	return check_run_unless("check_sink_full", access("/dev/full", W_OK) ==
	    0 ? NULL : "/dev/full cannot be written here", sink_full_suite);
}
