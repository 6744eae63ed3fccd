/* summary-table.c: the summary table: the flagged line, lmbench's groups, the notes. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "clock.h"
#include "summary.h"

/* The least widths of the figure and unit columns. */
#define TABLE_FIGURE_W	32
#define TABLE_UNIT_W	7

/* The words of the flags, in the order of enum summary_flag. */
static const char *const table_flag[SUMMARY_NFLAGS] = {
	"invalid", "noisy", "disturbed", "bimodal", "disagree", "contradicts",
	"bound", "budget"
};

/*
 * Code points a terminal gives no column (combining marks, zero-width
 * characters) or two (East Asian wide characters, emoji): a short form
 * of wcwidth(3) that does not hang on the locale.
 */
static const struct {
	unsigned long lo, hi;
	unsigned w;
} table_wide[] = {
	{ 0x300, 0x36f, 0 }, { 0x1ab0, 0x1aff, 0 }, { 0x1dc0, 0x1dff, 0 },
	{ 0x200b, 0x200f, 0 }, { 0x20d0, 0x20ff, 0 }, { 0xfe00, 0xfe0f, 0 },
	{ 0xfe20, 0xfe2f, 0 }, { 0x1100, 0x115f, 2 }, { 0x2e80, 0x303e, 2 },
	{ 0x3040, 0xa4cf, 2 }, { 0xac00, 0xd7a3, 2 }, { 0xf900, 0xfaff, 2 },
	{ 0xfe30, 0xfe4f, 2 }, { 0xff00, 0xff60, 2 }, { 0xffe0, 0xffe6, 2 },
	{ 0x1f300, 0x1f64f, 2 }, { 0x1f680, 0x1f6ff, 2 },
	{ 0x1f900, 0x1faff, 2 }, { 0x20000, 0x3fffd, 2 }
};

/* The columns code point cp takes on a terminal: 0, 1 or 2. */
static unsigned
table_cp_width(unsigned long cp)
{
	size_t k;

	for (k = 0; k < sizeof table_wide / sizeof table_wide[0]; k++)
		if (cp >= table_wide[k].lo && cp <= table_wide[k].hi)
			return table_wide[k].w;
	return 1;
}

/*
 * The columns s takes printed as compare_put_escaped writes it: a C0
 * control or DEL four (\x1b), a C1 control six (\u009b), a character
 * of UTF-8 its width, a byte that is not UTF-8 one.
 */
size_t
summary_table_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0, n, i;
	unsigned long cp;

	while (*p != '\0') {
		if (*p < 0x20 || *p == 0x7f) {
			w += 4;
			p++;
			continue;
		}
		n = *p < 0x80 ? 1 : *p >= 0xc2 && *p <= 0xdf ? 2 :
		    *p >= 0xe0 && *p <= 0xef ? 3 : *p >= 0xf0 && *p <= 0xf4 ?
		    4 : 0;
		cp = n == 1 ? *p : *p & (0x7fu >> n);
		for (i = 1; i < n && (p[i] & 0xc0) == 0x80; i++)
			cp = cp << 6 | (p[i] & 0x3f);
		if (n == 0 || i < n) {
			w++;
			p++;
			continue;
		}
		w += cp >= 0x80 && cp < 0xa0 ? 6 : table_cp_width(cp);
		p += n;
	}
	return w;
}

/* Write s escaped, padded with spaces to w columns. */
void
summary_table_pad(FILE *out, const char *s, size_t w)
{
	size_t sw = summary_table_width(s);

	compare_put_escaped(out, s);
	if (sw < w)
		fprintf(out, "%*s", (int)(w - sw), "");
}

