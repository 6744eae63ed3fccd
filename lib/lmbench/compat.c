/* compat.c: lmbench's timing(3) names, a thin layer over the bm_ API. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#include "internal.h"
#include "timing.h"

/*
 * lmbench's interface keeps its state between calls (get_n() after
 * benchmp(), stop() after start()), so this layer has what lmbench has:
 * one process-wide state.  It is the only file-level state of the
 * library, and it lives in the calling process, never shared with the
 * workers, which get their own copy at fork.
 */
/* How long a worker with per-interval setup may take to answer, us. */
#define COMPAT_SETUP_TIMEOUT_US 300000000u

/* The longest interval benchmp() asks the engine for, microseconds. */
#define COMPAT_MAX_ENOUGH_US 100000u

/* The callbacks lmbench passed, for the int-returning adapters. */
struct compat_cookie {
	support_f initialize;
	bench_f benchmark;
	support_f cleanup;
	void *cookie;
};

static struct {
	bm_ctx *ctx;
	int setup_rc;		/* the environment was bad */
	uint64_t n;
	uint64_t usecs;
	uint64_t start_ns;
	result_t *results;	/* what get_results() returns */
	result_t *own;		/* benchmp()'s results, own_cap entries */
	int own_cap;
	result_t empty;		/* before any benchmp() or set_results() */
	/* In a worker: the callbacks, the call's count, stop() seen. */
	const struct compat_cookie *call;
	iter_t call_n;
	int call_ended;
	char err[256];
	char setup_err[256];	/* why the context could not be set up */
} compat;

/*
 * lmbench's benchmp keeps every interval it times; so does this one,
 * unless BENCHMP_INTERFERENCE asks for the accounting.  A partner that
 * the benchmark forks itself (lat_pipe's writer) is unknown to the
 * engine, and its wakeups read as disturbance: the accounting discarded
 * and ran again nearly every interval, up to its bound, and lmbench's
 * lat_pipe ported here took 16 s against lmbench's 13.4 s on a quiet
 * 2-CPU guest (34 s against 18.6 s loaded); 7.8 to 9 s without it.
 */
static void
compat_quiet(bm_ctx *ctx)
{
	if (bm_ctx_source(ctx, BM_SETTING_INTERFERENCE) == BM_SOURCE_BUILTIN)
		ctx->interference_off = 1;
}

/*
 * Create the process-wide context and read the environment, once.  When
 * that failed (now or at an earlier call) the reason is copied to the
 * error message on every call, so that each failed call says why.
 */
static bm_ctx *
compat_ctx(void)
{
	if (compat.ctx != NULL)
		return compat.ctx;
	if (compat.setup_rc == 0) {
		compat.setup_rc = bm_ctx_new(&compat.ctx);
		if (compat.setup_rc != 0) {
			compat.ctx = NULL;
			(void)snprintf(compat.setup_err,
			    sizeof(compat.setup_err), "%s",
			    bm_strerror(compat.setup_rc));
		} else if ((compat.setup_rc =
		    bm_ctx_load_env(compat.ctx)) != 0) {
			(void)snprintf(compat.setup_err,
			    sizeof(compat.setup_err), "%s",
			    bm_ctx_errmsg(compat.ctx));
			bm_ctx_free(compat.ctx);
			compat.ctx = NULL;
		} else {
			compat_quiet(compat.ctx);
			return compat.ctx;
		}
		if (compat.setup_err[0] == '\0')
			(void)snprintf(compat.setup_err,
			    sizeof(compat.setup_err), "%s",
			    bm_strerror(compat.setup_rc));
	}
	(void)snprintf(compat.err, sizeof(compat.err), "%s", compat.setup_err);
	return NULL;
}

/* Whether benchmp() runs with the interference accounting (for tests). */
int
bm__compat_interference(void)
{
	bm_ctx *ctx = compat_ctx();

	return ctx != NULL && !ctx->interference_off;
}

/* No results: get_results() empty, get_n() 1, gettime() 0. */
static void
compat_empty(void)
{
	if (compat.own != NULL)
		compat.own->N = 0;
	compat.empty.N = 0;
	compat.results = compat.own != NULL ? compat.own : &compat.empty;
	compat.n = 1;
	compat.usecs = 0;
}

