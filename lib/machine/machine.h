/*
 * machine.h: what the machine does to a worker: its placement (sched.c),
 * its counters (events.c), interference (interfere.c), a CPU quota
 * (throttle.c), and the /proc and /sys files they read (procfs.c).
 */
#ifndef BM_MACHINE_MACHINE_H
#define BM_MACHINE_MACHINE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "benchmp.h"

/* Worker placement policy. */
enum bm__sched_kind {
	BM__SCHED_DEFAULT = 0,	/* leave placement to the kernel */
	BM__SCHED_SINGLE,	/* every worker on the first allowed CPU */
	BM__SCHED_UNIQUE,	/* worker i on the i-th allowed CPU, cycling */
	BM__SCHED_LIST		/* worker i on cpus[i % ncpus] */
};

#define BM__SCHED_MAX_CPUS 1024

typedef struct bm__sched {
	int kind;
	unsigned ncpus;
	unsigned short cpus[BM__SCHED_MAX_CPUS];
} bm__sched;

/*
 * A CPU list as the kernel writes it ("0-3,8", CPUs below
 * BM__SCHED_MAX_CPUS) into s->cpus and s->ncpus; 0 or BM_EPARSE.
 */
int bm__sched_list_parse(bm__sched *s, const char *list);
/* The longest list bm__sched_list_format writes, its NUL included. */
#define BM__SCHED_LIST_MAX (5 * BM__SCHED_MAX_CPUS + 1)
/* Write n CPUs as the kernel writes a list, a run as a range ("0-3,8"). */
void bm__sched_list_format(const unsigned short *cpus, unsigned n,
    char *buf, size_t size);
/* Parse a placement policy; detail says what was wrong. */
int bm__sched_parse(bm__sched *s, const char *policy, char *err,
    size_t errlen);
/*
 * Check that every CPU a list names is one this process may run on;
 * BM_ERANGE with the CPU named in err if not.
 */
int bm__sched_check(const bm__sched *s, char *err, size_t errlen);
/* Pin the calling worker according to the policy; 0 or -errno. */
int bm__sched_apply(const bm__sched *s, unsigned worker);

/* Requested perf events (events.c). */
typedef struct bm__events {
	size_t n;
	bm_event_info info[BM_MAX_EVENTS];
	uint32_t type[BM_MAX_EVENTS];	/* perf_event_attr type and config */
	uint64_t config[BM_MAX_EVENTS];
} bm__events;

/* Parse an event list into ev; err names a bad word. */
int bm__events_parse(bm__events *ev, const char *list, char *err,
    size_t errlen);
/* Try each event here and fill in its status and detail. */
void bm__events_probe(bm__events *ev);

/*
 * The counters of one worker: a perf_event group of the events that work,
 * and for each member the raw count and times of its last reading and the
 * count so far, each stretch between two readings scaled by its own share
 * of time running (events.c).
 */
typedef struct bm__counters {
	int leader;			/* -1: nothing is counted */
	int single;			/* one fd per event, read one by one */
	int fds[BM_MAX_EVENTS];
	size_t nopen;
	size_t slot[BM_MAX_EVENTS];	/* event i is the slot[i]-th member */
	uint64_t raw[BM_MAX_EVENTS];	/* by slot: count, time enabled */
	uint64_t enabled[BM_MAX_EVENTS];	/* and running at the last */
	uint64_t running[BM_MAX_EVENTS];	/* reading that ran */
	double scaled[BM_MAX_EVENTS];	/* by slot: the count so far */
} bm__counters;

/* Open the group in the calling process; 0 or -errno. */
int bm__counters_open(bm__counters *c, const bm__events *ev);
/*
 * Open the events one by one (not grouped: the kernel refuses group reads
 * of inherited counters) on another process, disabled until it calls
 * exec and inherited by its children; 0 or -errno.
 */
int bm__counters_open_task(bm__counters *c, const bm__events *ev, int pid);
/*
 * Read the group into v[i] for every requested event: the count since the
 * open, scaled for multiplexing, so that the difference of two readings is
 * the count between them; NAN where not counted (not supported, or not on
 * the PMU at all since the last reading that was); 0 or -errno.
 */
int bm__counters_read(bm__counters *c, const bm__events *ev, double *v);
/*
 * Take a group's reading as read(2) gives it (nr, time enabled, time
 * running, nr values) into v as bm__counters_read() does.
 */
void bm__counters_take(bm__counters *c, const bm__events *ev,
    const uint64_t *buf, double *v);
void bm__counters_close(bm__counters *c);

/*
 * Interference accounting (interfere.c): a worker's run-queue wait, CPU
 * time, involuntary switches and CPU, read outside its timed intervals.
 * An interval is disturbed when its time off the CPU (waiting on a run
 * queue, blocked, stopped, stolen) and its partners' run-queue wait
 * exceed what the benchmark's own rate explains by more than
 * BM__DISTURB_SHARE of the interval plus BM__DISTURB_SLACK of the
 * explained part, or when it moved to another CPU; see benchmp(3) for
 * how the numbers were chosen.
 */
