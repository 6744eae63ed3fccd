/* compare-out.c: benchmp compare's reports: the table, TSV, JSON, JUnit XML and Markdown. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "clock.h"
#include "compare.h"

/* Names of the evidence, as the JSON report gives them. */
static const char *const compare_evidence[] = { "none", "ranks",
    "intervals", "values" };

/*
 * Write s to f with its control bytes escaped (\xHH, and the C1 controls
 * of UTF-8 as \u00HH): a figure's name comes from a file, and an ESC in
 * it must not reach the terminal as such.
 */
void
compare_put_escaped(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(f, "\\u00%02x", *++p);
		else
			fputc(*p, f);
	}
}

/* The word of a row. */
const char *
compare_row_word(const struct compare_row *r)
{
	if (r->noplace)
		return "no placement";
	if (r->b == NULL)
		return "only in A";
	if (r->a == NULL)
		return "only in B";
	if (!r->gating && r->j.verdict == BM__V_WORSE)
		return "worse (curve)";
	if (!r->gating && r->j.verdict == BM__V_BETTER)
		return "better (curve)";
	return bm__verdict_word(r->j.verdict);
}

/* Whether row r is listed (--matched leaves out the figures of one file). */
static int
compare_listed(const struct compare *c, const struct compare_row *r)
{
	return c->matched != 1 || (r->a != NULL && r->b != NULL) ||
	    r->noplace;
}

/* Print a value (or "-" for none, a bad one as written) in a field of width w. */
static void
compare_val(FILE *out, const struct bm__fig *f, int w)
{
	if (f == NULL)
		fprintf(out, "%*s", w, "-");
	else if (isfinite(f->value) && f->bad == NULL)
		fprintf(out, "%*.5g", w, f->value);
	else
		fprintf(out, "%*s", w, f->value_text);
}

/* The words of the summary line, in its order. */
static const char *const compare_words[] = { "same", "better", "worse",
    "better (curve)", "worse (curve)", "changed", "undecided", "failed",
    "no placement", "only in A", "only in B" };

/* Print the summary line: how many rows of each word. */
static void
compare_counts(const struct compare *c, FILE *out)
{
	size_t i, r, k = 0;

	for (i = 0; i < sizeof compare_words / sizeof compare_words[0]; i++) {
		size_t n = 0;

		for (r = 0; r < c->nrow; r++)
			n += strcmp(compare_row_word(&c->row[r]),
			    compare_words[i]) == 0;
		if (n > 0)
			fprintf(out, "%s%zu %s", k++ ? ", " : "", n,
			    compare_words[i]);
	}
	fprintf(out, " (minimum change %g%%)\n", 100 * c->threshold);
}

/*
 * Print what the clock explains, when it is better or worse: what mhz
 * read in each run, and how many of the other figures better or worse
 * moved with it.
 */
static void
compare_clock_text(const struct compare *c, FILE *out)
{
	const struct compare_row *k = c->clock;

	fprintf(out, "the clock moved: mhz read %.5g MHz in A, %.5g in B "
	    "(B/A %.3f); %zu of the %zu other figures better or worse moved "
	    "with it (within %.0f%% once scaled by it)\n", k->a->value,
	    k->b->value, k->j.ratio, c->clock_with, c->clock_decided,
	    100 * CLOCK_WITH);
}

/*
 * Print each run against its machine's past runs, where one of them
 * can be: a run that its host moved as a whole is no fair side of a
 * comparison.
 */
static void
compare_past_text(const struct compare *c, FILE *out)
{
	char words[CLOCK_LINE];
	int i;

	fputs("past runs:", out);
	for (i = 0; i < 2; i++) {
		clock_past_side(&c->past[i], words, sizeof words);
		fprintf(out, "%s %c's median figure %s", i ? ";" : "", "AB"[i],
		    words);
	}
	fputc('\n', out);
}

