/* tool-report.c: a tool's results as records and classic lines. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/calibration.h"
#include "benchmp/figures.h"
#include "benchmp/sinks.h"
#include "benchmp/stats.h"
#include "cluster.h"
#include "tool.h"
#include "tool-private.h"

/*
 * After the classic line, what was asked for beyond it: one line per
 * event, and the distribution of single operations.
 */
static void
tool_report_extra(const bm_result *r)
{
	size_t i;

	for (i = 0; i < r->nevents; i++) {
		if (r->events[i].status == 0)
			printf("%s: %.4f per operation\n", r->events[i].name,
			    r->event_per_op[i]);
		else
			printf("%s: %s\n", r->events[i].name,
			    r->events[i].detail);
	}
	if (r->nop > 0)
		printf("percentiles: min %.1f p50 %.1f p90 %.1f p99 %.1f "
		    "p99.9 %.1f max %.1f nanoseconds (%zu operations)\n",
		    r->op_ns[0], bm_percentile(r->op_ns, r->nop, 50),
		    bm_percentile(r->op_ns, r->nop, 90),
		    bm_percentile(r->op_ns, r->nop, 99),
		    bm_percentile(r->op_ns, r->nop, 99.9),
		    r->op_ns[r->nop - 1], r->nop);
	if (r->nop > 0)
		printf("operations: mean %.1f nanoseconds, variance %.1f "
		    "nanoseconds^2\n", r->op_mean_ns, r->op_var_ns);
	if (r->nop > 0 && r->op_cycles != NULL)
		printf("percentiles: min %.1f p50 %.1f p90 %.1f p99 %.1f "
		    "p99.9 %.1f max %.1f cycles, mean %.1f variance %.1f "
		    "(%zu operations)\n", r->op_cycles[0],
		    bm_percentile(r->op_cycles, r->nop, 50),
		    bm_percentile(r->op_cycles, r->nop, 90),
		    bm_percentile(r->op_cycles, r->nop, 99),
		    bm_percentile(r->op_cycles, r->nop, 99.9),
		    r->op_cycles[r->nop - 1], r->op_mean_cycles,
		    r->op_var_cycles, r->nop);
}

/*
 * Send records to a file or zmq sink, one write per record: the text
 * holds one or (under MPI) several lines.
 */
static void
tool_report_sink(struct tool *t, const char *json)
{
	const char *p = json, *nl;
	int rc;

	for (; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p) - 1;
		if ((rc = bm_sink_write(t->ctx, t->sink, p,
		    (size_t)(nl - p) + 1)) != 0)
			tool_exit_lib(t, rc, NULL);
	}
}

/*
 * One line on standard error when a figure is flagged by its tool: its
 * processes disagreed (with their spread), it contradicts what the
 * machine states (both numbers and where the machine's comes from), or
 * the machine moves it between runs (why).
 */
static void
tool_report_warn(const struct tool *t, const bm_record *rec)
{
	const char *unit = rec->unit != NULL ? rec->unit : "";
	const char *unsteady = bm_record_unsteady_why(rec);
	double lo, hi;
	size_t i;

	if (rec->agreement != BM_AGREEMENT_DISAGREE &&
	    rec->ncontradicts == 0 && unsteady == NULL)
		return;
	fprintf(stderr, "%s: warning: %s %s", t->name,
	    rec->case_name != NULL ? rec->case_name : "", rec->metric != NULL ?
	    rec->metric : "");
	/* Which figure of a sweep: its first two parameters. */
	for (i = 0; i < rec->nparams && i < 2; i++) {
		fprintf(stderr, "%s%s ", i == 0 ? " (" : ", ",
		    rec->params[i].key);
		if (rec->params[i].str != NULL)
			fputs(rec->params[i].str, stderr);
		else
			fprintf(stderr, "%.10g", rec->params[i].num);
	}
	fputs(i > 0 ? ")" : "", stderr);
	if (rec->agreement == BM_AGREEMENT_DISAGREE) {
		fprintf(stderr, ": the processes disagree");
		if (rec->nanswers > 0 && bm_agree(rec->answers, rec->nanswers,
		    0, &lo, &hi) >= 0) {
			/* "none": a process that could not tell. */
			fprintf(stderr, " (");
			for (i = 0; i < rec->nanswers; i++) {
				fputs(i > 0 ? ", " : "", stderr);
				if (isfinite(rec->answers[i]))
					fprintf(stderr, "%.4g", rec->answers[i]);
				else
					fputs("none", stderr);
			}
			fprintf(stderr, " %s", unit);
			if (isfinite(lo))
				fprintf(stderr, "; %.4g to %.4g", lo, hi);
			fputs(")", stderr);
		}
	}
	for (i = 0; i < rec->ncontradicts; i++) {
		const bm_contradiction *c = &rec->contradicts[i];

		fprintf(stderr, "%s %s %.4g %s against %.4g (%s)",
		    i > 0 || rec->agreement == BM_AGREEMENT_DISAGREE ? ";" : ":",
		    c->what, c->measured, c->unit != NULL ? c->unit : "",
		    c->machine, c->source != NULL ? c->source : "");
	}
	if (unsteady != NULL)
		fprintf(stderr, "%s %s", rec->ncontradicts > 0 ||
		    rec->agreement == BM_AGREEMENT_DISAGREE ? ";" : ":",
		    unsteady);
	fprintf(stderr, "; the figure is flagged noisy\n");
}

