/* record-decide.c: a record's figure decided once: statistics, interval, flags and their reasons. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Everything a record's JSON and its line show beyond the record's own
 * fields is decided here, once per record, from the record as it stands
 * (its result, its unit, its judgement) and the context: the statistics
 * (bm__figure_record, the one call of bm_stats_levels for the record),
 * the robust figure, the interval, noisy and why, the overhead flag and
 * which way is better.  The JSON writer (record.c) and the tools' lines
 * read the decision and judge nothing.
 */

/*
 * Which way the figure is better: the tool's word, or from the metric (a
 * latency lower; a bandwidth, rate, clock or parallelism higher), else
 * from the unit (per second higher, a time lower); anything else (sizes,
 * counts) is "none", which a comparison does not judge.
 */
static const char *
decide_better(const bm_record *rec)
{
	static const char *const higher[] = { "bandwidth", "rate", "clock",
	    "parallelism", "throughput" };
	static const char *const times[] = { "ns", "us", "ms", "s" };
	const char *m = rec->metric != NULL ? rec->metric : "";
	const char *u = rec->unit != NULL ? rec->unit : "";
	size_t i, len = strlen(u);

	if (rec->better != BM_BETTER_AUTO)
		return rec->better == BM_BETTER_LOWER ? "lower" :
		    rec->better == BM_BETTER_HIGHER ? "higher" : "none";
	if (strcmp(m, "latency") == 0 || strcmp(m, "time") == 0)
		return "lower";
	for (i = 0; i < sizeof higher / sizeof higher[0]; i++)
		if (strcmp(m, higher[i]) == 0)
			return "higher";
	if (len > 2 && strcmp(u + len - 2, "/s") == 0)
		return "higher";
	for (i = 0; i < sizeof times / sizeof times[0]; i++)
		if (strcmp(u, times[i]) == 0)
			return "lower";
	return "none";
}

/*
 * Whether overheads given by TIMING_O or LOOP_O (not measured: those
 * agree with the clock by construction, and an empty loop rightly
 * measures about nothing with them, as bm__result_check_overhead says)
 * make more than BM__OVERHEAD_FLAG of the record's median raw interval,
 * share: then the figure moves with the values given, which no other
 * flag shows.
 */
static int
decide_overhead(const bm_ctx *ctx, double share)
{
	if (ctx == NULL || !(ctx->cal.from_env & (BM_CAL_TIMING_O |
	    BM_CAL_LOOP_O)))
		return 0;
	return isfinite(share) && share > BM__OVERHEAD_FLAG;
}

/*
 * How a record's judgement bears on noisy, its reasons into *reasons: 1
 * when it flags the figure (a disagreement, a contradiction, a share of
 * disturbed intervals that bm__stats_disturbed() calls disturbed, given
 * overheads that make a large share of its intervals, or a tool's word
 * that the machine moves it between runs); -1 when the
 * processes agreed and the statistics are over their answers alone (the
 * figure's values x): then the interval of a few equal answers (three
 * rounds cannot bound a median at 95%) says nothing the agreement rule
 * has not; 0 otherwise, the interval decides.
 */
static int
decide_flagged(const struct bm_decision *d, unsigned *reasons)
{
	const bm_record *rec = d->rec;
	const bm_interference *in = &rec->result->interference;
	size_t i;

	*reasons = 0;
	if (rec->agreement == BM_AGREEMENT_DISAGREE)
		*reasons |= BM_NOISY_DISAGREE;
	if (rec->ncontradicts > 0)
		*reasons |= BM_NOISY_CONTRADICTS;
	if (d->overhead_flagged)
		*reasons |= BM_NOISY_OVERHEAD;
	if (bm__stats_disturbed(in->intervals, in->disturbed))
		*reasons |= BM_NOISY_DISTURBED;
	if (bm_record_unsteady_why(rec) != NULL)
		*reasons |= BM_NOISY_UNSTEADY;
	if (*reasons != 0)
		return 1;
	if (rec->agreement != BM_AGREEMENT_AGREE || d->f.n != rec->nanswers)
		return 0;
	for (i = 0; i < d->f.n; i++)
		if (d->f.x[i] != rec->answers[i])
			return 0;
	return -1;
}

