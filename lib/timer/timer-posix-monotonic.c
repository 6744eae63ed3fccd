/* timer-posix-monotonic.c: the CLOCK_MONOTONIC clock, the default. */
#include "config.h"

#include "internal.h"

/* Check that CLOCK_MONOTONIC works here. */
static int
clock_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	return bm__posix_clock_init(CLOCK_MONOTONIC, "CLOCK_MONOTONIC", detail,
	    len);
}

/* Read CLOCK_MONOTONIC in nanoseconds. */
static uint64_t
clock_now(void *priv)
{
	(void)priv;
	return bm__posix_clock_read(CLOCK_MONOTONIC);
}

const bm__subtimer_ops bm__clock_posix_monotonic = {
	"posix-monotonic", BM_SUBTIMER_CLOCK, 0,
	"elapsed time (CLOCK_MONOTONIC)",
	clock_init, clock_now, NULL, NULL, NULL
};
