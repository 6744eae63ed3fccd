/* spread-out.c: benchmp spread's report: the table and the totals as text, or one JSON object. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "spread.h"
#include "summary.h"

/* The widths of the figure column, and of the totals' text and target columns. */
#define OUT_FIGURE_W	44
#define OUT_TEXT_W	58
#define OUT_TARGET_W	18

/* The word of a target: PASS, MISS, or "-" when it is not judged. */
static const char *
out_verdict(int met)
{
	return met == SPREAD_NONE ? "-" : met ? "PASS" : "MISS";
}

/* a as a percentage of b (0 of nothing). */
static double
out_pct(size_t a, size_t b)
{
	return b > 0 ? 100.0 * (double)a / (double)b : 0;
}

/* Print one figure's row: its name, CV, hits of other runs' intervals and compare's verdicts. */
static void
out_row(const struct spread *s, const struct spread_fig *g, FILE *out)
{
	size_t w = summary_table_width(g->fig->name), p;
	char in[48];

	compare_put_escaped(out, g->fig->name);
	if (g->curve) {
		fputs(" [curve]", out);
		w += 8;
	}
	if (w < OUT_FIGURE_W)
		fprintf(out, "%*s", (int)(OUT_FIGURE_W - w), "");
	if (g->npairs > 0)
		snprintf(in, sizeof in, "%zu/%zu", g->hits, g->npairs);
	else
		snprintf(in, sizeof in, "-");
	fprintf(out, " %6.1f%% %7s", 100 * g->cv, in);
	for (p = 0; p < s->npair; p++)
		fprintf(out, "%s%s", p == 0 ? "  " : " ", g->verdict[p]);
	fputc('\n', out);
}

/* Print a line of the totals: its text (fmt), the target and the verdict, in columns. */
static void __attribute__((format(printf, 4, 5)))
out_total(FILE *out, const char *target, const char *verdict,
    const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(out, fmt, ap);
	va_end(ap);
	if (n >= 0 && n < OUT_TEXT_W)
		fprintf(out, "%*s", OUT_TEXT_W - n, "");
	fprintf(out, " %-*s %s\n", OUT_TARGET_W, target, verdict);
}

/* The runs' wall times (with a failed run's exit status) into b, each after a space. */
static void
out_walls(const struct spread *s, struct bm__json *b)
{
	size_t i;

	for (i = 0; i < s->nrun; i++) {
		const struct spread_run *r = &s->run[i];

		if (isnan(r->wall))
			bm__json_printf(b, " -");
		else
			bm__json_printf(b, " %.1f s", r->wall);
		if (r->exit != 0)
			bm__json_printf(b, " (exit %d)", r->exit);
	}
}

/* Each run's share of flagged figures into b, each after a space ("-" when not known). */
static void
out_shares(const struct spread *s, struct bm__json *b)
{
	size_t i;

	for (i = 0; i < s->nrun; i++) {
		if (s->run[i].nrows == 0)
			bm__json_printf(b, " -");
		else
			bm__json_printf(b, " %.0f%%", out_pct(
			    s->run[i].nflagged, s->run[i].nrows));
	}
}

/* Each run's share of its wall time measuring into b, each after a space ("-" when not known). */
static void
out_measured(const struct spread *s, struct bm__json *b)
{
	size_t i;

	for (i = 0; i < s->nrun; i++) {
		const struct spread_run *r = &s->run[i];

		if (isnan(r->measured) || !(r->wall > 0))
			bm__json_printf(b, " -");
		else
			bm__json_printf(b, " %.0f%%",
			    100 * r->measured / r->wall);
	}
}

/* The pairs whose compare did not exit 0 into b, each after a space. */
static size_t
out_bad_pairs(const struct spread *s, struct bm__json *b)
{
	size_t i, n = 0;

	for (i = 0; i < s->npair; i++)
		if (s->pair[i].exit != 0) {
			bm__json_printf(b, " %zu-%zu", s->pair[i].a + 1,
			    s->pair[i].b + 1);
			n++;
		}
	return n;
}

