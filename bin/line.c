/* line.c: the cache line size, measured by chasing with growing strides. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/mem.h"
#include "common/progress.h"
#include "common/sweep.h"

/* The strides tried: 8 bytes to LINE_MAX_STRIDE, doubling. */
#define LINE_MIN_STRIDE 8
#define LINE_MAX_STRIDE 512
/* How many: 8, 16, ... 512. */
#define LINE_NSTRIDES 7
/* Loads per group: every stride makes as many loads per group. */
#define LINE_GROUP 8
/*
 * The shortest interval, whatever ENOUGH says: shorter ones let the
 * answer flip from run to run (doc/measurements.md, "line: the
 * interval").
 */
#define LINE_MIN_ENOUGH_US MEM_ENOUGH_US

/* The most processes whose curves are read one by one. */
#define LINE_MAX_PROCS 64

/* Lay out the random chase at this stride, on huge pages. */
static void
line_chase(struct mem_chase *c, size_t len, size_t stride)
{
	memset(c, 0, sizeof *c);
	c->size = len;
	c->stride = stride;
	c->page = LINE_GROUP * stride;
	c->order = MEM_ORDER_RANDOM;
	c->k = 1;
	c->pages = 1;
}

/* Run the random chase at this stride: its result, every round's median. */
static void
line_measure(struct tool *t, size_t len, size_t stride, bm_result *r)
{
	struct mem_chase c;

	line_chase(&c, len, stride);
	mem_chase_measure(t, &c, r);
}

/*
 * Served by a scheduler, every stride as one group (mem_chase_group): one
 * set of workers maps the buffer once and chases each stride over it,
 * where a set a stride mapped and faulted the whole buffer again (the
 * suite's line took 3.4-3.9 s on seven sets, 2.2-2.4 s on one, on a
 * 2-vCPU AMD EPYC KVM guest, 2026-12-04, doc/measurements.md, "2026-12-04,
 * from 14:10 UTC: a chase's set-up on the EPYC guest").  Each process's
 * curve then comes from one process.  Returns
 * how many strides, their results in res and medians in lat, the stride
 * after the last in *next.
 */
static unsigned
line_group(struct tool *t, size_t len, bm_result *res, double *lat,
    struct sweep *sw, struct progress *prog, size_t *next)
{
	struct mem_chase c[LINE_NSTRIDES];
	unsigned i;
	int hit = 0;

	progress_show(prog, "%u strides", LINE_NSTRIDES);
	*next = (size_t)LINE_MAX_STRIDE * 2;
	for (i = 0; i < LINE_NSTRIDES; i++)
		line_chase(&c[i], len, (size_t)LINE_MIN_STRIDE << i);
	mem_chase_group(t, c, LINE_NSTRIDES, 0, res);
	for (i = 0; i < LINE_NSTRIDES; i++) {
		lat[i] = res[i].per_op_ns.median;
		hit = hit || res[i].budget_hit;
	}
	(void)sweep_group(sw, LINE_NSTRIDES, hit);
	return LINE_NSTRIDES;
}

/*
 * Each process's answer: round p of every stride (each a fresh process)
 * makes one curve, read as the median curve is (mem_rules_line_knee); NAN
 * where that curve is not clear.  Returns how many answers.
 */
static size_t
line_answers(const bm_result *res, size_t n, double *answers)
{
	double curve[LINE_NSTRIDES], cost;
	size_t i, k, p, np = LINE_MAX_PROCS;

	for (i = 0; i < n; i++)
		if (res[i].processes < np)
			np = res[i].processes;
	for (p = 0; p < np; p++) {
		for (i = 0; i < n; i++)
			curve[i] = res[i].process_ns != NULL ?
			    res[i].process_ns[p] : (double)NAN;
		answers[p] = mem_rules_line_knee(curve, n, &k, &cost) ?
		    (double)((size_t)LINE_MIN_STRIDE << k) : (double)NAN;
	}
	return np;
}

