/* mhz.c: the clock rate the processor really runs at, as lmbench's mhz. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/timers.h"
#include "common/cluster.h"
#include "common/ops.h"

/*
 * The clock is timed by a dependent chain of integer adds, one cycle each
 * on every current core: lat_ops' "integer add" chain itself, so the two
 * tools agree.  One benchmark operation is OPS_BLOCK adds.
 */

/* The interval when ENOUGH is not set, in us: short, to answer within 1 s. */
#define MHZ_ENOUGH_US 2000

/*
 * The shortest interval mhz accepts from ENOUGH, in us.  Shorter ones
 * (ENOUGH=1) are dominated by reading the CPU-time clock and by where the
 * interval falls against the scheduler's tick (doc/measurements.md, "mhz:
 * the shortest interval").
 */
#define MHZ_MIN_ENOUGH_US 1000

/*
 * The timer when neither --timer nor BENCHMP_TIMER chooses one: the
 * thread's CPU time, so time the worker spends off the CPU on a busy
 * machine does not pass for slow cycles.
 */
#define MHZ_TIMER "clock=posix-thread-cputime,posix-monotonic"

/*
 * Runs of the chain: interference (another hardware thread on the core,
 * a stolen CPU) only ever slows it, so the fastest run is kept.  Another
 * run starts only while the runs so far took less than MHZ_BUDGET_S.
 */
#define MHZ_RUNS 3
#define MHZ_BUDGET_S 0.4
/* Warm-up of the runs after the first when -W is not given, in us. */
#define MHZ_NEXT_WARMUP_US 2000

/* -d and -c. */
struct mhz_opts {
	int debug;		/* -d */
	int cycle_only;		/* -c */
};

/*
 * Format mhz's line from the aggregated record: its value rounded to a
 * whole MHz (across MPI ranks the median of every rank's rounds).
 */
static void
mhz_line(const bm_record *rec, const void *cookie, char *line, size_t len)
{
	const struct mhz_opts *o = cookie;
	long mhz = lround(rec->value);

	if (mhz < 1)
		mhz = 1;
	if (o->cycle_only)
		snprintf(line, len, "%.4f\n", 1000.0 / (double)mhz);
	else
		snprintf(line, len, "%ld MHz, %.4f nanosec clock\n", mhz,
		    1000.0 / (double)mhz);
}

/* Take -d and -c. */
static void
mhz_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct mhz_opts *o = cookie;

	(void)arg;
	switch (opt) {
	case 'd':
		o->debug = 1;
		break;
	case 'c':
		o->cycle_only = 1;
		break;
	default:
		tool_exit_usage(t, "unexpected option");
	}
}

/*
 * Run b up to MHZ_RUNS times within MHZ_BUDGET_S; the fastest run goes
 * to r and its time per add is returned (dbg: the debug output, or NULL).
 */
static double
mhz_fastest(struct tool *t, bm_bench *b, bm_result *r, FILE *dbg)
{
	bm_result run;
	double ns_add, ns, spent;
	int i;

	tool_run(t, b, r);
	ns_add = r->per_op_ns.median / OPS_BLOCK;
	spent = r->wall_s;
	if (dbg != NULL)
		fprintf(dbg, "run 1: %.4f nanoseconds per add\n", ns_add);
	tool_later_warmup(t, MHZ_NEXT_WARMUP_US);
	/* The ranks of an MPI job run together: all, or none, go on. */
	for (i = 2; i <= MHZ_RUNS && cluster_all(spent < MHZ_BUDGET_S); i++) {
		tool_run(t, b, &run);
		ns = run.per_op_ns.median / OPS_BLOCK;
		spent += run.wall_s;
		if (dbg != NULL)
			fprintf(dbg, "run %d: %.4f nanoseconds per add\n", i,
			    ns);
		if (ns < ns_add) {
			bm_result_free(r);
			*r = run;
			ns_add = ns;
		} else
			bm_result_free(&run);
	}
	return ns_add;
}

/* -d: how the add chain was timed and what the cycle timer says. */
static void
mhz_debug(const struct tool *t, const bm_result *r, double ns_add, FILE *dbg)
{
	double ticks;

	fprintf(dbg, "integer add chain: %.4f nanoseconds per add "
	    "(%d adds per operation, fastest run, median of %zu "
	    "intervals of %llu us, clock %s)\n", ns_add, OPS_BLOCK,
	    r->nsamples, (unsigned long long)r->enough_us,
	    bm_ctx_timer_name(t->ctx, BM_SUBTIMER_CLOCK));
	if (isfinite(r->cycles_per_op) && r->cycles_per_op > 0) {
		ticks = r->cycles_per_op / OPS_BLOCK;
		fprintf(dbg, "cycle timer %s: %.4f ticks per add, "
		    "%.0f MHz\n", bm_ctx_timer_name(t->ctx,
		    BM_SUBTIMER_CYCLE), ticks, ticks * 1000.0 / ns_add);
	}
}

/* Time the add chain and print the clock it implies. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "mhz",
		.args = "[-d] [-c]",
		.extra_usage = "\n  -d  also print the add chain's timing and "
		    "the cycle timer's rate\n  -c  print only the cycle time "
		    "in nanoseconds\n"
	};
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct ops_state s;
	struct mhz_opts o = { 0, 0 };
	bm_bench b;
	bm_result r;
	bm_record rec;
	FILE *dbg;
	double ns_add;
	long mhz;

	if (tool_parse(&t, argc, argv, "dc", NULL, mhz_option, &o) != argc)
		tool_exit_usage(&t, "unexpected argument '%s'", argv[optind]);
	t.default_timer = MHZ_TIMER;
	t.default_enough_us = MHZ_ENOUGH_US;
	tool_setup(&t);
	tool_min_enough(&t, MHZ_MIN_ENOUGH_US);
	if (o.debug)
		fprintf(t.json ? stderr : stdout, "intervals of at least %u "
		    "us, whatever ENOUGH says\n", MHZ_MIN_ENOUGH_US);
	ops_state_init(&s);
	b.initialize = NULL;
	b.benchmark = ops_cases[OPS_INT_ADD].fn;
	b.cleanup = NULL;
	b.cookie = &s;
	dbg = t.json ? stderr : stdout;
	ns_add = mhz_fastest(&t, &b, &r, o.debug ? dbg : NULL);
	if (!(ns_add > 0))
		tool_exit_fail(&t, "the add chain took no time");
	mhz = lround(1000.0 / ns_add);
	if (mhz < 1)
		mhz = 1;
	if (o.debug)
		mhz_debug(&t, &r, ns_add, dbg);
	tool_record_figure(&rec, &t, "clock", "clock", "MHz", BM_BETTER_HIGHER,
	    (double)mhz);
	tool_record_per_ns(&rec, &r, 1000.0 * OPS_BLOCK);
	tool_report_line(&t, &rec, mhz_line, &o);
	bm_result_free(&r);
	return tool_finish(&t);
}
