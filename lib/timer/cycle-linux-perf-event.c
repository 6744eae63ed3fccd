/* cycle-linux-perf-event.c: core cycles counted by perf_event_open(2). */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

/* The counter of this process. */
struct perf_cycles {
	int fd;
};

/*
 * Open a user-space core-cycle counter for the calling process on any CPU.
 * exclude_kernel keeps it usable at perf_event_paranoid 2.
 */
static int
perf_open(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Open the counter and check that it reads. */
static int
perf_init(void **priv, char *detail, size_t len)
{
	struct perf_cycles *p;
	uint64_t v;
	int fd;

	*priv = NULL;
	if ((fd = perf_open()) < 0) {
		snprintf(detail, len, "perf_event_open(cycles): %s",
		    strerror(-fd));
		return fd;
	}
	if (read(fd, &v, sizeof v) != (ssize_t)sizeof v) {
		snprintf(detail, len, "reading the cycle counter failed");
		close(fd);
		return BM_ENOTSUP;
	}
	if ((p = malloc(sizeof *p)) == NULL) {
		close(fd);
		return -ENOMEM;
	}
	p->fd = fd;
	*priv = p;
	snprintf(detail, len, "core cycles (perf_event_open, user space)");
	return 0;
}

/* Read the count; 0 if the read fails (never in practice). */
static uint64_t
perf_now(void *priv)
{
	struct perf_cycles *p = priv;
	uint64_t v;

	if (read(p->fd, &v, sizeof v) != (ssize_t)sizeof v)
		return 0;
	return v;
}

/* A counter belongs to the process that opened it: reopen after fork. */
static int
perf_after_fork(void *priv)
{
	struct perf_cycles *p = priv;
	int fd;

	if ((fd = perf_open()) < 0)
		return fd;
	close(p->fd);
	p->fd = fd;
	return 0;
}

/* Close the counter. */
static void
perf_fini(void *priv)
{
	struct perf_cycles *p = priv;

	if (p == NULL)
		return;
	close(p->fd);
	free(p);
}

const bm__subtimer_ops bm__cycle_linux_perf_event = {
	"linux-perf-event", BM_SUBTIMER_CYCLE, 0,
	"core cycles (perf_event_open)",
	perf_init, perf_now, perf_after_fork, perf_fini, NULL
};
