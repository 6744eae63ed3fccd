/*
 * sweep.h: a sweeping tool's fixed plan of points and its time bound
 * (sweep.c): the points are counted before the first is measured, and the
 * sweep stops before a point that would not end within --max-time.
 */
#ifndef BM_SWEEP_H
#define BM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "tool.h"

/* A sweep under way: its plan, what it measured, and whether it was cut. */
struct sweep {
	const char *unit;	/* what a point is, for messages: "sizes" */
	size_t planned;		/* the points of the plan */
	size_t done;		/* the points measured */
	uint64_t t0_ns;		/* when the sweep began */
	uint64_t last_ns;	/* when the last point ended */
	double longest_s;	/* the longest point so far */
	double shortest_s;	/* the shortest point so far */
	/*
	 * The points fit their rounds to what is left of the bound (par_ops:
	 * tool_share_end), so the next is expected to take as long as the
	 * shortest so far, not the longest.
	 */
	int fits;
	int hit;		/* a point's rounds were cut, or points are missing */
	int cut;		/* points of the plan will not be measured */
};

void sweep_begin(struct sweep *s, const char *unit, size_t planned);
int sweep_point(const struct tool *t, struct sweep *s, int point_hit);
double sweep_group(struct sweep *s, size_t n, int hit);
void sweep_say(const struct tool *t, const struct sweep *s,
    const char *from);
double sweep_left_s(const struct tool *t);
size_t sweep_measured(const bm_param *base, size_t n, bm_param *out,
    size_t max, const struct sweep *s, double from);

#endif /* BM_SWEEP_H */
