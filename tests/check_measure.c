/* check_measure.c: bm_measure, registered subtimers, cycle overheads, cycle percentiles. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_common.h"
#include "check_run.h"
#include "internal.h"

/*
 * A fake clock and a fake cycle counter whose readings the test decides:
 * every read advances them by a fixed step (the cost of reading), and the
 * benchmark below advances them by a fixed cost per operation.  What
 * bm_measure and bm_run report is then known exactly, so the tests show
 * that the registered subtimers are the ones read and that each overhead
 * is subtracted once.  Each test runs in its own process (Check's fork
 * mode), and a forked worker gets its own copy of the counters.
 */
#define FAKE_CLOCK_READ 7	/* ns per clock read */
#define FAKE_CYCLE_READ 10	/* cycles per cycle-counter read */
#define FAKE_OP_NS 50		/* ns per operation of fake_bench */
#define FAKE_OP_CYCLES 3	/* cycles per operation of fake_bench */

static uint64_t fake_ns = 1000000;
static uint64_t fake_cy;
static unsigned fake_clock_reads;

/* Initialise the fake clock: nothing to prepare. */
static int
fake_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	snprintf(detail, len, "a clock the test drives");
	return 0;
}

/* Initialise a subtimer that never works here. */
static int
broken_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	snprintf(detail, len, "broken on purpose");
	return -ENODEV;
}

/* Read the fake clock, which advances by the cost of a read. */
static uint64_t
fake_clock_now(void *priv)
{
	(void)priv;
	fake_clock_reads++;
	fake_ns += FAKE_CLOCK_READ;
	return fake_ns;
}

/* Read the fake cycle counter, which advances by the cost of a read. */
static uint64_t
fake_cycle_now(void *priv)
{
	(void)priv;
	fake_cy += FAKE_CYCLE_READ;
	return fake_cy;
}

/*
 * A benchmark whose n operations cost exactly what the fakes say, and
 * take some real time too, so that a real clock finds a modest count.
 */
static int
fake_bench(bm_iter_t n, void *cookie)
{
	volatile uint64_t x = 1;
	bm_iter_t i;

	(void)cookie;
	for (i = 0; i < n * 20; i++)
		x = x * 3 + 1;
	fake_ns += FAKE_OP_NS * n;
	fake_cy += FAKE_OP_CYCLES * n;
	return 0;
}

/* A benchmark that fails. */
static int
failing_bench(bm_iter_t n, void *cookie)
{
	(void)n;
	(void)cookie;
	return -EDOM;
}

/* A benchmark that takes real time: n rounds of dependent arithmetic. */
static int
busy_bench(bm_iter_t n, void *cookie)
{
	volatile uint64_t x = 1;
	bm_iter_t i;

	(void)cookie;
	for (i = 0; i < n * 20; i++)
		x = x * 3 + 1;
	return 0;
}

static const bm_subtimer_class fake_clock = {
	.name = "fake-clock", .kind = BM_SUBTIMER_CLOCK, .init = fake_init,
	.now = fake_clock_now
};
static const bm_subtimer_class fake_cycles = {
	.name = "fake-cycles", .kind = BM_SUBTIMER_CYCLE, .init = fake_init,
	.now = fake_cycle_now
};
static const bm_subtimer_class broken_clock = {
	.name = "broken-clock", .kind = BM_SUBTIMER_CLOCK,
	.init = broken_init, .now = fake_clock_now
};

/* Register the fakes once per test process. */
static void
register_fakes(void)
{
	ck_assert_int_eq(bm_timer_register(&fake_clock), 0);
	ck_assert_int_eq(bm_timer_register(&fake_cycles), 0);
	ck_assert_int_eq(bm_timer_register(&broken_clock), 0);
}

/*
 * A context on the given timer with the calibration given by hand: the
 * fake clock does not advance in an empty loop, so measuring its loop
 * overhead would never end.
 */
static bm_ctx *
fake_ctx(const char *timer)
{
	bm_settings s;
	bm_ctx *ctx;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	memset(&s, 0, sizeof s);
	s.timer = timer;
	ck_assert_msg(bm_ctx_configure(ctx, &s) == 0, "%s",
	    bm_ctx_errmsg(ctx));
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 1000), 0);
	check_ctx_overheads(ctx, 0, 0);
	return ctx;
}

