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
	pr->look_p = 1;
	pr->threshold = s->plan.line[line].threshold > 0 ?
	    s->plan.line[line].threshold : s->o.threshold;
	pa->cur->pair = pb->cur->pair = (unsigned)s->npairs;
	return pr;
}

/* The verdict from an interval of log(B/A): lower is better for every served figure. */
static enum ab_verdict
pair_verdict(const bm__paired *st, double threshold)
{
	return ab_verdict_of(bm__verdict_paired(st->lo, st->hi, st->shift,
	    threshold, BM__BETTER_LOWER));
}

/*
 * Append one pair of visit medians in cluster cl, whose arm started first
 * was first (SCHED_FIRST_A, SCHED_FIRST_B, or SCHED_FIRST_NONE where a
 * cluster is not a generation); 0 or -1 on no memory.
 */
static int
pair_add(struct sched_pair *pr, double a, double b, unsigned cl, int first)
{
	double *ga, *gb;
	unsigned *gc;
	signed char *gf;

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
	gc = realloc(pr->cl, (pr->n + 1) * sizeof(*gc));
	if (gc == NULL)
		return -1;
	pr->cl = gc;
	if (cl + 1 > pr->ncl) {
		gf = realloc(pr->first, (cl + 1) * sizeof(*gf));
		if (gf == NULL)
			return -1;
		pr->first = gf;
		memset(gf + pr->ncl, SCHED_FIRST_NONE, cl + 1 - pr->ncl);
		pr->ncl = cl + 1;
	}
	pr->first[cl] = (signed char)first;
	pr->a[pr->n] = a;
	pr->b[pr->n] = b;
	pr->cl[pr->n++] = cl;
	return 0;
}

/* Cluster c's log ratios log(B/A) into v (room for pr->n); their count. */
static size_t
pair_cluster_logs(const struct sched_pair *pr, unsigned c, double *v)
{
	size_t i, nv = 0;

	for (i = 0; i < pr->n; i++)
		if (pr->cl[i] == c)
			v[nv++] = log(pr->b[i] / pr->a[i]);
	return nv;
}

/*
 * Pair pr's interval at level, from its clusters: each cluster's median
 * log(B/A) is one value of Yuen's trimmed t over them, so that what its
 * pairs share counts once.  A cluster's median is near normal (what its
 * pairs share and the host's phases add up), and there are few
 * clusters: a rank test over k of them cannot give a p under 2 / 2^k,
 * which the correction over a suite's figures never lets through below
 * 12 (an A/B of 87 figures at 240 s on a 2-vCPU AMD EPYC guest gave a
 * cheap figure 6-9).  Yet a burst of the host over most of a cluster's
 * visits of one arm moves its median by 5-30%: from 10 clusters on, a
 * fifth of them at either end are trimmed (bm__paired_logratio), so
 * that one such cluster does not widen the interval of all
 * (doc/measurements.md, "Decisions: the trimmed t over generations").
 * Generations fall in two blocks, those whose arm A was started first and
 * those whose arm B was, which the restarts alternate: where each block
 * has SCHED_MIN_CLUSTERS / 2, the mean of the blocks' trimmed means
 * (bm__paired_blocked), so that what starting second does to a tool
 * counts for neither arm; *blocked (if not NULL) says so.
 * 0, or -1 with fewer than SCHED_MIN_CLUSTERS clusters (or no memory).
 */