/* Print the names of the figures that moved and misled a run, "; " between them. */
static void
out_misled(const struct spread *s, FILE *out)
{
	size_t i, k = 0;

	fputs("    (", out);
	for (i = 0; i < s->nfig; i++) {
		const struct spread_fig *g = &s->fig[i];

		if (g->curve || !(g->cv > SPREAD_BEYOND && g->off > 0))
			continue;
		fputs(k++ > 0 ? "; " : "", out);
		compare_put_escaped(out, g->fig->name);
	}
	fputs(")\n", out);
}

/*
 * Print the clock each run read (mhz's figure) and its CV; when it moved
 * beyond SPREAD_WITHIN, how many of the other figures beyond it were
 * within it once each run was scaled by its clock: the moves the host's
 * clock explains.
 */
static void
out_clock(const struct spread *s, FILE *out)
{
	const struct spread_clock *c = &s->clock;
	size_t i;

	fputs("\nclock (mhz) per run:", out);
	for (i = 0; i < s->nrun; i++)
		fprintf(out, " %.0f", s->run[i].shown[c->fig->at[i]].value);
	fprintf(out, " MHz, CV %.1f%%\n", 100 * c->fig->cv);
	if (c->fig->cv > SPREAD_WITHIN && c->n > 0)
		fprintf(out, "  of the %zu other figures beyond %.0f%% CV, %zu "
		    "(%.0f%%) within it once each run is scaled by its "
		    "clock\n", c->n, 100 * SPREAD_WITHIN, c->within,
		    out_pct(c->within, c->n));
}

/* Print the totals of the figures that are not a sweep's points, and of those. */
static int
out_totals(const struct spread *s, FILE *out)
{
	const struct spread_total *t = &s->total, *c = &s->curve;
	struct bm__json walls, shares, bad, meas;
	char within[16], next[16], flagged[16], wall[16], measured[16];
	size_t nbad;

	memset(&walls, 0, sizeof walls);
	memset(&shares, 0, sizeof shares);
	memset(&bad, 0, sizeof bad);
	memset(&meas, 0, sizeof meas);
	bm__json_printf(&walls, "%s", "");
	bm__json_printf(&shares, "%s", "");
	bm__json_printf(&bad, "%s", "");
	bm__json_printf(&meas, "%s", "");
	out_walls(s, &walls);
	out_shares(s, &shares);
	out_measured(s, &meas);
	nbad = out_bad_pairs(s, &bad);
	snprintf(within, sizeof within, ">= %.0f%%", 100 * SPREAD_WITHIN_SHARE);
	snprintf(next, sizeof next, ">= %.0f%%", 100 * SPREAD_NEXT_SHARE);
	snprintf(flagged, sizeof flagged, "<= %.0f%%",
	    100 * SPREAD_FLAGGED_SHARE);
	snprintf(wall, sizeof wall, "<= %d s", SPREAD_WALL_S);
	snprintf(measured, sizeof measured, ">= %.0f%%",
	    100 * SPREAD_MEASURED_SHARE);
	fprintf(out, "\n%-*s %-*s %s\n", OUT_TEXT_W, "total", OUT_TARGET_W,
	    "target", "verdict");
	out_total(out, "", "", "figures in all %zu runs: %zu", s->nrun, t->n);
	out_total(out, within, out_verdict(s->met[SPREAD_T_WITHIN]),
	    "within %.0f%% run-to-run CV: %zu (%.0f%%)", 100 * SPREAD_WITHIN,
	    t->within, out_pct(t->within, t->n));
	out_total(out, "", "", "beyond %.0f%% CV: %zu (%.0f%%)",
	    100 * SPREAD_BEYOND, t->beyond, out_pct(t->beyond, t->n));
	out_total(out, "0", out_verdict(s->met[SPREAD_T_MISLED]),
	    "  of them off by >%.0f%% in a run that did not flag it: %zu",
	    100 * SPREAD_OFF, t->misled);
	if (t->misled > 0)
		out_misled(s, out);
	out_total(out, next, out_verdict(s->met[SPREAD_T_NEXT]),
	    "next value in previous interval: %zu/%zu (%.0f%%)", t->next,
	    t->nnext, out_pct(t->next, t->nnext));
	if (s->npair > 0)
		out_total(out, "all", out_verdict(s->met[SPREAD_T_COMPARE]),
		    "pairs whose compare exited 0: %zu/%zu%s%s%s",
		    s->npair - nbad, s->npair, nbad > 0 ? " (not:" : "",
		    nbad > 0 ? bad.s : "", nbad > 0 ? ")" : "");
	out_total(out, flagged, out_verdict(s->met[SPREAD_T_FLAGGED]),
	    "flagged figures per run:%s", shares.s ? shares.s : "");
	if (s->walls)
		out_total(out, wall, out_verdict(s->met[SPREAD_T_WALL]),
		    "wall time per run:%s", walls.s ? walls.s : "");
	if (s->measured)
		out_total(out, measured, out_verdict(
		    s->met[SPREAD_T_MEASURED]), "measuring per run:%s",
		    meas.s ? meas.s : "");
	if (s->clock.fig != NULL)
		out_clock(s, out);
	if (c->n > 0)
		fprintf(out, "\npoints of size sweeps (not counted above): %zu; "
		    "within %.0f%% CV %zu (%.0f%%), beyond %.0f%% %zu, next "
		    "median in previous interval %zu/%zu (%.0f%%)\n", c->n,
		    100 * SPREAD_WITHIN, c->within, out_pct(c->within, c->n),
		    100 * SPREAD_BEYOND, c->beyond, c->next, c->nnext,
		    out_pct(c->next, c->nnext));
	free(walls.s);
	free(shares.s);
	free(bad.s);
	free(meas.s);
	return walls.err != 0 || shares.err != 0 || bad.err != 0 ||
	    meas.err != 0 ? -1 : 0;
}

