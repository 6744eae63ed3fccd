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
	bm__record_levels(&b, &f, 0);
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