int
sched_pair_interval(const struct sched_pair *pr, double level,
    bm__paired *st, int *blocked)
{
	double *one, *r, *v, m;
	size_t i, k, nv, nb[3] = { 0, 0, 0 };
	unsigned c;
	int rc = -1, *blk;

	if (blocked != NULL)
		*blocked = 0;
	if (pr->ncl < SCHED_MIN_CLUSTERS)
		return -1;
	one = malloc(pr->ncl * sizeof(*one));
	r = malloc(pr->ncl * sizeof(*r));
	v = malloc(pr->n * sizeof(*v));
	blk = malloc(pr->ncl * sizeof(*blk));
	if (one == NULL || r == NULL || v == NULL || blk == NULL)
		goto out;
	for (k = 0, c = 0; c < pr->ncl; c++) {
		if ((nv = pair_cluster_logs(pr, c, v)) == 0)
			continue;
		if (bm__stats_median(v, nv, &m) != 0)
			goto out;
		one[k] = 1;
		blk[k] = pr->first[c] == SCHED_FIRST_B;
		nb[pr->first[c] == SCHED_FIRST_NONE ? 0 : 1 + blk[k]]++;
		r[k++] = exp(m);
	}
	if (k < SCHED_MIN_CLUSTERS)
		goto out;
	if (nb[0] == 0 && nb[1] >= SCHED_MIN_CLUSTERS / 2 &&
	    nb[2] >= SCHED_MIN_CLUSTERS / 2) {
		/* r now the log ratios the blocks take. */
		for (i = 0; i < k; i++)
			r[i] = log(r[i]);
		rc = bm__paired_blocked(r, blk, k, level, st) == 0 ? 0 : -1;
		if (blocked != NULL)
			*blocked = rc == 0;
	} else if (bm__paired_logratio(one, r, k, level, BM__PAIRED_TRIMMED,
	    st) == 0)
		rc = 0;
out:
	free(one);
	free(r);
	free(v);
	free(blk);
	return rc;
}

/*
 * Start both arms' processes ps[0] and ps[1] again, after their figures
 * ended and they exited, and wait for each to announce the same figure
 * (sched_newfig goes on with it): a later figure of its tool's, such as
 * lat_ctx's ring after the overhead it takes off, is reached by one
 * visit of each figure before it, each then ended (a figure cannot end
 * before its first visit).  The two end, and start, side by side: a
 * start (exec, setup, the tool's first figure) was most of a
 * generation's cost.  0; 1 when, not a restart line's, they announced
 * another figure instead of exiting (the tool serves more than the plan
 * said: its figures then count as several, and this one is not started
 * afresh again); -1 when one failed.
 */
static int
pair_restart(struct sched *s, struct sched_proc **ps)
{
	struct sched_fig *f[2] = { ps[0]->cur, ps[1]->cur };
	int i, j, told[2], other = 0, first;
	double t = sched_now();

	for (i = 0; i < 2; i++)
		told[i] = sched_end_ask(ps[i]) == 0;
	for (i = 0; i < 2; i++)
		if (told[i])
			(void)sched_wait(s, ps[i], SCHED_P_END, SCHED_EXIT_S);
	s->end_s += sched_now() - t;
	for (i = 0; i < 2; i++)
		if (!ps[i]->restart && ps[i]->state == SCHED_P_IDLE &&
		    ps[i]->cur != f[i]) {
			if (ps[i]->figures < ps[i]->cur->seq)
				ps[i]->figures = ps[i]->cur->seq;
			other++;
		}
	if (other > 0)
		return other == 2 ? 1 : -1;
	for (i = 0; i < 2; i++)
		if (ps[i]->state != SCHED_P_GONE ||
		    !WIFEXITED(ps[i]->status) ||
		    WEXITSTATUS(ps[i]->status) != 0)
			return -1;
	/*
	 * One after the other, the arm started second last time first: a
	 * tool started second measured about 2% slower for as long as it
	 * lived, and the generations' blocks take that out
	 * (sched_pair_interval) where each arm was started first as often.
	 */
	first = ps[0]->started <= ps[1]->started;
	t = sched_now();
	for (j = 0; j < 2; j++) {
		i = j ^ first;
		if (sched_launch(s, ps[i]) == 0)
			sched_await_start(s, ps[i]);
	}
	s->start_s += sched_now() - t;
	for (i = 0; i < 2; i++) {
		struct sched_proc *p = ps[i];

		while (p->state == SCHED_P_IDLE && p->cur != f[i] &&
		    p->cur->seq < f[i]->seq && !s->caught) {
			if (sched_visit(s, p) != 0)
				return -1;
			sched_end(s, p);
		}
		if (p->state != SCHED_P_IDLE || p->cur != f[i]) {
			if (p->why[0] == '\0')
				snprintf(p->why, sizeof(p->why), "started "
				    "again, it did not serve its figure");
			sched_terminate(s, p);
			return -1;
		}
	}
	return 0;
}