/* Whether a figure is noisy, and why; see internal.h. */
int
bm__figure_noisy(const struct bm__figure *f, int flagged,
    const bm__robust *rb, unsigned *reasons)
{
	unsigned why = 0;

	/* With agreed answers (flagged -1) the agreement rule alone judges. */
	if (rb != NULL && (rb->flags & BM__ROBUST_WIDE))
		why = BM_NOISY_WIDE;
	else if (rb == NULL && flagged >= 0 &&
	    (f->proc.flags & BM_STATS_NOISY))
		why = f->proc.ci_level < BM__SETTLED_LEVEL || f->nr == 1 ?
		    BM_NOISY_FEW : BM_NOISY_WIDE;
	if (reasons != NULL)
		*reasons = why;
	return flagged > 0 || why != 0;
}

/*
 * The robust figure of a record into d->rb (bm__figure_robust): the best
 * process, with its interval and flag, for a figure with a direction, at
 * least three processes and no agreement rule (a sweep-derived figure
 * keeps the median, which repeats as well there).  0 or an error.
 */
static int
decide_robust(struct bm_decision *d)
{
	const bm_ctx *ctx = d->ctx;
	int rc, higher = strcmp(d->better, "higher") == 0;

	if (!higher && strcmp(d->better, "lower") != 0)
		return 0;
	rc = bm__figure_robust(&d->f, d->rec, higher, ctx != NULL &&
	    ctx->precision > 0 ? ctx->precision : BM__PRECISION_DEFAULT,
	    &d->rb);
	if (rc == 0)
		d->has_robust = 1;
	return rc == BM_ERANGE ? 0 : rc;
}

/*
 * How far a served or derived figure's interval of the next run reaches,
 * in standard deviations of the next run's move: the normal quantile of
 * the level it states (BM__SERVED_LEVEL, BM__DERIVED_LEVEL, what such
 * intervals held on recorded suites).
 */
double
bm__decide_move_z(int derived)
{
	return bm__normal_quantile(1 - (derived ? BM__DERIVED_LEVEL :
	    BM__SERVED_LEVEL));
}

/*
 * The next run's interval of a figure f whose values (its visits, or
 * its processes' samples) are all positive reaches no farther than they
 * did, by BM__SERVED_FLOOR of them each way (so never inside the floor
 * of its median): a median is never further out than
 * the values it is taken from, and a side taken sqrt 2 times from a
 * skewed median's interval can reach where nothing was ever seen
 * (lat_mem_rd at 32 MB on a 2-vCPU Intel Xeon KVM guest, 2026-12-06:
 * visits of 26.7-94.3 ns gave 2.2-88 ns).  Replayed over the ten sets of
 * three suites of that guest from 2026-12-05 12:38 UTC to 2026-12-06
 * 07:54 UTC (3632 pairs, with benchmp history's own bound), the next
 * run fell inside 86.4% of the time with this bound and without it, the
 * widest interval +497% where it was +64011% (doc/measurements.md,
 * "2026-12-06, from 07:53 UTC: intervals that reach no farther than the
 * values").  1 when a side still reaches past precision times the
 * median m, else 0.
 */
static int
decide_reach(const struct bm__figure *f, double m, double precision,
    double *lo, double *hi)
{
	double vmin = INFINITY, vmax = 0;
	size_t i;

	for (i = 0; i < f->n; i++) {
		vmin = fmin(vmin, f->x[i]);
		vmax = fmax(vmax, f->x[i]);
	}
	if (f->n > 0 && vmin > 0 && isfinite(vmax) && m >= vmin &&
	    m <= vmax) {
		*lo = fmax(*lo, vmin * (1 - BM__SERVED_FLOOR));
		*hi = fmin(*hi, vmax * (1 + BM__SERVED_FLOOR));
	}
	return m - *lo > precision * fabs(m) || *hi - m > precision * fabs(m);
}

