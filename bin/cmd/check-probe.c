/* check-probe.c: benchmp check's load, steal, the probe's busy loop and what it met, and the CPU quota. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "check.h"

/* A share of the busy time stolen, or of a probe waited, that warns. */
#define CHECK_PROBE_STEAL	0.01
#define CHECK_PROBE_WAIT	0.01
/* The least share of a probe a busy loop must run. */
#define CHECK_PROBE_RAN		0.9

/* The advice of a steal that is not known. */
static const char check_probe_watch[] = "watch the st column of top or "
    "vmstat during the runs";

/*
 * Read what the probe counts under p into s: the CPUs' times, the busy
 * loop's schedstat (this process's own), the uptime and the quota
 * cgroup's throttling.
 */
static void
check_probe_snap(struct check *c, struct bm__procfs *p, struct check_snap *s)
{
	char up[64], *end;

	s->uptime = -1;
	(void)bm__interfere_cputimes(p, NULL, s->cpu, BM__SCHED_MAX_CPUS);
	s->sched = bm__interfere_schedstat(p, "/proc/self/schedstat",
	    &s->run_ns, &s->wait_ns) == 0;
	if (bm__procfs_line(p, "/proc/uptime", up, sizeof up) == 0) {
		s->uptime = strtod(up, &end);
		if (end == up || s->uptime < 0)
			s->uptime = -1;
	}
	if (c->have_cg)
		(void)bm__throttle_count(p, &c->cg, &s->thr);
}

/*
 * Spin for secs seconds of the monotonic clock: the busy loop is this
 * process, and its run-queue wait and the CPU time it got are its own
 * schedstat's.  A clock that cannot be read ends it.
 */
static void
check_probe_spin(unsigned secs)
{
	uint64_t t0 = bm__deadline_now(), t;

	if (t0 == 0)
		return;
	do
		t = bm__deadline_now();
	while (t != 0 && t - t0 < (uint64_t)secs * 1000000000u);
}

/*
 * Find the quota cgroup, read the load (before the busy loop adds to
 * it), then the probe: its counters before and after secs seconds of a
 * busy loop, or, under --root, under the root and under ROOT/probe-end.
 */
void
check_probe_run(struct check *c)
{
	char *text;

	c->have_cg = bm__throttle_find(&c->fs, &c->cg) == 0;
	(void)check_rd(c, "/proc/loadavg", c->loadavg, sizeof c->loadavg);
	if (bm__procfs_read(&c->fs, "/proc/stat", &text) == 0) {
		(void)check_field(text, "procs_running", c->running,
		    sizeof c->running);
		free(text);
	}
	if (c->probe == 0)
		return;
	check_probe_snap(c, &c->fs, &c->before);
	if (!c->fake)
		check_probe_spin(c->probe);
	check_probe_snap(c, c->fake ? &c->end : &c->fs, &c->after);
	c->probed = 1;
}

/* The load average and the tasks runnable before the probe, besides the check. */
void
check_probe_load(struct check *c)
{
	static const char top[] = "check with top that nothing else runs";
	struct bm__json b = { NULL, 0, 0, 0 };
	char f[3][64];
	unsigned long run;
	int warn = 0;

	if (c->loadavg[0] == '\0' && c->running[0] == '\0') {
		check_emit(c, "load", CHECK_UNKNOWN, top,
		    "no /proc/loadavg and no procs_running in /proc/stat");
		return;
	}
	if (sscanf(c->loadavg, "%63s %63s %63s", f[0], f[1], f[2]) == 3 &&
	    strspn(f[0], "0123456789.") == strlen(f[0])) {
		bm__json_printf(&b, "load average %s %s %s (1, 5, 15 min)",
		    f[0], f[1], f[2]);
		warn = strtod(f[0], NULL) >= 1;
	}
	if (c->running[0] != '\0' &&
	    strspn(c->running, "0123456789") == strlen(c->running)) {
		run = strtoul(c->running, NULL, 10);
		run -= run > 0;
		bm__json_printf(&b, "%s%lu other task%s runnable now",
		    b.len > 0 ? "; " : "", run, run == 1 ? "" : "s");
		warn |= run >= 1;
	}
	c->failed |= b.err != 0;
	if (b.len == 0 || b.err != 0)
		check_emit(c, "load", CHECK_UNKNOWN, top,
		    "unreadable load figures");
	else
		check_emit(c, "load", warn ? CHECK_WARN : CHECK_OK, warn ?
		    "stop the other work or wait for it to end: a runnable "
		    "task takes CPU time from the benchmark's processes (a load "
		    "average of 1 is one CPU's worth)" : "none: keep the "
		    "machine quiet while it runs", "%s", b.s);
	free(b.s);
}

