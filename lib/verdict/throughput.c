/* throughput.c: a stored record's aggregate throughput and its interval, as benchmp scaling shows it. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/* 1 when s is the string word. */
static int
throughput_is(const char *s, const char *word)
{
	return s != NULL && strcmp(s, word) == 0;
}

/*
 * The throughput of rec over all its workers, with its interval.  A
 * bandwidth's value is already the aggregate, in its own unit (MB/s); of
 * any other figure it is the operations per second the engine summed
 * over the workers (ops_per_s), since a time's median is one operation
 * of one worker.  The interval is the figure's (ci_lo..ci_hi, around the
 * value of a record of the best process, else around its median: older
 * records) scaled to the throughput: in proportion where higher is
 * better, turned over for a time, where the shorter time is the higher
 * rate.  It needs all four numbers above zero: a zero or missing one
 * leaves it NAN, and a missing throughput leaves value NAN.
 */
void
bm__throughput(const struct bm__jval *rec, struct bm__throughput *tp)
{
	double c, lo = bm__jnum(rec, "ci_lo"), hi = bm__jnum(rec, "ci_hi");

	tp->rate = throughput_is(bm__jstr(rec, "metric"), "bandwidth");
	tp->value = bm__jnum(rec, tp->rate ? "value" : "ops_per_s");
	c = bm__jnum(rec, throughput_is(bm__jstr(rec, "stat"),
	    "best process") ? "value" : "median");
	tp->lo = tp->hi = NAN;
	if (!(c > 0 && lo > 0 && hi > 0 && tp->value > 0))
		return;
	if (tp->rate || throughput_is(bm__jstr(rec, "better"), "higher")) {
		tp->lo = tp->value * lo / c;
		tp->hi = tp->value * hi / c;
	} else {
		tp->lo = tp->value * c / hi;
		tp->hi = tp->value * c / lo;
	}
}
