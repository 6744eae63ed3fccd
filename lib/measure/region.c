/* region.c: time and count stretches of the caller's own code and keep the record. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* Samples kept per region; beyond this only the totals grow. */
#define REGION_MAX_SAMPLES (1u << 20)

/*
 * Empty start/stop pairs timed by bm_region_new() to learn what counting
 * costs; their median is robust against the few a preemption lengthens.
 */
#define REGION_CAL_PAIRS 63

/* The raw readings of one instant: clock, cycle subtimer, events. */
struct region_raw {
	uint64_t ns;
	uint64_t cycles;
	double events[BM_MAX_EVENTS];
};

struct bm_region {
	bm_ctx *ctx;
	char *name;
	uint64_t id;
	uint64_t born_ns;	/* the clock when the region was created */
	bm__events ev;		/* the context's events when created */
	bm__counters ctr;	/* their group, opened for this region */
	int has_cycles;
	int running;
	int started;		/* a start ever happened */
	int read_err;		/* the first failed counter read, or 0 */
	struct region_raw t0;	/* the readings at start */
	bm_counts overhead;	/* a pair around nothing */
	bm_counts last;		/* the last pair */
	bm_counts total;	/* every pair */
	bm_sample *samples;
	size_t n;
	size_t cap;
};

/*
 * Read everything at the start of a window: the events first and the
 * clock last, so that the clock's window holds no counter read.
 */
static void
region_read_start(bm_region *r, struct region_raw *raw)
{
	int rc;

	/* Without counters this only stores NAN for every event. */
	if ((rc = bm__counters_read(&r->ctr, &r->ev, raw->events)) != 0 &&
	    r->read_err == 0)
		r->read_err = rc;
	raw->cycles = r->has_cycles ? bm__cycle_now(&r->ctx->timer) : 0;
	raw->ns = bm__clock_now(&r->ctx->timer);
}

/* Read everything at the end of a window: the clock first, events last. */
static void
region_read_end(bm_region *r, struct region_raw *raw)
{
	int rc;

	raw->ns = bm__clock_now(&r->ctx->timer);
	raw->cycles = r->has_cycles ? bm__cycle_now(&r->ctx->timer) : 0;
	if ((rc = bm__counters_read(&r->ctr, &r->ev, raw->events)) != 0 &&
	    r->read_err == 0)
		r->read_err = rc;
}

/* A difference of two readings less an overhead, never below zero. */
static double
region_less(double d, double overhead)
{
	d -= overhead;
	return d > 0 ? d : 0;
}

/* The counts of the window from a to b, overhead subtracted. */
static void
region_diff(const bm_region *r, const struct region_raw *a,
    const struct region_raw *b, bm_counts *out)
{
	size_t i;

	out->id = r->id;
	out->count = 1;
	out->clock_ns = b->ns;
	out->timestamp_ns = b->ns > r->born_ns ? (double)(b->ns - r->born_ns) :
	    0;
	/* A clock or TSC that went back (another CPU) counts as nothing. */
	out->ns = region_less(b->ns > a->ns ? (double)(b->ns - a->ns) : 0,
	    r->overhead.ns);
	out->cycles = !r->has_cycles ? NAN : region_less(b->cycles >
	    a->cycles ? (double)(b->cycles - a->cycles) : 0,
	    r->overhead.cycles);
	out->nevents = r->ev.n;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		out->events[i] = i >= r->ev.n || isnan(a->events[i]) ||
		    isnan(b->events[i]) ? NAN : region_less(b->events[i] -
		    a->events[i], r->overhead.events[i]);
}

/* Zero a result. */
int
bm_counts_zero(bm_counts *c)
{
	if (c == NULL)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	return 0;
}

/* Copy a result. */
int
bm_counts_copy(bm_counts *dst, const bm_counts *src)
{
	if (dst == NULL || src == NULL)
		return -EINVAL;
	memmove(dst, src, sizeof(*dst));
	return 0;
}

