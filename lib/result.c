/* result.c: turn the workers' samples into a result's figures. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/*
 * Merge the samples (worker-major, reps per worker): statistics of the
 * time per operation over every sample, the aggregate rate and the median
 * cycles per operation.  The rate sums each worker's median rate, as
 * lmbench's parallel figures do, so one slow interval of one worker does
 * not drag the aggregate down.
 */
int
bm__result_merge(bm_ctx *ctx, bm_result *r, unsigned reps)
{
	bm_stats st;
	double *v, *cy;
	size_t k, ncy = 0;
	unsigned i;
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
	for (i = 0; rc == 0 && i < r->parallel; i++) {
		rc = bm_stats_compute(v + (size_t)i * reps, reps, &st);
		if (rc == 0)
			r->ops_per_s += st.median > 0 ? 1e9 / st.median :
			    INFINITY;
	}
	r->cycles_per_op = NAN;
	if (rc == 0 && ncy > 0 && (rc = bm_stats_compute(cy, ncy, &st)) == 0)
		r->cycles_per_op = st.median;
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
}
