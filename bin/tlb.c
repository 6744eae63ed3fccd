/* tlb.c: the reach of the data TLB and the cost of missing it, as lmbench's tlb. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/mem.h"
#include "common/progress.h"
#include "common/sweep.h"

/* The fewest and most pages a sweep visits. */
#define TLB_MIN_PAGES 8
#define TLB_MAX_PAGES ((size_t)1 << 20)
/*
 * The most points of a sweep: 8 pages to 1M in steps of 1.5 and 2 (35),
 * and the few that bisect the knee.
 */
#define TLB_MAX_POINTS 64
/* The most processes whose curves are read one by one. */
#define TLB_MAX_PROCS 16

/* A sweep: the points' pages and the spread and packed chases' times. */
struct tlb_sweep {
	size_t n;
	size_t pages[TLB_MAX_POINTS];
	double spread[TLB_MAX_POINTS], packed[TLB_MAX_POINTS];
	size_t np;
	double pspread[TLB_MAX_PROCS][TLB_MAX_POINTS];
	double ppacked[TLB_MAX_PROCS][TLB_MAX_POINTS];
	struct sweep sw;	/* the plan (at most) and the time bound */
	size_t next;		/* the first point not measured, if cut */
	/* The first point that missed, as the sweep's steps found it. */
	double first_ns, full_ns;	/* its cost, and the least beyond */
	size_t full_pages;	/* the pages of the point beyond it */
	int partial;		/* its cost well below the cost beyond */
};

/*
 * The time of one load of a random chase over npages pages, one line
 * in each (pages == 1), or over as many lines packed into as few pages
 * as they fill (pages == 0): the same lines in the cache, the TLB
 * missed only in the first.  The chased line moves by one line from
 * page to page, so the lines spread over the cache's sets.
 */
static void
tlb_point(struct tool *t, size_t npages, size_t page, size_t line,
    int spread, bm_result *r)
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
	mem_chase_measure(t, &c, r);
}

/*
 * Measure one point of the sweep, npages, and keep it in page order
 * among those measured (a point that bisects the knee falls between
 * two): both chases, the median and each process; 1 when the bound cut
 * either chase's rounds.
 */
static int
tlb_measure(struct tool *t, const struct mem_topo *tp, size_t line,
    size_t npages, struct tlb_sweep *w)
{
	int hit;
	/* Static (one point at a time, each filled by tlb_point): 4 KB. */
	static bm_result rs, rp;
	size_t p, i;
	unsigned np;

	tlb_point(t, npages, tp->page, line, 1, &rs);
	tlb_point(t, npages, tp->page, line, 0, &rp);
	for (i = w->n; i > 0 && w->pages[i - 1] > npages; i--) {
		w->pages[i] = w->pages[i - 1];
		w->spread[i] = w->spread[i - 1];
		w->packed[i] = w->packed[i - 1];
		for (p = 0; p < w->np; p++) {
			w->pspread[p][i] = w->pspread[p][i - 1];
			w->ppacked[p][i] = w->ppacked[p][i - 1];
		}
	}
	w->pages[i] = npages;
	w->spread[i] = rs.per_op_ns.median;
	w->packed[i] = rp.per_op_ns.median;
	np = rs.processes < rp.processes ? rs.processes : rp.processes;
	if (rs.process_ns == NULL || rp.process_ns == NULL)
		np = 0;
	if (w->n == 0 || np < w->np)
		w->np = np < TLB_MAX_PROCS ? np : TLB_MAX_PROCS;
	for (p = 0; p < w->np; p++) {
		w->pspread[p][i] = rs.process_ns[p];
		w->ppacked[p][i] = rp.process_ns[p];
	}
	w->n++;
	hit = rs.budget_hit || rp.budget_hit;
	bm_result_free(&rs);
	bm_result_free(&rp);
	return hit;
}

/*
 * After the sweep's steps found the jump, measure the points that bisect
 * the knee (mem_rules_tlb_bisect) while the time bound lets the next
 * one run: the reach becomes the largest page count that still fits, to
 * a sixteenth.  The points were planned when the jump was found; a bound
 * that cuts them leaves a coarser reach, flagged budget_hit and said.
 */
static void
tlb_bisect(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, struct tlb_sweep *w, int more,
    struct progress *prog)
{
	size_t mid;
	char sz[32], from[32];