/* Add (sign 1) or subtract (sign -1) src's figures to or from dst's. */
static int
region_counts_op(bm_counts *dst, const bm_counts *src, double sign)
{
	size_t i, n;

	if (dst == NULL || src == NULL)
		return -EINVAL;
	/* Events dst did not have yet start from 0. */
	n = src->nevents > BM_MAX_EVENTS ? BM_MAX_EVENTS : src->nevents;
	for (i = dst->nevents; i < n; i++)
		dst->events[i] = 0;
	if (n > dst->nevents)
		dst->nevents = n;
	if (sign > 0)
		dst->count += src->count;
	else
		dst->count = dst->count > src->count ? dst->count - src->count :
		    0;
	if (src->clock_ns > dst->clock_ns) {
		dst->clock_ns = src->clock_ns;
		dst->timestamp_ns = src->timestamp_ns;
	}
	dst->ns += sign * src->ns;
	dst->cycles += sign * src->cycles;
	for (i = 0; i < dst->nevents && i < BM_MAX_EVENTS; i++)
		dst->events[i] += sign * (i < n ? src->events[i] : 0);
	return 0;
}

/* Add src to dst. */
int
bm_counts_add(bm_counts *dst, const bm_counts *src)
{
	return region_counts_op(dst, src, 1.0);
}

/* Subtract src from dst. */
int
bm_counts_sub(bm_counts *dst, const bm_counts *src)
{
	return region_counts_op(dst, src, -1.0);
}

/* Order doubles for qsort. */
static int
region_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (sorted in place); NAN if any is NAN. */
static double
region_median(double *v, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (isnan(v[k]))
			return NAN;
	qsort(v, n, sizeof(*v), region_cmp);
	return bm_percentile(v, n, 50);
}

/*
 * Measure what an empty start/stop pair counts, with nothing subtracted:
 * the median of REGION_CAL_PAIRS pairs, for the cycles and each event.
 * The clock's share is TIMING_O, as for bm_run(), so that a value given
 * in the environment holds here too.
 */
static void
region_calibrate(bm_region *r, double timing_o_ns)
{
	double v[1 + BM_MAX_EVENTS][REGION_CAL_PAIRS];
	struct region_raw a, b;
	bm_counts d;
	size_t i, k;

	memset(&r->overhead, 0, sizeof(r->overhead));
	for (k = 0; k < REGION_CAL_PAIRS; k++) {
		region_read_start(r, &a);
		region_read_end(r, &b);
		region_diff(r, &a, &b, &d);
		v[0][k] = d.cycles;
		for (i = 0; i < r->ev.n; i++)
			v[1 + i][k] = d.events[i];
	}
	r->overhead.ns = timing_o_ns;
	r->overhead.cycles = r->has_cycles ?
	    region_median(v[0], REGION_CAL_PAIRS) : NAN;
	r->overhead.nevents = r->ev.n;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		r->overhead.events[i] = i < r->ev.n ?
		    region_median(v[1 + i], REGION_CAL_PAIRS) : NAN;
	/* An event whose calibration read failed subtracts nothing. */
	for (i = 0; i < r->ev.n; i++)
		if (isnan(r->overhead.events[i]))
			r->overhead.events[i] = 0;
}

/*
 * Let the kernel schedule a freshly opened event group in.  Seen on Linux
 * 6.18: the software page-faults event of the group opened last counts
 * nothing until the process is switched out and in again, though its
 * task-clock runs; a region's first pairs (and the calibration) would
 * count no faults.  A sleep of a microsecond is such a switch.
 */
