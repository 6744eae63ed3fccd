/* interfere.c: what the machine did to a worker around its timed intervals. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/*
 * The reads below are made outside the timed region, before an interval's
 * clock starts and after it stops: /proc/thread-self/schedstat (its second
 * field is the nanoseconds this thread spent runnable on a run queue
 * without running), the thread's CPU time, its involuntary context
 * switches and its CPU.  Time neither spent running nor waiting on a run
 * queue is "lost": blocked in a system call (a partner's reply), stopped
 * (job control), or taken by the hypervisor (steal) or by interrupts.
 */

/* Open a schedstat file, or -1 when the kernel has none. */
static int
interfere_open_stat(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * A schedstat's text: the time run and the time waited on a run queue,
 * in ns, then the slices run; 0, or BM_EPARSE.
 */
static int
interfere_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns)
{
	unsigned long long run, wait;

	if (sscanf(text, "%llu %llu", &run, &wait) != 2)
		return BM_EPARSE;
	*run_ns = run;
	*wait_ns = wait;
	return 0;
}

/* The run-queue wait in a schedstat file already open, or 0. */
static uint64_t
interfere_wait(int fd)
{
	char buf[96];
	uint64_t run, wait;
	ssize_t got;

	if (fd < 0)
		return 0;
	got = pread(fd, buf, sizeof buf - 1, 0);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	if (interfere_parse(buf, &run, &wait) != 0)
		return 0;
	return wait;
}

/* Read the schedstat file path under p's root; 0, or -errno. */
int
bm__interfere_schedstat(struct bm__procfs *p, const char *path,
    uint64_t *run_ns, uint64_t *wait_ns)
{
	char line[128];
	int rc;

	if ((rc = bm__procfs_line(p, path, line, sizeof line)) != 0)
		return rc;
	return interfere_parse(line, run_ns, wait_ns);
}

/* Open this thread's accounting: 0, or -errno when there is none. */
int
bm__interfere_open(struct bm__interfere *in)
{
	memset(in, 0, sizeof(*in));
	in->fd = interfere_open_stat("/proc/thread-self/schedstat");
	if (in->fd < 0)
		in->fd = interfere_open_stat("/proc/self/schedstat");
	in->npartners = 0;
	return in->fd >= 0 ? 0 : -errno;
}

/* Watch another process's run-queue wait too (a benchmark's partner). */
int
bm__interfere_watch(struct bm__interfere *in, long pid)
{
	char path[64];
	int fd;

	if (in->npartners >= BM__INTERFERE_PARTNERS)
		return BM_ERANGE;
	(void)snprintf(path, sizeof path, "/proc/%ld/schedstat", pid);
	if ((fd = interfere_open_stat(path)) < 0)
		return -errno;
	in->partner_fd[in->npartners++] = fd;
	return 0;
}

/* Close what bm__interfere_open() and bm__interfere_watch() opened. */
void
bm__interfere_close(struct bm__interfere *in)
{
	unsigned i;

	if (in->fd >= 0)
		(void)close(in->fd);
	for (i = 0; i < in->npartners; i++)
		(void)close(in->partner_fd[i]);
	in->fd = -1;
	in->npartners = 0;
}

/* Take one reading; cheap (a pread, two system calls and a vDSO call). */
void
bm__interfere_read(const struct bm__interfere *in, struct bm__ireading *r)
{
	struct timespec ts;
	struct rusage ru;
	unsigned i;

	r->wait_ns = interfere_wait(in->fd);
	r->partner_wait_ns = 0;
	for (i = 0; i < in->npartners; i++)
		r->partner_wait_ns += interfere_wait(in->partner_fd[i]);
	r->cpu_ns = 0;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		r->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u +
		    (uint64_t)ts.tv_nsec;
	r->ivcsw = 0;
#ifdef RUSAGE_THREAD
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
#else
	if (getrusage(RUSAGE_SELF, &ru) == 0)
#endif
		r->ivcsw = (uint64_t)ru.ru_nivcsw;
#ifdef HAVE_SCHED_GETCPU
	r->cpu = sched_getcpu();
#else
	r->cpu = -1;
#endif
}

/* a - b, or 0 when a counter went backwards. */
static double
interfere_diff(uint64_t a, uint64_t b)
{
	return a > b ? (double)(a - b) : 0.0;
}

