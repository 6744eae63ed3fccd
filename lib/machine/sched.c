/* sched.c: where worker processes run (lmbench's LMBENCH_SCHED). */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* Parse one CPU number of a list; return a pointer past it or NULL. */
static const char *
sched_cpu(const char *p, unsigned *cpu)
{
	unsigned long v;
	char *end;

	if (*p < '0' || *p > '9')
		return NULL;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno != 0 || v >= BM__SCHED_MAX_CPUS)
		return NULL;
	*cpu = (unsigned)v;
	return end;
}

/* Parse a CPU list such as "0,2-3" into s->cpus; 0 or BM_EPARSE. */
int
bm__sched_list_parse(bm__sched *s, const char *list)
{
	const char *p = list;
	unsigned lo, hi, c;

	s->ncpus = 0;
	for (;;) {
		if ((p = sched_cpu(p, &lo)) == NULL)
			return BM_EPARSE;
		hi = lo;
		if (*p == '-' && (p = sched_cpu(p + 1, &hi)) == NULL)
			return BM_EPARSE;
		if (hi < lo)
			return BM_EPARSE;
		for (c = lo; c <= hi; c++) {
			if (s->ncpus == BM__SCHED_MAX_CPUS)
				return BM_EPARSE;
			s->cpus[s->ncpus++] = (unsigned short)c;
		}
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return BM_EPARSE;
	}
}

/*
 * Write n CPUs into buf as the kernel writes a list: a run of consecutive
 * CPUs as a range, "0-3,8" (cut to size - 1 bytes).
 */
void
bm__sched_list_format(const unsigned short *cpus, unsigned n, char *buf,
    size_t size)
{
	size_t len = 0;
	unsigned i, j;
	int w;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < n && len < size; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		w = j > i ? snprintf(buf + len, size - len, "%s%u-%u",
		    i > 0 ? "," : "", cpus[i], cpus[j]) :
		    snprintf(buf + len, size - len, "%s%u", i > 0 ? "," : "",
		    cpus[i]);
		len += w > 0 ? (size_t)w : 0;
	}
}

/* Parse a CPU list such as "0,2-3" into s->cpus, saying in err what was wrong. */
static int
sched_parse_list(bm__sched *s, const char *list, char *err, size_t errlen)
{
	if (bm__sched_list_parse(s, list) == 0)
		return 0;
	snprintf(err, errlen, "bad CPU list '%s' (expected numbers below %d "
	    "and ranges, e.g. 0,2-3)", list, BM__SCHED_MAX_CPUS);
	return BM_EPARSE;
}

/*
 * Parse a placement policy: default, single, unique or list:CPUS, in
 * either case, plus lmbench's spelling "custom CPUS".
 */
int
bm__sched_parse(bm__sched *s, const char *policy, char *err, size_t errlen)
{
	bm__sched n;
	int rc;

	memset(&n, 0, sizeof n);
	if (policy == NULL || *policy == '\0' ||
	    strcasecmp(policy, "default") == 0)
		n.kind = BM__SCHED_DEFAULT;
	else if (strcasecmp(policy, "single") == 0)
		n.kind = BM__SCHED_SINGLE;
	else if (strcasecmp(policy, "unique") == 0)
		n.kind = BM__SCHED_UNIQUE;
	else if (strncasecmp(policy, "list:", 5) == 0 ||
	    strncasecmp(policy, "custom ", 7) == 0) {
		n.kind = BM__SCHED_LIST;
		rc = sched_parse_list(&n, policy + (policy[0] == 'l' ||
		    policy[0] == 'L' ? 5 : 7), err, errlen);
		if (rc != 0)
			return rc;
	} else {
		snprintf(err, errlen, "unknown placement policy '%s' (expected "
		    "default, single, unique or list:CPUS)", policy);
		return BM_ECONFIG;
	}
	*s = n;
	return 0;
}

/* Check a list's CPUs against the ones this process may run on. */
int
bm__sched_check(const bm__sched *s, char *err, size_t errlen)
{
	cpu_set_t allowed;
	unsigned i;
	int c, first = -1, last = -1;

	if (s->kind != BM__SCHED_LIST)
		return 0;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
		snprintf(err, errlen, "cannot read the CPUs this process may "
		    "use: %s", strerror(errno));
		return -errno;
	}
	for (i = 0; i < s->ncpus; i++) {
		if (s->cpus[i] < CPU_SETSIZE && CPU_ISSET(s->cpus[i], &allowed))
			continue;
		for (c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &allowed))
				continue;
			if (first < 0)
				first = c;
			last = c;
		}
		snprintf(err, errlen, "CPU %u is not among the %d this "
		    "process may run on (numbered %d to %d)", s->cpus[i],
		    CPU_COUNT(&allowed), first, last);
		return BM_ERANGE;
	}
	return 0;
}

/* Return the index-th CPU the process may run on, or -1. */
static int
sched_nth_allowed(const cpu_set_t *allowed, unsigned index)
{
	unsigned count = (unsigned)CPU_COUNT(allowed), seen = 0;
	int c;

	if (count == 0)
		return -1;
	index %= count;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, allowed) && seen++ == index)
			return c;
	}
	return -1;
}

/* Pin the calling worker according to the policy; 0 or -errno. */
int
bm__sched_apply(const bm__sched *s, unsigned worker)
{
	cpu_set_t allowed, set;
	int cpu;

	if (s->kind == BM__SCHED_DEFAULT)
		return 0;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		return -errno;
	switch (s->kind) {
	case BM__SCHED_SINGLE:
		cpu = sched_nth_allowed(&allowed, 0);
		break;
	case BM__SCHED_UNIQUE:
		cpu = sched_nth_allowed(&allowed, worker);
		break;
	default:
		if (s->ncpus == 0)
			return -EINVAL;
		cpu = s->cpus[worker % s->ncpus];
		if (!CPU_ISSET(cpu, &allowed))
			return -EINVAL;
		break;
	}
	if (cpu < 0)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return -errno;
	return 0;
}
