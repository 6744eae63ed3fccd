/*
 * lat_startstop.c: a benchmark that times itself with start(), stop()
 * and usecs_spent(), as lmbench's older benchmarks do: getppid() in
 * batches of 1000 until about 20 ms have passed, then once more timed
 * from an earlier begin (stop(&begin, &end)), then milli()/nano().
 */
#include "timing.h"

/* Print the syscall latency and check stop() with a begin. */
int
main(void)
{
	struct timeval begin, end;
	uint64 n = 0, us;
	int i;

	start(NULL);
	while (usecs_spent() < 20000) {
		for (i = 0; i < 1000; i++)
			(void)getppid();
		n += 1000;
	}
	us = stop(NULL, NULL);
	if (us == 0 || gettime() != us) {
		fprintf(stderr, "lat_startstop: stop() returned %llu, "
		    "gettime() %llu\n", (unsigned long long)us,
		    (unsigned long long)gettime());
		return 1;
	}
	save_n(n);
	micro("Simple syscall", get_n());
	/* begin taken 10 ms before start(): stop() counts from begin. */
	(void)gettimeofday(&begin, NULL);
	usleep(10000);
	start(NULL);
	usleep(5000);
	us = stop(&begin, &end);
	printf("start/stop from begin: %llu microseconds\n",
	    (unsigned long long)us);
	milli("sleep 10+5 ms", 1);
	return 0;
}
