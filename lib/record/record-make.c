/* record-make.c: the record constructors, and a record's judgement. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The one place where a tool's figure, its unit and the scaling of the
 * samples into that unit are set together, so that the value and the
 * statistics of a record cannot disagree.
 */

/* A unit of time: how many ns it holds and what one ns is in it. */
struct make_time_unit {
	const char *name;
	double ns;		/* divide ns by this for the value */
	double per_ns;		/* the same as a factor, for the scale */
};

static const struct make_time_unit make_time_units[] = {
	{ "ns", 1.0, 1.0 },
	{ "us", 1000.0, 1e-3 },
	{ "ms", 1e6, 1e-6 },
	{ "s", 1e9, 1e-9 },
};

/* Find a unit of time by name, or NULL. */
static const struct make_time_unit *
make_time_unit(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < sizeof make_time_units / sizeof make_time_units[0]; i++)
		if (strcmp(make_time_units[i].name, name) == 0)
			return &make_time_units[i];
	return NULL;
}

/* Start a record of a result: everything zero but tool, case and result. */
static void
make_start(bm_record *rec, const char *tool, const char *case_name,
    const bm_result *r)
{
	memset(rec, 0, sizeof *rec);
	rec->tool = tool;
	rec->case_name = case_name;
	rec->result = r;
}

/*
 * The figure a record shows (bm__figure_value): its best process where
 * it has one (1), else with median 1 the median of its rounds' medians,
 * as its JSON shows it: for a rate (one worker's) with an even count of
 * rounds or intervals the inverse of the median time is not the median
 * rate (0).  Its statistics are not computed here but once, when the
 * record is decided (bm__record_decide).  BM_ERANGE without samples, or
 * -ENOMEM.
 */
static int
make_value(const bm_record *rec, int median, double *out)
{
	double v;
	int rc;

	if ((rc = bm__figure_value(rec, 1, &v)) == 1 || (rc == 0 && median))
		*out = v;
	return rc;
}

/* Fill a latency record: the time of one of ops parts, less offset_ns. */
int
bm_record_latency_per(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r, double ops,
    double offset_ns)
{
	const struct make_time_unit *u = make_time_unit(unit);

	if (rec == NULL || tool == NULL || r == NULL || u == NULL ||
	    !(ops > 0) || !isfinite(ops) || !isfinite(offset_ns))
		return -EINVAL;
	make_start(rec, tool, case_name, r);
	rec->metric = "latency";
	rec->unit = u->name;
	rec->better = BM_BETTER_LOWER;
	rec->scale = u->per_ns / ops;
	rec->offset = offset_ns * u->per_ns / ops;
	rec->inverse = 0;
	/* Without a robust figure, as the tools always computed it. */
	if (make_value(rec, 0, &rec->value) != 1)
		rec->value = (r->per_op_ns.median - offset_ns) / ops / u->ns;
	return 0;
}

/* Fill a latency record: the median time per operation in unit. */
int
bm_record_latency(bm_record *rec, const char *tool, const char *case_name,
    const char *unit, const bm_result *r)
{
	return bm_record_latency_per(rec, tool, case_name, unit, r, 1, 0);
}

/*
 * Fill a record of things per second (items per operation): one worker's
 * median rate, or with several workers their aggregate, each worker's
 * items over its timed time, so that more workers than CPUs share the
 * machine instead of multiplying it.
 */
static int
make_per_second(bm_record *rec, const char *tool, const char *case_name,
    const bm_result *r, double items, double per_s)
{
	int rc;

	if (rec == NULL || tool == NULL || r == NULL || !(items > 0) ||
	    !isfinite(items))
		return -EINVAL;
	make_start(rec, tool, case_name, r);
	rec->better = BM_BETTER_HIGHER;
	/* x per s = (items / per_s) / (ns / 1e9). */
	rec->scale = items * (1e9 / per_s);
	rec->inverse = 1;
	/*
	 * The value is the figure the record's statistics give: the best
	 * round's, or their median (make_value); with several workers each
	 * round is their aggregate (see bm__figure_record).
	 */
	if ((rc = make_value(rec, 1, &rec->value)) == 1)
		rc = 0;
	if (rc == BM_ERANGE) {
		rec->value = r->parallel != 1 ? r->ops_per_s * items / per_s :
		    rec->scale / r->per_op_ns.median;
		rc = 0;
	}
	return rc;
}

