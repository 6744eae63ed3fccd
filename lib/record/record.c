/* record.c: a result as one line of JSON (JSON Lines). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/*
 * record.c writes through the JSON writer (json.c) under its own names,
 * so that the formatting functions below read as they did before the
 * writer moved (and changes to them merge).
 */
#define rec_buf		bm__json
#define rec_printf	bm__json_printf
#define rec_string	bm__json_string
#define rec_number	bm__json_number
#define rec_kstr	bm__json_kstr
#define rec_knum	bm__json_knum
#define rec_list	bm__json_list

/*
 * Append the modes of st, when it has them: each one's centre, share of
 * the values and count, lower first.
 */
static void
rec_modes(struct rec_buf *b, const bm_stats *st)
{
	unsigned i;

	if (st->nmodes == 0)
		return;
	rec_printf(b, ",\"modes\":[");
	for (i = 0; i < st->nmodes && i < BM_MAX_MODES; i++) {
		rec_printf(b, "%s{\"centre\":", i > 0 ? "," : "");
		rec_number(b, st->modes[i].centre);
		rec_knum(b, "share", st->modes[i].share);
		rec_printf(b, ",\"count\":%u}", st->modes[i].count);
	}
	rec_printf(b, "]");
}

/*
 * Append the interval of st, widened to floor times the median on each
 * side when floor is not 0 (then with the floor and the statistical
 * interval), what it covers, and its two flags, noisy as decided.
 */
static void
rec_interval(struct rec_buf *b, const bm_stats *st, double floor, int noisy)
{
	double lo, hi;

	/*
	 * No interval (one value, ci_level 0): none is shown, and no floor
	 * makes one up.
	 */
	if (!(st->ci_level > 0)) {
		rec_printf(b, ",\"ci_lo\":null,\"ci_hi\":null");
		rec_knum(b, "ci_level", 0);
		goto flags;
	}
	bm__stats_interval(st, floor, &lo, &hi);
	rec_knum(b, "ci_lo", lo);
	rec_knum(b, "ci_hi", hi);
	rec_knum(b, "ci_level", st->ci_level);
	if (floor > 0) {
		rec_knum(b, "ci_floor", floor);
		rec_knum(b, "ci_stat_lo", st->ci_lo);
		rec_knum(b, "ci_stat_hi", st->ci_hi);
	}
flags:
	rec_printf(b, ",\"noisy\":%s,\"bimodal\":%s", noisy ? "true" : "false",
	    st->flags & BM_STATS_BIMODAL ? "true" : "false");
	rec_modes(b, st);
}

/*
 * Append the interval of a figure shown as stat ("best process", a
 * served figure's "median of visits", a derived figure's "median of
 * processes"): the prediction of the next run's
 * figure, lo to hi, at the level recorded suites gave it, with its floor
 * when it has one, and noisy as decided; the median's own
 * order-statistic interval follows as median_ci_lo, median_ci_hi and
 * median_ci_level.
 */
static void
rec_interval_next(struct rec_buf *b, const bm_stats *st, const char *stat,
    double lo, double hi, double level, double floor, int noisy)
{
	rec_printf(b, ",\"stat\":\"%s\"", stat);
	rec_knum(b, "ci_lo", lo);
	rec_knum(b, "ci_hi", hi);
	rec_knum(b, "ci_level", level);
	rec_printf(b, ",\"ci_kind\":\"next run\"");
	if (floor > 0)
		rec_knum(b, "ci_floor", floor);
	rec_knum(b, "median_ci_lo", st->ci_level > 0 ? st->ci_lo : NAN);
	rec_knum(b, "median_ci_hi", st->ci_level > 0 ? st->ci_hi : NAN);
	rec_knum(b, "median_ci_level", st->ci_level);
	rec_printf(b, ",\"noisy\":%s,\"bimodal\":%s", noisy ? "true" : "false",
	    st->flags & BM_STATS_BIMODAL ? "true" : "false");
	rec_modes(b, st);
}

