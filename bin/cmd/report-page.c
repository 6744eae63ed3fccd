/* report-page.c: benchmp report's page: the head, the machine, lmbench's sections, par_mem, the comparison. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report.h"

/* The style sheet: everything the page needs is in it, nothing loaded. */
static const char page_style[] = "<style>\n"
"body { font: 14px/1.4 sans-serif; margin: 1.5em auto; max-width: 940px; "
    "color: #222; }\n"
"h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid "
    "#ccc; margin-top: 2em; }\n"
"table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 13px; }\n"
"td, th { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: "
    "left; }\n"
"td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: "
    "nowrap; }\n"
"tr.worse td { background: #fde2e2; } tr.better td { background: #e3f4df; }\n"
"svg.chart { display: block; margin: 0.5em 0; }\n"
"svg text { font: 11px sans-serif; fill: #222; }\n"
"svg text.lab { text-anchor: end; } svg text.tick { text-anchor: middle; }\n"
"svg text.axis { fill: #555; }\n"
"svg .ci { stroke: #222; stroke-width: 1.2; fill: none; }\n"
"svg .frame { stroke: #888; fill: none; }\n"
"svg .cache { stroke: #888; stroke-dasharray: 4 3; fill: none; }\n"
"svg .ideal { stroke: #888; stroke-dasharray: 6 4; fill: none; }\n"
"svg .grid { stroke: #e4e4e4; fill: none; }\n"
"svg text.head { font-weight: bold; }\n"
"svg text.halo { paint-order: stroke; stroke: #fff; stroke-width: 3px; "
    "stroke-linejoin: round; }\n"
"h3 { font-size: 1.05em; }\n"
"dl { display: grid; grid-template-columns: max-content auto; gap: 2px "
    "12px; }\n"
"dt { font-weight: bold; } dd { margin: 0; }\n"
"</style></head><body>\n";

/* A row of a section with two runs: a record of A and its partner in B, or B's own. */
struct page_row {
	const struct report_rec *a;
	const struct report_rec *b;
};

/* The title of a section, lmbench's. */
static const char *
page_title(const char *g)
{
	static const char *const t[][2] = {
		{ "system", "Basic system parameters" },
		{ "basic", "Basic system parameters" },
		{ "processor", "Processor, Processes" },
		{ "ops", "Basic integer, uint64, float and double operations" },
		{ "memlat", "Memory latencies" },
		{ "context", "Context switching" },
		{ "latency", "Local communication latencies" },
		{ "filevm", "File & VM system latencies" },
		{ "bandwidth", "Local communication bandwidths" },
		{ "memory", "Memory bandwidth and latencies" },
		{ "other", "Other records" } };
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(g, t[i][0]) == 0)
			return t[i][1];
	return g;
}

/* Whether x is shown in its section. */
static int
page_plain(const struct report_rec *x, const void *arg)
{
	(void)arg;
	return x->plain;
}

/* Whether x is a point of a lat_mem_rd curve (the stride or page chase). */
static int
page_mem(const struct report_rec *x, const void *arg)
{
	const char *k = bm__jstr(x->j, "case");

	(void)arg;
	return strcmp(x->f.tool, "lat_mem_rd") == 0 && k != NULL &&
	    (strcmp(k, "stride") == 0 || strcmp(k, "page") == 0);
}

/* Whether x is a record of the tool arg. */
static int
page_tool(const struct report_rec *x, const void *arg)
{
	return strcmp(x->f.tool, arg) == 0;
}

/* Whether x is of the section arg. */
static int
page_group(const struct report_rec *x, const void *arg)
{
	return strcmp(x->group, arg) == 0;
}

/* Whether x has a value in the unit arg. */
static int
page_unit(const struct report_rec *x, const void *arg)
{
	return isfinite(x->f.value) && strcmp(x->f.unit, arg) == 0;
}

