/* check_events.c: counters, single-operation times, commands and regions. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_common.h"
#include "check_run.h"
#include "internal.h"

#define FRESH_PAGES 8

START_TEST(test_parse)
{
	bm__events ev;
	char err[256];

	ck_assert_int_eq(bm__events_parse(&ev, "page-faults,task-clock,r01c2",
	    err, sizeof err), 0);
	ck_assert_uint_eq(ev.n, 3);
	ck_assert_str_eq(ev.info[2].name, "r01c2");
	ck_assert_uint_eq(ev.config[2], 0x1c2);
	ck_assert_int_eq(bm__events_parse(&ev, "", err, sizeof err), 0);
	ck_assert_uint_eq(ev.n, 0);
	ck_assert_int_eq(bm__events_parse(&ev, "cycles,bogus", err,
	    sizeof err), BM_ECONFIG);
	ck_assert_ptr_nonnull(strstr(err, "'bogus'"));
	ck_assert_int_eq(bm__events_parse(&ev, "rxyz", err, sizeof err),
	    BM_ECONFIG);
	ck_assert_int_eq(bm__events_parse(&ev, "r", err, sizeof err),
	    BM_ECONFIG);
	ck_assert_int_eq(bm__events_parse(&ev, "cycles,,task-clock", err,
	    sizeof err), BM_EPARSE);
	ck_assert_int_eq(bm__events_parse(&ev, "cycles,", err, sizeof err),
	    BM_EPARSE);
	ck_assert_int_eq(bm__events_parse(&ev, "cycles,cycles", err,
	    sizeof err), BM_ECONFIG);
	ck_assert_ptr_nonnull(strstr(err, "twice"));
	ck_assert_int_eq(bm__events_parse(&ev, "cycles,instructions,"
	    "cache-references,cache-misses,branch-misses,task-clock,"
	    "page-faults,context-switches,cpu-migrations", err, sizeof err),
	    BM_ERANGE);
}
END_TEST

/* Each operation maps FRESH_PAGES new pages, touches them, unmaps them. */
static int
bench_fresh_pages(bm_iter_t n, void *cookie)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int i;

	(void)cookie;
	while (n-- > 0) {
		p = mmap(NULL, (size_t)page * FRESH_PAGES,
		    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		for (i = 0; i < FRESH_PAGES; i++)
			p[(size_t)i * (size_t)page] = 1;
		munmap(p, (size_t)page * FRESH_PAGES);
	}
	return 0;
}

START_TEST(test_page_faults)
{
	bm_bench b = { .benchmark = bench_fresh_pages };
	bm_options o;
	bm_result r;
	bm_ctx *ctx = check_ctx(2000);
	size_t k;

	ck_assert_int_eq(bm_ctx_set_events(ctx, "page-faults,task-clock,"
	    "context-switches,cycles"), 0);
	bm_options_init(&o);
	o.parallel = 2;
	o.repetitions = 5;
	check_run_ok(ctx, &b, &o, &r);
	ck_assert_uint_eq(r.nevents, 4);
	/* Software events count here: real faults, at least one per page. */
	ck_assert_int_eq(r.events[0].status, 0);
	ck_assert_msg(r.event_per_op[0] >= FRESH_PAGES, "%.2f page faults "
	    "per operation touching %d fresh pages", r.event_per_op[0],
	    FRESH_PAGES);
	ck_assert_int_eq(r.events[1].status, 0);
	ck_assert(r.event_per_op[1] > 0);
	for (k = 0; k < r.nsamples; k++)
		ck_assert(r.samples[k].events[0] >= (double)FRESH_PAGES *
		    (double)r.samples[k].n);
	/* A hardware event is reported exactly as this machine allows. */
	if (check_hw_cycles_work()) {
		ck_assert_int_eq(r.events[3].status, 0);
		ck_assert(r.event_per_op[3] > 0);
	} else {
		ck_assert_int_eq(r.events[3].status, BM_ENOTSUP);
		ck_assert_ptr_nonnull(strstr(r.events[3].detail,
		    "not supported"));
		ck_assert(isnan(r.event_per_op[3]));
		ck_assert(isnan(r.samples[0].events[3]));
	}
	check_end_run(ctx, &r);
}
END_TEST

