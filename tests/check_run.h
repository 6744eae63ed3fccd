/* check_run.h: the main() every Check suite shares. */
#ifndef BM_CHECK_RUN_H
#define BM_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/*
 * Run a suite, each test in its own process with Check's timeout, and
 * turn the failures into the exit status.
 */
static inline int
check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif /* BM_CHECK_RUN_H */