/* The last component of a path. */
static const char *
page_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* Write the table of records l: median, unit, interval, cv, placement, note. */
void
report_page_table(struct report *r, const struct report_list *l)
{
	size_t i, n;
	double cv;

	report_put(r, "<table><thead><tr><th>figure</th><th>median</th><th>unit"
	    "</th><th>interval (coverage)</th><th>cv</th><th>placement</th>"
	    "<th>note</th></tr></thead><tbody>");
	for (i = 0; i < l->n; i++) {
		const struct report_rec *x = l->r[i];

		report_put(r, "<tr><td>%h</td><td class=\"n\">%f</td><td>%h"
		    "</td><td class=\"n\">", x->label, x->f.value, x->f.unit);
		report_put_ival(r, x);
		/* The coefficient of variation in percent with two decimals. */
		cv = bm__jnum(x->j, "cv");
		if (cv > 0 && cv < 0.00005)
			report_put(r, "</td><td class=\"n\">&lt;0.01%%");
		else if (isfinite(cv))
			fprintf(r->o, "</td><td class=\"n\">%.2f%%",
			    round(cv * 10000) / 100);
		else
			report_put(r, "</td><td class=\"n\">-");
		report_put(r, "</td><td>%h</td><td>", x->place ? x->place : "");
		n = 0;
		report_put_note(r, x, NULL, &n);
		report_put(r, "</td></tr>");
	}
	report_put(r, "</tbody></table>\n");
}

/* Write the median and the interval of a run's record, "-" without it. */
static void
page_cells(struct report *r, const struct report_rec *x)
{
	report_put(r, "<td class=\"n\">%f</td><td class=\"n\">",
	    x != NULL ? x->f.value : NAN);
	if (x != NULL)
		report_put_ival(r, x);
	report_put(r, "%s</td>", x != NULL ? "" : "-");
}

/* The table of a section with two runs: each figure's values in A and B side by side. */
static void
page_table2(struct report *r, const struct page_row *row, size_t n,
    const char *group)
{
	const struct report_rec *x;
	size_t i, k;

	report_put(r, "<table><thead><tr><th>figure</th><th>A median</th><th>A "
	    "interval</th><th>B median</th><th>B interval</th><th>unit</th>"
	    "<th>placement</th><th>note</th></tr></thead><tbody>");
	for (i = 0; i < n; i++) {
		x = row[i].a ? row[i].a : row[i].b;
		if (strcmp(x->group, group) != 0)
			continue;
		report_put(r, "<tr><td>%h</td>", x->label);
		page_cells(r, row[i].a);
		page_cells(r, row[i].b);
		k = row[i].a == NULL || row[i].b == NULL;
		report_put(r, "<td>%h</td><td>%h</td><td>%s", x->f.unit,
		    x->place ? x->place : "", !k ? "" : row[i].a ? "only in A" :
		    "only in B");
		if (row[i].a != NULL)
			report_put_note(r, row[i].a, "A: ", &k);
		if (row[i].b != NULL)
			report_put_note(r, row[i].b, "B: ", &k);
		report_put(r, "</td></tr>");
	}
	report_put(r, "</tbody></table>\n");
}

/* Whether a check of benchmp-check warned. */
static int
page_warns(const struct bm__jval *check)
{
	const struct bm__jval *st = bm__jget(check, "status");

	return st != NULL && st->type == BM__J_STRING &&
	    strcmp(st->str, "warn") == 0;
}

/* Write a member of the machine description: a check's warnings with what each found, an object's members, else the value. */
static void
page_member(struct report *r, const char *key, const struct bm__jval *v)
{
	const struct bm__jval *ck = bm__jget(v, "checks"), *e;
	size_t i, n = 0;

	if (strcmp(key, "check") == 0 && ck != NULL &&
	    ck->type == BM__J_ARRAY) {
		for (i = 0; i < ck->n; i++)
			n += page_warns(&ck->item[i]);
		report_put(r, "%z warning%s%s", n, n == 1 ? "" : "s",
		    n > 0 ? ": " : "");
		for (i = 0, n = 0; i < ck->n; i++) {
			if (!page_warns(&ck->item[i]))
				continue;
			e = &ck->item[i];
			report_put(r, n++ > 0 ? "; " : "");
			report_put_text(r, bm__jget(e, "name"), NULL);
			report_put(r, " (");
			report_put_text(r, bm__jget(e, "found"), NULL);
			report_put(r, ")");
		}
	} else if (v->type == BM__J_OBJECT) {
		for (i = 0; i < v->n; i++) {
			report_put(r, "%s%h=", i > 0 ? ", " : "", v->key[i]);
			if (v->item[i].type == BM__J_NUMBER &&
			    v->item[i].num >= 1024)
				report_put(r, "%k", v->item[i].num);
			else
				report_put_text(r, &v->item[i], NULL);
		}
	} else {
		report_put_text(r, v, NULL);
	}
}