	while ((mid = mem_rules_tlb_bisect(w->pages, w->spread, w->packed,
	    w->n)) != 0 && w->n < TLB_MAX_POINTS) {
		if (!more) {
			if (w->sw.cut) {
				w->next = mid;
				snprintf(from, sizeof from, "%zu pages", mid);
				sweep_say(t, &w->sw, from);
			}
			return;
		}
		progress_show(prog, "%zu pages, %s (bisecting the knee, %zu "
		    "of %zu points)", mid,
		    progress_size(sz, sizeof sz, (double)mid * tp->page),
		    w->sw.done + 1, w->sw.planned);
		more = sweep_point(t, &w->sw,
		    tlb_measure(t, tp, (size_t)o->line, mid, w));
	}
}

/*
 * Visit more and more pages up to maxpages, until the median curve shows
 * the reach (mem_rules_tlb_read), judge the first point that missed
 * (partial or not: mem_rules_tlb_partial), then bisect the knee; the
 * index of the reach and, in *cost, the cost of a miss (the cost beyond
 * a partial first miss).
 */
static size_t
tlb_sweep(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, size_t maxpages, struct tlb_sweep *w,
    double *cost)
{
	size_t n, reach = 0, npoints = 0, point = 0;
	struct progress prog;
	char sz[32];
	int found = 0, more = 1, hit;
	double dummy;

	progress_start(&prog, t);
	for (n = TLB_MIN_PAGES; n <= maxpages && npoints < TLB_MAX_POINTS;
	    n = mem_topo_next_size(n))
		npoints++;
	sweep_begin(&w->sw, "points", npoints);
	for (n = TLB_MIN_PAGES; more && n <= maxpages &&
	    w->n < TLB_MAX_POINTS; n = mem_topo_next_size(n)) {
		/* The sweep stops at the jump: "of at most". */
		progress_show(&prog, "%zu pages, %s (%zu of at most %zu)", n,
		    progress_size(sz, sizeof sz, (double)n * tp->page),
		    ++point, npoints);
		hit = tlb_measure(t, tp, (size_t)o->line, n, w);
		if ((found = mem_rules_tlb_read(w->spread, w->packed, w->n,
		    &reach, cost)) != 0) {
			/*
			 * The jump ends the steps (nothing past it is
			 * missing); the plan is now the points measured
			 * and those that may bisect the knee.
			 */
			w->sw.planned = w->sw.done + 1 +
			    mem_rules_tlb_bisect_points(w->pages[reach],
			    w->pages[reach + 1]);
			more = sweep_point(t, &w->sw, hit);
			break;
		}
		more = sweep_point(t, &w->sw, hit);
	}
	w->next = n;
	if (!found) {
		progress_clear(&prog);
		if (w->sw.cut)
			tool_exit_fail(t, "no TLB limit within the %zu pages "
			    "measured before the time bound (--max-time %.2f "
			    "s); %zu of at most %zu points not measured, from "
			    "%zu pages on", w->pages[w->n - 1], t->max_time_s,
			    npoints - w->n, npoints, n);
		tool_exit_fail(t,
		    "no TLB limit within %zu pages; give a larger "
		    "-M", maxpages);
	}
	w->partial = mem_rules_tlb_partial(w->spread, w->packed, w->n,
	    reach + 1, &w->first_ns, &w->full_ns);
	w->full_pages = w->pages[reach + 2];
	if (w->partial)
		*cost = w->full_ns;
	tlb_bisect(t, tp, o, w, more, &prog);
	progress_clear(&prog);
	/*
	 * The points bisect the knee below the confirmed jump, so the read
	 * still finds one: the reach, now to a sixteenth.
	 */
	(void)mem_rules_tlb_read(w->spread, w->packed, w->n, &reach, &dummy);
	return reach;
}

/*
 * Each process's reach: its own curve (round p of every point) read as
 * the median one is, over the points measured; NAN where it shows none.
 */
static void
tlb_answers(const struct tlb_sweep *w, double *answers)
{
	size_t p, reach;
	double cost;

	for (p = 0; p < w->np; p++)
		answers[p] = mem_rules_tlb_read(w->pspread[p], w->ppacked[p],
		    w->n,
		    &reach, &cost) ? (double)w->pages[reach] : (double)NAN;
}