/*
 * Once per run, one line on standard error when a decided record says
 * that the overheads given by TIMING_O or LOOP_O make a large share of
 * its intervals ("overhead_flagged", with the share it writes): the
 * figure then moves with the values given, in silence otherwise, as a
 * value exported on another machine made it do.
 */
static void
tool_report_overhead(struct tool *t, const bm_decision *d)
{
	bm_calibration cal;
	double share;

	if (t->overhead_warned || !bm_decision_overhead(d, &share))
		return;
	t->overhead_warned = 1;
	if (bm_calibrate(t->ctx, &cal) != 0)
		return;
	fprintf(stderr, "%s: warning: the overheads given", t->name);
	if (cal.from_env & BM_CAL_TIMING_O)
		fprintf(stderr, " TIMING_O=%g us", cal.timing_o_us);
	if ((cal.from_env & BM_CAL_TIMING_O) && (cal.from_env & BM_CAL_LOOP_O))
		fputs(" and", stderr);
	if (cal.from_env & BM_CAL_LOOP_O)
		fprintf(stderr, " LOOP_O=%g us", cal.loop_o_us);
	if (isfinite(share))
		fprintf(stderr, " make %.0f%% of the measured intervals",
		    100 * share);
	fprintf(stderr, " (more than 25%%): the figures move with them and "
	    "are flagged noisy; unset them to have them measured\n");
}

/* Whether a classic line is one number and its newline (mhz -c's). */
static int
tool_line_number(const char *line)
{
	char *end;

	(void)strtod(line, &end);
	return end != line && strcmp(end, "\n") == 0;
}

/*
 * Print a classic line; when its figure is noisy, with a warning at its
 * end that keeps lmbench's fields where they were: " (noisy +-12%)", the
 * reach of the figure's interval from it.  A line that is one number
 * (mhz -c) is what scripts read: it stays one number, and the warning
 * goes to stderr.
 */
static void
tool_report_line_out(const bm_record *rec, const bm_decision *d,
    const char *line)
{
	size_t len = strlen(line);
	double lo, hi, reach;
	char warn[48];
	int noisy;

	if (len == 0 || line[len - 1] != '\n' ||
	    bm_decision_interval(d, &lo, &hi, &noisy) != 0 || !noisy) {
		fputs(line, stdout);
		return;
	}
	reach = NAN;
	if (rec->value != 0 && isfinite(lo) && isfinite(hi))
		reach = fmax(fabs(hi - rec->value), fabs(rec->value - lo)) /
		    fabs(rec->value);
	if (isfinite(reach))
		snprintf(warn, sizeof warn, "noisy +-%.0f%%",
		    reach * 100 < 1 ? 1 : reach * 100);
	else
		snprintf(warn, sizeof warn, "noisy");
	if (tool_line_number(line)) {
		fputs(line, stdout);
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", rec->tool, warn);
	} else {
		printf("%.*s (%s)\n", (int)(len - 1), line, warn);
	}
}

/*
 * The record to report: rec itself, or its copy in *copy with the given
 * overheads this machine contradicts (tool-probe.c) added to its own
 * contradictions, in *all (the caller frees it), which flags it noisy.
 */
