/* ab-decide.c: benchmp-ab's decisions: a figure's verdict at each look and at the end, and the time that would decide it. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "ab.h"

/* The level of the intervals shown, and the false alarms a decision allows. */
#define DECIDE_LEVEL		0.95
/*
 * A figure settles early (stops taking rounds) on an interval at 1 -
 * DECIDE_LOOK_ALPHA / m for m figures: looking after every round repeats
 * the test, and a constant stricter level at each look (Pocock's boundary)
 * pays for the repeats; the division by m is Bonferroni's, across
 * figures.  0.005 rather than 0.01 cut the false alarms of recorded
 * lat_syscall pairs replayed 30 rounds a trial from 2.7% to 1.7%, for
 * about 1% of the power ("Decisions: benchmp-ab" in doc/measurements.md).
 */
#define DECIDE_LOOK_ALPHA	0.005
/* Benjamini-Hochberg's false discovery rate at the end of the budget. */
#define DECIDE_FDR		0.05

/* The verdict on figure f from its interval at a look (bm__verdict_paired). */
static enum ab_verdict
decide_verdict(const struct ab_figure *f, const bm__paired *st)
{
	static const enum bm__better better[] = {
		[AB_LOWER] = BM__BETTER_LOWER, [AB_HIGHER] = BM__BETTER_HIGHER,
		[AB_NONE] = BM__BETTER_NONE
	};

	return ab_verdict_of(bm__verdict_paired(st->lo, st->hi, st->shift,
	    f->threshold, better[f->better]));
}

/* Look at every figure not settled yet after a round: settle what is clear. */
void
ab_decide_look(struct ab_table *t, unsigned min_rounds,
    enum bm__paired_test test, volatile sig_atomic_t *stop)
{
	double level = 1 - DECIDE_LOOK_ALPHA / (double)t->n;
	size_t i;

	for (i = 0; i < t->n && !*stop; i++) {
		struct ab_figure *f = &t->fig[i];
		bm__paired st;

		if (f->settled || f->n < min_rounds)
			continue;
		if (bm__paired_logratio(f->a, f->b, f->n, level, test,
		    &st) != 0)
			continue;
		f->verdict = decide_verdict(f, &st);
		f->settled = f->verdict != AB_UNDECIDED;
	}
}

/* Order p values for qsort, through their figures' indices. */
static const double *decide_sort_p;
static int
decide_cmp_p(const void *x, const void *y)
{
	double a = decide_sort_p[*(const size_t *)x];
	double b = decide_sort_p[*(const size_t *)y];

	return (a > b) - (a < b);
}

/*
 * The seconds more that would decide undecided figure f, whose pairs
 * took spent seconds in all, or NAN (ab_more_factor), at its time a
 * round.
 */
static double
decide_more_s(const struct ab_figure *f, unsigned min_rounds, double spent)
{
	double rounds;

	if (f->stats_rc != 0 || f->n < 2 || !(spent > 0))
		return NAN;
	rounds = (double)f->n * ab_more_factor(f->st.lo, f->st.hi,
	    f->st.shift, f->threshold);
	if (isnan(rounds))
		return NAN;
	if (rounds < (double)min_rounds)
		rounds = (double)min_rounds;
	if (rounds < (double)f->n + 1)
		rounds = (double)f->n + 1;
	return (rounds - (double)f->n) * spent / (double)f->n;
}

/*
 * The final verdicts: every figure's interval at DECIDE_LEVEL, and for those
 * not settled, a change only where Benjamini-Hochberg's procedure over
 * all figures' p values keeps it (false discoveries at DECIDE_FDR); for those
 * left undecided, the time that would decide them (spent[c]: command
 * c's pairs' seconds).
 */
int
ab_decide_finish(struct ab_table *t, unsigned min_rounds,
    enum bm__paired_test test, const double *spent)
{
	double *p = calloc(t->n + 1, sizeof *p);
	size_t *ix = calloc(t->n + 1, sizeof *ix), i, k, keep = 0;

	if (p == NULL || ix == NULL) {
		free(p);
		free(ix);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		struct ab_figure *f = &t->fig[i];

		f->stats_rc = bm__paired_logratio(f->a, f->b, f->n, DECIDE_LEVEL,
		    test, &f->st);
		p[i] = f->n >= 2 ? f->st.p : 1;
		ix[i] = i;
	}
	decide_sort_p = p;
	qsort(ix, t->n, sizeof *ix, decide_cmp_p);
	for (k = 0; k < t->n; k++)
		if (p[ix[k]] <= DECIDE_FDR * (double)(k + 1) / (double)t->n)
			keep = k + 1;
	for (k = 0; k < t->n; k++) {
		struct ab_figure *f = &t->fig[ix[k]];
		enum ab_verdict v;

		if (!f->settled) {
			v = AB_UNDECIDED;
			if (f->stats_rc == 0 && f->n >= min_rounds)
				v = decide_verdict(f, &f->st);
			if (v != AB_SAME && k >= keep)
				v = AB_UNDECIDED;
			f->verdict = v;
		}
		if (f->verdict == AB_UNDECIDED)
			f->more_s = decide_more_s(f, min_rounds, spent[f->cmd]);
	}
	free(p);
	free(ix);
	return 0;
}