/* Print one row of the table, or of --tsv. */
static void
compare_row_text(const struct compare *c, const struct compare_row *r,
    FILE *out)
{
	const struct bm__fig *f = r->a != NULL ? r->a : r->b;
	const char *sep = c->tsv ? "\t" : " ";
	size_t len = strlen(f->name) + strlen(r->at);

	if (c->tsv)
		fprintf(out, "%s\t", compare_row_word(r));
	compare_put_escaped(out, f->name);
	compare_put_escaped(out, r->at);
	if (!c->tsv)
		fprintf(out, "%*s", (int)(len < 40 ? 40 - len : 0), "");
	fputs(sep, out);
	compare_val(out, r->a, c->tsv ? 0 : 12);
	fputs(sep, out);
	compare_val(out, r->b, c->tsv ? 0 : 12);
	fputs(sep, out);
	if (isfinite(r->j.ratio) && r->a && r->b)
		fprintf(out, "%*.3f", c->tsv ? 0 : 7, r->j.ratio);
	else
		fprintf(out, "%*s", c->tsv ? 0 : 7, "-");
	if (c->tsv) {
		fputc('\n', out);
		return;
	}
	fprintf(out, "  %s\n", compare_row_word(r));
	/* Records that do not say their intervals' level: none shown. */
	if (r->a && r->b && isfinite(r->j.lo) &&
	    r->j.verdict != BM__V_UNDECIDED && isfinite(r->j.level))
		fprintf(out, "    B/A %.4g-%.4g at %.3g%% (%s)\n", r->j.lo,
		    r->j.hi, 100 * r->j.level, compare_evidence[r->j.evidence]);
	else if (r->a && r->b && isfinite(r->j.lo) &&
	    r->j.verdict != BM__V_UNDECIDED)
		fprintf(out, "    B/A %.4g-%.4g (%s)\n", r->j.lo, r->j.hi,
		    compare_evidence[r->j.evidence]);
	if (r->a && r->b && r->j.why[0] != '\0')
		fprintf(out, "    %s: %s\n", bm__verdict_word(r->j.verdict),
		    r->j.why);
}

/* Write the text report, or --tsv rows. */
int
compare_out_text(const struct compare *c, FILE *out)
{
	size_t i, unlisted = 0;

	if (!c->tsv && compare_machine_text(c, out) != 0)
		return -1;
	if (!c->tsv)
		fprintf(out, "%-40s %12s %12s %7s  %s\n", "figure", "A", "B",
		    "B/A", "verdict");
	for (i = 0; i < c->nrow; i++) {
		if (compare_listed(c, &c->row[i]))
			compare_row_text(c, &c->row[i], out);
		else
			unlisted++;
	}
	if (c->tsv)
		return ferror(out) ? -1 : 0;
	fprintf(out, "\n");
	compare_counts(c, out);
	if (c->clock != NULL)
		compare_clock_text(c, out);
	if (c->past[0].n > 0 || c->past[1].n > 0)
		compare_past_text(c, out);
	if (unlisted > 0)
		fprintf(out, "%zu figure(s) of one file only not listed "
		    "(--matched; --all lists them)\n", unlisted);
	return ferror(out) ? -1 : 0;
}