START_TEST(test_register_errors)
{
	bm_subtimer_class c = fake_clock;
	char name[8];
	int i;

	ck_assert_int_eq(bm_timer_register(NULL), -EINVAL);
	c.now = NULL;
	ck_assert_int_eq(bm_timer_register(&c), -EINVAL);
	c = fake_clock;
	c.kind = 7;
	ck_assert_int_eq(bm_timer_register(&c), BM_ERANGE);
	c = fake_clock;
	c.name = "";
	ck_assert_int_eq(bm_timer_register(&c), BM_ERANGE);
	c.name = "has space";
	ck_assert_int_eq(bm_timer_register(&c), BM_EPARSE);
	c.name = "a,b";
	ck_assert_int_eq(bm_timer_register(&c), BM_EPARSE);
	c.name = "list";
	ck_assert_int_eq(bm_timer_register(&c), BM_ECONFIG);
	c.name = "posix-monotonic";
	ck_assert_int_eq(bm_timer_register(&c), -EEXIST);
	c.name = "a-name-that-is-far-too-long-for-it";
	ck_assert_int_eq(bm_timer_register(&c), BM_ERANGE);
	c = fake_clock;
	ck_assert_int_eq(bm_timer_register(&c), 0);
	ck_assert_int_eq(bm_timer_register(&c), -EEXIST);
	for (i = 1; i < BM_MAX_REGISTERED_TIMERS; i++) {
		snprintf(name, sizeof name, "x%d", i);
		c.name = name;
		ck_assert_int_eq(bm_timer_register(&c), 0);
	}
	c.name = "one-more";
	ck_assert_int_eq(bm_timer_register(&c), -ENOSPC);
}
END_TEST