/*
 * Whether figure f's pairs fall in generations: a restart line's, or
 * unless --fresh-every 0 the last figure of its line (the only one, or
 * one after the parts its tool takes off it); a tool's earlier figures
 * cannot be started afresh without ending the later ones.
 */
static int
pair_generations(const struct sched *s, const struct sched_fig *f)
{
	return f->p->restart || (s->o.fresh_every > 0 &&
	    f->seq >= f->p->figures);
}

/*
 * Whether pair pr cannot reach SCHED_MIN_CLUSTERS generations in the
 * budget: what they would still take, each a restart (its last cost,
 * else its first call's extra over a kept call's) and two calls, is
 * more than SCHED_AB_HOT times its share of the time left (the most a
 * pair near a verdict gets).  Such a pair stays undecided however it is
 * visited, and its restarts take the others' time: on a 2-vCPU AMD EPYC
 * KVM guest whose pages cost 6-13 us to fault (2026-12-02), the restarts
 * of the suite's A/B at 240 s took 135-149 s, a 256 MB figure's 2-4 s,
 * and left lat_syscall null 5 generations, no verdict.  A pair judged
 * out of reach is ended (out_of_reach, reach_s).
 */
static int
pair_out_of_reach(struct sched *s, struct sched_pair *pr)
{
	unsigned want = SCHED_MIN_CLUSTERS, live = 0;
	double call, cost, left;
	size_t i;

	if (pr->gens + 1 >= want || pr->on_gen < 2)
		return 0;
	call = pr->gen_wall / (pr->on_gen - 1);
	cost = pr->gen_cost > 0 ? pr->gen_cost : pr->first_s - call;
	if (cost <= 0)
		return 0;
	for (i = 0; i < s->npairs; i++)
		live += !s->pairs[i]->fa->done && !sched_pair_part(s->pairs[i]);
	left = s->t0 + s->o.budget - sched_now();
	pr->reach_s = (want - pr->gens - 1) * (cost + 2 * call);
	if (live == 0 || (left > 0 &&
	    pr->reach_s <= SCHED_AB_HOT * left / live))
		return 0;
	pr->out_of_reach = 1;
	return 1;
}

/*
 * The calls a generation of pair pr should take, from its generations so
 * far (four at least, both arms' starts and two calls each): where its
 * tools differ from one start to the next by sb (the spread of the
 * generations' medians, each arm-started-first block about its own
 * mean, less what the pairs' own spread sw puts in a median of their
 * count) a generation's median varies by sb^2 + (pi / 2) sw^2 / (m alt)
 * over m calls of alt pairs, and a generation costs the restart c and m
 * calls of c1 each: their product is least at m = sqrt((pi / 2) sw^2 c
 * / (alt sb^2 c1)), the two-stage sample's optimal allocation.  On a
 * 2-vCPU AMD EPYC KVM guest (2026-12-07) lat_syscall null's
 * generations' medians spread by about 2.2% within a block, its pairs by
 * about 1.5%, and a restart cost about a call and a half: under one call,
 * so two (the fewest), where the cost share alone gave three or four
 * (doc/measurements.md, "Decisions: the generations' length").  0 while
 * that is not known.
 */
