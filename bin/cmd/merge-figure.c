/* merge-figure.c: each figure's records found by its key, their rounds gathered, the library's statistics of them made one record. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "compare.h"
#include "merge.h"

/* The rounds of a figure's passes, one after another: each value and its round. */
struct figure_rounds {
	double *v;
	unsigned *round;
	size_t n;
	size_t cap;
	unsigned nr;
};

/*
 * The members a pass's statistics may leave out (no modes, no interval):
 * dropped from the last pass's record, so that none is the last pass's
 * beside the merged statistics.
 */
static const char *const figure_dropped[] = {
	"modes", "ci_floor", "ci_stat_lo", "ci_stat_hi", "robust", "stat",
	"ci_kind", "median_ci_lo", "median_ci_hi", "median_ci_level"
};

/* Add one value of a round; 0, or 1 with why past the bounds, or -ENOMEM. */
static int
figure_push(struct figure_rounds *fr, double v, char *why, size_t size)
{
	unsigned *nr;
	double *nv;
	size_t cap;

	if (fr->n >= MERGE_VALUES_MAX) {
		snprintf(why, size, "more than %u values", MERGE_VALUES_MAX);
		return 1;
	}
	if (fr->n == fr->cap) {
		cap = fr->cap > 0 ? 2 * fr->cap : 1024;
		if ((nv = realloc(fr->v, cap * sizeof *nv)) == NULL)
			return -ENOMEM;
		fr->v = nv;
		if ((nr = realloc(fr->round, cap * sizeof *nr)) == NULL)
			return -ENOMEM;
		fr->round = nr;
		fr->cap = cap;
	}
	fr->v[fr->n] = v;
	fr->round[fr->n++] = fr->nr - 1;
	return 0;
}

/*
 * How many of a record's values each of its rounds gave, into per
 * (procs of them): its process_samples, or the samples split evenly over
 * the processes when it has none and they divide; 0, or 1 with why.
 */
static int
figure_split(const struct merge_rec *r, size_t procs, double samples,
    double *per, char *why, size_t size)
{
	const struct bm__jval *ps = bm__jget(r->rec, "process_samples");
	double sum = 0;
	size_t j;

	/* None, null or false: jq's // took the even split. */
	if (ps == NULL || ps->type == BM__J_NULL || ps->type == BM__J_FALSE) {
		if (fmod(samples, (double)procs) != 0) {
			snprintf(why, size, "line %zu: no process_samples, and "
			    "its %.0f samples do not divide over %zu processes",
			    r->line, samples, procs);
			return 1;
		}
		for (j = 0; j < procs; j++)
			per[j] = samples / (double)procs;
		return 0;
	}
	if (ps->type != BM__J_ARRAY || ps->n != procs) {
		snprintf(why, size, "line %zu: process_samples is not a count "
		    "a process", r->line);
		return 1;
	}
	for (j = 0; j < procs; j++) {
		per[j] = ps->item[j].num;
		if (ps->item[j].type != BM__J_NUMBER || per[j] < 0 ||
		    per[j] != floor(per[j])) {
			snprintf(why, size, "line %zu: process_samples holds "
			    "what is not a count", r->line);
			return 1;
		}
		sum += per[j];
	}
	if (sum != samples) {
		snprintf(why, size, "line %zu: process_samples add up to "
		    "%.0f, not its %.0f samples", r->line, sum, samples);
		return 1;
	}
	return 0;
}

/*
 * Add the rounds of one record (a pass) to fr: each interval under
 * "values", a round after another, each round as many as its count
 * (an empty round is no round); 0, or 1 with why when the record
 * cannot be merged, or -ENOMEM.
 */