START_TEST(test_register_listed_and_used)
{
	bm_subtimer_info info[32];
	bm_ctx *ctx;
	size_t n, before, i;
	int seen_clock = 0, seen_broken = 0;
	unsigned reads;
	uint64_t now;

	ck_assert_int_eq(bm_timer_list(info, 32, &before), 0);
	register_fakes();
	ck_assert_int_eq(bm_timer_list(info, 32, &n), 0);
	ck_assert_uint_eq(n, before + 3);
	for (i = 0; i < n; i++) {
		if (strcmp(info[i].name, "fake-clock") == 0) {
			seen_clock = 1;
			ck_assert_int_eq(info[i].kind, BM_SUBTIMER_CLOCK);
			ck_assert_int_eq(info[i].status, 0);
			ck_assert_str_eq(info[i].detail,
			    "a clock the test drives");
		}
		if (strcmp(info[i].name, "broken-clock") == 0) {
			seen_broken = 1;
			ck_assert_int_eq(info[i].status, -ENODEV);
			ck_assert_str_eq(info[i].detail, "broken on purpose");
		}
	}
	ck_assert(seen_clock && seen_broken);
	/* Named on the command line (--timer) and in the environment. */
	ctx = fake_ctx("clock=fake-clock");
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "fake-clock");
	reads = fake_clock_reads;
	now = bm__clock_now(&ctx->timer);
	ck_assert_uint_eq(now, fake_ns);
	ck_assert_uint_eq(fake_clock_reads, reads + 1);
	bm_ctx_free(ctx);
	ck_assert_int_eq(setenv("BENCHMP_TIMER", "clock=broken-clock,"
	    "fake-clock cycle=fake-cycles", 1), 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_msg(bm_ctx_load_env(ctx) == 0, "%s", bm_ctx_errmsg(ctx));
	/* The broken one is tried and skipped, as a built-in one would be. */
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "fake-clock");
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CYCLE),
	    "fake-cycles");
	bm_ctx_free(ctx);
	/* A clock name where a cycle counter is due is refused. */
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "cycle=fake-clock"),
	    BM_ECONFIG);
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "clock=broken-clock"),
	    BM_ENOTIMER);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "broken on purpose"));
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_measure_exact)
{
	bm_measurement m;
	bm_record rec;
	bm_ctx *ctx;
	char *json;
	size_t k;

	register_fakes();
	ctx = fake_ctx("clock=fake-clock cycle=fake-cycles");
	ck_assert_msg(bm_measure(ctx, fake_bench, NULL, NULL, &m) == 0, "%s",
	    bm_ctx_errmsg(ctx));
	/* One call lasts at least 80% of enough (1000 us) of fake time. */
	ck_assert_uint_ge(m.n * FAKE_OP_NS, 800000);
	/* The base is the two clock reads of the empty loop, and no more. */
	ck_assert_double_eq(m.base_ns, FAKE_CLOCK_READ);
	ck_assert_double_eq(m.base_cycles, FAKE_CYCLE_READ);
	ck_assert_uint_eq(m.result.nsamples, BM_DEFAULT_REPETITIONS);
	ck_assert_uint_eq(m.result.processes, 1);
	ck_assert_uint_eq(m.result.parallel, 1);
	for (k = 0; k < m.result.nsamples; k++) {
		ck_assert_uint_eq(m.result.samples[k].n, m.n);
		ck_assert_double_eq(m.result.samples[k].ns,
		    (double)(FAKE_OP_NS * m.n));
		ck_assert_double_eq(m.result.samples[k].cycles,
		    (double)(FAKE_OP_CYCLES * m.n));
	}
	ck_assert_double_eq(m.result.per_op_ns.median, FAKE_OP_NS);
	ck_assert_double_eq(m.result.cycles_per_op, FAKE_OP_CYCLES);
	ck_assert_double_eq_tol(m.seconds, FAKE_OP_NS * (double)m.n / 1e9,
	    1e-15);
	ck_assert_double_eq(m.cycles, FAKE_OP_CYCLES * (double)m.n);
	/* The same record as bm_run's. */
	ck_assert_int_eq(bm_record_latency(&rec, "measure", "fake", "ns",
	    &m.result), 0);
	ck_assert_double_eq(rec.value, FAKE_OP_NS);
	ck_assert_int_eq(bm_record_json(ctx, &rec, &json), 0);
	ck_assert_ptr_nonnull(strstr(json, "\"clock\":\"fake-clock\""));
	ck_assert_ptr_nonnull(strstr(json, "\"median\":50,"));
	ck_assert_ptr_nonnull(strstr(json, "\"cycles_per_op\":3,"));
	free(json);
	bm_result_free(&m.result);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * mLib's base: each iteration of fake_bench does 5 operations (say an
 * unrolled loop); the figures are per operation, a fifth of the
 * iteration's cost, and a call's operations are n times 5.
 */
START_TEST(test_measure_base)
{
	bm_measurement m;
	bm_ctx *ctx;
	size_t k;

	register_fakes();
	ctx = fake_ctx("clock=fake-clock cycle=fake-cycles");
	ck_assert_msg(bm_measure_base(ctx, fake_bench, NULL, 5, NULL, &m) == 0,
	    "%s", bm_ctx_errmsg(ctx));
	ck_assert_uint_eq(m.base, 5);
	ck_assert_double_eq(m.ops, 5.0 * (double)m.n);
	for (k = 0; k < m.result.nsamples; k++)
		ck_assert_uint_eq(m.result.samples[k].n, 5 * m.n);
	ck_assert_double_eq(m.result.per_op_ns.median, FAKE_OP_NS / 5.0);
	ck_assert_double_eq(m.result.cycles_per_op, FAKE_OP_CYCLES / 5.0);
	/* A call's time and cycles are what they are, whatever the base. */
	ck_assert_double_eq_tol(m.seconds, FAKE_OP_NS * (double)m.n / 1e9,
	    1e-15);
	ck_assert_double_eq_tol(m.cycles, FAKE_OP_CYCLES * (double)m.n, 1e-6);
	bm_result_free(&m.result);
	ck_assert_int_eq(bm_measure_base(ctx, fake_bench, NULL, 0, NULL, &m),
	    BM_ERANGE);
	ck_assert_int_eq(bm_measure_base(ctx, fake_bench, NULL,
	    ((uint64_t)1 << 32) + 1, NULL, &m), BM_ERANGE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "base"));
	/* bm_measure is base 1. */
	ck_assert_int_eq(bm_measure(ctx, fake_bench, NULL, NULL, &m), 0);
	ck_assert_uint_eq(m.base, 1);
	ck_assert_double_eq(m.ops, (double)m.n);
	bm_result_free(&m.result);
	bm_ctx_free(ctx);
}
END_TEST

