/* lat_ops.c: the latency of basic processor operations, as lmbench. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/ops.h"

/* Warm-up of every run after the first when -W is not given, in us. */
#define OPS_NEXT_WARMUP_US 5000
/* The interval when ENOUGH is not set, in us. */
#define OPS_MIN_ENOUGH_US 2000

/*
 * Time one case, whose benchmark operation is per operations, and print
 * its line: "LABEL: 0.34 nanoseconds".
 */
static void
lat_ops_case(struct tool *t, struct ops_state *s, const struct ops_case *c,
    double per)
{
	bm_bench b;
	bm_result r;
	bm_record rec;
	char line[128];
	int rc;

	b.initialize = NULL;
	b.benchmark = c->fn;
	b.cleanup = NULL;
	b.cookie = s;
	tool_run(t, &b, &r);
	tool_later_warmup(t, OPS_NEXT_WARMUP_US);

	if ((rc = bm_record_latency_per(&rec, t->name, c->label, "ns", &r,
	    per, 0)) != 0)
		tool_exit_lib(t, rc, "building the record");
	snprintf(line, sizeof line, "%s: ", c->label);
	tool_report_value(t, &rec, line, 2, " nanoseconds");
	bm_result_free(&r);
}

/* --served: the operations, then the bogomflops, one after another. */
static unsigned
lat_ops_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	(void)cookie;
	*parts = 0;
	return (unsigned)ops_count(t, ops, nops, OPS_NALL);
}

/*
 * Measure every operation's latency (or those named), then the time of a
 * bogomflop, and print one line for each, in lmbench's order.
 */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_ops", .args = "[OP ...]",
	    .served_figures = lat_ops_served_figures };
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct ops_state s;
	unsigned char want[OPS_NALL];
	size_t i;

	(void)ops_setup(&t, argc, argv, OPS_MIN_ENOUGH_US, &s, want,
	    OPS_NALL);
	for (i = 0; i < OPS_NCASES; i++)
		if (want[i])
			lat_ops_case(&t, &s, &ops_cases[i], OPS_BLOCK);
	for (i = 0; i < OPS_NFLOPS; i++)
		if (want[OPS_NCASES + i])
			lat_ops_case(&t, &s, &ops_flops[i], OPS_FLOPS);
	return tool_finish(&t);
}
