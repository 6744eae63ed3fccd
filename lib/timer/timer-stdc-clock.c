/* timer-stdc-clock.c: ISO C's clock(), the processor time of the process. */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "internal.h"

/* Check that clock() answers; it returns -1 where it cannot. */
static int
stdc_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	if (clock() == (clock_t)-1) {
		snprintf(detail, len, "clock() returns -1");
		return BM_ENOTSUP;
	}
	snprintf(detail, len, "process CPU time (clock), %ld ticks per second",
	    (long)CLOCKS_PER_SEC);
	return 0;
}

/* Read clock() in nanoseconds. */
static uint64_t
stdc_now(void *priv)
{
	(void)priv;
	return (uint64_t)clock() * (1000000000u / CLOCKS_PER_SEC);
}

const bm__subtimer_ops bm__clock_stdc_clock = {
	"stdc-clock", BM_SUBTIMER_CLOCK, 0, "process CPU time (ISO C clock)",
	stdc_init, stdc_now, NULL, NULL, NULL
};
