/* sched-mem.c: benchmp-sched's memory: the figures it keeps set up hold no more than --memory, the least recently visited let go first. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sched.h"

/* MemAvailable from /proc/meminfo, in kB, or 0 when it cannot be read. */
double
sched_mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	double kb = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	(void)fclose(f);
	return kb > 0 ? kb : 0;
}

/*
 * Make --pool's memory file of len bytes, every page allocated, sealed
 * at that size, its descriptor close-on-exec at 10 or above, where moving
 * a tool's pipes into place cannot close it; the descriptor, or -1 with
 * a message.
 */
static int
mem_pool_make(double mb, off_t len)
{
#ifdef HAVE_MEMFD_CREATE
	int fd, hi, err;

	if ((fd = memfd_create("benchmp-pool", MFD_CLOEXEC |
	    MFD_ALLOW_SEALING)) < 0) {
		sched_say("--pool: %s", strerror(errno));
		return -1;
	}
	/* Sealed at its size: what the tools take for a pool (mem.h). */
	if ((err = posix_fallocate(fd, 0, len)) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
	    F_SEAL_SEAL) != 0 || (hi = fcntl(fd, F_DUPFD_CLOEXEC, 10)) < 0) {
		sched_say("--pool %.0f MB: %s", mb,
		    strerror(err != 0 ? err : errno));
		(void)close(fd);
		return -1;
	}
	(void)close(fd);
	return hi;
#else
	(void)mb;
	(void)len;
	sched_say("--pool: not supported on this system (no memfd_create)");
	return -1;
#endif
}

/*
 * Set --pool's memory aside (benchmp-sched(1)), so that the bandwidth
 * buffers the tools map from it (BENCHMP_POOL) are not faulted afresh by
 * each figure: into s->pool_fd (-1 without one), the time it took into
 * s->pool_s and out of the budget (a second at least left).  A pool of
 * more than half the memory available is refused, as the machine would
 * reclaim the tools' own for it; without a pool each tool faults its own
 * buffers, as its records say.
 */
void
sched_mem_pool(struct sched *s)
{
	double t = sched_now(), avail_kb;
	off_t len = (off_t)(s->o.pool_mb * 1024 * 1024);

	s->pool_fd = -1;
	if (len <= 0)
		return;
	avail_kb = sched_mem_available_kb();
	if (s->o.pool_mb * 1024 > avail_kb / 2)
		sched_say("--pool %.0f MB: more than half the memory available "
		    "(%.0f MB)", s->o.pool_mb, avail_kb / 1024);
	else
		s->pool_fd = mem_pool_make(s->o.pool_mb, len);
	if (s->pool_fd < 0) {
		sched_say("warning: no pool: each figure's buffers are its own");
		return;
	}
	s->pool_s = sched_now() - t;
	if (s->o.budget - s->pool_s > 1)
		s->o.budget -= s->pool_s;
	else if (s->o.budget > 1)
		s->o.budget = 1;
}

/*
 * The resident memory of process group pgid (a tool, its workers and
 * their partners), in kB: the sum of its processes' RSS from
 * /proc/PID/stat.  0 when /proc cannot be read.
 */
static double
mem_group_kb(pid_t pgid)
{
	static long page_kb;
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[300], buf[1024], *rp;
	double kb = 0;

	if (d == NULL)
		return 0;
	if (page_kb == 0)
		page_kb = sysconf(_SC_PAGESIZE) / 1024;
	while ((de = readdir(d)) != NULL) {
		long pgrp, rss;
		FILE *f;
		size_t got;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		got = fread(buf, 1, sizeof(buf) - 1, f);
		(void)fclose(f);
		buf[got] = '\0';
		/* After the command's parenthesis: state ppid pgrp ..., rss 24th. */
		if ((rp = strrchr(buf, ')')) == NULL ||
		    sscanf(rp + 1, " %*s %*s %ld %*s %*s %*s %*s %*s %*s %*s "
		    "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %ld", &pgrp,
		    &rss) != 2 || pgrp != (long)pgid)
			continue;
		kb += (double)rss * (double)(page_kb > 0 ? page_kb : 4);
	}
	(void)closedir(d);
	return kb;
}

/* Let process p's workers go (it answers "released"); 0 or -1. */
static int
mem_release(struct sched *s, struct sched_proc *p)
{
	if (sched_proc_send(p, "release\n") != 0)
		return -1;
	p->state = SCHED_P_RELEASE;
	if (sched_wait(s, p, SCHED_P_RELEASE, SCHED_VISIT_S) != 0)
		return -1;
	p->held = 0;
	s->releases++;
	return 0;
}

/*
 * Before a visit of p: when the figures held set up and what p's visit
 * will set up again would pass --memory, let the others' workers go,
 * the least recently visited first (never those of p's own plan line:
 * an A/B's other arm).  Their next visit starts fresh workers.
 */
void
sched_mem_room(struct sched *s, struct sched_proc *p)
{
	double held = 0, need = p->held ? 0 : p->rss_kb;
	size_t i;

	if (s->o.memory_kb <= 0)
		return;
	for (i = 0; i < s->np; i++)
		if (&s->procs[i] != p && s->procs[i].held)
			held += s->procs[i].rss_kb;
	while (held + need > s->o.memory_kb && !s->caught) {
		struct sched_proc *old = NULL;

		for (i = 0; i < s->np; i++) {
			struct sched_proc *q = &s->procs[i];

			if (q == p || !q->held || q->state != SCHED_P_IDLE ||
			    q->line == p->line)
				continue;
			if (old == NULL || q->last_visit < old->last_visit)
				old = q;
		}
		if (old == NULL)
			return;
		held -= old->rss_kb;
		if (mem_release(s, old) != 0)
			old->held = 0;
	}
}

/*
 * After a visit of p: its workers are held; measured when they were set
 * up by this visit (its first, a fresh one, or after a release).
 */
void
sched_mem_note(struct sched *s, struct sched_proc *p)
{
	p->last_visit = sched_now();
	if (!p->held && s->o.memory_kb > 0)
		p->rss_kb = mem_group_kb(p->pid);
	p->held = 1;
}