/*
 * Keep why a call failed: the detail alone when it names the error
 * already (the library's details often begin with bm_strerror()'s
 * words), else "error: detail"; the results are emptied and get_n() is
 * 1 and gettime() 0, as lmbench leaves them (a caller that divides by
 * get_n() does not divide by zero).
 */
static void
compat_fail(int rc, const char *detail)
{
	const char *name = bm_strerror(rc);

	compat_empty();
	if (detail == NULL || *detail == '\0')
		(void)snprintf(compat.err, sizeof(compat.err), "%s", name);
	else if (strncmp(detail, name, strlen(name)) == 0)
		(void)snprintf(compat.err, sizeof(compat.err), "%s", detail);
	else
		(void)snprintf(compat.err, sizeof(compat.err), "%s: %s", name,
		    detail);
}

/*
 * The context whose clock start() and stop() read: in a worker the one
 * its intervals are timed on, elsewhere the process-wide one.
 */
static bm_ctx *
compat_clock(void)
{
	bm_ctx *ctx = bm__state_ctx(bm_state_current());

	return ctx != NULL ? ctx : compat_ctx();
}

/*
 * Adapter: lmbench's initialize, once per worker with n 0.  The worker
 * keeps its callbacks here (its own copy of this state, made at fork), so
 * that each call and benchmp_interval() can run them around the interval.
 */
static int
compat_initialize(bm_iter_t n, void *cookie)
{
	struct compat_cookie *c = cookie;

	compat.call = c;
	if (c->initialize != NULL)
		c->initialize((iter_t)n, c->cookie);
	return 0;
}

/*
 * Before an interval of n: lmbench's initialize(n), untimed (the
 * interval starts again after it), as lmbench calls it before every
 * interval.
 */
static void
compat_before(bm_state *s, iter_t n)
{
	compat.call_n = n;
	compat.call_ended = 0;
	if (compat.call == NULL || compat.call->initialize == NULL)
		return;
	compat.call->initialize(n, compat.call->cookie);
	bm__state_restart(s);
}

/*
 * After an interval: end it (unless stop() did) and run lmbench's
 * cleanup(n) untimed, as lmbench calls it after every interval.
 */
static void
compat_after(bm_state *s)
{
	uint64_t ns;

	if (compat.call == NULL || compat.call->cleanup == NULL)
		return;
	if (!compat.call_ended)
		(void)bm__state_stop(s, &ns);
	compat.call_ended = 1;
	compat.call->cleanup(compat.call_n, compat.call->cookie);
}

/* Adapter: lmbench's benchmark, between initialize(n) and cleanup(n). */
static int
compat_benchmark(bm_iter_t n, void *cookie)
{
	struct compat_cookie *c = cookie;
	bm_state *s = bm_state_current();

	compat.call = c;
	compat_before(s, (iter_t)n);
	c->benchmark((iter_t)n, c->cookie);
	compat_after(s);
	return 0;
}

/* Adapter: lmbench's cleanup, once per worker with n 0. */
static int
compat_cleanup(bm_iter_t n, void *cookie)
{
	struct compat_cookie *c = cookie;

	if (c->cleanup != NULL)
		c->cleanup((iter_t)n, c->cookie);
	return 0;
}

/*
 * The factor compat_keep() scales the kept intervals by (compat_scale()),
 * set before it sorts them: compat_cmp_sample() orders them as they are
 * stored.
 */
static double compat_sort_k = 1;

/*
 * Order samples by time per operation as get_results() holds them, the
 * microseconds times compat_sort_k, rounded as stored, over operations
 * compared without dividing (as insertsort()), then by the exact time
 * (for qsort).  Sorting by the exact time alone left two intervals whose
 * times round to the same unit out of order once rounded: 4999.6 us over
 * 68000 operations sorts before 5000.4 us over 68010, but as whole
 * microseconds the first is the slower; and sorting by whole
 * microseconds left them out of order once stored in nanoseconds.
 */
