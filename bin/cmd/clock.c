/* clock.c: the host's moves: a run's clock, a figure scaled to another clock, a run against its past runs, and the words of both. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/stats.h"
#include "clock.h"

/* Whether f is a run's clock. */
int
clock_is(const struct bm__fig *f)
{
	return f->tool != NULL && strcmp(f->tool, "mhz") == 0 &&
	    f->unit != NULL && strcmp(f->unit, "MHz") == 0;
}

/* v of f at clock mhz, scaled to clock ref. */
double
clock_scaled(const struct bm__fig *f, double v, double mhz, double ref)
{
	if (!(isfinite(v) && mhz > 0 && ref > 0 && isfinite(mhz) &&
	    isfinite(ref)))
		return NAN;
	if (f->better == BM__BETTER_LOWER)
		return v * mhz / ref;
	if (f->better == BM__BETTER_HIGHER)
		return v * ref / mhz;
	return NAN;
}

/* The shift of v against past median m. */
double
clock_shift(enum bm__better b, double v, double m)
{
	if (!(v > 0 && m > 0 && isfinite(v) && isfinite(m)))
		return NAN;
	if (b == BM__BETTER_LOWER)
		return log(v / m);
	if (b == BM__BETTER_HIGHER)
		return log(m / v);
	return NAN;
}

/* The median of n values, the library's (NAN for none, or out of memory). */
double
clock_median(const double *v, size_t n)
{
	bm_stats st;

	return bm_stats_compute(v, n, &st) == 0 ? st.median : NAN;
}

/* Sum the shifts of d up into p. */
void
clock_past_sum(const double *d, size_t n, struct clock_past *p)
{
	size_t i;

	memset(p, 0, sizeof *p);
	p->n = n;
	p->median = clock_median(d, n);
	for (i = 0; i < n; i++) {
		p->worse += d[i] > log1p(CLOCK_WITH);
		p->better += d[i] < log1p(-CLOCK_WITH);
	}
	if (n < CLOCK_PAST_MIN)
		p->n = 0;
}

/* Whether rec is a run's clock. */
int
clock_is_record(const struct bm__jval *rec)
{
	const char *tool = bm__jstr(rec, "tool"), *unit = bm__jstr(rec, "unit");

	return tool != NULL && unit != NULL && strcmp(tool, "mhz") == 0 &&
	    strcmp(unit, "MHz") == 0;
}

/* p's median as words into buf, before "its median": "4.7% worse than". */
static void
clock_past_words(const struct clock_past *p, char *buf, size_t size)
{
	double x = 100 * fabs(expm1(p->median));

	if (x < 0.05)
		snprintf(buf, size, "within 0.05%% of");
	else
		snprintf(buf, size, "%.1f%% %s than", x, p->median > 0 ?
		    "worse" : "better");
}

/* The shift of record rec against its past median. */
double
clock_record_shift(const struct bm__jval *rec)
{
	return clock_shift(bm__reader_better(rec), bm__jnum(rec, "value"),
	    bm__jnum(bm__jget(rec, "history"), "past_median"));
}

/* Note the run's clock in k from rec when it is mhz's figure. */
void
clock_run_note(struct clock_run *k, const struct bm__jval *rec)
{
	const struct bm__jval *h = bm__jget(rec, "history");
	double v = bm__jnum(rec, "value");

	if (!clock_is_record(rec) || !(v > 0 && isfinite(v)))
		return;
	k->mhz = v;
	k->past = k->runs = 0;
	if (h == NULL || h->type != BM__J_OBJECT)
		return;
	v = bm__jnum(h, "past_median");
	if (v > 0 && isfinite(v)) {
		k->past = v;
		k->runs = bm__jnum(h, "runs");
	}
}

/* A run's records against its past runs: p, and its clock k. */
int
clock_records(const struct bm__jval *const *rec, size_t n,
    struct clock_past *p, struct clock_run *k)
{
	double *d, x;
	size_t i, m = 0;

	memset(k, 0, sizeof *k);
	if ((d = calloc(n + 1, sizeof *d)) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!isnan(x = clock_record_shift(rec[i])))
			d[m++] = x;
		clock_run_note(k, rec[i]);
	}
	clock_past_sum(d, m, p);
	free(d);
	return 0;
}

/* The clock line's words, where k's clock moved from its past runs'. */
int
clock_run_words(const struct clock_run *k, char *buf, size_t size)
{
	double d;

	buf[0] = '\0';
	if (!(k->mhz > 0 && k->past > 0))
		return -1;
	d = k->mhz / k->past - 1;
	if (fabs(d) <= CLOCK_WITH)
		return -1;
	snprintf(buf, size, "mhz read %.0f MHz, %+.1f%% from %.0f MHz, the "
	    "median of its last %.0f runs on this machine: the figures the "
	    "clock times moved with it", k->mhz, 100 * d, k->past, k->runs);
	return 0;
}

/* The run against its past runs as words, where p has figures. */
int
clock_past_line(const struct clock_past *p, char *buf, size_t size)
{
	char words[48];

	buf[0] = '\0';
	if (p->n == 0)
		return -1;
	clock_past_words(p, words, sizeof words);
	snprintf(buf, size, "the median figure %s its median over this "
	    "machine's past runs; %zu of %zu worse by more than %.0f%%, %zu "
	    "better", words, p->worse, p->n, 100 * CLOCK_WITH, p->better);
	return 0;
}

/* One of two runs against its past runs as words, after "A's median figure". */
void
clock_past_side(const struct clock_past *p, char *buf, size_t size)
{
	char words[48];

	if (p->n == 0) {
		snprintf(buf, size, "not known");
		return;
	}
	clock_past_words(p, words, sizeof words);
	snprintf(buf, size, "%s its median over its machine's past runs (%zu "
	    "of %zu worse by more than %.0f%%, %zu better)", words, p->worse,
	    p->n, 100 * CLOCK_WITH, p->better);
}
