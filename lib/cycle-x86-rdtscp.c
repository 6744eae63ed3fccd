/* cycle-x86-rdtscp.c: the time stamp counter read with rdtscp and a fence. */
#include "config.h"

#include <cpuid.h>
#include <stdio.h>

#include "internal.h"

/* Report whether the TSC is invariant (ticks at a constant rate). */
int
bm__x86_tsc_invariant(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return 0;
	return (d >> 8) & 1;
}

/* Check for RDTSCP (CPUID 0x80000001 EDX bit 27). */
static int
rdtscp_init(void **priv, char *detail, size_t len)
{
	unsigned a, b, c, d;

	*priv = NULL;
	if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !((d >> 27) & 1)) {
		snprintf(detail, len, "CPU lacks RDTSCP");
		return BM_ENOTSUP;
	}
	snprintf(detail, len, "TSC reference cycles (rdtscp; lfence)%s",
	    bm__x86_tsc_invariant() ? ", invariant" : ", NOT invariant");
	return 0;
}

/*
 * Read the TSC.  rdtscp waits until every earlier instruction has executed
 * before it reads, so the region being timed cannot leak past the read;
 * the lfence after it keeps later instructions from starting before the
 * read, so they cannot leak into the region either.
 */
static uint64_t
rdtscp_now(void *priv)
{
	uint32_t lo, hi, aux;

	(void)priv;
	__asm__ volatile("rdtscp\n\tlfence"
	    : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

const bm__subtimer_ops bm__cycle_x86_rdtscp = {
	"x86-rdtscp", BM_SUBTIMER_CYCLE, 0,
	"TSC reference cycles (rdtscp, serialised)",
	rdtscp_init, rdtscp_now, NULL, NULL
};
