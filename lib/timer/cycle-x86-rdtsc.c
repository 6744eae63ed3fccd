/* cycle-x86-rdtsc.c: the time stamp counter read with rdtsc between fences. */
#include "config.h"

#include <cpuid.h>
#include <stdio.h>

#include "internal.h"

/* Check for the TSC (CPUID 1 EDX bit 4), present on every x86-64. */
static int
rdtsc_init(void **priv, char *detail, size_t len)
{
	unsigned a, b, c, d;
	char why[160];

	*priv = NULL;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !((d >> 4) & 1)) {
		snprintf(detail, len, "CPU lacks a time stamp counter");
		return BM_ENOTSUP;
	}
	snprintf(detail, len, "TSC reference cycles (lfence; rdtsc; lfence)%s",
	    bm__x86_tsc_constant(why, sizeof why) ? ", invariant" :
	    ", NOT invariant");
	return 0;
}

/*
 * Read the TSC where RDTSCP is missing (as in many virtual machines): the
 * first lfence lets earlier instructions finish before the read, the
 * second keeps later ones from starting before it, which serialises the
 * read as rdtscp plus lfence would.
 */
static uint64_t
rdtsc_now(void *priv)
{
	uint32_t lo, hi;

	(void)priv;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence"
	    : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

const bm__subtimer_ops bm__cycle_x86_rdtsc = {
	"x86-rdtsc", BM_SUBTIMER_CYCLE, 0,
	"TSC reference cycles (rdtsc between lfences)",
	rdtsc_init, rdtsc_now, NULL, NULL, bm__x86_tsc_constant
};