/* The median of the baseline's ring, 0 while it is empty. */
static double
interfere_base(const struct bm__ibase *b)
{
	double v[BM__IBASE_RING], x;
	unsigned i, j;

	for (i = 0; i < b->count; i++) {
		x = b->ring[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	if (b->count == 0)
		return 0;
	return b->count % 2 ? v[b->count / 2] :
	    (v[b->count / 2 - 1] + v[b->count / 2]) / 2;
}

/*
 * Judge one interval of elapsed_ns and n operations between readings r0
 * and r1: fill d and return 1 when it was disturbed.  The measure is the
 * time the worker spent off its CPU (elapsed less its CPU time: waiting
 * on a run queue, blocked, stopped, stolen) plus its partners' run-queue
 * wait.  What the benchmark itself makes the kernel do (a ping-pong
 * blocks for every reply and waits for every wakeup) is its baseline,
 * per operation (base: see struct bm__ibase).  A full-length interval is
 * disturbed when the measure exceeds the baseline's share by more than
 * BM__DISTURB_SHARE of the interval plus BM__DISTURB_SLACK of that share,
 * or when it moved to another CPU.  learn (the warmup) feeds every
 * full-length interval to the baseline; later, only undisturbed ones.
 */
int
bm__interfere_judge(struct bm__ibase *base, const struct bm__ireading *r0,
    const struct bm__ireading *r1, uint64_t elapsed_ns, uint64_t n,
    int full, int learn, struct bm__idelta *d)
{
	double wait, pwait, off, cpu, el = (double)elapsed_ns, dn = (double)n;
	double x, b;

	wait = interfere_diff(r1->wait_ns, r0->wait_ns);
	pwait = interfere_diff(r1->partner_wait_ns, r0->partner_wait_ns);
	cpu = interfere_diff(r1->cpu_ns, r0->cpu_ns);
	off = el > cpu ? el - cpu : 0;
	d->wait_ns = wait + pwait;
	d->lost_ns = off > wait ? off - wait : 0;
	d->ivcsw = interfere_diff(r1->ivcsw, r0->ivcsw);
	d->migrated = r0->cpu >= 0 && r1->cpu >= 0 && r0->cpu != r1->cpu;
	d->disturbed = 0;
	if (!full || n == 0)
		return 0;
	x = off + pwait;
	b = interfere_base(base) * dn;
	d->disturbed = d->migrated ||
	    x - b > BM__DISTURB_SHARE * el + BM__DISTURB_SLACK * b;
	if (learn || !d->disturbed) {
		base->ring[base->next] = x / dn;
		base->next = (base->next + 1) % BM__IBASE_RING;
		if (base->count < BM__IBASE_RING)
			base->count++;
	}
	return d->disturbed;
}

/*
 * One line of /proc/stat, "cpu" or "cpuN" and the ticks spent in user,
 * nice, system, idle, iowait, irq, softirq and steal (and more): its
 * steal and busy ticks into *t; 0, or BM_EPARSE.
 */
static int
interfere_cputime(const char *line, struct bm__cputime *t)
{
	unsigned long long v[8];

	if (sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu %llu",
	    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return BM_EPARSE;
	t->known = 1;
	t->steal = v[7];
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return 0;
}

/*
 * Read /proc/stat under p's root: the line of all CPUs into *all (when
 * not NULL) and CPU i's into per[i] for i < n (known 0 where there is
 * none); 0, or -errno when it cannot be read.
 */
int
bm__interfere_cputimes(struct bm__procfs *p, struct bm__cputime *all,
    struct bm__cputime *per, size_t n)
{
	char *text, *line, *next;
	unsigned long cpu;
	int rc;

	if (all != NULL)
		memset(all, 0, sizeof(*all));
	if (n > 0)
		memset(per, 0, n * sizeof(*per));
	if ((rc = bm__procfs_read(p, "/proc/stat", &text)) != 0)
		return rc;
	for (line = text; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			next++;
		if (strncmp(line, "cpu", 3) != 0)
			continue;
		if (line[3] == ' ' && all != NULL)
			(void)interfere_cputime(line, all);
		else if (sscanf(line + 3, "%lu", &cpu) == 1 && cpu < n &&
		    line[3] >= '0' && line[3] <= '9')
			(void)interfere_cputime(line, &per[cpu]);
	}
	free(text);
	return 0;
}

/*
 * The steal of every CPU since boot, from /proc/stat's "cpu" line, in ns:
 * 0 and *ns set, or -errno.
 */
int
bm__interfere_steal(uint64_t *ns)
{
	struct bm__procfs *p;
	struct bm__cputime all;
	long hz = sysconf(_SC_CLK_TCK);
	int rc;

	*ns = 0;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return -ENOMEM;
	p->root = "";
	rc = bm__interfere_cputimes(p, &all, NULL, 0);
	free(p);
	if (rc != 0)
		return rc;
	if (!all.known || hz <= 0)
		return BM_EPARSE;
	*ns = (uint64_t)((double)all.steal * (1000000000.0 / (double)hz));
	return 0;
}
