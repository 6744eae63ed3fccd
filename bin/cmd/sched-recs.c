/*
 * sched-recs.c: an A/B's figures named by their tools' records.  The
 * visits give times per operation; the records (BENCHMP_OUTPUT=- in the
 * arms) say what a figure is: its tool, case, unit and which way is
 * better, and each start of a tool (a generation) gives each arm's
 * figure over its visits.  They are paired as benchmp-ab pairs a round's
 * records (ab_table_add), one start of both arms' tools at a time.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/* What start g of p printed, as a string; NULL without memory. */
static char *
recs_segment(const struct sched_proc *p, unsigned g)
{
	size_t from = p->seg[g], to = g + 1 < p->nseg ? p->seg[g + 1] :
	    p->tlen;
	char *t;

	if ((t = malloc(to - from + 1)) == NULL)
		return NULL;
	if (to > from)
		memcpy(t, p->text + from, to - from);
	t[to - from] = '\0';
	return t;
}

/*
 * Pair the records of every start of line's tools pa and pb, then give
 * each of the line's pairs its figure: the records of one start name
 * its last figures in order, one each (a tool prints none for a part it
 * takes off the figures after it, and the parts come first).  A start
 * whose records do not pair (a tool stopped by a signal, one that
 * prints other records) adds nothing; a line with more records than
 * figures leaves its pairs unnamed.  The line's figures are the table's
 * last ones, in the order of its records.  0 or -1 (memory).
 */
static int
recs_line(struct sched *s, const struct sched_proc *pa,
    const struct sched_proc *pb)
{
	static volatile sig_atomic_t never;
	struct ab_table *t = &s->recs;
	unsigned g, nseg = pa->nseg < pb->nseg ? pa->nseg : pb->nseg;
	unsigned seq_max = 0, base;
	size_t i, first = t->n, nrec;
	char why[256];

	for (g = 0; g < nseg; g++) {
		char *ta = recs_segment(pa, g), *tb = recs_segment(pb, g);
		int nomem = ta == NULL || tb == NULL;

		if (!nomem && ab_table_add(t, pa->line, 0, ta, tb, why,
		    sizeof(why), &never) != 0)
			nomem = strcmp(why, "out of memory") == 0;
		free(ta);
		free(tb);
		if (nomem)
			return -1;
	}
	for (i = 0; i < s->npairs; i++)
		if (s->pairs[i]->fa->p == pa && s->pairs[i]->fa->seq > seq_max)
			seq_max = s->pairs[i]->fa->seq;
	nrec = t->n - first;
	if (nrec == 0 || nrec > seq_max)
		return 0;
	base = seq_max - (unsigned)nrec;
	for (i = 0; i < s->npairs; i++) {
		struct sched_pair *pr = s->pairs[i];

		if (pr->fa->p == pa && pr->fa->seq > base)
			pr->rec = first + (pr->fa->seq - base);
	}
	return 0;
}

int
sched_pair_records(struct sched *s)
{
	size_t i;

	/* An A/B's processes: each line's arm A, then its arm B. */
	for (i = 0; i + 1 < s->np; i += 2)
		if (recs_line(s, &s->procs[i], &s->procs[i + 1]) != 0)
			return -1;
	return 0;
}
