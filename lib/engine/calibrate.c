/* calibrate.c: measure enough, the timing overhead and the loop overhead. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Candidate interval lengths for get_enough, shortest first.  lmbench
 * starts at 5 ms because its clock counts microseconds; a nanosecond clock
 * read in tens of nanoseconds is exact to 0.1% at 100 us, so the question
 * becomes only whether the machine behaves linearly at that length.
 */
static const uint64_t calibrate_candidates_us[] = {
	100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000
};
#define CAL_NCANDIDATES \
	(sizeof(calibrate_candidates_us) / sizeof(calibrate_candidates_us[0]))

/* Reads of the clock for the timing overhead; the median is kept. */
#define CAL_TIMING_READS 1001
/* Tries per point; the minimum filters interrupts and preemption. */
#define CAL_TRIES 3
/* A disturbed probe is run again this many times at most. */
#define CAL_RETRIES 8
/* Attempts at one candidate interval before the next longer one. */
#define CAL_ATTEMPTS 3
/*
 * A candidate's attempts go on for this long at least, so that a short
 * length is tried across a stretch of the machine's time, not one moment.
 */
#define CAL_CANDIDATE_NS 20000000u
/* Linearity: doubling n must double the time to within this fraction. */
#define CAL_LINEAR 0.005
/* Repeatability: the median try within this fraction of the minimum. */
#define CAL_REPEAT 0.01
/* The clock's error over an interval must stay below this fraction. */
#define CAL_CLOCK_ERROR 0.001
/* Give up the search after this long (see calibrate_enough). */
#define CAL_BUDGET_NS 200000000u
/* Spin this long first so the core leaves any idle state. */
#define CAL_SPIN_NS 2000000u
/* Aim the loop-overhead fit at intervals this long. */
#define CAL_LOOP_NS 200000.0
/*
 * Pairs of loop timings (n, then 2n) for the loop overhead, taken in
 * turn so that the two minima come from the same stretch of the
 * machine's time (see calibrate_loop_o).
 */
#define CAL_LOOP_PAIRS 9