/* A function that does nothing: no time to measure. */
static int
empty_bench(bm_iter_t n, void *cookie)
{
	(void)n;
	(void)cookie;
	return 0;
}

/*
 * A benchmark that takes no time is an error, not a figure of 0:
 * bm_measure and bm_run fail with BM_ENOTIME and say why.  The
 * fake clock advances only by its reads, so the fake bench with no
 * operation is exactly empty.
 */
START_TEST(test_no_time)
{
	bm_bench b = { .benchmark = empty_bench };
	bm_measurement m;
	bm_options o;
	bm_result r;
	bm_ctx *ctx;

	register_fakes();
	ctx = fake_ctx("clock=fake-clock");
	ck_assert_int_eq(bm_measure(ctx, empty_bench, NULL, NULL, &m),
	    BM_ENOTIME);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "no measurable time"));
	ck_assert_ptr_null(m.result.samples);
	bm_ctx_free(ctx);
	ctx = fake_ctx("clock=posix-monotonic");
	bm_options_init(&o);
	o.processes = 1;
	o.repetitions = 3;
	ck_assert_int_eq(bm_run(ctx, &b, &o, &r), BM_ENOTIME);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "no measurable time"));
	ck_assert_str_eq(bm_strerror(BM_ENOTIME),
	    "the benchmark takes no measurable time");
	bm_ctx_free(ctx);
}
END_TEST

/* A program reads the context's timer itself: the fakes, then none. */
START_TEST(test_timer_now)
{
	bm_time a, b;
	bm_ctx *ctx;

	register_fakes();
	ctx = fake_ctx("clock=fake-clock cycle=fake-cycles");
	ck_assert_int_eq(bm_timer_now(ctx, &a), 0);
	ck_assert_int_eq(bm_timer_now(ctx, &b), 0);
	ck_assert_uint_eq(a.flags, BM_TIME_OK | BM_TIME_CYCLES_OK);
	ck_assert_uint_eq(b.ns - a.ns, FAKE_CLOCK_READ);
	ck_assert_uint_eq(b.cycles - a.cycles, FAKE_CYCLE_READ);
	ck_assert_int_eq(bm_ctx_set_timer(ctx, "clock=posix-monotonic "
	    "cycle=null"), 0);
	ck_assert_int_eq(bm_timer_now(ctx, &a), 0);
	ck_assert_int_eq(bm_timer_now(ctx, &b), 0);
	ck_assert_uint_eq(a.flags, BM_TIME_OK);
	ck_assert_uint_eq(a.cycles, 0);
	ck_assert_uint_ge(b.ns, a.ns);
	ck_assert_int_eq(bm_timer_now(NULL, &a), -EINVAL);
	ck_assert_int_eq(bm_timer_now(ctx, NULL), -EINVAL);
	bm_ctx_free(ctx);
}
END_TEST

/* Set the timer with stdout going to a file; its text in buf. */
static int
set_timer_capture(bm_ctx *ctx, const char *config, char *buf, size_t len)
{
	char path[] = "/tmp/check_measure.XXXXXX";
	int fd, saved, rc;
	ssize_t got;

	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_int_eq(unlink(path), 0);
	fflush(stdout);
	ck_assert_int_ge(saved = dup(1), 0);
	ck_assert_int_eq(dup2(fd, 1), 1);
	rc = bm_ctx_set_timer(ctx, config);
	fflush(stdout);
	ck_assert_int_eq(dup2(saved, 1), 1);
	close(saved);
	got = pread(fd, buf, len - 1, 0);
	ck_assert_int_ge(got, 0);
	buf[got] = '\0';
	close(fd);
	return rc;
}

