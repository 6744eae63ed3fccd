/* measure.c: time a function in the calling process (after mLib's bench_measure). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Accept a call that reached this fraction of enough, and aim the next
 * count a little past it, as the workers do (child.c).
 */
#define MEASURE_ACCEPT 0.8
#define MEASURE_AIM 1.1
/* Grow n this much at most per call while calls are far too short. */
#define MEASURE_GROW 8.0
/* No count beyond this: an empty function must still terminate. */
#define MEASURE_MAX_N BM__MAX_ITER
/* Operations per iteration at most (bm_measure_base). */
#define MEASURE_MAX_BASE ((uint64_t)1 << 32)
/* Timings of the empty loop; the median is the base. */
#define MEASURE_BASE_TRIES 5

/*
 * The base: the same loop as a benchmark's around an empty body, reached
 * through the same kind of pointer, so that its time holds the clock
 * reads, the call and n loop iterations, and nothing else.
 */
static int __attribute__((noinline))
measure_empty(bm_iter_t n, void *arg)
{
	(void)arg;
	bm__empty_loop(n);
	return 0;
}

static bm_fn volatile measure_empty_fn = measure_empty;

/* One timed call of fn(n): its time in ns, cycles (0 without) and events. */
struct measure_one {
	double ns;
	double cycles;
	double ev[BM_MAX_EVENTS];
};

/*
 * Call fn(n, arg) between reads of the counters, the cycle counter and
 * the clock (the clock innermost, as in a worker); 0, fn's error, or 1
 * when the counters could not be read.
 */
static int
measure_call(bm_ctx *ctx, bm__counters *c, bm_fn fn, void *arg,
    bm_iter_t n, struct measure_one *m)
{
	const bm__timer *t = &ctx->timer;
	double ev0[BM_MAX_EVENTS];
	uint64_t t0, t1, c0 = 0, c1 = 0;
	int cycles = bm__timer_has_cycles(t), rc;
	size_t i;

	if (bm__counters_read(c, &ctx->events, ev0) != 0)
		return 1;
	if (cycles)
		c0 = bm__cycle_now(t);
	t0 = bm__clock_now(t);
	rc = fn(n, arg);
	t1 = bm__clock_now(t);
	if (cycles)
		c1 = bm__cycle_now(t);
	if (bm__counters_read(c, &ctx->events, m->ev) != 0)
		return 1;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		m->ev[i] -= ev0[i];
	m->ns = t1 > t0 ? (double)(t1 - t0) : 0.0;
	m->cycles = c1 > c0 ? (double)(c1 - c0) : 0.0;
	return rc < 0 ? rc : 0;
}

/* Sort helper for doubles. */
static int
measure_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median time and cycles of the empty loop of n iterations. */
static int
measure_base(bm_ctx *ctx, bm__counters *c, bm_iter_t n, double *ns,
    double *cycles)
{
	struct measure_one one;
	double t[MEASURE_BASE_TRIES], cy[MEASURE_BASE_TRIES];
	int i, rc;

	for (i = 0; i < MEASURE_BASE_TRIES; i++) {
		if ((rc = measure_call(ctx, c, measure_empty_fn, NULL, n,
		    &one)) != 0)
			return rc;
		t[i] = one.ns;
		cy[i] = one.cycles;
	}
	qsort(t, MEASURE_BASE_TRIES, sizeof(t[0]), measure_cmp);
	qsort(cy, MEASURE_BASE_TRIES, sizeof(cy[0]), measure_cmp);
	*ns = t[MEASURE_BASE_TRIES / 2];
	*cycles = cy[MEASURE_BASE_TRIES / 2];
	return 0;
}

