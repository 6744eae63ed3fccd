/* report-past.c: benchmp report's paragraphs on the host's moves: a run against its past runs, its clock against theirs. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "clock.h"
#include "report.h"

/* A run's records l, a sweep's points apart, against its past runs: p and the clock k; 0 or -ENOMEM. */
static int
past_of(const struct report_list *l, struct clock_past *p,
    struct clock_run *k)
{
	const struct bm__jval **j;
	size_t i, n = 0;
	int rc;

	if ((j = malloc((l->n + 1) * sizeof *j)) == NULL)
		return -ENOMEM;
	for (i = 0; i < l->n; i++)
		if (!l->r[i]->f.curve)
			j[n++] = l->r[i]->j;
	rc = clock_records(j, n, p, k);
	free(j);
	return rc;
}

/*
 * Write the paragraphs on the host's moves, in benchmp summary's words
 * and order: the run against the machine's past runs (id past), where
 * CLOCK_PAST_MIN of its figures or more have them, and its clock (id
 * clock), where mhz read it more than CLOCK_WITH from the median of its
 * past runs.  With B, each run's: the past runs as benchmp compare sets
 * the two against theirs, the clock of each run that moved.  Records
 * without history give neither.
 */
void
report_past(struct report *r, const struct report_list *a,
    const struct report_list *b)
{
	struct clock_past p[2];
	struct clock_run k[2];
	char line[CLOCK_LINE];
	size_t i, n = 0;

	for (i = 0; i < r->nrun; i++)
		if (past_of(i == 0 ? a : b, &p[i], &k[i]) != 0) {
			r->err = -ENOMEM;
			return;
		}
	if (r->nrun == 1) {
		if (clock_past_line(&p[0], line, sizeof line) == 0)
			report_put(r, "<p id=\"past\">Past runs: %h.</p>\n",
			    line);
		if (clock_run_words(&k[0], line, sizeof line) == 0)
			report_put(r, "<p id=\"clock\">Clock: %h.</p>\n", line);
		return;
	}
	/* Compare's sets (the latest of each key), as benchmp compare says. */
	p[0] = r->cmp.past[0];
	p[1] = r->cmp.past[1];
	if (p[0].n > 0 || p[1].n > 0) {
		report_put(r, "<p id=\"past\">Past runs:");
		for (i = 0; i < 2; i++) {
			clock_past_side(&p[i], line, sizeof line);
			report_put(r, "%s %s&#39;s median figure %h",
			    i > 0 ? ";" : "", i > 0 ? "B" : "A", line);
		}
		report_put(r, ".</p>\n");
	}
	for (i = 0; i < 2; i++)
		if (clock_run_words(&k[i], line, sizeof line) == 0)
			report_put(r, "%s%s: %h", n++ > 0 ? "; " :
			    "<p id=\"clock\">Clock: ", i > 0 ? "B" : "A", line);
	if (n > 0)
		report_put(r, ".</p>\n");
}
