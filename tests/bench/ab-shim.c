/* ab-shim.c: an LD_PRELOAD library adding a fixed, known cost to calls a tool times, for benchmp-ab's power benchmark. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * AB_SHIM_ITERS links of a dependent chain of multiplications run before
 * each call named in AB_SHIM_CALLS (getppid, write, memmove; default
 * getppid):
 * a fixed cost that no cache or predictor removes.  With AB_SHIM_ITERS=0
 * the shim still stands between the tool and the call, so an arm with 0
 * and an arm with k differ by the chain alone.  An lfence after the chain
 * (in both arms) holds the call until the chain is done: without it the
 * processor ran the chain beside the call, and the cost moved in steps
 * with the chain's length (13 links +1.8%, 15 links +1.5%, 20 links
 * +2.4% on lat_syscall null) where the fenced chain adds about 0.6% a
 * link (doc/measurements.md, "The shim's chain, fenced").  Written aN
 * (AB_SHIM_ITERS=a2), the chain is N dependent additions instead, a
 * cycle each, for a change finer than a multiplication's: on lat_syscall
 * null, one added 0.2-0.4%, two 0.7-1.1% and eight 3.3-3.5% on a 2-vCPU
 * Intel Xeon KVM guest (model 207), 2026-12-05, where one
 * multiplication's link added 0.2-0.5% and two 1.6%.
 */
static unsigned long shim_iters;
static unsigned long shim_adds;
static int shim_getppid = 1;
static int shim_write;
static int shim_memmove;
static void *(*shim_real_memmove)(void *, const void *, size_t);

/* Read the environment once, when the library is loaded. */
static void __attribute__((constructor))
shim_init(void)
{
	const char *s = getenv("AB_SHIM_ITERS"), *calls;

	if (s != NULL && s[0] == 'a')
		shim_adds = strtoul(s + 1, NULL, 10);
	else if (s != NULL)
		shim_iters = strtoul(s, NULL, 10);
	if ((calls = getenv("AB_SHIM_CALLS")) != NULL) {
		shim_getppid = strstr(calls, "getppid") != NULL;
		shim_write = strstr(calls, "write") != NULL;
		shim_memmove = strstr(calls, "memmove") != NULL;
	}
}

/* The chain: each multiplication waits for the one before. */
static void
shim_burn(void)
{
	unsigned long x = 3, i;

	for (i = 0; i < shim_iters; i++) {
		x = x * 2862933555777941757ul + 3037000493ul;
		__asm__ volatile("" : "+r"(x));
	}
	for (i = 0; i < shim_adds; i++) {
		x += 0x9e3779b97f4a7c15ul;
		__asm__ volatile("" : "+r"(x));
	}
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("lfence" : : "r"(x) : "memory");
#else
	__asm__ volatile("" : : "r"(x) : "memory");
#endif
}

pid_t
getppid(void)
{
	if (shim_getppid)
		shim_burn();
	return (pid_t)syscall(SYS_getppid);
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	if (shim_write)
		shim_burn();
	return syscall(SYS_write, fd, buf, len);
}

/*
 * bw_mem's bcopy copies with memmove: a chain before each copy is a known
 * cost on a bandwidth (a copy of several MB takes hundreds of
 * microseconds, so the chain runs to thousands of links).  The copy is
 * the C library's own memmove (its resolved variant), looked up at the
 * first call: a constructor that runs before the shim's may copy.
 */
void *
memmove(void *dst, const void *src, size_t len)
{
	if (shim_real_memmove == NULL) {
		shim_real_memmove = (void *(*)(void *, const void *, size_t))
		    dlsym(RTLD_NEXT, "memmove");
		if (shim_real_memmove == NULL)
			abort();
	}
	if (shim_memmove)
		shim_burn();
	return shim_real_memmove(dst, src, len);
}
