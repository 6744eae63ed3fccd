/* tsc.c: the cycle subtimer's rate, measured against the monotonic clock. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/*
 * The measurement: TSC_WANT windows of TSC_WINDOW_NS each, the median
 * kept, at most TSC_MAX_WINDOWS tried (about 25 ms when the machine is
 * quiet).  The clock is CLOCK_MONOTONIC, elapsed time whatever clock the
 * timer uses (a CPU-time clock would not do); NTP slews it by at most
 * 500 ppm, far below the 1% a conversion of cycles needs.
 */
#define TSC_WINDOW_NS	5000000L
#define TSC_WANT	5
#define TSC_MIN_WINDOWS	3
#define TSC_MAX_WINDOWS	15
/* Reads of each end of a window; the tightest is kept. */
#define TSC_TRIES	8
/*
 * A window whose ends are uncertain by more than this fraction of its
 * counts is dropped: a preemption between the clock read and the
 * counter reads around it would otherwise pass for cycles.
 */
#define TSC_BOUND	1e-4

/* Sort helper for doubles. */
static int
tsc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Read one end of a window: the clock between two counter reads, the
 * counter taken as their midpoint, *width their distance (the end's
 * uncertainty in counts).  Of TSC_TRIES reads the tightest wins; a
 * counter that went backwards every time leaves *width at UINT64_MAX.
 */
static void
tsc_point(const bm__timer *t, uint64_t *ns, uint64_t *cyc, uint64_t *width)
{
	uint64_t c0, c1, n;
	int i;

	*width = UINT64_MAX;
	*ns = *cyc = 0;
	for (i = 0; i < TSC_TRIES; i++) {
		c0 = bm__cycle_now(t);
		n = bm__posix_clock_read(CLOCK_MONOTONIC);
		c1 = bm__cycle_now(t);
		if (c1 < c0 || c1 - c0 >= *width)
			continue;
		*width = c1 - c0;
		*ns = n;
		*cyc = c0 + (c1 - c0) / 2;
	}
}

/* Sleep for ns nanoseconds of the monotonic clock, through signals. */
static int
tsc_sleep(long ns)
{
	struct timespec req = { 0, ns }, rem;

	while (nanosleep(&req, &rem) != 0) {
		if (errno != EINTR)
			return -errno;
		req = rem;
	}
	return 0;
}

/*
 * Measure one window's rate into *hz: 1 for a clean window, 0 for one
 * dropped (an end too uncertain, a counter that stood still or went
 * back), or -errno when sleeping failed.
 */
static int
tsc_window(const bm__timer *t, double *hz)
{
	uint64_t n0, n1, c0, c1, w0, w1;
	int rc;

	tsc_point(t, &n0, &c0, &w0);
	if ((rc = tsc_sleep(TSC_WINDOW_NS)) != 0)
		return rc;
	tsc_point(t, &n1, &c1, &w1);
	if (w0 == UINT64_MAX || w1 == UINT64_MAX || c1 <= c0 || n1 <= n0)
		return 0;
	/* Each end's midpoint is off by at most half its width. */
	if (((double)w0 + (double)w1) / 2 > TSC_BOUND * (double)(c1 - c0))
		return 0;
	*hz = (double)(c1 - c0) * 1e9 / (double)(n1 - n0);
	return 1;
}

/*
 * Measure the counter's rate: the median of the clean windows, with
 * their spread; BM_ECALIB with the reason in r->detail when too few
 * were clean.
 */
static int
tsc_measure(const bm__timer *t, bm__cycle_rate *r)
{
	double v[TSC_MAX_WINDOWS];
	unsigned good = 0, tried;
	int rc;

	for (tried = 0; tried < TSC_MAX_WINDOWS && good < TSC_WANT; tried++) {
		if ((rc = tsc_window(t, &v[good])) < 0) {
			snprintf(r->detail, sizeof r->detail, "measuring the "
			    "cycle rate: nanosleep: %s", strerror(-rc));
			return BM_ECALIB;
		}
		good += (unsigned)rc;
	}
	if (good < TSC_MIN_WINDOWS) {
		snprintf(r->detail, sizeof r->detail, "measuring the cycle "
		    "rate: %u of %u windows clean (the counter stood still, "
		    "went backwards, or the machine was too busy)", good,
		    tried);
		return BM_ECALIB;
	}
	qsort(v, good, sizeof v[0], tsc_cmp);
	r->hz = v[good / 2];
	r->spread = (v[good - 1] - v[0]) / r->hz;
	r->windows = good;
	return 0;
}

/* Decide the context's cycle rate for its timer, once. */
void
bm__tsc_settle(bm_ctx *ctx)
{
	bm__cycle_rate *r = &ctx->rate;
	const bm__subtimer_ops *cy = ctx->timer.cycle;

	if (r->known)
		return;
	r->known = 1;
	r->hz = r->spread = NAN;
	r->windows = 0;
	r->measured = 0;
	r->detail[0] = '\0';
	if (!bm__timer_has_cycles(&ctx->timer) || cy->constant_rate == NULL) {
		r->invariant = -1;
		r->status = BM_ENOTSUP;
		snprintf(r->detail, sizeof r->detail, "cycle subtimer %s %s",
		    cy != NULL ? cy->name : "none", bm__timer_has_cycles(
		    &ctx->timer) ? "has no constant rate (its counts follow "
		    "the core's frequency)" : "counts nothing");
		return;
	}
	if (!(r->invariant = cy->constant_rate(r->detail,
	    sizeof r->detail))) {
		r->status = BM_ENOTSUP;
		return;
	}
	if (r->given_hz > 0) {
		r->hz = r->given_hz;
		r->status = 0;
		return;
	}
	r->status = tsc_measure(&ctx->timer, r);
	r->measured = r->status == 0;
	if (r->status != 0)
		r->hz = NAN;
}
