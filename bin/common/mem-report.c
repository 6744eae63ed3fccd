/* mem-report.c: reporting the memory tools' derived figures. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

/*
 * Report a figure derived from several runs (a size, a count): without a
 * result of its own, the record's statistics are those of the one value,
 * held as one sample's ns (scale 1), so that across MPI ranks the
 * aggregate is the median of the ranks' values.  fn formats the classic
 * line from the aggregated record (tool_report_line).
 */
void
mem_report_derived(struct tool *t, bm_record *rec, tool_line_fn fn,
    const void *cookie)
{
	bm_sample sample;
	bm_result r;
	unsigned i;

	if (rec->result != NULL) {
		tool_report_line(t, rec, fn, cookie);
		return;
	}
	memset(&r, 0, sizeof r);
	memset(&sample, 0, sizeof sample);
	sample.ns = rec->value;
	sample.n = 1;
	sample.cycles = (double)NAN;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		sample.events[i] = (double)NAN;
	r.samples = &sample;
	r.nsamples = 1;
	r.parallel = 1;
	r.repetitions = 1;
	r.processes = 1;
	r.cycles_per_op = (double)NAN;
	r.budget_hit = t->budget_hit;
	r.per_op_ns.count = 1;
	r.per_op_ns.median = r.per_op_ns.min = r.per_op_ns.max = rec->value;
	r.per_op_ns.mean = r.per_op_ns.ci_lo = r.per_op_ns.ci_hi = rec->value;
	rec->scale = 1;
	rec->offset = 0;
	rec->inverse = 0;
	rec->result = &r;
	/*
	 * One value, no interval to give it: its one answer judges it (not
	 * noisy, as processes that agree), unless the tool judged it.  No
	 * value (nothing measured) is no answer: bm_agree() would call it a
	 * disagreement.
	 */
	if (rec->agreement == BM_AGREEMENT_NONE && isfinite(rec->value) &&
	    bm_record_agreement(rec, &rec->value, 1, 0) < 0)
		tool_exit_fail(t, "cannot judge the figure");
	tool_report_line(t, rec, fn, cookie);
	rec->result = NULL;
}

/* Format a line of the record's value as a whole number (line, memsize). */
void
mem_report_line_whole(const bm_record *rec, const void *cookie, char *line,
    size_t len)
{
	(void)cookie;
	snprintf(line, len, "%.0f\n", rec->value);
}
