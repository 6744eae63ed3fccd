/* figure.c: a figure's statistics in its record's unit, at both levels, for every consumer. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Convert one sample's time per operation into the record's unit.  The
 * statistics describe the workers' intervals; the value is the tool's
 * figure, which for a rate with several workers is their aggregate.
 */
static double
figure_convert(const bm_record *rec, double ns_per_op)
{
	if (!rec->inverse)
		return ns_per_op * rec->scale - rec->offset;
	return ns_per_op > 0 ? rec->scale / ns_per_op : INFINITY;
}

/*
 * A rate of several workers is their aggregate (see bm_record_bandwidth),
 * one per round (process_ops_per_s): scale each round's values x by the
 * round's aggregate over their median, so that the values describe the
 * figure the record shows, every round's median is its aggregate and the
 * figure's statistics at every level (median, interval, modes, flags)
 * come from the one path that all records take.  A result without
 * process_ops_per_s is scaled as a whole to ops_per_s.  0, or an error.
 */
static int
figure_aggregate(const bm_record *rec, double *x, const unsigned *round)
{
	const bm_result *r = rec->result;
	unsigned np = r->processes > 0 ? r->processes : 1;
	double *med, median, agg;
	size_t i;
	int rc;

	if (!rec->inverse || r->parallel <= 1)
		return 0;
	if ((med = malloc(np * sizeof *med)) == NULL)
		return -ENOMEM;
	/* The rounds' medians alone: the statistics come after the scaling. */
	if ((rc = bm__stats_medians(x, round, r->nsamples, np, med)) == 0)
		rc = bm__stats_median(med, np, &median);
	for (i = 0; rc == 0 && i < r->nsamples; i++) {
		/* x = scale / ns per op, and ops per s = 1e9 / ns per op. */
		if (r->process_ops_per_s != NULL) {
			agg = rec->scale * r->process_ops_per_s[round[i]] / 1e9;
			if (med[round[i]] > 0 && isfinite(agg))
				x[i] *= agg / med[round[i]];
			continue;
		}
		/*
		 * Without each round's aggregate (a result put together by
		 * hand, or ranks joined with their rounds apart): one factor
		 * for all, so that the median is ops_per_s and the rounds
		 * keep their spread.
		 */
		agg = rec->scale * r->ops_per_s / 1e9;
		if (median > 0 && isfinite(agg))
			x[i] *= agg / median;
	}
	free(med);
	return rc;
}

/*
 * The statistics of the n values f->x from rounds f->round (0 to nr - 1):
 * at the process level and within processes (bm_stats_levels), every
 * round's median and how many values each round gave.  0 or an error.
 */
static int
figure_compute(struct bm__figure *f)
{
	size_t k;
	int rc;

	f->med = malloc(f->nr * sizeof *f->med);
	f->count = calloc(f->nr, sizeof *f->count);
	if (f->med == NULL || f->count == NULL)
		return -ENOMEM;
	rc = bm_stats_levels(f->x, f->round, f->n, f->nr, &f->proc,
	    &f->within, f->med);
	for (k = 0; rc == 0 && k < f->n; k++)
		f->count[f->round[k]]++;	/* round[k] < nr: checked */
	return rc;
}

/* The statistics of n values v from nr rounds round; see internal.h. */
int
bm__figure_levels(struct bm__figure *f, const double *v,
    const unsigned *round, size_t n, unsigned nr)
{
	memset(f, 0, sizeof *f);
	f->n = n;
	f->nr = nr;
	f->x = malloc(n * sizeof *f->x);
	f->round = malloc(n * sizeof *f->round);
	if (f->x == NULL || f->round == NULL)
		return -ENOMEM;
	memcpy(f->x, v, n * sizeof *f->x);
	memcpy(f->round, round, n * sizeof *f->round);
	return figure_compute(f);
}

/*
 * A record's samples in its unit into f->x and their rounds into
 * f->round: each sample converted, a rate of several workers scaled to
 * its rounds' aggregates (figure_aggregate).  0, BM_ERANGE without
 * samples, or -ENOMEM.
 */