/*
 * Whether no process measured a line: every process's curve shows no
 * knee (or, with no process's curve, the median curve shows none).  A
 * figure no process measured is not a figure: the median curve of
 * three unclear ones printed "64 (noisy)" as if measured.
 */
static int
line_none(const double *answers, size_t np, int median_clear)
{
	size_t p;

	for (p = 0; p < np; p++)
		if (isfinite(answers[p]))
			return 0;
	return np > 0 || !median_clear;
}

/*
 * Report a line not found: the record (value null, the reason in
 * measured, each process's null answer) to the sink or --json, and the
 * message with what the machine states, as such; exit 1.
 */
static int
line_not_found(struct tool *t, bm_record *rec, const struct mem_topo *tp,
    double *answers, size_t np, bm_param *found5, bm_param *measured,
    const struct sweep *sw, size_t next)
{
	const char *stated = mem_rules_topo_stated(tp);
	bm_result ar;

	/* Each process's null answer; no samples, no figure. */
	memset(&ar, 0, sizeof ar);
	ar.parallel = 1;
	ar.repetitions = 1;
	ar.cycles_per_op = (double)NAN;
	ar.budget_hit = sw->hit;
	rec->result = &ar;
	rec->value = (double)NAN;
	rec->agreement = BM_AGREEMENT_AGREE;
	rec->answers = answers;
	rec->nanswers = np;
	/* The reason where the rise into the line would be. */
	found5[2] = (bm_param){ .key = "reason",
	    .str = "no process's curve shows a knee" };
	found5[3].num = (double)NAN;
	rec->measured = measured;
	rec->nmeasured = sweep_measured(found5, 5, measured, 8, sw,
	    (double)next);
	tool_report(t, rec, "");
	fprintf(stderr, "line: the line size was not found: %s%zu process%s "
	    "curve%s show%s no knee", np > 1 ? "all " : "", np,
	    np == 1 ? "'s" : "es'", np == 1 ? "" : "s", np == 1 ? "s" : "");
	if (stated != NULL && tp->line > 0)
		fprintf(stderr, " (%s states %zu bytes, not measured here)",
		    strcmp(stated, "sysfs") == 0 ?
		    "sysfs coherency_line_size" : "sysconf", (size_t)tp->line);
	fputc('\n', stderr);
	(void)tool_finish(t);
	return 1;
}