/*
 * Append a figure's statistics (figure.c) as members, each with its
 * leading comma: at the process level (over the rounds' medians, see
 * bm_stats_levels), with the scatter inside processes under "within",
 * every value under "values" (a round after another), every round's
 * median under "process_values" and how many values each round gave
 * under "process_samples" (rounds of one figure may give different
 * counts: lat_fs's).  The one list of these members: a record and
 * bm_stats_json() both write them here, noisy as decided
 * (bm__figure_noisy).  The interval is rb's where rb is not NULL, else
 * next's (a served figure's, or a derived one's with LEVELS_DERIVED),
 * else the median's; none with LEVELS_NONE.
 */
#define LEVELS_DERIVED	(1u << 0)
#define LEVELS_NONE	(1u << 1)
static void
record_levels(struct rec_buf *b, const struct bm__figure *f, int noisy,
    const bm__robust *rb, const double *next, unsigned how)
{
	const bm_stats *st = &f->proc, *in = &f->within;

	rec_knum(b, "median", st->median);
	rec_knum(b, "min", st->min);
	rec_knum(b, "max", st->max);
	rec_knum(b, "mean", st->mean);
	rec_knum(b, "stddev", st->stddev);
	rec_knum(b, "cv", st->cv);
	if (how & LEVELS_NONE)
		rec_interval_next(b, st, rb != NULL ? "best process" : "median",
		    NAN, NAN, 0, 0, noisy);
	else if (rb != NULL)
		rec_interval_next(b, st, "best process", rb->ci_lo, rb->ci_hi,
		    BM__ROBUST_LEVEL, 0, noisy);
	else if (next != NULL && (how & LEVELS_DERIVED))
		rec_interval_next(b, st, "median of processes", next[0],
		    next[1], BM__DERIVED_LEVEL, BM__SERVED_FLOOR, noisy);
	else if (next != NULL)
		rec_interval_next(b, st, "median of visits", next[0], next[1],
		    BM__SERVED_LEVEL, BM__SERVED_FLOOR, noisy);
	else
		rec_interval(b, st, BM__CI_FLOOR, noisy);
	rec_printf(b, ",\"samples\":%zu,\"processes\":%u", f->n, f->nr);
	rec_printf(b, ",\"within\":{\"median\":");
	rec_number(b, in->median);
	rec_knum(b, "cv", in->cv);
	rec_interval(b, in, 0, (in->flags & BM_STATS_NOISY) != 0);
	rec_printf(b, "}");
	rec_list(b, "values", f->x, f->n);
	rec_list(b, "process_values", f->med, f->nr);
	rec_list(b, "process_samples", f->count, f->nr);
}

/*
 * A figure's statistics as a record has them (record_levels), next a
 * served figure's decided interval when not NULL.
 */
void
bm__record_levels(struct rec_buf *b, const struct bm__figure *f,
    int noisy, const bm__robust *rb, const double *next)
{
	record_levels(b, f, noisy, rb, next, 0);
}

/* Say what a cycle subtimer counts. */
static const char *
rec_cycle_kind(const char *name)
{
	if (name == NULL || strcmp(name, "null") == 0)
		return NULL;
	if (strncmp(name, "x86-rdtsc", 9) == 0)
		return "TSC reference cycles";
	return "core cycles";
}

/*
 * Append where each setting came from (builtin, tool, env or cmdline),
 * as bm_ctx_configure() resolved it.
 */
static void
rec_sources(struct rec_buf *b, const bm_ctx *ctx)
{
	static const char *const keys[BM_NSETTINGS] = {
		[BM_SETTING_TIMER] = "timer",
		[BM_SETTING_ENOUGH] = "enough",
		[BM_SETTING_TIMING_O] = "timing_o",
		[BM_SETTING_LOOP_O] = "loop_o",
		[BM_SETTING_SCHED] = "sched",
		[BM_SETTING_PROCESSES] = "processes",
		[BM_SETTING_EVENTS] = "events",
		[BM_SETTING_OUTPUT] = "output",
		[BM_SETTING_REGIONS] = "regions",
		[BM_SETTING_TSC_HZ] = "tsc_hz",
		[BM_SETTING_INTERFERENCE] = "interference"
	};
	unsigned i;

	rec_printf(b, ",\"sources\":{");
	for (i = 0; i < BM_NSETTINGS; i++)
		rec_printf(b, "%s\"%s\":\"%s\"", i > 0 ? "," : "", keys[i],
		    bm_source_name(bm_ctx_source(ctx, i)));
	rec_printf(b, "}");
}