/* A short spin of known cost: 2 us of wall time. */
static int
bench_spin2us(bm_iter_t n, void *cookie)
{
	(void)cookie;
	while (n-- > 0)
		check_spin_ns(2000);
	return 0;
}

START_TEST(test_percentiles)
{
	bm_bench b = { .benchmark = bench_spin2us };
	bm_options o;
	bm_result r;
	bm_ctx *ctx = check_ctx(2000);
	size_t k;

	bm_options_init(&o);
	o.repetitions = 3;
	o.percentiles = 2000;
	check_run_ok(ctx, &b, &o, &r);
	ck_assert_uint_eq(r.nop, 2000);
	for (k = 1; k < r.nop; k++)
		ck_assert(r.op_ns[k - 1] <= r.op_ns[k]);
	/* Each operation lasts 2 us by construction: the median is near. */
	ck_assert_msg(bm_percentile(r.op_ns, r.nop, 50) >= 1950 &&
	    bm_percentile(r.op_ns, r.nop, 50) <= 3000, "p50 %.1f ns",
	    bm_percentile(r.op_ns, r.nop, 50));
	ck_assert(r.op_ns[0] >= 1900);
	ck_assert(bm_percentile(r.op_ns, r.nop, 99) >=
	    bm_percentile(r.op_ns, r.nop, 50));
	bm_result_free(&r);
	ck_assert_ptr_null(r.op_ns);
	o.percentiles = BM_MAX_PERCENTILE_OPS + 1;
	ck_assert_int_eq(bm_run(ctx, &b, &o, &r), BM_ERANGE);
	bm_ctx_free(ctx);
	check_no_children();
}
END_TEST

START_TEST(test_percentile_math)
{
	const double v[] = { 1, 2, 3, 4, 5 };

	ck_assert(bm_percentile(v, 5, 0) == 1);
	ck_assert(bm_percentile(v, 5, 50) == 3);
	ck_assert(bm_percentile(v, 5, 100) == 5);
	ck_assert(fabs(bm_percentile(v, 5, 90) - 4.6) < 1e-9);
	ck_assert(isnan(bm_percentile(v, 0, 50)));
	ck_assert(isnan(bm_percentile(v, 5, 101)));
}
END_TEST

START_TEST(test_command)
{
	char *ok[] = { "sh", "-c", "exit 0", NULL };
	char *bad[] = { "sh", "-c", "exit 3", NULL };
	char *missing[] = { "/nonexistent/command", NULL };
	char *hang[] = { "sleep", "10", NULL };
	bm_result r;
	bm_ctx *ctx = check_ctx(2000);
	uint64_t t0;

	ck_assert_int_eq(bm_ctx_set_events(ctx, "page-faults,task-clock"), 0);
	ck_assert_msg(bm_run_command(ctx, ok, 3, 0, &r) == 0, "%s",
	    bm_ctx_errmsg(ctx));
	ck_assert_uint_eq(r.nsamples, 3);
	ck_assert(r.per_op_ns.median > 10000);	/* exec takes microseconds */
	/* Counted in the command from its exec on: a shell faults pages. */
	ck_assert(r.event_per_op[0] >= 10);
	ck_assert(r.event_per_op[1] > 0);
	bm_result_free(&r);
	ck_assert_int_eq(bm_run_command(ctx, bad, 3, 0, &r), BM_EBENCH);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "sh exited with status 3"));
	ck_assert_int_eq(bm_run_command(ctx, missing, 1, 0, &r), BM_EBENCH);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "cannot run /nonexistent/command"));
	t0 = bm__deadline_now();
	ck_assert_int_eq(bm_run_command(ctx, hang, 1, 300000, &r),
	    BM_ETIMEDOUT);
	/* Killed at 0.3 s; 9 s is a hang guard for a loaded machine. */
	ck_assert(bm__deadline_now() - t0 < 9000000000u);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "killed"));
	ck_assert_int_eq(bm_run_command(ctx, ok, 0, 0, &r), BM_ERANGE);
	bm_ctx_free(ctx);
	check_no_children();
}
END_TEST

