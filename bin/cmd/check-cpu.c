/* check-cpu.c: benchmp check's usable CPUs, and their clock (governor, boost) and cores (SMT). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "check.h"

/* The longest per-CPU value shown (a governor's name, a 0 or a 1). */
#define CHECK_CPU_VALUE 128

/* The folder of the CPUs in sysfs. */
#define CHECK_CPU_DIR "/sys/devices/system/cpu"

/*
 * The usable CPUs: the process's affinity mask (Cpus_allowed_list), else
 * the CPUs online; none when neither can be read as a CPU list.
 */
void
check_cpu_usable(struct check *c)
{
	char list[BM__SCHED_LIST_MAX], *text;

	list[0] = '\0';
	if (bm__procfs_read(&c->fs, "/proc/self/status", &text) == 0) {
		(void)check_field(text, "Cpus_allowed_list:", list,
		    sizeof list);
		free(text);
	}
	if (list[0] == '\0')
		(void)check_rd(c, CHECK_CPU_DIR "/online", list, sizeof list);
	if (bm__sched_list_parse(&c->cpus, list) != 0)
		c->cpus.ncpus = 0;
	bm__sched_list_format(c->cpus.cpus, c->cpus.ncpus, c->cpuset,
	    sizeof c->cpuset);
	if (c->cpuset[0] == '\0')
		(void)snprintf(c->cpuset, sizeof c->cpuset, "?");
}

/*
 * The sysfs value cpuN/file of CPU cpu into buf (read as a sysfs value: a
 * short first line); 1 when it is not empty.
 */
static int
check_cpu_value(struct check *c, unsigned cpu, const char *file, char *buf,
    size_t size)
{
	char path[128];

	(void)snprintf(path, sizeof path, CHECK_CPU_DIR "/cpu%u/%s", cpu,
	    file);
	return bm__procfs_value(&c->fs, path, buf, size) == 0 &&
	    buf[0] != '\0';
}

/*
 * Append each distinct value of v (one a usable CPU, "" for none) and the
 * CPUs that have it to b: "performance on CPUs 0-3; powersave on CPUs 4".
 * v is emptied.
 */
static void
check_cpu_groups(struct check *c, char (*v)[CHECK_CPU_VALUE],
    struct bm__json *b)
{
	unsigned short grp[BM__SCHED_MAX_CPUS];
	char name[CHECK_CPU_VALUE], list[BM__SCHED_LIST_MAX];
	unsigned i, j, n;

	for (i = 0; i < c->cpus.ncpus; i++) {
		if (v[i][0] == '\0')
			continue;
		memcpy(name, v[i], sizeof name);
		for (j = i, n = 0; j < c->cpus.ncpus; j++) {
			if (strcmp(v[j], name) != 0)
				continue;
			grp[n++] = c->cpus.cpus[j];
			v[j][0] = '\0';
		}
		bm__sched_list_format(grp, n, list, sizeof list);
		bm__json_printf(b, "%s%s on CPUs %s", b->len > 0 ? "; " : "",
		    name, list);
	}
}

/* The frequency governor of each usable CPU. */
void
check_cpu_governor(struct check *c)
{
	struct bm__json b = { NULL, 0, 0, 0 };
	char (*v)[CHECK_CPU_VALUE], drv[CHECK_CPU_VALUE], path[128];
	unsigned i;
	int any = 0, other = 0;

	if ((v = calloc(c->cpus.ncpus + 1, sizeof(*v))) == NULL) {
		c->failed = 1;
		return;
	}
	for (i = 0; i < c->cpus.ncpus; i++) {
		if (!check_cpu_value(c, c->cpus.cpus[i],
		    "cpufreq/scaling_governor", v[i], sizeof v[i]))
			continue;
		any = 1;
		other |= strcmp(v[i], "performance") != 0;
	}
	if (!any) {
		check_emit(c, "governor", CHECK_UNKNOWN, "the clock's "
		    "frequency is not visible here (usual in a virtual "
		    "machine): figures may follow a frequency nobody reports",
		    "no cpufreq governor in sysfs for CPUs %s", c->cpuset);
		free(v);
		return;
	}
	(void)snprintf(path, sizeof path, CHECK_CPU_DIR
	    "/cpu%u/cpufreq/scaling_driver", c->cpus.cpus[0]);
	check_cpu_groups(c, v, &b);
	if (check_rd(c, path, drv, sizeof drv))
		bm__json_printf(&b, " (driver %s)", drv);
	c->failed |= b.err != 0;
	check_emit(c, "governor", other ? CHECK_WARN : CHECK_OK, other ? "set "
	    "the performance governor (cpupower frequency-set -g "
	    "performance): others change the clock with the load, so a figure "
	    "depends on what ran before it" : "none: the clock stays at its "
	    "highest", "%s", b.err ? "" : b.s);
	free(b.s);
	free(v);
}

/*
 * Turbo or boost: intel_pstate's no_turbo, else cpufreq's boost (global
 * or per policy).
 */
