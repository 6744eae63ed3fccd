/* result.c: turn the workers' samples into a result's figures. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* Order doubles for qsort. */
static int
result_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The p-th percentile of sorted values, interpolated between ranks. */
double
bm_percentile(const double *sorted, size_t n, double p)
{
	double rank, frac;
	size_t lo;

	if (sorted == NULL || n == 0 || !(p >= 0 && p <= 100))
		return NAN;
	rank = p / 100.0 * (double)(n - 1);
	lo = (size_t)rank;
	if (lo + 1 >= n)
		return sorted[n - 1];
	frac = rank - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/*
 * Merge the samples (worker-major, reps per worker): statistics of the
 * time per operation over every sample, the aggregate rate and the median
 * cycles per operation.  The aggregate rate sums each worker's operations
 * over its timed time: a worker descheduled in favour of another (more
 * workers than CPUs) spends that time inside an interval, so it counts its
 * share of the CPU and no more.  Summing per-worker medians instead would
 * pick the intervals that ran undisturbed and report four workers on two
 * CPUs as four times one.
 */
int
bm__result_merge(bm_ctx *ctx, bm_result *r, unsigned reps)
{
	bm_stats st;
	double *v, *cy, ns, n;
	size_t k, ncy = 0;
	unsigned i, j;
	int rc;

	if (r->nsamples == 0 || reps == 0 ||
	    r->nsamples != (size_t)r->parallel * reps)
		return bm__fail(ctx, BM_EPROTO, "%zu samples from %u workers",
		    r->nsamples, r->parallel);
	v = calloc(r->nsamples, sizeof(*v));
	cy = calloc(r->nsamples, sizeof(*cy));
	if (v == NULL || cy == NULL) {
		free(v);
		free(cy);
		return bm__fail(ctx, -ENOMEM, "no memory for statistics");
	}
	for (k = 0; k < r->nsamples; k++) {
		v[k] = r->samples[k].ns / (double)r->samples[k].n;
		if (!isnan(r->samples[k].cycles))
			cy[ncy++] = r->samples[k].cycles /
			    (double)r->samples[k].n;
	}
	rc = bm_stats_compute(v, r->nsamples, &r->per_op_ns);
	r->ops_per_s = 0;
	for (i = 0; i < r->parallel; i++) {
		ns = n = 0;
		for (j = 0; j < reps; j++) {
			ns += r->samples[(size_t)i * reps + j].ns;
			n += (double)r->samples[(size_t)i * reps + j].n;
		}
		r->ops_per_s += ns > 0 ? n * 1e9 / ns : INFINITY;
	}
	r->cycles_per_op = NAN;
	if (rc == 0 && ncy > 0 && (rc = bm_stats_compute(cy, ncy, &st)) == 0)
		r->cycles_per_op = st.median;
	/* Counts per operation: the median over the intervals. */
	for (i = 0; i < BM_MAX_EVENTS; i++) {
		r->event_per_op[i] = NAN;
		if (rc != 0 || i >= r->nevents || r->events[i].status != 0)
			continue;
		for (k = 0; k < r->nsamples; k++)
			cy[k] = r->samples[k].events[i] /
			    (double)r->samples[k].n;
		if ((rc = bm_stats_compute(cy, r->nsamples, &st)) == 0)
			r->event_per_op[i] = st.median;
	}
	if (r->nop > 0)
		qsort(r->op_ns, r->nop, sizeof(*r->op_ns), result_cmp);
	free(v);
	free(cy);
	if (rc != 0)
		return bm__fail(ctx, rc, "statistics: %s", bm_strerror(rc));
	return 0;
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
	res->nop = 0;
}