/* Check the options bm_measure() takes; 0 or an error with its detail. */
static int
measure_check(bm_ctx *ctx, const bm_options *o)
{
	if (o->parallel != 1)
		return bm__fail(ctx, BM_ERANGE, "bm_measure runs in the calling "
		    "process: parallel must be 1, not %u", o->parallel);
	if (o->repetitions < 1 || o->repetitions > BM_MAX_REPETITIONS)
		return bm__fail(ctx, BM_ERANGE, "repetitions %u is out of range "
		    "(1 to %u)", o->repetitions, BM_MAX_REPETITIONS);
	if (o->enough_us > 60000000u || o->warmup_us > 3600000000u)
		return bm__fail(ctx, BM_ERANGE, "enough %llu us or warmup %llu "
		    "us is out of range (at most 60 s and 1 h)",
		    (unsigned long long)o->enough_us,
		    (unsigned long long)o->warmup_us);
	if (o->percentiles != 0)
		return bm__fail(ctx, BM_ENOTSUP, "bm_measure does not time "
		    "single operations (percentiles): use bm_run");
	return 0;
}

/* Choose the next count from the last call, as a worker does. */
static bm_iter_t
measure_next_n(bm_iter_t n, double elapsed, double enough_ns)
{
	double target = enough_ns * MEASURE_AIM, next;

	if (elapsed <= 0 || elapsed * MEASURE_GROW < target)
		next = (double)n * MEASURE_GROW;
	else
		next = ceil((double)n * target / elapsed);
	if (next < 1)
		next = 1;
	if (next > (double)MEASURE_MAX_N)
		next = (double)MEASURE_MAX_N;
	return (bm_iter_t)next;
}

/*
 * Find the count whose call lasts about enough, spending at least the
 * warmup on untimed-for-the-result calls; *n holds the count found.
 */
static int
measure_find_n(bm_ctx *ctx, bm__counters *c, bm_fn fn, void *arg,
    double enough_ns, uint64_t warmup_us, bm_iter_t max_n, bm_iter_t *n)
{
	struct measure_one one;
	uint64_t start = bm__deadline_now();
	int rc;

	*n = 1;
	for (;;) {
		if ((rc = measure_call(ctx, c, fn, arg, *n, &one)) != 0)
			return rc;
		/*
		 * The most iterations allowed and still short: fn does no
		 * measurable work, and the base's empty loop of that many
		 * iterations would never end.
		 */
		if (*n >= max_n && one.ns < MEASURE_ACCEPT * enough_ns)
			return bm__fail(ctx, BM_ENOTIME, "the benchmark takes "
			    "no measurable time: %llu iterations lasted %.0f "
			    "ns", (unsigned long long)*n, one.ns);
		if (one.ns >= MEASURE_ACCEPT * enough_ns &&
		    bm__deadline_now() - start >= warmup_us * 1000u)
			return 0;
		if (one.ns < MEASURE_ACCEPT * enough_ns ||
		    one.ns > 2 * enough_ns)
			*n = measure_next_n(*n, one.ns, enough_ns);
		/* n times base operations must stay below the cap too. */
		if (*n > max_n)
			*n = max_n;
	}
}

/*
 * Time the repetitions intervals of n operations, minus the base, into
 * the result's samples.
 */
static int
measure_intervals(bm_ctx *ctx, bm__counters *c, bm_fn fn, void *arg,
    bm_iter_t n, bm_measurement *m)
{
	struct measure_one one;
	bm_result *r = &m->result;
	bm_sample *s;
	size_t k;
	int rc, cycles = bm__timer_has_cycles(&ctx->timer);

	for (k = 0; k < r->nsamples; k++) {
		if ((rc = measure_call(ctx, c, fn, arg, n, &one)) != 0)
			return rc;
		s = &r->samples[k];
		memset(s, 0, sizeof(*s));
		/* Below the base the honest figure is zero, not negative. */
		s->ns = one.ns > m->base_ns ? one.ns - m->base_ns : 0;
		s->n = n * m->base;
		s->cycles = NAN;
		if (cycles)
			s->cycles = one.cycles > m->base_cycles ?
			    one.cycles - m->base_cycles : 0;
		memcpy(s->events, one.ev, sizeof(s->events));
	}
	return 0;
}