/*
 * The cycle subtimer's rate as the context decided it (bm_calibrate), or
 * NAN: a record only reads the context, it never measures.
 */
static double
rec_cycle_hz(const bm_ctx *ctx)
{
	if (ctx == NULL || !ctx->rate.known || ctx->rate.status != 0)
		return NAN;
	return ctx->rate.hz;
}

/*
 * Append the cycle rate: the rate (null where cycles are not converted),
 * where it came from (measured, env or cmdline), whether the counter
 * ticks at a constant rate (null for one that is no reference counter),
 * and how that was found or why there is no rate.
 */
static void
rec_cycle_rate(struct rec_buf *b, const bm_ctx *ctx)
{
	const bm__cycle_rate *r = &ctx->rate;
	const char *src = NULL;

	rec_knum(b, "cycle_hz", rec_cycle_hz(ctx));
	if (isfinite(rec_cycle_hz(ctx)))
		src = r->measured ? "measured" :
		    bm_source_name(bm_ctx_source(ctx, BM_SETTING_TSC_HZ));
	rec_kstr(b, "cycle_hz_source", src);
	rec_knum(b, "cycle_hz_spread", r->known && r->measured ? r->spread :
	    NAN);
	rec_printf(b, ",\"cycle_invariant\":%s", !r->known ||
	    r->invariant < 0 ? "null" : r->invariant ? "true" : "false");
	rec_kstr(b, "cycle_hz_detail", r->known ? r->detail : NULL);
}

/* Append the calibration and timer the context used. */
static void
rec_context(struct rec_buf *b, const bm_ctx *ctx)
{
	if (ctx == NULL) {
		rec_printf(b, ",\"calibration\":null,\"sources\":null,"
		    "\"timer\":null");
		return;
	}
	rec_printf(b, ",\"calibration\":{\"enough_us\":%llu",
	    (unsigned long long)ctx->cal.enough_us);
	rec_knum(b, "timing_o_us", ctx->cal.timing_o_us);
	rec_knum(b, "loop_o_us", ctx->cal.loop_o_us);
	rec_knum(b, "cycle_o", ctx->known & BM__KNOWN_CYCLES ?
	    ctx->cal.cycle_o : NAN);
	rec_knum(b, "loop_o_cycles", ctx->known & BM__KNOWN_CYCLES ?
	    ctx->cal.loop_o_cycles : NAN);
	rec_printf(b, ",\"settled\":%s,\"disturbed_probes\":%u",
	    ctx->cal.settled ? "true" : "false", ctx->cal.disturbed);
	rec_printf(b, ",\"from_env\":{\"enough\":%s,\"timing_o\":%s,"
	    "\"loop_o\":%s}",
	    ctx->cal.from_env & BM_CAL_ENOUGH ? "true" : "false",
	    ctx->cal.from_env & BM_CAL_TIMING_O ? "true" : "false",
	    ctx->cal.from_env & BM_CAL_LOOP_O ? "true" : "false");
	/* TIMING_O the environment gave for another clock: set aside. */
	if (ctx->cal_other_clock & BM_CAL_TIMING_O) {
		rec_printf(b, ",\"env_other_clock\":{\"clock\":");
		rec_string(b, ctx->cal_clock);
		rec_printf(b, ",\"timing_o\":true}}");
	} else
		rec_printf(b, ",\"env_other_clock\":null}");
	rec_sources(b, ctx);
	rec_printf(b, ",\"timer\":{\"clock\":");
	rec_string(b, bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK));
	rec_printf(b, ",\"cycle\":");
	rec_string(b, bm_ctx_timer_name(ctx, BM_SUBTIMER_CYCLE));
	rec_printf(b, ",\"cycle_counts\":");
	rec_string(b, rec_cycle_kind(bm_ctx_timer_name(ctx,
	    BM_SUBTIMER_CYCLE)));
	rec_cycle_rate(b, ctx);
	rec_printf(b, "}");
}

