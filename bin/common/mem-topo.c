/*
 * mem-topo.c: what the machine has for the memory tools: its caches, the
 * memory available, and the sizes and options derived from them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem.h"

#define MEM_SYSFS "/sys/devices/system/cpu/cpu0/cache"

/* Read a small sysfs file into buf; 0 on success. */
static int
mem_topo_read_file(const char *path, char *buf, size_t len)
{
	FILE *f;
	size_t got;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	got = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return got > 0 ? 0 : -1;
}

/* Parse a sysfs size such as "48K" or "1024K"; 0 if malformed. */
static size_t
mem_topo_parse_sysfs_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return (size_t)v;
}

/* Insert a level into the topology, keeping the levels ascending. */
static void
mem_topo_add(struct mem_topo *tp, unsigned level, size_t size, size_t line)
{
	unsigned i;

	if (size == 0 || tp->n >= MEM_MAX_LEVELS)
		return;
	for (i = 0; i < tp->n; i++) {
		if (tp->lv[i].level == level)
			return;
	}
	i = tp->n;
	while (i > 0 && tp->lv[i - 1].level > level) {
		tp->lv[i] = tp->lv[i - 1];
		i--;
	}
	tp->lv[i].level = level;
	tp->lv[i].size = size;
	tp->lv[i].line = line;
	tp->n++;
}

/* Read the data and unified caches of CPU 0 from sysfs under root. */
static void
mem_topo_sysfs(struct mem_topo *tp, const char *root)
{
	char path[4096], buf[64];
	unsigned idx, level;
	size_t size, line;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof path, "%s" MEM_SYSFS "/index%u/type", root,
		    idx);
		if (mem_topo_read_file(path, buf, sizeof buf) != 0)
			break;
		if (strcmp(buf, "Data") != 0 && strcmp(buf, "Unified") != 0)
			continue;
		snprintf(path, sizeof path, "%s" MEM_SYSFS "/index%u/level", root,
		    idx);
		if (mem_topo_read_file(path, buf, sizeof buf) != 0)
			continue;
		level = (unsigned)strtoul(buf, NULL, 10);
		snprintf(path, sizeof path, "%s" MEM_SYSFS "/index%u/size", root,
		    idx);
		if (mem_topo_read_file(path, buf, sizeof buf) != 0)
			continue;
		size = mem_topo_parse_sysfs_size(buf);
		snprintf(path, sizeof path,
		    "%s" MEM_SYSFS "/index%u/coherency_line_size", root, idx);
		line = 0;
		if (mem_topo_read_file(path, buf, sizeof buf) == 0)
			line = (size_t)strtoul(buf, NULL, 10);
		mem_topo_add(tp, level, size, line);
	}
	if (tp->n > 0)
		tp->source = "sysfs";
}

/* Read the caches from sysconf (glibc takes them from CPUID). */
static void
mem_topo_sysconf(struct mem_topo *tp)
{
#ifdef _SC_LEVEL1_DCACHE_SIZE
	static const int names[][2] = {
		{ _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE },
		{ _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE },
		{ _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE },
		{ _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_LINESIZE },
	};
	long size, line;
	unsigned i;

	for (i = 0; i < 4; i++) {
		size = sysconf(names[i][0]);
		line = sysconf(names[i][1]);
		if (size > 0)
			mem_topo_add(tp, i + 1, (size_t)size,
			    line > 0 ? (size_t)line : 0);
	}
	if (tp->n > 0)
		tp->source = "sysconf";
#else
	(void)tp;
#endif
}

/* Find the cache topology: sysfs, else sysconf, else a guess. */
void
mem_topo_detect(struct mem_topo *tp)
{
	mem_topo_detect_at(tp, "");
}

/*
 * Find the cache topology with sysfs under root ("" for the machine's;
 * the tests give a fake tree), else sysconf, else a guess.
 */
