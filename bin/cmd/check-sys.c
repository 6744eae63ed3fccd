/* check-sys.c: benchmp check's settings: virtualisation, cpuidle, THP, ASLR, perf_event_paranoid, the clocksource. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "check.h"

/* The longest setting shown. */
#define CHECK_SYS_VALUE 512

/* The folders of the settings read. */
#define CHECK_SYS_IDLE "/sys/devices/system/cpu/cpuidle"
#define CHECK_SYS_THP "/sys/kernel/mm/transparent_hugepage/enabled"
#define CHECK_SYS_ASLR "/proc/sys/kernel/randomize_va_space"
#define CHECK_SYS_PERF "/proc/sys/kernel/perf_event_paranoid"
#define CHECK_SYS_CLOCK "/sys/devices/system/clocksource/clocksource0"

/* 1 when word is one of the space-separated words of the n bytes at s. */
static int
check_sys_word(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word), i;

	for (i = 0; i + w <= n; i++)
		if ((i == 0 || s[i - 1] == ' ') && strncmp(s + i, word, w) == 0 &&
		    (i + w == n || s[i + w] == ' '))
			return 1;
	return 0;
}

/*
 * The CPU flags line of /proc/cpuinfo ("flags : fpu ..."): 1 when there is
 * one, its hypervisor bit in *hv.
 */
static int
check_sys_flags(struct check *c, int *hv)
{
	char *text, *p;
	size_t n;
	int found = 0;

	*hv = 0;
	if (bm__procfs_read(&c->fs, "/proc/cpuinfo", &text) != 0)
		return 0;
	for (p = text; !found && *p != '\0'; p += n + (p[n] == '\n')) {
		n = strcspn(p, "\n");
		found = strncmp(p, "flags", 5) == 0 &&
		    p[5 + strspn(p + 5, " \t")] == ':';
		if (found)
			*hv = check_sys_word(p, n, "hypervisor");
	}
	free(text);
	return found;
}

/* Whether the DMI names a virtual machine. */
static int
check_sys_dmi_vm(const char *dmi)
{
	static const char *const vms[] = { "QEMU", "KVM", "VMware", "Xen",
	    "VirtualBox", "innotek", "Virtual Machine", "Bochs", "BHYVE",
	    "Parallels", "OpenStack", "Google Compute Engine" };
	size_t i;

	for (i = 0; i < sizeof vms / sizeof vms[0]; i++)
		if (strstr(dmi, vms[i]) != NULL)
			return 1;
	return 0;
}

/* Virtualisation: the CPU's hypervisor bit, else the DMI vendor and product. */
void
check_sys_virt(struct check *c)
{
	char v[CHECK_SYS_VALUE], p[CHECK_SYS_VALUE], dmi[2 * CHECK_SYS_VALUE + 2];
	int flags, hv, named = 0;

	flags = check_sys_flags(c, &hv);
	(void)check_rd(c, "/sys/class/dmi/id/sys_vendor", v, sizeof v);
	(void)check_rd(c, "/sys/class/dmi/id/product_name", p, sizeof p);
	(void)snprintf(dmi, sizeof dmi, "%s%s%s", v, v[0] && p[0] ? ", " : "",
	    p);
	if (!flags)
		named = check_sys_dmi_vm(dmi);
	if (hv || named)
		check_emit(c, "virtualisation", CHECK_INFO, "it shares its "
		    "host: read the steal and run-queue lines, and compare "
		    "figures only between runs on the same kind of instance",
		    "a virtual machine: %s%s%s%s", hv ? "the CPU's hypervisor "
		    "bit is set" : "the DMI names a virtual machine",
		    dmi[0] ? " (DMI: " : "", dmi, dmi[0] ? ")" : "");
	else if (flags)
		check_emit(c, "virtualisation", CHECK_OK, "none: bare metal",
		    "no hypervisor bit in the CPU flags%s%s%s",
		    dmi[0] ? " (DMI: " : "", dmi, dmi[0] ? ")" : "");
	else if (dmi[0] != '\0')
		check_emit(c, "virtualisation", CHECK_OK, "none: bare metal as "
		    "far as the DMI tells", "no CPU flags; no virtual machine "
		    "in the DMI (DMI: %s)", dmi);
	else
		check_emit(c, "virtualisation", CHECK_UNKNOWN, "whether this is "
		    "a virtual machine is not visible here (systemd-detect-virt "
		    "may tell)", "no CPU flags in /proc/cpuinfo and no DMI "
		    "vendor");
}

