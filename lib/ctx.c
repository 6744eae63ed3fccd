/* ctx.c: the context: timer, placement policy, calibration from the environment. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The ranges the calibration variables accept, in microseconds.  ENOUGH
 * above a minute would make every figure take over ten minutes; a timing
 * overhead of a second or a loop overhead of a millisecond per iteration
 * can only be a typo, and subtracting it would produce nonsense.
 */
#define CTX_ENOUGH_MIN	1
#define CTX_ENOUGH_MAX	60000000
#define CTX_TIMING_O_MAX	1000000.0
#define CTX_LOOP_O_MAX	1000.0

/* Create a context with the default timer and no calibration yet. */
int
bm_ctx_new(bm_ctx **ctxp)
{
	bm_ctx *ctx;
	int rc;

	if (ctxp == NULL)
		return -EINVAL;
	*ctxp = NULL;
	if ((ctx = calloc(1, sizeof *ctx)) == NULL)
		return -ENOMEM;
	if ((rc = bm__timer_init(&ctx->timer, NULL, ctx->err,
	    sizeof ctx->err)) != 0) {
		free(ctx);
		return rc;
	}
	*ctxp = ctx;
	return 0;
}

/* Release a context and its timer. */
void
bm_ctx_free(bm_ctx *ctx)
{
	if (ctx == NULL)
		return;
	bm__timer_fini(&ctx->timer);
	free(ctx);
}

/* Return the detail of the last error, or "". */
const char *
bm_ctx_errmsg(const bm_ctx *ctx)
{
	return ctx != NULL ? ctx->err : "";
}

/* After BM_EINTR: the signal that interrupted the last run. */
int
bm_ctx_signal(const bm_ctx *ctx)
{
	return ctx != NULL ? ctx->last_signal : 0;
}

/*
 * Switch to the timer a config string names.  Measured calibration values
 * belong to the old clock (its read cost is timing_o), so they are
 * forgotten; values the user set stay.
 */