void
mem_topo_detect_at(struct mem_topo *tp, const char *root)
{
	long page;
	unsigned i;

	memset(tp, 0, sizeof *tp);
	mem_topo_sysfs(tp, root);
	if (tp->n == 0)
		mem_topo_sysconf(tp);
	if (tp->n == 0) {
		mem_topo_add(tp, 1, 32 << 10, 64);
		mem_topo_add(tp, 2, 1 << 20, 64);
		tp->source = "default";
	}
	page = sysconf(_SC_PAGESIZE);
	tp->page = page > 0 ? (size_t)page : 4096;
	tp->line = 0;
	for (i = 0; i < tp->n; i++) {
		if (tp->line == 0 && tp->lv[i].line >= sizeof(void *) &&
		    tp->lv[i].line <= tp->page)
			tp->line = tp->lv[i].line;
	}
	if (tp->line == 0)
		tp->line = 64;
	tp->l1d = tp->lv[0].size;
	tp->llc_reported = tp->lv[tp->n - 1].size;
	tp->llc_plausible = tp->llc_reported <= MEM_LLC_PLAUSIBLE;
	tp->llc = tp->llc_plausible ? tp->llc_reported : MEM_LLC_ASSUMED;
}

/* A size of mult times the last-level cache, within [min, max]. */
size_t
mem_topo_size(const struct mem_topo *tp, unsigned mult, size_t min,
    size_t max)
{
	size_t s = tp->llc * mult;

	if (s < min)
		s = min;
	if (s > max)
		s = max;
	return s;
}

/* The next size of a sweep: 512, 768, 1k, 1.5k, 2k, 3k, 4k, 6k... */
size_t
mem_topo_next_size(size_t size)
{
	size_t p = 1;

	while (p <= size / 2)
		p *= 2;
	return size == p ? p + p / 2 : 2 * p;
}

/* MemAvailable from /proc/meminfo in bytes, or 0 where it is unknown. */
static uint64_t
mem_topo_available(void)
{
	char line[256];
	unsigned long long kb = 0;
	int found = 0;
	FILE *f;

	if ((f = fopen("/proc/meminfo", "re")) == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
	fclose(f);
	return found && kb <= UINT64_MAX / 1024 ? (uint64_t)kb * 1024 : 0;
}

/*
 * Refuse (exit 1) a run whose processes together need more memory than
 * the machine has available (MemAvailable, which counts the page cache
 * the kernel can drop): nprocs workers of per bytes each, and nload load
 * processes of load_per bytes.  Each alone may fit, so the per-process
 * checks pass, and then the kernel's OOM killer ends the run half-way
 * (bw_mem -P 16 4g rd: "worker 1 killed by signal 9" after 49 s).
 */
void
mem_topo_fits(const struct tool *t, uint64_t per, unsigned nprocs,
    uint64_t load_per, unsigned nload)
{
	double need = (double)per * nprocs + (double)load_per * nload;
	uint64_t avail = mem_topo_available();

	if (avail == 0 || need <= (double)avail)
		return;
	if (nload > 0)
		tool_exit_fail(t,
		    "%u worker(s) of %.0f MB and %u load process(es) "
		    "of %.0f MB need %.0f MB; %.0f MB are available "
		    "(MemAvailable)", nprocs, (double)per / 1e6, nload,
		    (double)load_per / 1e6, need / 1e6, (double)avail / 1e6);
	tool_exit_fail(t, "%u worker(s) of %.0f MB need %.0f MB; %.0f MB are "
	    "available (MemAvailable)", nprocs, (double)per / 1e6, need / 1e6,
	    (double)avail / 1e6);
}

/*
 * Refuse a buffer that cannot be mapped (RLIMIT_AS, overcommit) before any
 * worker starts, and one per worker that the machine cannot hold.
 */
void
mem_topo_precheck(const struct tool *t, size_t len)
{
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		tool_exit_fail(t, "cannot allocate %.0f MB: %s",
		    (double)len / 1e6,
		    strerror(errno));
	munmap(p, len);
	mem_topo_fits(t, len, t->opts.parallel, 0, 0);
}