/* Append one row's members to b. */
static void
compare_json_row(struct bm__json *b, const struct compare_row *r)
{
	const struct bm__fig *f = r->a != NULL ? r->a : r->b;

	bm__json_printf(b, "{\"figure\":");
	bm__json_string(b, f->name);
	if (r->at[0] != '\0')
		bm__json_kstr(b, "paired", r->at);
	bm__json_kstr(b, "key", f->key);
	bm__json_kstr(b, "verdict", compare_row_word(r));
	bm__json_printf(b, ",\"gating\":%s", r->gating ? "true" : "false");
	bm__json_kstr(b, "unit", f->unit);
	bm__json_knum(b, "a", r->a ? r->a->value : NAN);
	bm__json_knum(b, "b", r->b ? r->b->value : NAN);
	if (r->a == NULL || r->b == NULL) {
		bm__json_printf(b, "}");
		return;
	}
	bm__json_knum(b, "ratio", r->j.ratio);
	bm__json_knum(b, "estimate", r->j.estimate);
	bm__json_knum(b, "lo", r->j.lo);
	bm__json_knum(b, "hi", r->j.hi);
	bm__json_knum(b, "level", r->j.level);
	bm__json_knum(b, "p", r->j.p);
	bm__json_knum(b, "threshold", r->j.threshold);
	bm__json_printf(b, ",\"significant\":%s",
	    r->j.significant ? "true" : "false");
	bm__json_kstr(b, "evidence", compare_evidence[r->j.evidence]);
	bm__json_knum(b, "need", r->j.need);
	bm__json_kstr(b, "why", r->j.why[0] ? r->j.why : NULL);
	bm__json_printf(b, "}");
}

/* Write the JSON text b built to out, and free it; 0, or -1 with errno (its own error first). */
int
compare_out_flush(struct bm__json *b, FILE *out)
{
	int rc;

	if (b->err != 0) {
		free(b->s);
		errno = -b->err;
		return -1;
	}
	rc = fwrite(b->s, 1, b->len, out) == b->len ? 0 : -1;
	free(b->s);
	return rc;
}

/* Write the report as JSON. */
int
compare_out_json(const struct compare *c, FILE *out)
{
	static const char *const corr[] = { "bh", "holm", "none" };
	struct bm__json b;
	size_t i, k = 0;

	memset(&b, 0, sizeof b);
	bm__json_printf(&b, "{\"baseline\":");
	bm__json_string(&b, c->file_a);
	bm__json_kstr(&b, "new", c->file_b);
	bm__json_knum(&b, "threshold", c->threshold);
	bm__json_knum(&b, "alpha", c->alpha);
	bm__json_kstr(&b, "correction", corr[c->corr]);
	bm__json_printf(&b, ",\"status\":%d,\"counts\":{", c->status);
	for (i = 0; i <= BM__V_FAILED; i++)
		bm__json_printf(&b, "%s\"%s\":%zu", i ? "," : "",
		    bm__verdict_word((enum bm__verdict)i), c->count[i]);
	bm__json_printf(&b, ",\"no placement\":%zu,\"only in A\":%zu,"
	    "\"only in B\":%zu}", c->noplace, c->only_a, c->only_b);
	compare_machine_json(c, &b);
	if (c->clock != NULL) {
		bm__json_printf(&b, ",\"clock\":{\"a\":");
		bm__json_number(&b, c->clock->a->value);
		bm__json_knum(&b, "b", c->clock->b->value);
		bm__json_knum(&b, "ratio", c->clock->j.ratio);
		bm__json_printf(&b, ",\"decided\":%zu,\"with_clock\":%zu}",
		    c->clock_decided, c->clock_with);
	}
	if (c->past[0].n > 0 || c->past[1].n > 0) {
		bm__json_printf(&b, ",\"past\":{");
		for (i = 0; i < 2; i++) {
			const struct clock_past *p = &c->past[i];

			bm__json_printf(&b, "%s\"%c\":", i ? "," : "", "ab"[i]);
			if (p->n == 0) {
				bm__json_printf(&b, "null");
				continue;
			}
			bm__json_printf(&b, "{\"figures\":%zu", p->n);
			bm__json_knum(&b, "shift", expm1(p->median));
			bm__json_printf(&b, ",\"worse\":%zu,\"better\":%zu}",
			    p->worse, p->better);
		}
		bm__json_printf(&b, "}");
	}
	bm__json_printf(&b, ",\"figures\":[");
	for (i = 0; i < c->nrow; i++) {
		if (!compare_listed(c, &c->row[i]))
			continue;
		if (k++ > 0)
			bm__json_printf(&b, ",");
		compare_json_row(&b, &c->row[i]);
	}
	bm__json_printf(&b, "]}\n");
	return compare_out_flush(&b, out);
}