/*
 * mLib's "list" through the library: bm_ctx_set_timer() prints one line
 * per subtimer to stdout; alone it keeps the timer, beside clock= it
 * also sets it; a bad word beside it fails before anything is printed.
 */
START_TEST(test_timer_list)
{
	char buf[8192], *p;
	size_t n, lines = 0;
	bm_subtimer_info info[64];
	bm_ctx *ctx = fake_ctx("clock=posix-thread-cputime");

	ck_assert_int_eq(bm_timer_list(info, 64, &n), 0);
	ck_assert_int_eq(set_timer_capture(ctx, " list ", buf, sizeof buf), 0);
	for (p = buf; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	ck_assert_uint_eq(lines, n);
	ck_assert_ptr_nonnull(strstr(buf, "clock  posix-monotonic "));
	ck_assert_ptr_nonnull(strstr(buf, "cycle  null "));
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "posix-thread-cputime");
	ck_assert_int_eq(set_timer_capture(ctx, "list clock=stdc-clock", buf,
	    sizeof buf), 0);
	ck_assert_ptr_nonnull(strstr(buf, "stdc-clock"));
	ck_assert_str_eq(bm_ctx_timer_name(ctx, BM_SUBTIMER_CLOCK),
	    "stdc-clock");
	ck_assert_int_eq(set_timer_capture(ctx, "list bogus", buf, sizeof buf),
	    BM_ECONFIG);
	ck_assert_str_eq(buf, "");
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_measure_real)
{
	bm_measurement m;
	bm_options o;
	bm_ctx *ctx;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	bm_options_init(&o);
	o.repetitions = 5;
	ck_assert_msg(bm_measure(ctx, busy_bench, NULL, &o, &m) == 0, "%s",
	    bm_ctx_errmsg(ctx));
	ck_assert_uint_ge(m.n, 1);
	ck_assert_uint_eq(m.result.nsamples, 5);
	ck_assert(m.seconds > 0);
	ck_assert(m.base_ns >= 0);
	ck_assert(isnan(m.cycles));
	ck_assert(isnan(m.base_cycles));
	ck_assert(m.result.per_op_ns.median > 0);
	ck_assert(m.result.per_op_ns.min <= m.result.per_op_ns.max);
	ck_assert_uint_ge(m.result.enough_us, 100);
	bm_result_free(&m.result);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_measure_errors)
{
	bm_measurement m;
	bm_options o;
	bm_ctx *ctx;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_measure(NULL, busy_bench, NULL, NULL, &m),
	    -EINVAL);
	ck_assert_int_eq(bm_measure(ctx, NULL, NULL, NULL, &m), -EINVAL);
	ck_assert_int_eq(bm_measure(ctx, busy_bench, NULL, NULL, NULL),
	    -EINVAL);
	bm_options_init(&o);
	o.parallel = 2;
	ck_assert_int_eq(bm_measure(ctx, busy_bench, NULL, &o, &m), BM_ERANGE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "parallel"));
	bm_options_init(&o);
	o.repetitions = 0;
	ck_assert_int_eq(bm_measure(ctx, busy_bench, NULL, &o, &m), BM_ERANGE);
	bm_options_init(&o);
	o.percentiles = 10;
	ck_assert_int_eq(bm_measure(ctx, busy_bench, NULL, &o, &m),
	    BM_ENOTSUP);
	ck_assert_int_eq(bm_measure(ctx, failing_bench, NULL, NULL, &m),
	    BM_EBENCH);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "benchmark failed"));
	ck_assert_ptr_null(m.result.samples);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * The engine with the fake cycle counter: calibration finds its
 * overheads exactly (a read pair costs FAKE_CYCLE_READ, an empty loop
 * iteration nothing), the intervals' cycles have them taken off, and the
 * single operations of --percentiles come in cycles too.
 */