static double
pair_gen_calls(const struct sched_pair *pr)
{
	double *v, *med, *dev, sw, sb2 = 0, mean[2] = { 0, 0 }, pairs = 0;
	double c1, m = 0;
	size_t i, nv, nm = 0, nb[2] = { 0, 0 };
	unsigned g;
	int *blk;

	if (pr->gens < 4 || !(pr->gen_cost > 0) || pr->on_gen < 2 ||
	    !(pr->gen_wall > 0))
		return 0;
	v = malloc(pr->n * sizeof(*v));
	med = malloc(pr->gens * sizeof(*med));
	dev = malloc(pr->gens * sizeof(*dev));
	blk = malloc(pr->gens * sizeof(*blk));
	if (v == NULL || med == NULL || dev == NULL || blk == NULL)
		goto out;
	for (g = 0; g < pr->gens; g++) {
		nv = pair_cluster_logs(pr, g, v);
		if (nv < 3 || bm__stats_median(v, nv, &med[nm]) != 0)
			continue;
		/* The pairs' spread: their median absolute deviation. */
		for (i = 0; i < nv; i++)
			v[i] = fabs(v[i] - med[nm]);
		if (bm__stats_median(v, nv, &dev[nm]) != 0)
			continue;
		dev[nm] *= 1.4826;
		pairs += (double)nv;
		blk[nm] = pr->first[g] == SCHED_FIRST_B;
		mean[blk[nm]] += med[nm];
		nb[blk[nm]]++;
		nm++;
	}
	if (nm < 4 || nb[0] == 0 || nb[1] == 0 ||
	    bm__stats_median(dev, nm, &sw) != 0)
		goto out;
	mean[0] /= (double)nb[0];
	mean[1] /= (double)nb[1];
	for (i = 0; i < nm; i++)
		sb2 += (med[i] - mean[blk[i]]) * (med[i] - mean[blk[i]]);
	/* Less what the pairs' own spread puts in a median of their count. */
	sb2 = sb2 / (double)(nm - 2) - M_PI / 2 * sw * sw / (pairs / nm);
	c1 = pr->gen_wall / (pr->on_gen - 1);
	if (sb2 > 0 && c1 > 0)
		m = sqrt(M_PI / 2 * sw * sw * pr->gen_cost /
		    ((double)sched_pair_alt(pr) * sb2 * c1));
out:
	free(v);
	free(med);
	free(dev);
	free(blk);
	return m;
}

/*
 * Whether pair pr's tools are started afresh before its next pair of
 * visits: a restart line's before every pair but the first; a line's
 * last figure's once the last restart's cost is at most
 * SCHED_AB_GEN_SHARE of the pairs since (SCHED_AB_GEN_FIRST pairs
 * while no restart has been costed), or sooner once its generations say
 * that fewer calls a generation decide sooner (pair_gen_calls), after
 * SCHED_AB_GEN_MAX or a
 * SCHED_AB_GENS-th of the pairs the budget is expected to give it at
 * the latest (two at least); never with --fresh-every 0, nor for a
 * figure its tool serves before another (pair_generations), nor once
 * the budget is spent (the run's close only completes the least visits).
 */
static int
pair_new_generation(struct sched *s, struct sched_pair *pr)
{
	const struct sched_proc *p = pr->fa->p;
	double want = s->expect / SCHED_AB_GENS, calls;

	if (pr->fa->visits == 0 || !pair_generations(s, pr->fa) || s->closing)
		return 0;
	if (p->restart)
		return 1;
	if (pr->on_gen < 2 || pair_out_of_reach(s, pr))
		return 0;
	if (pr->on_gen >= SCHED_AB_GEN_MAX ||
	    (want > 0 && (double)pr->on_gen >= want))
		return 1;
	if (pr->gen_cost <= 0)
		return pr->on_gen >= SCHED_AB_GEN_FIRST;
	calls = pair_gen_calls(pr);
	return pr->gen_cost <= SCHED_AB_GEN_SHARE * pr->gen_wall ||
	    (calls > 0 && (double)pr->on_gen >= calls);
}

/* Whether pair pr is of a part its tool takes off the figures after it. */
int
sched_pair_part(const struct sched_pair *pr)
{
	return pr->fa->seq <= pr->fa->p->parts;
}

/* How many of the pairs are judged (the parts are not); 1 at least. */
static size_t
pair_judged(const struct sched *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->npairs; i++)
		n += !sched_pair_part(s->pairs[i]);
	return n > 0 ? n : 1;
}

/*
 * The turns (a visit of each arm, paired) one sched_pair_visit of pair
 * pr takes: SCHED_AB_ALT, or one on a restart line's tools (a process a
 * visit).
 */
