/* par_mem.c: memory-level parallelism by size, as lmbench's par_mem. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/mem.h"
#include "common/progress.h"
#include "common/sweep.h"

/* The smallest size measured. */
#define PAR_MEM_LOWER ((size_t)4 << 10)
/* The most processes whose answers are judged. */
#define PAR_MEM_MAX_PROCS 64
/*
 * The processes agree when their ratios (each round's median of the
 * chosen k's) span at most sqrt(2) - 1 of the median: each is nearer the
 * figure than half-way (geometrically) to one twice or half as large,
 * the step between the k tried.
 */
#define PAR_MEM_TOLERANCE 0.4142
/*
 * k chains cannot overlap more than k loads: a figure above k (with room
 * for the scatter of the two chases it is the ratio of) contradicts the
 * method, as 59.8 "loads" from 16 chains did on a loaded machine.
 */
#define PAR_MEM_OVER_K 1.1

enum { PAR_MEM_OPT_ROLE = TOOL_OPT_BASE };

static const struct option par_mem_long[] = {
	{ "role", required_argument, NULL, PAR_MEM_OPT_ROLE },
	{ NULL, 0, NULL, 0 }
};

/* The options of par_mem: a sweep's, and --role=top. */
struct par_mem_opts {
	struct mem_sweep_opts m;
	int top;		/* --role=top: the largest size only */
};

/* Take --role, and give the sweep's options to mem_sweep_option(). */
static void
par_mem_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct par_mem_opts *o = cookie;

	if (opt != PAR_MEM_OPT_ROLE) {
		mem_sweep_option(t, opt, arg, &o->m);
		return;
	}
	if (strcmp(arg, "top") != 0)
		tool_exit_usage(t, "--role: '%s' is not top", arg);
	o->top = 1;
}

/* The largest size of the sweep up to len (its first is PAR_MEM_LOWER). */
static size_t
par_mem_top(uint64_t len)
{
	size_t size = PAR_MEM_LOWER;

	while ((uint64_t)size * 2 <= len)
		size *= 2;
	return size;
}

/* The sweep's largest size, -M's or four times the last-level cache's. */
static uint64_t
par_mem_len(const struct mem_sweep_opts *o, const struct mem_topo *tp)
{
	return o->len != 0 ? o->len : mem_topo_size(tp, 4, (size_t)8 << 20,
	    (size_t)1 << 30);
}

/*
 * --served: with --role=top, one chain at the largest size, a part (a
 * few visits), then the most chains, visited across the budget; else
 * one figure.
 */
static unsigned
par_mem_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	const struct par_mem_opts *o = cookie;
	struct mem_topo tp;
	unsigned n;

	(void)t;
	(void)ops;
	(void)nops;
	*parts = 0;
	if (!o->top)
		return 1;
	mem_topo_detect(&tp);
	n = mem_chase_parallel_ks(par_mem_top(par_mem_len(&o->m, &tp)),
	    o->m.line != 0 ? (size_t)o->m.line : tp.line);
	*parts = n > 1;
	return n > 1 ? 2 : 1;
}

/* Format par_mem's line, "MB parallelism", from the aggregated record. */
static void
par_mem_line(const bm_record *rec, const void *cookie, char *line,
    size_t len)
{
	const size_t *size = cookie;

	snprintf(line, len, "%.6f %.2f\n", (double)*size / 1e6, rec->value);
}

/*
 * Record and print one size's parallelism (apart: a point served apart,
 * see main), and free it.
 */
static void
par_mem_point(struct tool *t, const struct par_mem_opts *o,
    const struct mem_topo *tp, size_t size, struct mem_parallel *par,
    const struct sweep *sw, int apart)
{
	static const char *const ratio_keys[MEM_PAR_KS] = { "ratio_1",
	    "ratio_2", "ratio_4", "ratio_8", "ratio_16" };
	bm_param params[2], found[5 + MEM_PAR_KS - 1];
	bm_param measured[5 + MEM_PAR_KS - 1 + 3];
	bm_contradiction over[1];
	bm_record rec;
	double answers[PAR_MEM_MAX_PROCS];
	size_t i, np, nc, nf;
	int rc;

	params[0] = (bm_param){ .key = "size", .num = (double)size };
	params[1] = (bm_param){ .key = "line", .num = (double)o->m.line };
	found[0] = (bm_param){ .key = "chains", .num = (double)par->k };
	found[1] = (bm_param){ .key = "load_ns", .num = par->one_ns };
	found[2] = (bm_param){ .key = "llc", .num = (double)tp->llc };
	found[3] = (bm_param){ .key = "topology", .str = tp->source };
	/* Each k's median ratio (null where the buffer is too small). */
	for (i = 1; i < MEM_PAR_KS; i++)
		found[3 + i] = (bm_param){ .key = ratio_keys[i],
		    .num = par->ratio[i] };
	nf = 4 + MEM_PAR_KS - 1;
	if (o->top)
		found[nf++] = (bm_param){ .key = "role", .str = "top" };
	tool_record_figure(&rec, t, "chase", "parallelism", "loads",
	    BM_BETTER_HIGHER, par->value);
	/* The ratios are held as the samples' ns: scale 1. */
	rec.result = &par->r;
	rec.scale = 1;
	rec.params = params;
	rec.nparams = 2;
	rec.measured = measured;
	rec.nmeasured = sweep_measured(found, nf, measured,
	    sizeof measured / sizeof measured[0], sw, (double)size * 2);
	/*
	 * The processes' answers, judged; a served point's rounds are
	 * visits across the budget, not processes that should agree.
	 */
	np = apart ? 0 : mem_rules_round_medians(&par->r, answers,
	    PAR_MEM_MAX_PROCS);
	if (np > 0 && (rc = bm_record_agreement(&rec, answers, np,
	    PAR_MEM_TOLERANCE)) < 0)
		tool_exit_lib(t, rc, "judging the processes' answers");
	rc = bm_contradiction_check(&over[0], "parallelism", par->value,
	    (double)par->k, 1 / (double)par->k, PAR_MEM_OVER_K,
	    "the chains chased", "loads");
	if (rc < 0)
		tool_exit_lib(t, rc, "checking the parallelism");
	nc = (size_t)rc;
	(void)bm_record_contradicts(&rec, over, nc);
	mem_report_derived(t, &rec, par_mem_line, &size);
	mem_chase_parallelism_free(par);
}

