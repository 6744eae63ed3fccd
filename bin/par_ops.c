/* par_ops.c: how many basic operations a core overlaps, as lmbench. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/measure.h"
#include "common/ops.h"
#include "common/sweep.h"

/*
 * A kernel runs K independent dependent chains interleaved: each block
 * has PAR_REPS times, for every chain, the step A then the step B, so
 * 2 * PAR_REPS * K operations.  With K = 1 a block takes the latency of
 * each operation; with more chains the core overlaps them until its units
 * are full.  The parallelism is the time per operation of one chain (the
 * better of a run before and a run after the others) over the best time
 * per operation of K chains.
 */
#define PAR_REPS 16
#define PAR_MAX_CHAINS 8
/* Stop adding chains this many past the best so far. */
#define PAR_PATIENCE 2

/* Warm-up of every run after the first when -W is not given, in us. */
#define PAR_NEXT_WARMUP_US 5000
/* The interval when ENOUGH is not set, in us. */
#define PAR_MIN_ENOUGH_US 2000
/* The intervals per run when -N is not given. */
#define PAR_REPETITIONS 5
/*
 * A served operation's search: PAR_SEARCH_PASSES passes over the counts
 * of chains, the intervals of each count in a pass, and the warmup in us
 * before each count of the first pass (the options' 50 ms before each of
 * 8 counts made a suite's 16 searches take 7.1 s; the later passes need
 * none, and with none three passes of one interval cost what one pass of
 * five did).  A count keeps its fastest interval of all passes: a
 * stretch of a slow host slows every count of the pass it falls in, not
 * only the counts after it.  One pass of five intervals a count picked
 * too few chains in 2 of 144 searches of three sets of standard suites on
 * a 2-vCPU Intel Xeon KVM guest, 2026-12-05 (integer add 2.96 where the
 * other runs read 4.64; doc/measurements.md, "2026-12-05, from 12:38
 * UTC: the Xeon guest again, overheads vouched for, par_ops's search").
 */
#define PAR_SEARCH_PASSES 3
#define PAR_SEARCH_REPS 1
#define PAR_SEARCH_WARMUP_US 1000

#define REP4(s) s s s s
#define REP16(s) REP4(REP4(s))

/* A step on each of the first K chains. */
#define CH1(S) S(x0)
#define CH2(S) CH1(S) S(x1)
#define CH3(S) CH2(S) S(x2)
#define CH4(S) CH3(S) S(x3)
#define CH5(S) CH4(S) S(x4)
#define CH6(S) CH5(S) S(x5)
#define CH7(S) CH6(S) S(x6)
#define CH8(S) CH7(S) S(x7)

/* The steps, on chain v with the operands y and z. */
#define I_XOR_Y(v) v ^= y; KEEP_I(v);
#define I_XOR_Z(v) v ^= z; KEEP_I(v);
#define I_ADD_Y(v) v += y; KEEP_I(v);
#define I_ADD_Z(v) v += z; KEEP_I(v);
#define I_MUL_Y(v) v *= y; KEEP_I(v);
#define I_MUL_Z(v) v *= z; KEEP_I(v);
#define I_DIV(v) v = y / v; KEEP_I(v);
#define I_MOD(v) v = y % v + z; KEEP_I(v);
#define F_ADD_Y(v) v += y; KEEP_F(v);
#define F_ADD_Z(v) v += z; KEEP_F(v);
#define F_MUL_Y(v) v *= y; KEEP_F(v);
#define F_MUL_Z(v) v *= z; KEEP_F(v);
#define F_DIV_Y(v) v /= y; KEEP_F(v);
#define F_DIV_Z(v) v /= z; KEEP_F(v);

/* Where the chains' results go, so no chain is dead code. */
static volatile double par_sink;

/*
 * Define a benchmark of K chains of type T, starting at X, X + D, ...,
 * doing A then B with the operands Y and Z.
 */
