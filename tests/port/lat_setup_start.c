/*
 * lat_setup_start.c: an lmbench-style benchmark whose benchmark does
 * untimed work around its timed loop: each call first prepares (50 ms
 * of sleep standing for setup), then start(0), the getppid() loop,
 * stop(0, 0), then tears down (50 ms more).  Only the loop is timed, so
 * the figure is a system call's, as lat_syscall null prints it.
 */
#include "timing.h"

/* Stand-in for a benchmark's setup or teardown: 50 ms of sleep. */
static void
busy_elsewhere(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
}

/* Prepare, time iterations of getppid() alone, tear down. */
static void
doit(iter_t iterations, void *cookie)
{
	(void)cookie;
	busy_elsewhere();
	start(0);
	while (iterations-- > 0)
		(void)getppid();
	stop(0, 0);
	busy_elsewhere();
}

/* Measure and print as lat_syscall null does. */
int
main(void)
{
	benchmp(NULL, doit, NULL, 0, 1, 0, TRIES, NULL);
	if (gettime() == 0) {
		fprintf(stderr, "lat_setup_start: %s\n", bm_compat_errmsg());
		return 1;
	}
	micro("Simple syscall", get_n());
	/* The kept interval holds none of the 100 ms around the loop. */
	printf("kept interval: %llu microseconds for %llu calls\n",
	    (unsigned long long)gettime(), (unsigned long long)get_n());
	return 0;
}
