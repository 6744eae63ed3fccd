/* events.c: perf_event counters chosen by name, one group per worker. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef BM_HAVE_PERF_EVENT
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

#include "internal.h"

#ifndef BM_HAVE_PERF_EVENT
/* Without perf_event.h the types only need to be told apart. */
#define PERF_TYPE_HARDWARE 0
#define PERF_TYPE_SOFTWARE 1
#define PERF_TYPE_RAW 4
#endif

/* The events benchmp knows by name. */
static const struct events_name {
	const char *name;
	uint32_t type;
	uint64_t config;
} events_names[] = {
	{ "cycles", PERF_TYPE_HARDWARE, 0 },		/* CPU_CYCLES */
	{ "instructions", PERF_TYPE_HARDWARE, 1 },
	{ "cache-references", PERF_TYPE_HARDWARE, 2 },
	{ "cache-misses", PERF_TYPE_HARDWARE, 3 },
	{ "branch-misses", PERF_TYPE_HARDWARE, 5 },
	{ "task-clock", PERF_TYPE_SOFTWARE, 1 },
	{ "page-faults", PERF_TYPE_SOFTWARE, 2 },
	{ "context-switches", PERF_TYPE_SOFTWARE, 3 },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, 4 },
};
#define EVENTS_NNAMES (sizeof events_names / sizeof events_names[0])