/* Index of a counted event by name, or -1. */
static int
rec_event(const bm_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nevents; i++) {
		if (strcmp(r->events[i].name, name) == 0 &&
		    r->events[i].status == 0 && isfinite(r->event_per_op[i]))
			return (int)i;
	}
	return -1;
}

/* Append a ratio of two counted events, when both are there. */
static void
rec_ratio(struct rec_buf *b, const bm_result *r, const char *key,
    const char *num, const char *den, int *first)
{
	int n = rec_event(r, num), d = rec_event(r, den);

	if (n < 0 || d < 0 || r->event_per_op[d] <= 0)
		return;
	rec_printf(b, "%s\"%s\":", *first ? "" : ",", key);
	rec_number(b, r->event_per_op[n] / r->event_per_op[d]);
	*first = 0;
}

/*
 * Append the events: counts per operation of those counted, "not
 * supported" with the reason for the others, and what derives from them.
 */
static void
rec_events(struct rec_buf *b, const bm_result *r)
{
	size_t i;
	int first = 1;

	if (r->nevents == 0)
		return;
	rec_printf(b, ",\"events\":{");
	for (i = 0; i < r->nevents; i++) {
		rec_printf(b, "%s", i > 0 ? "," : "");
		rec_string(b, r->events[i].name);
		if (r->events[i].status == 0) {
			rec_printf(b, ":{\"supported\":true,\"per_op\":");
			rec_number(b, r->event_per_op[i]);
			rec_printf(b, "}");
		} else {
			rec_printf(b, ":{\"supported\":false,\"detail\":");
			rec_string(b, r->events[i].detail);
			rec_printf(b, "}");
		}
	}
	rec_printf(b, "},\"derived\":{");
	rec_ratio(b, r, "ipc", "instructions", "cycles", &first);
	rec_ratio(b, r, "cache_miss_rate", "cache-misses", "cache-references",
	    &first);
	rec_ratio(b, r, "branch_misses_per_instruction", "branch-misses",
	    "instructions", &first);
	rec_printf(b, "}");
}

/*
 * Append the distribution of single operations: percentiles, mean and
 * variance, a histogram of 24 buckets spaced geometrically between the
 * smallest and the largest time, each with its upper bound and count, and
 * with a cycle subtimer the same figures in cycles.
 */
static void
rec_percentiles(struct rec_buf *b, const bm_result *r, double hz)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	static const char *const names[] = { "p50", "p90", "p99", "p99.9" };
	const double *v = r->op_ns;
	double lo, hi, ratio, le;
	size_t i, k = 0, count;
	int bucket;

	if (r->nop == 0)
		return;
	rec_printf(b, ",\"percentiles\":{\"unit\":\"ns\",\"count\":%zu",
	    r->nop);
	rec_knum(b, "min", v[0]);
	for (i = 0; i < 4; i++)
		rec_knum(b, names[i], bm_percentile(v, r->nop, ps[i]));
	rec_knum(b, "max", v[r->nop - 1]);
	rec_knum(b, "mean", r->op_mean_ns);
	rec_knum(b, "variance", r->op_var_ns);
	rec_printf(b, ",\"histogram\":[");
	lo = v[0] > 1 ? v[0] : 1;
	hi = v[r->nop - 1] > lo ? v[r->nop - 1] : lo * 2;
	ratio = pow(hi / lo, 1.0 / 24);
	for (bucket = 1; bucket <= 24; bucket++) {
		le = bucket == 24 ? v[r->nop - 1] : lo * pow(ratio, bucket);
		for (count = 0; k < r->nop && (v[k] <= le || bucket == 24);
		    k++)
			count++;
		rec_printf(b, "%s{\"le\":", bucket > 1 ? "," : "");
		rec_number(b, le);
		rec_printf(b, ",\"count\":%zu}", count);
	}
	rec_printf(b, "]");
	if (r->op_cycles != NULL) {
		v = r->op_cycles;
		rec_printf(b, ",\"cycles\":{\"unit\":\"cycles\"");
		rec_knum(b, "min", v[0]);
		for (i = 0; i < 4; i++)
			rec_knum(b, names[i], bm_percentile(v, r->nop, ps[i]));
		rec_knum(b, "max", v[r->nop - 1]);
		rec_knum(b, "mean", r->op_mean_cycles);
		rec_knum(b, "variance", r->op_var_cycles);
		if (isfinite(hz)) {
			/* The same figures as time, through the rate. */
			rec_printf(b, ",\"ns\":{\"min\":");
			rec_number(b, v[0] * 1e9 / hz);
			for (i = 0; i < 4; i++)
				rec_knum(b, names[i], bm_percentile(v, r->nop,
				    ps[i]) * 1e9 / hz);
			rec_knum(b, "max", v[r->nop - 1] * 1e9 / hz);
			rec_knum(b, "mean", r->op_mean_cycles * 1e9 / hz);
			rec_printf(b, "}");
		}
		rec_printf(b, "}");
	}
	rec_printf(b, "}");
}