unsigned
sched_pair_alt(const struct sched_pair *pr)
{
	return pr->fa->p->restart ? 1 : SCHED_AB_ALT;
}

/*
 * The timed length of an A/B's visit of line l's tools: the line's (or
 * the run's, visit_us) split in SCHED_AB_ALT turns, 100 us at least;
 * whole on a restart line's, and on a line run once.
 */
uint64_t
sched_ab_visit_us(const struct sched_line *l, uint64_t visit_us)
{
	uint64_t v = l->visit_us > 0 ? l->visit_us : visit_us;

	if (l->restart || l->once)
		return l->visit_us;
	v /= SCHED_AB_ALT;
	return v < 100 ? 100 : v;
}

/*
 * Visit both arms of pair pr in turns, sched_pair_alt of each, the first
 * arm drawn at random and each turn in the order the last one ended
 * (A B B A ...), pair each turn's two medians, and look: a pair settles
 * when its interval at 1 - SCHED_LOOK_ALPHA / pairs decides.  The
 * generations below count such calls.  Before the visits, both arms' tools
 * may be started afresh (pair_new_generation): a new generation, the
 * cluster its pairs count in; what that cost (the restarts and the
 * first visits' extra over the generation's kept pairs) spaces the next.
 * A line that is never restarted counts its sets of workers as clusters.
 * 0 (the figure may have ended: a tool that serves several figures,
 * found so when it was to be restarted), or -1 when an arm failed.
 */
int
sched_pair_visit(struct sched *s, struct sched_pair *pr)
{
	struct sched_proc *first = pr->fa->p, *second = pr->fb->p;
	int regen = pair_new_generation(s, pr),
	    gens = pair_generations(s, pr->fa), order;
	double t0 = sched_now(), t1, kept;
	bm__paired st;
	unsigned cl, turn, own;

	if (regen) {
		struct sched_proc *ps[2] = { pr->fa->p, pr->fb->p };

		kept = pr->on_gen > 1 ? pr->gen_wall / (pr->on_gen - 1) : 0;
		switch (pair_restart(s, ps)) {
		case 0:
			break;
		case 1:
			/* Both arms go on with their next figure; this one ended. */
			return 0;
		default:
			return -1;
		}
		pr->gens++;
		pr->gen_cost = sched_now() - t0 - kept;
		pr->on_gen = 0;
		pr->gen_wall = 0;
	}
	if (rand() & 1) {
		first = pr->fb->p;
		second = pr->fa->p;
	}
	/* Never fresh, as asked: each call's turns a cluster. */
	own = pr->n == 0 ? 0 : pr->cl[pr->n - 1] + 1;
	/* Which arm's tool this generation started first, if a generation. */
	order = !gens ? SCHED_FIRST_NONE : pr->fa->p->started <=
	    pr->fb->p->started ? SCHED_FIRST_A : SCHED_FIRST_B;
	t1 = sched_now();
	for (turn = 0; turn < sched_pair_alt(pr); turn++) {
		struct sched_proc *x = turn & 1 ? second : first,
		    *y = turn & 1 ? first : second;

		if (sched_visit(s, x) != 0 || sched_visit(s, y) != 0)
			return -1;
		if (gens)
			cl = pr->gens;
		else if (s->o.fresh_every == 0)
			cl = own;
		else
			cl = pr->n == 0 ? 0 : pr->cl[pr->n - 1] +
			    (pr->fa->on_set == 1 || pr->fb->on_set == 1);
		if (pair_add(pr, pr->fa->med[pr->fa->visits - 1],
		    pr->fb->med[pr->fb->visits - 1], cl, order) != 0)
			return -1;
	}
	/* The first turns of a generation carry its start; kept ones time it. */
	if (pr->on_gen > 0)
		pr->gen_wall += sched_now() - t1;
	else if (regen)
		pr->gen_cost += sched_now() - t1;
	else if (pr->gens == 0)
		pr->first_s = sched_now() - t1;
	pr->on_gen++;
	if (sched_pair_part(pr) || sched_pair_interval(pr, 1 -
	    SCHED_LOOK_ALPHA / (double)pair_judged(s), &st, NULL) != 0)
		return 0;
	pr->look_p = st.p;
	pr->verdict = pair_verdict(&st, pr->threshold);
	pr->settled = pr->verdict != AB_UNDECIDED;
	return 0;
}

