/* cycle-x86-rdtscp.c: the time stamp counter read with rdtscp and a fence. */
#include "config.h"

#include <cpuid.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Return 1 when the first "flags" line of /proc/cpuinfo holds both words.
 * A missing file or line is a no: the caller then says it cannot tell.
 */
static int
x86_cpuinfo_has(const char *a, const char *b)
{
	char *line = NULL, *w, *save;
	size_t cap = 0;
	int found = 0, seen_a = 0, seen_b = 0;
	FILE *f;

	if ((f = fopen("/proc/cpuinfo", "re")) == NULL)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		if (strncmp(line, "flags", 5) != 0 || strchr(line, ':') == NULL)
			continue;
		found = 1;
		for (w = strtok_r(strchr(line, ':') + 1, " \t\n", &save);
		    w != NULL; w = strtok_r(NULL, " \t\n", &save)) {
			seen_a |= strcmp(w, a) == 0;
			seen_b |= strcmp(w, b) == 0;
		}
	}
	free(line);
	fclose(f);
	return seen_a && seen_b;
}

/* Say whether the TSC ticks at a constant rate, and how that was found. */
int
bm__x86_tsc_constant(char *detail, size_t len)
{
	if (bm__x86_tsc_invariant()) {
		snprintf(detail, len, "invariant TSC (CPUID 0x80000007 EDX "
		    "bit 8)");
		return 1;
	}
	if (x86_cpuinfo_has("constant_tsc", "nonstop_tsc")) {
		snprintf(detail, len, "invariant TSC (constant_tsc and "
		    "nonstop_tsc in /proc/cpuinfo)");
		return 1;
	}
	snprintf(detail, len, "TSC not invariant (CPUID 0x80000007 EDX bit 8 "
	    "clear, no constant_tsc and nonstop_tsc in /proc/cpuinfo): cycles "
	    "are not converted to time");
	return 0;
}

/* Where the probe's SIGILL returns to: each thread's own. */
static _Thread_local sigjmp_buf rdtscp_probe_env;

/* SIGILL's handler while the probe runs: back to the probe. */
static void
rdtscp_probe_trap(int sig)
{
	(void)sig;
	siglongjmp(rdtscp_probe_env, 1);
}

/*
 * Run RDTSCP once with SIGILL caught: a CPU may report it in CPUID while
 * what executes the program does not decode it (valgrind on some AMD
 * CPUs).  Returns 1 when it ran, 0 when it trapped, -1 when SIGILL's
 * handler could not be set to try it.
 */
static int
rdtscp_runs(void)
{
	struct sigaction sa, old;
	uint32_t lo, hi, aux;
	volatile int ran = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rdtscp_probe_trap;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, &old) != 0)
		return -1;
	if (sigsetjmp(rdtscp_probe_env, 1) == 0) {
		__asm__ volatile("rdtscp"
		    : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
		ran = 1;
	}
	(void)sigaction(SIGILL, &old, NULL);
	return ran;
}

/*
 * Check for RDTSCP (CPUID 0x80000001 EDX bit 27), and that it executes
 * here.
 */
static int
rdtscp_init(void **priv, char *detail, size_t len)
{
	unsigned a, b, c, d;
	char why[160];

	*priv = NULL;
	if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !((d >> 27) & 1)) {
		snprintf(detail, len, "CPU lacks RDTSCP");
		return BM_ENOTSUP;
	}
	switch (rdtscp_runs()) {
	case 1:
		break;
	case 0:
		snprintf(detail, len, "RDTSCP is in CPUID but raised SIGILL "
		    "(an emulator that does not decode it)");
		return BM_ENOTSUP;
	default:
		snprintf(detail, len, "RDTSCP is in CPUID but could not be "
		    "tried (sigaction: %s)", strerror(errno));
		return BM_ENOTSUP;
	}
	snprintf(detail, len, "TSC reference cycles (rdtscp; lfence)%s",
	    bm__x86_tsc_constant(why, sizeof why) ? ", invariant" :
	    ", NOT invariant");
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
	rdtscp_init, rdtscp_now, NULL, NULL, bm__x86_tsc_constant
};
