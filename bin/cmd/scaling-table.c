/* scaling-table.c: benchmp scaling's table: a row a point, its throughput, speed-up, efficiency and note. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "scaling.h"
#include "summary.h"

/*
 * The one reason a point is not to be taken at its word, into note:
 * noisy, with how far its interval reaches from its value where the
 * record has both; else slow spells (the interference accounting's
 * bound hit); else cut by the run's time budget; "" when none.
 */
static void
table_note(const struct bm__jval *rec, char *note, size_t size)
{
	double v = bm__jnum(rec, "value"), lo = bm__jnum(rec, "ci_lo");
	double hi = bm__jnum(rec, "ci_hi");

	note[0] = '\0';
	if (bm__jtrue(rec, "noisy"))
		summary_table_noisy(v, lo, hi, note, size);
	else if (bm__jtrue(bm__jget(rec, "interference"), "bound_hit"))
		snprintf(note, size, "slow spells");
	else if (bm__jtrue(rec, "budget_hit"))
		snprintf(note, size, "cut by budget");
}

/* Add the row of rec, measured at p workers (its parallel, when it has one). */
int
scaling_table_add(struct scaling *s, const struct bm__jval *rec, unsigned p)
{
	const char *unit = bm__jstr(rec, "unit");
	struct scaling_row *grown, *r;
	double parallel = bm__jnum(rec, "parallel");

	grown = realloc(s->row, (s->nrow + 1) * sizeof *grown);
	if (grown == NULL)
		return -ENOMEM;
	s->row = grown;
	r = &s->row[s->nrow];
	memset(r, 0, sizeof *r);
	if ((r->unit = strdup(unit != NULL ? unit : "")) == NULL)
		return -ENOMEM;
	s->nrow++;
	r->workers = parallel > 0 ? parallel : p;
	bm__throughput(rec, &r->tp);
	r->value = bm__jnum(rec, "value");
	table_note(rec, r->note, sizeof r->note);
	return 0;
}

/*
 * Write one point's row: its workers (marked * past the CPUs this
 * process may use), throughput and interval in six significant digits,
 * the throughput's unit, the speed-up over the first point and the
 * efficiency (speed-up / workers), the record's figure and unit, and
 * the note; "-" for what the record has no number for.
 */
static void
table_row(const struct scaling_row *r, double base, unsigned ncpu,
    FILE *out)
{
	double up = base > 0 && r->tp.value >= 0 ? r->tp.value / base : NAN;
	char t[32] = "-", ci[64] = "-";

	if (!isnan(r->tp.value))
		snprintf(t, sizeof t, "%.6g", r->tp.value);
	if (!isnan(r->tp.lo))
		snprintf(ci, sizeof ci, "%.6g-%.6g", r->tp.lo, r->tp.hi);
	fprintf(out, "%7.0f%s %12s   %-25s ", r->workers,
	    r->workers > ncpu ? "*" : " ", t, ci);
	summary_table_pad(out, r->tp.rate ? r->unit : "ops/s", 6);
	if (isnan(up))
		fprintf(out, " %9s %11s", "-", "-");
	else
		fprintf(out, " %9.2f %10.0f%%", up, 100 * up / r->workers);
	if (isnan(r->value))
		fprintf(out, " %12s ", "-");
	else
		fprintf(out, " %12.2f ", r->value);
	compare_put_escaped(out, r->unit);
	fputs("  ", out);
	fputs(r->note, out);
	fputc('\n', out);
}

/* Print the table, with its footnote when a row has more workers than CPUs. */
void
scaling_table_print(const struct scaling *s, FILE *out)
{
	double base = s->nrow > 0 ? s->row[0].tp.value : NAN;
	int over = 0;
	size_t i;

	fprintf(out, "%8s %12s %-27s %-6s %9s %11s %17s  %s\n", "workers",
	    "throughput", "  interval", "unit", "speed-up", "efficiency",
	    "figure", "note");
	for (i = 0; i < s->nrow; i++) {
		table_row(&s->row[i], base, s->ncpu, out);
		over |= s->row[i].workers > s->ncpu;
	}
	/* There the workers share CPUs, and the throughput says so. */
	if (over)
		fprintf(out, "* more workers than the %u CPUs this process "
		    "may use\n", s->ncpu);
}

/* Free the rows. */
void
scaling_table_free(struct scaling *s)
{
	size_t i;

	for (i = 0; i < s->nrow; i++)
		free(s->row[i].unit);
	free(s->row);
	s->row = NULL;
	s->nrow = 0;
}
