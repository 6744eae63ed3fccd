/* region.c: time stretches of the caller's own code and keep the record. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Samples kept per region; beyond this only the totals grow. */
#define REGION_MAX_SAMPLES (1u << 20)

struct bm_region {
	bm_ctx *ctx;
	char *name;
	uint64_t t0;
	double overhead_ns;	/* the two clock reads, from TIMING_O */
	bm_sample *samples;
	size_t n;
	size_t cap;
	uint64_t count;		/* every start/stop pair */
	double total_ns;
};

/* Create a region; calibrates the context if it is not yet. */
int
bm_region_new(bm_ctx *ctx, const char *name, bm_region **out)
{
	bm_calibration cal;
	bm_region *r;
	int rc;

	if (ctx == NULL || name == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if ((rc = bm_calibrate(ctx, &cal)) != 0)
		return rc;
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->name = strdup(name)) == NULL) {
		free(r);
		return bm__fail(ctx, -ENOMEM, "no memory for a region");
	}
	r->ctx = ctx;
	r->overhead_ns = cal.timing_o_us * 1000.0;
	*out = r;
	return 0;
}

/* Start timing. */
void
bm_region_start(bm_region *r)
{
	r->t0 = bm__clock_now(&r->ctx->timer);
}

/* Stop timing and add the sample, minus the cost of measuring. */
void
bm_region_stop(bm_region *r)
{
	uint64_t t1 = bm__clock_now(&r->ctx->timer);
	double ns = (double)(t1 > r->t0 ? t1 - r->t0 : 0) - r->overhead_ns;
	bm_sample *grown;
	size_t cap;

	if (ns < 0)
		ns = 0;
	r->count++;
	r->total_ns += ns;
	if (r->n == r->cap && r->cap < REGION_MAX_SAMPLES) {
		cap = r->cap ? r->cap * 2 : 64;
		if ((grown = realloc(r->samples, cap * sizeof(*grown))) != NULL) {
			r->samples = grown;
			r->cap = cap;
		}
	}
	if (r->n < r->cap) {
		memset(&r->samples[r->n], 0, sizeof(r->samples[r->n]));
		r->samples[r->n].ns = ns;
		r->samples[r->n].n = 1;
		r->samples[r->n].cycles = NAN;
		r->n++;
	}
}

/* Build a result of the samples kept so far. */
int
bm_region_result(const bm_region *r, bm_result *res)
{
	if (r == NULL || res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (r->n == 0)
		return bm__fail(r->ctx, BM_ERANGE, "region %s has no samples",
		    r->name);
	if ((res->samples = malloc(r->n * sizeof(*res->samples))) == NULL)
		return bm__fail(r->ctx, -ENOMEM, "no memory for samples");
	memcpy(res->samples, r->samples, r->n * sizeof(*res->samples));
	res->nsamples = r->n;
	res->parallel = 1;
	res->repetitions = (unsigned)(r->n > BM_MAX_REPETITIONS ?
	    BM_MAX_REPETITIONS : r->n);
	res->wall_s = r->total_ns / 1e9;
	/* Every sample comes from this one process. */
	res->processes = 1;
	return bm__result_merge(r->ctx, res, (unsigned)r->n);
}

/* Write the region's record: statistics in microseconds, and totals. */
int
bm_region_write(bm_region *r, bm_sink *sink)
{
	bm_param params[2];
	bm_sink *own = NULL;
	bm_record rec;
	bm_result res;
	const char *spec;
	char *json;
	int rc, err;

	if (r == NULL)
		return -EINVAL;
	/*
	 * No sink given: the one bm_ctx_configure() resolved (--output or
	 * BENCHMP_OUTPUT), or stdout.
	 */
	if (sink == NULL) {
		spec = bm_ctx_output(r->ctx);
		if ((rc = bm_sink_open(r->ctx, spec != NULL ? spec : "-",
		    &own)) != 0)
			return rc;
		sink = own;
	}
	if ((rc = bm_region_result(r, &res)) != 0) {
		(void)bm_sink_close(r->ctx, own);
		return rc;
	}
	params[0].key = "count";
	params[0].str = NULL;
	params[0].num = (double)r->count;
	params[1].key = "total_us";
	params[1].str = NULL;
	params[1].num = r->total_ns / 1000.0;
	memset(&rec, 0, sizeof(rec));
	rec.tool = "region";
	rec.case_name = r->name;
	rec.params = params;
	rec.nparams = 2;
	rec.metric = "latency";
	rec.unit = "us";
	rec.value = res.per_op_ns.median / 1000.0;
	rec.scale = 1e-3;
	rec.result = &res;
	if ((rc = bm_record_json(r->ctx, &rec, &json)) == 0) {
		rc = bm_sink_write(r->ctx, sink, json, strlen(json));
		free(json);
	}
	bm_result_free(&res);
	if (own != NULL && (err = bm_sink_close(r->ctx, own)) != 0 && rc == 0)
		rc = err;
	return rc;
}

/* Release a region. */
void
bm_region_free(bm_region *r)
{
	if (r == NULL)
		return;
	free(r->samples);
	free(r->name);
	free(r);
}