/* Parse one name (len bytes) into slot i of ev. */
static int
events_word(bm__events *ev, const char *w, size_t len, char *err,
    size_t errlen)
{
	bm_event_info *info = &ev->info[ev->n];
	unsigned long long raw;
	char *end, hex[24];
	size_t k;

	if (len == 0 || len >= sizeof info->name) {
		snprintf(err, errlen, "bad event name '%.*s' in event list",
		    (int)(len > 40 ? 40 : len), w);
		return len == 0 ? BM_EPARSE : BM_ECONFIG;
	}
	for (k = 0; k < ev->n; k++) {
		if (strlen(ev->info[k].name) == len &&
		    strncmp(ev->info[k].name, w, len) == 0) {
			snprintf(err, errlen, "event '%.*s' listed twice",
			    (int)len, w);
			return BM_ECONFIG;
		}
	}
	if (ev->n == BM_MAX_EVENTS) {
		snprintf(err, errlen, "more than %d events", BM_MAX_EVENTS);
		return BM_ERANGE;
	}
	memcpy(info->name, w, len);
	info->name[len] = '\0';
	for (k = 0; k < EVENTS_NNAMES; k++) {
		if (strcmp(events_names[k].name, info->name) == 0) {
			ev->type[ev->n] = events_names[k].type;
			ev->config[ev->n] = events_names[k].config;
			ev->n++;
			return 0;
		}
	}
	/* rNNNN: a raw event code in hexadecimal, as perf(1) spells it. */
	if (w[0] == 'r' && len > 1 && len <= 17) {
		memcpy(hex, w + 1, len - 1);
		hex[len - 1] = '\0';
		errno = 0;
		raw = strtoull(hex, &end, 16);
		if (*end == '\0' && errno == 0 && strspn(hex,
		    "0123456789abcdefABCDEF") == len - 1) {
			ev->type[ev->n] = PERF_TYPE_RAW;
			ev->config[ev->n] = raw;
			ev->n++;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown event '%s' (expected cycles, "
	    "instructions, cache-references, cache-misses, branch-misses, "
	    "task-clock, page-faults, context-switches, cpu-migrations or "
	    "rNNNN)", info->name);
	memset(info, 0, sizeof *info);
	return BM_ECONFIG;
}

/* Parse a comma-separated event list; "" means none. */
int
bm__events_parse(bm__events *ev, const char *list, char *err, size_t errlen)
{
	bm__events n;
	const char *p = list, *comma;
	int rc;

	memset(&n, 0, sizeof n);
	while (p != NULL && *p != '\0') {
		comma = strchr(p, ',');
		if ((rc = events_word(&n, p, comma != NULL ? (size_t)(comma - p) :
		    strlen(p), err, errlen)) != 0)
			return rc;
		if (comma != NULL && comma[1] == '\0') {
			snprintf(err, errlen, "event list ends with a comma");
			return BM_EPARSE;
		}
		p = comma != NULL ? comma + 1 : NULL;
	}
	*ev = n;
	return 0;
}

#ifdef BM_HAVE_PERF_EVENT
/*
 * Open one counter of the calling process on any CPU, counting user space
 * only (what perf_event_paranoid 2 allows), as member of group (or its
 * leader when group is -1), read as a group with the times enabled and
 * running, for scaling when the kernel multiplexes counters.
 */
static int
events_open_on(const bm__events *ev, size_t i, int pid, int group,
    int task)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = ev->type[i];
	attr.config = ev->config[i];
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (task) {
		attr.disabled = 1;
		attr.enable_on_exec = 1;
		attr.inherit = 1;
	} else
		attr.read_format |= PERF_FORMAT_GROUP;
	fd = syscall(SYS_perf_event_open, &attr, pid, -1, group,
	    PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Open event i of the calling process alone. */
static int
events_open(const bm__events *ev, size_t i)
{
	return events_open_on(ev, i, 0, -1, 0);
}
#endif

/* Try each event alone and record whether this machine can count it. */
void
bm__events_probe(bm__events *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++) {
#ifdef BM_HAVE_PERF_EVENT
		int fd = events_open(ev, i);

		if (fd >= 0) {
			close(fd);
			ev->info[i].status = 0;
			ev->info[i].detail[0] = '\0';
			continue;
		}
		ev->info[i].status = BM_ENOTSUP;
		snprintf(ev->info[i].detail, sizeof ev->info[i].detail,
		    "not supported here (perf_event_open: %s)", strerror(-fd));
#else
		ev->info[i].status = BM_ENOTSUP;
		snprintf(ev->info[i].detail, sizeof ev->info[i].detail,
		    "not supported here (built without perf_event)");
#endif
	}
}

/*
 * Open the supported events: as one group in the calling process, or
 * (task) one by one on process pid, from its exec on, inherited.
 */
static int
events_open_all(bm__counters *c, const bm__events *ev, int pid, int task)
{
	size_t i;

	memset(c, 0, sizeof *c);
	c->leader = -1;
	c->single = task;
#ifdef BM_HAVE_PERF_EVENT
	for (i = 0; i < ev->n; i++) {
		int fd;

		if (ev->info[i].status != 0)
			continue;
		if ((fd = events_open_on(ev, i, pid, task ? -1 : c->leader,
		    task)) < 0) {
			bm__counters_close(c);
			return fd;
		}
		if (c->leader < 0)
			c->leader = fd;
		c->slot[i] = c->nopen;
		c->fds[c->nopen++] = fd;
	}
#else
	(void)ev;
	(void)i;
	(void)pid;
#endif
	return 0;
}

/* Open the supported events as one group in the calling process. */
int
bm__counters_open(bm__counters *c, const bm__events *ev)
{
	return events_open_all(c, ev, 0, 0);
}

/* Open the events one by one on another process, from its exec on. */
int
bm__counters_open_task(bm__counters *c, const bm__events *ev, int pid)
{
	return events_open_all(c, ev, pid, 1);
}

/*
 * Take member slot's new reading (its count, times enabled and running
 * since the open) and return its count so far, or NAN.  When the kernel
 * multiplexes more events than the PMU has counters, a member counts only
 * part of the time it is enabled, and its count is scaled up by enabled
 * over running.  Each stretch between two readings is scaled by its own
 * ratio: scaling each cumulative reading by its ratio since the open, as
 * perf stat does for a whole run, makes the difference of two readings
 * wrong, even negative, when the share of time running changed between
 * them.  A member enabled but never on the PMU since the last reading
 * counted nothing that can be scaled: its count is unknown (NAN, and the
 * next reading that ran scales the whole stretch since that one).
 */
static double
events_take(bm__counters *c, size_t slot, uint64_t count, uint64_t enabled,
    uint64_t running)
{
	uint64_t dc = count - c->raw[slot];
	uint64_t de = enabled - c->enabled[slot];
	uint64_t dr = running - c->running[slot];

	if (dr == 0 && de > 0)
		return NAN;
	c->scaled[slot] += dr > 0 && dr < de ?
	    (double)dc * (double)de / (double)dr : (double)dc;
	c->raw[slot] = count;
	c->enabled[slot] = enabled;
	c->running[slot] = running;
	return c->scaled[slot];
}

/* Read one counter opened alone: value, time enabled, time running. */
static int
events_read_single(bm__counters *c, size_t slot, double *v)
{
	uint64_t buf[3];

	if (read(c->fds[slot], buf, sizeof buf) != (ssize_t)sizeof buf)
		return -EIO;
	*v = events_take(c, slot, buf[0], buf[1], buf[2]);
	return 0;
}

/* Take a group's reading: nr, time enabled, time running, the values. */
void
bm__counters_take(bm__counters *c, const bm__events *ev, const uint64_t *buf,
    double *v)
{
	size_t i;

	for (i = 0; i < ev->n; i++) {
		if (ev->info[i].status == 0)
			v[i] = events_take(c, c->slot[i], buf[3 + c->slot[i]],
			    buf[1], buf[2]);
	}
}

/* Read the group; NAN for events that are not counted. */
int
bm__counters_read(bm__counters *c, const bm__events *ev, double *v)
{
	uint64_t buf[3 + BM_MAX_EVENTS];
	size_t i;
	ssize_t got;

	for (i = 0; i < BM_MAX_EVENTS; i++)
		v[i] = NAN;
	if (c->leader < 0)
		return 0;
	if (c->single) {
		for (i = 0; i < ev->n; i++) {
			if (ev->info[i].status == 0 &&
			    events_read_single(c, c->slot[i], &v[i]) != 0)
				return -EIO;
		}
		return 0;
	}
	got = read(c->leader, buf, (3 + c->nopen) * sizeof buf[0]);
	if (got != (ssize_t)((3 + c->nopen) * sizeof buf[0]))
		return got < 0 ? -errno : -EIO;
	bm__counters_take(c, ev, buf, v);
	return 0;
}

/* Close a worker's counters. */
void
bm__counters_close(bm__counters *c)
{
	size_t i;

	for (i = 0; i < c->nopen; i++)
		close(c->fds[i]);
	c->nopen = 0;
	c->leader = -1;
}