int
bm_ctx_set_timer(bm_ctx *ctx, const char *config)
{
	bm__timer t;
	char err[sizeof ctx->err];
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if (config == NULL || *config == '\0')
		return 0;
	memset(&t, 0, sizeof t);
	if ((rc = bm__timer_init(&t, config, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s", err);
	bm__timer_fini(&ctx->timer);
	ctx->timer = t;
	ctx->known &= ctx->cal.from_env;
	return 0;
}

/* Return the name of the active clock or cycle subtimer. */
const char *
bm_ctx_timer_name(const bm_ctx *ctx, int kind)
{
	const bm__subtimer_ops *ops;

	if (ctx == NULL)
		return NULL;
	ops = kind == BM_SUBTIMER_CYCLE ? ctx->timer.cycle : ctx->timer.clock;
	return ops != NULL ? ops->name : NULL;
}

/* Choose the workers' placement policy. */
int
bm_ctx_set_sched(bm_ctx *ctx, const char *policy)
{
	bm__sched s;
	char err[sizeof ctx->err];
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((rc = bm__sched_parse(&s, policy, err, sizeof err)) != 0 ||
	    (rc = bm__sched_check(&s, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s", err);
	ctx->sched = s;
	return 0;
}

/* Choose the perf events counted with every interval. */
int
bm_ctx_set_events(bm_ctx *ctx, const char *list)
{
	bm__events ev;
	char err[sizeof ctx->err];
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((rc = bm__events_parse(&ev, list, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s", err);
	bm__events_probe(&ev);
	ctx->events = ev;
	return 0;
}

/*
 * Check a calibration value against its range: 0, BM_ERANGE, or -EINVAL
 * for an unknown selector, whatever the value.  NaN fails every comparison
 * below, so it is out of range for each value.
 */
static int
ctx_cal_check(unsigned which, double value)
{
	switch (which) {
	case BM_CAL_ENOUGH:
		return value >= CTX_ENOUGH_MIN && value <= CTX_ENOUGH_MAX &&
		    value == floor(value) ? 0 : BM_ERANGE;
	case BM_CAL_TIMING_O:
		return value >= 0 && value <= CTX_TIMING_O_MAX ? 0 : BM_ERANGE;
	case BM_CAL_LOOP_O:
		return value >= 0 && value <= CTX_LOOP_O_MAX ? 0 : BM_ERANGE;
	}
	return -EINVAL;
}

/* Store a checked calibration value and mark it as given. */
static void
ctx_cal_store(bm_ctx *ctx, unsigned which, double value)
{
	switch (which) {
	case BM_CAL_ENOUGH:
		ctx->cal.enough_us = (uint64_t)value;
		break;
	case BM_CAL_TIMING_O:
		ctx->cal.timing_o_us = value;
		break;
	case BM_CAL_LOOP_O:
		ctx->cal.loop_o_us = value;
		break;
	}
	ctx->known |= which;
	ctx->cal.from_env |= which;
}

/* Set one calibration value by hand, exactly as the environment would. */
int
bm_ctx_set_calibration(bm_ctx *ctx, unsigned which, double value)
{
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((rc = ctx_cal_check(which, value)) == -EINVAL)
		return bm__fail(ctx, rc, "unknown calibration value %#x "
		    "(expected BM_CAL_ENOUGH, BM_CAL_TIMING_O or BM_CAL_LOOP_O)",
		    which);
	if (rc != 0)
		return bm__fail(ctx, rc, "calibration value %g out of range",
		    value);
	ctx_cal_store(ctx, which, value);
	return 0;
}

/* A program's default for one calibration value, below the environment. */
int
bm_ctx_default_calibration(bm_ctx *ctx, unsigned which, double value)
{
	unsigned from_env;
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if (ctx->cal.from_env & which)
		return ctx_cal_check(which, value) == -EINVAL ? -EINVAL : 0;
	from_env = ctx->cal.from_env;
	if ((rc = bm_ctx_set_calibration(ctx, which, value)) != 0)
		return rc;
	ctx->cal.from_env = from_env;
	return 0;
}

/* Run benchmarks in min to max rounds of fresh workers, whatever o says. */
int
bm_ctx_set_processes(bm_ctx *ctx, unsigned min, unsigned max)
{
	if (ctx == NULL)
		return -EINVAL;
	if (min < 1 || min > BM_MAX_PROCESSES || (max != 0 && (max < min ||
	    max > BM_MAX_PROCESSES)))
		return bm__fail(ctx, BM_ERANGE, "processes %u:%u out of range "
		    "(1 to %u, the maximum not below the minimum)", min, max,
		    BM_MAX_PROCESSES);
	ctx->proc_min = min;
	ctx->proc_max = max;
	return 0;
}

/* One calibration variable and how to read it. */
static const struct ctx_calvar {
	const char *name;
	unsigned which;
	int integer;
	double max;
	const char *range;
} ctx_calvars[] = {
	{ "ENOUGH", BM_CAL_ENOUGH, 1, CTX_ENOUGH_MAX,
	    "an integer from 1 to 60000000 microseconds" },
	{ "TIMING_O", BM_CAL_TIMING_O, 0, CTX_TIMING_O_MAX,
	    "0 to 1000000 microseconds" },
	{ "LOOP_O", BM_CAL_LOOP_O, 0, CTX_LOOP_O_MAX,
	    "0 to 1000 microseconds" },
};
#define CTX_NCALVARS (sizeof ctx_calvars / sizeof ctx_calvars[0])

/* Parse one calibration variable; 1 when set, 0 when unset, or an error. */
static int
ctx_env_cal(bm_ctx *ctx, const struct ctx_calvar *v, double *value)
{
	const char *s = getenv(v->name);
	uint64_t u;
	int rc;

	if (s == NULL || *s == '\0')
		return 0;
	if (v->integer) {
		rc = bm_parse_uint(s, CTX_ENOUGH_MIN, CTX_ENOUGH_MAX, &u);
		/* u is set only on success (valgrind saw the read). */
		if (rc == 0)
			*value = (double)u;
	} else
		rc = bm_parse_double(s, 0.0, v->max, value);
	if (rc == BM_EPARSE)
		return bm__fail(ctx, rc, "%s: '%.64s' is not a number (%s)",
		    v->name, s, v->range);
	if (rc != 0)
		return bm__fail(ctx, rc, "%s: '%.64s' is out of range (%s)",
		    v->name, s, v->range);
	return 1;
}

/*
 * Read the environment: the timer, the placement policy and the three
 * calibration values.  Everything is checked before anything is applied,
 * so a bad variable leaves the context as it was.
 */
int
bm_ctx_load_env(bm_ctx *ctx)
{
	const char *timer, *sched, *events, *sched_var = "BENCHMP_SCHED";
	const char *procs;
	unsigned pmin = 0, pmax = 0;
	bm__events ev;
	double values[CTX_NCALVARS];
	int set[CTX_NCALVARS];
	bm__sched s;
	bm__timer t;
	char err[sizeof ctx->err];
	size_t i;
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	for (i = 0; i < CTX_NCALVARS; i++) {
		if ((set[i] = ctx_env_cal(ctx, &ctx_calvars[i],
		    &values[i])) < 0)
			return set[i];
	}
	sched = getenv(sched_var);
	if (sched == NULL || *sched == '\0') {
		sched_var = "LMBENCH_SCHED";
		sched = getenv(sched_var);
	}
	memset(&s, 0, sizeof s);
	if (sched != NULL && ((rc = bm__sched_parse(&s, sched, err,
	    sizeof err)) != 0 || (rc = bm__sched_check(&s, err,
	    sizeof err)) != 0))
		return bm__fail(ctx, rc, "%s: %s", sched_var, err);
	procs = getenv("BENCHMP_PROCESSES");
	if (procs != NULL && *procs != '\0' &&
	    (rc = bm_parse_processes(procs, &pmin, &pmax)) != 0)
		return bm__fail(ctx, rc, "BENCHMP_PROCESSES: '%.64s' is %s "
		    "(MIN or MIN:MAX rounds, 1 to %u, MAX not below MIN)",
		    procs, rc == BM_EPARSE ? "not a number" : "out of range",
		    BM_MAX_PROCESSES);
	events = getenv("BENCHMP_EVENTS");
	if (events != NULL && *events != '\0' &&
	    (rc = bm__events_parse(&ev, events, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "BENCHMP_EVENTS: %s", err);
	timer = getenv("BENCHMP_TIMER");
	if (timer != NULL && *timer != '\0') {
		memset(&t, 0, sizeof t);
		if ((rc = bm__timer_init(&t, timer, err, sizeof err)) != 0)
			return bm__fail(ctx, rc, "BENCHMP_TIMER: %s", err);
		bm__timer_fini(&ctx->timer);
		ctx->timer = t;
		ctx->known &= ctx->cal.from_env;
	}
	if (sched != NULL)
		ctx->sched = s;
	if (pmin != 0) {
		ctx->proc_min = pmin;
		ctx->proc_max = pmax;
	}
	if (events != NULL && *events != '\0') {
		bm__events_probe(&ev);
		ctx->events = ev;
	}
	for (i = 0; i < CTX_NCALVARS; i++) {
		if (set[i])
			ctx_cal_store(ctx, ctx_calvars[i].which, values[i]);
	}
	ctx->err[0] = '\0';
	return 0;
}