static int
compat_cmp_sample(const void *a, const void *b)
{
	const bm_sample *x = *(const bm_sample *const *)a;
	const bm_sample *y = *(const bm_sample *const *)b;
	double k = compat_sort_k;
	double lx = (double)llround(x->ns * k / 1000.0) * (double)y->n;
	double ly = (double)llround(y->ns * k / 1000.0) * (double)x->n;
	double rx = x->ns / (double)x->n, ry = y->ns / (double)y->n;

	if (lx != ly)
		return lx < ly ? -1 : 1;
	return rx < ry ? -1 : rx > ry;
}

/*
 * Make room for n entries in benchmp()'s own results.  0, or -ENOMEM.
 * The buffer only grows; a pointer get_results() gave before stays valid
 * until a benchmp() needs more room, as lmbench's merged results do.
 */
static int
compat_room(int n)
{
	result_t *p;

	if (compat.own != NULL && n <= compat.own_cap)
		return 0;
	if (n < TRIES)
		n = TRIES;
	if ((p = realloc(compat.own, (size_t)sizeof_result(n))) == NULL)
		return -ENOMEM;
	if (compat.results == compat.own)
		compat.results = p;
	compat.own = p;
	compat.own_cap = n;
	return 0;
}

/*
 * The power of ten the kept intervals are scaled by so that gettime() /
 * get_n() keeps the clock's resolution.  gettime() is whole
 * microseconds, as lmbench's; an interval of 230.4 us for one operation
 * would print 230.0000.  lmbench's intervals last ENOUGH (5 ms or more)
 * and hold many operations; here they may be as short as the clock
 * allows, so both u and n of every kept interval are multiplied by 10^k
 * (at most 1000, nanoseconds) until the kept interval has 7 digits: the
 * time per operation is the same, only its precision is kept.  n times
 * the factor stays under 2^53.
 */
static double
compat_scale(const bm_sample *kept, uint64_t nmax)
{
	double k = 1, us = kept->ns / 1000.0;

	while (k < 1000 && us * k < 1e6 && (double)nmax * k * 10 < 0x1p53)
		k *= 10;
	return k;
}

/* The index of the sample of v[0..c-1] whose time per operation is nearest med. */
static size_t
compat_nearest(const bm_sample **v, size_t c, double med)
{
	double best = INFINITY, d;
	size_t i, m = 0;

	for (i = 0; i < c; i++) {
		d = fabs(v[i]->ns / (double)v[i]->n - med);
		if (d < best) {
			best = d;
			m = i;
		}
	}
	return m;
}

/*
 * Keep what the tools report, as real intervals: the round whose median
 * is the reported one (the closest to per_op_ns.median), its intervals
 * sorted by time per operation, and of them the one closest to the
 * reported median as (n, usecs) for get_n()/gettime().  With parallel
 * workers that is one worker's interval, so gettime() / get_n() is the
 * per-worker latency the tools print.  get_results() holds an odd number
 * of that round's intervals (all of them but one at most, as lmbench
 * keeps every interval: more than TRIES when there are more), in
 * lmbench's order (slowest first), with the kept one in the middle, so
 * that save_median() keeps it again; each scaled by compat_scale()'s
 * factor.  0, or -ENOMEM.
 */
static int
compat_keep(const bm_result *r)
{
	const bm_sample **v, *kept;
	double med = r->per_op_ns.median, best = INFINITY, d, k;
	size_t i, c = 0, m = 0, h, j;
	uint64_t nmax = 0;
	unsigned round = 0, p;
	result_t *res;

	for (p = 0; p < r->processes && r->process_ns != NULL; p++) {
		d = fabs(r->process_ns[p] - med);
		if (d < best) {
			best = d;
			round = p;
		}
	}
	if ((v = calloc(r->nsamples + 1, sizeof(*v))) == NULL)
		return -ENOMEM;
	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].process == round && r->samples[i].n > 0) {
			v[c++] = &r->samples[i];
			if (r->samples[i].n > nmax)
				nmax = r->samples[i].n;
		}
	if (c == 0) {
		free(v);
		return 0;
	}
	if (c > INT_MAX / 2 || compat_room((int)c) != 0) {
		free(v);
		return -ENOMEM;
	}
	kept = v[compat_nearest(v, c, med)];
	k = compat_scale(kept, nmax);
	compat_sort_k = k;
	qsort(v, c, sizeof(*v), compat_cmp_sample);
	for (m = 0; v[m] != kept; m++)
		;
	h = m < c - 1 - m ? m : c - 1 - m;
	res = compat.own;
	for (j = 0; j <= 2 * h; j++) {
		/* Fastest first in v, slowest first in the results. */
		i = m - h + j;
		res->v[2 * h - j].u = (uint64_t)llround(v[i]->ns * k / 1000.0);
		res->v[2 * h - j].n = (uint64_t)((double)v[i]->n * k);
	}
	res->N = (int)(2 * h + 1);
	compat.results = res;
	free(v);
	save_median();
	return 0;
}

