/* report-mem.c: benchmp report's lat_mem_rd section: the cache sizes to mark, the latency curve, its table. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report.h"

/* The curve's frame: its left, width, top and height in pixels. */
#define MEM_X0		70.0
#define MEM_W		770.0
#define MEM_Y0		30.0
#define MEM_HGT		300.0
/* The most cache sizes marked. */
#define MEM_MARKS	32
/* A point more than this above both its neighbours is a spike. */
#define MEM_SPIKE	1.15

/* A cache size to mark: its name and its size in bytes. */
struct mem_mark {
	const char *name;
	double size;
};

/* A point of the curve: its record, its line (chase order and stride), size and latency. */
struct mem_pt {
	const struct report_rec *x;
	const char *kase;
	double stride;
	double size;
	double value;
	size_t line;
	int spike;
};

/* The curve: its points, sorted by line and size, and its axes. */
struct mem_curve {
	struct mem_pt *pt;
	size_t n;
	size_t lines;
	double s0;
	double s1;
	double span;
	double ymax;
	double ystep;
};

/* The number member name of o, or -INFINITY: a missing stride sorts first. */
static double
mem_num(const struct bm__jval *o, const char *name)
{
	double v = bm__jnum(o, name);

	return isnan(v) ? -INFINITY : v;
}

/* The name of a cache of the machine description (l1d as L1d, last_level as LLC). */
static const char *
mem_name(const char *key)
{
	static const char *const nm[][2] = { { "l1d", "L1d" }, { "l1", "L1" },
	    { "l2", "L2" }, { "l3", "L3" }, { "l4", "L4" },
	    { "last_level", "LLC" }, { "llc", "LLC" } };
	size_t i;

	for (i = 0; i < sizeof nm / sizeof nm[0]; i++)
		if (strcmp(key, nm[i][0]) == 0)
			return nm[i][1];
	return key;
}

/*
 * The cache sizes to mark, by size: those of the machine description
 * (benchmp-run reads them from sysfs), else those the records carry
 * (lat_mem_rd writes the L1d and last-level sizes it used in its
 * params), with the last level of the records added where the machine
 * has no cache of that size (a last level the tool took smaller than the
 * one reported).
 */
static size_t
mem_marks(const struct report *r, const struct report_list *mem,
    struct mem_mark *m)
{
	const struct bm__jval *c = bm__jget(r->machine, "caches"), *p = NULL;
	double l1d, llc;
	size_t n = 0, i, k;

	for (i = 0; c != NULL && c->type == BM__J_OBJECT && i < c->n &&
	    n < MEM_MARKS - 1; i++)
		if (c->item[i].type == BM__J_NUMBER && c->item[i].num > 0) {
			m[n].name = mem_name(c->key[i]);
			m[n++].size = c->item[i].num;
		}
	/* The sizes the first record that gives them used (a sweep's are one). */
	for (i = 0; i < mem->n && p == NULL; i++) {
		p = bm__jget(mem->r[i]->j, "params");
		if (!(bm__jnum(p, "l1d") > 0 ||
		    bm__jnum(p, "llc") > 0))
			p = NULL;
	}
	l1d = bm__jnum(p, "l1d");
	llc = bm__jnum(p, "llc");
	if (n == 0) {
		if (l1d > 0) {
			m[n].name = "L1d";
			m[n++].size = l1d;
		}
		if (llc > 0) {
			m[n].name = "LLC";
			m[n++].size = llc;
		}
	} else if (llc > 0) {
		for (k = 0; k < n && m[k].size != llc; k++)
			;
		if (k == n) {
			m[n].name = "LLC used";
			m[n++].size = llc;
		}
	}
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && m[k - 1].size > m[k].size; k--) {
			struct mem_mark t = m[k];

			m[k] = m[k - 1];
			m[k - 1] = t;
		}
	return n;
}

/* Order two points by line (case, then stride), then size, then record. */
static int
mem_cmp(const void *p, const void *q)
{
	const struct mem_pt *a = p, *b = q;
	int c = strcmp(a->kase, b->kase);

	if (c != 0)
		return c;
	if (a->stride != b->stride)
		return a->stride < b->stride ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return (a->x > b->x) - (a->x < b->x);
}

