/*
 * lat_sig_interval.c: lmbench-style signal handler overhead, ported by
 * include, driving its own intervals with benchmp_getstate() and
 * benchmp_interval() as lmbench's lat_sig does: the body never returns.
 */
#include "timing.h"

static volatile sig_atomic_t caught;

/* The handler: count. */
static void
handler(int sig)
{
	(void)sig;
	caught++;
}

/* Install the handler (in each worker). */
static void
initialize(iter_t iterations, void *cookie)
{
	struct sigaction sa;

	if (iterations != 0)	/* once per worker, not per interval */
		return;
	(void)cookie;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		perror("lat_sig_interval: sigaction");
}

/* Send the signal to this process, interval after interval. */
static void
doit(iter_t iterations, void *cookie)
{
	void *state = benchmp_getstate();
	pid_t me = getpid();

	(void)cookie;
	for (;;) {
		while (iterations-- > 0)
			(void)kill(me, SIGUSR1);
		iterations = benchmp_interval(state);
	}
}

/* Measure and print as lat_sig catch does. */
int
main(void)
{
	benchmp(initialize, doit, NULL, 0, 1, 0, TRIES, NULL);
	if (gettime() == 0) {
		fprintf(stderr, "lat_sig_interval: %s\n", bm_compat_errmsg());
		return 1;
	}
	micro("Signal handler overhead", get_n());
	return 0;
}