/*
 * Measure benchmark in parallel workers and keep the median interval.
 * Negative arguments and a NULL benchmark are refused (BM_EINVAL's
 * -EINVAL): lmbench would crash or loop on them.
 */
void
benchmp(support_f initialize, bench_f benchmark, support_f cleanup,
    int enough, int parallel, int warmup, int repetitions, void *cookie)
{
	struct compat_cookie c = { initialize, benchmark, cleanup, cookie };
	bm_bench b = { .initialize = compat_initialize,
	    .benchmark = compat_benchmark, .cookie = &c };
	bm_options o;
	bm_result r;
	bm_ctx *ctx;
	unsigned rounds;
	int rc;

	compat.err[0] = '\0';
	compat_empty();
	if (benchmark == NULL) {
		compat_fail(-EINVAL, "benchmp: the benchmark is NULL");
		return;
	}
	if (enough < 0 || parallel < 0 || warmup < 0 || repetitions < 0) {
		compat_fail(-EINVAL, "benchmp: enough, parallel, warmup and "
		    "repetitions cannot be negative");
		return;
	}
	if ((ctx = compat_ctx()) == NULL)
		return;
	if (cleanup != NULL)
		b.cleanup = compat_cleanup;
	bm_options_init(&o);
	/*
	 * lmbench times repetitions intervals of enough each, once; the
	 * engine times them in each of several rounds of fresh processes,
	 * and each round also spends a call or two of the interval's length
	 * on finding the count, warming up and cooling down.  An enough
	 * asked for (lmbench's SHORT, MEDIUM, LONGER: 1 to 7.5 s) is shared
	 * out over the rounds and capped at COMPAT_MAX_ENOUGH_US, so that
	 * the run takes no longer than lmbench's: with 1 s intervals,
	 * lat_pipe took 25 s in one round and 31 s in five, against
	 * lmbench's 12.5 s.  Never below the calibrated interval, which the
	 * engine keeps as the least.
	 */
	rounds = ctx->proc_min != 0 ? ctx->proc_min :
	    (o.processes != 0 ? o.processes : BM_DEFAULT_PROCESSES);
	o.enough_us = (uint64_t)enough / (rounds > 0 ? rounds : 1);
	if (o.enough_us > COMPAT_MAX_ENOUGH_US)
		o.enough_us = COMPAT_MAX_ENOUGH_US;
	o.parallel = parallel > 0 ? (unsigned)parallel : 1;
	/*
	 * The warmup too: lmbench waits it once, the engine before each
	 * round (bw_tcp asks for LONGER, 7.5 s: 39 s in five rounds against
	 * lmbench's 7.6 s), so each round waits its share.
	 */
	o.warmup_us = (uint64_t)warmup / (rounds > 0 ? rounds : 1);
	if (repetitions > 0)
		o.repetitions = (unsigned)repetitions;
	/*
	 * The engine bounds each wait by what the intervals should take;
	 * initialize(n) and cleanup(n) around every interval are not in
	 * that, and may take longer than the interval itself (lat_fs
	 * creates the n files it then times deleting: a worker was given
	 * up after 10 s).  With them, each wait is bounded by
	 * COMPAT_SETUP_TIMEOUT_US instead.
	 */
	if (initialize != NULL || cleanup != NULL)
		o.timeout_us = COMPAT_SETUP_TIMEOUT_US;
	rc = bm_run(ctx, &b, &o, &r);
	if (rc != 0) {
		compat_fail(rc, bm_ctx_errmsg(ctx));
		return;
	}
	if ((rc = compat_keep(&r)) != 0)
		compat_fail(rc, NULL);
	else if (compat.usecs == 0)
		compat_fail(BM_ENOTIME, "the kept interval is 0 microseconds "
		    "long: the benchmark takes no time this clock can see");
	bm_result_free(&r);
}