/* Format tlb's line from its aggregated record: reach and miss_ns. */
static void
tlb_line(const bm_record *rec, const void *cookie, char *line, size_t len)
{
	(void)cookie;
	snprintf(line, len, "tlb: %.0f pages %.5f nanoseconds\n", rec->value,
	    rec->measured[1].num);
}

/*
 * Print the reach and the cost of a miss, with the first count that
 * missed; a partial first miss is flagged (a contradiction of the cost
 * beyond it, both numbers in the record and on stderr).
 */
static void
tlb_report(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, size_t maxpages, const struct tlb_sweep *w,
    size_t reach, double cost, const double *answers)
{
	bm_param params[3], found[3], measured[6];
	bm_contradiction c[1];
	bm_record rec;
	static bm_result ar;	/* static: 2 KB off a bounded stack */
	char source[64];
	size_t nc = 0;
	int rc, have_ar;

	t->budget_hit = w->sw.hit;

	params[0] = (bm_param){ .key = "page", .num = (double)tp->page };
	params[1] = (bm_param){ .key = "line", .num = (double)o->line };
	params[2] = (bm_param){ .key = "len",
	    .num = (double)maxpages * tp->page };
	found[0] = (bm_param){ .key = "pages", .num = (double)w->pages[reach] };
	found[1] = (bm_param){ .key = "miss_ns", .num = cost };
	found[2] = (bm_param){ .key = "first_miss_pages",
	    .num = (double)w->pages[reach + 1] };
	/* A larger reach is no better or worse machine: not judged. */
	tool_record_figure(&rec, t, "tlb", "pages", "pages", BM_BETTER_NONE,
	    (double)w->pages[reach]);
	rec.params = params;
	rec.nparams = 3;
	/* A bisection the bound cut: the points left, from which one. */
	rec.measured = measured;
	rec.nmeasured = sweep_measured(found, 3, measured, 6, &w->sw,
	    (double)w->next);
	/* Each process's reach is a sample of the record: their spread. */
	have_ar = mem_rules_answers_result(answers, w->np, &ar) == 0;
	if (have_ar) {
		ar.budget_hit = w->sw.hit;
		rec.result = &ar;
		rec.scale = 1;
	}
	if (w->np > 0 &&
	    (rc = bm_record_agreement(&rec, answers, w->np, 0)) < 0)
		tool_exit_lib(t, rc, "judging the processes' answers");
	if (w->partial) {
		/* Well below by the rule: check it against the cost itself. */
		snprintf(source, sizeof source, "the miss cost at %zu pages",
		    w->full_pages);
		rc = bm_contradiction_check(&c[0], "first miss cost",
		    w->first_ns, w->full_ns, 1, INFINITY, source, "ns");
		if (rc < 0)
			tool_exit_lib(t, rc, "judging the jump");
		nc += (size_t)rc;
	}
	(void)bm_record_contradicts(&rec, c, nc);
	mem_report_derived(t, &rec, tlb_line, NULL);
	if (have_ar)
		bm_result_free(&ar);
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
	static struct tlb_sweep w;
	double cost, answers[TLB_MAX_PROCS];
	size_t maxpages, reach;

	mem_sweep_parse(&t, argc, argv, "cL:M:", &o, &tp);
	mem_sweep_line_fits(&t, &o, &tp);
	if (o.len == 0)
		o.len = (uint64_t)TLB_MAX_PAGES * tp.page;
	maxpages = (size_t)(o.len / tp.page);
	if (maxpages > TLB_MAX_PAGES)
		maxpages = TLB_MAX_PAGES;
	if (maxpages < 2 * TLB_MIN_PAGES)
		tool_exit_usage(&t, "-M %llu spans fewer than %d pages",
		    (unsigned long long)o.len, 2 * TLB_MIN_PAGES);
	tool_setup(&t);
	mem_sweep_options(&t);
	mem_topo_precheck(&t, maxpages * tp.page);
	reach = tlb_sweep(&t, &tp, &o, maxpages, &w, &cost);
	tlb_answers(&w, answers);
	tlb_report(&t, &tp, &o, maxpages, &w, reach, cost, answers);
	return tool_finish(&t);
}
