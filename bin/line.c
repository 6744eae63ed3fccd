/* line.c: the cache line size, measured by chasing with growing strides. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"
#include "common/progress.h"

/* The strides tried: 8 bytes to LINE_MAX_STRIDE, doubling. */
#define LINE_MIN_STRIDE 8
#define LINE_MAX_STRIDE 512
/* How many: 8, 16, ... 512. */
#define LINE_NSTRIDES 7
/* Loads per group: every stride makes as many loads per group. */
#define LINE_GROUP 8
/*
 * The shortest interval, whatever ENOUGH says: with the 100 us that
 * benchmp-run calibrates here, the answer flipped between 32 and 64
 * bytes from run to run (stride 32 read 28 or 46 ns); with 2 ms it was
 * 128 once in 5 runs, with 5 ms 64 in every run.
 */
#define LINE_MIN_ENOUGH_US MEM_ENOUGH_US

/* The latency of one load of a random chase at this stride. */
static double
line_latency(struct tool *t, size_t len, size_t stride)
{
	struct mem_chase c;

	memset(&c, 0, sizeof c);
	c.size = len;
	c.stride = stride;
	c.page = LINE_GROUP * stride;
	c.order = MEM_ORDER_RANDOM;
	c.k = 1;
	c.pages = 1;
	return mem_chase_latency(t, &c);
}

/*
 * Chase through a buffer beyond the caches with strides from 8 bytes up,
 * the lines of each page in random order.  Below the line size several
 * loads share a line and all but the first hit; from the line size on,
 * every load misses.  The line is the stride whose latency rises most
 * over half its stride.
 */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "line",
		.args = "[-M len]",
		.extra_usage = "  -M len          the buffer chased (k/m/g); "
		    "default twice the last-level cache\n"
	};
	double lat[16], best = 0, ratio;
	struct mem_topo tp;
	struct mem_sweep_opts o = { 0, 0, 64 * 1024 };
	bm_param params[1], measured[4];
	bm_record rec;
	size_t s, found = 0;
	unsigned i, n = 0;
	struct progress prog;

	mem_sweep_parse(&t, argc, argv, "M:", &o, &tp);
	if (o.len == 0)
		o.len = mem_topo_size(&tp, 2, (size_t)16 << 20,
		    (size_t)256 << 20);
	tool_setup(&t);
	mem_sweep_options(&t);
	tool_min_enough(&t, LINE_MIN_ENOUGH_US);
	mem_precheck(&t, (size_t)o.len);
	progress_start(&prog, &t);
	for (s = LINE_MIN_STRIDE; s <= LINE_MAX_STRIDE; s *= 2) {
		progress_show(&prog, "stride %zu bytes (%u/%u)", s, n + 1,
		    LINE_NSTRIDES);
		lat[n++] = line_latency(&t, (size_t)o.len, s);
	}
	progress_clear(&prog);
	for (i = 1, s = 2 * LINE_MIN_STRIDE; i < n; i++, s *= 2) {
		ratio = lat[i] / lat[i - 1];
		if (ratio > best) {
			best = ratio;
			found = s;
		}
	}

	params[0] = (bm_param){ "len", NULL, (double)o.len };
	measured[0] = (bm_param){ "reported", NULL, (double)tp.line };
	measured[1] = (bm_param){ "topology", tp.source, 0 };
	measured[2] = (bm_param){ "jump", NULL, best };
	measured[3] = (bm_param){ "line_ns", NULL, lat[0] };
	for (i = 0, s = LINE_MIN_STRIDE; s < found; i++, s *= 2)
		;
	measured[3].num = lat[i];
	tool_record_figure(&rec, &t, "line", "size", "bytes", BM_BETTER_NONE,
	    (double)found);
	rec.params = params;
	rec.nparams = 1;
	rec.measured = measured;
	rec.nmeasured = 4;
	mem_report_derived(&t, &rec, mem_line_whole, NULL);
	return tool_finish(&t);
}
