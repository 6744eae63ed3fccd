/* stats-json.c: the statistics of numbers from rounds as a JSON object (benchmp-stats). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/*
 * Check values from rounds for a JSON object of their statistics: every
 * value finite, every round below nr.  0, -EINVAL or BM_ERANGE; *out is
 * NULL after.
 */
static int
stats_json_input(const double *v, const unsigned *round, size_t n,
    unsigned nr, char **out)
{
	size_t k;

	if (v == NULL || round == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if (n == 0 || nr == 0)
		return BM_ERANGE;
	for (k = 0; k < n; k++)
		if (!isfinite(v[k]) || round[k] >= nr)
			return BM_ERANGE;
	return 0;
}

/*
 * Format the statistics of values from rounds as one JSON object, the
 * members a record holds from "median" to "process_values".
 */
int
bm_stats_json(const double *v, const unsigned *round, size_t n,
    unsigned nr, char **out)
{
	struct bm__json b = { NULL, 0, 0, 0 };
	struct bm__figure f;
	int rc;

	if ((rc = stats_json_input(v, round, n, nr, out)) != 0)
		return rc;
	if ((rc = bm__figure_levels(&f, v, round, n, nr)) == 0 &&
	    (b.s = malloc(1024)) == NULL)
		rc = -ENOMEM;
	if (rc != 0) {
		bm__figure_free(&f);
		return rc;
	}
	b.cap = 1024;
	bm__record_levels(&b, &f, bm__figure_noisy(&f, 0, NULL, NULL), NULL,
	    NULL);
	bm__figure_free(&f);
	/* The members start with a comma: the first one opens the object. */
	bm__json_printf(&b, "}");
	if ((rc = b.err) != 0) {
		free(b.s);
		return rc;
	}
	b.s[0] = '{';
	*out = b.s;
	return 0;
}

/*
 * Format the robust figure of values from rounds (the best round's
 * median, its interval and flags, as a record's "robust" member) as one
 * JSON object; disturbed of intervals count as the record's
 * interference does.  BM_ERANGE as bm_stats_json, and for fewer than three
 * rounds (no robust figure).
 */
int
bm_stats_robust_json(const double *v, const unsigned *round, size_t n,
    unsigned nr, int higher, uint64_t intervals, uint64_t disturbed,
    char **out)
{
	struct bm__json b = { NULL, 0, 0, 0 };
	bm__robust rb;
	size_t k;
	int rc;

	if (v == NULL || round == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if (n == 0 || nr < BM__ROBUST_MIN || disturbed > intervals)
		return BM_ERANGE;
	for (k = 0; k < n; k++)
		if (!isfinite(v[k]) || round[k] >= nr)
			return BM_ERANGE;
	/* The disturbed share no longer flags a figure: only its width. */
	if ((rc = bm__stats_robust(v, round, n, nr, higher != 0,
	    BM__ROBUST_FLOOR, BM__PRECISION_DEFAULT, &rb)) != 0)
		return rc;
	if ((b.s = malloc(256)) == NULL)
		return -ENOMEM;
	b.cap = 256;
	bm__record_robust(&b, &rb);
	if ((rc = b.err) != 0) {
		free(b.s);
		return rc;
	}
	*out = b.s;
	return 0;
}

/*
 * The statistics of values from rounds as a record shows them, for
 * benchmp-stats: with higher 0 or 1 (lower or higher is better) and a
 * robust figure (three rounds or more), "value" is the best round's
 * median and the interval the next run's (bm__stats_robust, noisy past
 * precision), followed by "robust"; without one, "value" is the median
 * with the median's interval.  The same members, in the same order and
 * text, as bm_record_json() writes for a record of these values.
 */
int
bm__stats_json_figure(const double *v, const unsigned *round, size_t n,
    unsigned nr, int higher, double precision, char **out)
{
	struct bm__json b = { NULL, 0, 0, 0 };
	struct bm__figure f;
	bm__robust rb;
	int rc, has = 0;

	if ((rc = stats_json_input(v, round, n, nr, out)) != 0)
		return rc;
	if ((rc = bm__figure_levels(&f, v, round, n, nr)) == 0 &&
	    (b.s = malloc(1024)) == NULL)
		rc = -ENOMEM;
	if (rc == 0 && higher >= 0 && nr >= BM__ROBUST_MIN) {
		rc = bm__stats_robust_med(f.med, nr, f.proc.median, higher,
		    BM__ROBUST_FLOOR, precision, &rb);
		has = rc == 0;
		if (rc == BM_ERANGE)
			rc = 0;
	}
	if (rc != 0) {
		bm__figure_free(&f);
		free(b.s);
		return rc;
	}
	b.cap = 1024;
	bm__json_printf(&b, ",\"value\":");
	bm__json_number(&b, has ? rb.value : f.proc.median);
	bm__record_levels(&b, &f, bm__figure_noisy(&f, 0, has ? &rb : NULL,
	    NULL), has ? &rb : NULL, NULL);
	if (has) {
		bm__json_printf(&b, ",\"robust\":");
		bm__record_robust(&b, &rb);
	}
	bm__figure_free(&f);
	bm__json_printf(&b, "}");
	if ((rc = b.err) != 0) {
		free(b.s);
		return rc;
	}
	b.s[0] = '{';
	*out = b.s;
	return 0;
}