/*
 * A command's end is named rightly in an application that ignores
 * SIGCHLD: the kernel reaped it unwaited, and the run failed with
 * "waiting for sh: No child processes".  The disposition is the
 * application's again after the run.
 */
START_TEST(test_command_sigchld_ignored)
{
	char *bad[] = { "sh", "-c", "exit 3", NULL };
	char *killed[] = { "sh", "-c", "kill -9 $$", NULL };
	struct sigaction sa;
	bm_result r;
	bm_ctx *ctx = check_ctx(2000);

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	ck_assert_int_eq(sigaction(SIGCHLD, &sa, NULL), 0);
	ck_assert_int_eq(bm_run_command(ctx, bad, 1, 0, &r), BM_EBENCH);
	ck_assert_msg(strstr(bm_ctx_errmsg(ctx), "sh exited with status 3")
	    != NULL, "%s", bm_ctx_errmsg(ctx));
	ck_assert_int_eq(bm_run_command(ctx, killed, 1, 0, &r), BM_EBENCH);
	ck_assert_msg(strstr(bm_ctx_errmsg(ctx), "sh was killed by signal 9")
	    != NULL, "%s", bm_ctx_errmsg(ctx));
	ck_assert_int_eq(sigaction(SIGCHLD, NULL, &sa), 0);
	ck_assert(sa.sa_handler == SIG_IGN);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_region)
{
	char path[] = "/tmp/check_events.XXXXXX", spec[64], line[65536];
	bm_region *rg;
	bm_result r;
	bm_ctx *ctx = check_ctx(2000);
	double median = 0;
	int i, attempt;

	ck_assert_int_eq(bm_region_new(ctx, "spin", &rg), 0);
	/*
	 * A known cost: 2 us of spinning per region.  Preemption on a
	 * shared machine only lengthens a region: retry before failing.
	 */
	for (attempt = 0; attempt < 5; attempt++) {
		for (i = 0; i < 200; i++) {
			bm_region_start(rg);
			(void)bench_spin2us(1, NULL);
			bm_region_stop(rg);
		}
		ck_assert_int_eq(bm_region_result(rg, &r), 0);
		median = r.per_op_ns.median;
		ck_assert(r.per_op_ns.min >= 1950);
		bm_result_free(&r);
		if (median <= 2500)
			break;
	}
	ck_assert_msg(median >= 1950 && median <= 2500, "median %.1f ns",
	    median);
	/* The cumulative record goes through a sink. */
	check_sink_file(path, spec, sizeof spec);
	check_region_write(ctx, rg, spec);
	check_first_line(path, line, sizeof line);
	ck_assert_int_eq(truncate(path, 0), 0);
	ck_assert_ptr_nonnull(strstr(line, "\"tool\":\"region\",\"case\":"
	    "\"spin\""));
	ck_assert_ptr_nonnull(strstr(line, "\"count\":"));
	/* Without a sink, the configured one: BENCHMP_OUTPUT. */
	setenv("BENCHMP_OUTPUT", spec, 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), 0);
	ck_assert_int_eq(bm_region_write(rg, NULL), 0);
	check_first_line(path, line, sizeof line);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(line, "\"case\":\"spin\""));
	/* A bad one is refused when the settings are read. */
	setenv("BENCHMP_OUTPUT", "bogus", 1);
	ck_assert_int_eq(bm_ctx_load_env(ctx), BM_ECONFIG);
	unsetenv("BENCHMP_OUTPUT");
	bm_region_free(rg);
	bm_ctx_free(ctx);
}
END_TEST

/* Counters of two members as a group, fed by hand: nothing is read. */
static void
events_fake_group(bm__counters *c, bm__events *ev)
{
	char err[256];

	ck_assert_int_eq(bm__events_parse(ev, "cycles,instructions", err,
	    sizeof err), 0);
	ev->info[0].status = ev->info[1].status = 0;
	memset(c, 0, sizeof *c);
	c->leader = 99;
	c->nopen = 2;
	c->slot[0] = 0;
	c->slot[1] = 1;
}

