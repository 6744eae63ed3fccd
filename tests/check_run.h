/* check_run.h: the main() every Check suite shares. */
#ifndef BM_CHECK_RUN_H
#define BM_CHECK_RUN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef BM_HAVE_PERF_EVENT
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

/*
 * Return 1 when a user-space hardware cycle counter opens here, so a test
 * can expect exactly what this machine allows (a VM often has none).
 */
static inline int
check_hw_cycles_work(void)
{
#ifdef BM_HAVE_PERF_EVENT
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	close((int)fd);
	return 1;
#else
	return 0;
#endif
}

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

/* The exit status automake's test driver counts as a skip. */
#define CHECK_SKIP 77

/*
 * Run a suite of tests that need what a machine may lack (an IPv6
 * loopback, /dev/full, a TSC), unless why, the reason its main found it
 * missing before anything ran, is not NULL: then say why on stderr, as
 * the shell tests do, and return the status that the summary counts as
 * SKIP, never as a pass.  Such a suite is a program of its own, so that
 * a skip hides no other test.
 */
static inline int
check_run_unless(const char *suite, const char *why, Suite *(*make)(void))
{
	if (why == NULL)
		return check_run(make());
	fprintf(stderr, "%s: SKIP: %s\n", suite, why);
	return CHECK_SKIP;
}

#endif /* BM_CHECK_RUN_H */