/*
 * Served by a scheduler (the whole sweep), the sizes from size on as one
 * group of whole sizes, their chases BM_MAX_GROUP at most
 * (mem_chase_parallelism_group): the scheduler visits them on one set of
 * workers that maps the group's largest buffer once, where a set a size
 * would fault each size's buffer again (on a 2-vCPU AMD EPYC KVM guest,
 * 2026-12-04, 10 us a page in each process).  Prints them in order as
 * main does; returns the size after the group's last.
 */
static size_t
par_mem_group(struct tool *t, const struct par_mem_opts *o,
    const struct mem_topo *tp, size_t size, struct sweep *sw)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct mem_chase c[BM_MAX_GROUP];
	static struct mem_parallel par[BM_MAX_GROUP];
	size_t sizes[BM_MAX_GROUP], chases = 0, n = 0, i;
	int hit = 0;

	/* (mem_chase_paged() fills each; the compiler cannot see n > 0.) */
	memset(c, 0, sizeof c);
	for (; size <= o->m.len; size *= 2) {
		unsigned k = mem_chase_parallel_chases(size,
		    (size_t)o->m.line, 0);

		if (n > 0 && chases + k > BM_MAX_GROUP)
			break;
		mem_chase_paged(&c[n], size, (size_t)o->m.line, tp->page);
		sizes[n++] = size;
		chases += k;
	}
	mem_chase_parallelism_group(t, c, n, par);
	for (i = 0; i < n; i++)
		hit = hit || par[i].r.budget_hit;
	(void)sweep_group(sw, n, hit);
	for (i = 0; i < n; i++)
		par_mem_point(t, o, tp, sizes[i], &par[i], sw, 0);
	return size;
}

/*
 * For sizes doubling up to len, chase 1, 2, 4, 8 and 16 independent
 * chains through the same buffer (lines shuffled within each page, the
 * pages in order) and print how many loads the memory system overlaps:
 * one chain's time per load over the best time per load of several.  The
 * record's statistics are those of the chosen k's paired ratios
 * (mem_chase_parallelism), its interval theirs.  With --role=top only
 * the largest size; served so (benchmp-sched), one chain is a part and
 * the most chains are visited across the budget, the ratios over one
 * chain's median: the figure is a served one, its interval from those
 * visits.  A whole sweep served is groups of whole sizes, each as many
 * as a group holds (par_mem_group).
 */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "par_mem",
		.args = "[-L line] [-M len] [--role=top]",
		.extra_usage = "  -L line         the line size (default: the "
		    "cache's)\n"
		    "  -M len          the largest size (k/m/g); default four "
		    "times the last-level cache\n"
		    "  --role=top      only the largest size\n",
		.served_figures = par_mem_served_figures
	};
	struct mem_topo tp;
	struct mem_chase c;
	struct mem_parallel par;
	struct par_mem_opts o = { { 0, 0, 2 * PAR_MEM_LOWER }, 0 };
	size_t size, first, npoints = 0;
	struct sweep sw;
	char from[32];
	int more = 1, apart, grouped;

	mem_sweep_parse_long(&t, argc, argv, "L:M:", par_mem_long,
	    par_mem_option, &o, &o.m, &tp);
	o.m.len = par_mem_len(&o.m, &tp);
	if (o.m.line > tp.page || o.m.line * 2 > o.m.len)
		tool_exit_usage(&t, "-L %llu does not fit a page and twice "
		    "in -M", (unsigned long long)o.m.line);
	tool_setup(&t);
	mem_sweep_options(&t);
	mem_topo_precheck(&t, (size_t)o.m.len);
	first = o.top ? par_mem_top(o.m.len) : PAR_MEM_LOWER;
	apart = o.top && tool_served_inside();
	grouped = !o.top && tool_served_inside();

	for (size = first; size <= o.m.len; size *= 2)
		npoints++;
	sweep_begin(&sw, "sizes", npoints);
	size = first;
	while (more && size <= o.m.len) {
		if (grouped) {
			size = par_mem_group(&t, &o, &tp, size, &sw);
			continue;
		}
		mem_chase_paged(&c, size, (size_t)o.m.line, tp.page);
		mem_chase_parallelism(&t, &c, apart, &par);
		/* The last point of a cut sweep says so, and what is missing. */
		more = sweep_point(&t, &sw, par.r.budget_hit);
		if (sw.cut)
			par.r.budget_hit = 1;
		par_mem_point(&t, &o, &tp, size, &par, &sw, apart);
		size *= 2;
	}
	sweep_say(&t, &sw, progress_size(from, sizeof from, (double)size));
	return tool_finish(&t);
}