/* The title of a group: lmbench's, else the group's name. */
const char *
summary_table_title(const char *group)
{
	static const char *const title[][2] = {
		{ "basic", "Basic system parameters" },
		{ "processor", "Processor, Processes" },
		{ "ops", "Basic integer, uint64, float and double operations" },
		{ "context", "Context switching" },
		{ "latency", "Local communication latencies" },
		{ "bandwidth", "Local communication bandwidths" },
		{ "filevm", "File & VM system latencies" },
		{ "memory", "Memory bandwidth and latencies" },
		{ "memlat", "Memory latencies" },
		{ "other", "Other records" }
	};
	size_t i;

	for (i = 0; i < sizeof title / sizeof title[0]; i++)
		if (strcmp(group, title[i][0]) == 0)
			return title[i][1];
	return group;
}

/* The width of the figure column: 32, or the widest figure, so that a long name moves the column. */
size_t
summary_table_figwidth(const struct summary *s)
{
	size_t i, w = TABLE_FIGURE_W;

	for (i = 0; i < s->nrow; i++)
		if (summary_table_width(s->row[i].label) > w)
			w = summary_table_width(s->row[i].label);
	return w;
}

/* The first line: how many figures are flagged, and how many carry each flag, in the order first met. */
static void
table_flagged(const struct summary *s, FILE *out)
{
	size_t count[SUMMARY_NFLAGS] = { 0 }, order[SUMMARY_NFLAGS];
	size_t i, k, nflagged = summary_row_flagged(s), nseen = 0;

	for (i = 0; i < s->nrow; i++)
		for (k = 0; k < SUMMARY_NFLAGS; k++)
			if (s->row[i].flags & 1u << k && count[k]++ == 0)
				order[nseen++] = k;
	fprintf(out, "flagged: %zu of %zu (%.0f%%)", nflagged, s->nrow,
	    floor(100.0 * (double)nflagged / (double)s->nrow + 0.5));
	for (k = 0; k < nseen; k++)
		fprintf(out, "%s%zu %s", k > 0 ? ", " : ": ", count[order[k]],
		    table_flag[order[k]]);
	fputc('\n', out);
}

/*
 * A noisy figure's note into buf: "noisy +-N%", how far its interval
 * reaches from the value, where both sides reach about as far or
 * neither past 10%; else "noisy -L%/+H%", each side's own reach: a
 * bandwidth's interval of 0.2 to 5 times its value is not "+-401%",
 * which would put its lower end below zero.  "noisy" alone where there
 * is no interval.
 */
void
summary_table_noisy(double value, double lo, double hi, char *buf,
    size_t size)
{
	double l, h;

	if (value == 0 || !isfinite(value) || !isfinite(lo) ||
	    !isfinite(hi)) {
		snprintf(buf, size, "noisy");
		return;
	}
	l = fmax(round(100 * (value - lo) / fabs(value)), 1);
	h = fmax(round(100 * (hi - value) / fabs(value)), 1);
	if (fmax(l, h) <= 1.5 * fmin(l, h) || fmax(l, h) <= 10)
		snprintf(buf, size, "noisy +-%.0f%%", fmax(l, h));
	else
		snprintf(buf, size, "noisy -%.0f%%/+%.0f%%", l, h);
}

/*
 * Write the one reason a flagged figure is not to be taken at its word,
 * in plain words, the most telling first: an invalid value, what it
 * contradicts, processes that disagree, its modes, how far its interval
 * reaches, slow spells (disturbed intervals, the bound), the budget.
 * The counts stay in the record and the report.
 */
