/* memsize.c: how much memory can be used, as lmbench's memsize, without risk. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/mem.h"

/* Memory is mapped and touched in pieces of this many MB. */
#define MEMSIZE_CHUNK_MB 64
/* The probe leaves this share of MemAvailable untouched (percent). */
#define MEMSIZE_MARGIN_PCT 10
/* The largest probe accepted, in MB (1 PB). */
#define MEMSIZE_MAX_MB ((uint64_t)1 << 30)

/* MemAvailable from /proc/meminfo in MB, or 0 if unknown. */
static uint64_t
memsize_available(void)
{
	char line[256];
	unsigned long long kb;
	uint64_t mb = 0;
	FILE *f;

	if ((f = fopen("/proc/meminfo", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			mb = (uint64_t)(kb / 1024);
			break;
		}
	}
	fclose(f);
	return mb;
}

/* Physical memory in MB from sysconf, or 0 if unknown. */
static uint64_t
memsize_physical(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psize / (1024 * 1024);
}

/* A field of /proc/self/status ("VmSize:") in bytes, or 0 if unknown. */
static uint64_t
memsize_status(const char *field)
{
	char line[256];
	unsigned long long kb;
	size_t len = strlen(field);
	uint64_t bytes = 0;
	FILE *f;

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, field, len) == 0 &&
		    sscanf(line + len, "%llu kB", &kb) == 1) {
			bytes = (uint64_t)kb * 1024;
			break;
		}
	}
	fclose(f);
	return bytes;
}

/*
 * What this process may still map under its resource limits, in MB:
 * RLIMIT_AS less its address space (VmSize) and RLIMIT_DATA less its
 * data (VmData; private writable mappings count there).  UINT64_MAX when
 * neither is set.  Under "ulimit -v 20000" MemAvailable says gigabytes
 * while a mapping of 20 MB fails.
 */
static uint64_t
memsize_rlimit(void)
{
	static const struct { int res; const char *field; } lim[] = {
		{ RLIMIT_AS, "VmSize:" },
		{ RLIMIT_DATA, "VmData:" },
	};
	uint64_t mb = UINT64_MAX, used, left;
	struct rlimit rl;
	size_t i;

	for (i = 0; i < sizeof lim / sizeof lim[0]; i++) {
		if (getrlimit(lim[i].res, &rl) != 0 ||
		    rl.rlim_cur == RLIM_INFINITY)
			continue;
		used = memsize_status(lim[i].field);
		left = (uint64_t)rl.rlim_cur > used ?
		    ((uint64_t)rl.rlim_cur - used) >> 20 : 0;
		if (left < mb)
			mb = left;
	}
	return mb;
}

/* Map and touch up to mb MB in chunks; return the MB touched. */
static uint64_t
memsize_probe(uint64_t mb, size_t page)
{
	size_t chunk = (size_t)MEMSIZE_CHUNK_MB << 20, len, off;
	char **maps;
	uint64_t done = 0, nmaps, i;

	nmaps = (mb + MEMSIZE_CHUNK_MB - 1) / MEMSIZE_CHUNK_MB;
	if ((maps = calloc(nmaps, sizeof *maps)) == NULL)
		return 0;
	for (i = 0; i < nmaps; i++) {
		len = mb - done < MEMSIZE_CHUNK_MB ? (size_t)(mb - done) << 20 :
		    chunk;
		maps[i] = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (maps[i] == MAP_FAILED) {
			maps[i] = NULL;
			break;
		}
		for (off = 0; off < len; off += page)
			maps[i][off] = 1;
		done += len >> 20;
	}
	for (i = 0; i < nmaps; i++) {
		if (maps[i] != NULL)
			munmap(maps[i], i + 1 < nmaps ? chunk :
			    (size_t)(mb - i * MEMSIZE_CHUNK_MB) << 20);
	}
	free(maps);
	return done;
}

/* Print the usable memory in MB, probing up to MB when given. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "memsize",
		.args = "[MB]",
		.extra_usage = "\nWithout MB, prints MemAvailable (or the "
		    "physical memory), or less under a\nresource limit "
		    "(ulimit -v, -d); with MB, maps and touches up to MB (at "
		    "most 90%\nof that) and prints what it could touch.\n"
	};
	bm_param params[4];
	bm_record rec;
	uint64_t want = 0, avail, phys, cap, got, limit;
	long psize;
	int first, probe = 0;

	t.no_served = 1;
	first = tool_parse(&t, argc, argv, NULL, NULL, NULL, NULL);
	if (argc - first > 1)
		tool_exit_usage(&t, "too many arguments");
	if (argc - first == 1) {
		want = tool_uint(&t, "MB", argv[first], 1, MEMSIZE_MAX_MB);
		probe = 1;
	}
	tool_setup(&t);
	avail = memsize_available();
	phys = memsize_physical();
	if (avail == 0)
		avail = phys;
	if (avail == 0)
		tool_exit_fail(&t, "cannot tell the memory size");
	if (phys != 0 && avail > phys)
		avail = phys;
	if ((limit = memsize_rlimit()) < avail)
		avail = limit;
	if (probe) {
		cap = avail - avail * MEMSIZE_MARGIN_PCT / 100;
		psize = sysconf(_SC_PAGESIZE);
		got = memsize_probe(want < cap ? want : cap,
		    psize > 0 ? (size_t)psize : 4096);
	} else
		got = avail;

	params[0] = (bm_param){ .key = "requested", .num = (double)want };
	params[1] = (bm_param){ .key = "available", .num = (double)avail };
	params[2] = (bm_param){ .key = "physical", .num = (double)phys };
	params[3] = (bm_param){ .key = "rlimit",
	    .num = limit == UINT64_MAX ? -1 : (double)limit };
	tool_record_figure(&rec, &t, probe ? "touched" : "available", "size",
	    "MB", BM_BETTER_NONE, (double)got);
	rec.params = params;
	rec.nparams = 1;
	rec.measured = params + 1;
	rec.nmeasured = 3;
	mem_report_derived(&t, &rec, mem_report_line_whole, NULL);
	return tool_finish(&t);
}