/*
 * Chase through a buffer beyond the caches with strides from 8 bytes up,
 * the lines of each group of eight loads in random order.  Below the
 * line size several loads share a line and all but the first hit; from
 * the line size on, every load misses.  The line is the knee of the
 * curve (mem_rules_line_knee): the stride after which doubling the stride no
 * longer doubles the latency.  Every process's curve is read apart and
 * the figure stands only if all give it; a line other than the one the
 * machine states is flagged with both.
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
	double lat[LINE_NSTRIDES], answers[LINE_MAX_PROCS], cost, agreed;
	static bm_result res[LINE_NSTRIDES], ar;	/* off a 32 KB stack */
	struct mem_topo tp;
	struct mem_sweep_opts o = { 0, 0, 64 * 1024 };
	bm_param params[1], found5[5], measured[8];
	bm_contradiction c[1];
	bm_record rec;
	size_t s, found, k, np, nc = 0;
	unsigned i, n = 0;
	struct progress prog;
	struct sweep sw;
	int rc, have_ar, clear, more = 1;

	memset(res, 0, sizeof res);
	mem_sweep_parse(&t, argc, argv, "M:", &o, &tp);
	if (o.len == 0)
		o.len = mem_topo_size(&tp, 2, (size_t)16 << 20,
		    (size_t)256 << 20);
	tool_setup(&t);
	mem_sweep_options(&t);
	tool_min_enough(&t, LINE_MIN_ENOUGH_US);
	mem_topo_precheck(&t, (size_t)o.len);
	progress_start(&prog, &t);
	sweep_begin(&sw, "strides", LINE_NSTRIDES);
	s = LINE_MIN_STRIDE;
	if (tool_served_inside())
		n = line_group(&t, (size_t)o.len, res, lat, &sw, &prog, &s);
	for (; more && s <= LINE_MAX_STRIDE; s *= 2) {
		progress_show(&prog, "stride %zu bytes (%u/%u)", s, n + 1,
		    LINE_NSTRIDES);
		line_measure(&t, (size_t)o.len, s, &res[n]);
		lat[n] = res[n].per_op_ns.median;
		more = sweep_point(&t, &sw, res[n].budget_hit);
		n++;
	}
	progress_clear(&prog);
	if (sw.cut) {
		char from[32];

		snprintf(from, sizeof from, "stride %zu", s);
		sweep_say(&t, &sw, from);
		if (n < 2)
			tool_exit_fail(&t,
			    "the time bound (--max-time %.2f s) left "
			    "one stride measured: no knee", t.max_time_s);
	}
	t.budget_hit = sw.hit;
	np = line_answers(res, n, answers);
	for (i = 0; i < n; i++)
		bm_result_free(&res[i]);
	/* The median curve's knee, unless every process gave one answer. */
	clear = mem_rules_line_knee(lat, n, &k, &cost);
	found = (size_t)LINE_MIN_STRIDE << k;
	if (np > 0 && bm_agree(answers, np, 0, &agreed, NULL) == 1)
		found = (size_t)agreed;
	for (k = 0; k < n && ((size_t)LINE_MIN_STRIDE << k) < found; k++)
		;

	params[0] = (bm_param){ .key = "len", .num = (double)o.len };
	found5[0] = (bm_param){ .key = "reported", .num = (double)tp.line };
	found5[1] = (bm_param){ .key = "topology", .str = tp.source };
	/* The rise into the line, and how far the curve is from a knee. */
	found5[2] = (bm_param){ .key = "jump",
	    .num = k > 0 && k < n ? lat[k] / lat[k - 1] : (double)NAN };
	found5[3] = (bm_param){ .key = "line_ns",
	    .num = k < n ? lat[k] : (double)NAN };
	found5[4] = (bm_param){ .key = "knee_cost", .num = cost };
	tool_record_figure(&rec, &t, "line", "size", "bytes", BM_BETTER_NONE,
	    (double)found);
	rec.params = params;
	rec.nparams = 1;
	if (line_none(answers, np, clear))
		return line_not_found(&t, &rec, &tp, answers, np, found5,
		    measured, &sw, s);
	/* Each process's answer is a sample of the record: their spread. */
	have_ar = mem_rules_answers_result(answers, np, &ar) == 0;
	if (have_ar) {
		ar.budget_hit = sw.hit;
		rec.result = &ar;
		rec.scale = 1;
	}
	if ((rc = bm_record_agreement(&rec, answers, np, 0)) < 0)
		tool_exit_lib(&t, rc, "judging the processes' answers");
	if (mem_rules_topo_stated(&tp) != NULL &&
	    (rc = bm_contradiction_check(&c[nc], "line size", (double)found,
	    (double)tp.line, 1, 1,
	    strcmp(tp.source, "sysfs") == 0 ? "sysfs coherency_line_size" :
	    "sysconf line size", "bytes")) != 0) {
		if (rc < 0)
			tool_exit_lib(&t, rc, "checking the line size");
		nc++;
	}
	(void)bm_record_contradicts(&rec, c, nc);
	rec.measured = measured;
	rec.nmeasured = sweep_measured(found5, 5, measured, 8, &sw,
	    (double)s);
	mem_report_derived(&t, &rec, mem_report_line_whole, NULL);
	if (have_ar)
		bm_result_free(&ar);
	return tool_finish(&t);
}