static int
figure_rounds_add(struct figure_rounds *fr, const struct merge_rec *r,
    char *why, size_t size)
{
	const struct bm__jval *values = bm__jget(r->rec, "values");
	double samples = bm__jnum(r->rec, "samples");
	double procs = bm__jnum(r->rec, "processes"), *per;
	size_t np, j, c, at = 0;
	int rc = 0;

	if (values == NULL || values->type != BM__J_ARRAY ||
	    !(samples == (double)values->n)) {
		snprintf(why, size, "line %zu: its values are not as many as "
		    "its samples", r->line);
		return 1;
	}
	if (!(procs >= 1 && procs <= MERGE_ROUNDS_MAX) ||
	    procs != floor(procs)) {
		snprintf(why, size, "line %zu: processes is not a count of "
		    "rounds from 1 to %u", r->line, MERGE_ROUNDS_MAX);
		return 1;
	}
	np = (size_t)procs;
	if ((per = calloc(np, sizeof *per)) == NULL)
		return -ENOMEM;
	if ((rc = figure_split(r, np, samples, per, why, size)) != 0) {
		free(per);
		return rc;
	}
	for (j = 0; j < np && rc == 0; j++) {
		if (per[j] == 0)
			continue;
		if (fr->nr >= MERGE_ROUNDS_MAX) {
			snprintf(why, size, "more than %u rounds",
			    MERGE_ROUNDS_MAX);
			rc = 1;
			break;
		}
		fr->nr++;
		for (c = 0; c < (size_t)per[j] && rc == 0; c++, at++) {
			if (values->item[at].type != BM__J_NUMBER) {
				snprintf(why, size, "line %zu: value %zu is not "
				    "a number", r->line, at + 1);
				rc = 1;
			} else {
				rc = figure_push(fr, values->item[at].num, why,
				    size);
			}
		}
	}
	free(per);
	return rc;
}

/*
 * The library's statistics of every round of the figure whose first
 * record is first, as one JSON object (*s), the robust figure (the best
 * process) with it when the last pass has a direction and is not judged
 * by an agreement rule; 0, or 1 with why, or -ENOMEM.
 */
static int
figure_stats(struct merge *m, size_t first, struct bm__jval **s, char *why,
    size_t size)
{
	struct figure_rounds fr;
	const struct bm__jval *last = NULL, *d;
	const char *better, *msg = NULL;
	char *json = NULL;
	int rc = 0, higher = -1;
	size_t i;

	memset(&fr, 0, sizeof fr);
	for (i = first; i != MERGE_NONE && rc == 0; i = m->rec[i].next) {
		rc = figure_rounds_add(&fr, &m->rec[i], why, size);
		last = m->rec[i].rec;
	}
	if (rc == 0) {
		better = bm__jstr(last, "better");
		d = bm__jget(last, "disagree");
		if (better != NULL && (d == NULL || d->type == BM__J_NULL)) {
			if (strcmp(better, "lower") == 0)
				higher = 0;
			else if (strcmp(better, "higher") == 0)
				higher = 1;
		}
		if (fr.n == 0 || fr.nr == 0) {
			snprintf(why, size, "no values in its records");
			rc = 1;
		} else if ((rc = bm__stats_json_figure(fr.v, fr.round, fr.n,
		    fr.nr, higher, BM__PRECISION_DEFAULT, &json)) != 0 &&
		    rc != -ENOMEM) {
			snprintf(why, size, "%s", bm_strerror(rc));
			rc = 1;
		}
	}
	if (rc == 0 && (rc = bm__jparse(json, strlen(json), s, NULL,
	    &msg)) != 0 && rc != -ENOMEM) {
		snprintf(why, size, "its statistics: %s", msg);
		rc = 1;
	}
	free(json);
	free(fr.v);
	free(fr.round);
	return rc;
}

/*
 * What the merged record says beside the statistics: its value (the
 * merged figure where each pass showed its own as the median or the
 * best process did, else the last pass's scaled), ops_per_s and
 * cycles_per_op scaled with it (NAN: null), the wall times' sum (NAN:
 * null) and whether the budget cut a pass short.
 */
