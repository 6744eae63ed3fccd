/* sched-run.c: benchmp-sched's loop: processes started, figures visited in random sweeps until the budget ends, then ended. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchmp.h"
#include "sched.h"

/* Seconds on the monotonic clock. */
double
sched_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Print a message to stderr, prefixed with the program's name. */
void
sched_vsay(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", SCHED_NAME);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* The same, with the arguments. */
void
sched_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sched_vsay(fmt, ap);
	va_end(ap);
}


/* Empty the signal pipe. */
static void
sched_drain(struct sched *s)
{
	char buf[64];

	while (read(s->sigpipe[0], buf, sizeof(buf)) > 0)
		;
}

/* Make the figure process p announces (the pump's callback). */
static struct sched_fig *
sched_newfig(void *arg, struct sched_proc *p, unsigned seq)
{
	struct sched *s = arg;
	struct sched_fig *f, **grown;
	size_t i;

	/* A process started again (restart) goes on with its figure. */
	for (i = 0; i < s->nf; i++)
		if (s->figs[i]->p == p && s->figs[i]->seq == seq) {
			f = s->figs[i];
			f->done = 0;
			f->vbase = f->visits;
			return f;
		}
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	if ((grown = realloc(s->figs, (s->nf + 1) * sizeof(*grown))) == NULL) {
		free(f);
		return NULL;
	}
	s->figs = grown;
	f->p = p;
	f->seq = seq;
	s->figs[s->nf++] = f;
	return f;
}

/* Pump every live process for up to ms. */
static void
sched_pump(struct sched *s, int ms)
{
	size_t i, n = 0;

	for (i = 0; i < s->np; i++)
		if (s->procs[i].state != SCHED_P_NEW &&
		    s->procs[i].state != SCHED_P_GONE)
			s->live[n++] = &s->procs[i];
	sched_drain(s);
	sched_proc_pump(s->live, n, s->sigpipe[0], ms, sched_newfig, s);
}

/*
 * End process p: SIGTERM, then SIGKILL if it is not gone SCHED_TERM_S
 * later.  A tool's handler of SIGTERM removes its temporary directory
 * ($TMPDIR/benchmp-NAME.XXXXXX) and stops its workers, which a SIGKILL at
 * once left behind.  After a signal the wait is run_reap_all's.
 */
void
sched_terminate(struct sched *s, struct sched_proc *p)
{
	double end = sched_now() + SCHED_TERM_S;

	sched_proc_kill(p, SIGTERM);
	while (p->state != SCHED_P_GONE && !s->caught && sched_now() < end)
		sched_pump(s, 100);
	if (p->state != SCHED_P_GONE && !s->caught)
		sched_proc_kill(p, SIGKILL);
}

/*
 * Wait until p leaves state from (or is gone, or a signal came), at most
 * limit seconds; then it is ended (sched_terminate).  0 when it left the
 * state.
 */
static int
wait_until(struct sched *s, struct sched_proc *p, enum sched_state from,
    double limit)
{
	double end = sched_now() + limit;

	while (p->state == from && !s->caught) {
		if (sched_now() >= end) {
			if (p->why[0] == '\0')
				snprintf(p->why, sizeof(p->why), "no answer "
				    "within %.*f s", limit < 10 ? 1 : 0, limit);
			sched_terminate(s, p);
			return -1;
		}
		sched_pump(s, 200);
	}
	return p->state == from || p->state == SCHED_P_GONE ? -1 : 0;
}

/* A wait of limit seconds within --timeout, when it is given. */
static double
wait_bound(const struct sched *s, double limit)
{
	return s->o.timeout > 0 && limit > s->o.timeout ? s->o.timeout :
	    limit;
}

/* Wait as wait_until does, at most limit seconds or --timeout. */
int
sched_wait(struct sched *s, struct sched_proc *p, enum sched_state from,
    double limit)
{
	return wait_until(s, p, from, wait_bound(s, limit));
}

/*
 * Print progress on stderr, at most every 2 s: the time, the figures,
 * the visits, the share measuring, and in an A/B the figures decided.
 */
