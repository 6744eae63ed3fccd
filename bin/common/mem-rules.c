/*
 * mem-rules.c: how the sweeping memory tools read their curves (the line
 * at the knee of a stride sweep) and judge what they find: each
 * independent process's answer, and the machine's own figures.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/figures.h"
#include "mem.h"

/*
 * Read the line size from one stride sweep: lat[i] is the time of a load
 * at stride first << i.  Below the line, a longer stride makes more of
 * the loads miss (doubling it doubles the misses, less what an adjacent-
 * line prefetcher hides); at the line every load misses, and the next
 * stride adds nothing.  The line is a stride after which the curve
 * stops rising: each candidate k (1 to n - 2) costs, in natural
 * logarithms, how far the steps up to it fall short of a rise of
 * LINE_RISE plus how far the one step after it exceeds LINE_FLAT.
 * These are lmbench's two thresholds: it takes the line at the first
 * step under 1.15 after a step over 1.3.
 *
 * Only the step after the knee counts: past the line the curve may rise
 * again (larger strides leave DRAM rows and pages sooner), and a rule
 * that wanted every later step flat (the one before, about sqrt(2) on
 * both sides) found no knee in this 2-CPU virtual machine's curves that
 * rise at 256 bytes (tests/check_mem.c), where lmbench reads 64, as
 * sysfs says.
 *
 * The old rule before that, the stride whose latency rises most over
 * half its stride, read noise: every step below the line is a rise, so
 * the largest is whichever the noise lifts (16, 32 and 64 from run to
 * run under load).
 *
 * A candidate is plausible when its cost is under a quarter of a
 * doubling (log 2 / 4): a flat curve (no line to see) costs log 1.3 a
 * step and one that doubles to the end (the line beyond the strides)
 * log(2 / 1.15) at its last step, so neither has one.  The line is the
 * last plausible candidate: a stride after which the curve still doubles
 * before it flattens is not the line.  The cheapest candidate was read
 * before.  On a 2-CPU AMD EPYC guest (2026-11-30), where the step from
 * 16 to 32 bytes rises only 1.1 to 1.26 (8 to 512 bytes: 20, 26, 32,
 * 62, 55, 72, 141 ns), it took 16 from one or two processes' curves of
 * three: 16 cost 0.059 there against 64's 0.064.  Both are plausible;
 * 64 is the last, as sysfs states.
 *
 * *index gets the last plausible candidate, or the cheapest when none is
 * (0 when the curve cannot be read at all); *cost its cost.  1 when a
 * candidate is plausible, 0 when not.
 */
#define LINE_RISE 1.3
#define LINE_FLAT 1.15

int
mem_rules_line_knee(const double *lat, size_t n, size_t *index, double *cost)
{
	double best = INFINITY, c, r, rise = log(LINE_RISE),
	    flat = log(LINE_FLAT), plausible = log(2) / 4;
	size_t i, k;
	int found = 0;

	*index = 0;
	*cost = (double)NAN;
	if (n < 3)
		return 0;
	for (i = 0; i < n; i++)
		if (!(lat[i] > 0) || !isfinite(lat[i]))
			return 0;
	for (k = 1; k + 1 < n; k++) {
		c = 0;
		for (i = 1; i <= k + 1; i++) {
			r = log(lat[i] / lat[i - 1]);
			c += i <= k ? fmax(0, rise - r) : fmax(0, r - flat);
		}
		if (c < plausible) {
			found = 1;
			best = c;
			*index = k;
		} else if (!found && c < best) {
			best = c;
			*index = k;
		}
	}
	*cost = best;
	return found;
}

/*
 * What the machine states, for a figure to be checked against: where the
 * topology came from sysfs or sysconf (CPUID) its numbers are the
 * machine's; the built-in default is nobody's statement.  NULL for none.
 */
const char *
mem_rules_topo_stated(const struct mem_topo *tp)
{
	if (tp->source == NULL || strcmp(tp->source, "default") == 0)
		return NULL;
	return tp->source;
}

/*
 * A level's size against the one sysfs (or CPUID) states.  The first
 * level is indexed by virtual address and a chase of it is a cycle that
 * LRU keeps whole up to its size: the boundary is the largest size of the
 * sweep not above it, so 0.8 (a size between two steps) to 1.5 (one step
 * above).  Later levels are indexed by physical address, so which pages
 * the buffer got decides how much of them it can use, and they do not
 * replace in LRU order: half to twice.
 */
