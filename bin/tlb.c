/* tlb.c: the reach of the data TLB and the cost of missing it, as lmbench's tlb. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"
#include "common/progress.h"

/* The fewest and most pages a sweep visits. */
#define TLB_MIN_PAGES 8
#define TLB_MAX_PAGES ((size_t)1 << 20)
/* A point is past the TLB when a load costs this much more than the cache alone. */
#define TLB_JUMP_RATIO 1.25
#define TLB_JUMP_NS 0.5

/*
 * The time of one load of a random chase over npages pages, one line
 * in each (pages == 1), or over as many lines packed into as few pages
 * as they fill (pages == 0): the same lines in the cache, the TLB
 * missed only in the first.  The chased line moves by one line from
 * page to page, so the lines spread over the cache's sets.
 */
static double
tlb_point(struct tool *t, size_t npages, size_t page, size_t line,
    int spread)
{
	struct mem_chase c;

	memset(&c, 0, sizeof c);
	c.stride = spread ? page : line;
	c.size = npages * c.stride;
	c.page = c.stride;
	c.offset_step = spread ? line : 0;
	c.order = MEM_ORDER_RANDOM;
	c.pages = -1;
	c.k = 1;
	return mem_chase_latency(t, &c);
}

/*
 * Visit more and more pages up to maxpages; the reach (the last point
 * before the jump) and, in *cost, the cost of a miss.  A jump counts when
 * the next point is past the reach too: one point slowed by another
 * process is noise, not the TLB.
 */
static size_t
tlb_sweep(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, size_t maxpages, double *cost)
{
	double spread, packed, base = 0;
	size_t n, reach = 0, npoints = 0, point = 0;
	struct progress prog;
	char sz[32];

	*cost = 0;
	progress_start(&prog, t);
	for (n = TLB_MIN_PAGES; n <= maxpages; n = mem_next_size(n))
		npoints++;
	for (n = TLB_MIN_PAGES; n <= maxpages; n = mem_next_size(n)) {
		/* The sweep stops at the jump: "of at most". */
		progress_show(&prog, "%zu pages, %s (%zu of at most %zu)", n,
		    progress_size(sz, sizeof sz, (double)n * tp->page),
		    ++point, npoints);
		spread = tlb_point(t, n, tp->page, (size_t)o->line, 1);
		packed = tlb_point(t, n, tp->page, (size_t)o->line, 0);
		if (n == TLB_MIN_PAGES)
			base = spread - packed;
		if (spread - packed > base + TLB_JUMP_NS &&
		    spread > TLB_JUMP_RATIO * (packed + (base > 0 ? base : 0))) {
			if (*cost > 0)
				break;
			*cost = spread - packed;
			continue;
		}
		*cost = 0;
		reach = n;
	}
	progress_clear(&prog);
	if (n > maxpages)
		tool_fail(t, "no TLB limit within %zu pages; give a larger "
		    "-M", maxpages);
	return reach;
}

/* Format tlb's line from its aggregated record: reach and miss_ns. */
static void
tlb_line(const bm_record *rec, const void *cookie, char *line, size_t len)
{
	(void)cookie;
	snprintf(line, len, "tlb: %.0f pages %.5f nanoseconds\n", rec->value,
	    rec->measured[1].num);
}

/* Print the reach and the cost of a miss. */
static void
tlb_report(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, size_t maxpages, size_t reach,
    double cost)
{
	bm_param params[3], measured[3];
	bm_record rec;

	params[0] = (bm_param){ "page", NULL, (double)tp->page };
	params[1] = (bm_param){ "line", NULL, (double)o->line };
	params[2] = (bm_param){ "len", NULL, (double)maxpages * tp->page };
	measured[0] = (bm_param){ "pages", NULL, (double)reach };
	measured[1] = (bm_param){ "miss_ns", NULL, cost };
	measured[2] = (bm_param){ "first_miss_pages", NULL,
	    (double)mem_next_size(reach) };
	/* A larger reach is no better or worse machine: not judged. */
	tool_record_figure(&rec, t, "tlb", "pages", "pages", BM_BETTER_NONE,
	    (double)reach);
	rec.params = params;
	rec.nparams = 3;
	rec.measured = measured;
	rec.nmeasured = 3;
	mem_report_derived(t, &rec, tlb_line, NULL);
}

/*
 * Visit more and more pages, one line each, in random order, and compare
 * each point with a chase over the same number of lines packed into few
 * pages.  While the pages fit the TLB the two cost the same; the TLB's
 * reach is the last point before the spread chase costs clearly more.
 */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "tlb",
		.args = "[-c] [-L line] [-M len]",
		.extra_usage = "  -c              accepted for lmbench's "
		    "scripts; the cost is always printed\n"
		    "  -L line         the line size (default: the cache's)\n"
		    "  -M len          the most memory the pages span (k/m/g; "
		    "default 4 GB of pages, 1M pages at most)\n"
	};
	struct mem_topo tp;
	struct mem_sweep_opts o = { 0, 0, 64 * 1024 };
	double cost;
	size_t maxpages, reach;

	mem_sweep_parse(&t, argc, argv, "cL:M:", &o, &tp);
	mem_sweep_line_fits(&t, &o, &tp);
	if (o.len == 0)
		o.len = (uint64_t)TLB_MAX_PAGES * tp.page;
	maxpages = (size_t)(o.len / tp.page);
	if (maxpages > TLB_MAX_PAGES)
		maxpages = TLB_MAX_PAGES;
	if (maxpages < 2 * TLB_MIN_PAGES)
		tool_usage_error(&t, "-M %llu spans fewer than %d pages",
		    (unsigned long long)o.len, 2 * TLB_MIN_PAGES);
	tool_setup(&t);
	mem_sweep_options(&t);
	mem_precheck(&t, maxpages * tp.page);
	reach = tlb_sweep(&t, &tp, &o, maxpages, &cost);
	tlb_report(&t, &tp, &o, maxpages, reach, cost);
	return tool_finish(&t);
}