/* Write s to f escaped for XML text or attributes (control bytes dropped). */
static void
compare_xml(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else if (*p < 0x20 && *p != '\t')
			fputc('?', f);
		else
			fputc(*p, f);
	}
}

/* Close f and say whether everything written reached the file. */
static int
compare_close(FILE *f)
{
	int bad = ferror(f) || fflush(f) != 0;
	int saved = errno ? errno : EIO;

	if (fclose(f) != 0)
		return -1;
	if (bad)
		errno = saved;
	return bad ? -1 : 0;
}

/* Write JUnit XML: one testcase a figure, worse and failed as failures. */
int
compare_out_junit(const struct compare *c, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i, fails = 0, n = 0;

	if (f == NULL)
		return -1;
	for (i = 0; i < c->nrow; i++)
		if (c->row[i].a && c->row[i].b) {
			n++;
			fails += (c->row[i].gating &&
			    c->row[i].j.verdict == BM__V_WORSE) ||
			    c->row[i].j.verdict == BM__V_FAILED;
		}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites>\n<testsuite name=\"benchmp compare\" tests=\"%zu\" "
	    "failures=\"%zu\">\n", n, fails);
	for (i = 0; i < c->nrow; i++) {
		const struct compare_row *r = &c->row[i];
		const char *w = compare_row_word(r);

		if (r->a == NULL || r->b == NULL)
			continue;
		fputs("  <testcase classname=\"benchmp\" name=\"", f);
		compare_xml(f, r->a->name);
		fputs("\">", f);
		if ((r->gating && r->j.verdict == BM__V_WORSE) ||
		    r->j.verdict == BM__V_FAILED) {
			fprintf(f, "<failure message=\"%s", w);
			if (isfinite(r->j.ratio))
				fprintf(f, ": B/A %.4g", r->j.ratio);
			if (r->j.why[0] != '\0') {
				fputs(": ", f);
				compare_xml(f, r->j.why);
			}
			fprintf(f, "\"/>");
		} else if (r->j.verdict == BM__V_UNDECIDED) {
			fputs("<system-out>undecided: ", f);
			compare_xml(f, r->j.why);
			fputs("</system-out>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n</testsuites>\n", f);
	return compare_close(f);
}

/* Write s to f for a Markdown table cell ('|' escaped, controls dropped). */
static void
compare_md(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

/* Write a Markdown summary table. */
int
compare_out_markdown(const struct compare *c, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (f == NULL)
		return -1;
	fprintf(f, "| figure | A | B | B/A | interval of B/A | verdict |\n"
	    "|---|---:|---:|---:|---|---|\n");
	for (i = 0; i < c->nrow; i++) {
		const struct compare_row *r = &c->row[i];
		const struct bm__fig *fig = r->a != NULL ? r->a : r->b;

		if (!compare_listed(c, r))
			continue;
		fputs("| ", f);
		compare_md(f, fig->name);
		fprintf(f, " | %.5g | %.5g | ", r->a ? r->a->value : NAN,
		    r->b ? r->b->value : NAN);
		if (r->a && r->b && isfinite(r->j.ratio))
			fprintf(f, "%.3f | ", r->j.ratio);
		else
			fputs("- | ", f);
		if (r->a && r->b && isfinite(r->j.lo))
			fprintf(f, "%.4g-%.4g (%.3g%%) | ", r->j.lo, r->j.hi,
			    100 * r->j.level);
		else
			fputs("- | ", f);
		fprintf(f, "%s%s%s |\n", r->j.verdict == BM__V_WORSE &&
		    r->gating ? "**" : "", compare_row_word(r),
		    r->j.verdict == BM__V_WORSE && r->gating ? "**" : "");
	}
	fprintf(f, "\nMinimum change %g%%; exit status %d.\n",
	    100 * c->threshold, c->status);
	return compare_close(f);
}
