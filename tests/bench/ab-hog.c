/* ab-hog.c: run a command beside a process that takes a share of memory bandwidth, for benchmp-ab's power benchmark. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The hog's buffer: past any last-level cache of these machines. */
#define HOG_BYTES	(256u << 20)
/* Its period: busy for DUTY of each, asleep for the rest. */
#define HOG_PERIOD_NS	1000000L

/* Nanoseconds on the monotonic clock. */
static long long
hog_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Read the buffer for duty of every period, on CPU cpu, until killed. */
static void __attribute__((noreturn))
hog_run(double duty, int cpu)
{
	volatile unsigned long *buf;
	unsigned long sum = 0;
	size_t n = HOG_BYTES / sizeof *buf, i = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)sched_setaffinity(0, sizeof set, &set);
	if ((buf = malloc(HOG_BYTES)) == NULL)
		_exit(1);
	memset((void *)buf, 1, HOG_BYTES);
	for (;;) {
		long long start = hog_now();
		struct timespec rest;

		while (hog_now() - start < (long long)(duty * HOG_PERIOD_NS)) {
			size_t k;

			/* One load a cache line, a block between clock reads. */
			for (k = 0; k < 4096; k++) {
				sum += buf[i];
				i = (i + 8) % n;
			}
		}
		rest.tv_sec = 0;
		rest.tv_nsec = HOG_PERIOD_NS - (long)(duty * HOG_PERIOD_NS);
		if (rest.tv_nsec > 0)
			nanosleep(&rest, NULL);
		__asm__ volatile("" : : "r"(sum));
	}
}

int
main(int argc, char **argv)
{
	double duty;
	pid_t hog = -1, cmd;
	int status, cpu;
	char *end;

	if (argc < 4) {
		fprintf(stderr, "usage: ab-hog DUTY CPU CMD [ARGS...]\n");
		return 2;
	}
	duty = strtod(argv[1], &end);
	if (*end != '\0' || !(duty >= 0 && duty <= 1)) {
		fprintf(stderr, "ab-hog: DUTY '%s' is not from 0 to 1\n",
		    argv[1]);
		return 2;
	}
	cpu = atoi(argv[2]);
	if (duty > 0 && (hog = fork()) == 0)
		hog_run(duty, cpu);
	if ((cmd = fork()) == 0) {
		execvp(argv[3], argv + 3);
		fprintf(stderr, "ab-hog: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	while (waitpid(cmd, &status, 0) < 0 && errno == EINTR)
		;
	if (hog > 0) {
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
