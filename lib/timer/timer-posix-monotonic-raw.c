/* timer-posix-monotonic-raw.c: CLOCK_MONOTONIC_RAW, free of NTP slewing. */
#include "config.h"

#include "internal.h"

/* Check that CLOCK_MONOTONIC_RAW works here. */
static int
clock_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	return bm__posix_clock_init(CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW",
	    detail, len);
}

/* Read CLOCK_MONOTONIC_RAW in nanoseconds. */
static uint64_t
clock_now(void *priv)
{
	(void)priv;
	return bm__posix_clock_read(CLOCK_MONOTONIC_RAW);
}

const bm__subtimer_ops bm__clock_posix_monotonic_raw = {
	"posix-monotonic-raw", BM_SUBTIMER_CLOCK, 0,
	"elapsed time not slewed by NTP (CLOCK_MONOTONIC_RAW)",
	clock_init, clock_now, NULL, NULL, NULL
};