/*
 * The points of the curve, their lines and spikes, and its axes: the
 * latency from 0 to a round number above the highest point that is not
 * a spike, so that one disturbed point cannot flatten the whole curve.
 */
static int
mem_points(const struct report_list *mem, struct mem_curve *cv)
{
	double ytop = -INFINITY;
	size_t i;

	memset(cv, 0, sizeof *cv);
	cv->s0 = INFINITY;
	cv->s1 = -INFINITY;
	if ((cv->pt = malloc((mem->n + 1) * sizeof *cv->pt)) == NULL)
		return -ENOMEM;
	for (i = 0; i < mem->n; i++) {
		const struct report_rec *x = mem->r[i];
		const struct bm__jval *p = bm__jget(x->j, "params");
		double s = mem_num(p, "size");
		const char *k = bm__jstr(x->j, "case");

		if (!(s > 0) || !isfinite(s))
			continue;
		cv->s0 = fmin(cv->s0, s);
		cv->s1 = fmax(cv->s1, s);
		if (!isfinite(x->f.value))
			continue;
		cv->pt[cv->n].x = x;
		cv->pt[cv->n].kase = k != NULL ? k : "";
		cv->pt[cv->n].stride = mem_num(p, "stride");
		cv->pt[cv->n].size = s;
		cv->pt[cv->n++].value = x->f.value;
	}
	qsort(cv->pt, cv->n, sizeof *cv->pt, mem_cmp);
	for (i = 0; i < cv->n; i++) {
		struct mem_pt *q = &cv->pt[i];
		int first = i == 0 || strcmp(q[-1].kase, q->kase) != 0 ||
		    q[-1].stride != q->stride;
		int last = i + 1 == cv->n || strcmp(q[1].kase, q->kase) != 0 ||
		    q[1].stride != q->stride;

		cv->lines += first;
		q->line = cv->lines - 1;
		q->spike = !first && !last &&
		    q->value > MEM_SPIKE * fmax(q[-1].value, q[1].value);
		if (!q->spike)
			ytop = fmax(ytop, q->value);
	}
	ytop = fmin((isfinite(ytop) && ytop > 0 ? ytop : 1) * 1.05, DBL_MAX);
	cv->ystep = report_chart_step(ytop);
	cv->ymax = ceil(ytop / cv->ystep) * cv->ystep;
	/*
	 * Near the largest double the round number is past it (infinity),
	 * and the grid would never reach it: one step, to the top.
	 */
	if (!isfinite(cv->ymax)) {
		cv->ymax = ytop;
		cv->ystep = ytop;
	}
	cv->span = log2(cv->s1 / cv->s0);
	if (!(cv->span > 0))
		cv->span = 1;
	return 0;
}

/* Where a size falls on the curve's log axis. */
static double
mem_x(const struct mem_curve *cv, double size)
{
	return log2(size / cv->s0) / cv->span * MEM_W + MEM_X0;
}

/* Where a latency falls, clipped at the top. */
static double
mem_y(const struct mem_curve *cv, double v)
{
	return MEM_Y0 + MEM_HGT - fmin(v, cv->ymax) / cv->ymax * MEM_HGT;
}

/* The colour of line i. */
static const char *
mem_colour(size_t i)
{
	static const char *const pal[] = { "#4e79a7", "#f28e2b", "#59a14f",
	    "#e15759", "#76b7b2", "#b07aa1" };

	return pal[i % (sizeof pal / sizeof pal[0])];
}