struct figure_sums {
	double value;
	double ops;
	double cycles;
	double wall;
	int budget;
};

/* Whether x is within a billionth of y, as one pass's shown figure is its own statistic. */
static int
figure_same(double x, double y)
{
	return fabs(x - y) <= 1e-9 * fabs(y);
}

/*
 * Work out the members the merged record of the figure whose first
 * record is first takes besides the statistics s; 0, or 1 with why
 * when its records cannot be scaled.
 */
static int
figure_sums(struct merge *m, size_t first, const struct bm__jval *s,
    struct figure_sums *fs, char *why, size_t size)
{
	const struct bm__jval *last = NULL, *rec, *w;
	const char *better;
	double value, median, ratio = 1, rate = 1, x;
	int shown = 1, walls = 0;
	size_t i;

	memset(fs, 0, sizeof *fs);
	for (i = first; i != MERGE_NONE; i = m->rec[i].next) {
		last = rec = m->rec[i].rec;
		value = bm__jnum(rec, "value");
		median = bm__jnum(rec, "median");
		if (isnan(value) || isnan(median)) {
			snprintf(why, size, "line %zu: its value or median is "
			    "not a number", m->rec[i].line);
			return 1;
		}
		x = bm__jnum(bm__jget(rec, "robust"), "value");
		if (!figure_same(value, median) && (isnan(x) ||
		    !figure_same(value, x)))
			shown = 0;
		if ((w = bm__jget(rec, "wall_s")) != NULL &&
		    w->type == BM__J_NUMBER) {
			fs->wall = walls ? fs->wall + w->num : w->num;
			walls = 1;
		}
		fs->budget |= bm__jtrue(rec, "budget_hit");
	}
	if (!walls)
		fs->wall = NAN;
	median = bm__jnum(last, "median");
	if (median != 0)
		ratio = bm__jnum(s, "median") / median;
	better = bm__jstr(last, "better");
	if (better != NULL && strcmp(better, "lower") == 0)
		rate = 1 / ratio;
	else if (better != NULL && strcmp(better, "higher") == 0)
		rate = ratio;
	fs->cycles = bm__jnum(last, "cycles_per_op");
	/* A rate of zero or none: the figure has no merged speed. */
	if (ratio == 0 && better != NULL && (strcmp(better, "lower") == 0 ||
	    (rate == 0 && !isnan(fs->cycles)))) {
		snprintf(why, size, "a merged median of zero");
		return 1;
	}
	fs->value = shown ? bm__jnum(s, "value") :
	    bm__jnum(last, "value") * ratio;
	fs->ops = bm__jnum(last, "ops_per_s") * rate;
	fs->cycles /= rate;
	return 0;
}

/* Set an object's member name to the number x (NAN: null), or to a boolean; 0 or -ENOMEM. */
static int
figure_set(struct bm__jval *obj, const char *name, double x, int boolean)
{
	struct bm__jval v;

	memset(&v, 0, sizeof v);
	if (boolean)
		v.type = x != 0 ? BM__J_TRUE : BM__J_FALSE;
	else if (isnan(x))
		v.type = BM__J_NULL;
	else {
		v.type = BM__J_NUMBER;
		v.num = x;
	}
	return merge_json_set(obj, name, &v);
}

/*
 * Make the last record of the figure whose first record is first the
 * merged one: the last pass's members less those the statistics may
 * leave out, the statistics s over them (taken), then fs, the first
 * pass's timestamp and its suite with the passes counted; 0 or -ENOMEM.
 */
