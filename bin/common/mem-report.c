/* mem-report.c: reporting the memory tools' derived figures. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mem.h"

/*
 * Report a figure derived from several runs (a size, a count): without a
 * result of its own, the record's statistics are those of the one value.
 */
void
mem_report_derived(struct tool *t, bm_record *rec, const char *line)
{
	bm_sample sample;
	bm_result r;
	unsigned i;

	if (rec->result != NULL) {
		tool_report(t, rec, line);
		return;
	}
	memset(&r, 0, sizeof r);
	memset(&sample, 0, sizeof sample);
	sample.ns = 1;
	sample.n = 1;
	sample.cycles = (double)NAN;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		sample.events[i] = (double)NAN;
	r.samples = &sample;
	r.nsamples = 1;
	r.parallel = 1;
	r.repetitions = 1;
	r.cycles_per_op = (double)NAN;
	r.per_op_ns.count = 1;
	r.per_op_ns.median = r.per_op_ns.min = r.per_op_ns.max = 1;
	r.per_op_ns.mean = r.per_op_ns.ci_lo = r.per_op_ns.ci_hi = 1;
	rec->scale = rec->value;
	rec->inverse = 0;
	rec->result = &r;
	tool_report(t, rec, line);
	rec->result = NULL;
}
