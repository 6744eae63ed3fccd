/*
 * agree.c: the judgement of derived figures: whether independent
 * processes gave one answer, and whether a figure contradicts what the
 * machine states.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* qsort's comparison of doubles. */
static int
agree_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Whether n answers agree: all finite, and their range at most tolerance
 * times the median's magnitude.  A process that could not tell (NAN)
 * makes the answers disagree: a figure stands only on every process.
 */
int
bm_agree(const double *answers, size_t n, double tolerance, double *lo,
    double *hi)
{
	double *v, med;
	size_t i, m = 0;
	int agree;

	if (answers == NULL || !(tolerance >= 0) || !isfinite(tolerance))
		return -EINVAL;
	if (lo != NULL)
		*lo = (double)NAN;
	if (hi != NULL)
		*hi = (double)NAN;
	if (n == 0)
		return BM_ERANGE;
	if ((v = malloc(n * sizeof *v)) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (isfinite(answers[i]))
			v[m++] = answers[i];
	if (m == 0) {
		free(v);
		return 0;
	}
	qsort(v, m, sizeof *v, agree_cmp);
	med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
	agree = m == n && v[m - 1] - v[0] <= tolerance * fabs(med);
	if (lo != NULL)
		*lo = v[0];
	if (hi != NULL)
		*hi = v[m - 1];
	free(v);
	return agree;
}

/* Whether a figure stands against what the machine states. */
int
bm_contradiction_check(bm_contradiction *c, const char *what,
    double measured, double machine, double lo, double hi,
    const char *source, const char *unit)
{
	if (c == NULL || what == NULL || !isfinite(measured) ||
	    !(lo > 0) || !(hi >= lo) || !isfinite(lo))
		return -EINVAL;
	if (!isfinite(machine) || !(machine > 0))
		return 0;
	if (measured >= machine * lo && measured <= machine * hi)
		return 0;
	c->what = what;
	c->measured = measured;
	c->machine = machine;
	c->source = source;
	c->unit = unit;
	return 1;
}