/* Write the grid: every power of two of the sizes (every other one named), the latency in round steps. */
static void
mem_grid(struct report *r, const struct mem_curve *cv)
{
	double k0 = ceil(log2(cv->s0)), k;

	for (k = k0; k <= floor(log2(cv->s1)); k++) {
		report_put(r, "<path d=\"M%p %gV%g\" class=\"grid\"/>",
		    mem_x(cv, pow(2, k)), MEM_Y0, MEM_Y0 + MEM_HGT);
		if (fmod(k - k0, 2) == 0)
			report_put(r, "<text x=\"%p\" y=\"%g\" class=\"tick\">"
			    "%k</text>", mem_x(cv, pow(2, k)),
			    MEM_Y0 + MEM_HGT + 16, round(pow(2, k)));
	}
	for (k = 0; k <= round(cv->ymax / cv->ystep); k++)
		report_put(r, "<path d=\"M%g %pH%g\" class=\"grid\"/><text "
		    "x=\"%g\" y=\"%p\" class=\"lab\">%t</text>", MEM_X0,
		    mem_y(cv, k * cv->ystep), MEM_X0 + MEM_W, MEM_X0 - 6,
		    mem_y(cv, k * cv->ystep) + 4, k * cv->ystep);
}

/* Write each line and its points above the axis: a triangle on the top edge, the value beside it. */
static void
mem_lines(struct report *r, const struct mem_curve *cv)
{
	const struct mem_pt *q;
	size_t i, k, e;
	double x;

	for (i = 0; i < cv->n; i = e) {
		for (e = i; e < cv->n && cv->pt[e].line == cv->pt[i].line; e++)
			;
		report_put(r, "<polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\" points=\"", mem_colour(cv->pt[i].line));
		for (k = i; k < e; k++)
			report_put(r, "%s%p,%p", k > i ? " " : "",
			    mem_x(cv, cv->pt[k].size),
			    mem_y(cv, cv->pt[k].value));
		report_put(r, "\"/>");
		for (k = i; k < e; k++) {
			q = &cv->pt[k];
			if (!(q->value > cv->ymax))
				continue;
			x = mem_x(cv, q->size);
			report_put(r, "<g class=\"clipped\"><title>%h: %f ns, "
			    "above the axis</title><path d=\"M%p %gL%p %gL%p "
			    "%gZ\" fill=\"%s\"/><text x=\"%p\" y=\"%g\" "
			    "class=\"axis\">%f</text></g>", q->x->label,
			    q->value, x - 5, MEM_Y0 + 1, x, MEM_Y0 - 8, x + 5,
			    MEM_Y0 + 1, mem_colour(q->line), x + 7, MEM_Y0 - 5,
			    q->value);
		}
	}
}

/* Write the cache sizes within the sweep: dashed lines, and their names over the lines on a white halo. */
static void
mem_caches(struct report *r, const struct mem_curve *cv,
    const struct mem_mark *m, size_t nm)
{
	size_t i, k = 0;

	for (i = 0; i < nm; i++)
		if (m[i].size >= cv->s0 && m[i].size <= cv->s1)
			report_put(r, "<path d=\"M%p %gV%g\" class=\"cache\"/>",
			    mem_x(cv, m[i].size), MEM_Y0, MEM_Y0 + MEM_HGT);
	mem_lines(r, cv);
	for (i = 0; i < nm; i++)
		if (m[i].size >= cv->s0 && m[i].size <= cv->s1)
			report_put(r, "<g class=\"cachemark\"><title>%h: %kB"
			    "</title><text x=\"%p\" y=\"%z\" class=\"axis "
			    "halo\">%h %k</text></g>", m[i].name, m[i].size,
			    mem_x(cv, m[i].size) + 3,
			    (size_t)MEM_Y0 + 16 + (k++ % 2) * 13, m[i].name,
			    m[i].size);
}

/* Begin entry k of the legend with its swatch. */
static void
mem_legend_at(struct report *r, size_t k, const char *swatch)
{
	report_put(r, "<g class=\"legend\" transform=\"translate(%z %g)\">%s"
	    "<text x=\"30\" y=\"4\" class=\"axis\">", (size_t)MEM_X0 + k * 170,
	    MEM_Y0 + MEM_HGT + 56, swatch);
}

