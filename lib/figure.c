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
	bm_stats proc, within;
	double *med, agg;
	size_t i;
	int rc;

	if (!rec->inverse || r->parallel <= 1)
		return 0;
	if ((med = malloc(np * sizeof *med)) == NULL)
		return -ENOMEM;
	rc = bm_stats_levels(x, round, r->nsamples, np, &proc, &within, med);
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
		if (proc.median > 0 && isfinite(agg))
			x[i] *= agg / proc.median;
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
 * The statistics of a record's samples in its unit: each sample
 * converted, a rate of several workers scaled to its rounds' aggregates
 * (figure_aggregate).  0, BM_ERANGE without samples, or -ENOMEM.
 */
int
bm__figure_record(struct bm__figure *f, const bm_record *rec)
{
	const bm_result *r = rec->result;
	size_t i;
	int rc;

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
	if ((rc = figure_aggregate(rec, f->x, f->round)) != 0)
		return rc;
	return figure_compute(f);
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
	const bm_result *r = rec->result;

	if (rec->agreement != BM_AGREEMENT_NONE ||
	    r->processes < BM__ROBUST_MIN)
		return BM_ERANGE;
	return bm__stats_robust(f->x, f->round, f->n, r->processes, higher,
	    BM__ROBUST_FLOOR, precision, out);
}