/*
 * Multiplexed counters: each stretch between two readings is scaled by
 * its own share of time running, so the difference of two readings is
 * the count between them; a group the PMU never ran counted nothing that
 * can be scaled (NAN, as for an event not counted, not 0).
 */
START_TEST(test_multiplexed)
{
	/* nr, time enabled, time running, the two counts. */
	static const uint64_t ran[] = { 2, 1000, 1000, 10, 20 };
	static const uint64_t half[] = { 2, 2000, 1500, 20, 40 };
	static const uint64_t never[] = { 2, 1000, 0, 0, 0 };
	static const uint64_t then[] = { 2, 3000, 1000, 50, 0 };
	static const uint64_t still[] = { 2, 4000, 1000, 50, 0 };
	bm__counters c;
	bm__events ev;
	double v[BM_MAX_EVENTS], v0;

	events_fake_group(&c, &ev);
	bm__counters_take(&c, &ev, ran, v);
	ck_assert_double_eq_tol(v[0], 10, 1e-9);
	ck_assert_double_eq_tol(v[1], 20, 1e-9);
	v0 = v[0];
	/*
	 * The next 1000 ns enabled ran 500: 10 counted, 20 estimated.  The
	 * reading scaled as a whole (20 * 2000 / 1500) would say 16.7.
	 */
	bm__counters_take(&c, &ev, half, v);
	ck_assert_double_eq_tol(v[0] - v0, 20, 1e-9);
	ck_assert_double_eq_tol(v[1], 60, 1e-9);

	events_fake_group(&c, &ev);
	bm__counters_take(&c, &ev, never, v);
	ck_assert(isnan(v[0]) && isnan(v[1]));
	/* The next reading that ran scales the whole stretch since the open. */
	bm__counters_take(&c, &ev, then, v);
	ck_assert_double_eq_tol(v[0], 150, 1e-9);
	ck_assert_double_eq_tol(v[1], 0, 1e-9);
	v0 = v[0];
	/* Not run since that reading: unknown again, never a count of 0. */
	bm__counters_take(&c, &ev, still, v);
	ck_assert(isnan(v[0]) && isnan(v[1]) && isnan(v[0] - v0));
}
END_TEST

/*
 * The median count per operation is over the intervals that counted the
 * event: an interval without a count (NAN) is left out, and an event no
 * interval counted is NAN, without failing the merge.
 */
START_TEST(test_merge_uncounted)
{
	bm_sample s[4];
	bm_result r;
	bm_ctx *ctx;
	size_t k;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	memset(s, 0, sizeof s);
	memset(&r, 0, sizeof r);
	for (k = 0; k < 4; k++) {
		s[k].n = 10;
		s[k].ns = 1000;
		s[k].cycles = NAN;
		s[k].events[1] = NAN;
	}
	s[0].events[0] = NAN;
	s[1].events[0] = NAN;
	s[2].events[0] = NAN;
	s[3].events[0] = 50;
	r.samples = s;
	r.nsamples = 4;
	r.parallel = 1;
	r.repetitions = 4;
	r.processes = 1;
	r.nevents = 2;
	ck_assert_int_eq(bm__result_merge(ctx, &r, 4), 0);
	ck_assert_double_eq_tol(r.event_per_op[0], 5, 1e-9);
	ck_assert(isnan(r.event_per_op[1]));
	free(r.process_ns);
	free(r.process_ops_per_s);
	bm_ctx_free(ctx);
}
END_TEST

/* Run the suite: every test in its own process with a timeout. */
int
main(void)
{
	const TTest *const tests[] = {
		test_parse,
		test_page_faults,
		test_percentiles,
		test_percentile_math,
		test_command,
		test_command_sigchld_ignored,
		test_region,
		test_multiplexed,
		test_merge_uncounted,
	};

	return check_suite_main("events", 60, tests,
	    sizeof tests / sizeof *tests);
}