START_TEST(test_cycle_overhead_and_percentiles)
{
	bm_bench b = { .benchmark = fake_bench };
	bm_calibration cal;
	bm_result r;
	bm_options o;
	bm_record rec;
	bm_ctx *ctx;
	char *json;
	size_t k;

	register_fakes();
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_timer(ctx,
	    "clock=posix-monotonic cycle=fake-cycles"), 0);
	ck_assert_msg(bm_calibrate(ctx, &cal) == 0, "%s", bm_ctx_errmsg(ctx));
	ck_assert_double_eq(cal.cycle_o, FAKE_CYCLE_READ);
	ck_assert_double_eq(cal.loop_o_cycles, 0);
	bm_options_init(&o);
	o.repetitions = 3;
	o.processes = 1;
	o.percentiles = 200;
	check_run_ok(ctx, &b, &o, &r);
	for (k = 0; k < r.nsamples; k++)
		ck_assert_double_eq(r.samples[k].cycles,
		    (double)(FAKE_OP_CYCLES * r.samples[k].n));
	ck_assert_double_eq(r.cycles_per_op, FAKE_OP_CYCLES);
	ck_assert_uint_eq(r.nop, 200);
	ck_assert_ptr_nonnull(r.op_cycles);
	ck_assert_double_eq(r.op_cycles[0], FAKE_OP_CYCLES);
	ck_assert_double_eq(r.op_cycles[r.nop - 1], FAKE_OP_CYCLES);
	ck_assert_double_eq(r.op_mean_cycles, FAKE_OP_CYCLES);
	ck_assert_double_eq(r.op_var_cycles, 0);
	ck_assert(isfinite(r.op_mean_ns) && r.op_mean_ns >= 0);
	ck_assert(isfinite(r.op_var_ns) && r.op_var_ns >= 0);
	ck_assert_int_eq(bm_record_latency(&rec, "fake", "op", "ns", &r), 0);
	ck_assert_int_eq(bm_record_json(ctx, &rec, &json), 0);
	ck_assert_ptr_nonnull(strstr(json, "\"cycle_o\":10,"
	    "\"loop_o_cycles\":0,"));
	ck_assert_ptr_nonnull(strstr(json, "\"cycles\":{\"unit\":\"cycles\","
	    "\"min\":3,\"p50\":3,\"p90\":3,\"p99\":3,\"p99.9\":3,\"max\":3,"
	    "\"mean\":3,\"variance\":0}"));
	ck_assert_ptr_nonnull(strstr(json, "\"variance\":"));
	free(json);
	bm_result_free(&r);
	ck_assert_ptr_null(r.op_cycles);
	bm_ctx_free(ctx);
}
END_TEST

/* Without a cycle subtimer there are no cycle figures, only times. */
START_TEST(test_percentiles_without_cycles)
{
	bm_bench b = { .benchmark = busy_bench };
	bm_calibration cal;
	bm_result r;
	bm_options o;
	bm_ctx *ctx;
	double sum = 0;
	size_t k;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_calibrate(ctx, &cal), 0);
	ck_assert(isnan(cal.cycle_o) && isnan(cal.loop_o_cycles));
	bm_options_init(&o);
	o.repetitions = 3;
	o.processes = 1;
	o.percentiles = 100;
	check_run_ok(ctx, &b, &o, &r);
	ck_assert_uint_eq(r.nop, 100);
	ck_assert_ptr_null(r.op_cycles);
	ck_assert(isnan(r.op_mean_cycles) && isnan(r.op_var_cycles));
	for (k = 0; k < r.nop; k++)
		sum += r.op_ns[k];
	ck_assert_double_eq_tol(r.op_mean_ns, sum / 100, 1e-9 * sum + 1e-12);
	ck_assert(r.op_var_ns >= 0);
	bm_result_free(&r);
	bm_ctx_free(ctx);
}
END_TEST

/* Run the suite: every test in its own process with a timeout. */
int
main(void)
{
	const TTest *const tests[] = {
		test_register_errors,
		test_register_listed_and_used,
		test_measure_exact,
		test_measure_base,
		test_timer_now,
		test_no_time,
		test_timer_list,
		test_measure_real,
		test_measure_errors,
		test_cycle_overhead_and_percentiles,
		test_percentiles_without_cycles,
	};

	return check_suite_main("measure", 30, tests,
	    sizeof tests / sizeof *tests);
}