/* Append the host name and the time stamp (UTC, ISO 8601). */
static void
rec_where_when(struct rec_buf *b)
{
	char host[256], stamp[32];
	struct tm tm;
	time_t now = time(NULL);

	if (gethostname(host, sizeof host) != 0)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		stamp[0] = '\0';
	rec_kstr(b, "host", host);
	rec_kstr(b, "timestamp", stamp);
}

/* Append "key":{...} for a list of parameters. */
static void
rec_params(struct rec_buf *b, const char *key, const bm_param *p, size_t n)
{
	size_t i;

	rec_printf(b, ",\"%s\":{", key);
	for (i = 0; i < n; i++) {
		rec_printf(b, "%s", i > 0 ? "," : "");
		rec_string(b, p[i].key);
		rec_printf(b, ":");
		if (p[i].str != NULL)
			rec_string(b, p[i].str);
		else
			rec_number(b, p[i].num);
	}
	rec_printf(b, "}");
}

/*
 * Append what the interference accounting saw: the intervals run, judged
 * disturbed and discarded, whether a worker reached the bound, and the
 * run-queue wait, lost time, switches, migrations and steal of the kept
 * intervals; "accounted": false when it was off or could not read.
 */
static void
rec_interference(struct rec_buf *b, const bm_result *r)
{
	const bm_interference *in = &r->interference;

	rec_printf(b, ",\"interference\":{\"accounted\":%s",
	    in->accounted ? "true" : "false");
	if (in->off)
		rec_printf(b, ",\"off\":true");
	if (in->stopped)
		rec_printf(b, ",\"stopped\":%llu",
		    (unsigned long long)in->stopped);
	if (!in->accounted) {
		rec_printf(b, "}");
		return;
	}
	rec_printf(b, ",\"intervals\":%llu,\"disturbed\":%llu,"
	    "\"discarded\":%llu,\"bound_hit\":%s,\"bound_hit_workers\":%u",
	    (unsigned long long)in->intervals,
	    (unsigned long long)in->disturbed,
	    (unsigned long long)in->discarded, in->bound_hit ? "true" : "false",
	    in->bound_hit);
	rec_knum(b, "discarded_s", in->discarded_s);
	rec_knum(b, "wait_s", in->wait_s);
	rec_knum(b, "lost_s", in->lost_s);
	rec_printf(b, ",\"switches\":%llu,\"migrated\":%llu",
	    (unsigned long long)in->ivcsw, (unsigned long long)in->migrated);
	rec_knum(b, "steal_s", in->steal_s);
	rec_knum(b, "timed_s", in->timed_s);
	rec_printf(b, "}");
}

/*
 * Append a CPU quota's throttling of the run, only when there was some:
 * periods, time, and the quota in CPUs (null when none was found).
 */