/* The head: the title, the style, the records named, the share of flagged figures, the host's moves, the machine. */
static void
page_head(struct report *r, const struct report_list *a,
    const struct report_list *plain, const struct report_list *bl)
{
	const char *na = page_base(r->run[0].path);
	const char *nb = r->nrun == 2 ? page_base(r->run[1].path) : "";
	size_t i, nf = 0;

	report_put(r, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\"/>\n<title>benchmp report: %h%s%h</title>\n%s"
	    "<h1>benchmp report</h1>\n<p>Records: %h%s%h%s; written by benchmp "
	    "report %s. Bars are medians; whiskers the interval of the median "
	    "(its coverage, the ci_level of each record, is in the tables); "
	    "colours the placement of two-process figures (cross: on different "
	    "CPUs, same: on one CPU).</p>\n", na, r->nrun == 2 ? " and " : "",
	    nb, page_style, na, r->nrun == 2 ? " (A) and " : "", nb,
	    r->nrun == 2 ? " (B)" : "", PACKAGE_VERSION);
	for (i = 0; i < plain->n; i++)
		nf += report_rec_flagged(plain->r[i]) != 0;
	report_put(r, "<p id=\"flagged\">Flagged: %z of %z figures (%g%%): "
	    "noisy, bimodal, disagree, contradicts the machine, interference "
	    "bound or time budget hit, or invalid (see each figure&#39;s "
	    "note).</p>\n", nf, plain->n,
	    plain->n > 0 ? round((double)nf * 100 / (double)plain->n) : 0.0);
	report_past(r, a, bl);
	report_put(r, "<h2 id=\"machine\">Machine</h2>\n");
	if (r->machine == NULL || r->machine->n == 0) {
		report_put(r, "<p>No machine description.</p>\n");
		return;
	}
	report_put(r, "<dl>");
	for (i = 0; i < r->machine->n; i++) {
		report_put(r, "<dt>%h</dt><dd>", r->machine->key[i]);
		page_member(r, r->machine->key[i], &r->machine->item[i]);
		report_put(r, "</dd>");
	}
	report_put(r, "</dl>\n");
}

/* The unit of the record at place at of a list (a bm__keymap_key). */
static const char *
page_unit_at(const void *arg, size_t at)
{
	const struct report_list *l = arg;

	return l->r[at]->f.unit;
}

/* One section: its title, a chart per unit with two figures or more, its table. */
static void
page_section(struct report *r, const char *g, const struct report_list *rs,
    const struct page_row *row, size_t nrow, double scal)
{
	struct report_list u;
	struct bm__keymap seen;
	uint64_t hash;
	size_t i, k;

	report_put(r, "<h2 id=\"section-%h\">%h</h2>\n", g, page_title(g));
	if (strcmp(g, "basic") == 0)
		report_put(r, "<p>scal load (worker processes run at once, -P, "
		    "the most of any figure): %g</p>\n", scal);
	/* In the order of each unit's first figure; one alone is in the table only. */
	memset(&seen, 0, sizeof seen);
	for (i = 0; i < rs->n; i++) {
		const struct report_rec *x = rs->r[i];

		if (!isfinite(x->f.value))
			continue;
		hash = bm__keymap_hash(x->f.unit);
		if (bm__keymap_find_hash(&seen, hash, x->f.unit, page_unit_at,
		    rs, &k))
			continue;
		if (bm__keymap_add_hash(&seen, hash, i) != 0 ||
		    report_rec_pick(&u, NULL, rs, page_unit, x->f.unit) != 0) {
			bm__keymap_free(&seen);
			r->err = -ENOMEM;
			return;
		}
		if (u.n >= 2)
			report_chart_bars(r, g, x->f.unit, &u);
		free(u.r);
	}
	bm__keymap_free(&seen);
	if (r->nrun == 2)
		page_table2(r, row, nrow, g);
	else
		report_page_table(r, rs);
}

