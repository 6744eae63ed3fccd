/* result.c: turn the workers' samples into a result's figures. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Order doubles for qsort. */
static int
result_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A figure is refused when more than this fraction of the median raw
 * interval is overhead taken off it (the clock's start and stop, the
 * empty loop's iterations) given by TIMING_O or LOOP_O: what is left then
 * measures the given values more than the benchmark, and with overheads a
 * little larger it becomes zero or an infinite rate.  Honest benchmarks
 * stay far below: a system call of 50 ns has about 0.3 ns of loop
 * overhead.  Overheads the library measured itself are not checked: they
 * agree with the clock by construction, and an empty loop rightly
 * measures about nothing with them.
 */
#define RESULT_MAX_OVERHEAD 0.5

/*
 * Check one round's samples against the overheads subtracted from them,
 * as the workers did (child.c): fail when the median interval left is not
 * positive, or when the overhead is more than RESULT_MAX_OVERHEAD of the
 * median raw interval.
 */
int
bm__result_check_overhead(bm_ctx *ctx, const bm_sample *s, size_t count)
{
	double *frac, *left, o, med_frac, med_left;
	size_t k;
	int rc;

	if (count == 0)
		return 0;
	/* No time at all is said as such, whatever the overheads. */
	if ((rc = bm__result_check_time(ctx, s, count)) != 0)
		return rc;
	if (!(ctx->cal.from_env & (BM_CAL_TIMING_O | BM_CAL_LOOP_O)))
		return 0;
	frac = calloc(count, sizeof(*frac));
	left = calloc(count, sizeof(*left));
	if (frac == NULL || left == NULL) {
		free(frac);
		free(left);
		return bm__fail(ctx, -ENOMEM, "no memory for statistics");
	}
	for (k = 0; k < count; k++) {
		o = ctx->cal.timing_o_us * 1000.0 +
		    (double)s[k].n * ctx->cal.loop_o_us * 1000.0;
		left[k] = s[k].ns;
		/* A sample cut to zero lost its raw time: all overhead. */
		frac[k] = s[k].ns > 0 ? o / (s[k].ns + o) : 1.0;
	}
	qsort(frac, count, sizeof(*frac), result_cmp);
	qsort(left, count, sizeof(*left), result_cmp);
	med_frac = bm_percentile(frac, count, 50);
	med_left = bm_percentile(left, count, 50);
	free(frac);
	free(left);
	if (med_left <= 0 || med_frac > RESULT_MAX_OVERHEAD)
		return bm__fail(ctx, BM_EOVERHEAD, "the overheads swallow "
		    "the measurement: TIMING_O %g us and LOOP_O %g us make "
		    "%.0f%% of the median interval (at most %.0f%%); unset "
		    "them to have them measured", ctx->cal.timing_o_us,
		    ctx->cal.loop_o_us, 100 * med_frac,
		    100 * RESULT_MAX_OVERHEAD);
	return 0;
}

/*
 * The median, over the samples of r, of the share of each raw interval
 * that the clock and loop overheads took off (child.c), or NAN without
 * samples or context.  A figure refused at RESULT_MAX_OVERHEAD is never
 * reported; one between BM__OVERHEAD_FLAG and it is reported and flagged.
 * A quarter is where an overhead off by a factor of two, what a value
 * exported on another machine or in another state of this one easily is
 * (a loop iteration of one cycle or nearly two on a shared VM, see
 * doc/measurements.md), moves the figure by a quarter or more, beyond
 * the 3% precision a figure is judged by many times over; an honest
 * figure's overheads are below 1% of its interval.  A result the engine
 * did not measure (enough_us 0: a tool's figure derived from others,
 * whose samples are values per operation, not intervals) has no
 * overheads of its own: NAN, never flagged.
 */
double
bm__result_overhead_share(const bm_ctx *ctx, const bm_result *r)
{
	double *frac, o, med;
	size_t k;

	if (ctx == NULL || r == NULL || r->samples == NULL ||
	    r->nsamples == 0 || r->enough_us == 0)
		return NAN;
	if ((frac = calloc(r->nsamples, sizeof(*frac))) == NULL)
		return NAN;
	for (k = 0; k < r->nsamples; k++) {
		o = ctx->cal.timing_o_us * 1000.0 +
		    (double)r->samples[k].n * ctx->cal.loop_o_us * 1000.0;
		/* As bm__result_check_overhead: zero left is all overhead. */
		frac[k] = r->samples[k].ns > 0 ? o / (r->samples[k].ns + o) :
		    o > 0 ? 1.0 : 0.0;
	}
	qsort(frac, r->nsamples, sizeof(*frac), result_cmp);
	med = bm_percentile(frac, r->nsamples, 50);
	free(frac);
	return med;
}

/*
 * A figure of no time is no figure: fail with BM_ENOTIME when most of one
 * round's intervals ran the most iterations allowed (2^62) and still did
 * not last enough to be kept otherwise: a body that returns at once (or
 * whose work the compiler removed) takes no time the clock can see, and
 * its intervals end at the cap with a time of about the clock's reading
 * cost.  A median of 0 ns below the cap is a figure: an empty loop with
 * its loop overhead taken off rightly costs about nothing.
 */
int
bm__result_check_time(bm_ctx *ctx, const bm_sample *s, size_t count)
{
	double *ns, med;
	size_t k, capped = 0;

	if (count == 0)
		return 0;
	for (k = 0; k < count; k++)
		if (s[k].n >= BM__MAX_ITER)
			capped++;
	if (2 * capped <= count)
		return 0;
	if ((ns = calloc(count, sizeof(*ns))) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for statistics");
	for (k = 0; k < count; k++)
		ns[k] = s[k].ns;
	qsort(ns, count, sizeof(*ns), result_cmp);
	med = bm_percentile(ns, count, 50);
	free(ns);
	return bm__fail(ctx, BM_ENOTIME, "the benchmark takes no measurable "
	    "time: %zu of %zu intervals ran the most iterations allowed "
	    "(2^62) in a median of %.0f ns (does it do its work, or did the "
	    "compiler remove it?)", capped, count, med);
}

/*
 * The mean and sample variance (divided by n - 1; NAN for one value) of n
 * values, in two passes as the rdtsc article computes them: the second
 * pass sums squares about the mean, which loses nothing to cancellation.
 */
static void
result_mean_var(const double *v, size_t n, double *mean, double *var)
{
	double sum = 0, sq = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	m = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? sq / (double)(n - 1) : NAN;
}

/*
 * Merge the samples (round-major, then worker-major, reps per worker):
 * the time per operation at the process level and within processes (see
 * bm_stats_levels), the aggregate rate and the median cycles per
 * operation.  A round's aggregate rate sums each worker's operations over
 * its timed time: a worker descheduled in favour of another (more workers
 * than CPUs) spends that time inside an interval, so it counts its share
 * of the CPU and no more.  Summing per-worker medians instead would pick
 * the intervals that ran undisturbed and report four workers on two CPUs
 * as four times one.  The figure's rate is the median of the rounds'.
 */
int
bm__result_merge(bm_ctx *ctx, bm_result *r, unsigned reps)
{
	bm_stats st;
	double *v, *cy, *rate, ns, n, x;
	unsigned *round, np = r->processes > 0 ? r->processes : 1;
	size_t k, ncy = 0, nev, per = (size_t)r->parallel * reps;
	unsigned i, p;
	int rc;

	if (r->nsamples == 0 || reps == 0 || r->nsamples != np * per)
		return bm__fail(ctx, BM_EPROTO, "%zu samples from %u rounds of "
		    "%u workers", r->nsamples, np, r->parallel);
	r->processes = np;
	v = calloc(r->nsamples, sizeof(*v));
	cy = calloc(r->nsamples, sizeof(*cy));
	round = calloc(r->nsamples, sizeof(*round));
	rate = calloc(np, sizeof(*rate));
	free(r->process_ns);
	r->process_ns = calloc(np, sizeof(*r->process_ns));
	free(r->process_ops_per_s);
	r->process_ops_per_s = calloc(np, sizeof(*r->process_ops_per_s));
	if (v == NULL || cy == NULL || round == NULL || rate == NULL ||
	    r->process_ns == NULL || r->process_ops_per_s == NULL) {
		free(v);
		free(cy);
		free(round);
		free(rate);
		return bm__fail(ctx, -ENOMEM, "no memory for statistics");
	}
	for (k = 0; k < r->nsamples; k++) {
		v[k] = r->samples[k].ns / (double)r->samples[k].n;
		round[k] = (unsigned)(k / per);
		if (!isnan(r->samples[k].cycles))
			cy[ncy++] = r->samples[k].cycles /
			    (double)r->samples[k].n;
	}
	rc = bm_stats_levels(v, round, r->nsamples, np, &r->per_op_ns,
	    &r->within, r->process_ns);
	for (p = 0; p < np; p++) {
		rate[p] = 0;
		for (i = 0; i < r->parallel; i++) {
			ns = n = 0;
			for (k = 0; k < reps; k++) {
				ns += r->samples[p * per + i * reps + k].ns;
				n += (double)r->samples[p * per + i * reps +
				    k].n;
			}
			rate[p] += ns > 0 ? n * 1e9 / ns : INFINITY;
		}
		r->process_ops_per_s[p] = rate[p];
	}
	qsort(rate, np, sizeof(*rate), result_cmp);
	r->ops_per_s = bm_percentile(rate, np, 50);
	/*
	 * Cycles per operation the way the value is taken: the median of
	 * the rounds' medians when every interval read the counter, so
	 * that cycle_ns_per_op and value describe the same statistic.
	 */
	r->cycles_per_op = NAN;
	if (rc == 0 && ncy == r->nsamples) {
		bm_stats within;

		/* rate[] is spent: it takes the rounds' medians. */
		if ((rc = bm_stats_levels(cy, round, ncy, np, &st, &within,
		    rate)) == 0)
			r->cycles_per_op = st.median;
	} else if (rc == 0 && ncy > 0 &&
	    (rc = bm_stats_compute(cy, ncy, &st)) == 0)
		r->cycles_per_op = st.median;
	/*
	 * Counts per operation: the median over the intervals that counted
	 * the event.  One the PMU never ran (multiplexed out for all of
	 * it) has no count, NAN, and a median is no ordering with NaNs in
	 * it; NAN when no interval counted it.
	 */
	for (i = 0; i < BM_MAX_EVENTS; i++) {
		r->event_per_op[i] = NAN;
		if (rc != 0 || i >= r->nevents || r->events[i].status != 0)
			continue;
		for (nev = k = 0; k < r->nsamples; k++) {
			x = r->samples[k].events[i] / (double)r->samples[k].n;
			if (isfinite(x))
				cy[nev++] = x;
		}
		if (nev > 0 && (rc = bm_stats_compute(cy, nev, &st)) == 0)
			r->event_per_op[i] = st.median;
	}
	r->op_mean_ns = r->op_var_ns = NAN;
	if (r->nop > 0) {
		qsort(r->op_ns, r->nop, sizeof(*r->op_ns), result_cmp);
		result_mean_var(r->op_ns, r->nop, &r->op_mean_ns,
		    &r->op_var_ns);
	}
	r->op_mean_cycles = r->op_var_cycles = NAN;
	if (r->nop > 0 && r->op_cycles != NULL) {
		qsort(r->op_cycles, r->nop, sizeof(*r->op_cycles), result_cmp);
		result_mean_var(r->op_cycles, r->nop, &r->op_mean_cycles,
		    &r->op_var_cycles);
	}
	free(v);
	free(cy);
	free(round);
	free(rate);
	if (rc != 0)
		return bm__fail(ctx, rc, "statistics: %s", bm_strerror(rc));
	return 0;
}

/*
 * Join n results with each one's rounds as rounds of their own (a figure
 * that does not add up across machines, a latency): the time per
 * operation at both levels over every part's rounds, the median cycles
 * per operation, the rates summed, the longest wall time.  parallel is
 * the most workers one round ran: the rounds are not one run's, and a
 * record's rate of several workers would be taken as their sum
 * (figure.c), which a clock rate measured on two machines is not.
 */
static int
result_join_apart(bm_result *out, const bm_result *parts, size_t n)
{
	double *v, *cy, *med;
	unsigned *round, pbase = 0, np;
	size_t i, k, at = 0, ncy = 0, total = 0;
	bm_stats st;
	int rc;

	for (i = 0; i < n; i++)
		total += parts[i].nsamples;
	out->samples = malloc(total * sizeof *out->samples);
	v = malloc(total * sizeof *v);
	cy = malloc(total * sizeof *cy);
	round = malloc(total * sizeof *round);
	for (i = 0; i < n; i++)
		out->processes += parts[i].processes > 0 ? parts[i].processes : 1;
	med = malloc(out->processes * sizeof *med);
	rc = out->samples == NULL || v == NULL || cy == NULL ||
	    round == NULL || med == NULL ? -ENOMEM : 0;
	for (i = 0; rc == 0 && i < n; i++) {
		np = parts[i].processes > 0 ? parts[i].processes : 1;
		for (k = 0; k < parts[i].nsamples; k++, at++) {
			out->samples[at] = parts[i].samples[k];
			out->samples[at].worker += out->parallel;
			out->samples[at].process += pbase;
			v[at] = out->samples[at].ns / (double)out->samples[at].n;
			round[at] = out->samples[at].process;
			if (!isnan(out->samples[at].cycles))
				cy[ncy++] = out->samples[at].cycles /
				    (double)out->samples[at].n;
		}
		pbase += np;
		if (parts[i].parallel > out->parallel)
			out->parallel = parts[i].parallel;
		out->ops_per_s += parts[i].ops_per_s;
		if (parts[i].wall_s > out->wall_s)
			out->wall_s = parts[i].wall_s;
	}
	out->nsamples = total;
	out->cycles_per_op = NAN;
	if (rc == 0)
		rc = bm_stats_levels(v, round, total, out->processes,
		    &out->per_op_ns, &out->within, med);
	if (rc == 0 && ncy > 0 && (rc = bm_stats_compute(cy, ncy, &st)) == 0)
		out->cycles_per_op = st.median;
	free(v);
	free(cy);
	free(round);
	free(med);
	return rc;
}

/*
 * Join n results measured at the same time (the ranks of an MPI job,
 * which the meeting hook keeps in step).  Round for round (apart 0):
 * their workers become the workers of one result, as if one bm_run had
 * forked them all, and its figures come from bm__result_merge, so that
 * each round's aggregate rate sums every worker's and the figure is the
 * median of the rounds' aggregates, as with -P; results of unequal rounds
 * or repetitions are not one run's (BM_ERANGE).  Apart (1): see
 * result_join_apart.
 */
int
bm__result_join(bm_result *out, const bm_result *parts, size_t n, int apart)
{
	size_t i, k, at, total = 0, *next;
	unsigned workers = 0, base, np, reps;
	int rc = 0;

	if (out == NULL || parts == NULL || n == 0)
		return -EINVAL;
	memset(out, 0, sizeof *out);
	for (i = 0; i < n; i++)
		if (parts[i].samples == NULL || parts[i].nsamples == 0)
			return BM_ERANGE;
	out->repetitions = parts[0].repetitions;
	out->warmup_us = parts[0].warmup_us;
	out->later_warmup_us = parts[0].later_warmup_us;
	out->enough_us = parts[0].enough_us;
	if (apart) {
		if ((rc = result_join_apart(out, parts, n)) != 0)
			bm_result_free(out);
		return rc;
	}
	np = parts[0].processes > 0 ? parts[0].processes : 1;
	reps = parts[0].repetitions;
	for (i = 0; i < n; i++) {
		if ((parts[i].processes > 0 ? parts[i].processes : 1) != np ||
		    parts[i].repetitions != reps || parts[i].parallel == 0 ||
		    parts[i].nsamples !=
		    (size_t)np * parts[i].parallel * reps)
			return BM_ERANGE;
		total += parts[i].nsamples;
		workers += parts[i].parallel;
	}
	out->samples = malloc(total * sizeof *out->samples);
	next = calloc((size_t)np * workers, sizeof *next);
	if (out->samples == NULL || next == NULL) {
		free(next);
		bm_result_free(out);
		return -ENOMEM;
	}
	/*
	 * bm__result_merge reads the samples round-major, then worker-major:
	 * each goes to its round, after the workers of the parts before its
	 * own, in the order its worker gave them.
	 */
	for (base = 0, i = 0; rc == 0 && i < n; i++) {
		for (k = 0; rc == 0 && k < parts[i].nsamples; k++) {
			bm_sample s = parts[i].samples[k];

			if (s.process >= np || s.worker >= parts[i].parallel) {
				rc = BM_ERANGE;
				break;
			}
			s.worker += base;
			at = (size_t)s.process * workers + s.worker;
			if (next[at] >= reps) {
				rc = BM_ERANGE;
				break;
			}
			out->samples[at * reps + next[at]++] = s;
		}
		base += parts[i].parallel;
		if (parts[i].wall_s > out->wall_s)
			out->wall_s = parts[i].wall_s;
	}
	free(next);
	out->nsamples = total;
	out->parallel = workers;
	out->processes = np;
	if (rc == 0)
		rc = bm__result_merge(NULL, out, reps);
	if (rc != 0)
		bm_result_free(out);
	return rc;
}

/* Release the samples of a result. */
void
bm_result_free(bm_result *res)
{
	if (res == NULL)
		return;
	free(res->samples);
	res->samples = NULL;
	res->nsamples = 0;
	free(res->op_ns);
	res->op_ns = NULL;
	free(res->op_cycles);
	res->op_cycles = NULL;
	res->nop = 0;
	free(res->process_ns);
	res->process_ns = NULL;
	free(res->process_ops_per_s);
	res->process_ops_per_s = NULL;
	res->processes = 0;
}
