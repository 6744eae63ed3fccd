/*
 * report_all.c: every lmbench reporting helper, as a benchmark uses
 * them.  First on intervals set by hand (settime(), set_n()), whose
 * lines are exact; then after a benchmp() of a 2 ms operation (a sleep)
 * copying 1 MB, whose lines must agree with each other: nano = 1000 x
 * micro, milli = whole milliseconds, kb = 1000 x mb (decimal units).
 */
#include "timing.h"

#define BYTES_PER_OP 1000000

/* One operation: sleep 2 ms (a fixed cost no machine makes shorter). */
static void
doit(iter_t iterations, void *cookie)
{
	struct timespec ts;

	(void)cookie;
	while (iterations-- > 0) {
		ts.tv_sec = 0;
		ts.tv_nsec = 2 * 1000 * 1000;
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			continue;
	}
}

/* Print every helper on the kept interval, n operations. */
static void
report(uint64 n)
{
	micro("op", n);
	milli("op", n);
	nano("op", n);
	mb(n * BYTES_PER_OP);
	kb(n * BYTES_PER_OP);
}

/* The helpers on fixed intervals, then on a measured one. */
int
main(void)
{
	/* 10 s for 4 operations: 2.5 s each; 10 MB in 10 s. */
	settime(10000000);
	set_n(4);
	report(get_n());
	/* 9999 us for 4: milli() prints whole ms, 9 / 4 = 2. */
	settime(9999);
	milli("short", 4);
	/* Under a millisecond per operation: milli() prints nothing. */
	milli("tiny", 10);
	/* A time of 0: nothing at all. */
	settime(0);
	report(4);
	/* stderr carries the helpers' lines; a marker keeps them apart. */
	fflush(stderr);
	fprintf(stderr, "--- measured\n");
	benchmp(NULL, doit, NULL, 20000, 1, 0, 3, NULL);
	if (gettime() == 0) {
		fprintf(stderr, "report_all: %s\n", bm_compat_errmsg());
		return 1;
	}
	report(get_n());
	return 0;
}