#define PAR_KERNEL(fn, K, T, X, D, Y, Z, A, B)				\
static int								\
fn##_##K(bm_iter_t n, void *cookie)					\
{									\
	const struct ops_state *s = cookie;				\
	T y = s->Y, z = s->Z;						\
	T x0 = s->X, x1 = x0 + (D), x2 = x1 + (D), x3 = x2 + (D);	\
	T x4 = x3 + (D), x5 = x4 + (D), x6 = x5 + (D), x7 = x6 + (D);	\
									\
	(void)z;							\
	while (n-- > 0) {						\
		REP16(CH##K(A) CH##K(B))				\
	}								\
	par_sink = (double)x0 + (double)x1 + (double)x2 + (double)x3 +	\
	    (double)x4 + (double)x5 + (double)x6 + (double)x7;		\
	return 0;							\
}

/* Define the kernels of 1 to 8 chains and their table fn[]. */
#define PAR_OP(fn, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 1, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 2, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 3, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 4, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 5, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 6, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 7, T, X, D, Y, Z, A, B)					\
PAR_KERNEL(fn, 8, T, X, D, Y, Z, A, B)					\
static const bm_fn fn[PAR_MAX_CHAINS] = {				\
	fn##_1, fn##_2, fn##_3, fn##_4, fn##_5, fn##_6, fn##_7, fn##_8	\
};

/* The chains of lat_ops, with the same operands. */
PAR_OP(par_int_bit, uint32_t, u_x, 1, u_y, u_z, I_XOR_Y, I_XOR_Z)
PAR_OP(par_int_add, uint32_t, u_x, 1, u_y, u_z, I_ADD_Y, I_ADD_Z)
PAR_OP(par_int_mul, uint32_t, u_x, 2, u_y, u_z, I_MUL_Y, I_MUL_Z)
PAR_OP(par_int_div, int32_t, i_x, 1, i_k, i_m, I_DIV, I_DIV)
PAR_OP(par_int_mod, int32_t, i_x, 1, i_k, i_m, I_MOD, I_MOD)
PAR_OP(par_i64_bit, uint64_t, l_x, 1, l_y, l_z, I_XOR_Y, I_XOR_Z)
PAR_OP(par_i64_add, uint64_t, l_x, 1, l_y, l_z, I_ADD_Y, I_ADD_Z)
PAR_OP(par_i64_mul, uint64_t, l_x, 2, l_y, l_z, I_MUL_Y, I_MUL_Z)
PAR_OP(par_i64_div, int64_t, q_x, 1, q_k, q_m, I_DIV, I_DIV)
PAR_OP(par_i64_mod, int64_t, q_x, 1, q_k, q_m, I_MOD, I_MOD)
PAR_OP(par_flt_add, float, f_x, 0.015625f, f_a, f_b, F_ADD_Y, F_ADD_Z)
PAR_OP(par_flt_mul, float, f_x, 0.015625f, f_y, f_z, F_MUL_Y, F_MUL_Z)
PAR_OP(par_flt_div, float, f_x, 0.015625f, f_y, f_z, F_DIV_Y, F_DIV_Z)
PAR_OP(par_dbl_add, double, d_x, 0.015625, d_a, d_b, F_ADD_Y, F_ADD_Z)
PAR_OP(par_dbl_mul, double, d_x, 0.015625, d_y, d_z, F_MUL_Y, F_MUL_Z)
PAR_OP(par_dbl_div, double, d_x, 0.015625, d_y, d_z, F_DIV_Y, F_DIV_Z)

/* Each operation's kernels, in the order of ops_cases[] (its labels). */
static const bm_fn *const par_fns[OPS_NCASES] = {
	par_int_bit, par_int_add, par_int_mul, par_int_div,
	par_int_mod, par_i64_bit, par_i64_add, par_i64_mul,
	par_i64_div, par_i64_mod, par_flt_add, par_flt_mul,
	par_flt_div, par_dbl_add, par_dbl_mul, par_dbl_div,
};

/*
 * Time one kernel of k chains, its rounds within an even share of what is
 * left of the operation's time (before op_end, 0 none) among the n runs
 * its search may still make; return ns per operation, keeping r.
 */
static double
par_time(struct tool *t, bm_fn fn, unsigned k, struct ops_state *s,
    bm_result *r, uint64_t op_end, unsigned n)
{
	bm_bench b;

	t->part_end_ns = tool_share_end(t, op_end, n);
	b.initialize = NULL;
	b.benchmark = fn;
	b.cleanup = NULL;
	b.cookie = s;
	tool_run(t, &b, r);
	tool_later_warmup(t, PAR_NEXT_WARMUP_US);
	return r->per_op_ns.median / (2.0 * PAR_REPS * k);
}

/* The runs operation i's search may still make before chains k. */
static unsigned
par_runs_left(unsigned k, unsigned best_k)
{
	unsigned last = best_k + PAR_PATIENCE;

	if (last > PAR_MAX_CHAINS)
		last = PAR_MAX_CHAINS;
	/* Chains k to last, and one chain again. */
	return (k <= last ? last - k + 1 : 0) + 1;
}

/*
 * Time operation i with 1, 2, ... chains (while more keep helping) and
 * one chain again, within its share of the time bound (before op_end, 0
 * none); the best run goes to best, its chains to *best_k, its time to
 * *best_ns.  Returns one chain's best time.
 */
static double
par_search(struct tool *t, size_t i, struct ops_state *s, bm_result *best,
    unsigned *best_k, double *best_ns, uint64_t op_end)
{
	bm_result r;
	double lat, ns;
	unsigned k;

	lat = *best_ns = par_time(t, par_fns[i][0], 1, s, best, op_end,
	    par_runs_left(1, 1));
	*best_k = 1;
	for (k = 2; k <= PAR_MAX_CHAINS && k <= *best_k + PAR_PATIENCE; k++) {
		ns = par_time(t, par_fns[i][k - 1], k, s, &r, op_end,
		    par_runs_left(k, *best_k));
		if (ns < *best_ns) {
			bm_result_free(best);
			*best = r;
			*best_ns = ns;
			*best_k = k;
		} else
			bm_result_free(&r);
	}
	/* A second look at one chain, in case the first was hit. */
	ns = par_time(t, par_fns[i][0], 1, s, &r, op_end, 1);
	if (ns < lat)
		lat = ns;
	if (*best_k == 1 && ns < *best_ns) {
		bm_result_free(best);
		*best = r;
		*best_ns = ns;
	} else
		bm_result_free(&r);
	return lat;
}

/*
 * Served (a scheduler's visits spread over its budget), operation i is
 * two figures: one chain, a part with the fewest visits, then the chains
 * that did best in a search made first in this process, which is not
 * served (bm_measure), visited across the rest of the budget.  The best
 * run goes to best, its chains to *best_k, its time to *best_ns; returns
 * one chain's time.
 */
static double
par_served(struct tool *t, size_t i, struct ops_state *s, bm_result *best,
    unsigned *best_k, double *best_ns)
{
	bm_measurement m;
	bm_options o = t->opts;
	bm_result r;
	double lat, fastest[PAR_MAX_CHAINS] = { 0 };
	unsigned k, pass;
	int rc;

	o.parallel = 1;
	o.repetitions = PAR_SEARCH_REPS;
	o.warmup_us = PAR_SEARCH_WARMUP_US;
	o.percentiles = 0;
	for (pass = 0; pass < PAR_SEARCH_PASSES; pass++) {
		/* The first pass warmed the core up for the others. */
		if (pass > 0)
			o.warmup_us = 0;
		for (k = 1; k <= PAR_MAX_CHAINS; k++) {
			if ((rc = bm_measure_base(t->ctx, par_fns[i][k - 1], s,
			    2 * PAR_REPS * k, &o, &m)) != 0)
				tool_exit_lib(t, rc, "searching the chains");
			if (pass == 0 || m.result.per_op_ns.min < fastest[k - 1])
				fastest[k - 1] = m.result.per_op_ns.min;
			bm_result_free(&m.result);
		}
	}
	*best_k = 1;
	for (k = 2; k <= PAR_MAX_CHAINS; k++)
		if (fastest[k - 1] < fastest[*best_k - 1])
			*best_k = k;
	lat = par_time(t, par_fns[i][0], 1, s, &r, 0, 1);
	*best_ns = par_time(t, par_fns[i][*best_k - 1], *best_k, s, best, 0,
	    1);
	/* One chain its own best: the better of its two, a parallelism of 1. */
	if (*best_k == 1)
		lat = *best_ns = lat < *best_ns ? lat : *best_ns;
	bm_result_free(&r);
	return lat;
}

/* The operation measured after operation i (a cut sweep has one). */
static size_t
par_next(const unsigned char *want, size_t i)
{
	while (++i < OPS_NCASES - 1 && !want[i])
		;
	return i;
}

/* --served: two figures an operation, one chain a part when one alone. */
static unsigned
par_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	size_t n = ops_count(t, ops, nops, OPS_NCASES);

	(void)cookie;
	*parts = n == 1;
	return 2 * (unsigned)n;
}