/*
 * A figure whose interval is where the next run's figure falls
 * (bm__stats_next_run): a served one (its rounds a scheduler's visits)
 * and one read off each process's sweep (its processes' answers judged
 * by an agreement rule: cache's levels, par_mem's parallelism, tlb's
 * reach, line's knee), whose runs move more than their processes do.
 * A served figure is noisy when the next run is expected to move by
 * more than the precision: when its interval, divided by the normal
 * quantile of its level (bm__decide_move_z), reaches past the precision
 * on either side, i.e. the move's standard deviation does (BM_NOISY_WIDE
 * in *stat).  On three sets of three standard suites of a 2-vCPU Intel
 * Xeon KVM guest (model 167), 2026-12-04, an interval that reached past
 * the precision flagged 41-54% of the figures, was right about a move of
 * more than 3% for 39-71% of them and caught 74-99% of the moves; this
 * rule flagged 31-33%, was right for 60-78% and caught 60-97%
 * (doc/measurements.md, "2026-12-03, from 23:58 UTC: the machine's past
 * runs, the flag of an expected move").  It is noisy too when its
 * visits are too few
 * for its median's interval to cover BM__SETTLED_LEVEL (BM_NOISY_FEW:
 * fewer than five, where a scheduler's budget held no more).  A derived
 * one stays as bm__figure_noisy() decided it (*stat as it comes: three
 * processes are too few, agreed answers are the agreement rule's to
 * judge), and is noisy too, its interval wide, when that reaches past
 * the precision.
 */
static void
decide_next(struct bm_decision *d, unsigned *stat)
{
	const bm_ctx *ctx = d->ctx;
	double p = ctx != NULL && ctx->precision > 0 ? ctx->precision :
	    BM__PRECISION_DEFAULT;
	int wide;

	p *= bm__decide_move_z(d->derived);
	(void)bm__stats_next_run(&d->f.proc, BM__SERVED_FLOOR, p, &d->lo,
	    &d->hi);
	wide = decide_reach(&d->f, d->f.proc.median, p, &d->lo, &d->hi);
	if (d->derived) {
		if (wide && !(*stat & (BM_NOISY_FEW | BM_NOISY_WIDE)))
			*stat |= BM_NOISY_WIDE;
		d->noisy = d->noisy || wide;
		return;
	}
	*stat = 0;
	if (d->f.proc.ci_level < BM__SETTLED_LEVEL)
		*stat = BM_NOISY_FEW;
	else if (wide)
		*stat = BM_NOISY_WIDE;
	d->noisy = d->flagged > 0 || *stat != 0;
}