static void
table_note(const struct summary_row *r, FILE *out)
{
	const struct summary_contra *c = r->contra;
	char note[48];

	if (r->flags & 1u << SUMMARY_INVALID) {
		fputs("  invalid value", out);
	} else if (r->flags & 1u << SUMMARY_CONTRADICTS) {
		fputs("  contradicts ", out);
		compare_put_escaped(out, c->part[SUMMARY_SOURCE][0] != '\0' ?
		    c->part[SUMMARY_SOURCE] : "the machine");
		fputs(": ", out);
		compare_put_escaped(out, c->part[SUMMARY_MEASURED]);
		fputs(" vs ", out);
		compare_put_escaped(out, c->part[SUMMARY_MACHINE]);
		if (c->part[SUMMARY_UNIT][0] != '\0')
			fputc(' ', out);
		compare_put_escaped(out, c->part[SUMMARY_UNIT]);
	} else if (r->flags & 1u << SUMMARY_DISAGREE) {
		fputs("  processes disagree", out);
	} else if (r->flags == 0) {
		return;
	} else if (r->nmodes > 0) {
		if (r->nmodes == 2)
			fprintf(out, "  two modes %s ", r->modes);
		else
			fprintf(out, "  %zu modes %s ", r->nmodes, r->modes);
		compare_put_escaped(out, r->unit);
	} else if (r->flags & 1u << SUMMARY_NOISY) {
		summary_table_noisy(r->value, r->lo, r->hi, note, sizeof note);
		fprintf(out, "  %s", note);
	} else if (r->flags & (1u << SUMMARY_DISTURBED |
	    1u << SUMMARY_BOUND) || r->slow) {
		fputs("  slow spells", out);
	} else if (r->flags & 1u << SUMMARY_BUDGET) {
		fputs("  cut by budget", out);
	}
}

/* Write the lines under a row: each contradiction with the machine, both numbers. */
static void
table_contra(const struct summary_row *r, FILE *out)
{
	size_t i;

	for (i = 0; i < r->ncontra; i++) {
		char *const *p = r->contra[i].part;
		const char *sp = p[SUMMARY_UNIT][0] != '\0' ? " " : "";

		fputs("    contradicts the machine: ", out);
		compare_put_escaped(out, p[SUMMARY_WHAT]);
		fputc(' ', out);
		compare_put_escaped(out, p[SUMMARY_MEASURED]);
		fputs(sp, out);
		compare_put_escaped(out, p[SUMMARY_UNIT]);
		fputs(" measured, ", out);
		compare_put_escaped(out, p[SUMMARY_MACHINE]);
		fputs(sp, out);
		compare_put_escaped(out, p[SUMMARY_UNIT]);
		fputs(" by ", out);
		compare_put_escaped(out, p[SUMMARY_SOURCE]);
		fputc('\n', out);
	}
}

/*
 * Write one figure's row: its value (12 columns: 4 decimals, 6
 * significant digits from 1e9 up), unit, interval with its coverage
 * (none for a figure of one value), cv as a percentage with two
 * decimals and the note.
 */
static void
table_row(const struct summary_row *r, size_t fw, size_t uw, FILE *out)
{
	fputs("  ", out);
	summary_table_pad(out, r->label, fw);
	if (r->flags & 1u << SUMMARY_INVALID)
		fprintf(out, " %12s ", "invalid");
	else if (fabs(r->value) >= 1e9)
		fprintf(out, " %12.6g ", r->value);
	else
		fprintf(out, " %12.4f ", r->value);
	summary_table_pad(out, r->unit, uw);
	if (isnan(r->lo) || isnan(r->hi) || (!r->best && !(r->level > 0)))
		fprintf(out, " %28s", "-");
	else if (r->best)
		fprintf(out, " %11.5g-%-11.5g best", r->lo, r->hi);
	else
		fprintf(out, " %11.5g-%-11.5g %3.0f%%", r->lo, r->hi,
		    floor(100 * r->level + 1e-9));
	if (isnan(r->cv))
		fprintf(out, " %7s", "-");
	else if (r->cv > 0 && r->cv < 0.00005)
		fprintf(out, " %7s", "<0.01%");
	else
		fprintf(out, " %6.2f%%", 100 * r->cv);
	table_note(r, out);
	fputc('\n', out);
	table_contra(r, out);
}