/* The cpuidle driver: haltpoll polls before idling. */
void
check_sys_cpuidle(struct check *c)
{
	char drv[CHECK_SYS_VALUE], gov[CHECK_SYS_VALUE];
	int halt;

	if (!check_rd(c, CHECK_SYS_IDLE "/current_driver", drv, sizeof drv)) {
		check_emit(c, "cpuidle", CHECK_UNKNOWN, "how idle CPUs wake is "
		    "not visible here", "no cpuidle driver in sysfs");
		return;
	}
	if (!check_rd(c, CHECK_SYS_IDLE "/current_governor_ro", gov,
	    sizeof gov))
		(void)check_rd(c, CHECK_SYS_IDLE "/current_governor", gov,
		    sizeof gov);
	halt = strcmp(drv, "haltpoll") == 0;
	check_emit(c, "cpuidle", halt ? CHECK_WARN : CHECK_OK, halt ? "an idle "
	    "vCPU polls for a while before it halts: wake-up latencies "
	    "(lat_pipe, lat_unix, lat_ctx) depend on the guest's and the "
	    "host's poll windows (/sys/module/haltpoll/parameters); compare "
	    "runs only with the same settings" : "none: wake-up latencies "
	    "include the idle states' exit, as on most machines",
	    "driver %s%s%s", drv, gov[0] ? ", governor " : "", gov);
}

/* Transparent huge pages: the mode in brackets. */
void
check_sys_thp(struct check *c)
{
	char v[CHECK_SYS_VALUE];
	const char *mode;

	if (!check_rd(c, CHECK_SYS_THP, v, sizeof v)) {
		check_emit(c, "thp", CHECK_UNKNOWN, "whether big buffers get "
		    "huge pages is not visible here", "no " CHECK_SYS_THP);
		return;
	}
	if (strstr(v, "[always]") != NULL)
		check_emit(c, "thp", CHECK_WARN, "big buffers get huge pages or "
		    "not by chance, so TLB and memory latency figures move "
		    "between runs: echo madvise > " CHECK_SYS_THP,
		    "transparent huge pages: always");
	else if (strstr(v, "[madvise]") != NULL || strstr(v, "[never]") != NULL) {
		mode = strchr(v, '[') + 1;
		check_emit(c, "thp", CHECK_OK, "none: buffers get small pages "
		    "unless a program asks", "transparent huge pages: %.*s",
		    (int)strcspn(mode, "]"), mode);
	} else
		check_emit(c, "thp", CHECK_UNKNOWN, "read " CHECK_SYS_THP,
		    "transparent_hugepage/enabled reads '%s'", v);
}

/* Address space layout randomisation. */
void
check_sys_aslr(struct check *c)
{
	char v[CHECK_SYS_VALUE];

	if (!check_rd(c, CHECK_SYS_ASLR, v, sizeof v))
		check_emit(c, "aslr", CHECK_UNKNOWN, "whether each process gets "
		    "a new layout is not visible here", "no " CHECK_SYS_ASLR);
	else if (strcmp(v, "2") == 0)
		check_emit(c, "aslr", CHECK_OK, "none: each fresh process gets "
		    "its own layout, and the rounds' spread includes it",
		    "full randomisation (randomize_va_space 2)");
	else if (strcmp(v, "1") == 0)
		check_emit(c, "aslr", CHECK_INFO, "the rounds sample fewer "
		    "layouts than with 2: echo 2 > " CHECK_SYS_ASLR, "partial "
		    "randomisation (randomize_va_space 1: the heap is not "
		    "moved)");
	else if (strcmp(v, "0") == 0)
		check_emit(c, "aslr", CHECK_WARN, "every process gets the same "
		    "layout, so the rounds of fresh processes sample one layout "
		    "and a figure may carry its luck: echo 2 > " CHECK_SYS_ASLR,
		    "no randomisation (randomize_va_space 0)");
	else
		check_emit(c, "aslr", CHECK_UNKNOWN, "read " CHECK_SYS_ASLR,
		    "randomize_va_space reads '%s'", v);
}