#define MEM_L1_LO 0.8
#define MEM_L1_HI 1.5
#define MEM_LN_LO 0.5
#define MEM_LN_HI 2.0

/*
 * Check the size measured for cache level (1 up) against the topology's:
 * 1 when it contradicts it (c filled, its what written to what), 0 when
 * it stands or nothing is stated (no such level, a default topology, a
 * last level the topology does not believe), or a library error.
 */
int
mem_rules_level_size_check(const struct mem_topo *tp, unsigned level,
    size_t measured, bm_contradiction *c, char *what, size_t len)
{
	double lo = level == 1 ? MEM_L1_LO : MEM_LN_LO;
	double hi = level == 1 ? MEM_L1_HI : MEM_LN_HI;

	if (level == 0 || level > tp->n || mem_rules_topo_stated(tp) == NULL ||
	    (level == tp->n && !tp->llc_plausible))
		return 0;
	snprintf(what, len, "L%u size", level);
	return bm_contradiction_check(c, what, (double)measured,
	    (double)tp->lv[level - 1].size, lo, hi,
	    strcmp(tp->source, "sysfs") == 0 ? "sysfs size" : "sysconf size",
	    "bytes");
}

/* A point is past the TLB when a load costs this much more than the cache alone. */
#define MEM_TLB_JUMP_RATIO 1.25
#define MEM_TLB_JUMP_NS 0.5
/*
 * A first miss is partial when its cost is below this share of the least
 * cost beyond it (doc/measurements.md, "tlb: the reach and the first
 * miss").
 */
#define MEM_TLB_PARTIAL_SHARE 0.85
/*
 * The bisection stops when the page counts that still fit and that
 * missed are this close, as a share of the first (at least 1 page): to
 * within 6%, in two to four extra points per sweep step.
 */
#define MEM_TLB_RESOLUTION 16

/*
 * Whether point i of a tlb sweep misses the TLB: its spread chase costs
 * clearly more than its packed one, beyond what point 0 (8 pages, which
 * every TLB maps) showed between the two.
 */
static int
mem_rules_tlb_miss(const double *spread, const double *packed, size_t i)
{
	double base = spread[0] - packed[0];

	return spread[i] - packed[i] > base + MEM_TLB_JUMP_NS &&
	    spread[i] > MEM_TLB_JUMP_RATIO * (packed[i] + (base > 0 ? base : 0));
}

/*
 * tlb's reading of a sweep of n points in increasing page counts:
 * spread[i] the time of a load of a chase over point i's pages, one line
 * each, packed[i] over as many lines packed into few pages.  1 when it
 * shows the reach (the last point before a jump that the next point
 * confirms; its index in *reach, the cost of a miss at the jump in
 * *cost), 0 when it does not (yet).  A jump counts when the next point
 * is past the reach too: one point slowed by another process is noise,
 * not the TLB.  The points need not be the sweep's steps: the points
 * that bisect the knee (mem_rules_tlb_bisect) are read the same way.
 */
int
mem_rules_tlb_read(const double *spread, const double *packed, size_t n,
    size_t *reach, double *cost)
{
	size_t i;

	*cost = 0;
	*reach = 0;
	for (i = 0; i < n; i++) {
		if (mem_rules_tlb_miss(spread, packed, i)) {
			if (*cost > 0)
				return 1;
			*cost = spread[i] - packed[i];
			continue;
		}
		*cost = 0;
		*reach = i;
	}
	return 0;
}

/* How close the bisection brings a reach of lo pages and its first miss. */
static size_t
mem_rules_tlb_resolution(size_t lo)
{
	return lo / MEM_TLB_RESOLUTION > 0 ? lo / MEM_TLB_RESOLUTION : 1;
}

/*
 * The next page count that refines the knee of a read sweep (pages[i]
 * increasing, read as mem_rules_tlb_read reads it): halfway between the
 * reach and the first point that missed, while the two are further apart
 * than a sixteenth of the reach; 0 when the knee is found to that (or
 * the curve shows none).  Stateless: the caller measures the point,
 * inserts it in page order and asks again, so the answer is the largest
 * page count measured that still fits, not a step of the sweep.
 */