/* Write lmbench's "scal load": the most worker processes any figure ran at once (-P). */
static void
table_scal(const struct summary *s, size_t fw, size_t uw, FILE *out)
{
	double par = 0;
	size_t i;

	for (i = 0; i < s->nrow; i++)
		par = fmax(par, s->row[i].parallel);
	fputs("  ", out);
	summary_table_pad(out, "scal load", fw);
	fprintf(out, " %12.0f ", trunc(par));
	summary_table_pad(out, "procs", uw);
	fprintf(out, " %28s %7s  %s\n", "-", "-",
	    "(-P, the most of any figure)");
}

/* Write the single table: the figures in lmbench's groups, basic ending with scal load. */
static void
table_single(const struct summary *s, FILE *out)
{
	size_t i, fw = summary_table_figwidth(s), uw = TABLE_UNIT_W;
	const char *group = "";

	for (i = 0; i < s->nrow; i++)
		if (summary_table_width(s->row[i].unit) > uw)
			uw = summary_table_width(s->row[i].unit);
	for (i = 0; i < s->nrow; i++) {
		const struct summary_row *r = &s->row[i];

		/* Figures of no group (a suite without one) have no title. */
		if (strcmp(r->group, group) != 0) {
			if (strcmp(group, "basic") == 0)
				table_scal(s, fw, uw, out);
			group = r->group;
			fputc('\n', out);
			compare_put_escaped(out, summary_table_title(group));
			fputs("\n  ", out);
			summary_table_pad(out, "figure", fw);
			fprintf(out, " %12s ", "value");
			summary_table_pad(out, "unit", uw);
			fprintf(out, " %28s %7s  note\n", "interval, coverage",
			    "cv");
		}
		table_row(r, fw, uw, out);
	}
	if (strcmp(group, "basic") == 0)
		table_scal(s, fw, uw, out);
}

/*
 * The run's clock, when it lies more than CLOCK_WITH from the median of
 * its past runs on the machine: the figures the clock times moved with
 * it (the host of a virtual machine, or its governor, moved it).
 */
static void
table_clock(const struct summary *s, FILE *out)
{
	char line[CLOCK_LINE];

	if (clock_run_words(&s->clock, line, sizeof line) == 0)
		fprintf(out, "clock: %s\n", line);
}

/*
 * The run against the machine's past runs, where CLOCK_PAST_MIN figures
 * or more have them: how far the median figure lies from its past
 * median, and how many lie more than CLOCK_WITH worse or better.  A
 * host that moved the whole run (its clock, a neighbour, its memory)
 * moves most figures one way; a change of one figure moves one.
 */
static void
table_past(const struct summary *s, FILE *out)
{
	struct clock_past p;
	char line[CLOCK_LINE];
	double *d;
	size_t i, n = 0;

	if ((d = calloc(s->nrow + 1, sizeof *d)) == NULL)
		return;
	for (i = 0; i < s->nrow; i++)
		if (!isnan(s->row[i].past))
			d[n++] = s->row[i].past;
	clock_past_sum(d, n, &p);
	free(d);
	if (clock_past_line(&p, line, sizeof line) == 0)
		fprintf(out, "past runs: %s\n", line);
}

/* Print the whole table: the flagged line, the figures, the lines below. */
void
summary_table_print(const struct summary *s, FILE *out)
{
	size_t i, cut = 0;
	unsigned both = 1u << SUMMARY_NOISY | 1u << SUMMARY_BUDGET;

	table_flagged(s, out);
	table_past(s, out);
	table_clock(s, out);
	if (s->hosts)
		summary_hosts_print(s, out);
	else
		table_single(s, out);
	for (i = 0; i < s->nrow; i++)
		cut += (s->row[i].flags & both) == both;
	if (cut > 0)
		fprintf(out, "\n%zu figures stopped at the time budget before "
		    "their interval reached the precision; a larger --budget "
		    "gives them more rounds.\n", cut);
	if (s->ncurve > 0)
		fprintf(out, "\n%zu more points of the size sweeps "
		    "(lat_mem_rd, par_mem) are in the records and the "
		    "report.\n", s->ncurve);
}
