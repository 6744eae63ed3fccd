/* verdict.c: one figure of two stored runs judged: worse, better, same, changed, undecided, failed. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/*
 * The rules, in order (doc/benchmp-compare.1 says them to users):
 *  - a record that is bad (no value, 0, negative, not a number) or units
 *    of different kinds are a failure, never a verdict;
 *  - with at least two processes in both runs, Mann-Whitney's rank test
 *    over them gives the shift B/A (Hodges-Lehmann), its interval and a
 *    p value; the p values of all the figures are corrected together
 *    (Benjamini-Hochberg by default: an A/A comparison of a whole suite
 *    stays quiet at alpha, and real changes among many still show);
 *  - the records' own intervals, where both have one: separate is
 *    significant too, at the records' levels (no correction: they carry
 *    no p value), as benchmp-compare judged, where both intervals say
 *    where another run falls (verdict_interval_holds: not visited in a
 *    burst);
 *  - where both figures are served ones ("stat" "median of visits"), or
 *    either was visited in a burst (its suite's "burst"), a significant
 *    change needs their intervals (where a next run falls) apart too,
 *    intervals that say so (verdict_interval_holds), else it is
 *    undecided: the processes of such a run are its sets of workers,
 *    dozens across one run or a few in a row, which share that run's
 *    stretch of the host's phases;
 *  - a significant change beyond the threshold is worse or better; an
 *    interval of B/A inside +-threshold is same (a significant change
 *    smaller than it too, when its interval stays inside); anything
 *    else is undecided, with how many
 *    times the processes would narrow the interval enough (the width of
 *    a rank interval falls as one over the square root of the count); a
 *    figure without any interval is same within the threshold;
 *  - a figure that is better neither higher nor lower is changed or
 *    same, never gating;
 *  - a figure either record calls unsteady (the machine moves it
 *    between runs, whatever a run does: "unsteady", why) is undecided,
 *    with that reason.
 */

/* One unit: its name, its kind and its size in the kind's base. */
struct verdict_unit {
	const char *name;
	int kind;
	double size;
};

/* The units converted; sizes in binary multiples, rates in decimal (MB = 10^6 B). */
static const struct verdict_unit verdict_units[] = {
	{ "ns", 1, 1e-9 }, { "us", 1, 1e-6 }, { "ms", 1, 1e-3 }, { "s", 1, 1 },
	{ "B", 2, 1 }, { "bytes", 2, 1 }, { "KB", 2, 1024.0 },
	{ "MB", 2, 1048576.0 }, { "GB", 2, 1073741824.0 },
	{ "KB/s", 3, 1e3 }, { "MB/s", 3, 1e6 }, { "GB/s", 3, 1e9 }
};

/* The unit named s, or NULL. */
static const struct verdict_unit *
verdict_unit(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof verdict_units / sizeof verdict_units[0]; i++)
		if (strcmp(verdict_units[i].name, s) == 0)
			return &verdict_units[i];
	return NULL;
}

/* The factor from unit from into unit to. */
int
bm__verdict_unit_factor(const char *from, const char *to, double *f)
{
	const struct verdict_unit *a, *b;

	*f = 1;
	if (strcmp(from, to) == 0)
		return 0;
	a = verdict_unit(from);
	b = verdict_unit(to);
	if (a == NULL || b == NULL || a->kind != b->kind)
		return BM_ERANGE;
	*f = a->size / b->size;
	return 0;
}

/* The word of a verdict. */
const char *
bm__verdict_word(enum bm__verdict v)
{
	static const char *const w[] = { "same", "better", "worse", "changed",
	    "undecided", "failed" };

	return (size_t)v < sizeof w / sizeof w[0] ? w[v] : "failed";
}

/* The greatest level a rank interval of na and nb values reaches: 1 - 2/C(na+nb, na). */
static double
verdict_rank_level(size_t na, size_t nb)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 1 - 2 / c;
}

