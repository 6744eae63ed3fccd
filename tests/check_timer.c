/* check_timer.c: the timer registry, the config string and the backends. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "internal.h"

/* Every clock, and whether it measures CPU time rather than elapsed time. */
static const struct {
	const char *name;
	int cputime;
} clocks[] = {
	{ "posix-monotonic", 0 },
	{ "posix-monotonic-raw", 0 },
	{ "posix-thread-cputime", 1 },
	{ "stdc-clock", 1 }
};

/* Return 1 when /proc/cpuinfo lists a CPU flag. */
static int
cpu_has_flag(const char *flag)
{
	char line[4096], pat[64];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (f == NULL)
		return -1;
	snprintf(pat, sizeof pat, " %s", flag);
	while (!found && fgets(line, sizeof line, f) != NULL) {
		char *p;

		if (strncmp(line, "flags", 5) != 0)
			continue;
		for (p = strstr(line, pat); p != NULL;
		    p = strstr(p + 1, pat)) {
			char end = p[strlen(pat)];

			if (end == ' ' || end == '\n' || end == '\0')
				found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Burn CPU for about ms milliseconds of elapsed time. */
static void
spin_ms(unsigned ms)
{
	uint64_t end = bm__deadline_now() + ms * 1000000ull;
	volatile unsigned x = 0;

	while (bm__deadline_now() < end)
		x++;
}

/*
 * Burn ms milliseconds of this process's CPU time, as the kernel counts it
 * (CLOCK_PROCESS_CPUTIME_ID), giving up after 30 s of elapsed time: on a
 * loaded machine a spin of 20 ms elapsed may get only a sliver of CPU,
 * which a CPU-time clock rightly does not count.
 */
static void
spin_cpu_ms(unsigned ms)
{
	uint64_t give_up = bm__deadline_now() + 30000000000ull;
	struct timespec a, b;
	volatile unsigned x = 0;

	ck_assert_int_eq(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a), 0);
	do {
		x++;
		ck_assert_int_eq(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b),
		    0);
	} while ((uint64_t)(b.tv_sec - a.tv_sec) * 1000000000ull +
	    (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec < ms * 1000000ull &&
	    bm__deadline_now() < give_up);
}

START_TEST(test_default)
{
	bm__timer t;
	char err[256];

	ck_assert_int_eq(bm__timer_init(&t, NULL, err, sizeof err), 0);
	ck_assert_str_eq(t.clock->name, "posix-monotonic");
	ck_assert_str_eq(t.cycle->name, "null");
	ck_assert(!bm__timer_has_cycles(&t));
	bm__timer_fini(&t);
	ck_assert_int_eq(bm__timer_init(&t, "", err, sizeof err), 0);
	ck_assert_str_eq(t.clock->name, "posix-monotonic");
	bm__timer_fini(&t);
	ck_assert_int_eq(bm__timer_init(&t, " list ", err, sizeof err), 0);
	bm__timer_fini(&t);
	/* Any blanks separate words; the order of the words is free. */
	ck_assert_msg(bm__timer_init(&t, "\tcycle=null\n clock=stdc-clock ",
	    err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(t.clock->name, "stdc-clock");
	ck_assert_str_eq(t.cycle->name, "null");
	bm__timer_fini(&t);
}
END_TEST

START_TEST(test_each_clock)
{
	const char *name = clocks[_i].name;
	struct timespec ts = { 0, 2000000 };
	bm__timer t;
	char cfg[64], err[256];
	uint64_t prev, now, t0, t1;
	int i;

	snprintf(cfg, sizeof cfg, "clock=%s", name);
	ck_assert_msg(bm__timer_init(&t, cfg, err, sizeof err) == 0, "%s: %s",
	    name, err);
	ck_assert_str_eq(t.clock->name, name);
	prev = bm__clock_now(&t);
	for (i = 0; i < 1000; i++) {
		now = bm__clock_now(&t);
		ck_assert_msg(now >= prev, "%s went backwards", name);
		prev = now;
	}
	/*
	 * CPU-time clocks only advance while running: spin 20 ms of CPU time
	 * as the kernel counts it, not sleep.  The bounds are loose on
	 * purpose (the reference and the clock differ in granularity).
	 */
	t0 = bm__clock_now(&t);
	if (clocks[_i].cputime)
		spin_cpu_ms(20);
	else
		ck_assert_int_eq(nanosleep(&ts, NULL), 0);
	t1 = bm__clock_now(&t);
	ck_assert_msg(t1 - t0 >= 1000000u && t1 - t0 < 1000000000u,
	    "%s: %s read as %llu ns", name,
	    clocks[_i].cputime ? "20 ms of spinning" : "a 2 ms sleep",
	    (unsigned long long)(t1 - t0));
	bm__timer_fini(&t);
}
END_TEST

START_TEST(test_monotonic_sleep)
{
	struct timespec ts = { 0, 2000000 };
	bm__timer t;
	char err[256];
	uint64_t t0, t1;

	ck_assert_int_eq(bm__timer_init(&t, NULL, err, sizeof err), 0);
	t0 = bm__clock_now(&t);
	nanosleep(&ts, NULL);
	t1 = bm__clock_now(&t);
	ck_assert(t1 - t0 >= 2000000u && t1 - t0 < 1000000000u);
	bm__timer_fini(&t);
}
END_TEST

struct bad_config {
	const char *config;
	int rc;
	const char *names;	/* the message must contain this */
};

static const struct bad_config bad_configs[] = {
	{ "bogus", BM_ECONFIG, "'bogus'" },
	{ "clock=nope", BM_ECONFIG, "'nope'" },
	{ "clock=posix-monotonic,nope", BM_ECONFIG, "'nope'" },
	{ "cycle=posix-monotonic", BM_ECONFIG, "is a clock" },
	{ "clock=null", BM_ECONFIG, "is a cycle counter" },
	{ "clock=", BM_EPARSE, "clock=" },
	{ "cycle=", BM_EPARSE, "cycle=" },
	{ "clock=stdc-clock,,posix-monotonic", BM_EPARSE, "empty name" },
	{ "clock=stdc-clock clock=stdc-clock", BM_ECONFIG, "repeats" },
	{ "clock:posix-monotonic", BM_ECONFIG, "clock:posix-monotonic" },
	{ "CLOCK=posix-monotonic", BM_ECONFIG, "CLOCK" },
};

START_TEST(test_bad_config)
{
	const struct bad_config *c = &bad_configs[_i];
	bm__timer t;
	char err[256] = "";
	int rc;

	rc = bm__timer_init(&t, c->config, err, sizeof err);
	ck_assert_msg(rc == c->rc, "'%s': rc %d (%s)", c->config, rc, err);
	ck_assert_msg(strstr(err, c->names) != NULL, "'%s': message '%s'",
	    c->config, err);
	ck_assert_ptr_null(t.clock);
	ck_assert_ptr_null(t.cycle);
}
END_TEST

START_TEST(test_rdtscp)
{
	int has = cpu_has_flag("rdtscp");
	bm__timer t;
	char err[256];
	int rc;

	rc = bm__timer_init(&t, "cycle=x86-rdtscp", err, sizeof err);
#ifdef BM_HAVE_X86
	ck_assert_int_ne(has, -1);
	if (has) {
		ck_assert_msg(rc == 0, "%s", err);
		ck_assert(bm__timer_has_cycles(&t));
		ck_assert(bm__cycle_now(&t) < bm__cycle_now(&t));
		bm__timer_fini(&t);
	} else {
		ck_assert_int_eq(rc, BM_ENOTIMER);
		ck_assert_msg(strstr(err, "CPU lacks RDTSCP") != NULL, "%s",
		    err);
	}
#else
	(void)has;
	ck_assert_int_eq(rc, BM_ENOTIMER);
	ck_assert_ptr_nonnull(strstr(err, "not built"));
#endif
}
END_TEST

START_TEST(test_rdtsc_or_fallback)
{
	bm__timer t;
	char err[256];
	uint64_t a, b;

	/* Where x86-rdtsc works it counts; elsewhere null is chosen. */
	ck_assert_int_eq(bm__timer_init(&t, "cycle=x86-rdtsc,null", err,
	    sizeof err), 0);
#ifdef BM_HAVE_X86
	ck_assert_str_eq(t.cycle->name, "x86-rdtsc");
	a = bm__cycle_now(&t);
	spin_ms(1);
	b = bm__cycle_now(&t);
	ck_assert(b > a);
#else
	(void)a;
	(void)b;
	ck_assert_str_eq(t.cycle->name, "null");
#endif
	bm__timer_fini(&t);
}
END_TEST

START_TEST(test_perf_event)
{
	bm__timer t;
	char err[256];
	uint64_t a, b;
	pid_t pid;
	int rc, st;

	rc = bm__timer_init(&t, "cycle=linux-perf-event", err, sizeof err);
	if (!check_hw_cycles_work()) {
		/* The case on a VM without counters: a clean refusal. */
		ck_assert_int_eq(rc, BM_ENOTIMER);
		ck_assert_msg(strstr(err, "linux-perf-event") != NULL, "%s",
		    err);
#ifdef BM_HAVE_PERF_EVENT
		ck_assert_msg(strstr(err, "perf_event_open") != NULL, "%s",
		    err);
#endif
		/* And the fallback list picks null. */
		ck_assert_int_eq(bm__timer_init(&t,
		    "cycle=linux-perf-event,null", err, sizeof err), 0);
		ck_assert_str_eq(t.cycle->name, "null");
		bm__timer_fini(&t);
		return;
	}
	ck_assert_msg(rc == 0, "%s", err);
	a = bm__cycle_now(&t);
	spin_cpu_ms(2);
	b = bm__cycle_now(&t);
	ck_assert(b > a);
	/* The counter is per process: a child reopens its own. */
	if ((pid = fork()) == 0) {
		if (bm__timer_after_fork(&t) != 0)
			_exit(1);
		a = bm__cycle_now(&t);
		spin_cpu_ms(2);
		_exit(bm__cycle_now(&t) > a ? 0 : 2);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	bm__timer_fini(&t);
}
END_TEST

START_TEST(test_after_fork)
{
	const char *cfg = "clock=posix-monotonic-raw cycle=x86-rdtsc,null";
	bm__timer t;
	char err[256];
	uint64_t a;
	pid_t pid;
	int st;

	/* A forked worker reopens what it must and reads both subtimers. */
	ck_assert_msg(bm__timer_init(&t, cfg, err, sizeof err) == 0, "%s", err);
	if ((pid = fork()) == 0) {
		if (bm__timer_after_fork(&t) != 0)
			_exit(1);
		a = bm__clock_now(&t);
		spin_ms(2);
		if (bm__clock_now(&t) <= a)
			_exit(2);
		if (bm__timer_has_cycles(&t)) {
			a = bm__cycle_now(&t);
			spin_ms(2);
			if (bm__cycle_now(&t) <= a)
				_exit(3);
		}
		bm__timer_fini(&t);
		_exit(0);
	}
	ck_assert_int_ne(pid, -1);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "child status %d", st);
	bm__timer_fini(&t);
}
END_TEST

START_TEST(test_list)
{
	bm_subtimer_info info[16];
	bm__timer t;
	char cfg[64], err[256];
	size_t n, i, j;
	int rc;

	ck_assert_int_eq(bm_timer_list(info, 16, &n), 0);
	ck_assert_uint_ge(n, 8);
	ck_assert_uint_le(n, 16);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			ck_assert_str_ne(info[i].name, info[j].name);
		snprintf(cfg, sizeof cfg, "%s=%s",
		    info[i].kind == BM_SUBTIMER_CLOCK ? "clock" : "cycle",
		    info[i].name);
		rc = bm__timer_init(&t, cfg, err, sizeof err);
		/* The list and a real initialisation agree. */
		ck_assert_msg((rc == 0) == (info[i].status == 0),
		    "%s: list says %d, init says %d (%s)", info[i].name,
		    info[i].status, rc, err);
		ck_assert(strlen(info[i].detail) > 0);
		if (rc == 0)
			bm__timer_fini(&t);
	}
	/* A short buffer still reports the total. */
	ck_assert_int_eq(bm_timer_list(info, 2, &n), 0);
	ck_assert_uint_ge(n, 8);
}
END_TEST

START_TEST(test_wants_list)
{
	ck_assert_int_eq(bm_timer_config_wants_list("list"), 1);
	ck_assert_int_eq(bm_timer_config_wants_list("clock=x list"), 1);
	ck_assert_int_eq(bm_timer_config_wants_list("clock=list-ish"), 0);
	ck_assert_int_eq(bm_timer_config_wants_list("listing"), 0);
	ck_assert_int_eq(bm_timer_config_wants_list(""), 0);
	ck_assert_int_eq(bm_timer_config_wants_list(NULL), 0);
}
END_TEST

/* Build the suite. */
static Suite *
timer_suite(void)
{
	Suite *s = suite_create("timer");
	TCase *tc = tcase_create("timer");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_default);
	tcase_add_loop_test(tc, test_each_clock, 0,
	    (int)(sizeof clocks / sizeof clocks[0]));
	tcase_add_test(tc, test_monotonic_sleep);
	tcase_add_loop_test(tc, test_bad_config, 0,
	    (int)(sizeof bad_configs / sizeof bad_configs[0]));
	tcase_add_test(tc, test_rdtscp);
	tcase_add_test(tc, test_rdtsc_or_fallback);
	tcase_add_test(tc, test_perf_event);
	tcase_add_test(tc, test_after_fork);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_wants_list);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(timer_suite());
}
