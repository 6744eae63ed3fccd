/* lat_getppid.c: lmbench-style system call latency, ported by include. */
#include "timing.h"

/* The benchmark body: iterations calls of getppid(). */
static void
do_getppid(iter_t iterations, void *cookie)
{
	(void)cookie;
	while (iterations-- > 0)
		(void)getppid();
}

/* Measure and print as lat_syscall null does. */
int
main(void)
{
	benchmp(NULL, do_getppid, NULL, 0, 1, 0, TRIES, NULL);
	if (gettime() == 0) {
		fprintf(stderr, "lat_getppid: %s\n", bm_compat_errmsg());
		return 1;
	}
	micro("Simple syscall", get_n());
	return 0;
}