/* The rank evidence of the processes of a and b (b's scaled by f into j). */
static int
verdict_ranks(const struct bm__fig *a, const struct bm__fig *b, double f,
    double alpha, struct bm__judgement *j)
{
	double *bp, amin = INFINITY, amax = 0, bmin = INFINITY, bmax = 0;
	bm__paired st;
	size_t i;
	int rc;

	if ((bp = malloc(b->nprocs * sizeof *bp)) == NULL)
		return -ENOMEM;
	for (i = 0; i < b->nprocs; i++) {
		bp[i] = b->procs[i] * f;
		bmin = fmin(bmin, bp[i]);
		bmax = fmax(bmax, bp[i]);
	}
	for (i = 0; i < a->nprocs; i++) {
		amin = fmin(amin, a->procs[i]);
		amax = fmax(amax, a->procs[i]);
	}
	rc = bm__shift_logratio(a->procs, a->nprocs, bp, b->nprocs, 1 - alpha,
	    &st);
	free(bp);
	if (rc != 0 && rc != BM_ERANGE)
		return rc;
	j->evidence = BM__EV_RANKS;
	j->estimate = exp(st.shift);
	j->p = st.p;
	if (rc == 0) {
		j->lo = exp(st.lo);
		j->hi = exp(st.hi);
		j->level = st.level;
	} else {
		/* Too few processes for 1 - alpha: the widest interval, at its level. */
		j->lo = bmin / amax;
		j->hi = bmax / amin;
		j->level = verdict_rank_level(a->nprocs, b->nprocs);
	}
	return 0;
}

/*
 * Whether a record's interval is usable: finite, positive, in order, from
 * more than one sample and at a level above 0 where the record says (a
 * derived figure of one sample shows its value as both ends).
 */
static int
verdict_has_interval(const struct bm__fig *x)
{
	return isfinite(x->ci_lo) && isfinite(x->ci_hi) && x->ci_lo > 0 &&
	    x->ci_lo <= x->ci_hi && !(x->samples < 2) &&
	    !(x->ci_level <= 0);
}

/*
 * Whether a record's interval says where another run falls, so that two
 * apart tell a change: not for a figure its suite visited in a burst (a
 * size sweep's point, cache's: its visits in a row, one stretch of the
 * run, its processes too).  Between two standard suites 2 hours apart on
 * a 2-vCPU AMD EPYC guest, 2026-11-29, such points moved 7-80% past
 * intervals of +-3%.
 */
static int
verdict_interval_holds(const struct bm__fig *x)
{
	return !x->burst;
}

/* Note a failure of the comparison in j. */
static void
verdict_fail(struct bm__judgement *j, const char *side, const char *why)
{
	j->verdict = BM__V_FAILED;
	snprintf(j->why, sizeof j->why, "%s%s", side, why);
}

/* The evidence on figure a against b. */
void
bm__verdict_judge(const struct bm__fig *a, const struct bm__fig *b,
    double threshold, double alpha, struct bm__judgement *j)
{
	double f;

	memset(j, 0, sizeof *j);
	j->ratio = j->estimate = j->lo = j->hi = j->level = j->p = NAN;
	j->need = NAN;
	j->threshold = threshold;
	j->better = a->better;
	j->verdict = BM__V_UNDECIDED;
	if (a->bad != NULL || !isfinite(a->value))
		return verdict_fail(j, "A: ", a->bad ? a->bad : "not finite");
	if (b->bad != NULL || !isfinite(b->value))
		return verdict_fail(j, "B: ", b->bad ? b->bad : "not finite");
	if (bm__verdict_unit_factor(b->unit, a->unit, &f) != 0) {
		snprintf(j->why, sizeof j->why, "units of different kinds: "
		    "%s (A) and %s (B)", a->unit, b->unit);
		j->verdict = BM__V_FAILED;
		return;
	}
	j->ratio = j->estimate = b->value * f / a->value;
	j->evidence = BM__EV_VALUES;
	if (a->unsteady != NULL || b->unsteady != NULL) {
		j->unsteady = 1;
		snprintf(j->why, sizeof j->why, "%s%s", a->unsteady != NULL ?
		    "A: " : "B: ", a->unsteady != NULL ? a->unsteady :
		    b->unsteady);
		return;
	}
	j->drift = (a->served && b->served) || a->burst || b->burst;
	if (a->nprocs >= 2 && b->nprocs >= 2 && a->nprocs <= BM__PAIRED_MAX &&
	    b->nprocs <= BM__PAIRED_MAX) {
		if (verdict_ranks(a, b, f, alpha, j) != 0)
			return verdict_fail(j, "", "out of memory");
	}
	if (verdict_has_interval(a) && verdict_has_interval(b)) {
		double lo = b->ci_lo * f / a->ci_hi, hi = b->ci_hi * f / a->ci_lo;

		j->separate = lo > 1 || hi < 1;
		j->telling = j->separate && verdict_interval_holds(a) &&
		    verdict_interval_holds(b);
		if (j->evidence == BM__EV_RANKS)
			return;
		j->evidence = BM__EV_INTERVALS;
		j->lo = lo;
		j->hi = hi;
		/* Both intervals hold: at least la + lb - 1 (Bonferroni). */
		if (isfinite(a->ci_level) && isfinite(b->ci_level) &&
		    a->ci_level > 0 && b->ci_level > 0)
			j->level = fmax(0, a->ci_level + b->ci_level - 1);
	}
}