/*
 * The usable CPUs' steal and busy ticks from t0 to t1 (since boot when t0
 * is NULL) into *s and *b, and the CPU that lost the largest share of
 * its busy time into *wc, that share into *worst; the CPUs counted.
 */
static unsigned
check_probe_sum(const struct check *c, const struct bm__cputime *t0,
    const struct bm__cputime *t1, double *s, double *b, unsigned *wc,
    double *worst)
{
	static const struct bm__cputime boot = { 1, 0, 0 };
	const struct bm__cputime *z;
	double ds, db;
	unsigned i, cpu, n = 0;

	*s = *b = *worst = 0;
	*wc = 0;
	for (i = 0; i < c->cpus.ncpus; i++) {
		cpu = c->cpus.cpus[i];
		z = t0 != NULL ? &t0[cpu] : &boot;
		if (!z->known || !t1[cpu].known)
			continue;
		ds = (double)t1[cpu].steal - (double)z->steal;
		db = (double)t1[cpu].busy - (double)z->busy;
		*s += ds;
		*b += db;
		n++;
		if (db > 0 && ds / db > *worst) {
			*worst = ds / db;
			*wc = cpu;
		}
	}
	return n;
}

/* Steal since boot: the usable CPUs' steal against their busy time. */
void
check_probe_steal(struct check *c)
{
	double s, b, worst;
	unsigned wc;
	int warn;

	(void)bm__interfere_cputimes(&c->fs, NULL, c->boot,
	    BM__SCHED_MAX_CPUS);
	if (check_probe_sum(c, NULL, c->boot, &s, &b, &wc, &worst) == 0 ||
	    b <= 0) {
		check_emit(c, "steal", CHECK_UNKNOWN, check_probe_watch,
		    "no per-CPU steal column in /proc/stat");
		return;
	}
	warn = s / b >= CHECK_PROBE_STEAL;
	check_emit(c, "steal", warn ? CHECK_WARN : CHECK_OK, warn ? "the host "
	    "runs other guests on these CPUs: use a dedicated or larger "
	    "instance, and compare runs only on a quiet host" : "none: the "
	    "host took little from these CPUs", "hypervisor steal %.2f%% of "
	    "the busy time of CPUs %s since boot (%.0f of %.0f ticks)",
	    100 * s / b, c->cpuset, s, b);
}

/* The steal of the usable CPUs during the probe, of wall seconds. */
static void
check_probe_stolen(struct check *c, double wall)
{
	double s, b, worst;
	char most[64];
	unsigned wc;
	int warn;

	(void)check_probe_sum(c, c->before.cpu, c->after.cpu, &s, &b, &wc,
	    &worst);
	if (b <= 0) {
		check_emit(c, "probe-steal", CHECK_UNKNOWN, check_probe_watch,
		    "no per-CPU steal column in /proc/stat");
		return;
	}
	most[0] = '\0';
	if (s > 0 && worst > 0)
		(void)snprintf(most, sizeof most, " (CPU %u: %.2f%%)", wc,
		    100 * worst);
	warn = s / b >= CHECK_PROBE_STEAL;
	check_emit(c, "probe-steal", warn ? CHECK_WARN : CHECK_OK, warn ? "the "
	    "host gave these CPUs to other guests during the probe: figures "
	    "measured now lose time to it; wait for a quieter host or use a "
	    "dedicated instance" : "none: the host took little from these "
	    "CPUs during the probe", "hypervisor steal %.2f%% of the busy time "
	    "of CPUs %s during a %.2f s probe%s", 100 * s / b, c->cpuset, wall,
	    most);
}

