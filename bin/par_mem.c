/* par_mem.c: memory-level parallelism by size, as lmbench's par_mem. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"

/* The smallest size measured. */
#define PAR_MEM_LOWER ((size_t)4 << 10)

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
	struct mem_sweep_opts o = { 0, 0, 2 * PAR_MEM_LOWER };
	bm_param params[2], measured[4];
	bm_record rec;
	char out[64];
	double par, one;
	unsigned best_k;
	size_t size;

	mem_sweep_parse(&t, argc, argv, "L:M:", &o, &tp);
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
		mem_chase_paged(&c, size, (size_t)o.line, tp.page);
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
