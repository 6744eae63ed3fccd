/* report-scale.c: benchmp report's scaling section: each series' points, their speed-up over one worker, a chart and a table. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A point of a scaling series: its record, workers, speed-up over one worker and efficiency. */
struct scale_point {
	const struct report_rec *x;
	double workers;
	double speedup;
	double eff;
};

/*
 * The points of the scaling series whose first record is first: the
 * latest record at each worker count, with its speed-up over one worker
 * (aggregate operations per second, else the figure: higher-is-better
 * values in proportion, latencies as workers / latency) and its
 * efficiency (speed-up / workers); their count, or 0 on ENOMEM.
 */
static size_t
scale_points(const struct report_run *run, size_t first,
    struct scale_point **out)
{
	struct scale_point *p, t;
	const struct report_rec *one = NULL, *x;
	const char *better, *metric;
	double o1, ox;
	size_t i, k, n = 0;

	for (i = first + 1; i != 0; i = run->rec[i - 1].next)
		n++;
	if ((p = malloc((n + 1) * sizeof *p)) == NULL)
		return 0;
	n = 0;
	/* The series' records in their order, linked from its first. */
	for (i = first + 1; i != 0; i = run->rec[i - 1].next) {
		/* By workers; of a count measured twice, the latest. */
		p[n].x = &run->rec[i - 1];
		p[n].workers = run->rec[i - 1].f.parallel;
		for (k = n++; k > 0 && p[k - 1].workers >= p[k].workers; k--) {
			t = p[k];
			p[k] = p[k - 1];
			p[k - 1] = t;
		}
		if (k + 1 < n && p[k + 1].workers == p[k].workers) {
			n--;
			memmove(&p[k + 1], &p[k + 2], (n - k - 1) * sizeof *p);
		}
	}
	for (i = 0; i < n; i++)
		one = p[i].workers == 1 ? p[i].x : one;
	for (i = 0; i < n; i++) {
		x = p[i].x;
		better = bm__jstr(x->j, "better");
		metric = bm__jstr(x->j, "metric");
		o1 = bm__jnum(one->j, "ops_per_s");
		ox = bm__jnum(x->j, "ops_per_s");
		if (isfinite(ox) && o1 > 0)
			p[i].speedup = ox / o1;
		else if (!(x->f.value > 0 && one->f.value > 0))
			p[i].speedup = NAN;
		else if ((better != NULL && strcmp(better, "lower") == 0) ||
		    (metric != NULL && strcmp(metric, "latency") == 0))
			p[i].speedup = p[i].workers * one->f.value / x->f.value;
		else
			p[i].speedup = x->f.value / one->f.value;
		p[i].eff = p[i].speedup / p[i].workers;
	}
	*out = p;
	return n;
}

/*
 * The speed-up of a scaling series against the workers, both axes linear
 * from zero (x = 70 + workers * fx, y = 280 - speed-up * fy), the ideal
 * (speed-up = workers) dashed, the efficiency in each point's tooltip.
 */
static void
scale_chart(struct report *r, const char *name,
    const struct scale_point *p, size_t n)
{
	double wmax = 0, smax, fx, fy;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		wmax = fmax(wmax, p[i].workers);
	for (i = 0, smax = wmax; i < n; i++)
		smax = isfinite(p[i].speedup) ? fmax(smax, p[i].speedup) : smax;
	fx = 760 / wmax;
	fy = 260 / smax;
	report_put(r, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "class=\"chart\" width=\"900\" height=\"330\" viewBox=\"0 0 900 "
	    "330\" role=\"img\"><path d=\"M70 20V280H830\" class=\"frame\"/>");
	for (i = 0; i < n; i++)
		report_put(r, "<text x=\"%p\" y=\"296\" class=\"tick\">%g"
		    "</text>", 70 + p[i].workers * fx, p[i].workers);
	report_put(r, "<text x=\"450\" y=\"314\" class=\"tick\">workers (-P)"
	    "</text>");
	for (i = 0; i < 3; i++)
		report_put(r, "<text x=\"66\" y=\"%p\" class=\"lab\">%f</text>",
		    284 - (double)i / 2 * smax * fy, (double)i / 2 * smax);
	report_put(r, "<text x=\"66\" y=\"12\" class=\"lab\">speed-up</text>"
	    "<path d=\"M70 280L%p %p\" class=\"ideal\"/><text x=\"78\" "
	    "y=\"32\" class=\"axis\">dashed: ideal (speed-up = workers); "
	    "line: measured</text><polyline fill=\"none\" stroke=\"#4e79a7\" "
	    "stroke-width=\"2\" points=\"", 70 + wmax * fx, 280 - wmax * fy);
	for (i = 0; i < n; i++)
		if (isfinite(p[i].speedup))
			report_put(r, "%s%p,%p", k++ > 0 ? " " : "",
			    70 + p[i].workers * fx, 280 - p[i].speedup * fy);
	report_put(r, "\"/>");
	for (i = 0; i < n; i++) {
		if (!isfinite(p[i].speedup))
			continue;
		report_put(r, "<g><title>%h: %g workers, speed-up %f, "
		    "efficiency %f%%</title><circle cx=\"%p\" cy=\"%p\" "
		    "r=\"3.5\" fill=\"#4e79a7\"/></g>", name, p[i].workers,
		    p[i].speedup, p[i].eff * 100, 70 + p[i].workers * fx,
		    280 - p[i].speedup * fy);
	}
	report_put(r, "</svg>\n");
}

/* The scaling section: for each series a chart of the speed-up and a table of its points. */
void
report_scale(struct report *r)
{
	const struct report_run *run = &r->run[0];
	struct scale_point *p;
	size_t i, k, n, h = 0;

	for (i = 0; i < run->n; i++) {
		if (run->rec[i].series != i + 1)
			continue;
		if ((n = scale_points(run, i, &p)) == 0) {
			r->err = -ENOMEM;
			return;
		}
		if (h++ == 0)
			report_put(r, "<h2 id=\"scaling\">Scaling "
			    "(benchmp-scaling)</h2>\n<p>Figures measured at "
			    "several worker counts (-P): the speed-up over one "
			    "worker (aggregate operations per second, else the "
			    "figure itself) against the workers, the dashed "
			    "line the ideal; the efficiency is the speed-up "
			    "divided by the workers.</p>\n");
		report_put(r, "<h3>%h</h3>\n", run->rec[i].label);
		scale_chart(r, run->rec[i].label, p, n);
		report_put(r, "<table><thead><tr><th>workers</th><th>"
		    "throughput (ops/s)</th><th>speed-up</th><th>efficiency"
		    "</th><th>figure</th><th>unit</th></tr></thead><tbody>");
		for (k = 0; k < n; k++)
			report_put(r, "<tr><td class=\"n\">%g</td><td "
			    "class=\"n\">%f</td><td class=\"n\">%f</td><td "
			    "class=\"n\">%f%s</td><td class=\"n\">%f</td><td>%h"
			    "</td></tr>", p[k].workers,
			    bm__jnum(p[k].x->j, "ops_per_s"),
			    p[k].speedup, p[k].eff * 100,
			    isfinite(p[k].eff) ? "%" : "", p[k].x->f.value,
			    p[k].x->f.unit);
		report_put(r, "</tbody></table>\n");
		free(p);
	}
}