static void
rec_throttled(struct rec_buf *b, const bm_result *r)
{
	if (r->throttle.nr_throttled == 0)
		return;
	rec_printf(b, ",\"throttled\":{\"nr_throttled\":%llu",
	    (unsigned long long)r->throttle.nr_throttled);
	rec_knum(b, "throttled_s", r->throttle.throttled_s);
	rec_knum(b, "quota_cpus", r->throttle.quota_cpus > 0 ?
	    r->throttle.quota_cpus : NAN);
	rec_printf(b, "}");
}

/*
 * Append a robust figure as an object: the statistic, value, interval,
 * flag and its causes (the "robust" member of a record, benchmp-stats's
 * --better).
 */
void
bm__record_robust(struct rec_buf *b, const bm__robust *rb)
{
	static const struct {
		unsigned flag;
		const char *name;
	} causes[] = {
		{ BM__ROBUST_WIDE, "wide" },
	};
	size_t i;
	const char *sep = "";

	rec_printf(b, "{\"stat\":\"best process\"");
	rec_knum(b, "value", rb->value);
	rec_knum(b, "ci_lo", rb->ci_lo);
	rec_knum(b, "ci_hi", rb->ci_hi);
	rec_printf(b, ",\"noisy\":%s,\"causes\":[",
	    rb->flags != 0 ? "true" : "false");
	for (i = 0; i < sizeof causes / sizeof causes[0]; i++)
		if (rb->flags & causes[i].flag) {
			rec_printf(b, "%s\"%s\"", sep, causes[i].name);
			sep = ",";
		}
	rec_printf(b, "]}");
}

/*
 * Append a figure's judgement: "unsteady" (why the machine moves it
 * between runs), "disagree" (when its agreement was judged) with each
 * process's answer, and "contradicts" (when it contradicts anything),
 * each contradiction's what, measured, machine, source and unit.
 */
static void
rec_judgement(struct rec_buf *b, const bm_record *rec)
{
	size_t i;

	if (bm_record_unsteady_why(rec) != NULL)
		rec_kstr(b, "unsteady", bm_record_unsteady_why(rec));
	if (rec->agreement != BM_AGREEMENT_NONE) {
		rec_printf(b, ",\"disagree\":%s", rec->agreement ==
		    BM_AGREEMENT_DISAGREE ? "true" : "false");
		if (rec->nanswers > 0)
			rec_list(b, "answers", rec->answers, rec->nanswers);
	}
	if (rec->ncontradicts == 0)
		return;
	rec_printf(b, ",\"contradicts\":[");
	for (i = 0; i < rec->ncontradicts; i++) {
		const bm_contradiction *c = &rec->contradicts[i];

		rec_printf(b, "%s{\"what\":", i > 0 ? "," : "");
		rec_string(b, c->what);
		rec_knum(b, "measured", c->measured);
		rec_knum(b, "machine", c->machine);
		rec_kstr(b, "source", c->source);
		rec_kstr(b, "unit", c->unit);
		rec_printf(b, "}");
	}
	rec_printf(b, "]");
}

/*
 * 0 when every one of n parameters has a key: a NULL one would be written
 * as null, which JSON has no object key for.
 */
static int
rec_params_check(const bm_param *p, size_t n)
{
	size_t i;

	if (n > 0 && p == NULL)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (p[i].key == NULL)
			return -EINVAL;
	}
	return 0;
}

/* 0 when a record can be formatted, else -EINVAL; see internal.h. */
int
bm__record_check(const bm_record *rec)
{
	if (rec == NULL || rec->tool == NULL || rec->result == NULL ||
	    rec_params_check(rec->params, rec->nparams) != 0 ||
	    rec_params_check(rec->measured, rec->nmeasured) != 0 ||
	    (rec->nanswers > 0 && rec->answers == NULL) ||
	    (rec->ncontradicts > 0 && rec->contradicts == NULL) ||
	    (unsigned)rec->agreement > (unsigned)BM_AGREEMENT_DISAGREE ||
	    (unsigned)rec->better > (unsigned)BM_BETTER_NONE)
		return -EINVAL;
	return 0;
}