static int
figure_build(struct merge *m, size_t first, struct bm__jval *s,
    const struct figure_sums *fs)
{
	struct bm__jval *last = NULL, *head = m->rec[first].rec, v;
	size_t i;
	int rc = 0;

	for (i = first; i != MERGE_NONE; i = m->rec[i].next)
		last = m->rec[i].rec;
	for (i = 0; i < sizeof figure_dropped / sizeof figure_dropped[0]; i++)
		merge_json_del(last, figure_dropped[i]);
	for (i = 0; i < s->n && rc == 0; i++)
		rc = merge_json_set(last, s->key[i], &s->item[i]);
	/*
	 * A figure its tool called unsteady has no interval of the next
	 * run, merged or not (bm_record_unsteady): none, and noisy.
	 */
	if (rc == 0 && bm__jstr(last, "unsteady") != NULL &&
	    ((rc = figure_set(last, "ci_lo", NAN, 0)) != 0 ||
	    (rc = figure_set(last, "ci_hi", NAN, 0)) != 0 ||
	    (rc = figure_set(last, "ci_level", 0, 0)) != 0 ||
	    (rc = figure_set(last, "noisy", 1, 1)) != 0))
		return rc;
	if (rc != 0 || (rc = figure_set(last, "value", fs->value, 0)) != 0 ||
	    (rc = figure_set(last, "ops_per_s", fs->ops, 0)) != 0 ||
	    (rc = figure_set(last, "cycles_per_op", fs->cycles, 0)) != 0 ||
	    (rc = figure_set(last, "wall_s", fs->wall, 0)) != 0 ||
	    (rc = figure_set(last, "budget_hit", fs->budget, 1)) != 0)
		return rc;
	/* The first pass's timestamp and suite, taken: it is not written. */
	memset(&v, 0, sizeof v);
	v.type = BM__J_NULL;
	for (i = head->n; i-- > 0;)
		if (strcmp(head->key[i], "timestamp") == 0) {
			merge_json_move(&v, &head->item[i]);
			break;
		}
	if ((rc = merge_json_set(last, "timestamp", &v)) != 0)
		return rc;
	v.type = BM__J_OBJECT;
	for (i = head->n; i-- > 0;)
		if (strcmp(head->key[i], "suite") == 0 &&
		    head->item[i].type == BM__J_OBJECT) {
			merge_json_move(&v, &head->item[i]);
			break;
		}
	if ((rc = figure_set(&v, "passes", (double)m->rec[first].count,
	    0)) == 0)
		rc = merge_json_set(last, "suite", &v);
	bm__jval_clear(&v);
	return rc;
}

/* Say that a figure's passes were not merged, and why. */
static void
figure_warn(const struct merge *m, size_t first, const char *why)
{
	const struct bm__jval *rec = m->rec[first].rec;
	const char *name = bm__jstr(bm__jget(rec, "suite"), "figure");

	fprintf(stderr, "%s: a figure's passes not merged: ", m->prog);
	compare_put_escaped(stderr, name != NULL ? name :
	    bm__jstr(rec, "tool"));
	fputs(": ", stderr);
	compare_put_escaped(stderr, why);
	fputc('\n', stderr);
}

/* Merge the records of each figure recorded more than once. */
int
merge_figure_all(struct merge *m)
{
	struct figure_sums fs;
	struct bm__jval *s;
	char why[256];
	size_t i, k;
	int rc;

	for (i = 0; i < m->n; i++) {
		if (m->rec[i].first != i)
			continue;
		for (k = i; m->rec[k].next != MERGE_NONE; k = m->rec[k].next)
			;
		m->rec[i].out = m->rec[k].rec;
		if (m->rec[i].count < 2)
			continue;
		s = NULL;
		if ((rc = figure_stats(m, i, &s, why, sizeof why)) == 0 &&
		    (rc = figure_sums(m, i, s, &fs, why, sizeof why)) == 0)
			rc = figure_build(m, i, s, &fs);
		bm__jval_free(s);
		if (rc < 0) {
			fprintf(stderr, "%s: out of memory\n", m->prog);
			return -1;
		}
		if (rc > 0) {
			figure_warn(m, i, why);
			m->kept++;
		} else {
			m->merged++;
		}
	}
	return 0;
}