/* The running worker's state. */
void *
benchmp_getstate(void)
{
	return bm_state_current();
}

/*
 * End an interval and return the count for the next: as lmbench's, run
 * cleanup(n) after the interval and initialize(n) before the next, both
 * untimed.  Outside a worker (state NULL) there is no interval: 0.
 */
iter_t
benchmp_interval(void *state)
{
	bm_state *s = state;
	iter_t n;

	if (s == NULL)
		return 0;
	compat_after(s);
	n = (iter_t)bm_interval(s);
	compat_before(s, n);
	return n;
}

/*
 * Start a timing interval.  Inside a benchmp() worker's benchmark the
 * interval the engine is timing starts again now, so that setup the
 * benchmark did before is not timed (lmbench times each interval from
 * the last start()).
 */
void
start(struct timeval *begin)
{
	bm_ctx *ctx = compat_clock();

	if (begin != NULL)
		(void)gettimeofday(begin, NULL);
	bm__state_restart(bm_state_current());
	compat.call_ended = 0;
	compat.start_ns = ctx != NULL ? bm__clock_now(&ctx->timer) : 0;
}

/*
 * Stop the interval and keep its length in microseconds: from begin
 * (wall time) when it is given, as lmbench does, else from start() on the
 * context's clock.  Inside a benchmp() worker's benchmark the engine's
 * interval ends here too: what the benchmark does until it returns is
 * not timed.
 */
uint64
stop(struct timeval *begin, struct timeval *end)
{
	struct timeval now_tv;
	bm_ctx *ctx;
	uint64_t now, ns = 0;
	int inflight = bm__state_stop(bm_state_current(), &ns);

	if (inflight)
		compat.call_ended = 1;
	(void)gettimeofday(&now_tv, NULL);
	if (end != NULL)
		*end = now_tv;
	if (begin != NULL) {
		compat.usecs = tvdelta(begin, &now_tv);
		return compat.usecs;
	}
	if (inflight) {
		compat.usecs = (ns + 500) / 1000;
		return compat.usecs;
	}
	if ((ctx = compat_clock()) == NULL)
		return 0;
	now = bm__clock_now(&ctx->timer);
	compat.usecs = now > compat.start_ns ?
	    (now - compat.start_ns + 500) / 1000 : 0;
	return compat.usecs;
}

/* Microseconds since start(), on the context's clock, without stopping. */
uint64
usecs_spent(void)
{
	bm_ctx *ctx;
	uint64_t now;

	if ((ctx = compat_clock()) == NULL)
		return 0;
	now = bm__clock_now(&ctx->timer);
	return now > compat.start_ns ? (now - compat.start_ns) / 1000 : 0;
}

/* tdiff = t1 - t0 with the microseconds in 0..999999; zero if negative. */
void
tvsub(struct timeval *tdiff, struct timeval *t1, struct timeval *t0)
{
	long long us = ((long long)t1->tv_sec - (long long)t0->tv_sec) *
	    1000000LL + ((long long)t1->tv_usec - (long long)t0->tv_usec);

	if (us < 0)
		us = 0;
	tdiff->tv_sec = (time_t)(us / 1000000LL);
	tdiff->tv_usec = (suseconds_t)(us % 1000000LL);
}

/* Microseconds from start to stop, 0 when stop is earlier. */
uint64
tvdelta(struct timeval *start_tv, struct timeval *stop_tv)
{
	struct timeval d;

	tvsub(&d, stop_tv, start_tv);
	return (uint64_t)d.tv_sec * 1000000u + (uint64_t)d.tv_usec;
}

/* Iterations of the kept interval. */
uint64
get_n(void)
{
	return compat.n;
}