/*
 * Append the figure's statistics as decided (record-decide.c): the
 * interval shown is the robust figure's where it has one, as the value
 * is.  BM_ERANGE for a record with a value and no samples.
 */
static int
rec_figure(struct rec_buf *b, const bm_decision *d)
{
	double next[2] = { d->lo, d->hi };

	if (!d->has_figure) {
		/*
		 * No figure: a derived one that nothing measured (line with
		 * no knee in any process's curve) has a null value and no
		 * statistics, and is not noisy.
		 */
		if (!isnan(d->rec->value))
			return BM_ERANGE;
		rec_printf(b, ",\"noisy\":false,\"samples\":0,"
		    "\"processes\":0");
		return 0;
	}
	record_levels(b, &d->f, d->noisy, d->has_robust ? &d->rb : NULL,
	    d->served || d->derived ? next : NULL,
	    (d->derived ? LEVELS_DERIVED : 0) |
	    (d->unsteady ? LEVELS_NONE : 0));
	if (d->has_robust) {
		rec_printf(b, ",\"robust\":");
		bm__record_robust(b, &d->rb);
	}
	return 0;
}

/*
 * Append why a noisy figure is, in plain words ("noisy_why"): each of its
 * reasons (bm_decision_reasons), a wide interval with how far it reaches
 * against the precision, a tool's unsteady figure in the tool's words.
 */
