/* par_mem.c: memory-level parallelism by size, as lmbench's par_mem. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"

/* The smallest size measured. */
#define PAR_MEM_LOWER ((size_t)4 << 10)

/* -L and -M. */
struct pm_opts {
	uint64_t line;		/* -L, or the cache's line */
	uint64_t len;		/* -M, or four times the last level */
};

/* Take -L and -M. */
static void
pm_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct pm_opts *o = cookie;

	switch (opt) {
	case 'L':
		o->line = mem_line_arg(t, arg);
		break;
	case 'M':
		o->len = tool_size(t, "-M", arg, 2 * PAR_MEM_LOWER,
		    MEM_MAX_LEN);
		break;
	default:
		tool_usage_error(t, "unexpected option");
	}
}

/*
 * For sizes doubling up to len, chase 1, 2, 4, 8 and 16 independent
 * chains through the same buffer (lines shuffled within each page, the
 * pages in order) and print how many loads the memory system overlaps:
 * one chain's time per load over the best time per load of several.
 */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "par_mem",
		.args = "[-L line] [-M len]",
		.extra_usage = "  -L line         the line size (default: the "
		    "cache's)\n"
		    "  -M len          the largest size (k/m/g); default four "
		    "times the last-level cache\n"
	};
	struct mem_topo tp;
	struct mem_chase c;
	struct pm_opts o = { 0, 0 };
	bm_param params[2], measured[4];
	bm_record rec;
	char out[64];
	double par, one;
	unsigned best_k;
	size_t size;
	int first;

	first = tool_parse(&t, argc, argv, "L:M:", NULL, pm_option, &o);
	if (first < argc)
		tool_usage_error(&t, "unexpected argument '%s'", argv[first]);
	mem_topology(&tp);
	if (o.line == 0)
		o.line = tp.line;
	if (o.len == 0)
		o.len = mem_topo_size(&tp, 4, (size_t)8 << 20,
		    (size_t)1 << 30);
	if (o.line > tp.page || o.line * 2 > o.len)
		tool_usage_error(&t, "-L %llu does not fit a page and twice "
		    "in -M", (unsigned long long)o.line);
	tool_setup(&t);
	mem_sweep_options(&t);
	mem_precheck(&t, (size_t)o.len);

	for (size = PAR_MEM_LOWER; size <= o.len; size *= 2) {
		memset(&c, 0, sizeof c);
		c.size = size;
		c.stride = (size_t)o.line;
		c.page = tp.page;
		c.order = MEM_ORDER_PAGE;
		c.k = 1;
		par = mem_parallelism(&t, &c, &one, &best_k);

		params[0] = (bm_param){ "size", NULL, (double)size };
		params[1] = (bm_param){ "line", NULL, (double)o.line };
		measured[0] = (bm_param){ "chains", NULL, (double)best_k };
		measured[1] = (bm_param){ "load_ns", NULL, one };
		measured[2] = (bm_param){ "llc", NULL, (double)tp.llc };
		measured[3] = (bm_param){ "topology", tp.source, 0 };
		tool_record_figure(&rec, &t, "chase", "parallelism", "loads",
		    BM_BETTER_HIGHER, par);
		rec.params = params;
		rec.nparams = 2;
		rec.measured = measured;
		rec.nmeasured = 4;
		snprintf(out, sizeof out, "%.6f %.2f\n", (double)size / 1e6,
		    par);
		mem_report_derived(&t, &rec, out);
	}
	return tool_finish(&t);
}
