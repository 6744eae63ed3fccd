/* stats-json.c: the statistics of numbers from rounds as a JSON object (benchmp-stats). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

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
	size_t k;
	int rc;

	if (v == NULL || round == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if (n == 0 || nr == 0)
		return BM_ERANGE;
	for (k = 0; k < n; k++)
		if (!isfinite(v[k]) || round[k] >= nr)
			return BM_ERANGE;
	if ((rc = bm__figure_levels(&f, v, round, n, nr)) == 0 &&
	    (b.s = malloc(1024)) == NULL)
		rc = -ENOMEM;
	if (rc != 0) {
		bm__figure_free(&f);
		return rc;
	}
	b.cap = 1024;
	bm__record_levels(&b, &f, 0, NULL);
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
