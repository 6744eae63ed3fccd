/* stats-print.c: named statistics of one sample, from the library, printed as text. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "benchmp/settings.h"
#include "benchmp/stats.h"
#include "stats-print.h"

/* What a name in a --print list stands for. */
enum {
	STATS_PRINT_COUNT,
	STATS_PRINT_MEDIAN,
	STATS_PRINT_MEAN,
	STATS_PRINT_STDDEV,
	STATS_PRINT_CV,
	STATS_PRINT_MIN,
	STATS_PRINT_MAX,
	STATS_PRINT_CI_LO,
	STATS_PRINT_CI_HI,
	STATS_PRINT_CI_LEVEL,
	STATS_PRINT_PCT
};

/* The names a --print list may use, pP apart. */
static const struct {
	const char *name;
	int what;
} stats_print_names[] = {
	{ "count", STATS_PRINT_COUNT },
	{ "median", STATS_PRINT_MEDIAN },
	{ "mean", STATS_PRINT_MEAN },
	{ "stddev", STATS_PRINT_STDDEV },
	{ "cv", STATS_PRINT_CV },
	{ "min", STATS_PRINT_MIN },
	{ "max", STATS_PRINT_MAX },
	{ "ci_lo", STATS_PRINT_CI_LO },
	{ "ci_hi", STATS_PRINT_CI_HI },
	{ "ci_level", STATS_PRINT_CI_LEVEL },
};

/* Order doubles for qsort. */
static int
stats_print_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Parse a comma-separated list of statistics into sp: 0, or -1 when a
 * name is unknown, a percentile is not pP with 0 <= P <= 100, the list
 * is empty or names more than STATS_PRINT_LIST_MAX.
 */
int
stats_print_parse(const char *list, struct stats_print *sp)
{
	char name[64];
	const char *s = list, *end;
	size_t len, i;

	memset(sp, 0, sizeof *sp);
	for (;;) {
		end = strchr(s, ',');
		len = end != NULL ? (size_t)(end - s) : strlen(s);
		if (len == 0 || len >= sizeof name ||
		    sp->n == STATS_PRINT_LIST_MAX)
			return -1;
		memcpy(name, s, len);
		name[len] = '\0';
		for (i = 0; i < sizeof stats_print_names /
		    sizeof stats_print_names[0]; i++)
			if (strcmp(name, stats_print_names[i].name) == 0)
				break;
		if (i < sizeof stats_print_names / sizeof stats_print_names[0])
			sp->what[sp->n] = stats_print_names[i].what;
		else if (name[0] == 'p' && bm_parse_double(name + 1, 0, 100,
		    &sp->p[sp->n]) == 0)
			sp->what[sp->n] = STATS_PRINT_PCT;
		else
			return -1;
		sp->n++;
		if (end == NULL)
			return 0;
		s = end + 1;
	}
}

/*
 * Print x in the fewest significant digits that read back as x, so that
 * awk and jq take the very double the library computed.
 */
static int
stats_print_number(FILE *f, double x)
{
	char buf[40];
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	snprintf(buf, sizeof buf, "%.*g", prec, x);
	return fputs(buf, f) < 0 ? -1 : 0;
}

/*
 * Print one line to f: key (when not NULL) and the statistics of sp of
 * the n values v, separated by tabs.  Returns 0, or a negative BM_E* code
 * (-errno when memory or writing fails).
 */
int
stats_print_sample(FILE *f, const char *key, const double *v, size_t n,
    const struct stats_print *sp)
{
	double *sorted = NULL, x = 0;
	bm_stats st;
	unsigned i;
	int rc;

	if ((rc = bm_stats_compute(v, n, &st)) != 0)
		return rc;
	for (i = 0; i < sp->n; i++)
		if (sp->what[i] == STATS_PRINT_PCT && sorted == NULL) {
			if ((sorted = malloc(n * sizeof *sorted)) == NULL)
				return -ENOMEM;
			memcpy(sorted, v, n * sizeof *sorted);
			qsort(sorted, n, sizeof *sorted, stats_print_cmp);
		}
	rc = 0;
	if (key != NULL && (fputs(key, f) < 0 || putc('\t', f) == EOF))
		rc = -EIO;
	for (i = 0; i < sp->n && rc == 0; i++) {
		switch (sp->what[i]) {
		case STATS_PRINT_COUNT: x = (double)st.count; break;
		case STATS_PRINT_MEDIAN: x = st.median; break;
		case STATS_PRINT_MEAN: x = st.mean; break;
		case STATS_PRINT_STDDEV: x = st.stddev; break;
		case STATS_PRINT_CV: x = st.cv; break;
		case STATS_PRINT_MIN: x = st.min; break;
		case STATS_PRINT_MAX: x = st.max; break;
		case STATS_PRINT_CI_LO: x = st.ci_lo; break;
		case STATS_PRINT_CI_HI: x = st.ci_hi; break;
		case STATS_PRINT_CI_LEVEL: x = st.ci_level; break;
		default: x = bm_percentile(sorted, n, sp->p[i]); break;
		}
		if ((i > 0 && putc('\t', f) == EOF) ||
		    stats_print_number(f, x) != 0)
			rc = -EIO;
	}
	if (rc == 0 && putc('\n', f) == EOF)
		rc = -EIO;
	free(sorted);
	return rc;
}