static int
figure_values(struct bm__figure *f, const bm_record *rec)
{
	const bm_result *r = rec->result;
	size_t i;

	memset(f, 0, sizeof *f);
	if (r->nsamples == 0 || r->samples == NULL)
		return BM_ERANGE;
	f->n = r->nsamples;
	f->nr = r->processes > 0 ? r->processes : 1;
	f->x = malloc(f->n * sizeof *f->x);
	f->round = malloc(f->n * sizeof *f->round);
	if (f->x == NULL || f->round == NULL)
		return -ENOMEM;
	for (i = 0; i < f->n; i++) {
		f->x[i] = figure_convert(rec, r->samples[i].ns /
		    (double)r->samples[i].n);
		f->round[i] = r->samples[i].process;
	}
	return figure_aggregate(rec, f->x, f->round);
}

/*
 * The statistics of a record's samples in its unit (figure_values).
 * 0, BM_ERANGE without samples, or -ENOMEM.
 */
int
bm__figure_record(struct bm__figure *f, const bm_record *rec)
{
	int rc;

	if ((rc = figure_values(f, rec)) != 0)
		return rc;
	return figure_compute(f);
}

/*
 * Whether a record's figure is shown as its best process: one with
 * enough processes and no agreement rule (a sweep-derived figure keeps
 * the median, which repeats as well there), measured in rounds of fresh
 * processes (a served figure's visits keep their median:
 * BM__RESULT_SERVED).
 */
static int
figure_has_robust(const bm_record *rec)
{
	return rec->agreement == BM_AGREEMENT_NONE &&
	    rec->result->processes >= BM__ROBUST_MIN &&
	    !BM__RESULT_SERVED(rec->result);
}

/*
 * The value a record shows, picked from its rounds' medians without the
 * rest of its statistics (those are computed once, when the record is
 * decided: bm__record_decide): with best 1 the best process (higher or
 * lower as rec->better says) where the figure has one, else the median
 * of the rounds' medians, the same numbers bm__figure_record() and
 * bm__figure_robust() give.  1 for the best process, 0 for the median,
 * BM_ERANGE without samples, or -ENOMEM.
 */
int
bm__figure_value(const bm_record *rec, int best, double *out)
{
	struct bm__figure f;
	bm__robust rb;
	double median;
	int rc;

	if ((rc = figure_values(&f, rec)) == 0 &&
	    (f.med = malloc(f.nr * sizeof *f.med)) == NULL)
		rc = -ENOMEM;
	if (rc == 0 && (rc = bm__stats_medians(f.x, f.round, f.n, f.nr,
	    f.med)) == 0)
		rc = bm__stats_median(f.med, f.nr, &median);
	if (rc == 0 && best && figure_has_robust(rec) &&
	    (rec->better == BM_BETTER_LOWER ||
	    rec->better == BM_BETTER_HIGHER)) {
		rc = bm__stats_robust_med(f.med, f.nr, median,
		    rec->better == BM_BETTER_HIGHER, BM__ROBUST_FLOOR,
		    BM__PRECISION_DEFAULT, &rb);
		if (rc == 0) {
			*out = rb.value;
			rc = 1;
		} else if (rc == BM_ERANGE) {
			rc = 0;
		}
		if (rc != 0) {
			bm__figure_free(&f);
			return rc;
		}
	}
	if (rc == 0)
		*out = median;
	bm__figure_free(&f);
	return rc;
}

/* Release what a figure holds. */
void
bm__figure_free(struct bm__figure *f)
{
	free(f->x);
	free(f->round);
	free(f->med);
	free(f->count);
	memset(f, 0, sizeof *f);
}

/*
 * A record's robust figure (bm__stats_robust) over its figure f (its
 * samples in its unit, bm__figure_record): the best process, higher or
 * lower being better as higher says, with its interval, flagged wide
 * past precision.  A figure judged by an agreement rule (a sweep-derived
 * figure keeps the median, which repeats as well there) or from fewer
 * than BM__ROBUST_MIN processes has none: BM_ERANGE.  0 or an error.
 */
int
bm__figure_robust(const struct bm__figure *f, const bm_record *rec,
    int higher, double precision, bm__robust *out)
{
	if (!figure_has_robust(rec))
		return BM_ERANGE;
	return bm__stats_robust_med(f->med, f->nr, f->proc.median, higher,
	    BM__ROBUST_FLOOR, precision, out);
}
