/* memsize.c: how much memory can be used, as lmbench's memsize, without risk. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem.h"

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
		    "physical memory); with MB, maps and\ntouches up to MB "
		    "(at most 90% of MemAvailable) and prints what it could "
		    "touch.\n"
	};
	bm_param params[3];
	bm_record rec;
	char line[64];
	uint64_t want = 0, avail, phys, cap, got;
	long psize;
	int first, probe = 0;

	first = tool_parse(&t, argc, argv, NULL, NULL, NULL);
	if (argc - first > 1)
		tool_usage_error(&t, "too many arguments");
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
		tool_fail(&t, "cannot tell the memory size");
	if (phys != 0 && avail > phys)
		avail = phys;
	if (probe) {
		cap = avail - avail * MEMSIZE_MARGIN_PCT / 100;
		psize = sysconf(_SC_PAGESIZE);
		got = memsize_probe(want < cap ? want : cap,
		    psize > 0 ? (size_t)psize : 4096);
	} else
		got = avail;

	params[0] = (bm_param){ "requested", NULL, (double)want };
	params[1] = (bm_param){ "available", NULL, (double)avail };
	params[2] = (bm_param){ "physical", NULL, (double)phys };
	memset(&rec, 0, sizeof rec);
	rec.tool = t.name;
	rec.case_name = probe ? "touched" : "available";
	rec.params = params;
	rec.nparams = 1;
	rec.measured = params + 1;
	rec.nmeasured = 2;
	rec.metric = "size";
	rec.unit = "MB";
	rec.better = BM_BETTER_NONE;
	rec.value = (double)got;
	snprintf(line, sizeof line, "%llu\n", (unsigned long long)got);
	mem_report_derived(&t, &rec, line);
	return tool_finish(&t);
}
