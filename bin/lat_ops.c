/* lat_ops.c: the latency of basic processor operations, as lmbench. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ops.h"

/* Warm-up of every run after the first when -W is not given, in us. */
#define OPS_NEXT_WARMUP_US 5000
/* The interval when ENOUGH is not set, in us. */
#define OPS_MIN_ENOUGH_US 2000

/* Measure every operation's latency and print one line for each. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_ops", .args = "" };
	struct ops_state s;
	bm_bench b;
	bm_result r;
	bm_record rec;
	char line[128];
	size_t i;
	int rc;

	ops_setup(&t, argc, argv, OPS_MIN_ENOUGH_US, &s);
	for (i = 0; i < OPS_NCASES; i++) {
		b.initialize = NULL;
		b.benchmark = ops_cases[i].fn;
		b.cleanup = NULL;
		b.cookie = &s;
		tool_run(&t, &b, &r);
		tool_later_warmup(&t, OPS_NEXT_WARMUP_US);

		if ((rc = bm_record_latency_per(&rec, t.name,
		    ops_cases[i].label, "ns", &r, OPS_BLOCK, 0)) != 0)
			tool_exit_lib(&t, rc, "building the record");
		snprintf(line, sizeof line, "%s: ", ops_cases[i].label);
		tool_report_value(&t, &rec, line, 2, " nanoseconds");
		bm_result_free(&r);
	}
	return tool_finish(&t);
}
