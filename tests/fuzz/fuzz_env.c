/* fuzz_env.c: libFuzzer target for bm_ctx_load_env(): every variable it reads, at once. */
#include "config.h"

#include <errno.h>

#include "benchmp/calibration.h"
#include "benchmp/settings.h"
#include "benchmp/timers.h"
#include "fuzz.h"

/* The variables, in the order bm_ctx_load_env() checks them. */
enum { V_ENOUGH, V_TIMING_O, V_LOOP_O, V_SCHED, V_LMSCHED, V_EVENTS, V_TIMER,
	NVARS };

static const char *const env_names[NVARS] = {
	"ENOUGH", "TIMING_O", "LOOP_O", "BENCHMP_SCHED", "LMBENCH_SCHED",
	"BENCHMP_EVENTS", "BENCHMP_TIMER"
};

static const unsigned env_which[3] = {
	BM_CAL_ENOUGH, BM_CAL_TIMING_O, BM_CAL_LOOP_O
};

/* What the parsers say about each variable on their own. */
struct expect {
	int rc;			/* the first error, or 0 */
	const char *var;	/* the variable the first error names */
	int cal_rc[3];
	double cal[3];
	unsigned cal_set;	/* BM_CAL_* of the values given */
	const char *sched;	/* the placement policy read, or NULL */
	bm__sched s;
	bm__events ev;
	int has_events;
	bm__timer t;
	int has_timer;
};

/* Return the variable's value when set and not empty, else NULL. */
static const char *
env_get(int v)
{
	const char *s = getenv(env_names[v]);

	return s != NULL && *s != '\0' ? s : NULL;
}

/* Note the first error, in the order the variables are checked. */
static void
expect_fail(struct expect *e, int rc, const char *var)
{
	if (e->rc == 0 && rc != 0) {
		e->rc = rc;
		e->var = var;
	}
}

/* Work out what bm_ctx_load_env() must do, one parser at a time. */
static void
expect_env(struct expect *e)
{
	char err[256];
	const char *s, *var;
	uint64_t u;
	int i, rc;

	memset(e, 0, sizeof *e);
	for (i = 0; i < 3; i++) {
		if ((s = env_get(i)) == NULL)
			continue;
		if (i == V_ENOUGH) {
			rc = bm_parse_uint(s, 1, 60000000, &u);
			e->cal[i] = (double)u;
		} else
			rc = bm_parse_double(s, 0.0, i == V_TIMING_O ?
			    1000000.0 : 1000.0, &e->cal[i]);
		e->cal_rc[i] = rc;
		if (rc == 0)
			e->cal_set |= env_which[i];
		expect_fail(e, rc, env_names[i]);
	}
	/* BENCHMP_SCHED wins; LMBENCH_SCHED counts even when empty. */
	var = env_names[V_SCHED];
	if ((s = env_get(V_SCHED)) == NULL) {
		var = env_names[V_LMSCHED];
		s = getenv(var);
	}
	if (s != NULL && e->rc == 0) {
		e->sched = s;
		rc = bm__sched_parse(&e->s, s, err, sizeof err);
		/* A list naming a CPU this process may not use is refused. */
		if (rc == 0)
			rc = bm__sched_check(&e->s, err, sizeof err);
		expect_fail(e, rc, var);
	}
	if ((s = env_get(V_EVENTS)) != NULL && e->rc == 0) {
		e->has_events = 1;
		expect_fail(e, bm__events_parse(&e->ev, s, err, sizeof err),
		    env_names[V_EVENTS]);
	}
	if ((s = env_get(V_TIMER)) != NULL && e->rc == 0) {
		/* "list" is a command-line request, refused as a setting. */
		rc = bm_timer_config_wants_list(s) ? BM_ECONFIG :
		    bm__timer_init(&e->t, s, err, sizeof err);
		e->has_timer = rc == 0;
		expect_fail(e, rc, env_names[V_TIMER]);
	}
}

/*
 * A value the environment accepts is accepted by bm_ctx_set_calibration()
 * too, and one it finds out of range is refused there as well: the two
 * ways in must agree.
 */