/* A figure's p value and its index, sorted by p. */
struct verdict_p {
	double p;
	size_t i;
};

/* Compare two figures by p value. */
static int
verdict_cmp_p(const void *x, const void *y)
{
	double p = ((const struct verdict_p *)x)->p;
	double q = ((const struct verdict_p *)y)->p;

	return (p > q) - (p < q);
}

/* Mark the rank tests that hold after the correction over all of them. */
static int
verdict_correct(struct bm__judgement *j, size_t n, double alpha,
    enum bm__correction corr)
{
	struct verdict_p *ix;
	size_t m = 0, i, last = 0;

	if ((ix = malloc((n ? n : 1) * sizeof *ix)) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (j[i].verdict != BM__V_FAILED &&
		    j[i].evidence == BM__EV_RANKS && isfinite(j[i].p)) {
			ix[m].p = j[i].p;
			ix[m++].i = i;
		}
	qsort(ix, m, sizeof *ix, verdict_cmp_p);
	if (corr == BM__CORR_BH) {
		/* Step up: every p up to the largest k with p(k) <= k alpha / m. */
		for (i = 0; i < m; i++)
			if (ix[i].p <= (double)(i + 1) * alpha / (double)m)
				last = i + 1;
		for (i = 0; i < last; i++)
			j[ix[i].i].significant = 1;
	} else {
		/* Holm steps down and stops at the first that fails. */
		for (i = 0; i < m; i++) {
			double lim = corr == BM__CORR_HOLM ?
			    alpha / (double)(m - i) : alpha;

			if (ix[i].p > lim) {
				if (corr == BM__CORR_HOLM)
					break;
				continue;
			}
			j[ix[i].i].significant = 1;
		}
	}
	free(ix);
	return 0;
}

/* The verdict of one judged figure whose significance is known. */
static void
verdict_rule(struct bm__judgement *j)
{
	double band = log1p(j->threshold), e = fabs(log(j->estimate));
	double L = log(j->lo), H = log(j->hi), h, le, scale;
	int has_iv = isfinite(L) && isfinite(H);

	/* What moves between runs whatever they do cannot tell a change. */
	if (j->unsteady) {
		j->verdict = BM__V_UNDECIDED;
		return;
	}
	/*
	 * Records whose intervals separate differ as benchmp-compare always
	 * judged, at the records' levels: five processes a run give a rank
	 * test no p under 2/252, which no correction over a suite of dozens
	 * of figures lets through.  The change is then the values' ratio.
	 */
	if (!j->significant && j->telling) {
		j->significant = 1;
		j->estimate = j->ratio;
		e = fabs(log(j->ratio));
	}
	if (j->better == BM__BETTER_NONE) {
		j->verdict = e > band && (j->significant ||
		    j->evidence == BM__EV_VALUES) ? BM__V_CHANGED : BM__V_SAME;
		return;
	}
	/*
	 * Served figures: their processes (sets of workers) share the
	 * run's stretch of the host's phases, which moves between runs, so
	 * that a change needs the intervals of where a next run falls apart.
	 */
	if (j->significant && e > band && j->drift && !j->telling) {
		j->verdict = BM__V_UNDECIDED;
		snprintf(j->why, sizeof j->why, "the processes differ by "
		    "%.3g%%, but %s", 100 * fabs(j->estimate - 1),
		    j->separate ? "a record's interval does not say where "
		    "another run falls (visited in a burst: one stretch of "
		    "its run)" : "the runs' intervals of where a next run "
		    "falls overlap: the host moves it that much between runs");
		return;
	}
	if (j->significant && e > band) {
		j->verdict = (j->estimate > 1) ==
		    (j->better == BM__BETTER_HIGHER) ? BM__V_BETTER :
		    BM__V_WORSE;
		return;
	}
	/*
	 * Same needs the interval inside the band, significant or not: a
	 * significant change under the threshold whose interval reaches past
	 * it may be the threshold's size.  Without an interval, a change
	 * within the threshold is same.
	 */
	if ((has_iv && L >= -band && H <= band) || (!has_iv && e <= band)) {
		j->verdict = BM__V_SAME;
		return;
	}
	j->verdict = BM__V_UNDECIDED;
	if (!has_iv) {
		snprintf(j->why, sizeof j->why, "no interval and no processes "
		    "to tell a change of %.3g%% from noise",
		    100 * fabs(j->estimate - 1));
		return;
	}
	/*
	 * How far the interval must shrink about the estimate to decide: into
	 * the band (same) when the estimate is inside it, else clear of 1
	 * (worse or better); its width falls as one over the square root of
	 * the processes.
	 */
	h = (H - L) / 2;
	le = log(j->estimate);
	if (fabs(le) <= band)
		scale = fmin(H > le ? (band - le) / (H - le) : INFINITY,
		    le > L ? (band + le) / (le - L) : INFINITY);
	else
		scale = le > 0 ? le / (le - L) : -le / (H - le);
	j->need = scale > 1e-12 ? 1 / (scale * scale) : INFINITY;
	if (j->need <= 1) {
		/* Clear of 1 alone, not once corrected over all the figures. */
		j->need = NAN;
		snprintf(j->why, sizeof j->why, "interval of B/A %.4g-%.4g "
		    "excludes no change at %.3g%%, the correction over all the "
		    "figures compared does not: more processes would decide",
		    j->lo, j->hi, 100 * j->level);
	} else if (isinf(j->need)) {
		snprintf(j->why, sizeof j->why, "interval of B/A %.4g-%.4g: the "
		    "change sits on the threshold of %.3g%%", j->lo, j->hi,
		    100 * j->threshold);
	} else {
		snprintf(j->why, sizeof j->why, "interval of B/A %.4g-%.4g "
		    "(+-%.3g%%) against a threshold of %.3g%%: about %.*fx the "
		    "processes would decide", j->lo, j->hi, 100 * expm1(h),
		    100 * j->threshold, j->need < 10 ? 1 : 0, j->need);
	}
}

enum bm__verdict
bm__verdict_paired(double lo, double hi, double shift, double threshold,
    enum bm__better better)
{
	double band = log1p(threshold);

	if (lo >= -band && hi <= band)
		return BM__V_SAME;
	if ((lo > 0 || hi < 0) && fabs(shift) >= band) {
		if (better == BM__BETTER_NONE)
			return BM__V_CHANGED;
		/* A larger value is worse where lower is better. */
		return (shift > 0) == (better == BM__BETTER_LOWER) ?
		    BM__V_WORSE : BM__V_BETTER;
	}
	return BM__V_UNDECIDED;
}

/* The verdicts of n judged figures. */
int
bm__verdict_decide(struct bm__judgement *j, size_t n, double alpha,
    enum bm__correction corr)
{
	size_t i;
	int rc;

	if ((rc = verdict_correct(j, n, alpha, corr)) != 0)
		return rc;
	for (i = 0; i < n; i++)
		if (j[i].verdict != BM__V_FAILED)
			verdict_rule(&j[i]);
	return 0;
}