/* Measure every operation's parallelism and print one line for each. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "par_ops", .args = "[OP ...]",
	    .served_figures = par_served_figures };
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct ops_state s;
	static bm_result best;
	bm_record rec;
	bm_param param[4];
	char line[128];
	double lat, best_ns;
	unsigned best_k;
	unsigned char want[OPS_NCASES];
	size_t i, n;
	struct sweep sw;
	int more = 1, served;

	n = ops_setup(&t, argc, argv, PAR_MIN_ENOUGH_US, &s, want,
	    OPS_NCASES);
	served = tool_served_inside();
	/* About ten runs per operation: fewer intervals each unless -N. */
	if (t.opts.repetitions == BM_DEFAULT_REPETITIONS)
		t.opts.repetitions = PAR_REPETITIONS;
	/* The plan: the operations, each searched over at most 8 chains. */
	sweep_begin(&sw, "operations", (unsigned)n);
	/*
	 * Each operation gets an even share of what is left of the bound,
	 * so that a bound too short for every round of all 16 cuts rounds
	 * of each rather than the last operations (a suite's 2 s measured 3
	 * to 6 of them): see TIME BOUND in par_ops(8).  An operation so fits
	 * what is left, so the sweep stops before one only when what is
	 * left is shorter than the shortest so far.
	 */
	sw.fits = 1;
	for (i = 0; more && i < OPS_NCASES; i++) {
		if (!want[i])
			continue;
		if (served)
			lat = par_served(&t, i, &s, &best, &best_k, &best_ns);
		else
			lat = par_search(&t, i, &s, &best, &best_k, &best_ns,
			    tool_share_end(&t, 0, (unsigned)(n - sw.done)));
		/* The last operation of a cut run says so, and what is missing. */
		more = sweep_point(&t, &sw, best.budget_hit);
		if (sw.cut)
			best.budget_hit = 1;
		if (!(best_ns > 0))
			tool_exit_fail(&t, "%s: the chains took no time",
			    ops_cases[i].label);
		param[0] = (bm_param){ .key = "chains", .num = best_k };
		tool_record_figure(&rec, &t, ops_cases[i].label,
		    "parallelism", "ops", BM_BETTER_HIGHER, lat / best_ns);
		tool_record_per_ns(&rec, &best, lat * 2.0 * PAR_REPS * best_k);
		rec.measured = param;
		rec.nmeasured = 1;
		if (sw.cut) {
			param[1] = (bm_param){ .key = "points",
			    .num = (double)sw.done };
			param[2] = (bm_param){ .key = "points_planned",
			    .num = (double)sw.planned };
			param[3] = (bm_param){ .key = "missing_from",
			    .str = ops_cases[par_next(want, i)].label };
			rec.nmeasured = 4;
		}
		snprintf(line, sizeof line, "%s parallelism: ",
		    ops_cases[i].label);
		tool_report_value(&t, &rec, line, 2, "");
		bm_result_free(&best);
	}
	t.part_end_ns = 0;
	if (sw.cut)
		sweep_say(&t, &sw, ops_cases[par_next(want, i - 1)].label);
	return tool_finish(&t);
}