static void
check_calibration(const struct expect *e)
{
	const char *s;
	bm_ctx *ctx;
	double v;
	char *end;
	int i, rc;

	for (i = 0; i < 3; i++) {
		if ((s = env_get(i)) == NULL || e->cal_rc[i] == BM_EPARSE)
			continue;
		v = strtod(s, &end);
		FUZZ_CHECK(*end == '\0');
		FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
		rc = bm_ctx_set_calibration(ctx, env_which[i], v);
		FUZZ_CHECK((rc == 0) == (e->cal_rc[i] == 0));
		bm_ctx_free(ctx);
	}
}

/*
 * The input: the values of ENOUGH, TIMING_O, LOOP_O, BENCHMP_SCHED,
 * LMBENCH_SCHED, BENCHMP_EVENTS and BENCHMP_TIMER, one a line; the last
 * takes the rest of the input, and the variables past the end are unset.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expect e;
	struct bm_ctx before;
	bm_ctx *ctx;
	char *s, *p, *nl;
	size_t prefix, i;
	int v, rc;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	for (p = s, v = 0; v < NVARS; v++) {
		if (p == NULL) {
			unsetenv(env_names[v]);
			continue;
		}
		nl = v < NVARS - 1 ? strchr(p, '\n') : NULL;
		if (nl != NULL)
			*nl = '\0';
		FUZZ_CHECK(setenv(env_names[v], p, 1) == 0);
		p = nl != NULL ? nl + 1 : NULL;
	}
	expect_env(&e);

	FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
	before = *ctx;
	rc = bm_ctx_load_env(ctx);
	FUZZ_CHECK(rc == e.rc);
	if (rc != 0) {
		/* The detail names the variable; nothing was applied. */
		prefix = strlen(e.var);
		FUZZ_CHECK(strncmp(bm_ctx_errmsg(ctx), e.var, prefix) == 0);
		FUZZ_CHECK(strncmp(bm_ctx_errmsg(ctx) + prefix, ": ", 2) == 0);
		FUZZ_CHECK(bm_ctx_errmsg(ctx)[prefix + 2] != '\0');
		FUZZ_CHECK(fuzz_ctx_same(ctx, &before));
	} else {
		FUZZ_CHECK(*bm_ctx_errmsg(ctx) == '\0');
		FUZZ_CHECK(ctx->cal.from_env == e.cal_set);
		FUZZ_CHECK((ctx->known & e.cal_set) == e.cal_set);
		if (e.cal_set & BM_CAL_ENOUGH)
			FUZZ_CHECK((double)ctx->cal.enough_us == e.cal[0]);
		if (e.cal_set & BM_CAL_TIMING_O)
			FUZZ_CHECK(ctx->cal.timing_o_us == e.cal[1]);
		if (e.cal_set & BM_CAL_LOOP_O)
			FUZZ_CHECK(ctx->cal.loop_o_us == e.cal[2]);
		if (e.sched != NULL) {
			FUZZ_CHECK(ctx->sched.kind == e.s.kind);
			FUZZ_CHECK(ctx->sched.ncpus == e.s.ncpus);
			FUZZ_CHECK(memcmp(ctx->sched.cpus, e.s.cpus,
			    e.s.ncpus * sizeof e.s.cpus[0]) == 0);
		} else
			FUZZ_CHECK(ctx->sched.kind == BM__SCHED_DEFAULT);
		FUZZ_CHECK(ctx->events.n == (e.has_events ? e.ev.n : 0));
		for (i = 0; i < ctx->events.n; i++)
			FUZZ_CHECK(strcmp(ctx->events.info[i].name,
			    e.ev.info[i].name) == 0);
		if (e.has_timer) {
			FUZZ_CHECK(ctx->timer.clock == e.t.clock);
			FUZZ_CHECK(ctx->timer.cycle == e.t.cycle);
		} else {
			FUZZ_CHECK(ctx->timer.clock == before.timer.clock);
			FUZZ_CHECK(ctx->timer.cycle == before.timer.cycle);
		}
	}
	check_calibration(&e);
	if (e.has_timer)
		bm__timer_fini(&e.t);
	bm_ctx_free(ctx);
	free(s);
	return 0;
}
