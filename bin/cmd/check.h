/* check.h: benchmp check, the conditions of the machine that distort figures (check.c and its parts). */
#ifndef BM_CHECK_H
#define BM_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "internal.h"

/* A check's status, in the words printed. */
enum check_status { CHECK_OK, CHECK_WARN, CHECK_INFO, CHECK_UNKNOWN };

/* The checks, one row each, in the order printed. */
#define CHECK_ROWS 14

/* One check's row: its name, status, what was found and the advice. */
struct check_row {
	const char *name;
	enum check_status status;
	char *found;
	char *advice;
};

/* What the probe reads before and after its busy loop. */
struct check_snap {
	struct bm__cputime cpu[BM__SCHED_MAX_CPUS];	/* in ticks */
	int sched;		/* run_ns and wait_ns were read */
	uint64_t run_ns;	/* the busy loop's schedstat */
	uint64_t wait_ns;
	double uptime;		/* /proc/uptime, or -1 */
	struct bm__throttle thr;	/* the quota cgroup's counts */
};

/* A check of the machine: its options, what it read and its rows. */
struct check {
	const char *prog;
	int json;
	unsigned probe;			/* the probe's seconds, 0 for none */
	int fake;			/* --root: a tree, not this machine */
	char root[PATH_MAX];		/* "" for the machine */
	char end_root[PATH_MAX + 16];	/* root/probe-end */
	struct bm__procfs fs;		/* files under root */
	struct bm__procfs end;		/* files at the probe's end */
	int failed;			/* out of memory */
	bm__sched cpus;			/* the usable CPUs */
	char cpuset[BM__SCHED_LIST_MAX];	/* as a list, or "?" */
	int have_cg;			/* cg is the process's cgroup */
	struct bm__cgroup cg;
	char loadavg[256];		/* read before the probe */
	char running[32];		/* /proc/stat's procs_running, or "" */
	int probed;			/* before and after were read */
	struct check_snap before;
	struct check_snap after;
	struct bm__cputime boot[BM__SCHED_MAX_CPUS];	/* since boot */
	struct check_row row[CHECK_ROWS];
	unsigned nrow;
};

/* Run benchmp check with its arguments; the exit status. */
int check_main(const char *prog, int argc, char **argv);
/* Print check's usage text to f. */
void check_usage(FILE *f, const char *prog);
/* Add a row: found from a format, advice as it is. */
void check_emit(struct check *c, const char *name, enum check_status st,
    const char *advice, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The first line of path into buf; 1 when it was read and is not empty. */
int check_rd(struct check *c, const char *path, char *buf, size_t size);
/* The value of key on the first line of text that starts with it, into buf. */
int check_field(const char *text, const char *key, char *buf, size_t size);

/* The usable CPUs (check-cpu.c), and the checks of their clock and cores. */
void check_cpu_usable(struct check *c);
void check_cpu_governor(struct check *c);
void check_cpu_boost(struct check *c);
void check_cpu_smt(struct check *c);

/* The probe (check-probe.c): the load before it, then its busy loop. */
void check_probe_run(struct check *c);
void check_probe_load(struct check *c);
void check_probe_steal(struct check *c);
void check_probe_rows(struct check *c);
void check_probe_quota(struct check *c);

/* The settings (check-sys.c). */
void check_sys_virt(struct check *c);
void check_sys_cpuidle(struct check *c);
void check_sys_thp(struct check *c);
void check_sys_aslr(struct check *c);
void check_sys_perf(struct check *c);
void check_sys_clocksource(struct check *c);

#endif /* BM_CHECK_H */