static int
region_settle(void)
{
	struct timespec ts = { 0, 1000 };

	while (nanosleep(&ts, &ts) != 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/*
 * Create a region; calibrates the context if it is not yet, opens the
 * group of its events and measures the counting overhead.  With regions
 * switched off, *out is NULL and nothing is done.
 */
int
bm_region_new(bm_ctx *ctx, const char *name, bm_region **out)
{
	bm_calibration cal;
	bm_region *r;
	int rc;

	if (ctx == NULL || name == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if (ctx->regions_off)
		return 0;
	if ((rc = bm_calibrate(ctx, &cal)) != 0)
		return rc;
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->name = strdup(name)) == NULL) {
		free(r);
		return bm__fail(ctx, -ENOMEM, "no memory for a region");
	}
	r->ctx = ctx;
	r->born_ns = bm__clock_now(&ctx->timer);
	r->ev = ctx->events;
	r->has_cycles = bm__timer_has_cycles(&ctx->timer);
	/* Events this machine cannot count stay NAN, "not supported". */
	if ((rc = bm__counters_open(&r->ctr, &r->ev)) != 0) {
		free(r->name);
		free(r);
		return bm__fail(ctx, rc, "region %s: cannot open its event "
		    "counters: %s", name, bm_strerror(rc));
	}
	if (r->ctr.leader >= 0 && (rc = region_settle()) != 0) {
		bm_region_free(r);
		return bm__fail(ctx, rc, "region %s: nanosleep: %s", name,
		    bm_strerror(rc));
	}
	region_calibrate(r, cal.timing_o_us * 1000.0);
	if (r->read_err != 0) {
		rc = r->read_err;
		bm_region_free(r);
		return bm__fail(ctx, rc, "region %s: cannot read its event "
		    "counters: %s", name, bm_strerror(rc));
	}
	bm_counts_zero(&r->total);
	r->total.nevents = r->ev.n;
	*out = r;
	return 0;
}

/* Set the id carried by the region's readings and record. */
int
bm_region_set_id(bm_region *r, uint64_t id)
{
	if (r != NULL)
		r->id = id;
	return 0;
}

/* Start a window. */
void
bm_region_start(bm_region *r)
{
	if (r == NULL)
		return;
	region_read_start(r, &r->t0);
	r->running = 1;
	r->started = 1;
}

/* Keep one pair's counts as a sample, while there is room. */
static void
region_keep(bm_region *r, const bm_counts *c)
{
	bm_sample *grown, *s;
	size_t cap;

	if (r->n == r->cap && r->cap < REGION_MAX_SAMPLES) {
		cap = r->cap ? r->cap * 2 : 64;
		if ((grown = realloc(r->samples, cap * sizeof(*grown))) != NULL) {
			r->samples = grown;
			r->cap = cap;
		}
	}
	if (r->n < r->cap) {
		s = &r->samples[r->n++];
		memset(s, 0, sizeof(*s));
		s->ns = c->ns;
		s->n = 1;
		s->cycles = c->cycles;
		memcpy(s->events, c->events, sizeof(s->events));
	}
}

/* Stop the window and add its counts, less the cost of counting. */
void
bm_region_stop(bm_region *r)
{
	struct region_raw t1;

	if (r == NULL || !r->running)
		return;
	region_read_end(r, &t1);
	r->running = 0;
	region_diff(r, &r->t0, &t1, &r->last);
	bm_counts_add(&r->total, &r->last);
	region_keep(r, &r->last);
}

/* Read the counts since start without stopping, or the last pair's. */
int
bm_region_read(bm_region *r, bm_counts *out)
{
	struct region_raw now;

	if (r == NULL)
		return 0;
	if (out == NULL)
		return -EINVAL;
	if (!r->started)
		return bm__fail(r->ctx, BM_ERANGE, "region %s was never "
		    "started", r->name);
	if (!r->running) {
		*out = r->last;
		return 0;
	}
	region_read_end(r, &now);
	region_diff(r, &r->t0, &now, out);
	return 0;
}

/*
 * Copy a region's overhead (overhead 1) or its total (0) into out with
 * the region's id: the body of bm_region_total and bm_region_overhead.
 * A NULL region (regions off) leaves out alone.
 */
static int
region_counts_out(const bm_region *r, int overhead, bm_counts *out)
{
	if (r == NULL)
		return 0;
	if (out == NULL)
		return -EINVAL;
	*out = overhead ? r->overhead : r->total;
	out->id = r->id;
	return 0;
}

/* The sum of every pair so far. */
int
bm_region_total(const bm_region *r, bm_counts *out)
{
	return region_counts_out(r, 0, out);
}

/* The overhead subtracted from each reading. */
int
bm_region_overhead(const bm_region *r, bm_counts *out)
{
	return region_counts_out(r, 1, out);
}

/* Build a result of the samples kept so far. */
int
bm_region_result(const bm_region *r, bm_result *res)
{
	if (r == NULL)
		return BM_ENOTSUP;
	if (res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (r->read_err != 0)
		return bm__fail(r->ctx, r->read_err, "region %s: reading its "
		    "event counters failed: %s", r->name,
		    bm_strerror(r->read_err));
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
	res->wall_s = r->total.ns / 1e9;
	res->nevents = r->ev.n;
	memcpy(res->events, r->ev.info, sizeof(res->events));
	/* Every sample comes from this one process. */
	res->processes = 1;
	return bm__result_merge(r->ctx, res, (unsigned)r->n);
}

/*
 * Send a record of res (the region's samples, or one reading) with its
 * params: to sink, or with sink NULL to the one bm_ctx_configure()
 * resolved (--output or BENCHMP_OUTPUT), or stdout.
 */
static int
region_send(bm_region *r, const bm_result *res, const bm_param *params,
    size_t nparams, bm_sink *sink)
{
	bm_sink *own = NULL;
	bm_record rec;
	const char *spec;
	char *json;
	int rc, err;

	if (sink == NULL) {
		spec = bm_ctx_output(r->ctx);
		if ((rc = bm_sink_open(r->ctx, spec != NULL ? spec : "-",
		    &own)) != 0)
			return rc;
		sink = own;
	}
	memset(&rec, 0, sizeof(rec));
	rec.tool = "region";
	rec.case_name = r->name;
	rec.params = params;
	rec.nparams = nparams;
	rec.metric = "latency";
	rec.unit = "us";
	rec.value = res->per_op_ns.median / 1000.0;
	rec.scale = 1e-3;
	rec.result = res;
	if ((rc = bm_record_json(r->ctx, &rec, &json)) == 0) {
		rc = bm_sink_write(r->ctx, sink, json, strlen(json));
		free(json);
	}
	if (own != NULL && (err = bm_sink_close(r->ctx, own)) != 0 && rc == 0)
		rc = err;
	return rc;
}

/* Fill a numeric param. */
static void
region_param(bm_param *p, const char *key, double num)
{
	p->key = key;
	p->str = NULL;
	p->num = num;
}

/* Write the region's record: statistics in microseconds, and totals. */
int
bm_region_write(bm_region *r, bm_sink *sink)
{
	bm_param params[3];
	bm_result res;
	int rc;

	if (r == NULL)
		return 0;
	if ((rc = bm_region_result(r, &res)) != 0)
		return rc;
	region_param(&params[0], "count", (double)r->total.count);
	region_param(&params[1], "total_us", r->total.ns / 1000.0);
	/* A number: exact up to 2^53, as JSON readers hold numbers. */
	region_param(&params[2], "id", (double)r->id);
	rc = region_send(r, &res, params, 3, sink);
	bm_result_free(&res);
	return rc;
}

/* Write one reading as its own record. */
int
bm_region_write_counts(bm_region *r, const bm_counts *c, bm_sink *sink)
{
	bm_param params[4];
	bm_sample one;
	bm_result res;
	int rc;

	if (r == NULL)
		return 0;
	if (c == NULL)
		return -EINVAL;
	if (c->count == 0 || !isfinite(c->ns))
		return bm__fail(r->ctx, BM_ERANGE, "region %s: a reading of "
		    "%llu pairs and %g ns is not a figure", r->name,
		    (unsigned long long)c->count, c->ns);
	memset(&one, 0, sizeof(one));
	one.ns = c->ns > 0 ? c->ns : 0;
	one.n = c->count;
	one.cycles = c->cycles;
	memcpy(one.events, c->events, sizeof(one.events));
	memset(&res, 0, sizeof(res));
	res.samples = &one;
	res.nsamples = 1;
	res.parallel = 1;
	res.repetitions = 1;
	res.processes = 1;
	res.wall_s = one.ns / 1e9;
	res.nevents = r->ev.n;
	memcpy(res.events, r->ev.info, sizeof(res.events));
	if ((rc = bm__result_merge(r->ctx, &res, 1)) == 0) {
		region_param(&params[0], "count", (double)c->count);
		region_param(&params[1], "id", (double)c->id);
		region_param(&params[2], "timestamp_us",
		    c->timestamp_ns / 1000.0);
		region_param(&params[3], "clock_ns", (double)c->clock_ns);
		rc = region_send(r, &res, params, 4, sink);
	}
	/* The sample is on this stack: free only what the merge made. */
	res.samples = NULL;
	res.nsamples = 0;
	bm_result_free(&res);
	return rc;
}

/* The names of the region's counters joined by join. */
int
bm_region_names(const bm_region *r, const char *join, char *buf, size_t len)
{
	size_t i, used = 0;
	int w;

	if (r == NULL)
		return 0;
	if (join == NULL || buf == NULL || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	for (i = 0; i < r->ev.n && i < BM_MAX_EVENTS; i++) {
		w = snprintf(buf + used, len - used, "%s%s", i > 0 ? join : "",
		    r->ev.info[i].name);
		if (w < 0 || (size_t)w >= len - used)
			return BM_ERANGE;
		used += (size_t)w;
	}
	return 0;
}

/* Release a region and close its counters. */
void
bm_region_free(bm_region *r)
{
	if (r == NULL)
		return;
	bm__counters_close(&r->ctr);
	free(r->samples);
	free(r->name);
	free(r);
}