/* The section of row at of an array of rows (a bm__keymap_key). */
static const char *
page_group_at(const void *arg, size_t at)
{
	const struct page_row *row = arg;

	return (row[at].a ? row[at].a : row[at].b)->group;
}

/*
 * The sections, in the order of their first figure: A's shown records
 * with their partners in B, then B's own (with one run, A's alone).
 */
static void
page_sections(struct report *r, const struct report_list *a,
    const struct report_list *plain, const struct report_list *bl)
{
	struct page_row *row;
	struct report_list rs;
	struct bm__keymap seen;
	double scal = -INFINITY;
	uint64_t hash;
	size_t i, k, n = 0;

	if ((row = malloc((plain->n + bl->n + 1) * sizeof *row)) == NULL) {
		r->err = -ENOMEM;
		return;
	}
	for (i = 0; i < plain->n; i++) {
		row[n].a = plain->r[i];
		row[n++].b = plain->r[i]->pair != NULL &&
		    plain->r[i]->pair->plain ? plain->r[i]->pair : NULL;
	}
	for (i = 0; i < bl->n; i++)
		if (bl->r[i]->plain && !bl->r[i]->used) {
			row[n].a = NULL;
			row[n++].b = bl->r[i];
		}
	/* The scal load: the most workers of any figure, 1 when none says. */
	for (i = 0; i < a->n; i++)
		scal = fmax(scal, bm__jnum(a->r[i]->j, "parallel"));
	memset(&seen, 0, sizeof seen);
	for (i = 0; i < n; i++) {
		const char *g = page_group_at(row, i);

		hash = bm__keymap_hash(g);
		if (bm__keymap_find_hash(&seen, hash, g, page_group_at, row,
		    &k))
			continue;
		if (bm__keymap_add_hash(&seen, hash, i) != 0 ||
		    report_rec_pick(&rs, NULL, plain, page_group, g) != 0) {
			r->err = -ENOMEM;
			break;
		}
		page_section(r, g, &rs, row, n, isfinite(scal) ? scal : 1);
		free(rs.r);
	}
	bm__keymap_free(&seen);
	free(row);
}

/*
 * The comparison of x and its partner: the ratio of the medians B/A and
 * the range the two records' intervals allow (B's low end over A's high
 * end to B's high end over A's low end), B in A's unit, and benchmp
 * compare's verdict on their key.
 */
static void
page_cmp(const struct report_rec *x, struct report_cmp *c)
{
	const struct bm__fig *a = &x->f, *b = &x->pair->f;
	double f;

	c->x = x;
	c->y = x->pair;
	c->verdict = compare_row_word(x->row);
	if (bm__verdict_unit_factor(b->unit, a->unit, &f) != 0)
		f = NAN;
	c->ratio = a->value != 0 ? b->value * f / a->value : NAN;
	c->lo = a->ci_hi > 0 ? b->ci_lo * f / a->ci_hi : NAN;
	c->hi = a->ci_lo > 0 ? b->ci_hi * f / a->ci_lo : NAN;
}

/* Write the table of the comparison, a row a figure of A that B has, its class the verdict's letters. */
static void
page_cmp_table(struct report *r, const struct report_cmp *c, size_t n)
{
	const char *v;
	size_t i;

	report_put(r, "<table><thead><tr><th>figure</th><th>A</th><th>B</th>"
	    "<th>unit</th><th>B/A</th><th>range</th><th>verdict</th>"
	    "<th>note</th></tr></thead><tbody>");
	for (i = 0; i < n; i++) {
		report_put(r, "<tr class=\"");
		for (v = c[i].verdict; *v != '\0'; v++)
			if (*v >= 'a' && *v <= 'z')
				fputc(*v, r->o);
		report_put(r, "\"><td>%h</td><td class=\"n\">%f</td><td "
		    "class=\"n\">%f</td><td>%h</td><td class=\"n\">%f</td><td "
		    "class=\"n\">%f to %f</td><td>%h</td><td>%s%s%s</td></tr>",
		    c[i].x->label, c[i].x->f.value, c[i].y->f.value,
		    c[i].x->f.unit, c[i].ratio, c[i].lo, c[i].hi, c[i].verdict,
		    c[i].x->f.imported ? "A imported from lmbench" : "",
		    c[i].x->f.imported && c[i].y->f.imported ? "; " : "",
		    c[i].y->f.imported ? "B imported from lmbench" : "");
	}
	report_put(r, "</tbody></table>\n");
}