static void
rec_noisy_why(struct rec_buf *b, const bm_decision *d)
{
	static const struct {
		unsigned bit;
		const char *why;
	} words[] = {
		{ BM_NOISY_FEW, "too few processes or visits to bound it" },
		{ BM_NOISY_DISAGREE, "its processes disagree" },
		{ BM_NOISY_CONTRADICTS, "it contradicts what the machine "
		    "states" },
		{ BM_NOISY_DISTURBED, "a fifth or more of its intervals were "
		    "disturbed" },
		{ BM_NOISY_OVERHEAD, "TIMING_O or LOOP_O, as given, make more "
		    "than a quarter of its intervals" },
	};
	const char *unsteady = bm_record_unsteady_why(d->rec);
	double v = d->rec->value, p, reach, move;
	char wide[160];
	size_t i;
	int n = 0;

	if (!d->noisy)
		return;
	rec_printf(b, ",\"noisy_why\":[");
	if (d->reasons & BM_NOISY_WIDE) {
		p = d->ctx != NULL && d->ctx->precision > 0 ?
		    d->ctx->precision : BM__PRECISION_DEFAULT;
		reach = fmax(d->hi - v, v - d->lo) / fabs(v);
		move = 100 * reach / bm__decide_move_z(d->derived);
		if (isfinite(reach) && (d->served || d->derived))
			snprintf(wide, sizeof wide, "its interval reaches "
			    "+-%.0f%% of it: the next run is expected to move "
			    "+-%.*f%% (one standard deviation), past the "
			    "precision of +-%.3g%%", 100 * reach < 1 ? 1 :
			    100 * reach, move < 10 ? 2 : 0, move, 100 * p);
		else if (isfinite(reach))
			snprintf(wide, sizeof wide, "its interval reaches "
			    "+-%.0f%% of it, past the precision of +-%.3g%%",
			    100 * reach < 1 ? 1 : 100 * reach, 100 * p);
		else
			snprintf(wide, sizeof wide, "its interval is wider "
			    "than the precision of +-%.3g%%", 100 * p);
		rec_printf(b, "%s", n++ > 0 ? "," : "");
		rec_string(b, wide);
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (d->reasons & words[i].bit) {
			rec_printf(b, "%s", n++ > 0 ? "," : "");
			rec_string(b, words[i].why);
		}
	if ((d->reasons & BM_NOISY_UNSTEADY) && unsteady != NULL) {
		rec_printf(b, "%s", n++ > 0 ? "," : "");
		rec_string(b, unsteady);
	}
	rec_printf(b, "]");
}

/* Format a decided record as one line of JSON; see benchmp/figures.h. */
int
bm_decision_json(const bm_decision *d, char **out)
{
	struct rec_buf b = { NULL, 0, 0, 0 };
	const bm_ctx *ctx;
	const bm_record *rec;
	const bm_result *r;
	int rc;

	if (out == NULL || d == NULL || bm__record_check(d->rec) != 0)
		return -EINVAL;
	*out = NULL;
	ctx = d->ctx;
	rec = d->rec;
	r = rec->result;
	if ((b.s = malloc(1024)) == NULL)
		return -ENOMEM;
	b.cap = 1024;
	rec_printf(&b, "{\"tool\":");
	rec_string(&b, rec->tool);
	rec_kstr(&b, "case", rec->case_name);
	rec_params(&b, "params", rec->params, rec->nparams);
	if (rec->nmeasured > 0)
		rec_params(&b, "measured", rec->measured, rec->nmeasured);
	rec_kstr(&b, "metric", rec->metric);
	rec_kstr(&b, "unit", rec->unit);
	rec_kstr(&b, "better", d->better);
	rec_knum(&b, "value", rec->value);
	if ((rc = rec_figure(&b, d)) != 0) {
		free(b.s);
		return rc;
	}
	rec_noisy_why(&b, d);
	rec_judgement(&b, rec);
	rec_printf(&b, ",\"parallel\":%u,\"repetitions\":%u", r->parallel,
	    r->repetitions);
	rec_printf(&b, ",\"warmup_us\":%llu", (unsigned long long)r->warmup_us);
	/* Said only when the rounds after the first warmed up for less. */
	if (r->later_warmup_us != 0 && r->later_warmup_us < r->warmup_us)
		rec_printf(&b, ",\"later_warmup_us\":%llu",
		    (unsigned long long)r->later_warmup_us);
	rec_printf(&b, ",\"enough_us\":%llu", (unsigned long long)r->enough_us);
	rec_knum(&b, "wall_s", r->wall_s);
	rec_printf(&b, ",\"budget_hit\":%s", r->budget_hit ? "true" : "false");
	/* Said only of a figure whose rounds were a scheduler's visits. */
	if (BM__RESULT_SERVED(r))
		rec_printf(&b, ",\"served\":true");
	/*
	 * The share of the raw intervals the overheads took off, and whether
	 * that flags the figure (given overheads above BM__OVERHEAD_FLAG).
	 */
	rec_knum(&b, "overhead_share", d->overhead_share);
	rec_printf(&b, ",\"overhead_flagged\":%s",
	    d->overhead_flagged ? "true" : "false");
	rec_knum(&b, "ops_per_s", r->ops_per_s);
	rec_knum(&b, "cycles_per_op", r->cycles_per_op);
	/* cycles / Hz: null without a constant-rate counter's rate. */
	rec_knum(&b, "cycle_ns_per_op", r->cycles_per_op * 1e9 /
	    rec_cycle_hz(ctx));
	rec_events(&b, r);
	rec_interference(&b, r);
	rec_throttled(&b, r);
	rec_percentiles(&b, r, rec_cycle_hz(ctx));
	rec_context(&b, ctx);
	rec_where_when(&b);
	rec_kstr(&b, "version", bm_version());
	rec_printf(&b, "}\n");
	if (b.err != 0) {
		free(b.s);
		return b.err;
	}
	*out = b.s;
	return 0;
}

/*
 * Format a record as one line of JSON; the caller frees *out.  The record
 * is decided here (bm__record_decide) and formatted from the decision.
 */
int
bm_record_json(const bm_ctx *ctx, const bm_record *rec, char **out)
{
	struct bm_decision d;
	int rc;

	if (out == NULL || bm__record_check(rec) != 0)
		return -EINVAL;
	*out = NULL;
	if ((rc = bm__record_decide(&d, ctx, rec)) == 0)
		rc = bm_decision_json(&d, out);
	bm__decision_release(&d);
	return rc;
}