/* An empty loop the compiler must keep: one branch per iteration. */
void
bm__empty_loop(bm_iter_t n)
{
	bm_iter_t i;

	for (i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
}

/* A benchmark body that does nothing, called through a pointer. */
static int __attribute__((noinline))
calibrate_noop(bm_iter_t n, void *cookie)
{
	(void)n;
	(void)cookie;
	__asm__ volatile("" ::: "memory");
	return 0;
}

/* Sort helper for doubles. */
static int
calibrate_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A calibration in progress: the clock, the interference accounting that
 * judges each probe (when /proc lets it read), and what it met.
 */
struct calibrate_probe {
	/*
	 * Time one empty loop of n iterations (calibrate_time_loop; tests
	 * fake it).
	 */
	double (*loop)(struct calibrate_probe *p, bm_iter_t n);
	double (*fake)(void *arg, bm_iter_t n);	/* a test's loop */
	void *arg;				/* and its state */
	const bm__timer *t;
	struct bm__interfere in;
	int account;
	unsigned disturbed;	/* probes judged disturbed and run again */
	unsigned kept_disturbed;	/* ... kept when the retries ran out */
};

/*
 * Time one empty loop of n iterations, in nanoseconds.  A probe the
 * accounting judges disturbed (any time off the CPU beyond
 * BM__DISTURB_SHARE of it, or a change of CPU: an empty loop has no
 * wait of its own) is run again, up to CAL_RETRIES times.
 */
static double
calibrate_time_loop(struct calibrate_probe *p, bm_iter_t n)
{
	struct bm__ireading r0, r1;
	struct bm__ibase base;
	struct bm__idelta d;
	uint64_t t0, t1;
	double el = 0;
	int k;

	for (k = 0; k <= CAL_RETRIES; k++) {
		if (p->account)
			bm__interfere_read(&p->in, &r0);
		t0 = bm__clock_now(p->t);
		bm__empty_loop(n);
		t1 = bm__clock_now(p->t);
		el = t1 > t0 ? (double)(t1 - t0) : 0.0;
		if (!p->account)
			break;
		bm__interfere_read(&p->in, &r1);
		memset(&base, 0, sizeof(base));
		if (!bm__interfere_judge(&base, &r0, &r1, (uint64_t)el, n, 1, 0,
		    &d))
			break;
		p->disturbed++;
		if (k == CAL_RETRIES)
			p->kept_disturbed++;
	}
	return el;
}

/* The minimum and median of CAL_TRIES timings of an n-iteration loop. */
static void
calibrate_tries(struct calibrate_probe *p, bm_iter_t n, double *min,
    double *median)
{
	double v[CAL_TRIES];
	int i;

	for (i = 0; i < CAL_TRIES; i++)
		v[i] = p->loop(p, n);
	qsort(v, CAL_TRIES, sizeof(v[0]), calibrate_cmp);
	*min = v[0];
	*median = v[CAL_TRIES / 2];
}

/*
 * The cost of timing an interval: two clock reads around an indirect call
 * to an empty benchmark, as the engine does.  Also the clock's resolution,
 * the smallest non-zero step seen.
 */
static int
calibrate_timing_o(const bm__timer *t, double *ovh_ns, double *res_ns)
{
	double *d;
	bm_fn volatile fn = calibrate_noop;
	uint64_t t0, t1;
	double step = INFINITY;
	int i;

	d = calloc(CAL_TIMING_READS, sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	for (i = 0; i < CAL_TIMING_READS; i++) {
		t0 = bm__clock_now(t);
		(void)fn(0, NULL);
		t1 = bm__clock_now(t);
		d[i] = t1 > t0 ? (double)(t1 - t0) : 0.0;
		if (d[i] > 0 && d[i] < step)
			step = d[i];
	}
	qsort(d, CAL_TIMING_READS, sizeof(*d), calibrate_cmp);
	*ovh_ns = d[CAL_TIMING_READS / 2];
	*res_ns = isinf(step) ? 1e6 : step;
	free(d);
	return 0;
}

/*
 * The cost of one empty loop iteration, from the slope of time against n
 * (t(2n) - t(n)) / n, which cancels the fixed cost of reading the clock:
 * the least of CAL_LOOP_PAIRS timings of each, taken in turn, so that
 * both minima come from the same stretch of a shared VM's time, where an
 * iteration takes one cycle or nearly two (doc/measurements.md,
 * "LOOP_O: the calibration").
 */
static double
calibrate_loop_o(struct calibrate_probe *p)
{
	bm_iter_t n = 1u << 14;
	double t1, t2, v;
	int i;

	/* Grow n until one loop takes a measurable while. */
	while ((t1 = p->loop(p, n)) < CAL_LOOP_NS / 8 &&
	    n < ((bm_iter_t)1 << 40))
		n *= 8;
	if (t1 > 0)
		n = (bm_iter_t)ceil((double)n * CAL_LOOP_NS / t1);
	if (n < 1)
		n = 1;
	t1 = t2 = INFINITY;
	for (i = 0; i < CAL_LOOP_PAIRS; i++) {
		if ((v = p->loop(p, n)) < t1)
			t1 = v;
		if ((v = p->loop(p, 2 * n)) < t2)
			t2 = v;
	}
	return t2 > t1 ? (t2 - t1) / (double)n : 0.0;
}

/*
 * Whether the clock allows candidate i: its error (the timing overhead
 * and the resolution) under CAL_CLOCK_ERROR of the interval.
 */
static int
calibrate_clock_allows(size_t i, double ovh_ns, double res_ns)
{
	return ovh_ns + res_ns <= CAL_CLOCK_ERROR *
	    (double)calibrate_candidates_us[i] * 1000.0;
}

/*
 * Whether intervals of length e_ns, which the clock allows, are
 * trustworthy: doubling the work doubles the time, and repeated tries
 * agree.
 */
static int
calibrate_enough_ok(struct calibrate_probe *p, double e_ns, double per_iter_ns)
{
	double min1, med1, min2, med2;
	bm_iter_t n;

	n = (bm_iter_t)ceil(e_ns / per_iter_ns);
	if (n < 1)
		n = 1;
	calibrate_tries(p, n, &min1, &med1);
	calibrate_tries(p, 2 * n, &min2, &med2);
	if (min1 <= 0)
		return 0;
	if (fabs(min2 - 2 * min1) > CAL_LINEAR * 2 * min1)
		return 0;
	if (med1 - min1 > CAL_REPEAT * min1 || med2 - min2 > CAL_REPEAT * min2)
		return 0;
	return 1;
}

/* The shortest candidate the clock allows, or the longest. */
static uint64_t
calibrate_shortest(double ovh_ns, double res_ns)
{
	size_t i;

	for (i = 0; i + 1 < CAL_NCANDIDATES; i++)
		if (calibrate_clock_allows(i, ovh_ns, res_ns))
			break;
	return calibrate_candidates_us[i];
}

/*
 * Whether candidate i passes in one of its attempts (CAL_ATTEMPTS, and
 * more until CAL_CANDIDATE_NS have passed); -1 when the clock alone
 * rules its length out.
 */
static int
calibrate_candidate(struct calibrate_probe *p, size_t i, double per_iter_ns,
    double ovh_ns, double res_ns)
{
	double e_ns = (double)calibrate_candidates_us[i] * 1000.0;
	uint64_t t0 = bm__deadline_now();
	int k;

	if (!calibrate_clock_allows(i, ovh_ns, res_ns))
		return -1;
	for (k = 0; k < CAL_ATTEMPTS ||
	    bm__deadline_now() - t0 < CAL_CANDIDATE_NS; k++)
		if (calibrate_enough_ok(p, e_ns, per_iter_ns))
			return 1;
	return 0;
}

/*
 * Find the shortest candidate interval that passes; always returns one.
 * Each candidate gets CAL_ATTEMPTS attempts, since a failure on a
 * machine that disturbs the probes now and then (an interrupt the
 * accounting cannot see) says little about the length: what does not
 * pass in three attempts is a length the machine cannot give.
 *
 * A shared machine disturbs the probes in stretches of 10 ms to 2 s, and
 * three attempts at 100 us take about a millisecond: a stretch failed
 * the short candidates one after another until a longer one passed, and
 * the answer said when the stretch ended, not what length the machine
 * can give.  So a candidate's attempts go on for CAL_CANDIDATE_NS, and
 * once one passes, the machine being quiet, the shorter ones are tried
 * again, the first that passes taking its place.  A length the machine
 * cannot give (a fixed cost, a coarse clock) fails all the same.  On a
 * 2-CPU AMD EPYC KVM guest (2026-12-05, `enough` run 50 times quiet, 40
 * beside `stress-ng --cpu 1`, 25 beside `stress-ng --cpu 4 --vm 1`, in
 * turns with the search before) this answered 100 us every time, where
 * three attempts had answered 200 to 1000 us in 3 of 50, 1 of 40 and 2
 * of 25, and one suite's three calibrations 100, 2000 and 5000 us.  When the
 * time bound runs out first, *settled is 0 and the answer is the shortest
 * length the clock allows, not a longer one taken unproven: a noisy
 * machine fails the probes at every length, and a longer interval does
 * not make its figures better (the engine discards the intervals the
 * machine disturbed and takes the median over rounds) but multiplies the
 * time of every run: runs of the suite that had calibrated 20000 us took
 * 300 s and more, those at 100 us 122 s.
 */
static uint64_t
calibrate_enough(struct calibrate_probe *p, double per_iter_ns, double ovh_ns,
    double res_ns, uint64_t started, int *settled)
{
	size_t i, j;

	*settled = 1;
	if (per_iter_ns <= 0)
		per_iter_ns = 0.25;
	for (i = 0; i < CAL_NCANDIDATES; i++) {
		if (calibrate_candidate(p, i, per_iter_ns, ovh_ns,
		    res_ns) == 1) {
			/* Quiet now: the shorter lengths again. */
			for (j = 0; j < i &&
			    bm__deadline_now() - started <= CAL_BUDGET_NS; j++)
				if (calibrate_candidate(p, j, per_iter_ns,
				    ovh_ns, res_ns) == 1)
					return calibrate_candidates_us[j];
			return calibrate_candidates_us[i];
		}
		if (bm__deadline_now() - started > CAL_BUDGET_NS)
			break;
	}
	*settled = 0;
	return calibrate_shortest(ovh_ns, res_ns);
}

/* A fake probe's loop: the test's function on its argument. */
static double
calibrate_fake_loop(struct calibrate_probe *p, bm_iter_t n)
{
	return p->fake(p->arg, n);
}

/*
 * The interval search of the calibration with a loop timed by fn(arg, n)
 * instead of the clock, for tests: the answer in us and *settled.
 */
uint64_t
bm__calibrate_enough_fake(double (*fn)(void *, bm_iter_t), void *arg,
    double per_iter_ns, double ovh_ns, double res_ns, int *settled)
{
	struct calibrate_probe p;

	memset(&p, 0, sizeof(p));
	p.loop = calibrate_fake_loop;
	p.fake = fn;
	p.arg = arg;
	p.in.fd = -1;
	return calibrate_enough(&p, per_iter_ns, ovh_ns, res_ns,
	    bm__deadline_now(), settled);
}

/*
 * The cycles of one interval's overhead as the engine times it (child.c,
 * bm_interval): the cycle counter is read outside the clock at both ends,
 * so the interval's cycles hold a cycle read, two clock reads and the
 * indirect call.  The median of CAL_TIMING_READS.
 */
static int
calibrate_cycle_o(const bm__timer *t, double *out)
{
	double *d;
	bm_fn volatile fn = calibrate_noop;
	uint64_t c0, c1;
	int i;

	if ((d = calloc(CAL_TIMING_READS, sizeof(*d))) == NULL)
		return -ENOMEM;
	for (i = 0; i < CAL_TIMING_READS; i++) {
		c0 = bm__cycle_now(t);
		(void)bm__clock_now(t);
		(void)fn(0, NULL);
		(void)bm__clock_now(t);
		c1 = bm__cycle_now(t);
		d[i] = c1 > c0 ? (double)(c1 - c0) : 0.0;
	}
	qsort(d, CAL_TIMING_READS, sizeof(*d), calibrate_cmp);
	*out = d[CAL_TIMING_READS / 2];
	free(d);
	return 0;
}

/* The fewest cycles of CAL_TRIES empty loops of n iterations. */
static double
calibrate_loop_cycles(const bm__timer *t, bm_iter_t n)
{
	uint64_t c0, c1;
	double best = INFINITY, v;
	int i;

	for (i = 0; i < CAL_TRIES; i++) {
		c0 = bm__cycle_now(t);
		bm__empty_loop(n);
		c1 = bm__cycle_now(t);
		v = c1 > c0 ? (double)(c1 - c0) : 0.0;
		if (v < best)
			best = v;
	}
	return best;
}

/*
 * Measure the cycle subtimer's overheads as the clock's are measured: the
 * cost of an interval's reads, and the slope of cycles against loop
 * iterations, (c(2n) - c(n)) / n, which cancels the reads.
 */
int
bm__calibrate_cycles(bm_ctx *ctx)
{
	const bm__timer *t = &ctx->timer;
	bm_iter_t n = 1u << 14;
	double o, c1, c2;
	int rc;

	if (ctx->known & BM__KNOWN_CYCLES)
		return 0;
	if (!bm__timer_has_cycles(t)) {
		ctx->cal.cycle_o = ctx->cal.loop_o_cycles = NAN;
		ctx->known |= BM__KNOWN_CYCLES;
		return 0;
	}
	if ((rc = calibrate_cycle_o(t, &o)) != 0)
		return bm__fail(ctx, rc, "calibration: %s", bm_strerror(rc));
	/* Loops long enough that the counter's reads are a small part. */
	if (ctx->cal.loop_o_us > 0)
		n = (bm_iter_t)ceil(CAL_LOOP_NS / (ctx->cal.loop_o_us * 1000.0));
	if (n < 1024)
		n = 1024;
	if (n > ((bm_iter_t)1 << 32))
		n = (bm_iter_t)1 << 32;
	c1 = calibrate_loop_cycles(t, n);
	c2 = calibrate_loop_cycles(t, 2 * n);
	ctx->cal.cycle_o = o;
	ctx->cal.loop_o_cycles = c2 > c1 ? (c2 - c1) / (double)n : 0.0;
	ctx->known |= BM__KNOWN_CYCLES;
	return 0;
}

/* Measure every calibration value the context does not know yet. */
int
bm__calibrate(bm_ctx *ctx)
{
	const bm__timer *t = &ctx->timer;
	uint64_t started = bm__deadline_now();
	double ovh_ns, res_ns, per_iter_ns;
	struct calibrate_probe p;
	int rc, settled = 1;

	if (t->clock == NULL)
		return bm__fail(ctx, BM_ECALIB, "no clock subtimer");
	memset(&p, 0, sizeof(p));
	p.loop = calibrate_time_loop;
	p.t = t;
	p.in.fd = -1;
	p.account = !ctx->interference_off && bm__interfere_open(&p.in) == 0;
	while (bm__deadline_now() - started < CAL_SPIN_NS)
		bm__empty_loop(1000);
	if ((rc = calibrate_timing_o(t, &ovh_ns, &res_ns)) != 0) {
		bm__interfere_close(&p.in);
		return bm__fail(ctx, rc, "calibration: %s", bm_strerror(rc));
	}
	if (!(ctx->known & BM__KNOWN_TIMING_O))
		ctx->cal.timing_o_us = ovh_ns / 1000.0;
	per_iter_ns = calibrate_loop_o(&p);
	if (!(ctx->known & BM__KNOWN_LOOP_O))
		ctx->cal.loop_o_us = per_iter_ns / 1000.0;
	if (!(ctx->known & BM__KNOWN_ENOUGH))
		ctx->cal.enough_us = calibrate_enough(&p, per_iter_ns, ovh_ns,
		    res_ns, started, &settled);
	bm__interfere_close(&p.in);
	ctx->known |= BM__KNOWN_ALL;
	ctx->cal.disturbed = p.disturbed;
	ctx->cal.settled = settled && p.kept_disturbed == 0;
	ctx->cal.seconds = (double)(bm__deadline_now() - started) / 1e9;
	return 0;
}

/* Calibrate what is not yet known and report the values. */
int
bm_calibrate(bm_ctx *ctx, bm_calibration *out)
{
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((ctx->known & BM__KNOWN_ALL) != BM__KNOWN_ALL &&
	    (rc = bm__calibrate(ctx)) != 0)
		return rc;
	if ((rc = bm__calibrate_cycles(ctx)) != 0)
		return rc;
	/*
	 * The cycle rate, once per timer: a run's record converts cycles to
	 * time with it.  Its failure is the record's to tell (null, with
	 * the reason), not the run's.
	 */
	bm__tsc_settle(ctx);
	if (out != NULL)
		*out = ctx->cal;
	return 0;
}
