/* ctx.c: the context: its settings, resolved from their sources, and their sources. */
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

/*
 * The clock TIMING_O from the environment was measured on, unless
 * BENCHMP_OVERHEAD_CLOCK names another: the default timer's, which the
 * calibration tools and benchmp-run's exports use.  A clock's reading
 * cost is its own: the thread's CPU clock cost 0.52 us where the
 * monotonic clock's cost 0.02 us, and mhz corrected by the latter's
 * TIMING_O contradicted the machine 26 times over.  LOOP_O is the
 * processor's (an empty iteration's time, from the slope of loops of two
 * lengths, where a reading's cost cancels), so it holds on any clock, and
 * the suite's one value reaches every tool.
 */
#define CTX_OVERHEAD_CLOCK "posix-monotonic"

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
	ctx->timer_builds = 1;
	ctx->cal.settled = 1;
	ctx->meet = BM__MEET_DEFAULT;
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
	free(ctx->output);
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

/* The calibration values some source gave (not measured): BM_CAL_* bits. */
static unsigned
ctx_cal_given(const bm_ctx *ctx)
{
	unsigned given = 0;

	if (ctx->source[BM_SETTING_ENOUGH] != BM_SOURCE_BUILTIN)
		given |= BM_CAL_ENOUGH;
	if (ctx->source[BM_SETTING_TIMING_O] != BM_SOURCE_BUILTIN)
		given |= BM_CAL_TIMING_O;
	if (ctx->source[BM_SETTING_LOOP_O] != BM_SOURCE_BUILTIN)
		given |= BM_CAL_LOOP_O;
	return given;
}

/*
 * Make a built timer the context's.  Measured calibration values belong
 * to the old clock (its read cost is timing_o), so they are forgotten;
 * values a source gave stay.
 */
static void
ctx_timer_apply(bm_ctx *ctx, bm__timer *t, int source)
{
	bm__timer_fini(&ctx->timer);
	ctx->timer = *t;
	ctx->timer_builds++;
	ctx->known &= ctx_cal_given(ctx);
	/* A measured rate is the old counter's; a given one stays. */
	ctx->rate.known = 0;
	ctx->source[BM_SETTING_TIMER] = (unsigned char)source;
}