/* Write the table and the totals. */
int
spread_out_text(const struct spread *s, FILE *out)
{
	size_t i;

	fprintf(out, "%-*s %7s %7s", OUT_FIGURE_W, "figure", "cv", "in CI");
	for (i = 0; i < s->npair; i++)
		fprintf(out, "%s %zu-%zu", i == 0 ? "  verdicts" : "",
		    s->pair[i].a + 1, s->pair[i].b + 1);
	fputc('\n', out);
	for (i = 0; i < s->nfig; i++)
		out_row(s, &s->fig[i], out);
	if (out_totals(s, out) != 0)
		return -1;
	return ferror(out) ? -1 : 0;
}

/* Append a total's members to b. */
static void
out_json_total(struct bm__json *b, const struct spread_total *t)
{
	bm__json_printf(b, "{\"figures\":%zu,\"within\":%zu,\"beyond\":%zu,"
	    "\"next\":%zu,\"next_pairs\":%zu", t->n, t->within, t->beyond,
	    t->next, t->nnext);
}

/* Append one figure to b. */
static void
out_json_fig(const struct spread *s, const struct spread_fig *g,
    struct bm__json *b)
{
	size_t i;

	bm__json_printf(b, "{\"figure\":");
	bm__json_string(b, g->fig->name);
	bm__json_kstr(b, "key", g->fig->key);
	bm__json_kstr(b, "unit", g->fig->unit);
	bm__json_printf(b, ",\"curve\":%s,\"values\":[", g->curve ? "true" :
	    "false");
	for (i = 0; i < s->nrun; i++) {
		bm__json_printf(b, "%s", i > 0 ? "," : "");
		bm__json_number(b, s->run[i].shown[g->at[i]].value);
	}
	bm__json_printf(b, "],\"flagged\":[");
	for (i = 0; i < s->nrun; i++)
		bm__json_printf(b, "%s%s", i > 0 ? "," : "",
		    s->run[i].shown[g->at[i]].flagged ? "true" : "false");
	bm__json_printf(b, "]");
	bm__json_knum(b, "median", g->median);
	bm__json_knum(b, "cv", g->cv);
	if (g->npairs > 0)
		bm__json_printf(b, ",\"in_interval\":%zu,\"pairs\":%zu,"
		    "\"next\":%zu,\"next_pairs\":%zu", g->hits, g->npairs,
		    g->next, g->nnext);
	else
		bm__json_printf(b, ",\"in_interval\":null,\"pairs\":null,"
		    "\"next\":null,\"next_pairs\":null");
	bm__json_printf(b, ",\"off_unflagged\":%zu", g->off);
	if (s->npair > 0) {
		bm__json_printf(b, ",\"verdicts\":[");
		for (i = 0; i < s->npair; i++) {
			bm__json_printf(b, "%s", i > 0 ? "," : "");
			bm__json_string(b, g->verdict[i]);
		}
		bm__json_printf(b, "]");
	}
	bm__json_printf(b, "}");
}