/*
 * The seconds more of the run that would decide pair pr, left undecided
 * with an interval, or NAN: its clusters times ab_more_factor (what
 * benchmp-ab's rounds estimate), at the run's wall time a cluster so far
 * (the figures sharing the run as they did).  None for a part, nor for a
 * pair out of reach (its restarts' own estimate).
 */
double
sched_pair_more_s(const struct sched *s, const struct sched_pair *pr)
{
	double k;

	if (pr->verdict != AB_UNDECIDED || sched_pair_part(pr) ||
	    pr->nofig != 0 || pr->st_rc != 0 || pr->out_of_reach || pr->ncl == 0 ||
	    !(s->wall > 0))
		return NAN;
	k = pr->ncl * ab_more_factor(pr->st.lo, pr->st.hi, pr->st.shift,
	    pr->threshold);
	if (isnan(k))
		return NAN;
	if (k < pr->ncl + 1)
		k = pr->ncl + 1;
	return (k - pr->ncl) * s->wall / pr->ncl;
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
 * Whether an A/B's tool p ended saying it has no figure: every figure it
 * announced visited and ended, no fault of the protocol, then exit
 * status 1, as a tool exits for a figure it will not print (lat_sig's
 * parts as dear as its whole on a loaded machine, lat_sig(8)).  The
 * visits were all made and paired; what the tool would not vouch for is
 * its figure, so its line is undecided, not the comparison failed.
 */
int
sched_arm_no_figure(const struct sched *s, const struct sched_proc *p)
{
	unsigned seen = 0;
	size_t i;

	if (p->arm == 0 || p->state != SCHED_P_GONE || p->why[0] != '\0' ||
	    p->status == SCHED_STATUS_LOST || !WIFEXITED(p->status) ||
	    WEXITSTATUS(p->status) != 1)
		return 0;
	for (i = 0; i < s->nf; i++)
		if (s->figs[i]->p == p) {
			if (s->figs[i]->visits == 0 || !s->figs[i]->done)
				return 0;
			seen++;
		}
	return seen > 0 && seen >= p->figures;
}

/*
 * The final verdicts: every judged pair's interval at SCHED_LEVEL; a pair
 * not settled at a look changes only where Benjamini-Hochberg's
 * procedure over the judged pairs' p values keeps it (false discoveries
 * at SCHED_FDR).  A part has its interval and no verdict (undecided), as
 * has a figure whose tool gave none in an arm (sched_arm_no_figure).
 */
void
sched_pair_finish(struct sched *s)
{
	size_t *ix = calloc(s->npairs + 1, sizeof(*ix)), i, k, m = 0,
	    keep = 0;

	if (ix == NULL)
		return;
	for (i = 0; i < s->npairs; i++) {
		struct sched_pair *pr = s->pairs[i];

		pr->st_rc = sched_pair_interval(pr, SCHED_LEVEL, &pr->st,
		    &pr->blocked);
		if (pr->st_rc != 0)
			pr->st.p = 1;
		pr->nofig = sched_arm_no_figure(s, pr->fa->p) ? 'A' :
		    sched_arm_no_figure(s, pr->fb->p) ? 'B' : 0;
		if (sched_pair_part(pr) || pr->nofig != 0)
			pr->verdict = AB_UNDECIDED;
		else
			ix[m++] = i;
	}
	pair_sort = s->pairs;
	qsort(ix, m, sizeof(*ix), pair_cmp_p);
	for (k = 0; k < m; k++)
		if (s->pairs[ix[k]]->st.p <= SCHED_FDR * (double)(k + 1) /
		    (double)m)
			keep = k + 1;
	for (k = 0; k < m; k++) {
		struct sched_pair *pr = s->pairs[ix[k]];
		enum ab_verdict v;

		if (pr->settled)
			continue;
		if (pr->st_rc != 0) {
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
