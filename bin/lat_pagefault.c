/* lat_pagefault.c: the cost of faulting in a page of a file in the page cache, as lmbench's lat_pagefault. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "benchmp/figures.h"
#include "benchmp/worker.h"
#include "common/file.h"
#include "common/tool.h"

/* The largest file we map: 64 GB. */
#define PF_MAX_SIZE (1ull << 36)
/* Passes the parent makes to count the faults of one (--per-fault). */
#define PF_COUNT_PASSES 4
/* The warmup of the map and unmap alone, unless -W. */
#define PF_NEXT_WARMUP_US 10000
/*
 * The shortest interval for lmbench's definition, in us, whatever ENOUGH
 * says (benchmp-run exports the calibrated 100 us or so).
 * Passes back to back for milliseconds cost about three times what passes
 * in 100 us intervals cost, and lmbench's long intervals give the former
 * (doc/measurements.md, "lat_mmap and lat_pagefault: the interval").
 */
#define PF_ENOUGH_US 20000

/*
 * lmbench's definition (the default): one operation is a pass that maps
 * the whole file (rounded down to pages) read-only and shared, reads one
 * byte of every page in a random order and unmaps it; the map and unmap
 * alone are timed apart and taken off, and what is left is divided by the
 * pages.  Linux maps the neighbours of a faulting page that are in the
 * page cache ("fault-around", 16 pages by default), so a pass takes far
 * fewer faults than it touches pages and the figure per page is well
 * below what one fault costs.  --per-fault divides instead by the faults
 * the kernel counts for a pass (getrusage), in a stride order that
 * defeats readahead, with the map and unmap left in.
 */
struct pf_state {
	struct file_pages w;	/* w.size: the bytes mapped, whole pages */
	int per_fault;
};

/* Open the file (a copy with -C) and lay out the pass's page order. */
static int
pf_setup(struct pf_state *s, unsigned worker)
{
	size_t i, j, stride;
	int rc;

	if ((rc = file_pages_open(&s->w, O_RDONLY)) != 0)
		return rc;
	if ((s->w.order = file_page_order(s->w.npages, 1u + worker,
	    !s->per_fault)) == NULL)
		return -ENOMEM;
	if (s->per_fault) {
		/* A stride prime to the page count visits every page once. */
		for (stride = 17; s->w.npages % stride == 0; stride += 2)
			;
		if (stride >= s->w.npages)
			stride = 1;
		for (i = 0, j = 0; i < s->w.npages; i++) {
			s->w.order[i] = j;
			if ((j += stride) >= s->w.npages)
				j -= s->w.npages;
		}
	}
	return 0;
}

/* The worker's file. */
static int
pf_init(bm_iter_t n, void *cookie)
{
	struct pf_state *s = cookie;

	(void)n;
	return pf_setup(s, bm_worker_index(bm_state_current()));
}

/* n maps and unmaps alone: what a pass costs besides its faults. */
static int
pf_bench_map(bm_iter_t n, void *cookie)
{
	struct pf_state *s = cookie;
	void *m;

	while (n-- > 0) {
		m = mmap(NULL, (size_t)s->w.size, PROT_READ, MAP_SHARED,
		    s->w.fd, 0);
		if (m == MAP_FAILED)
			return -errno;
		munmap(m, (size_t)s->w.size);
	}
	return 0;
}

/* The faults of one pass, as the kernel counts them (--per-fault). */
static double
pf_count(struct tool *t, struct pf_state *s)
{
	struct pf_state probe = *s;
	struct rusage a, b;
	int i, rc;

	probe.w.dir = NULL;
	if ((rc = pf_setup(&probe, 0)) != 0 ||
	    (rc = file_pages_pass(&probe.w)) != 0) {
		(void)file_pages_cleanup(0, &probe);
		tool_exit_fail(t, "cannot map %s: %s", s->w.file,
		    strerror(-rc));
	}
	getrusage(RUSAGE_SELF, &a);
	for (i = 0; i < PF_COUNT_PASSES; i++)
		(void)file_pages_pass(&probe.w);
	getrusage(RUSAGE_SELF, &b);
	(void)file_pages_cleanup(0, &probe);
	return (double)(b.ru_minflt - a.ru_minflt + b.ru_majflt -
	    a.ru_majflt) / PF_COUNT_PASSES;
}

/* Check the file and size the pass: whole pages, at most PF_MAX_SIZE. */
static void
pf_size(struct tool *t, struct pf_state *s)
{
	uint64_t size;

	size = file_check(t, s->w.file, O_RDONLY, 0);
	if (size > PF_MAX_SIZE)
		size = PF_MAX_SIZE;
	s->w.pagesize = (size_t)sysconf(_SC_PAGESIZE);
	s->w.npages = (size_t)(size / s->w.pagesize);
	if (s->w.npages == 0)
		tool_exit_fail(t, "%s holds %ju bytes, less than a page (%zu)",
		    s->w.file, (uintmax_t)size, s->w.pagesize);
	s->w.size = (uint64_t)s->w.npages * s->w.pagesize;
	file_pass_bound(t, s->w.size);
}

/*
 * Time the map and unmap alone (b's first run, a part taken off the
 * passes after it, as benchmp-sched's parts= means one), with the short
 * warmup; the passes keep theirs.  Their median in ns.
 */