/* Set the iterations of the kept interval. */
void
set_n(uint64 n)
{
	compat.n = n;
}

/* lmbench's older name of set_n(). */
void
save_n(uint64 n)
{
	set_n(n);
}

/* Microseconds of the kept interval. */
uint64
gettime(void)
{
	return compat.usecs;
}

/* Set the microseconds of the kept interval. */
void
settime(uint64 usecs)
{
	compat.usecs = usecs;
}

/* The calibrated interval, never shorter than the caller's enough. */
uint64
get_enough(uint64 enough)
{
	bm_calibration cal;
	bm_ctx *ctx = compat_ctx();

	if (ctx == NULL || bm_calibrate(ctx, &cal) != 0)
		return enough;
	return cal.enough_us > enough ? cal.enough_us : enough;
}

/*
 * The timing overhead in whole microseconds, as lmbench declares it; with
 * a nanosecond clock it rounds to 0 (bm_calibrate() has the fraction).
 */
uint64
t_overhead(void)
{
	bm_calibration cal;
	bm_ctx *ctx = compat_ctx();

	if (ctx == NULL || bm_calibrate(ctx, &cal) != 0)
		return 0;
	return (uint64_t)llround(cal.timing_o_us);
}

/* The loop overhead in microseconds. */
double
l_overhead(void)
{
	bm_calibration cal;
	bm_ctx *ctx = compat_ctx();

	if (ctx == NULL || bm_calibrate(ctx, &cal) != 0)
		return 0;
	return cal.loop_o_us;
}

/* Why the last compat call failed, or NULL. */
const char *
bm_compat_errmsg(void)
{
	return compat.err[0] != '\0' ? compat.err : NULL;
}

/* Bytes of a result_t with room for n entries (at least TRIES). */
int
sizeof_result(int n)
{
	if (n <= TRIES)
		return (int)sizeof(result_t);
	return (int)(sizeof(result_t) + (size_t)(n - TRIES) * sizeof(value_t));
}

/* Empty a result. */
void
insertinit(result_t *r)
{
	if (r != NULL)
		r->N = 0;
}

/*
 * Add an interval keeping lmbench's order: the slowest time per
 * operation first, the fastest last.  An interval of 0 microseconds or
 * of no operations is not a measurement and is dropped, as lmbench drops
 * the first.  As in lmbench the caller sizes r (sizeof_result()); only
 * benchmp()'s own results, whose size is known here, refuse to overflow.
 */
void
insertsort(uint64 u, uint64 n, result_t *r)
{
	int i;

	if (r == NULL || u == 0 || n == 0)
		return;
	if (r->N < 0)
		r->N = 0;
	if (r == compat.own && r->N >= compat.own_cap)
		return;
	if (r == &compat.empty && r->N >= TRIES)
		return;
	/* u/n > v.u/v.n (slower), compared without dividing. */
	for (i = r->N; i > 0 && (double)u * (double)r->v[i - 1].n >
	    (double)r->v[i - 1].u * (double)n; i--)
		r->v[i] = r->v[i - 1];
	r->v[i].u = u;
	r->v[i].n = n;
	r->N++;
}

/* The kept results: benchmp()'s, or the last ones set_results() named. */
result_t *
get_results(void)
{
	return compat.results != NULL ? compat.results : &compat.empty;
}

/*
 * Make r the kept results, as lmbench does: the pointer is kept (not a
 * copy), so the caller's array may hold more than TRIES entries, and
 * get_results() returns r until the next set_results() or benchmp();
 * then keep the median for get_n() and gettime().
 */
void
set_results(result_t *r)
{
	if (r != NULL)
		compat.results = r;
	save_median();
}

/* Keep the last (fastest) result; n 1 and time 0 when there is none. */
void
save_minimum(void)
{
	result_t *r = get_results();

	if (r->N <= 0) {
		compat.n = 1;
		compat.usecs = 0;
		return;
	}
	compat.n = r->v[r->N - 1].n;
	compat.usecs = r->v[r->N - 1].u;
}

/*
 * Keep the median result: the middle one, or with an even count the mean
 * of the middle two (n and u each); n 1 and time 0 when there is none.
 */