/* Decide a record; see internal.h. */
int
bm__record_decide(struct bm_decision *d, const bm_ctx *ctx,
    const bm_record *rec)
{
	unsigned judged, stat;
	int rc;

	memset(d, 0, sizeof *d);
	d->ctx = ctx;
	d->rec = rec;
	d->lo = d->hi = NAN;
	d->better = decide_better(rec);
	d->overhead_share = bm__result_overhead_share(ctx, rec->result);
	d->overhead_flagged = decide_overhead(ctx, d->overhead_share);
	/*
	 * No figure: a derived one that nothing measured (line with no knee
	 * in any process's curve) has no statistics, and is not noisy:
	 * there is no number to doubt.
	 */
	if ((rc = bm__figure_record(&d->f, rec)) == BM_ERANGE)
		return 0;
	if (rc != 0 || (rc = decide_robust(d)) != 0)
		return rc;
	d->has_figure = 1;
	d->flagged = decide_flagged(d, &judged);
	d->noisy = bm__figure_noisy(&d->f, d->flagged, d->has_robust ?
	    &d->rb : NULL, &stat);
	if (!d->has_robust && d->f.proc.ci_level > 0) {
		d->served = BM__RESULT_SERVED(rec->result) &&
		    rec->agreement == BM_AGREEMENT_NONE;
		d->derived = rec->agreement != BM_AGREEMENT_NONE;
		if (d->served || d->derived)
			decide_next(d, &stat);
	}
	d->reasons = judged | stat;
	/*
	 * The interval shown: the robust figure's where it has one, as the
	 * value is (bm_record_latency and the others make it so), a served
	 * or derived figure's next run, else the median's widened to its
	 * floor; one value has none.
	 */
	if (d->has_robust) {
		d->lo = d->rb.ci_lo;
		d->hi = d->rb.ci_hi;
	} else if (d->served || d->derived) {
		/* (decide_next() placed it.) */
	} else if (d->f.proc.ci_level > 0) {
		bm__stats_interval(&d->f.proc, BM__CI_FLOOR, &d->lo, &d->hi);
	}
	/*
	 * A figure that a state no run sees moves between runs (a tool's
	 * word, bm_record_unsteady: a file system's last minute) has no
	 * interval that says where the next run falls: none is shown, and
	 * it is noisy for that reason, not for an interval's width.
	 */
	if (bm_record_unsteady_why(rec) != NULL) {
		d->unsteady = 1;
		d->lo = d->hi = NAN;
		d->reasons &= ~(unsigned)(BM_NOISY_WIDE | BM_NOISY_FEW);
	}
	return 0;
}

/* Release what a decision holds. */
void
bm__decision_release(struct bm_decision *d)
{
	bm__figure_free(&d->f);
}

/* Decide a record into a new decision; see benchmp/figures.h. */
int
bm_record_decide(const bm_ctx *ctx, const bm_record *rec, bm_decision **out)
{
	bm_decision *d;
	int rc;

	if (out == NULL)
		return -EINVAL;
	*out = NULL;
	if (rec == NULL || rec->result == NULL ||
	    (rec->nanswers > 0 && rec->answers == NULL))
		return -EINVAL;
	if ((d = malloc(sizeof *d)) == NULL)
		return -ENOMEM;
	if ((rc = bm__record_decide(d, ctx, rec)) != 0) {
		bm_decision_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

/* The decided interval and noisy flag; see benchmp/figures.h. */
int
bm_decision_interval(const bm_decision *d, double *lo, double *hi,
    int *noisy)
{
	if (d == NULL || lo == NULL || hi == NULL || noisy == NULL)
		return -EINVAL;
	*lo = d->lo;
	*hi = d->hi;
	*noisy = d->noisy;
	return 0;
}

/* The decided overhead flag and share; see benchmp/figures.h. */
int
bm_decision_overhead(const bm_decision *d, double *share)
{
	if (share != NULL)
		*share = d != NULL ? d->overhead_share : NAN;
	return d != NULL && d->overhead_flagged;
}

/* Why the decided figure is noisy; see benchmp/figures.h. */
unsigned
bm_decision_reasons(const bm_decision *d)
{
	return d != NULL ? d->reasons : 0;
}

/* Release a decision; see benchmp/figures.h. */
void
bm_decision_free(bm_decision *d)
{
	if (d == NULL)
		return;
	bm__decision_release(d);
	free(d);
}

/* The interval a record's JSON shows and its noisy flag; see benchmp/figures.h. */
int
bm_record_interval(const bm_ctx *ctx, const bm_record *rec, double *lo,
    double *hi, int *noisy)
{
	struct bm_decision d;
	int rc;

	if (rec == NULL || rec->result == NULL || lo == NULL || hi == NULL ||
	    noisy == NULL)
		return -EINVAL;
	*lo = *hi = NAN;
	*noisy = 0;
	if ((rc = bm__record_decide(&d, ctx, rec)) == 0)
		rc = bm_decision_interval(&d, lo, hi, noisy);
	bm__decision_release(&d);
	return rc;
}