/* Write the legend: a swatch in the colour of each line, then the marks. */
static void
mem_legend(struct report *r, const struct mem_curve *cv)
{
	const struct bm__jval *j;
	char sw[128];
	size_t i, k = 0;
	int clipped = 0;

	for (i = 0; i < cv->n; i++) {
		clipped |= cv->pt[i].value > cv->ymax;
		if (i > 0 && cv->pt[i - 1].line == cv->pt[i].line)
			continue;
		j = cv->pt[i].x->j;
		snprintf(sw, sizeof sw, "<path d=\"M0 0H24\" stroke=\"%s\" "
		    "stroke-width=\"2\" fill=\"none\"/>", mem_colour(k));
		mem_legend_at(r, k++, sw);
		if (strcmp(cv->pt[i].kase, "stride") != 0) {
			report_put_text(r, bm__jget(j, "case"), NULL);
			report_put(r, ", ");
		}
		report_put(r, "stride ");
		report_put_text(r, bm__jget(bm__jget(j, "params"), "stride"),
		    NULL);
		report_put(r, "</text></g>");
	}
	mem_legend_at(r, k++, "<path d=\"M0 0H24\" class=\"cache\"/>");
	report_put(r, "cache size</text></g>");
	if (clipped) {
		mem_legend_at(r, k, "<path d=\"M7 4L12 -5L17 4Z\" "
		    "fill=\"#555\"/>");
		report_put(r, "point above the axis (a spike), its value "
		    "beside it</text></g>");
	}
}

/* The lat_mem_rd curve: latency against size on a log axis, one line per chase order and stride, the caches marked. */
static void
mem_curve(struct report *r, const struct report_list *mem,
    const struct mem_mark *m, size_t nm)
{
	struct mem_curve cv;

	if (mem_points(mem, &cv) != 0) {
		r->err = -ENOMEM;
		return;
	}
	report_put(r, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
	    "curve\" data-curve=\"lat_mem_rd\" width=\"900\" height=\"%g\" "
	    "viewBox=\"0 0 900 %g\" role=\"img\">", MEM_Y0 + MEM_HGT + 70,
	    MEM_Y0 + MEM_HGT + 70);
	mem_grid(r, &cv);
	report_put(r, "<path d=\"M%g %gV%gH%g\" class=\"frame\"/><text "
	    "x=\"%g\" y=\"%g\" class=\"tick\">size of the memory read (bytes, "
	    "log scale)</text><text x=\"%g\" y=\"%g\" class=\"lab\">latency "
	    "(ns)</text>", MEM_X0, MEM_Y0, MEM_Y0 + MEM_HGT, MEM_X0 + MEM_W,
	    MEM_X0 + MEM_W / 2, MEM_Y0 + MEM_HGT + 34, MEM_X0 - 6, MEM_Y0 - 12);
	mem_caches(r, &cv, m, nm);
	mem_legend(r, &cv);
	report_put(r, "</svg>\n");
	free(cv.pt);
}

/* The lat_mem_rd section: the caches it marks, its curve when the records give sizes, its table. */
void
report_mem(struct report *r, const struct report_list *mem)
{
	const struct bm__jval *c = bm__jget(r->machine, "caches");
	struct mem_mark m[MEM_MARKS];
	size_t nm = mem_marks(r, mem, m), i;
	int sizes = 0;

	report_put(r, "<h2 id=\"lat-mem-rd\">Memory latency (lat_mem_rd)</h2>\n"
	    "<p>Latency of a dependent load against the size of the memory "
	    "read (log scale); the dashed lines are the cache sizes");
	for (i = 0; i < nm; i++)
		report_put(r, ", %h %k", m[i].name, m[i].size);
	if (nm == 0)
		report_put(r, " (none known: no machine description and none "
		    "in the records)");
	else
		report_put(r, " (from %s; a size beyond the sweep is not "
		    "drawn)", c != NULL && c->type == BM__J_OBJECT ?
		    "the machine description" : "the records");
	report_put(r, ". The latency axis is set by the points that are not "
	    "spikes (more than 15%% above both neighbours); a spike above it "
	    "is marked at the top edge with its value.</p>\n");
	for (i = 0; i < mem->n; i++)
		sizes |= mem_num(bm__jget(mem->r[i]->j, "params"), "size") > 0;
	/* Records without sizes (lat_mem_rd at one size) give no curve. */
	if (sizes)
		mem_curve(r, mem, m, nm);
	else
		report_put(r, "<p>The records give no sizes: no curve is drawn."
		    "</p>\n");
	report_page_table(r, mem);
}
