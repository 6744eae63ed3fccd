/* report-chart.c: benchmp report's SVG charts: a section's bars, the ratios B/A, a scaling series' speed-up. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* The bars: their left end and width, a bar's height. */
#define CHART_X0	320.0
#define CHART_W		470.0
#define CHART_H		18.0
/*
 * The most grid lines of an axis: eight round steps, or the decades a
 * double spans (10^-324 to 10^308); a bound, so that an axis gone wrong
 * writes no endless grid.
 */
#define CHART_GRID_MAX	700.0

/* A step for an axis from 0 to at least top: 1, 2 or 5 times a power of ten, at most eight steps. */
double
report_chart_step(double top)
{
	static const double m[] = { 1, 2, 5, 10 };
	double t = top > 0 ? top : 1, p = pow(10, floor(log10(t / 8)));
	size_t i;

	for (i = 0; i < sizeof m / sizeof m[0]; i++)
		if (m[i] * p * 8 >= t)
			return m[i] * p;
	return 10 * p;
}

/* The colour of a placement: same red, cross blue, one process green. */
static const char *
chart_colour(const char *place)
{
	if (place != NULL && strcmp(place, "same") == 0)
		return "#e15759";
	if (place != NULL && strcmp(place, "cross") == 0)
		return "#4e79a7";
	return "#59a14f";
}

/* The axis of a bar chart: linear from zero to max, or over the decades l0 to l1. */
struct chart_axis {
	int log;
	double max;
	double l0;
	double l1;
};

/* Where v falls on the axis, in pixels from the left (the axis' start for what is not a positive number). */
static double
chart_at(const struct chart_axis *ax, double v)
{
	if (!isfinite(v) || v <= 0)
		return CHART_X0;
	if (ax->log)
		return CHART_X0 + fmin(fmax((log10(v) - ax->l0) /
		    (ax->l1 - ax->l0), 0), 1) * CHART_W;
	return CHART_X0 + v / ax->max * CHART_W;
}

/*
 * The axis of the records of l: linear from zero to a round number, or
 * logarithmic over whole decades when the medians span more than two
 * decades, so that a 1 ns and a 1 ms figure both show.  Near the largest
 * double the round number is past it (1.7e308 rounds up to 2e308,
 * infinity): such an axis is logarithmic too, its last decade the last
 * one a double holds.
 */
static void
chart_axis(const struct report_list *l, struct chart_axis *ax)
{
	double max = -INFINITY, min = INFINITY, st, top;
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct bm__fig *f = &l->r[i]->f;

		max = fmax(max, isfinite(f->ci_hi) ? fmax(f->ci_hi, f->value) :
		    f->value);
		if (f->value > 0)
			min = fmin(min, f->value);
	}
	max = max > 0 ? max : 1;
	min = isfinite(min) ? min : max;
	st = report_chart_step(max);
	top = ceil(max / st) * st;
	ax->log = max / min > 100 || !isfinite(top);
	ax->max = ax->log ? max : top;
	ax->l0 = floor(log10(min));
	ax->l1 = ceil(log10(ax->max));
	if (!isfinite(pow(10, ax->l1)))
		ax->l1 -= 1;
	if (ax->l0 >= ax->l1)
		ax->l0 = ax->l1 - 1;
}

/* Write the key of a bar chart: a swatch of each placement, by name, and one process beside them. */
static void
chart_key(struct report *r, const struct report_list *l)
{
	const char *seen[64], *t;
	size_t i, k, n = 0;
	int none = 0;

	for (i = 0; i < l->n; i++) {
		const char *p = l->r[i]->place;

		none |= p == NULL;
		for (k = 0; p != NULL && k < n && strcmp(seen[k], p) != 0; k++)
			;
		if (p != NULL && k == n && n + 1 < sizeof seen / sizeof seen[0])
			seen[n++] = p;
	}
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && strcmp(seen[k - 1], seen[k]) > 0; k--) {
			t = seen[k];
			seen[k] = seen[k - 1];
			seen[k - 1] = t;
		}
	if (n > 0 && none)
		seen[n++] = NULL;
	for (i = 0; i < n; i++)
		report_put(r, "<rect x=\"%z\" y=\"6\" width=\"10\" "
		    "height=\"10\" fill=\"%s\"/><text x=\"%z\" y=\"15\" "
		    "class=\"axis\">%h</text>", 660 + i * 110,
		    chart_colour(seen[i]), 674 + i * 110,
		    seen[i] != NULL ? seen[i] : "one process");
}

