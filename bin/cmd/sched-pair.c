/* sched-pair.c: benchmp-sched's A/B: the two arms' visits of a figure paired in time, looked at, and judged. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sched.h"

/*
 * The pair of figure f (either arm's): found, or made once both arms of
 * its plan line serve figures of the same number.  NULL when the other
 * arm does not serve that figure (yet) or on no memory.
 */
struct sched_pair *
sched_pair_of(struct sched *s, struct sched_fig *f)
{
	struct sched_proc *pa, *pb;
	struct sched_pair **grown, *pr;
	size_t line;

	if (f == NULL)
		return NULL;
	if (f->pair != 0)
		return s->pairs[f->pair - 1];
	line = f->p->line - 1;
	pa = &s->procs[2 * line];
	pb = &s->procs[2 * line + 1];
	if (pa->cur == NULL || pb->cur == NULL || pa->cur->seq != pb->cur->seq)
		return NULL;
	/* Each pair apart: a sweep holds pointers to them. */
	grown = realloc(s->pairs, (s->npairs + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	s->pairs = grown;
	if ((pr = calloc(1, sizeof(*pr))) == NULL)
		return NULL;
	s->pairs[s->npairs++] = pr;
	pr->fa = pa->cur;
	pr->fb = pb->cur;
	pr->threshold = s->plan.line[line].threshold > 0 ?
	    s->plan.line[line].threshold : s->o.threshold;
	pa->cur->pair = pb->cur->pair = (unsigned)s->npairs;
	return pr;
}

/*
 * The verdict from an interval of log(B/A): worse or better when it
 * leaves no change out and the estimate is past the threshold, same when
 * it lies within +-threshold, else undecided.  Times per operation:
 * lower is better for every served figure.
 */
static enum ab_verdict
pair_verdict(const bm__paired *st, double threshold)
{
	double band = log1p(threshold);

	if (st->lo >= -band && st->hi <= band)
		return AB_SAME;
	if ((st->lo > 0 || st->hi < 0) && fabs(st->shift) >= band)
		return st->shift > 0 ? AB_WORSE : AB_BETTER;
	return AB_UNDECIDED;
}

/* Append one pair of visit medians; 0 or -1 on no memory. */
static int
pair_add(struct sched_pair *pr, double a, double b)
{
	double *ga, *gb;

	if (!(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b))
		return 0;
	ga = realloc(pr->a, (pr->n + 1) * sizeof(*ga));
	if (ga == NULL)
		return -1;
	pr->a = ga;
	gb = realloc(pr->b, (pr->n + 1) * sizeof(*gb));
	if (gb == NULL)
		return -1;
	pr->b = gb;
	pr->a[pr->n] = a;
	pr->b[pr->n++] = b;
	return 0;
}

/*
 * Start process p again, after its figure ended and it exited, and wait
 * for it to announce the same figure (sched_newfig goes on with it).
 * 0, or -1 when it failed.
 */
static int
pair_restart(struct sched *s, struct sched_proc *p)
{
	struct sched_fig *f = p->cur;

	sched_end(s, p);
	if (p->state != SCHED_P_GONE || !WIFEXITED(p->status) ||
	    WEXITSTATUS(p->status) != 0)
		return -1;
	sched_start(s, p);
	if (p->state != SCHED_P_IDLE || p->cur != f) {
		if (p->why[0] == '\0')
			snprintf(p->why, sizeof(p->why), "started again, it "
			    "did not serve its figure");
		sched_proc_kill(p, SIGKILL);
		return -1;
	}
	return 0;
}

/*
 * Visit both arms of pair pr back to back, in a random order, pair the
 * two medians, and look: a pair settles when its interval at 1 -
 * SCHED_LOOK_ALPHA / pairs decides.  A restart line's two processes are
 * started again before every pair but the first: what is fixed for a
 * process (its address-space layout, set at exec) then varies between
 * pairs as it does between benchmp-ab's rounds, not with the arm.  0,
 * or -1 when an arm failed.
 */
int
sched_pair_visit(struct sched *s, struct sched_pair *pr)
{
	struct sched_proc *first = pr->fa->p, *second = pr->fb->p;
	bm__paired st;
	double level;

	if (first->restart && pr->fa->visits > 0 &&
	    (pair_restart(s, pr->fa->p) != 0 ||
	    pair_restart(s, pr->fb->p) != 0))
		return -1;
	if (rand() & 1) {
		first = pr->fb->p;
		second = pr->fa->p;
	}
	if (sched_visit(s, first) != 0 || sched_visit(s, second) != 0)
		return -1;
	if (pair_add(pr, pr->fa->med[pr->fa->visits - 1],
	    pr->fb->med[pr->fb->visits - 1]) != 0)
		return -1;
	if (pr->n < SCHED_MIN_VISITS)
		return 0;
	level = 1 - SCHED_LOOK_ALPHA / (double)(s->npairs > 0 ? s->npairs : 1);
	if (bm__paired_logratio(pr->a, pr->b, pr->n, level, BM__PAIRED_SIGN,
	    &st) != 0)
		return 0;
	pr->verdict = pair_verdict(&st, pr->threshold);
	pr->settled = pr->verdict != AB_UNDECIDED;
	return 0;
}

/* Order pairs' p values for qsort, through their indices. */
static struct sched_pair *const *pair_sort;
static int
pair_cmp_p(const void *x, const void *y)
{
	double a = pair_sort[*(const size_t *)x]->st.p;
	double b = pair_sort[*(const size_t *)y]->st.p;

	return (a > b) - (a < b);
}

/*
 * The final verdicts: every pair's interval at SCHED_LEVEL; a pair not
 * settled at a look changes only where Benjamini-Hochberg's procedure
 * over all pairs' p values keeps it (false discoveries at SCHED_FDR).
 */
void
sched_pair_finish(struct sched *s)
{
	size_t *ix = calloc(s->npairs + 1, sizeof(*ix)), i, k, keep = 0;

	if (ix == NULL)
		return;
	for (i = 0; i < s->npairs; i++) {
		struct sched_pair *pr = s->pairs[i];

		pr->st_rc = pr->n >= 2 ? bm__paired_logratio(pr->a, pr->b,
		    pr->n, SCHED_LEVEL, BM__PAIRED_SIGN, &pr->st) : -1;
		if (pr->st_rc != 0)
			pr->st.p = 1;
		ix[i] = i;
	}
	pair_sort = s->pairs;
	qsort(ix, s->npairs, sizeof(*ix), pair_cmp_p);
	for (k = 0; k < s->npairs; k++)
		if (s->pairs[ix[k]]->st.p <= SCHED_FDR * (double)(k + 1) /
		    (double)s->npairs)
			keep = k + 1;
	for (k = 0; k < s->npairs; k++) {
		struct sched_pair *pr = s->pairs[ix[k]];
		enum ab_verdict v;

		if (pr->settled)
			continue;
		if (pr->st_rc != 0 || pr->n < SCHED_MIN_VISITS) {
			pr->verdict = AB_UNDECIDED;
			continue;
		}
		v = pair_verdict(&pr->st, pr->threshold);
		if ((v == AB_WORSE || v == AB_BETTER) && k >= keep)
			v = AB_UNDECIDED;
		pr->verdict = v;
	}
	free(ix);
}