void
save_median(void)
{
	result_t *r = get_results();
	int h = r->N / 2;

	if (r->N <= 0) {
		compat.n = 1;
		compat.usecs = 0;
		return;
	}
	if (r->N % 2 == 1) {
		compat.n = r->v[h].n;
		compat.usecs = r->v[h].u;
		return;
	}
	compat.n = (r->v[h - 1].n + r->v[h].n) / 2;
	compat.usecs = (r->v[h - 1].u + r->v[h].u) / 2;
}

/*
 * The reporting helpers print as lmbench's do: to standard error, the
 * kept interval (gettime() microseconds) per n operations or bytes over
 * it, and nothing at all when the figure would be 0.  lmbench's MB and KB
 * are 10^6 and 10^3 bytes, as the bw_ tools' MB.
 */
#define COMPAT_MB 1e6
#define COMPAT_KB 1e3

/* Print gettime() / n scaled by mult with the unit's name, if not 0. */
static void
compat_print_per(const char *s, uint64 n, double mult, int prec,
    const char *unit)
{
	double t;

	if (n == 0 || compat.usecs == 0)
		return;
	t = (double)compat.usecs * mult / (double)n;
	(void)fprintf(stderr, "%s: %.*f %s\n", s, prec, t, unit);
}

/* "S: T microseconds" of the kept interval per n operations. */
void
micro(char *s, uint64 n)
{
	compat_print_per(s, n, 1.0, 4, "microseconds");
}

/*
 * "S: T milliseconds": lmbench counts whole milliseconds of the interval
 * and divides them by n in integers, so T is a whole number, and a
 * figure under a millisecond prints nothing.
 */
void
milli(char *s, uint64 n)
{
	uint64_t ms;

	if (n == 0)
		return;
	ms = compat.usecs / 1000 / n;
	if (ms == 0)
		return;
	(void)fprintf(stderr, "%s: %llu milliseconds\n", s,
	    (unsigned long long)ms);
}

/* "S: T nanoseconds" of the kept interval per n operations. */
void
nano(char *s, uint64 n)
{
	compat_print_per(s, n, 1e3, 2, "nanoseconds");
}

/* Print bytes over the kept interval in units of unit bytes a second. */
static void
compat_print_bw(uint64 bytes, double unit, int prec, const char *name)
{
	double secs = (double)compat.usecs / 1e6;

	if (compat.usecs == 0)
		return;
	(void)fprintf(stderr, "%.*f %s/sec\n", prec,
	    (double)bytes / secs / unit, name);
}

/* "B MB/sec" of bytes over the kept interval, MB = 10^6 bytes. */
void
mb(uint64 bytes)
{
	compat_print_bw(bytes, COMPAT_MB, 2, "MB");
}

/* "B KB/sec" of bytes over the kept interval, KB = 10^3 bytes. */
void
kb(uint64 bytes)
{
	compat_print_bw(bytes, COMPAT_KB, 0, "KB");
}

/* The running worker's index, 0 outside a worker. */
int
benchmp_childid(void)
{
	bm_state *s = bm_state_current();

	return s != NULL ? (int)bm_worker_index(s) : 0;
}

/* Pin the calling process as LMBENCH_SCHED says; 0 or -1. */
int
handle_scheduler(int childno, int benchproc, int nbenchprocs)
{
	bm__sched sc;
	char err[128];
	long long w;

	if (childno < 0 || benchproc < 0 || nbenchprocs < 0)
		return -1;
	w = (long long)childno * ((long long)nbenchprocs + 1) + benchproc;
	if (w > (long long)BM_MAX_PARALLEL * 64)
		return -1;
	if (bm__sched_parse(&sc, getenv("LMBENCH_SCHED"), err,
	    sizeof(err)) != 0)
		return -1;
	if (bm__sched_check(&sc, err, sizeof(err)) != 0)
		return -1;
	return bm__sched_apply(&sc, (unsigned)w) == 0 ? 0 : -1;
}

/* Raise the soft limit of open files to the hard limit, if it is lower. */
void
morefds(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == r.rlim_max)
		return;
	r.rlim_cur = r.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &r);
}