/* Write one bar: the median, its interval as a whisker, the value at the end; the name and interval its tooltip. */
static void
chart_bar(struct report *r, const struct chart_axis *ax,
    const struct report_rec *x, const char *unit, double y)
{
	double end = chart_at(ax, x->f.value), lo = chart_at(ax, x->f.ci_lo);
	double hi = chart_at(ax, x->f.ci_hi);
	int ci = isfinite(x->f.ci_lo) && isfinite(x->f.ci_hi);

	report_put(r, "<g class=\"bar\"><title>%h: %f %h", x->label,
	    x->f.value, unit);
	if (ci) {
		report_put(r, ", interval ");
		report_put_ival(r, x);
	}
	report_put(r, "</title><text x=\"%g\" y=\"%g\" class=\"lab\">%c</text>"
	    "<rect x=\"%g\" y=\"%g\" width=\"%p\" height=\"%g\" fill=\"%s\"/>",
	    CHART_X0 - 6, y + 13, x->label, CHART_X0, y + 3, end - CHART_X0,
	    CHART_H - 6, chart_colour(x->place));
	if (ci)
		report_put(r, "<path d=\"M%p %gH%pM%p %gV%gM%p %gV%g\" "
		    "class=\"ci\"/>", lo, y + 9, hi, lo, y + 5, y + 13, hi,
		    y + 5, y + 13);
	report_put(r, "<text x=\"%p\" y=\"%g\" class=\"val\">%f</text></g>",
	    fmax(end, hi) + 5, y + 13, x->f.value);
}

/*
 * One horizontal bar chart of the figures of one section in one unit:
 * an svg that says its section and unit (data-section, data-unit), each
 * bar a g of class "bar", for a reader and a test.
 */
void
report_chart_bars(struct report *r, const char *group, const char *unit,
    const struct report_list *l)
{
	double height = 30 + (double)l->n * CHART_H + 24, st, v, span;
	struct chart_axis ax;
	size_t i, n;

	chart_axis(l, &ax);
	report_put(r, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
	    "bars\" data-section=\"%h\" data-unit=\"%h\" width=\"900\" "
	    "height=\"%g\" viewBox=\"0 0 900 %g\" role=\"img\"><text x=\"%g\" "
	    "y=\"16\" class=\"lab head\">%h</text><text x=\"%g\" y=\"16\" "
	    "class=\"axis\">", group, unit, height, height, CHART_X0 - 6, unit,
	    CHART_X0);
	if (ax.log)
		report_put(r, "log scale, %t to %t</text>", pow(10, ax.l0),
		    pow(10, ax.l1));
	else
		report_put(r, "0 to %t</text>", ax.max);
	/* Grid lines with their values: each decade, or each round step. */
	st = report_chart_step(ax.max);
	span = ax.log ? ax.l1 - ax.l0 : round(ax.max / st);
	n = span >= 0 && span <= CHART_GRID_MAX ? (size_t)span : 0;
	for (i = 0; i <= n; i++) {
		v = ax.log ? pow(10, ax.l0 + (double)i) : (double)i * st;
		report_put(r, "<path d=\"M%p 28V%g\" class=\"grid\"/><text "
		    "x=\"%p\" y=\"%g\" class=\"tick\">%t</text>",
		    chart_at(&ax, v), height - 20, chart_at(&ax, v),
		    height - 6, v);
	}
	chart_key(r, l);
	for (i = 0; i < l->n; i++)
		chart_bar(r, &ax, l->r[i], unit, 30 + (double)i * CHART_H);
	report_put(r, "</svg>\n");
}