#define BM__DISTURB_SHARE 0.002
#define BM__DISTURB_SLACK 0.25
#define BM__INTERFERE_PARTNERS 4

struct bm__interfere {
	int fd;				/* this thread's schedstat, or -1 */
	unsigned npartners;
	int partner_fd[BM__INTERFERE_PARTNERS];
};

struct bm__ireading {
	uint64_t wait_ns;		/* run-queue wait since it started */
	uint64_t partner_wait_ns;	/* the partners' */
	uint64_t cpu_ns;		/* the thread's CPU time */
	uint64_t ivcsw;			/* involuntary context switches */
	int cpu;			/* the CPU it ran on, or -1 */
};

/*
 * The benchmark's own time off the CPU per operation (a ping-pong waits
 * for every reply and every wakeup): the median of the last
 * BM__IBASE_RING full-length intervals of the warmup and the undisturbed
 * timed ones.
 */
#define BM__IBASE_RING 9
struct bm__ibase {
	unsigned count;
	unsigned next;
	double ring[BM__IBASE_RING];
};

/* What one interval met. */
struct bm__idelta {
	double wait_ns;
	double lost_ns;
	double ivcsw;
	int migrated;
	int disturbed;
};

int bm__interfere_open(struct bm__interfere *in);
int bm__interfere_watch(struct bm__interfere *in, long pid);
void bm__interfere_close(struct bm__interfere *in);
void bm__interfere_read(const struct bm__interfere *in,
    struct bm__ireading *r);
int bm__interfere_judge(struct bm__ibase *base, const struct bm__ireading *r0,
    const struct bm__ireading *r1, uint64_t elapsed_ns, uint64_t n, int full,
    int learn, struct bm__idelta *d);
int bm__interfere_steal(uint64_t *ns);

/*
 * /proc and /sys read under a root (procfs.c): "" for the machine's own, a
 * fake tree in tests, where a file may be anything; so a file is read
 * within bounds, and one beyond them is refused (-EFBIG), refused saying
 * which and why; after that nothing more is read under the root.
 */
#define BM__PROCFS_MAX 16777216		/* a file's bytes */
#define BM__PROCFS_MAX_LINE 1048576	/* a line's */
#define BM__PROCFS_MAX_VALUE 65536	/* what is read of a sysfs value */
struct bm__procfs {
	const char *root;
	char refused[PATH_MAX + 64];	/* "ROOT/PATH: why", or "" */
};
int bm__procfs_read(struct bm__procfs *p, const char *path, char **text);
int bm__procfs_line(struct bm__procfs *p, const char *path, char *buf,
    size_t size);
int bm__procfs_value(struct bm__procfs *p, const char *path, char *buf,
    size_t size);

/*
 * A CPU's times in /proc/stat, in ticks (interfere.c): steal, and busy
 * (user, nice, system, irq, softirq and steal); known 0 when its line is
 * not there.
 */
struct bm__cputime {
	int known;
	uint64_t steal;
	uint64_t busy;
};
/*
 * Read /proc/stat under p's root: all CPUs' line into *all (when not
 * NULL), CPU i's into per[i] for i < n; 0 or -errno.
 */
int bm__interfere_cputimes(struct bm__procfs *p, struct bm__cputime *all,
    struct bm__cputime *per, size_t n);
/* A schedstat file's run time and run-queue wait (ns); 0 or -errno. */
int bm__interfere_schedstat(struct bm__procfs *p, const char *path,
    uint64_t *run_ns, uint64_t *wait_ns);

/*
 * CPU quota throttling (throttle.c): the summed nr_throttled and throttled
 * time of the cpu.stat files from this process's cgroup up to its
 * hierarchy's root, and the tightest quota on that path, read under root
 * ("" for the machine's own /proc and /sys).
 */
struct bm__throttle {
	int known;
	uint64_t nr_throttled;
	uint64_t throttled_ns;
	double quota_cpus;
};
int bm__throttle_read(const char *root, struct bm__throttle *t);

/*
 * The two steps of bm__throttle_read, for a reader of the same cgroup at
 * two times or under two roots: the process's cgroup of the CPU
 * controller (bm__throttle_find: 0, -ENOENT when there is none, or as
 * bm__procfs_read), and its throttling then (bm__throttle_count: 0 or
 * -errno).
 */
struct bm__cgroup {
	int version;		/* 1 or 2 */
	size_t top;		/* dir's first top bytes: the hierarchy's mount */
	size_t quota_len;	/* dir's first quota_len: the tightest quota's */
	uint64_t quota_us;	/* 0: no quota on the way up */
	uint64_t period_us;
	char dir[PATH_MAX];	/* the process's cgroup, under the root */
};
int bm__throttle_find(struct bm__procfs *p, struct bm__cgroup *cg);
int bm__throttle_count(struct bm__procfs *p, const struct bm__cgroup *cg,
    struct bm__throttle *t);

#endif /* BM_MACHINE_MACHINE_H */