static void
sched_progress(struct sched *s, int last)
{
	double now = sched_now(), wall = now - s->t0;
	char decided[48] = "";
	size_t i, m, n = 0;

	if (!s->o.progress || (!last && now - s->last_progress < 2))
		return;
	s->last_progress = now;
	if (s->o.a != NULL) {
		for (i = 0, m = 0; i < s->npairs; i++) {
			if (sched_pair_part(s->pairs[i]))
				continue;
			m++;
			n += s->pairs[i]->settled ? 1 : 0;
		}
		snprintf(decided, sizeof(decided), ", %zu of %zu decided", n,
		    m);
	}
	fprintf(stderr, "\r%s: %.0f of %.0f s, %zu figures%s, %u visits, "
	    "%.0f%% measuring%s", SCHED_NAME, wall, s->o.budget, s->nf,
	    decided, s->visits, wall > 0 ? 100 * s->timed_ns / 1e9 / wall : 0,
	    last ? "\n" : "");
	/* stderr is line-buffered (main): a line ended by \r goes now. */
	(void)fflush(stderr);
}

/*
 * An A/B's placement: both arms' workers of a line on the same CPUs,
 * which change with each start, so that what differs between the
 * machine's CPUs (a busy sibling thread on the host, say) falls on both
 * arms of a pair alike and varies between generations, not with the arm.
 * Each start of a line's processes pins its first worker on the next of
 * the CPUs this scheduler may use (its others on those after it,
 * BENCHMP_SCHED=list:); not when BENCHMP_SCHED or LMBENCH_SCHED is set
 * (the user's placement), nor on one CPU.
 */