void
check_cpu_boost(struct check *c)
{
	static const char calm[] = "none: the clock does not depend on "
	    "temperature and the other cores' load";
	unsigned short on[BM__SCHED_MAX_CPUS];
	char v[CHECK_CPU_VALUE], list[BM__SCHED_LIST_MAX];
	unsigned i, non = 0;
	int all_on = 0, off = 0;

	if (check_rd(c, CHECK_CPU_DIR "/intel_pstate/no_turbo", v, sizeof v)) {
		if (strcmp(v, "1") == 0)
			check_emit(c, "boost", CHECK_OK, calm,
			    "turbo off (intel_pstate no_turbo 1)");
		else if (strcmp(v, "0") == 0)
			check_emit(c, "boost", CHECK_WARN, "echo 1 > "
			    CHECK_CPU_DIR "/intel_pstate/no_turbo: a turbo "
			    "clock follows the temperature and the other "
			    "cores' load", "turbo on (intel_pstate no_turbo 0)");
		else
			check_emit(c, "boost", CHECK_UNKNOWN, "read "
			    CHECK_CPU_DIR "/intel_pstate/no_turbo",
			    "intel_pstate no_turbo reads '%s'", v);
		return;
	}
	if (check_rd(c, CHECK_CPU_DIR "/cpufreq/boost", v, sizeof v)) {
		all_on = strcmp(v, "1") == 0;
		off = strcmp(v, "0") == 0;
	} else {
		for (i = 0; i < c->cpus.ncpus; i++) {
			if (!check_cpu_value(c, c->cpus.cpus[i],
			    "cpufreq/boost", v, sizeof v))
				continue;
			if (strcmp(v, "1") == 0)
				on[non++] = c->cpus.cpus[i];
			off |= strcmp(v, "0") == 0;
		}
	}
	bm__sched_list_format(on, non, list, sizeof list);
	if (all_on || non > 0)
		check_emit(c, "boost", CHECK_WARN, "echo 0 > " CHECK_CPU_DIR
		    "/cpufreq/boost (or each policy's boost): a boosted clock "
		    "follows the temperature and the other cores' load",
		    "boost on (%s%s, cpufreq boost 1)", all_on ? "all" :
		    "CPUs ", all_on ? "" : list);
	else if (off)
		check_emit(c, "boost", CHECK_OK, calm,
		    "boost off (cpufreq boost 0)");
	else
		check_emit(c, "boost", CHECK_UNKNOWN, "whether the clock "
		    "boosts is not visible here (usual in a virtual machine)",
		    "no intel_pstate no_turbo and no cpufreq boost in sysfs");
}

/*
 * The usable siblings of CPU cpu (its thread_siblings_list) into g, 1 in
 * *other when it has a sibling; their count (0 when the list is not one),
 * or -1 when there is none.
 */
static int
check_cpu_siblings(struct check *c, unsigned cpu, const char *usable,
    unsigned short *g, int *other)
{
	char v[BM__SCHED_LIST_MAX];
	bm__sched sib;
	unsigned k, n = 0;

	if (!check_cpu_value(c, cpu, "topology/thread_siblings_list", v,
	    sizeof v))
		return -1;
	if (bm__sched_list_parse(&sib, v) != 0)
		return 0;
	for (k = 0; k < sib.ncpus; k++) {
		*other |= sib.cpus[k] != cpu;
		if (usable[sib.cpus[k]])
			g[n++] = sib.cpus[k];
	}
	return (int)n;
}

/* SMT: usable CPUs that are threads of one core. */
void
check_cpu_smt(struct check *c)
{
	struct bm__json b = { NULL, 0, 0, 0 };
	unsigned short one[BM__SCHED_MAX_CPUS] = { 0 }, g[BM__SCHED_MAX_CPUS];
	char usable[BM__SCHED_MAX_CPUS], grouped[BM__SCHED_MAX_CPUS];
	char list[BM__SCHED_LIST_MAX], adv[BM__SCHED_LIST_MAX + 192];
	unsigned i, k, none = 0;
	int n, any = 0, other = 0;

	memset(usable, 0, sizeof usable);
	memset(grouped, 0, sizeof grouped);
	for (i = 0; i < c->cpus.ncpus; i++)
		usable[c->cpus.cpus[i]] = 1;
	for (i = 0; i < c->cpus.ncpus; i++) {
		n = check_cpu_siblings(c, c->cpus.cpus[i], usable, g, &other);
		any |= n >= 0;
		if (n <= 0 || grouped[g[0]])
			continue;
		for (k = 0; k < (unsigned)n; k++)
			grouped[g[k]] = 1;
		one[none++] = g[0];
		if (n == 1)
			continue;
		bm__sched_list_format(g, (unsigned)n, list, sizeof list);
		bm__json_printf(&b, "%s%s", b.len > 0 ? "; " : "", list);
	}
	c->failed |= b.err != 0;
	bm__sched_list_format(one, none, list, sizeof list);
	(void)snprintf(adv, sizeof adv, "two workers on threads of one core "
	    "share its units: use one thread per core (taskset -c %s) or turn "
	    "SMT off (echo off > " CHECK_CPU_DIR "/smt/control)", list);
	if (!any)
		check_emit(c, "smt", CHECK_UNKNOWN, "whether two usable CPUs "
		    "share a core is not visible here", "no "
		    "thread_siblings_list in sysfs for CPUs %s", c->cpuset);
	else if (b.len > 0 && b.err == 0)
		check_emit(c, "smt", CHECK_WARN, adv, "threads of one core "
		    "among the usable CPUs: %s", b.s);
	else
		check_emit(c, "smt", CHECK_OK, "none: no two usable CPUs "
		    "share a core", "%s", other ? "the SMT siblings of the "
		    "usable CPUs are outside the affinity mask" : "one thread "
		    "per core");
	free(b.s);
}