/* Switch to the timer a config string names, as a command line would. */
int
bm_ctx_set_timer(bm_ctx *ctx, const char *config)
{
	bm__timer t;
	char err[BM__ERR_MAX];
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if (config == NULL || *config == '\0')
		return 0;
	/* mLib's "list": print the subtimers; alone, it changes nothing. */
	if (bm_timer_config_wants_list(config)) {
		if ((rc = bm__timer_check(config, err, sizeof err)) != 0)
			return bm__fail(ctx, rc, "%s", err);
		if ((rc = bm_timer_list_print()) != 0)
			return bm__fail(ctx, rc, "cannot print the timer list: "
			    "%s", bm_strerror(rc));
		if (bm__timer_config_only_list(config))
			return 0;
	}
	memset(&t, 0, sizeof t);
	if ((rc = bm__timer_init(&t, config, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s", err);
	ctx_timer_apply(ctx, &t, BM_SOURCE_CMDLINE);
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
	char err[BM__ERR_MAX];
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((rc = bm__sched_parse(&s, policy, err, sizeof err)) != 0 ||
	    (rc = bm__sched_check(&s, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s", err);
	ctx->sched = s;
	ctx->source[BM_SETTING_SCHED] = BM_SOURCE_CMDLINE;
	return 0;
}

/* Choose the perf events counted with every interval. */
int
bm_ctx_set_events(bm_ctx *ctx, const char *list)
{
	bm__events ev;
	char err[BM__ERR_MAX];
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((rc = bm__events_parse(&ev, list, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s", err);
	bm__events_probe(&ev);
	ctx->events = ev;
	ctx->source[BM_SETTING_EVENTS] = BM_SOURCE_CMDLINE;
	return 0;
}

/* Switch the context's regions on or off, as a command line would. */
int
bm_ctx_set_regions(bm_ctx *ctx, int on)
{
	if (ctx == NULL || (on != 0 && on != 1))
		return -EINVAL;
	ctx->regions_off = !on;
	ctx->source[BM_SETTING_REGIONS] = BM_SOURCE_CMDLINE;
	return 0;
}

/* Return 1 when the context's regions are on. */
int
bm_ctx_regions(const bm_ctx *ctx)
{
	return ctx != NULL && !ctx->regions_off;
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

/* The setting a calibration value (BM_CAL_*) is. */
static unsigned
ctx_cal_setting(unsigned which)
{
	return which == BM_CAL_ENOUGH ? BM_SETTING_ENOUGH :
	    which == BM_CAL_TIMING_O ? BM_SETTING_TIMING_O : BM_SETTING_LOOP_O;
}

/*
 * Store a checked calibration value given by a source: it is known, and
 * from_env says whether the environment (or bm_ctx_set_calibration) gave
 * it.
 */
static void
ctx_cal_store(bm_ctx *ctx, unsigned which, double value, int source)
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
	if (source == BM_SOURCE_ENV)
		ctx->cal.from_env |= which;
	else
		ctx->cal.from_env &= ~which;
	ctx->source[ctx_cal_setting(which)] = (unsigned char)source;
}

/* Fail for a calibration selector that is none of BM_CAL_*. */
static int
ctx_cal_unknown(bm_ctx *ctx, unsigned which)
{
	return bm__fail(ctx, -EINVAL, "unknown calibration value %#x "
	    "(expected BM_CAL_ENOUGH, BM_CAL_TIMING_O or BM_CAL_LOOP_O)",
	    which);
}

/*
 * Check and store one calibration value as coming from source; with keep,
 * a value a higher source gave stays (a program's default).
 */
static int
ctx_cal_put(bm_ctx *ctx, unsigned which, double value, int source, int keep)
{
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if ((rc = ctx_cal_check(which, value)) == -EINVAL)
		return ctx_cal_unknown(ctx, which);
	if (keep && ctx->source[ctx_cal_setting(which)] > source)
		return 0;
	if (rc != 0)
		return bm__fail(ctx, rc, "calibration value %g out of range",
		    value);
	ctx_cal_store(ctx, which, value, source);
	return 0;
}

/* Set one calibration value by hand, exactly as the environment would. */
int
bm_ctx_set_calibration(bm_ctx *ctx, unsigned which, double value)
{
	return ctx_cal_put(ctx, which, value, BM_SOURCE_ENV, 0);
}

/* A program's default for one calibration value, below the environment. */
int
bm_ctx_default_calibration(bm_ctx *ctx, unsigned which, double value)
{
	return ctx_cal_put(ctx, which, value, BM_SOURCE_TOOL, 1);
}

/* A program's value for one calibration value, over every other source. */
int
bm_ctx_force_calibration(bm_ctx *ctx, unsigned which, double value)
{
	return ctx_cal_put(ctx, which, value, BM_SOURCE_TOOL, 0);
}

/* Give the cycle subtimer's rate as a command line would; 0 forgets it. */
int
bm_ctx_set_cycle_hz(bm_ctx *ctx, double hz)
{
	if (ctx == NULL)
		return -EINVAL;
	if (hz != 0 && !(hz >= BM_CYCLE_HZ_MIN && hz <= BM_CYCLE_HZ_MAX))
		return bm__fail(ctx, BM_ERANGE, "cycle rate %g Hz out of range "
		    "(%g to %g, or 0)", hz, BM_CYCLE_HZ_MIN, BM_CYCLE_HZ_MAX);
	ctx->rate.given_hz = hz;
	ctx->rate.known = 0;
	ctx->source[BM_SETTING_TSC_HZ] = hz != 0 ? BM_SOURCE_CMDLINE :
	    BM_SOURCE_BUILTIN;
	return 0;
}

/* The cycle subtimer's rate, measured now if it is not known yet. */
int
bm_ctx_cycle_hz(bm_ctx *ctx, double *hz, int *invariant)
{
	if (ctx == NULL || hz == NULL)
		return -EINVAL;
	bm__tsc_settle(ctx);
	*hz = ctx->rate.hz;
	if (invariant != NULL)
		*invariant = ctx->rate.invariant;
	if (ctx->rate.status != 0)
		return bm__fail(ctx, ctx->rate.status, "%s", ctx->rate.detail);
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
	ctx->source[BM_SETTING_PROCESSES] = BM_SOURCE_CMDLINE;
	return 0;
}

/* Hold figures to a precision: noisy past share of them (see benchmp.h). */
int
bm_ctx_set_precision(bm_ctx *ctx, double share)
{
	if (ctx == NULL)
		return -EINVAL;
	if (!(share >= 0.001 && share <= 1))
		return bm__fail(ctx, BM_ERANGE, "precision %g out of range "
		    "(0.1%% to 100%%)", share * 100);
	ctx->precision = share;
	return 0;
}

/* Account for interference (on 1) or not (0). */
int
bm_ctx_set_interference(bm_ctx *ctx, int on)
{
	if (ctx == NULL)
		return -EINVAL;
	ctx->interference_off = !on;
	ctx->source[BM_SETTING_INTERFERENCE] = BM_SOURCE_CMDLINE;
	return 0;
}

/* One calibration variable and how to read it. */
static const struct ctx_calvar {
	const char *name;
	const char *option;
	unsigned which;
	int integer;
	double max;
	const char *range;
} ctx_calvars[] = {
	{ "ENOUGH", "--enough", BM_CAL_ENOUGH, 1, CTX_ENOUGH_MAX,
	    "an integer from 1 to 60000000 microseconds" },
	{ "TIMING_O", NULL, BM_CAL_TIMING_O, 0, CTX_TIMING_O_MAX,
	    "0 to 1000000 microseconds" },
	{ "LOOP_O", NULL, BM_CAL_LOOP_O, 0, CTX_LOOP_O_MAX,
	    "0 to 1000 microseconds" },
};
#define CTX_NCALVARS (sizeof ctx_calvars / sizeof ctx_calvars[0])

/* Parse a calibration value s given as name; 0 or an error naming it. */
static int
ctx_parse_cal(bm_ctx *ctx, const struct ctx_calvar *v, const char *name,
    const char *s, double *value)
{
	uint64_t u;
	int rc;

	if (v->integer) {
		rc = bm_parse_uint(s, CTX_ENOUGH_MIN, CTX_ENOUGH_MAX, &u);
		/* u is set only on success (valgrind saw the read). */
		if (rc == 0)
			*value = (double)u;
	} else
		rc = bm_parse_double(s, 0.0, v->max, value);
	if (rc == BM_EPARSE)
		return bm__fail(ctx, rc, "%s: '%.64s' is not a number (%s)",
		    name, s, v->range);
	if (rc != 0)
		return bm__fail(ctx, rc, "%s: '%.64s' is out of range (%s)",
		    name, s, v->range);
	return 0;
}

/* A variable's value, or NULL when it is unset or empty. */
static const char *
ctx_getenv(const char *name)
{
	const char *s = getenv(name);

	return s != NULL && *s != '\0' ? s : NULL;
}

/* Check a sink spec given as name without opening it. */
static int
ctx_check_sink(bm_ctx *ctx, const char *spec, const char *name)
{
	char detail[BM__ERR_MAX];
	const char *arg;
	int kind, rc;

	if ((rc = bm__sink_parse(ctx, spec, &kind, &arg)) == 0)
		return 0;
	snprintf(detail, sizeof detail, "%s", ctx->err);
	return bm__fail(ctx, rc, "%s: %s", name, detail);
}

/* Check a timer config given as name without building it. */
static int
ctx_check_timer(bm_ctx *ctx, const char *config, const char *name)
{
	char err[BM__ERR_MAX];
	int rc;

	if ((rc = bm__timer_check(config, err, sizeof err)) != 0)
		return bm__fail(ctx, rc, "%s: %s", name, err);
	return 0;
}

/* What each source is called in an error about the timer or the sink. */
static const char *const ctx_timer_names[] = { "the built-in timer",
	"the program's default timer", "BENCHMP_TIMER", "--timer" };
static const char *const ctx_output_names[] = { "the built-in sink",
	"the program's default sink", "BENCHMP_OUTPUT", "--output" };

/*
 * The values read from every source, checked, and the one that wins for
 * each setting (NULL or 0 where no source gave one).
 */
struct ctx_resolved {
	double cal[CTX_NCALVARS];
	int cal_src[CTX_NCALVARS];	/* BM_SOURCE_BUILTIN: not given */
	const char *sched;
	bm__sched s;
	unsigned pmin, pmax;		/* pmin 0: not given */
	int procs_src;
	const char *events;
	bm__events ev;
	int events_src;
	const char *timer;
	int timer_src;
	const char *output;
	int output_src;
	int regions;			/* -1: not given, else 0 off or 1 on */
	int interference;		/* -1: not given, else 0 off or 1 on */
	int interference_src;
	double tsc_hz;			/* 0: not given */
	const char *ov_clock;		/* BENCHMP_OVERHEAD_CLOCK, or NULL */
};

/* Parse an on/off switch: 1, 0, or -1 for anything else. */
static int
ctx_parse_switch(const char *s)
{
	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0)
		return 1;
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0)
		return 0;
	return -1;
}

/* Read and check the environment, in the order it was always checked. */
static int
ctx_read_env(bm_ctx *ctx, const bm_settings *st, struct ctx_resolved *r)
{
	const char *sched_var = "BENCHMP_SCHED", *v;
	char err[BM__ERR_MAX];
	size_t i;
	int rc;

	for (i = 0; i < CTX_NCALVARS; i++) {
		if ((v = ctx_getenv(ctx_calvars[i].name)) == NULL)
			continue;
		if ((rc = ctx_parse_cal(ctx, &ctx_calvars[i],
		    ctx_calvars[i].name, v, &r->cal[i])) != 0)
			return rc;
		r->cal_src[i] = BM_SOURCE_ENV;
	}
	/* LMBENCH_SCHED counts when BENCHMP_SCHED is unset, even empty. */
	if ((r->sched = ctx_getenv(sched_var)) == NULL) {
		sched_var = "LMBENCH_SCHED";
		r->sched = getenv(sched_var);
	}
	if (r->sched != NULL && ((rc = bm__sched_parse(&r->s, r->sched, err,
	    sizeof err)) != 0 || (rc = bm__sched_check(&r->s, err,
	    sizeof err)) != 0))
		return bm__fail(ctx, rc, "%s: %s", sched_var, err);
	if ((v = ctx_getenv("BENCHMP_PROCESSES")) != NULL) {
		if ((rc = bm_parse_processes(v, &r->pmin, &r->pmax)) != 0)
			return bm__fail(ctx, rc, "BENCHMP_PROCESSES: '%.64s' "
			    "is %s (MIN or MIN:MAX rounds, 1 to %u, MAX not "
			    "below MIN)", v, rc == BM_EPARSE ? "not a number" :
			    "out of range", BM_MAX_PROCESSES);
		r->procs_src = BM_SOURCE_ENV;
	}
	if ((v = ctx_getenv("BENCHMP_EVENTS")) != NULL) {
		if ((rc = bm__events_parse(&r->ev, v, err, sizeof err)) != 0)
			return bm__fail(ctx, rc, "BENCHMP_EVENTS: %s", err);
		r->events = v;
		r->events_src = BM_SOURCE_ENV;
	}
	if ((v = ctx_getenv("BENCHMP_TIMER")) != NULL) {
		/*
		 * list is a request typed on the command line: exported, it
		 * would make every tool print the list and measure nothing.
		 */
		if (st->timer == NULL && bm_timer_config_wants_list(v))
			return bm__fail(ctx, BM_ECONFIG, "BENCHMP_TIMER: 'list' "
			    "is a command-line request (--timer=list), not a "
			    "setting");
		if ((rc = ctx_check_timer(ctx, v, "BENCHMP_TIMER")) != 0)
			return rc;
		r->timer = v;
		r->timer_src = BM_SOURCE_ENV;
	}
	if ((v = ctx_getenv("BENCHMP_OUTPUT")) != NULL) {
		if ((rc = ctx_check_sink(ctx, v, "BENCHMP_OUTPUT")) != 0)
			return rc;
		r->output = v;
		r->output_src = BM_SOURCE_ENV;
	}
	if ((v = ctx_getenv("BENCHMP_REGIONS")) != NULL &&
	    (r->regions = ctx_parse_switch(v)) < 0)
		return bm__fail(ctx, BM_EPARSE, "BENCHMP_REGIONS: '%.64s' is "
		    "neither on nor off", v);
	if ((v = ctx_getenv("BENCHMP_INTERFERENCE")) != NULL) {
		if ((r->interference = ctx_parse_switch(v)) < 0)
			return bm__fail(ctx, BM_EPARSE, "BENCHMP_INTERFERENCE: "
			    "'%.64s' is neither on nor off", v);
		r->interference_src = BM_SOURCE_ENV;
	}
	if ((v = ctx_getenv("BENCHMP_OVERHEAD_CLOCK")) != NULL) {
		if (strlen(v) >= sizeof ctx->cal_clock ||
		    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
		    strlen(v))
			return bm__fail(ctx, BM_EPARSE, "BENCHMP_OVERHEAD_CLOCK:"
			    " '%.64s' is not a clock's name (posix-monotonic, "
			    "...: --timer=list)", v);
		r->ov_clock = v;
	}
	if ((v = ctx_getenv("BENCHMP_TSC_HZ")) != NULL &&
	    (rc = bm_parse_double(v, BM_CYCLE_HZ_MIN, BM_CYCLE_HZ_MAX,
	    &r->tsc_hz)) != 0)
		return bm__fail(ctx, rc, "BENCHMP_TSC_HZ: '%.64s' is %s (cycles "
		    "per second, %g to %g)", v, rc == BM_EPARSE ?
		    "not a number" : "out of range", BM_CYCLE_HZ_MIN,
		    BM_CYCLE_HZ_MAX);
	return 0;
}

/*
 * Whether calibration variable i of r is TIMING_O given by the
 * environment for another clock than the context's: then it is set aside
 * (measured afresh for this clock, and neither corrects nor flags a
 * figure) and the context says so for the record.
 */
static int
ctx_cal_other_clock(bm_ctx *ctx, const struct ctx_resolved *r, size_t i)
{
	const char *clock = bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK);
	const char *given = r->ov_clock != NULL ? r->ov_clock :
	    CTX_OVERHEAD_CLOCK;

	if (r->cal_src[i] != BM_SOURCE_ENV ||
	    ctx_calvars[i].which != BM_CAL_TIMING_O || clock == NULL ||
	    strcmp(clock, given) == 0)
		return 0;
	ctx->cal_other_clock |= ctx_calvars[i].which;
	(void)snprintf(ctx->cal_clock, sizeof ctx->cal_clock, "%s", given);
	return 1;
}

/* Check the program's defaults; each is used where nothing else is. */
static int
ctx_read_defaults(bm_ctx *ctx, const bm_settings *st, struct ctx_resolved *r)
{
	int rc;

	if (st->enough_default_us != 0) {
		if (ctx_cal_check(BM_CAL_ENOUGH,
		    (double)st->enough_default_us) != 0)
			return bm__fail(ctx, BM_ERANGE, "the program's default "
			    "ENOUGH %llu is out of range (%s)",
			    (unsigned long long)st->enough_default_us,
			    ctx_calvars[0].range);
		if (r->cal_src[0] == BM_SOURCE_BUILTIN) {
			r->cal[0] = (double)st->enough_default_us;
			r->cal_src[0] = BM_SOURCE_TOOL;
		}
	}
	if (st->timer_default != NULL) {
		if ((rc = ctx_check_timer(ctx, st->timer_default,
		    ctx_timer_names[BM_SOURCE_TOOL])) != 0)
			return rc;
		if (r->timer == NULL) {
			r->timer = st->timer_default;
			r->timer_src = BM_SOURCE_TOOL;
		}
	}
	if (st->output_default != NULL) {
		if ((rc = ctx_check_sink(ctx, st->output_default,
		    ctx_output_names[BM_SOURCE_TOOL])) != 0)
			return rc;
		if (r->output == NULL) {
			r->output = st->output_default;
			r->output_src = BM_SOURCE_TOOL;
		}
	}
	return 0;
}

/* Check the command line; what it gives wins. */
static int
ctx_read_cmdline(bm_ctx *ctx, const bm_settings *st, struct ctx_resolved *r)
{
	char err[BM__ERR_MAX];
	int rc;

	if (st->enough != NULL) {
		if ((rc = ctx_parse_cal(ctx, &ctx_calvars[0],
		    ctx_calvars[0].option, st->enough, &r->cal[0])) != 0)
			return rc;
		r->cal_src[0] = BM_SOURCE_CMDLINE;
	}
	if (st->processes != NULL) {
		if ((rc = bm_parse_processes(st->processes, &r->pmin,
		    &r->pmax)) != 0)
			return bm__fail(ctx, rc, "--processes: '%.64s' is %s "
			    "(MIN or MIN:MAX, 1 to %u)", st->processes,
			    rc == BM_EPARSE ? "not a number" : "out of range",
			    BM_MAX_PROCESSES);
		r->procs_src = BM_SOURCE_CMDLINE;
	}
	if (st->events != NULL) {
		if ((rc = bm__events_parse(&r->ev, st->events, err,
		    sizeof err)) != 0)
			return bm__fail(ctx, rc, "--events: %s", err);
		r->events = st->events;
		r->events_src = BM_SOURCE_CMDLINE;
	}
	if (st->timer != NULL) {
		if (*st->timer == '\0')
			return bm__fail(ctx, BM_EPARSE, "--timer: empty config");
		if ((rc = ctx_check_timer(ctx, st->timer, "--timer")) != 0)
			return rc;
		r->timer = st->timer;
		r->timer_src = BM_SOURCE_CMDLINE;
	}
	if (st->output != NULL) {
		if ((rc = ctx_check_sink(ctx, st->output, "--output")) != 0)
			return rc;
		r->output = st->output;
		r->output_src = BM_SOURCE_CMDLINE;
	}
	if (st->interference != NULL) {
		if ((r->interference = ctx_parse_switch(st->interference)) < 0)
			return bm__fail(ctx, BM_EPARSE, "interference: '%.64s' "
			    "is neither on nor off", st->interference);
		r->interference_src = BM_SOURCE_CMDLINE;
	}
	return 0;
}

/*
 * Resolve every setting: the environment, then the program's defaults
 * below it and the command line above it, all checked; then build the
 * winning timer once and copy the winning sink spec, the two steps that
 * can still fail; then apply everything.
 */
int
bm_ctx_configure(bm_ctx *ctx, const bm_settings *st)
{
	static const bm_settings none;
	struct ctx_resolved *r;
	char err[BM__ERR_MAX];
	char *output = NULL;
	bm__timer t;
	size_t i;
	int rc;

	if (ctx == NULL)
		return -EINVAL;
	if (st == NULL)
		st = &none;
	/*
	 * On the heap: 4.5 KB (a CPU list, the events) that every tool's
	 * start would put on a stack its user may bound (ulimit -s).
	 */
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for the settings");
	r->regions = -1;
	r->interference = -1;
	if ((rc = ctx_read_env(ctx, st, r)) != 0 ||
	    (rc = ctx_read_defaults(ctx, st, r)) != 0 ||
	    (rc = ctx_read_cmdline(ctx, st, r)) != 0) {
		free(r);
		return rc;
	}
	memset(&t, 0, sizeof t);
	if (r->timer != NULL && (rc = bm__timer_init(&t, r->timer, err,
	    sizeof err)) != 0) {
		rc = bm__fail(ctx, rc, "%s: %s", ctx_timer_names[r->timer_src],
		    err);
		free(r);
		return rc;
	}
	if (r->output != NULL && (output = strdup(r->output)) == NULL) {
		if (r->timer != NULL)
			bm__timer_fini(&t);
		free(r);
		return bm__fail(ctx, -ENOMEM, "no memory for the sink spec");
	}
	if (r->timer != NULL)
		ctx_timer_apply(ctx, &t, r->timer_src);
	if (r->sched != NULL) {
		ctx->sched = r->s;
		ctx->source[BM_SETTING_SCHED] = BM_SOURCE_ENV;
	}
	if (r->pmin != 0) {
		ctx->proc_min = r->pmin;
		ctx->proc_max = r->pmax;
		ctx->source[BM_SETTING_PROCESSES] = (unsigned char)r->procs_src;
	}
	if (r->events != NULL) {
		bm__events_probe(&r->ev);
		ctx->events = r->ev;
		ctx->source[BM_SETTING_EVENTS] = (unsigned char)r->events_src;
	}
	if (output != NULL) {
		free(ctx->output);
		ctx->output = output;
		ctx->source[BM_SETTING_OUTPUT] = (unsigned char)r->output_src;
	}
	/* bm_ctx_set_regions() is the command line's, above the variable. */
	if (r->regions >= 0 && ctx->source[BM_SETTING_REGIONS] <=
	    BM_SOURCE_ENV) {
		ctx->regions_off = !r->regions;
		ctx->source[BM_SETTING_REGIONS] = BM_SOURCE_ENV;
	}
	/* bm_ctx_set_interference() is the command line's too. */
	if (r->interference >= 0 && ctx->source[BM_SETTING_INTERFERENCE] <=
	    r->interference_src) {
		ctx->interference_off = !r->interference;
		ctx->source[BM_SETTING_INTERFERENCE] =
		    (unsigned char)r->interference_src;
	}
	/* bm_ctx_set_cycle_hz() is the command line's, above the variable. */
	if (r->tsc_hz > 0 && ctx->source[BM_SETTING_TSC_HZ] <= BM_SOURCE_ENV) {
		ctx->rate.given_hz = r->tsc_hz;
		ctx->rate.known = 0;
		ctx->source[BM_SETTING_TSC_HZ] = BM_SOURCE_ENV;
	}
	ctx->cal_other_clock = 0;
	for (i = 0; i < CTX_NCALVARS; i++) {
		if (r->cal_src[i] != BM_SOURCE_BUILTIN &&
		    !ctx_cal_other_clock(ctx, r, i))
			ctx_cal_store(ctx, ctx_calvars[i].which, r->cal[i],
			    r->cal_src[i]);
	}
	free(r);
	ctx->err[0] = '\0';
	return 0;
}

/* Read the environment alone: no program defaults, no command line. */
int
bm_ctx_load_env(bm_ctx *ctx)
{
	return bm_ctx_configure(ctx, NULL);
}

/* The source of one setting. */
int
bm_ctx_source(const bm_ctx *ctx, unsigned setting)
{
	if (ctx == NULL || setting >= BM_NSETTINGS)
		return -EINVAL;
	return ctx->source[setting];
}

/* The name of a source, as the record writes it. */
const char *
bm_source_name(int source)
{
	static const char *const names[] = { "builtin", "tool", "env",
	    "cmdline" };

	if (source < BM_SOURCE_BUILTIN || source > BM_SOURCE_CMDLINE)
		return NULL;
	return names[source];
}

/* The sink spec the settings chose, or NULL. */
const char *
bm_ctx_output(const bm_ctx *ctx)
{
	return ctx != NULL ? ctx->output : NULL;
}