/* The probe's rows: the steal during it, and the busy loop's run-queue wait and CPU time. */
void
check_probe_rows(struct check *c)
{
	static const char again[] = "run with --probe 1 to measure it";
	double wall, dr, dw;
	int warn;

	if (!c->probed) {
		check_emit(c, "probe-steal", CHECK_UNKNOWN, again,
		    "not measured (--probe 0)");
		check_emit(c, "runqueue", CHECK_UNKNOWN, again,
		    "not measured (--probe 0)");
		return;
	}
	wall = c->after.uptime - c->before.uptime;
	if (c->before.uptime < 0 || c->after.uptime < 0 || wall <= 0)
		wall = c->probe;
	check_probe_stolen(c, wall);
	dr = (double)c->after.run_ns - (double)c->before.run_ns;
	dw = (double)c->after.wait_ns - (double)c->before.wait_ns;
	if (!c->before.sched || !c->after.sched || dr < 0 || dw < 0)
		check_emit(c, "runqueue", CHECK_UNKNOWN, "/proc/PID/schedstat "
		    "needs a kernel with CONFIG_SCHEDSTATS or CONFIG_SCHED_INFO",
		    "no schedstat of the busy loop");
	else {
		warn = dw >= CHECK_PROBE_WAIT * wall * 1e9 ||
		    dr < CHECK_PROBE_RAN * wall * 1e9;
		check_emit(c, "runqueue", warn ? CHECK_WARN : CHECK_OK, warn ?
		    "other tasks, a CPU quota or the host took CPU time from a "
		    "busy process: stop the other work (top shows it) before "
		    "measuring" : "none: a busy process gets a whole CPU",
		    "a busy loop waited %.1f ms on a run queue and ran %.1f%% "
		    "of a %.2f s probe", dw / 1e6, 100 * dr / (wall * 1e9),
		    wall);
	}
}

/* The CPU quota of the process's cgroup and its ancestors, and its throttling. */
void
check_probe_quota(struct check *c)
{
	const struct bm__cgroup *cg = &c->cg;
	struct bm__throttle now;
	struct bm__json b = { NULL, 0, 0, 0 };
	const struct bm__throttle *t0 = &c->before.thr, *t1 = &c->after.thr;
	uint64_t dt = 0;
	int warn = 0;

	if (!c->have_cg) {
		check_emit(c, "cpu-quota", CHECK_UNKNOWN, "a CPU quota (a "
		    "container's --cpus) is not visible here", "no cgroup of "
		    "this process found (/proc/self/cgroup, "
		    "/proc/self/mountinfo)");
		return;
	}
	if (cg->quota_us == 0)
		bm__json_printf(&b, "no CPU quota (cgroup v%d %.*s)",
		    cg->version, (int)cg->quota_len, cg->dir);
	else
		bm__json_printf(&b, "a quota of %.2f CPU (%" PRIu64 " us every "
		    "%" PRIu64 " us, cgroup v%d %.*s) for %u usable CPU%s",
		    (double)cg->quota_us / (double)cg->period_us, cg->quota_us,
		    cg->period_us, cg->version, (int)cg->quota_len, cg->dir,
		    c->cpus.ncpus, c->cpus.ncpus == 1 ? "" : "s");
	warn = cg->quota_us > 0 && (double)cg->quota_us /
	    (double)cg->period_us < c->cpus.ncpus;
	if (bm__throttle_count(&c->fs, cg, &now) == 0 && now.known)
		bm__json_printf(&b, "; throttled %" PRIu64 " times",
		    now.nr_throttled);
	/* (Counts that went backwards were not the same cgroups'.) */
	if (c->probed && t0->known && t1->known &&
	    t1->nr_throttled >= t0->nr_throttled) {
		dt = t1->nr_throttled - t0->nr_throttled;
		bm__json_printf(&b, ", %" PRIu64 " during the probe", dt);
		warn |= dt > 0;
	}
	c->failed |= b.err != 0;
	check_emit(c, "cpu-quota", warn ? CHECK_WARN : CHECK_OK, warn ? "a "
	    "throttled process stops until the next period, so figures come "
	    "out too slow with a tight interval: run outside the quota or "
	    "raise it (cpu.max, cpu.cfs_quota_us, a container's --cpus)" :
	    "none: nothing throttles these CPUs", "%s", b.err ? "" : b.s);
	free(b.s);
}