/* Append the runs and the pairs to b. */
static void
out_json_runs(const struct spread *s, struct bm__json *b)
{
	size_t i;

	bm__json_printf(b, "\"runs\":[");
	for (i = 0; i < s->nrun; i++) {
		const struct spread_run *r = &s->run[i];

		bm__json_printf(b, "%s{\"file\":", i > 0 ? "," : "");
		bm__json_string(b, r->path);
		if (r->nrows > 0)
			bm__json_printf(b, ",\"flagged\":%zu,\"shown\":%zu",
			    r->nflagged, r->nrows);
		bm__json_knum(b, "wall_s", r->wall);
		bm__json_knum(b, "measured_s", r->measured);
		bm__json_printf(b, ",\"exit\":%d}", r->exit);
	}
	bm__json_printf(b, "],\"pairs\":[");
	for (i = 0; i < s->npair; i++)
		bm__json_printf(b, "%s{\"a\":%zu,\"b\":%zu,\"exit\":%d}",
		    i > 0 ? "," : "", s->pair[i].a + 1, s->pair[i].b + 1,
		    s->pair[i].exit);
	bm__json_printf(b, "]");
}

/* Append the runs' clock to b: null where mhz is not in every run. */
static void
out_json_clock(const struct spread *s, struct bm__json *b)
{
	const struct spread_clock *c = &s->clock;
	size_t i;

	if (c->fig == NULL) {
		bm__json_printf(b, "null");
		return;
	}
	bm__json_printf(b, "{\"mhz\":[");
	for (i = 0; i < s->nrun; i++) {
		bm__json_printf(b, "%s", i > 0 ? "," : "");
		bm__json_number(b, s->run[i].shown[c->fig->at[i]].value);
	}
	bm__json_printf(b, "]");
	bm__json_knum(b, "cv", c->fig->cv);
	bm__json_printf(b, ",\"moved\":%zu,\"within_scaled\":%zu}", c->n,
	    c->within);
}

/* Write the report as one JSON object. */
int
spread_out_json(const struct spread *s, FILE *out)
{
	static const char *const target[SPREAD_NTARGETS] = { "within",
	    "misled", "next", "compare", "flagged", "wall", "measured" };
	struct bm__json b;
	size_t i;

	memset(&b, 0, sizeof b);
	bm__json_printf(&b, "{");
	out_json_runs(s, &b);
	bm__json_printf(&b, ",\"figures\":[");
	for (i = 0; i < s->nfig; i++) {
		bm__json_printf(&b, "%s", i > 0 ? "," : "");
		out_json_fig(s, &s->fig[i], &b);
	}
	bm__json_printf(&b, "],\"totals\":");
	out_json_total(&b, &s->total);
	bm__json_printf(&b, ",\"misled\":%zu},\"curves\":", s->total.misled);
	out_json_total(&b, &s->curve);
	bm__json_printf(&b, "},\"clock\":");
	out_json_clock(s, &b);
	bm__json_printf(&b, ",\"targets\":{");
	for (i = 0; i < SPREAD_NTARGETS; i++) {
		bm__json_printf(&b, "%s\"%s\":", i > 0 ? "," : "", target[i]);
		if (s->met[i] == SPREAD_NONE)
			bm__json_printf(&b, "null");
		else
			bm__json_string(&b, out_verdict(s->met[i]));
	}
	bm__json_printf(&b, "}}\n");
	return compare_out_flush(&b, out);
}