size_t
mem_rules_tlb_bisect(const size_t *pages, const double *spread,
    const double *packed, size_t n)
{
	size_t reach, lo, hi;
	double cost;

	if (!mem_rules_tlb_read(spread, packed, n, &reach, &cost) ||
	    reach + 1 >= n)
		return 0;
	lo = pages[reach];
	hi = pages[reach + 1];
	return hi - lo > mem_rules_tlb_resolution(lo) ? lo + (hi - lo) / 2 : 0;
}

/*
 * How many points mem_rules_tlb_bisect asks for at most between a reach
 * of lo pages and a first miss at hi, whichever way each point falls:
 * the sweep plans them before it measures them (the time bound).
 */
size_t
mem_rules_tlb_bisect_points(size_t lo, size_t hi)
{
	size_t mid, a, b;

	if (hi <= lo || hi - lo <= mem_rules_tlb_resolution(lo))
		return 0;
	/* A few levels deep: the gap halves and the resolution stays. */
	mid = lo + (hi - lo) / 2;
	a = mem_rules_tlb_bisect_points(lo, mid);
	b = mem_rules_tlb_bisect_points(mid, hi);
	return 1 + (a > b ? a : b);
}

/*
 * Whether the first point that missed, first, shows only part of the
 * jump: its cost (spread - packed, into *first_ns) well below the least
 * cost of the points beyond it (*full_ns; NAN when there is none).  A
 * TLB only just full (the chase's pages and the loop's stack and data
 * competing for its last entries) misses in part, and by the luck of
 * where those pages fall: then the step before it is not the knee to
 * report unflagged.  1 partial, 0 not (or nothing beyond to tell).
 */
int
mem_rules_tlb_partial(const double *spread, const double *packed, size_t n,
    size_t first, double *first_ns, double *full_ns)
{
	size_t i;

	*first_ns = first < n ? spread[first] - packed[first] : (double)NAN;
	*full_ns = (double)NAN;
	for (i = first + 1; i < n; i++)
		if (isfinite(spread[i] - packed[i]) &&
		    !(spread[i] - packed[i] >= *full_ns))
			*full_ns = spread[i] - packed[i];
	return isfinite(*first_ns) && isfinite(*full_ns) &&
	    *first_ns < MEM_TLB_PARTIAL_SHARE * *full_ns;
}

/*
 * Fill a result whose samples are n figures, one per process (sample i
 * of process i, ns = the figure, n 1), with their statistics: the record
 * of a derived figure then shows each process's answer ("values",
 * "process_values") and their spread.  0, or a library error (then
 * nothing is left to free: a process that gave no answer must not leak).
 */
int
mem_rules_answers_result(const double *v, size_t n, bm_result *r)
{
	size_t i, m = 0;
	unsigned e;
	int rc;

	memset(r, 0, sizeof *r);
	if ((r->samples = calloc(n > 0 ? n : 1, sizeof *r->samples)) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* A process that could not tell has no figure to show. */
		if (!isfinite(v[i]))
			continue;
		r->samples[m].ns = v[i];
		r->samples[m].n = 1;
		r->samples[m].cycles = (double)NAN;
		for (e = 0; e < BM_MAX_EVENTS; e++)
			r->samples[m].events[e] = (double)NAN;
		r->samples[m].process = (unsigned)m;
		m++;
	}
	r->nsamples = m;
	r->processes = (unsigned)m;
	r->parallel = 1;
	r->repetitions = 1;
	r->cycles_per_op = (double)NAN;
	rc = m > 0 ? mem_chase_result_stats(r) : BM_ERANGE;
	if (rc != 0)
		bm_result_free(r);
	return rc;
}

/*
 * Each round's median of a made-up result (a figure each, as
 * mem_rules_answers_result's and mem_chase_parallelism's), as
 * mem_chase_result_stats() kept it: into med[0..max-1].  Returns how many rounds (at most max).
 */
size_t
mem_rules_round_medians(const bm_result *r, double *med, size_t max)
{
	size_t np = r->processes < max ? r->processes : max, p;

	if (r->process_ns == NULL)
		return 0;
	for (p = 0; p < np; p++)
		med[p] = r->process_ns[p];
	return np;
}
