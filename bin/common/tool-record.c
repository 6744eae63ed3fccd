/* tool-record.c: the record a tool fills from a result, per kind of figure. */
#include "config.h"

#include <string.h>

#include "tool.h"

/* Fill a bandwidth record: bytes per operation, in MB/s (aggregate with -P). */
void
tool_record_bw(bm_record *rec, const struct tool *t, const char *case_name,
    const bm_param *params, size_t nparams, const bm_result *r, double bytes)
{
	int rc;

	if ((rc = bm_record_bandwidth(rec, t->name, case_name, r, bytes)) != 0)
		tool_exit_lib(t, rc, "building the record");
	rec->params = params;
	rec->nparams = nparams;
}

/* A record parameter: key and a string, or (str NULL) the number num. */
bm_param
tool_record_param(const char *key, const char *str, double num)
{
	bm_param p;

	p.key = key;
	p.str = str;
	p.num = num;
	return p;
}

/* Fill a latency record: microseconds per operation, one worker's median. */
void
tool_record_us(bm_record *rec, const struct tool *t, const char *case_name,
    const bm_param *params, size_t nparams, const bm_result *r)
{
	int rc;

	if ((rc = bm_record_latency(rec, t->name, case_name, "us", r)) != 0)
		tool_exit_lib(t, rc, "building the record");
	rec->params = params;
	rec->nparams = nparams;
}

/*
 * Fill the record of a figure the tool derives itself (a clock rate, a
 * parallelism, a size) with no result yet: value in unit, and better.
 */
void
tool_record_figure(bm_record *rec, const struct tool *t,
    const char *case_name, const char *metric, const char *unit,
    bm_better better, double value)
{
	memset(rec, 0, sizeof *rec);
	rec->tool = t->name;
	rec->case_name = case_name;
	rec->metric = metric;
	rec->unit = unit;
	rec->better = better;
	rec->value = value;
}

/* Give a figure's record the statistics of r: per_ns / ns per operation. */
void
tool_record_per_ns(bm_record *rec, const bm_result *r, double per_ns)
{
	rec->result = r;
	rec->scale = per_ns;
	rec->offset = 0;
	rec->inverse = 1;
}