static const bm_record *
tool_report_probed(const struct tool *t, const bm_record *rec,
    bm_record *copy, bm_contradiction **all)
{
	size_t n;

	*all = NULL;
	if (t->nprobe_off == 0)
		return rec;
	n = rec->ncontradicts + t->nprobe_off;
	if ((*all = calloc(n, sizeof **all)) == NULL)
		tool_exit_fail(t, "formatting the record: %s", strerror(errno));
	if (rec->ncontradicts > 0)
		memcpy(*all, rec->contradicts, rec->ncontradicts * sizeof **all);
	memcpy(*all + rec->ncontradicts, t->probe_off,
	    t->nprobe_off * sizeof **all);
	*copy = *rec;
	(void)bm_record_contradicts(copy, *all, n);
	return copy;
}

/*
 * Print the classic line or the record, and send the record to the sink;
 * the stderr line of a flagged figure names its own judgement only (the
 * probe said once what it found).  The record is decided once
 * (bm_record_decide): its JSON, its line's noisy mark and the overhead
 * warning all read that decision.
 */
void
tool_report(struct tool *t, const bm_record *given, const char *line)
{
	int to_stdout = t->json || bm_sink_is_stdout(t->sink);
	bm_contradiction *all;
	const bm_record *rec;
	bm_decision *d;
	bm_record copy;
	char *json = NULL;
	int rc;

	rec = tool_report_probed(t, given, &copy, &all);
	if ((rc = bm_record_decide(t->ctx, rec, &d)) != 0)
		tool_exit_lib(t, rc, "formatting the record");

	if (cluster_active()) {
		if (!tool_cluster_records(t, rec, &json)) {
			bm_decision_free(d);
			free(all);
			return;
		}
	} else if ((rc = bm_decision_json(d, &json)) != 0)
		tool_exit_lib(t, rc, "formatting the record");
	if (t->sink != NULL && !bm_sink_is_stdout(t->sink))
		tool_report_sink(t, json);
	if (to_stdout)
		fputs(json, stdout);
	else
		tool_report_line_out(rec, d, line);
	if (!to_stdout)
		tool_report_extra(rec->result);
	if (fflush(stdout) != 0)
		tool_exit_fail(t, "writing the result: %s", strerror(errno));
	tool_report_warn(t, given);
	tool_report_overhead(t, d);
	bm_decision_free(d);
	free(json);
	free(all);
}

/*
 * Report a record whose classic line shows its value: aggregate it across
 * MPI ranks, then print prefix, the value with digits decimals and suffix.
 */
void
tool_report_value(struct tool *t, bm_record *rec, const char *prefix,
    int digits, const char *suffix)
{
	char *line;
	int len;

	tool_cluster_aggregate(t, rec);
	len = snprintf(NULL, 0, "%s%.*f%s\n", prefix, digits, rec->value,
	    suffix);
	if (len < 0 || (line = malloc((size_t)len + 1)) == NULL)
		tool_exit_fail(t, "formatting the result: %s", strerror(errno));
	snprintf(line, (size_t)len + 1, "%s%.*f%s\n", prefix, digits,
	    rec->value, suffix);
	tool_report(t, rec, line);
	free(line);
}

/*
 * Report a record whose classic line shows figures other than its value
 * alone: aggregate it across MPI ranks (its value, and its measured
 * numbers on rank 0), then let fn format the line from the aggregated
 * record, and tool_report() it.
 */
void
tool_report_line(struct tool *t, bm_record *rec, tool_line_fn fn,
    const void *cookie)
{
	char line[TOOL_LINE_MAX];

	tool_cluster_aggregate(t, rec);
	line[0] = '\0';
	fn(rec, cookie, line, sizeof line);
	tool_report(t, rec, line);
}

/* Report a latency in microseconds per operation, with its classic line. */
void
tool_report_us(struct tool *t, const char *case_name, const bm_param *params,
    size_t nparams, const bm_result *r, const char *label)
{
	char prefix[256];
	bm_record rec;

	tool_record_us(&rec, t, case_name, params, nparams, r);
	snprintf(prefix, sizeof prefix, "%s: ", label);
	tool_report_value(t, &rec, prefix, 4, " microseconds");
}