/* Write the figures of one run only: listed, never dropped. */
static void
page_unpaired(struct report *r, const struct report_list *a,
    const struct report_list *bl)
{
	const struct report_rec *x;
	size_t i, n = 0, k;

	for (i = 0; i < a->n + bl->n; i++) {
		x = i < a->n ? a->r[i] : bl->r[i - a->n];
		if (i < a->n ? x->pair != NULL : x->paired)
			continue;
		if (n++ == 0)
			report_put(r, "<h3 id=\"unpaired\">Figures of one run "
			    "only</h3>\n<table><thead><tr><th>figure</th><th>"
			    "run</th><th>median</th><th>unit</th><th>note</th>"
			    "</tr></thead><tbody>");
		report_put(r, "<tr><td>%h</td><td>%s</td><td class=\"n\">%f"
		    "</td><td>%h</td><td>", x->label, i < a->n ? "A" : "B",
		    x->f.value, x->f.unit);
		k = 0;
		report_put_note(r, x, NULL, &k);
		report_put(r, "</td></tr>");
	}
	if (n > 0)
		report_put(r, "</tbody></table>\n");
}

/* The comparison of the two runs: the ratios B/A with benchmp compare's verdicts, then the figures of one run only. */
static void
page_compare(struct report *r, const struct report_list *a,
    const struct report_list *bl)
{
	struct report_cmp *c;
	size_t i, n = 0, worse = 0;

	if ((c = malloc((a->n + 1) * sizeof *c)) == NULL) {
		r->err = -ENOMEM;
		return;
	}
	for (i = 0; i < a->n; i++)
		if (a->r[i]->pair != NULL) {
			page_cmp(a->r[i], &c[n]);
			worse += strcmp(c[n++].verdict, "worse") == 0;
		}
	report_put(r, "<h2 id=\"comparison\">Comparison: B/A</h2>\n<p>The "
	    "ratio of the medians, B/A, with the range of the ratios the two "
	    "intervals allow; the verdict is benchmp compare&#39;s (worse in "
	    "red, better in green, within the noise in grey). %z figure(s) "
	    "worse.</p>\n", worse);
	if (n >= 2)
		report_chart_ratios(r, c, n);
	page_cmp_table(r, c, n);
	page_unpaired(r, a, bl);
	free(c);
}

/* Draw the page. */
void
report_page(struct report *r)
{
	struct report_list a = { NULL, 0 }, plain = { NULL, 0 };
	struct report_list mem = { NULL, 0 }, par = { NULL, 0 };
	struct report_list bl = { NULL, 0 };

	if (report_rec_pick(&a, &r->run[0], NULL, NULL, NULL) != 0 ||
	    report_rec_pick(&plain, NULL, &a, page_plain, NULL) != 0 ||
	    report_rec_pick(&mem, NULL, &a, page_mem, NULL) != 0 ||
	    report_rec_pick(&par, NULL, &a, page_tool, "par_mem") != 0 ||
	    report_rec_pick(&bl, &r->run[1], NULL, NULL, NULL) != 0) {
		r->err = -ENOMEM;
		goto out;
	}
	page_head(r, &a, &plain, &bl);
	page_sections(r, &a, &plain, &bl);
	if (mem.n > 0)
		report_mem(r, &mem);
	if (par.n > 1) {
		report_put(r, "<h2 id=\"par-mem\">Memory parallelism by size "
		    "(par_mem)</h2>\n<p>Loads the memory system overlaps at "
		    "each size; the summary shows the largest (mem par)."
		    "</p>\n");
		report_page_table(r, &par);
	}
	report_scale(r);
	if (r->nrun == 2)
		page_compare(r, &a, &bl);
	report_put(r, "</body></html>\n");
out:
	free(a.r);
	free(plain.r);
	free(mem.r);
	free(par.r);
	free(bl.r);
}