/* Whether bit is set in the hexadecimal mask hex (CapEff). */
static int
check_sys_cap(const char *hex, unsigned bit)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = strlen(hex);
	const char *d;

	if (bit / 4 >= n || (d = strchr(digits,
	    tolower((unsigned char)hex[n - 1 - bit / 4]))) == NULL)
		return 0;
	return ((d - digits) >> (bit % 4)) & 1;
}

/*
 * perf_event_paranoid, against this process's capabilities: CAP_SYS_ADMIN
 * (bit 21) or CAP_PERFMON (bit 38) in CapEff lifts it.
 */
void
check_sys_perf(struct check *c)
{
	char v[CHECK_SYS_VALUE], cap[64], *text;
	const char *by = NULL, *num;

	if (!check_rd(c, CHECK_SYS_PERF, v, sizeof v)) {
		check_emit(c, "perf-paranoid", CHECK_UNKNOWN, "hardware counters "
		    "(cycles per operation) may not be available", "no "
		    CHECK_SYS_PERF);
		return;
	}
	num = v + (v[0] == '-');
	if (num[0] == '\0' || strspn(num, "0123456789") != strlen(num) ||
	    strlen(num) > (v[0] == '-' ? 1u : 2u)) {
		check_emit(c, "perf-paranoid", CHECK_UNKNOWN, "read "
		    CHECK_SYS_PERF, "perf_event_paranoid reads '%s'", v);
		return;
	}
	if (bm__procfs_read(&c->fs, "/proc/self/status", &text) == 0) {
		if (check_field(text, "CapEff:", cap, sizeof cap))
			by = check_sys_cap(cap, 21) ? "CAP_SYS_ADMIN" :
			    check_sys_cap(cap, 38) ? "CAP_PERFMON" : NULL;
		free(text);
	}
	if (strtol(v, NULL, 10) <= 2)
		check_emit(c, "perf-paranoid", CHECK_OK, "none: a process may "
		    "count its own events (cycles per operation)",
		    "perf_event_paranoid %s", v);
	else if (by != NULL)
		check_emit(c, "perf-paranoid", CHECK_OK, "none: this process may "
		    "count its own events; other users may not",
		    "perf_event_paranoid %s, lifted by %s", v, by);
	else
		check_emit(c, "perf-paranoid", CHECK_WARN, "hardware counters "
		    "are refused, so no cycles per operation: sysctl "
		    "kernel.perf_event_paranoid=2", "perf_event_paranoid %s", v);
}

/*
 * The clocksource: the TSC (or arm64's counter) is read in user space in a
 * few ns; others cost a system call or a slow device.
 */
void
check_sys_clocksource(struct check *c)
{
	char cs[CHECK_SYS_VALUE], av[CHECK_SYS_VALUE], adv[CHECK_SYS_VALUE];

	if (!check_rd(c, CHECK_SYS_CLOCK "/current_clocksource", cs,
	    sizeof cs)) {
		check_emit(c, "clocksource", CHECK_UNKNOWN, "the cost of a clock "
		    "read is not visible here (timing_o measures it)",
		    "no current_clocksource in sysfs");
		return;
	}
	if (strcmp(cs, "tsc") == 0 || strcmp(cs, "arch_sys_counter") == 0) {
		check_emit(c, "clocksource", CHECK_OK, "none: the clock is read "
		    "in user space, cheaply", "%s", cs);
		return;
	}
	(void)check_rd(c, CHECK_SYS_CLOCK "/available_clocksource", av,
	    sizeof av);
	(void)snprintf(adv, sizeof adv, "a clock read costs more and varies "
	    "more, and short intervals carry it: %s",
	    check_sys_word(av, strlen(av), "tsc") ? "echo tsc > "
	    CHECK_SYS_CLOCK "/current_clocksource (it is available)" :
	    "the kernel found no usable TSC (see dmesg for 'clocksource')");
	check_emit(c, "clocksource", CHECK_WARN, adv, "%s%s%s%s", cs,
	    av[0] ? " (available: " : "", av, av[0] ? ")" : "");
}