/* Where a ratio falls on the chart's log axis clamped to +-e (1 for what is not a positive number). */
static double
chart_ratio_x(double v, double e)
{
	double l = isfinite(v) && v > 0 ? log(v) : 0;

	return fmin(fmax(l, -e), e) / e * (CHART_W / 2) + CHART_X0 +
	    CHART_W / 2;
}

/* The colour of a verdict: worse red, better green, the others grey. */
static const char *
chart_verdict_colour(const char *v)
{
	return strcmp(v, "worse") == 0 ? "#e15759" :
	    strcmp(v, "better") == 0 ? "#59a14f" : "#9c9c9c";
}

/* Write one row of the ratio chart: the bar from 1 to B/A, the range as a whisker, worse on red. */
static void
chart_ratio_row(struct report *r, const struct report_cmp *q, double e,
    double y)
{
	double x1 = chart_ratio_x(1, e), xr = chart_ratio_x(q->ratio, e);

	report_put(r, "<g><title>%h: B/A %f (%f to %f), %h</title>",
	    q->x->label, q->ratio, q->lo, q->hi, q->verdict);
	if (strcmp(q->verdict, "worse") == 0)
		report_put(r, "<rect x=\"0\" y=\"%g\" width=\"900\" "
		    "height=\"%g\" fill=\"#fde2e2\"/>", y, CHART_H);
	report_put(r, "<text x=\"%g\" y=\"%g\" class=\"lab\">%c</text><rect "
	    "x=\"%p\" y=\"%g\" width=\"%p\" height=\"%g\" fill=\"%s\"/>",
	    CHART_X0 - 6, y + 13, q->x->label, fmin(x1, xr), y + 3,
	    fabs(xr - x1), CHART_H - 6, chart_verdict_colour(q->verdict));
	if (isfinite(q->lo) && isfinite(q->hi))
		report_put(r, "<path d=\"M%p %gH%pM%p %gV%gM%p %gV%g\" "
		    "class=\"ci\"/>", chart_ratio_x(q->lo, e), y + 9,
		    chart_ratio_x(q->hi, e), chart_ratio_x(q->lo, e), y + 5,
		    y + 13, chart_ratio_x(q->hi, e), y + 5, y + 13);
	report_put(r, "<text x=\"%g\" y=\"%g\" class=\"val\">%f %h</text></g>",
	    CHART_X0 + CHART_W + 8, y + 13, q->ratio, q->verdict);
}

/* The chart of the ratios B/A on a log axis, at least +-10% and at most 4 times each way. */
void
report_chart_ratios(struct report *r, const struct report_cmp *c, size_t n)
{
	static const char *const key[] = { "worse", "better",
	    "other verdicts" };
	double e = 0, height = 24 + (double)n * CHART_H + 10, v[3];
	size_t i, k;

	for (i = 0; i < n; i++) {
		v[0] = c[i].lo;
		v[1] = c[i].hi;
		v[2] = c[i].ratio;
		for (k = 0; k < 3; k++)
			if (isfinite(v[k]) && v[k] > 0)
				e = fmax(e, fabs(log(v[k])));
	}
	e = fmin(fmax(e, log(1.1)), log(4));
	report_put(r, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "class=\"chart\" width=\"900\" height=\"%g\" viewBox=\"0 0 900 "
	    "%g\" role=\"img\"><text x=\"%g\" y=\"14\" class=\"axis\">B/A, "
	    "log scale, %t to %t</text>", height, height, CHART_X0, exp(-e),
	    exp(e));
	for (i = 0; i < 3; i++)
		report_put(r, "<rect x=\"%z\" y=\"5\" width=\"10\" "
		    "height=\"10\" fill=\"%s\"/><text x=\"%z\" y=\"14\" "
		    "class=\"axis\">%s</text>", 600 + i * 95,
		    chart_verdict_colour(key[i]), 614 + i * 95, key[i]);
	report_put(r, "<path d=\"M%p 18V%g\" class=\"frame\"/>",
	    chart_ratio_x(1, e), height - 4);
	for (i = 0; i < n; i++)
		chart_ratio_row(r, &c[i], e, 24 + (double)i * CHART_H);
	report_put(r, "</svg>\n");
}