/* Fill a bandwidth record: bytes per operation, in MB/s. */
int
bm_record_bandwidth(bm_record *rec, const char *tool, const char *case_name,
    const bm_result *r, double bytes)
{
	int rc;

	if ((rc = make_per_second(rec, tool, case_name, r, bytes, 1e6)) != 0)
		return rc;
	rec->metric = "bandwidth";
	rec->unit = "MB/s";
	return 0;
}

/* Fill a rate record: items per operation, in unit (such as "ops/s"). */
int
bm_record_rate(bm_record *rec, const char *tool, const char *case_name,
    const char *unit, const bm_result *r, double items)
{
	int rc;

	if (unit == NULL)
		return -EINVAL;
	if ((rc = make_per_second(rec, tool, case_name, r, items, 1)) != 0)
		return rc;
	rec->metric = "rate";
	rec->unit = unit;
	return 0;
}

/* Judge a record's figure by its processes' answers. */
int
bm_record_agreement(bm_record *rec, const double *answers, size_t n,
    double tolerance)
{
	int rc;

	if (rec == NULL)
		return -EINVAL;
	if ((rc = bm_agree(answers, n, tolerance, NULL, NULL)) < 0)
		return rc;
	rec->agreement = rc ? BM_AGREEMENT_AGREE : BM_AGREEMENT_DISAGREE;
	rec->answers = answers;
	rec->nanswers = n;
	return rc;
}

/*
 * The reason a record's figure is unsteady lives in the first of its
 * reserved words, so that the public struct keeps its layout.
 */
int
bm_record_unsteady(bm_record *rec, const char *why)
{
	if (rec == NULL)
		return -EINVAL;
	rec->reserved[0] = (uint64_t)(uintptr_t)why;
	return 0;
}

/* The reason given to bm_record_unsteady(), or NULL. */
const char *
bm_record_unsteady_why(const bm_record *rec)
{
	return rec != NULL ? (const char *)(uintptr_t)rec->reserved[0] : NULL;
}

/* Attach the contradictions of a record's figure. */
int
bm_record_contradicts(bm_record *rec, const bm_contradiction *c, size_t n)
{
	if (rec == NULL || (c == NULL && n > 0))
		return -EINVAL;
	rec->contradicts = c;
	rec->ncontradicts = n;
	return 0;
}

/*
 * Whether a figure adds up across machines: bytes or things per second.
 * A time, a clock rate or a degree of parallelism does not: two machines
 * do not make a syscall twice as fast.
 */
static int
make_additive(const bm_record *rec)
{
	return rec->inverse && rec->metric != NULL &&
	    (strcmp(rec->metric, "bandwidth") == 0 ||
	    strcmp(rec->metric, "rate") == 0);
}

/* Make rec a record of the results of separate jobs; see benchmp.h. */
int
bm_record_join(bm_record *rec, bm_result *all, const bm_result *parts,
    size_t n)
{
	int rc;

	if (rec == NULL || all == NULL || parts == NULL || n == 0)
		return -EINVAL;
	if ((rc = bm__result_join(all, parts, n, !make_additive(rec))) != 0)
		return rc;
	rec->result = all;
	/*
	 * The median of every part's rounds: the ranks' figures are each
	 * their own best, and the job's is the middle of all their rounds.
	 */
	if ((rc = bm__figure_value(rec, 0, &rec->value)) != 0)
		bm_result_free(all);
	return rc;
}