static double
pf_map_ns(struct tool *t, const bm_bench *b)
{
	bm_bench map = *b;
	bm_result rmap;
	uint64_t warmup_us = t->opts.warmup_us;
	double map_ns;

	tool_later_warmup(t, PF_NEXT_WARMUP_US);
	map.benchmark = pf_bench_map;
	tool_run(t, &map, &rmap);
	map_ns = rmap.per_op_ns.median;
	bm_result_free(&rmap);
	t->opts.warmup_us = warmup_us;
	return map_ns;
}

/*
 * Served, the map and unmap alone and the passes (b) as one group (in an A/B's
 * arm the library serves them one after another): each sweep visits
 * both, on one set of workers that maps the file once for the two, so
 * that the part taken off the passes is measured across the same stretch
 * of the run (lat_sig's parts, doc/measurements.md, section "2026-12-06,
 * from 10:45 UTC: a figure and its parts visited together").  The passes
 * into r, the part's median in *map_ns.
 */
static void
pf_measure_group(struct tool *t, const bm_bench *b, bm_result *r,
    double *map_ns)
{
	bm_bench g[2];
	/* Static, off a stack that a user may limit to 32 KB. */
	static bm_result gr[2];

	g[0] = *b;
	g[0].benchmark = pf_bench_map;
	g[1] = *b;
	tool_run_group(t, g, 2, gr);
	*map_ns = gr[0].per_op_ns.median;
	bm_result_free(&gr[0]);
	*r = gr[1];
}

/* Print the time per page (or per fault) of r, less map_ns per pass. */
static void
pf_report(struct tool *t, const struct pf_state *s, bm_result *r,
    double faults, double map_ns)
{
	bm_param params[4];
	bm_record rec;
	char line[700];
	double div;
	int rc;

	div = s->per_fault ? faults : (double)s->w.npages;
	params[0] = (bm_param){ .key = "file", .str = s->w.file };
	params[1] = (bm_param){ .key = "pages", .num = (double)s->w.npages };
	params[2] = s->per_fault ?
	    (bm_param){ .key = "faults_per_pass", .num = faults } :
	    (bm_param){ .key = "map_unmap_us", .num = map_ns / 1000 };
	if ((rc = bm_record_latency_per(&rec, t->name, s->per_fault ?
	    "per-fault" : "per-page", "us", r, div, map_ns)) != 0)
		tool_exit_lib(t, rc, "building the record");
	rec.params = params;
	rec.nparams = 2;
	/* The faults and the map+unmap cost are found, not asked for. */
	rec.measured = params + 2;
	rec.nmeasured = 1;
	snprintf(line, sizeof line, "Pagefaults on %s%s: ", s->w.file,
	    s->per_fault ? " (per fault)" : "");
	tool_report_value(t, &rec, line, 4, " microseconds");
}

/*
 * --served: lmbench's definition measures the map and unmap alone, a
 * part, then the passes; --per-fault the passes only.
 */
static unsigned
pf_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	const struct file_opts *o = cookie;

	(void)t;
	(void)ops;
	(void)nops;
	*parts = o->flag ? 0 : 1;
	return o->flag ? 1 : 2;
}

/* Time passes (and the map and unmap alone), print the time per page or fault. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_pagefault",
		.served_figures = pf_served_figures,
		.args = "[-C] [--per-fault] file",
		.extra_usage = "\n  -C           each worker maps its own copy "
		    "of "
		    "the file, made under $TMPDIR\n"
		    "  --per-fault  microseconds per page fault the kernel "
		    "counts, not per page\n               (not lmbench's "
		    "definition)\n"
	};
	struct pf_state s;
	struct file_opts o;
	bm_bench b;
	bm_result r;
	double faults = 0, map_ns = 0;
	int first;

	memset(&s, 0, sizeof s);
	first = file_parse(&t, argc, argv, "C", "per-fault", &o, 1,
	    "missing the file");
	s.w.file = argv[first];
	s.per_fault = o.flag;
	if (!s.per_fault)
		t.default_enough_us = PF_ENOUGH_US;
	tool_setup(&t);
	if (!s.per_fault)
		tool_min_enough(&t, PF_ENOUGH_US);
	pf_size(&t, &s);
	s.w.dir = file_clone_dir(&t, &o);
	if (s.per_fault && (faults = pf_count(&t, &s)) < 1)
		tool_exit_fail(&t, "a pass over %s took no page faults",
		    s.w.file);
	b.initialize = pf_init;
	b.benchmark = file_pages_run;
	b.cleanup = file_pages_cleanup;
	b.cookie = &s;
	if (!s.per_fault && tool_served_inside()) {
		pf_measure_group(&t, &b, &r, &map_ns);
	} else {
		if (!s.per_fault)
			map_ns = pf_map_ns(&t, &b);
		tool_run(&t, &b, &r);
	}
	/*
	 * The map and unmap were timed apart: on a loaded machine they can
	 * come out dearer than a whole pass.
	 */
	if (!s.per_fault && r.per_op_ns.median <= map_ns)
		tool_exit_fail(&t, "the map and unmap alone (%.2f us) took "
		    "as long as a pass (%.2f us): no figure",
		    map_ns / 1000, r.per_op_ns.median / 1000);
	pf_report(&t, &s, &r, faults, map_ns);
	bm_result_free(&r);
	return tool_finish(&t);
}
