/* sweep.c: a sweeping tool's fixed plan and its time bound (--max-time). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "sweep.h"

/* Monotonic time in ns. */
static uint64_t
sweep_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Start a sweep of planned points (counted from the topology beforehand). */
void
sweep_begin(struct sweep *s, const char *unit, size_t planned)
{
	memset(s, 0, sizeof *s);
	s->unit = unit;
	s->planned = planned;
	s->t0_ns = s->last_ns = sweep_now_ns();
}

/*
 * Count a point just measured (point_hit: its own rounds were cut by the
 * bound) and decide whether the next one is measured: 1 when there is a
 * next point and it fits, 0 when the sweep ends here (s->cut set when
 * points of the plan are left).  The next point is expected to take as
 * long as the longest so far (the shortest when the points fit what is
 * left: s->fits): the points grow, so this may be short, and then the
 * engine still stops that point's rounds at the bound (at most one round
 * of one point past it).  The first point always runs: a sweep cut before
 * it would say nothing at all.  The ranks of an MPI job go on only
 * together (cluster_all): each measures every point the others do.
 */
int
sweep_point(const struct tool *t, struct sweep *s, int point_hit)
{
	uint64_t now = sweep_now_ns();
	double took = (double)(now - s->last_ns) / 1e9, left;

	s->last_ns = now;
	s->done++;
	if (point_hit)
		s->hit = 1;
	if (took > s->longest_s)
		s->longest_s = took;
	if (s->done == 1 || took < s->shortest_s)
		s->shortest_s = took;
	if (s->done >= s->planned)
		return 0;
	if (t->max_time_s <= 0)
		return 1;
	left = t->max_time_s - (double)(now - t->started_ns) / 1e9;
	if (cluster_all(left >= (s->fits ? s->shortest_s : s->longest_s)))
		return 1;
	s->cut = 1;
	s->hit = 1;
	return 0;
}

/*
 * Count n points just measured together (a group a scheduler served, its
 * visits bounding it: no cut), hit when any one's rounds were cut; returns
 * the seconds each took, the group's share.
 */
double
sweep_group(struct sweep *s, size_t n, int hit)
{
	uint64_t now = sweep_now_ns();
	double each = n > 0 ? (double)(now - s->last_ns) / 1e9 / (double)n :
	    0;

	s->last_ns = now;
	if (n == 0)
		return 0;
	if (s->done == 0 || each < s->shortest_s)
		s->shortest_s = each;
	if (each > s->longest_s)
		s->longest_s = each;
	s->done += n;
	if (hit)
		s->hit = 1;
	return each;
}

/* The seconds --max-time leaves from now, or HUGE_VAL without a bound. */
double
sweep_left_s(const struct tool *t)
{
	if (t->max_time_s <= 0)
		return HUGE_VAL;
	return t->max_time_s - (double)(sweep_now_ns() - t->started_ns) / 1e9;
}

/*
 * Say on stderr which points a cut sweep left out: how many of the plan,
 * from which one (from, as the tool names its points), and the bound.
 */
void
sweep_say(const struct tool *t, const struct sweep *s, const char *from)
{
	if (!s->cut)
		return;
	fprintf(stderr, "%s: time bound (--max-time %.2f s): %zu of %zu %s "
	    "not measured, from %s on (budget_hit)\n", t->name, t->max_time_s,
	    s->planned - s->done, s->planned, s->unit, from);
}

/*
 * A record's measured members with a cut sweep's: base[0..n-1], then
 * "points" (measured), "points_planned" and "missing_from" (the first
 * point not measured, as the tool's params name points), into out
 * (room for max); an uncut sweep's are base alone.  Returns how many.
 */
size_t
sweep_measured(const bm_param *base, size_t n, bm_param *out, size_t max,
    const struct sweep *s, double from)
{
	size_t m = n < max ? n : max;

	memcpy(out, base, m * sizeof *out);
	if (!s->cut || m + 3 > max)
		return m;
	out[m++] = (bm_param){ .key = "points", .num = (double)s->done };
	out[m++] = (bm_param){ .key = "points_planned",
	    .num = (double)s->planned };
	out[m++] = (bm_param){ .key = "missing_from", .num = from };
	return m;
}
