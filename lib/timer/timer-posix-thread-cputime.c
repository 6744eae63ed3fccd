/* timer-posix-thread-cputime.c: the calling thread's CPU-time clock. */
#include "config.h"

#include "internal.h"

/* Check that CLOCK_THREAD_CPUTIME_ID works here. */
static int
clock_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	return bm__posix_clock_init(CLOCK_THREAD_CPUTIME_ID,
	    "CLOCK_THREAD_CPUTIME_ID", detail, len);
}

/* Read CLOCK_THREAD_CPUTIME_ID in nanoseconds. */
static uint64_t
clock_now(void *priv)
{
	(void)priv;
	return bm__posix_clock_read(CLOCK_THREAD_CPUTIME_ID);
}

const bm__subtimer_ops bm__clock_posix_thread_cputime = {
	"posix-thread-cputime", BM_SUBTIMER_CLOCK, 0,
	"CPU time of the worker (CLOCK_THREAD_CPUTIME_ID)",
	clock_init, clock_now, NULL, NULL, NULL
};