/*
 * Time fn in the calling process: find the count n whose call lasts about
 * the context's enough (or o->enough_us when longer), measure the base
 * (the same loop around an empty body), then time o->repetitions calls
 * of fn(n) and subtract the base from each.
 */
int
bm_measure(bm_ctx *ctx, bm_fn fn, void *arg, const bm_options *o,
    bm_measurement *m)
{
	return bm_measure_base(ctx, fn, arg, 1, o, m);
}

/*
 * As bm_measure(), each of fn's iterations doing base operations: the
 * samples count n times base operations.
 */
int
bm_measure_base(bm_ctx *ctx, bm_fn fn, void *arg, uint64_t base,
    const bm_options *o, bm_measurement *m)
{
	bm_options defaults;
	bm_calibration cal;
	bm__counters c;
	bm_result *r;
	double enough_ns;
	uint64_t t0;
	int rc;

	if (m != NULL)
		memset(m, 0, sizeof(*m));
	if (ctx == NULL || fn == NULL || m == NULL)
		return -EINVAL;
	if (o == NULL) {
		bm_options_init(&defaults);
		o = &defaults;
	}
	if ((rc = measure_check(ctx, o)) != 0)
		return rc;
	if (base < 1 || base > MEASURE_MAX_BASE)
		return bm__fail(ctx, BM_ERANGE, "base %llu is out of range (1 "
		    "to 2^32 operations per iteration)",
		    (unsigned long long)base);
	m->base = base;
	if ((rc = bm_calibrate(ctx, &cal)) != 0)
		return rc;
	r = &m->result;
	r->parallel = 1;
	r->repetitions = o->repetitions;
	r->warmup_us = o->warmup_us;
	r->enough_us = o->enough_us > cal.enough_us ? o->enough_us :
	    cal.enough_us;
	r->nevents = ctx->events.n;
	memcpy(r->events, ctx->events.info, sizeof(r->events));
	/* Every sample comes from this one process. */
	r->processes = 1;
	r->nsamples = o->repetitions;
	if ((r->samples = calloc(r->nsamples, sizeof(*r->samples))) == NULL) {
		r->nsamples = 0;
		return bm__fail(ctx, -ENOMEM, "no memory for samples");
	}
	if ((rc = bm__counters_open(&c, &ctx->events)) != 0) {
		bm_result_free(r);
		return bm__fail(ctx, rc, "counters: %s", bm_strerror(rc));
	}
	enough_ns = (double)r->enough_us * 1000.0;
	t0 = bm__deadline_now();
	if ((rc = measure_find_n(ctx, &c, fn, arg, enough_ns, o->warmup_us,
	    MEASURE_MAX_N / base, &m->n)) == 0 &&
	    (rc = measure_base(ctx, &c, m->n, &m->base_ns,
	    &m->base_cycles)) == 0)
		rc = measure_intervals(ctx, &c, fn, arg, m->n, m);
	r->wall_s = (double)(bm__deadline_now() - t0) / 1e9;
	bm__counters_close(&c);
	if (rc == 1)
		rc = bm__fail(ctx, -EIO, "reading the counters failed");
	else if (rc != 0 && rc != BM_ENOTIME)
		rc = bm__fail(ctx, BM_EBENCH, "benchmark failed: %s",
		    bm_strerror(rc));
	if (rc == 0)
		rc = bm__result_check_time(ctx, r->samples, r->nsamples);
	if (rc == 0)
		rc = bm__result_merge(ctx, r, o->repetitions);
	if (rc != 0) {
		bm_result_free(r);
		memset(m, 0, sizeof(*m));
		return rc;
	}
	if (!bm__timer_has_cycles(&ctx->timer))
		m->base_cycles = NAN;
	m->ops = (double)m->n * (double)base;
	m->seconds = r->per_op_ns.median * m->ops / 1e9;
	m->cycles = r->cycles_per_op * m->ops;
	return 0;
}