void
sched_pin_init(struct sched *s)
{
	cpu_set_t allowed;
	int c;

	s->ncpu = 0;
	if (s->o.a == NULL || getenv("BENCHMP_SCHED") != NULL ||
	    getenv("LMBENCH_SCHED") != NULL ||
	    sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		return;
	for (c = 0; c < CPU_SETSIZE && s->ncpu < 64; c++)
		if (CPU_ISSET(c, &allowed))
			s->cpu[s->ncpu++] = c;
	if (s->ncpu < 2)
		s->ncpu = 0;
}

/* p's BENCHMP_SCHED for its next start (sched_pin_init), or "". */
static void
sched_pin(const struct sched *s, struct sched_proc *p)
{
	size_t len, i;
	unsigned k;

	p->cpus[0] = '\0';
	if (s->ncpu == 0)
		return;
	k = (p->line - 1 + p->starts) % s->ncpu;
	len = (size_t)snprintf(p->cpus, sizeof(p->cpus), "list:");
	for (i = 0; i < s->ncpu && len < sizeof(p->cpus); i++)
		len += (size_t)snprintf(p->cpus + len, sizeof(p->cpus) - len,
		    "%s%d", i ? "," : "", s->cpu[(k + i) % s->ncpu]);
	if (len >= sizeof(p->cpus))
		p->cpus[0] = '\0';
}

/*
 * Start process p without waiting for it (sched_await_start does): 0,
 * or -1 when it could not be started (p is then gone, why said).
 */
int
sched_launch(struct sched *s, struct sched_proc *p)
{
	size_t *seg;
	int rc;

	/* An A/B names its figures from each start's records (sched-recs.c). */
	if (p->arm != 0) {
		if ((seg = realloc(p->seg, (p->nseg + 1) * sizeof(*seg))) ==
		    NULL) {
			snprintf(p->why, sizeof(p->why), "out of memory");
			p->state = SCHED_P_GONE;
			return -1;
		}
		p->seg = seg;
		p->seg[p->nseg++] = p->tlen;
	}
	sched_pin(s, p);
	rc = sched_proc_start(p, s->o.visit_us, s->o.outdir,
	    s->pool_fd);
	p->starts++;
	if (rc != 0) {
		snprintf(p->why, sizeof(p->why), "cannot start: %s",
		    strerror(-rc));
		p->state = SCHED_P_GONE;
		return -1;
	}
	p->started = sched_now();
	return 0;
}

/* Wait for launched process p's first figure (or its end, once). */
void
sched_await_start(struct sched *s, struct sched_proc *p)
{
	if (p->once && p->burst == 0)
		(void)wait_until(s, p, SCHED_P_VISIT, wait_bound(s,
		    SCHED_ONCE_S) + s->o.budget);
	else
		(void)sched_wait(s, p, SCHED_P_START, SCHED_START_S);
}

/* Start process p and wait for its first figure (or its end, once). */
void
sched_start(struct sched *s, struct sched_proc *p)
{
	double t = sched_now();

	if (sched_launch(s, p) == 0)
		sched_await_start(s, p);
	if (!p->once)
		s->start_s += sched_now() - t;
}

/*
 * Run a burst process (started): each figure it announces gets its
 * visits in a row and is ended, until it exits or fails.
 */
static void
run_burst(struct sched *s, struct sched_proc *p)
{
	unsigned k;

	while (p->state == SCHED_P_IDLE && !s->caught) {
		for (k = 0; k < p->burst; k++)
			if (sched_visit(s, p) != 0)
				return;
		sched_end(s, p);
	}
}

/*
 * The visits figure f's worker set gets before a fresh one: --fresh-every,
 * or outside an A/B more when a set's extra wall time (its first visit's
 * over a kept visit's, the figure's first set included: a 256 MB bw_mem
 * figure's first set costs what its later ones do) would pass
 * SCHED_FRESH_SHARE of the kept visits' between two sets.
 */
static unsigned
visit_spacing(const struct sched *s, const struct sched_fig *f)
{
	double kept, extra, n;

	if (s->o.a != NULL || f->nset == 0 || f->nkept == 0)
		return s->o.fresh_every;
	kept = f->kept_ns / f->nkept;
	extra = f->set_ns / f->nset - kept;
	if (!(kept > 0) || !(extra > 0))
		return s->o.fresh_every;
	n = ceil(extra / (SCHED_FRESH_SHARE * kept));
	if (n <= s->o.fresh_every)
		return s->o.fresh_every;
	return n < SCHED_MAX_VISITS ? (unsigned)n : SCHED_MAX_VISITS;
}

/*
 * Whether p's figure f is due a fresh worker set (visit_spacing).  A
 * group's set serves all its figures: its visits between sets are the
 * spacing its figures' sets and kept visits together give, for each of
 * them.
 */
static int
fresh_due(const struct sched *s, const struct sched_proc *p,
    const struct sched_fig *f)
{
	struct sched_fig all;
	unsigned i;

	if (s->o.fresh_every == 0 || f->visits == 0)
		return 0;
	if (p->ngrp == 0)
		return f->on_set >= visit_spacing(s, f);
	memset(&all, 0, sizeof(all));
	for (i = 0; i < p->ngrp; i++) {
		all.nset += p->grp[i]->nset;
		all.nkept += p->grp[i]->nkept;
		all.set_ns += p->grp[i]->set_ns;
		all.kept_ns += p->grp[i]->kept_ns;
	}
	/*
	 * A burst line's group visits its figures one after another: the
	 * set stays for the spacing of all it announced, not of those left.
	 */
	return p->on_set >= visit_spacing(s, &all) *
	    (p->burst > 0 ? p->gsize : p->ngrp);
}

/* How long p's visit of f may take before p is killed (SCHED_VISIT_S). */
static double
visit_limit(const struct sched_proc *p, const struct sched_fig *f)
{
	double lim = SCHED_VISIT_TIMES * p->longest;

	if (f->visits == 0 || p->longest <= 0)
		return SCHED_FIRST_VISIT_S;
	if (lim < SCHED_VISIT_MIN_S)
		return SCHED_VISIT_MIN_S;
	return lim > SCHED_VISIT_S ? SCHED_VISIT_S : lim;
}

/* Ask p's figure (cur) for one visit and wait for it; 0 or -1. */
int
sched_visit(struct sched *s, struct sched_proc *p)
{
	struct sched_fig *f = p->cur;
	int fresh = fresh_due(s, p, f), set;
	double timed = f->timed_ns, wall = f->wall_ns, t;
	char cmd[32];

	if (fresh)
		p->held = 0;
	sched_mem_room(s, p);
	set = !p->held;
	/* A group's commands name the figure. */
	if (p->ngrp > 0)
		snprintf(cmd, sizeof(cmd), "%s %u\n", fresh ? "fresh" :
		    "visit", f->seq);
	else
		snprintf(cmd, sizeof(cmd), "%s\n", fresh ? "fresh" : "visit");
	if (sched_proc_send(p, cmd) != 0)
		return -1;
	p->state = SCHED_P_VISIT;
	t = sched_now();
	if (sched_wait(s, p, SCHED_P_VISIT, visit_limit(p, f)) != 0)
		return -1;
	t = sched_now() - t;
	if (t > p->longest)
		p->longest = t;
	if (t > f->longest)
		f->longest = t;
	s->visits++;
	s->timed_ns += f->timed_ns - timed;
	if (set) {
		f->set_ns += f->wall_ns - wall;
		f->nset++;
	} else {
		f->kept_ns += f->wall_ns - wall;
		f->nkept++;
	}
	f->on_set = set ? 1 : f->on_set + 1;
	p->on_set = set ? 1 : p->on_set + 1;
	sched_mem_note(s, p);
	return 0;
}

/*
 * Ask p to end its figure, without waiting (sched_wait from
 * SCHED_P_END does): 0, or -1 when it could not be told.
 */
int
sched_end_ask(struct sched_proc *p)
{
	char cmd[32];

	if (p->cur != NULL)
		p->cur->done = 1;
	/*
	 * A group's figure, named: its workers stay for the others, which
	 * answer "ended"; the last one's end is the group's, as a figure's
	 * alone.
	 */
	snprintf(cmd, sizeof(cmd), "end\n");
	if (p->ngrp > 0 && p->cur != NULL) {
		snprintf(cmd, sizeof(cmd), "end %u\n", p->cur->seq);
		if (p->ngrp == 1)
			sched_proc_drop(p, p->cur);
	}
	if (p->ngrp == 0)
		p->held = 0;
	if (sched_proc_send(p, cmd) != 0)
		return -1;
	p->state = SCHED_P_END;
	return 0;
}

/* End p's figure; wait for its next figure or its exit. */
void
sched_end(struct sched *s, struct sched_proc *p)
{
	double t = sched_now();

	if (sched_end_ask(p) == 0)
		(void)sched_wait(s, p, SCHED_P_END, SCHED_EXIT_S);
	if (!p->once)
		s->end_s += sched_now() - t;
}

/*
 * Whether figure f's interval is within the precision asked for: where
 * the next run's median falls (bm__stats_next_run), never narrower than
 * BM__SERVED_FLOOR.  The interval its record will show is this one or
 * narrower (it also stops 2% beyond the values, record-decide.c), so a
 * figure judged within the precision here is within it there.
 */
static int
sched_precise(const struct sched *s, const struct sched_fig *f)
{
	bm_stats st;
	double lo, hi;

	if (s->o.precision <= 0 || f->visits < SCHED_MIN_VISITS ||
	    bm_stats_compute(f->med, f->visits, &st) != 0)
		return 0;
	return !bm__stats_next_run(&st, BM__SERVED_FLOOR, s->o.precision, &lo,
	    &hi);
}


/*
 * The visits figure f gets before it ends: all it can while its process
 * serves one figure; its share of the visits a slot is expected to get
 * (expect) when the process serves several one after another.  A part
 * its tool takes off the figures after it (parts=) gets the least visits
 * (s->least: SCHED_MIN_VISITS, fewer when the budget holds no more):
 * what is shown, and in an A/B compared, is the figures, whose visits
 * then spread over more of the run.
 */
static unsigned
run_quota(const struct sched *s, const struct sched_fig *f, double expect)
{
	const struct sched_proc *p = f->p;
	unsigned parts = p->parts;
	double q;

	/*
	 * A group's figures are visited together, not one after another:
	 * figures= and parts= (lat_sig's, whose parts are a group with its
	 * figure when served outside an A/B) do not share them out.
	 */
	if (p->ngrp > 0)
		return UINT32_MAX;
	if (f->seq <= parts)
		return s->least;
	if (p->figures <= 1 || expect <= 0)
		return UINT32_MAX;
	q = floor((expect - parts * s->least) / (p->figures - parts));
	return q < s->least ? s->least : (unsigned)q;
}

/* What a process run once is taken to last before any has run: 2 s. */
#define RUN_ONCE_GUESS_S 2.0

/* Shuffle n pointers (Fisher-Yates, rand()). */
static void
run_shuffle(void **v, size_t n)
{
	size_t i, j;
	void *t;

	for (i = n; i > 1; i--) {
		j = (size_t)rand() % i;
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* The mean wall time of a visit of figure f so far (s), or a guess. */
static double
fig_cost(const struct sched_fig *f)
{
	return f->visits > 0 ? f->wall_ns / 1e9 / f->visits : 0.1;
}

/* The fewest visits of the figures p serves now (cur, or its group's). */
static unsigned
proc_least(const struct sched_proc *p)
{
	unsigned i, v;

	if (p->ngrp == 0)
		return p->cur->visits;
	for (i = 1, v = p->grp[0]->visits; i < p->ngrp; i++)
		if (p->grp[i]->visits < v)
			v = p->grp[i]->visits;
	return v;
}

/*
 * Whether process p may be visited: serving a figure, its command pipe
 * open.  One whose pipe closed (sched_proc_send, a protocol fault) stays
 * idle until it is reaped; visited, it would fail at once, without a
 * wait, and a sweep that counts such a visit never ends.
 */
static int
run_idle(const struct sched_proc *p)
{
	return p->state == SCHED_P_IDLE && p->cmd >= 0;
}

/*
 * The units a sweep visits, in *units (n of them): the processes serving
 * a figure, or in an A/B the pairs whose two arms serve one, not settled.
 */
static size_t
run_units(struct sched *s, void **units)
{
	size_t i, n = 0;

	if (s->o.a == NULL) {
		for (i = 0; i < s->np; i++)
			if (run_idle(&s->procs[i]) && !s->procs[i].once)
				units[n++] = &s->procs[i];
		return n;
	}
	for (i = 0; i < s->np; i += 2) {
		struct sched_proc *a = &s->procs[i], *b = &s->procs[i + 1];
		struct sched_pair *pr;

		if (!run_idle(a) || !run_idle(b))
			continue;
		if ((pr = sched_pair_of(s, a->cur)) == NULL || pr->settled)
			continue;
		units[n++] = pr;
	}
	return n;
}

/*
 * The mean wall time of a visit to unit u so far (s), an A/B pair's
 * turns (sched_pair_visit), or a guess.
 */
static double
run_cost(const struct sched *s, void *u)
{
	const struct sched_fig *f[2];
	double c = 0;
	int k, n;

	if (s->o.a == NULL && ((struct sched_proc *)u)->ngrp > 0) {
		const struct sched_proc *p = u;
		unsigned i;

		/* A group's: a visit of each of its figures. */
		for (i = 0; i < p->ngrp; i++)
			c += fig_cost(p->grp[i]);
		return c;
	}
	if (s->o.a == NULL) {
		f[0] = ((struct sched_proc *)u)->cur;
		n = 1;
	} else {
		f[0] = ((struct sched_pair *)u)->fa;
		f[1] = ((struct sched_pair *)u)->fb;
		n = 2;
	}
	for (k = 0; k < n; k++)
		c += fig_cost(f[k]);
	return n == 2 ? c * sched_pair_alt(u) : c;
}

/* The mean of the n units' costs (run_cost), 0 for none. */
static double
run_mean_cost(const struct sched *s, void **units, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += run_cost(s, units[i]);
	return n > 0 ? sum / (double)n : 0;
}

/*
 * How many visits unit u gets in a row this sweep: one, or in an A/B as
 * many as make its time a sweep's mean unit's (at most SCHED_AB_REPS),
 * so that a cheap figure's pairs do not wait on 256 MB ones: in a suite
 * A/B at 240 s on a 2-vCPU AMD EPYC guest, one pair a sweep gave
 * lat_syscall null 12-15 pairs, too few generations to decide +5%.  A
 * pair near a verdict (SCHED_AB_HOT_P) gets SCHED_AB_HOT times that.
 */
static unsigned
run_reps(const struct sched *s, void *u, double mean)
{
	const struct sched_pair *pr = u;
	double c = run_cost(s, u), r;
	unsigned most = SCHED_AB_REPS;

	if (s->o.a == NULL || !(c > 0))
		return 1;
	if (pr->look_p < SCHED_AB_HOT_P) {
		mean *= SCHED_AB_HOT;
		most *= SCHED_AB_HOT;
	}
	if (!(mean > c))
		return 1;
	r = floor(mean / c);
	return r >= most ? most : (unsigned)r;
}

/*
 * Whether unit u gets no more visits in a row: outside an A/B always
 * (run_reps gives one), in an A/B once its pair settled or ended.
 */
static int
run_unit_over(const struct sched *s, void *u)
{
	const struct sched_pair *pr = u;

	if (s->o.a == NULL)
		return 1;
	return pr->settled || pr->fa->done || pr->fb->done;
}

/*
 * Outside an A/B, the units whose figures have fewer than
 * SCHED_MIN_VISITS visits first (swapped to the front of the shuffled
 * order, which each group keeps at random): a figure its process started
 * late (the ring after lat_ctx's overhead, par_ops's chains after their
 * search) is visited before those that have their five, so that a budget
 * that ends a sweep part way leaves the figures with more visits short,
 * not those with fewer.  On the EPYC guest of 2026-12-02 a suite whose
 * budget held no more than three visits of every figure gave 26 such
 * figures 3 and 65 others 6.
 */
static void
run_short_first(const struct sched *s, void **units, size_t n)
{
	size_t i, a = 0;
	void *t;

	if (s->o.a != NULL)
		return;
	for (i = 0; i < n; i++)
		if (proc_least(units[i]) < SCHED_MIN_VISITS) {
			t = units[a];
			units[a++] = units[i];
			units[i] = t;
		}
}

/* Whether unit u's figure has fewer than its least visits (s->least). */
static int
run_short(const struct sched *s, void *u)
{
	if (s->o.a == NULL)
		return proc_least(u) < s->least;
	return ((struct sched_pair *)u)->fa->visits < s->least;
}

/* End the figure of unit u: its process's, or both arms' of a pair. */
static void
run_end_unit(struct sched *s, void *u)
{
	if (s->o.a == NULL) {
		sched_end(s, u);
	} else {
		sched_end(s, ((struct sched_pair *)u)->fa->p);
		sched_end(s, ((struct sched_pair *)u)->fb->p);
	}
}

/*
 * Visit p's figure (cur) once; end it when it has had its quota or
 * reached the precision.  0, or -1 when the process failed.
 */
static int
run_visit_fig(struct sched *s, struct sched_proc *p, double expect)
{
	if (sched_visit(s, p) != 0)
		return -1;
	if (sched_precise(s, p->cur)) {
		p->cur->precise = 1;
		sched_end(s, p);
	} else if (p->cur->visits >= run_quota(s, p->cur, expect) ||
	    p->cur->visits >= s->o.max_visits) {
		sched_end(s, p);
	}
	return 0;
}

/*
 * Visit unit u once (a group: each of its figures); end its figure when
 * it has had its quota, reached
 * the precision, or (A/B) settled.  0, or -1 when a process failed.
 */
static int
run_visit_unit(struct sched *s, void *u, double expect)
{
	void *grp[SCHED_MAX_GROUP];
	struct sched_proc *p;
	struct sched_pair *pr;
	unsigned i, n;

	if (s->o.a == NULL && ((struct sched_proc *)u)->ngrp > 0) {
		/* A group: each of its figures once, in a random order. */
		p = u;
		for (i = n = 0; i < p->ngrp; i++)
			grp[n++] = p->grp[i];
		run_shuffle(grp, n);
		for (i = 0; i < n && p->state == SCHED_P_IDLE && !s->caught;
		    i++) {
			if (((struct sched_fig *)grp[i])->done)
				continue;
			p->cur = grp[i];
			if (run_visit_fig(s, p, expect) != 0)
				return -1;
		}
		return 0;
	}
	if (s->o.a == NULL)
		return run_visit_fig(s, u, expect);
	pr = u;
	if (sched_pair_visit(s, pr) != 0)
		return -1;
	if (pr->fa->done)
		return 0;
	if (pr->settled || pr->out_of_reach ||
	    pr->fa->visits >= run_quota(s, pr->fa, expect *
	    sched_pair_alt(pr)) || pr->fa->visits >= s->o.max_visits)
		run_end_unit(s, pr);
	return 0;
}

/* Run the next process that runs once, if any; 1 when one ran. */
static int
run_once_next(struct sched *s)
{
	double t;
	size_t i;

	/* After a signal, no tool is started: the run is ending. */
	if (s->caught)
		return 0;
	for (i = 0; i < s->np; i++)
		if (s->procs[i].once && s->procs[i].state == SCHED_P_NEW) {
			t = sched_now();
			sched_start(s, &s->procs[i]);
			if (s->procs[i].burst > 0)
				run_burst(s, &s->procs[i]);
			s->once_s += sched_now() - t;
			s->once_ran++;
			return 1;
		}
	return 0;
}

/*
 * The time the end of the run will take (run_close) if every figure is
 * to get least visits: the figures not announced yet by processes that
 * serve several, and those with fewer, get that many, each visit as long
 * as the process's current figure's kept visits so far (its visits' when
 * none was kept: a set's first visit, faulting its buffers, may cost
 * twenty kept ones).
 */
static double
run_close_reserve(const struct sched *s, unsigned least)
{
	double t = 0, cost = 0;
	size_t i;

	for (i = 0; i < s->np; i++) {
		const struct sched_proc *p = &s->procs[i];
		const struct sched_fig *f = p->cur;
		unsigned k;

		if (p->once || f == NULL || p->state == SCHED_P_GONE)
			continue;
		/* A group's figures: each one's least visits. */
		for (k = 0; k < (p->ngrp > 0 ? p->ngrp : 1); k++) {
			if (p->ngrp > 0)
				f = p->grp[k];
			cost = f->nkept > 0 ? f->kept_ns / 1e9 / f->nkept :
			    fig_cost(f);
			if (f->visits < least)
				t += (least - f->visits) * cost;
		}
		if (p->figures > f->seq)
			t += (double)(p->figures - f->seq) * least * cost;
	}
	return t;
}

/*
 * The time the processes that run once and have not run yet will take:
 * as long each as those that ran took on average (RUN_ONCE_GUESS_S
 * before any did).
 */
static double
run_once_reserve(const struct sched *s)
{
	size_t i, left = 0;

	for (i = 0; i < s->np; i++)
		if (s->procs[i].once && s->procs[i].state == SCHED_P_NEW)
			left++;
	return (double)left * (s->once_ran > 0 ? s->once_s / s->once_ran :
	    RUN_ONCE_GUESS_S);
}

/*
 * The visits every figure gets however the time goes (s->least):
 * SCHED_MIN_VISITS while what is left of the budget holds them, and the
 * processes run once still to come (SCHED_FLOOR_SLACK_S past it at
 * most), else as many as it holds, at least SCHED_LEAST_VISITS.
 * Outside an A/B only (its pairs are its verdicts), and once every
 * figure has been visited twice (a kept visit's cost known).  On a
 * 2-vCPU AMD EPYC guest whose first touch of a page costs 6 us
 * (2026-12-02), a standard suite's sets took 31 s and its sweeps 30
 * s: five visits of each of its 123 served figures ended it 5-8 s past
 * its budget beside stress-ng --cpu 1.
 */
static void
run_floor(struct sched *s, double deadline)
{
	unsigned was = s->least;

	if (s->o.a != NULL)
		return;
	while (s->least > SCHED_LEAST_VISITS && sched_now() +
	    run_once_reserve(s) + run_close_reserve(s, s->least) >
	    deadline + SCHED_FLOOR_SLACK_S)
		s->least--;
	if (s->least < was && s->least_at == 0)
		s->least_at = sched_now() - s->t0;
}

/*
 * After the budget, group p: each of its figures short of its least
 * visits gets one more, the others are ended (the caller comes back
 * until all are).
 */
static void
close_group(struct sched *s, struct sched_proc *p)
{
	struct sched_fig *f;
	unsigned i;

	for (i = 0; i < p->ngrp; i++)
		if (p->grp[i]->visits < s->least) {
			p->cur = p->grp[i];
			(void)run_visit_fig(s, p, 0);
			return;
		}
	f = p->grp[0];
	p->cur = f;
	sched_end(s, p);
}

/*
 * After the budget: every figure still served gets its least visits
 * (s->least) and is ended, and so are the figures its process announces
 * after (a process that serves several, one after another).
 */
static void
run_close(struct sched *s)
{
	void **units = calloc(s->np + 1, sizeof(*units));
	size_t i, n;
	int any = 1;

	if (units == NULL)
		return;
	s->closing = 1;
	while (any && !s->caught) {
		any = 0;
		n = run_units(s, units);
		for (i = 0; i < n && !s->caught; i++) {
			const struct sched_fig *f = s->o.a == NULL ?
			    ((struct sched_proc *)units[i])->cur :
			    ((struct sched_pair *)units[i])->fa;

			any = 1;
			if (s->o.a == NULL &&
			    ((struct sched_proc *)units[i])->ngrp > 0) {
				close_group(s, units[i]);
				continue;
			}
			if (f->visits < s->least) {
				if (run_visit_unit(s, units[i], 0) != 0)
					continue;
			} else {
				run_end_unit(s, units[i]);
			}
		}
		/*
		 * A pair whose arms fell out of step, a burst line that
		 * failed: end what is still idle and can be told.
		 */
		for (i = 0; i < s->np && !any; i++)
			if (run_idle(&s->procs[i])) {
				sched_end(s, &s->procs[i]);
				any = 1;
			}
	}
	free(units);
	while (!s->caught && run_once_next(s))
		;
}

/*
 * Wait for every process to end, SCHED_EXIT_S at most (or --timeout);
 * then, or at once after a signal, each gets one SIGTERM and
 * SCHED_TERM_S to end (its private files removed, its workers and
 * partners stopped) before a SIGKILL: a suite's A/B stopped so left the
 * temporary directories of tools still at work behind when the SIGKILL
 * followed at once.
 */
static void
run_reap_all(struct sched *s)
{
	double end = sched_now() + wait_bound(s, SCHED_EXIT_S);
	size_t i, left;
	int termed = 0;

	for (;;) {
		for (i = left = 0; i < s->np; i++)
			if (s->procs[i].state != SCHED_P_NEW &&
			    s->procs[i].state != SCHED_P_GONE)
				left++;
		if (left == 0)
			return;
		if (!termed && (s->caught || sched_now() >= end)) {
			for (i = 0; i < s->np; i++)
				sched_proc_kill(&s->procs[i], SIGTERM);
			termed = 1;
			end = sched_now() + SCHED_TERM_S;
		}
		if (termed && sched_now() >= end)
			for (i = 0; i < s->np; i++)
				sched_proc_kill(&s->procs[i], SIGKILL);
		if (sched_now() >= end + SCHED_EXIT_S)
			return;
		sched_pump(s, 100);
	}
}

/*
 * The experiment: start every served process, one at a time (so that
 * their calibrations and set-ups do not overlap), then sweep: each sweep
 * visits every figure (A/B: every pair, its arms in turns, A B B A ...)
 * once, in a fresh random order, so that each figure samples the
 * machine's phases across the whole budget.  Processes that run once
 * run between sweeps, one a sweep.  The sweeps end when no figure may
 * be visited any more and every process that runs once has run.
 * Returns 0, or the signal that stopped it.
 */
int
sched_run(struct sched *s)
{
	double deadline, expect = 0, sweep0;
	void **units;
	size_t i, n;
	unsigned sweeps = 0;

	s->t0 = sched_now();
	deadline = s->t0 + s->o.budget;
	s->least = SCHED_MIN_VISITS;
	srand((unsigned)s->o.seed);
	if ((units = calloc(s->np + 1, sizeof(*units))) == NULL) {
		sched_say("out of memory");
		return 0;
	}
	for (i = 0; i < s->np && !s->caught; i++)
		if (!s->procs[i].once)
			sched_start(s, &s->procs[i]);
	while (!s->caught) {
		int any = 0;
		double mean;
		unsigned k, reps;

		n = run_units(s, units);
		run_shuffle(units, n);
		run_short_first(s, units, n);
		mean = run_mean_cost(s, units, n);
		sweep0 = sched_now();
		for (i = 0; i < n && !s->caught; i++) {
			reps = run_reps(s, units[i], mean);
			for (k = 0; k < reps && !s->caught; k++) {
				/*
				 * A figure short of its least visits is
				 * visited whatever the time; the others while
				 * the budget, less what the tools run once and
				 * the end's least visits will take, allows.
				 */
				if (!run_short(s, units[i]) && sched_now() +
				    run_cost(s, units[i]) > deadline -
				    run_once_reserve(s) -
				    run_close_reserve(s, s->least))
					break;
				(void)run_visit_unit(s, units[i], expect);
				any = 1;
				sched_progress(s, 0);
				if (run_unit_over(s, units[i]))
					break;
			}
		}
		if (!run_once_next(s) && !any)
			break;
		if (++sweeps >= 2)
			run_floor(s, deadline);
		/* The visits a slot can expect: so far, and at this pace. */
		if (any && sched_now() > sweep0)
			expect = sweeps + (deadline - run_once_reserve(s) -
			    run_close_reserve(s, s->least) - sched_now()) /
			    (sched_now() - sweep0);
		s->expect = expect;
	}
	free(units);
	run_close(s);
	s->wall = sched_now() - s->t0;
	sched_progress(s, 1);
	if (s->least < SCHED_MIN_VISITS)
		sched_say("the budget held %u visits a figure, not %u (from "
		    "%.1f s on)", s->least, SCHED_MIN_VISITS, s->least_at);
	run_reap_all(s);
	return s->caught;
}
