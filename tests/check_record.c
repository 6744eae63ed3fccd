/* check_record.c: results as JSON lines, checked with jq. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "internal.h"

#define NSAMPLES 6

static bm_sample samples[NSAMPLES];
static bm_result result;

/* A result of six samples of 100 to 150 ns per operation. */
static void
record_setup(void)
{
	double v[NSAMPLES];
	int i;

	for (i = 0; i < NSAMPLES; i++) {
		samples[i].n = 1000;
		samples[i].ns = (100.0 + 10 * i) * 1000;
		samples[i].cycles = NAN;
		samples[i].worker = (unsigned)i / 3;
		v[i] = samples[i].ns / (double)samples[i].n;
	}
	memset(&result, 0, sizeof result);
	ck_assert_int_eq(bm_stats_compute(v, NSAMPLES, &result.per_op_ns), 0);
	result.samples = samples;
	result.nsamples = NSAMPLES;
	result.parallel = 2;
	result.repetitions = 3;
	result.enough_us = 2000;
	result.wall_s = 0.25;
	result.ops_per_s = 1.6e7;
	result.cycles_per_op = NAN;
}

/* A latency record in microseconds. */
static void
record_latency(bm_record *rec, const bm_param *params, size_t n)
{
	memset(rec, 0, sizeof *rec);
	rec->tool = "lat_test";
	rec->case_name = "null";
	rec->params = params;
	rec->nparams = n;
	rec->metric = "latency";
	rec->unit = "us";
	rec->value = result.per_op_ns.median / 1000;
	rec->scale = 1e-3;
	rec->result = &result;
}

/* A latency record of the samples in nproc rounds of equal size, in order. */
static void
record_rounds(bm_record *rec, unsigned nproc)
{
	int i;

	for (i = 0; i < NSAMPLES; i++)
		samples[i].process = (unsigned)i * nproc / NSAMPLES;
	result.processes = nproc;
	result.parallel = 1;
	record_latency(rec, NULL, 0);
}

/* Return 1 when jq runs here. */
static int
have_jq(void)
{
	return system("jq --version >/dev/null 2>&1") == 0;
}

/*
 * Run jq with a filter over a JSON line and return its first output line
 * (without the newline) in out; the exit status of jq is returned.
 */
static int
jq(const char *json, const char *args, char *out, size_t len)
{
	char path[] = "/tmp/check_record.XXXXXX", cmd[2048];
	FILE *f, *p;
	int fd, st;

	out[0] = '\0';
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(json, f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "jq %s %s", args, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	if (fgets(out, (int)len, p) != NULL)
		out[strcspn(out, "\n")] = '\0';
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	unlink(path);
	return st;
}

/* Read a record's min, median and max through jq. */
static void
record_min_median_max(const char *json, double *mn, double *md, double *mx)
{
	char out[256];

	ck_assert_int_eq(jq(json, "-r '\"\\(.min) \\(.median) \\(.max)\"'",
	    out, sizeof out), 0);
	ck_assert_int_eq(sscanf(out, "%lf %lf %lf", mn, md, mx), 3);
}

/* Check one line: one newline, at the end. */
static void
check_one_line(const char *s)
{
	size_t len = strlen(s);

	ck_assert_uint_gt(len, 2);
	ck_assert_int_eq(s[0], '{');
	ck_assert_int_eq(s[len - 1], '\n');
	ck_assert_int_eq(s[len - 2], '}');
	ck_assert_ptr_eq(strchr(s, '\n'), s + len - 1);
}

START_TEST(test_fields)
{
	bm_param p[2] = { { .key = "file", .str = "/dev/null" },
	    { .key = "size", .num = 512 } };
	bm_record rec;
	char *s = NULL, out[256];

	record_setup();
	record_latency(&rec, p, 2);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, "\"tool\":\"lat_test\""));
	ck_assert_ptr_nonnull(strstr(s, "\"params\":{\"file\":\"/dev/null\","
	    "\"size\":512}"));
	ck_assert_ptr_nonnull(strstr(s, "\"cycles_per_op\":null"));
	ck_assert_ptr_nonnull(strstr(s, "\"samples\":6"));
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-e 'def near($a; $b): ($a - $b) * "
		    "($a - $b) < 1e-18; .tool == \"lat_test\" and "
		    ".case == \"null\" and .unit == \"us\" and .samples == 6 "
		    "and (.values | length) == 6 and .values[0] == 0.1 and "
		    ".min == 0.1 and .max == 0.15 and .median == 0.125 and "
		    ".parallel == 2 and .repetitions == 3 and .enough_us == 2000"
		    " and .ci_level == 0.96875 and .processes == 1 and "
		    "(.process_values | length) == 1 and "
		    "near(.process_values[0]; 0.125) and .within.ci_level == "
		    "0.96875 and near(.within.median; 0.125) and "
		    ".calibration == null and "
		    "(.timestamp | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T\")) and "
		    ".version == \"" PACKAGE_VERSION "\"'", out, sizeof out),
		    0);
		ck_assert_str_eq(out, "true");
	}
	free(s);
}
END_TEST

/*
 * Three rounds of two samples (medians 0.105, 0.125 and 0.145 us): the
 * record's statistics are over the rounds' medians, with every interval
 * in "values" and each round's median in "process_values".
 */
START_TEST(test_rounds)
{
	bm_record rec;
	char *s = NULL, out[256];
	int i;

	record_setup();
	result.repetitions = 2;
	record_rounds(&rec, 3);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-e 'def near($a; $b): ($a - $b) * "
		    "($a - $b) < 1e-18; .processes == 3 and .samples == 6 and "
		    "(.values | length) == 6 and (.process_values | length) == "
		    "3 and near(.process_values[0]; 0.105) and "
		    "near(.process_values[2]; 0.145) and near(.median; 0.125) "
		    "and near(.min; 0.105) and near(.max; 0.145) and "
		    "near(.median_ci_lo; 0.105) and near(.median_ci_hi; "
		    "0.145) and .median_ci_level == 0.75 and .stat == "
		    "\"best process\" and .ci_level == 0.9 and .ci_kind == "
		    "\"next run\" and .ci_lo > 0 and .ci_lo < 0.105 and "
		    ".ci_hi > 0.145 and .noisy and (.within.ci_hi - "
		    ".within.ci_lo) < 0.0101'", out, sizeof out), 0);
		ck_assert_str_eq(out, "true");
	}
	free(s);
	/* A sample from a round the result does not have is refused. */
	samples[0].process = 3;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), BM_ERANGE);
	for (i = 0; i < NSAMPLES; i++)
		samples[i].process = 0;
	result.processes = 0;
}
END_TEST

/*
 * The robust figure: six processes of one interval each, 100.0 to 100.5
 * ns, give the best process (0.1 us) with the 1% floor as its interval,
 * in log space, not noisy; the median is not noisy either.  A fifth of
 * the intervals disturbed flags the figure, not the robust figure's
 * width.  Three processes (two intervals each) give one, the best
 * process's median (100.05 ns), not flagged for being three; two none.
 */
START_TEST(test_robust)
{
	bm_record rec;
	char *s = NULL, out[256];
	int i;

	record_setup();
	for (i = 0; i < NSAMPLES; i++)
		samples[i].ns = (100.0 + 0.1 * i) * 1000;
	record_rounds(&rec, NSAMPLES);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-c '[.noisy, .robust.stat, "
		    "(.robust.value * 1e6 | round), (.robust.ci_lo * 1e6 | "
		    "round), (.robust.ci_hi * 1e6 | round), .robust.noisy, "
		    ".robust.causes]'", out, sizeof out), 0);
		ck_assert_str_eq(out,
		    "[false,\"best process\",100000,99010,101000,false,[]]");
	}
	free(s);
	result.interference.accounted = 1;
	result.interference.intervals = 10;
	result.interference.disturbed = 2;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-c '[.noisy, .robust.noisy, "
		    ".robust.causes]'", out, sizeof out), 0);
		ck_assert_str_eq(out, "[true,false,[]]");
	}
	free(s);
	result.interference.disturbed = 1;
	record_rounds(&rec, 3);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-c '[(.robust.value * 1e6 | round), "
		    ".robust.noisy, .robust.causes]'", out, sizeof out), 0);
		ck_assert_str_eq(out, "[100050,false,[]]");
	}
	free(s);
	record_rounds(&rec, 2);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-c 'has(\"robust\")'", out,
		    sizeof out), 0);
		ck_assert_str_eq(out, "false");
	}
	free(s);
	memset(&result.interference, 0, sizeof result.interference);
	for (i = 0; i < NSAMPLES; i++)
		samples[i].process = 0;
	result.processes = 0;
}
END_TEST

START_TEST(test_escaping)
{
	/* Quote, backslash, newline, tab, ^A, DEL, invalid and valid UTF-8. */
	const char *name = "a\"b\\c\nd\te\001f\177g\xffh\xc3\xa9i";
	bm_param p[1] = { { .key = "file", .num = 0 } };
	bm_record rec;
	char *s = NULL, out[256];

	p[0].str = name;
	record_setup();
	record_latency(&rec, p, 1);
	rec.case_name = "we\"ird";
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, "a\\\"b\\\\c\\nd\\te\\u0001f\\u007fg"
	    "\\ufffdh\xc3\xa9i"));
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-e '.params.file == \"a\\\"b\\\\c\\nd"
		    "\\te\\u0001f\\u007fg\\ufffdh\\u00e9i\" and "
		    ".case == \"we\\\"ird\"'", out, sizeof out), 0);
	}
	free(s);
}
END_TEST

START_TEST(test_bandwidth)
{
	bm_param p[1] = { { .key = "size", .num = 1e6 } };
	bm_record rec;
	char *s = NULL;
	double mn, md, mx;

	record_setup();
	result.parallel = 1;	/* one worker's samples: no aggregate */
	record_latency(&rec, p, 1);
	rec.metric = "bandwidth";
	rec.unit = "MB/s";
	rec.inverse = 1;
	rec.scale = 1e6 * 1e3;	/* 1 MB per operation */
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	if (have_jq()) {
		record_min_median_max(s, &mn, &md, &mx);
		/* 1 MB in 150 ns: 1e9 / 150 MB/s per worker's sample. */
		ck_assert(fabs(mn - 1e9 / 150) < 1);
		ck_assert(fabs(mx - 1e9 / 100) < 1);
		ck_assert(mn <= md && md <= mx);
	}
	free(s);
}
END_TEST

/*
 * Counts past 2^32 and intervals of hours stay exact: an hour-long
 * interval of 5e12 operations is 0.72 ns each, not a wrapped count.
 */
START_TEST(test_large_counts)
{
	bm_record rec;
	char *s = NULL;
	double mn, md, mx;
	int i;

	record_setup();
	for (i = 0; i < NSAMPLES; i++) {
		samples[i].n = 5000000000000ull + (uint64_t)i;
		samples[i].ns = 3600e9;
	}
	record_latency(&rec, NULL, 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	if (have_jq()) {
		record_min_median_max(s, &mn, &md, &mx);
		ck_assert_msg(fabs(md - 0.72e-3) < 1e-15, "median %.17g", md);
		ck_assert(fabs(mn - 3600e9 / (5e12 + 5) / 1e3) < 1e-15);
		ck_assert(fabs(mx - 0.72e-3) < 1e-15);
	}
	free(s);
}
END_TEST

/* An offset measured apart comes off every statistic, as off the value. */
START_TEST(test_offset)
{
	bm_record rec;
	char *s = NULL;
	double mn, md, mx;

	record_setup();
	record_latency(&rec, NULL, 0);
	rec.offset = 0.05;
	rec.value -= rec.offset;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	if (have_jq()) {
		record_min_median_max(s, &mn, &md, &mx);
		/* Samples of 0.1 to 0.15 us, less 0.05. */
		ck_assert(fabs(mn - 0.05) < 1e-9);
		ck_assert(fabs(md - 0.075) < 1e-9);
		ck_assert(fabs(mx - 0.1) < 1e-9);
	}
	free(s);
}
END_TEST

START_TEST(test_with_context)
{
	bm_record rec;
	bm_ctx *ctx;
	char *s = NULL, out[256];

	record_setup();
	record_latency(&rec, NULL, 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_ENOUGH, 1234), 0);
	ck_assert_int_eq(bm_record_json(ctx, &rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, "\"params\":{}"));
	ck_assert_ptr_nonnull(strstr(s, "\"enough_us\":1234"));
	ck_assert_ptr_nonnull(strstr(s, "\"from_env\":{\"enough\":true,"
	    "\"timing_o\":false,\"loop_o\":false}"));
	ck_assert_ptr_nonnull(strstr(s, "\"timer\":{\"clock\":"
	    "\"posix-monotonic\",\"cycle\":\"null\",\"cycle_counts\":null,"
	    "\"cycle_hz\":null,"));
	if (have_jq())
		ck_assert_int_eq(jq(s, "-e '.calibration.enough_us == 1234'",
		    out, sizeof out), 0);
	free(s);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * Overheads given (as TIMING_O) that make more than a quarter of the
 * median raw interval flag the record: "overhead_flagged" and noisy; the
 * share is written whatever its size, and measured overheads, or given
 * ones below the quarter, flag nothing.  Six equal samples of 100 us
 * (1000 operations), one a round, make a figure that nothing else flags
 * (one round would: it bounds nothing of the next).
 */
START_TEST(test_overhead_share)
{
	static const struct {
		unsigned which;		/* 0: nothing given */
		double us;
		const char *share, *flagged, *noisy;
	} cases[] = {
		{ 0, 0, "\"overhead_share\":", "false", "false" },
		/* 10 of 110 us: 9%. */
		{ BM_CAL_TIMING_O, 10, "\"overhead_share\":0.0909",
		    "false", "false" },
		/* 50 of 150 us: a third. */
		{ BM_CAL_TIMING_O, 50, "\"overhead_share\":0.333",
		    "true", "true" },
		/* 0.04 us of 1000 iterations: 40 of 140 us, 29%. */
		{ BM_CAL_LOOP_O, 0.04, "\"overhead_share\":0.285",
		    "true", "true" },
	};
	char *s = NULL, want[64];
	bm_record rec;
	bm_ctx *ctx;
	size_t k;
	int i;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		record_setup();
		for (i = 0; i < NSAMPLES; i++) {
			samples[i].ns = 100000;
			samples[i].process = (unsigned)i;
		}
		result.processes = NSAMPLES;
		record_latency(&rec, NULL, 0);
		ck_assert_int_eq(bm_ctx_new(&ctx), 0);
		if (cases[k].which != 0)
			ck_assert_int_eq(bm_ctx_set_calibration(ctx,
			    cases[k].which, cases[k].us), 0);
		ck_assert_int_eq(bm_record_json(ctx, &rec, &s), 0);
		check_one_line(s);
		ck_assert_msg(strstr(s, cases[k].share) != NULL,
		    "case %zu: no %s in %s", k, cases[k].share, s);
		snprintf(want, sizeof want, "\"overhead_flagged\":%s",
		    cases[k].flagged);
		ck_assert_msg(strstr(s, want) != NULL, "case %zu: no %s in %s",
		    k, want, s);
		snprintf(want, sizeof want, "\"noisy\":%s,", cases[k].noisy);
		ck_assert_msg(strstr(s, "\"noisy\":") == strstr(s, want),
		    "case %zu: top-level noisy not %s in %s", k,
		    cases[k].noisy, s);
		free(s);
		s = NULL;
		bm_ctx_free(ctx);
	}
}
END_TEST

/*
 * A figure a tool derived from others (enough_us 0: its samples are values
 * per operation, not intervals) has no overheads of its own: a share of
 * null, never flagged, whatever TIMING_O is (cache's levels were flagged
 * as 95% overhead for a latency of 1 ns against 20 ns of TIMING_O).
 */
START_TEST(test_overhead_derived)
{
	char *s = NULL;
	bm_record rec;
	bm_ctx *ctx;
	int i;

	record_setup();
	result.enough_us = 0;
	for (i = 0; i < NSAMPLES; i++) {
		samples[i].ns = 1;
		samples[i].n = 1;
	}
	record_latency(&rec, NULL, 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_TIMING_O, 0.02),
	    0);
	ck_assert_int_eq(bm_record_json(ctx, &rec, &s), 0);
	ck_assert_msg(strstr(s, "\"overhead_share\":null") != NULL &&
	    strstr(s, "\"overhead_flagged\":false") != NULL, "%s", s);
	free(s);
	bm_ctx_free(ctx);
}
END_TEST

/* The record says which way is better: the tool's word, else the metric's. */
START_TEST(test_better)
{
	static const struct {
		const char *metric, *unit;
		bm_better better;
		const char *want;
	} cases[] = {
		{ "latency", "us", BM_BETTER_AUTO, "lower" },
		{ "bandwidth", "MB/s", BM_BETTER_AUTO, "higher" },
		{ "rate", "files/s", BM_BETTER_AUTO, "higher" },
		{ "clock", "MHz", BM_BETTER_AUTO, "higher" },
		{ "parallelism", "loads", BM_BETTER_AUTO, "higher" },
		{ "other", "ops/s", BM_BETTER_AUTO, "higher" },
		{ "other", "ns", BM_BETTER_AUTO, "lower" },
		{ "size", "bytes", BM_BETTER_AUTO, "none" },
		{ NULL, NULL, BM_BETTER_AUTO, "none" },
		{ "latency", "us", BM_BETTER_NONE, "none" },
		{ "size", "MB", BM_BETTER_HIGHER, "higher" },
		{ "bandwidth", "MB/s", BM_BETTER_LOWER, "lower" },
	};
	bm_record rec;
	char *s = NULL, want[64];
	size_t i;

	record_setup();
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		record_latency(&rec, NULL, 0);
		rec.metric = cases[i].metric;
		rec.unit = cases[i].unit;
		rec.better = cases[i].better;
		ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
		snprintf(want, sizeof want, "\"better\":\"%s\"", cases[i].want);
		ck_assert_msg(strstr(s, want) != NULL, "case %zu: %s", i, s);
		free(s);
		s = NULL;
	}
	record_latency(&rec, NULL, 0);
	rec.better = (bm_better)(BM_BETTER_NONE + 1);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
	ck_assert_ptr_null(s);
}
END_TEST

/* What the run found goes to "measured", apart from the inputs. */
START_TEST(test_measured)
{
	bm_param p[1] = { { .key = "size", .num = 4096 } };
	bm_param m[2] = { { .key = "chains", .num = 4 },
	    { .key = "topology", .str = "sysfs" } };
	bm_record rec;
	char *s = NULL, out[256];

	record_setup();
	record_latency(&rec, p, 1);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_ptr_null(strstr(s, "\"measured\""));
	free(s);
	s = NULL;
	rec.measured = m;
	rec.nmeasured = 2;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, "\"params\":{\"size\":4096},"
	    "\"measured\":{\"chains\":4,\"topology\":\"sysfs\"}"));
	if (have_jq()) {
		ck_assert_int_eq(jq(s, "-e '.measured.chains == 4 and "
		    ".params == {size: 4096}'", out, sizeof out), 0);
	}
	free(s);
	s = NULL;
	rec.measured = NULL;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
}
END_TEST

START_TEST(test_bad_arguments)
{
	bm_record rec;
	char *s = (char *)"unchanged";

	record_setup();
	record_latency(&rec, NULL, 0);
	ck_assert_int_eq(bm_record_json(NULL, NULL, &s), -EINVAL);
	ck_assert_int_eq(bm_record_json(NULL, &rec, NULL), -EINVAL);
	rec.nparams = 1;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
	rec.nparams = 0;
	result.nsamples = 0;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), BM_ERANGE);
	ck_assert_ptr_null(s);
}
END_TEST

/* A parameter without a key would be a null key, which JSON has none of. */
START_TEST(test_null_key)
{
	bm_param p[2] = { { .key = "size", .num = 1 }, { .key = NULL,
	    .num = 2 } };
	bm_param m[1] = { { .key = NULL, .str = "sysfs" } };
	bm_decision *d = NULL;
	bm_record rec;
	char *s = NULL;

	record_setup();
	record_latency(&rec, p, 2);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(bm_record_decide(NULL, &rec, &d), 0);
	ck_assert_int_eq(bm_decision_json(d, &s), -EINVAL);
	ck_assert_ptr_null(s);
	bm_decision_free(d);
	record_latency(&rec, p, 1);
	rec.measured = m;
	rec.nmeasured = 1;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
	ck_assert_ptr_null(s);
	rec.nmeasured = 0;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	free(s);
}
END_TEST

/*
 * A program that set a locale with a decimal comma still gets records
 * with a decimal point: "value":0,125 is no JSON, and in a list it would
 * be two numbers.
 */
START_TEST(test_locale_comma)
{
	char dir[64], *s = NULL, out[256];
	const char *p;
	unsigned commas;
	bm_record rec;

	if (check_comma_locale("check_record", dir) != 0) {
		check_comma_locale_end(dir);
		return;
	}
	record_setup();
	record_latency(&rec, NULL, 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_msg(strstr(s, "\"value\":0.125,") != NULL, "%s", s);
	/* Six values, five commas; a comma for a point would split each. */
	ck_assert_ptr_nonnull(p = strstr(s, "\"values\":["));
	for (commas = 0; *p != ']' && *p != '\0'; p++)
		commas += *p == ',';
	ck_assert_msg(commas == 5, "%s", s);
	if (have_jq())
		ck_assert_int_eq(jq(s, "-e '.value == 0.125 and "
		    "(.values | length) == 6'", out, sizeof out), 0);
	free(s);
	check_comma_locale_end(dir);
}
END_TEST

/*
 * bm_stats_json: the members of a record's statistics, in its order and
 * number format, for values tagged with rounds; bad input refused.
 */
START_TEST(test_stats_json)
{
	static const double v[] = { 1, 2, 3, 4, 5 };
	static const unsigned one[] = { 0, 0, 0, 0, 0 };
	static const unsigned three[] = { 2, 2, 0, 0, 1 };
	static const unsigned gap[] = { 0, 0, 2, 2, 2 };
	double bad[] = { 1, 2, 3, 4, 5 }, x[NSAMPLES];
	unsigned rd[NSAMPLES];
	bm_record rec;
	char *s = NULL, *r = NULL, *at;
	size_t len;
	int i;

	ck_assert_int_eq(bm_stats_json(v, one, 5, 1, &s), 0);
	ck_assert_str_eq(s, "{\"median\":3,\"min\":1,\"max\":5,\"mean\":3,"
	    "\"stddev\":1.5811388300841898,\"cv\":0.52704627669472992,"
	    "\"ci_lo\":1,\"ci_hi\":5,\"ci_level\":0.9375,"
	    "\"ci_floor\":0.0050000000000000001,\"ci_stat_lo\":1,"
	    "\"ci_stat_hi\":5,\"noisy\":true,"
	    "\"bimodal\":false,\"samples\":5,\"processes\":1,\"within\":{"
	    "\"median\":3,\"cv\":0.52704627669472992,\"ci_lo\":1,"
	    "\"ci_hi\":5,\"ci_level\":0.9375,\"noisy\":true,"
	    "\"bimodal\":false},\"values\":[1,2,3,4,5],"
	    "\"process_values\":[3],\"process_samples\":[5]}");
	free(s);
	/* Rounds 2, 2, 0, 0, 1: medians 3.5, 5, 1.5 by round number. */
	ck_assert_int_eq(bm_stats_json(v, three, 5, 3, &s), 0);
	ck_assert_ptr_nonnull(strstr(s, "\"median\":3.5,\"min\":1.5,"
	    "\"max\":5,"));
	ck_assert_ptr_nonnull(strstr(s, "\"samples\":5,\"processes\":3,"));
	ck_assert_ptr_nonnull(strstr(s, ",\"process_values\":[3.5,5,1.5],"
	    "\"process_samples\":[2,1,2]}"));
	free(s);

	/* The same text as a record of the same samples, which holds it. */
	record_setup();
	for (i = 0; i < NSAMPLES; i++)
		samples[i].process = (unsigned)i / 2;
	result.processes = 3;
	record_latency(&rec, NULL, 0);
	/* No direction: no robust figure, the median's statistics alone. */
	rec.better = BM_BETTER_NONE;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &r), 0);
	for (i = 0; i < NSAMPLES; i++) {
		x[i] = samples[i].ns / (double)samples[i].n * 1e-3;
		rd[i] = samples[i].process;
	}
	ck_assert_int_eq(bm_stats_json(x, rd, NSAMPLES, 3, &s), 0);
	len = strlen(s);
	ck_assert_uint_gt(len, 2);
	at = strstr(r, ",\"median\":");
	ck_assert_ptr_nonnull(at);
	ck_assert_int_eq(strncmp(at + 1, s + 1, len - 2), 0);
	ck_assert_int_eq(at[len - 1], ',');
	free(r);
	free(s);
	for (i = 0; i < NSAMPLES; i++)
		samples[i].process = 0;
	result.processes = 0;

	/* Errors: nothing, no rounds, a round empty or out of range. */
	s = (char *)"unchanged";
	ck_assert_int_eq(bm_stats_json(v, one, 0, 1, &s), BM_ERANGE);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(bm_stats_json(v, one, 5, 0, &s), BM_ERANGE);
	ck_assert_int_eq(bm_stats_json(v, gap, 5, 3, &s), BM_ERANGE);
	ck_assert_int_eq(bm_stats_json(v, three, 5, 2, &s), BM_ERANGE);
	ck_assert_ptr_null(s);
	/* A value that is not finite. */
	bad[3] = NAN;
	ck_assert_int_eq(bm_stats_json(bad, one, 5, 1, &s), BM_ERANGE);
	bad[3] = INFINITY;
	ck_assert_int_eq(bm_stats_json(bad, one, 5, 1, &s), BM_ERANGE);
	bad[3] = -INFINITY;
	ck_assert_int_eq(bm_stats_json(bad, one, 5, 1, &s), BM_ERANGE);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(bm_stats_json(NULL, one, 5, 1, &s), -EINVAL);
	ck_assert_int_eq(bm_stats_json(v, NULL, 5, 1, &s), -EINVAL);
	ck_assert_int_eq(bm_stats_json(v, one, 5, 1, NULL), -EINVAL);
}
END_TEST

/* The number after "key": in a record, which must be there. */
static double
record_num(const char *json, const char *key)
{
	char pat[64];
	const char *at;

	snprintf(pat, sizeof pat, "\"%s\":", key);
	at = strstr(json, pat);
	ck_assert_ptr_nonnull(at);
	return strtod(at + strlen(pat), NULL);
}

/* Format rec and check its median, min and max (within a part in 1e12). */
static void
record_check_stats(const bm_record *rec, double median, double mn, double mx)
{
	char *s = NULL;

	ck_assert_int_eq(bm_record_json(NULL, rec, &s), 0);
	check_one_line(s);
	ck_assert_double_eq_tol(record_num(s, "value"), rec->value,
	    fabs(rec->value) * 1e-12);
	ck_assert_double_eq_tol(record_num(s, "median"), median,
	    fabs(median) * 1e-12);
	ck_assert_double_eq_tol(record_num(s, "min"), mn, fabs(mn) * 1e-12);
	ck_assert_double_eq_tol(record_num(s, "max"), mx, fabs(mx) * 1e-12);
	free(s);
}

/* A record that was not zeroed, to see that a constructor zeroes it. */
static void
record_garbage(bm_record *rec)
{
	memset(rec, 0x5a, sizeof *rec);
}

/*
 * The interval is at least 0.5% of the median on each side (the floor of
 * run-to-run drift), and the statistical interval is kept apart; a wide
 * interval is left as it is.
 */
START_TEST(test_ci_floor)
{
	bm_record rec;
	char *s = NULL;
	int i;

	record_setup();
	ck_assert_int_eq(bm_record_latency(&rec, "t", "c", "ns", &result), 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert(record_num(s, "ci_floor") == 0.005);
	ck_assert(record_num(s, "ci_lo") == record_num(s, "ci_stat_lo"));
	ck_assert(record_num(s, "ci_hi") == record_num(s, "ci_stat_hi"));
	ck_assert(record_num(s, "ci_lo") < 125 * 0.995);
	free(s);
	/* Six equal intervals: a statistical interval of no width. */
	for (i = 0; i < NSAMPLES; i++)
		samples[i].ns = 125 * 1000;
	ck_assert_int_eq(bm_record_latency(&rec, "t", "c", "ns", &result), 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert(record_num(s, "median") == 125);
	ck_assert(record_num(s, "ci_stat_lo") == 125);
	ck_assert(record_num(s, "ci_stat_hi") == 125);
	ck_assert_double_eq_tol(record_num(s, "ci_lo"), 125 - 0.625, 1e-12);
	ck_assert_double_eq_tol(record_num(s, "ci_hi"), 125 + 0.625, 1e-12);
	free(s);
}
END_TEST

START_TEST(test_make_latency)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	static const double per[] = { 1, 1e3, 1e6, 1e9 };
	bm_record rec;
	size_t i;

	record_setup();
	for (i = 0; i < 4; i++) {
		record_garbage(&rec);
		ck_assert_int_eq(bm_record_latency(&rec, "lat_test", "null",
		    units[i], &result), 0);
		ck_assert_str_eq(rec.tool, "lat_test");
		ck_assert_str_eq(rec.case_name, "null");
		ck_assert_str_eq(rec.metric, "latency");
		ck_assert_str_eq(rec.unit, units[i]);
		ck_assert_ptr_eq(rec.result, &result);
		ck_assert_ptr_null(rec.params);
		ck_assert_uint_eq(rec.nparams, 0);
		ck_assert_ptr_null(rec.measured);
		ck_assert_uint_eq(rec.nmeasured, 0);
		ck_assert_int_eq(rec.better, BM_BETTER_LOWER);
		ck_assert_int_eq(rec.inverse, 0);
		ck_assert(rec.offset == 0);
		/* The classic figure: the median per operation, divided. */
		ck_assert(rec.value == 125 / per[i]);
		record_check_stats(&rec, 125 / per[i], 100 / per[i],
		    150 / per[i]);
	}
	/* The same bits as the tools computed by hand before. */
	ck_assert_int_eq(bm_record_latency(&rec, "t", "c", "us", &result), 0);
	ck_assert(rec.value == result.per_op_ns.median / 1000.0);
	ck_assert(rec.scale == 1e-3);

	ck_assert_int_eq(bm_record_latency(&rec, "t", "c", "min", &result),
	    -EINVAL);
	ck_assert_int_eq(bm_record_latency(&rec, "t", "c", NULL, &result),
	    -EINVAL);
	ck_assert_int_eq(bm_record_latency(&rec, NULL, "c", "us", &result),
	    -EINVAL);
	ck_assert_int_eq(bm_record_latency(&rec, "t", "c", "us", NULL),
	    -EINVAL);
	ck_assert_int_eq(bm_record_latency(NULL, "t", "c", "us", &result),
	    -EINVAL);
}
END_TEST

START_TEST(test_make_latency_per)
{
	bm_record rec;

	record_setup();
	/* Four parts an operation, 20 ns of it measured apart. */
	record_garbage(&rec);
	ck_assert_int_eq(bm_record_latency_per(&rec, "lat_test", "ring", "ns",
	    &result, 4, 20), 0);
	ck_assert(rec.value == 26.25);
	ck_assert(rec.scale == 0.25);
	ck_assert(rec.offset == 5);
	ck_assert_int_eq(rec.inverse, 0);
	ck_assert_ptr_null(rec.params);
	/* Every sample goes the same way as the value: (ns - 20) / 4. */
	record_check_stats(&rec, 26.25, 20, 32.5);
	/* In us: the offset is in the unit, the value too. */
	ck_assert_int_eq(bm_record_latency_per(&rec, "lat_test", "ring", "us",
	    &result, 4, 20), 0);
	ck_assert_double_eq_tol(rec.offset, 0.005, 1e-15);
	record_check_stats(&rec, 0.02625, 0.02, 0.0325);
	/* bm_record_latency is the case of one part and no offset. */
	ck_assert_int_eq(bm_record_latency_per(&rec, "t", "c", "us", &result,
	    1, 0), 0);
	ck_assert(rec.value == result.per_op_ns.median / 1000.0);

	ck_assert_int_eq(bm_record_latency_per(&rec, "t", "c", "ns", &result,
	    0, 0), -EINVAL);
	ck_assert_int_eq(bm_record_latency_per(&rec, "t", "c", "ns", &result,
	    -1, 0), -EINVAL);
	ck_assert_int_eq(bm_record_latency_per(&rec, "t", "c", "ns", &result,
	    NAN, 0), -EINVAL);
	ck_assert_int_eq(bm_record_latency_per(&rec, "t", "c", "ns", &result,
	    INFINITY, 0), -EINVAL);
	ck_assert_int_eq(bm_record_latency_per(&rec, "t", "c", "ns", &result,
	    1, NAN), -EINVAL);
}
END_TEST

/* The median of 1e9 over 100 to 150 ns in steps of 10. */
#define BW_MEDIAN ((1e9 / 120 + 1e9 / 130) / 2)

START_TEST(test_make_bandwidth)
{
	bm_record rec;
	char *s = NULL;

	record_setup();
	/* Two workers: the aggregate, 1.6e7 operations/s of 1 MB each. */
	record_garbage(&rec);
	ck_assert_int_eq(bm_record_bandwidth(&rec, "bw_test", "rd", &result,
	    1e6), 0);
	ck_assert_str_eq(rec.metric, "bandwidth");
	ck_assert_str_eq(rec.unit, "MB/s");
	ck_assert_int_eq(rec.better, BM_BETTER_HIGHER);
	ck_assert_int_eq(rec.inverse, 1);
	ck_assert(rec.scale == 1e9);
	ck_assert(rec.offset == 0);
	ck_assert_ptr_null(rec.params);
	ck_assert_ptr_null(rec.measured);
	ck_assert_double_eq_tol(rec.value, 1.6e7, 1e-3);
	/*
	 * The statistics describe the figure: each interval scaled to the
	 * aggregate of its round, so that the median is the value.
	 */
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_ptr_nonnull(strstr(s, "\"better\":\"higher\""));
	ck_assert_double_eq_tol(record_num(s, "median"), 1.6e7, 1e-3);
	ck_assert_double_eq_tol(record_num(s, "min"),
	    1e9 / 150 * 1.6e7 / BW_MEDIAN, 1e-3);
	ck_assert_double_eq_tol(record_num(s, "max"),
	    1e7 * 1.6e7 / BW_MEDIAN, 1e-3);
	ck_assert(record_num(s, "ci_lo") <= rec.value);
	ck_assert(record_num(s, "ci_hi") >= rec.value);
	free(s);
	/*
	 * One worker: its median rate, the record's median, not the
	 * inverse of the median time (8e6: with six intervals the two
	 * differ).
	 */
	result.parallel = 1;
	ck_assert_int_eq(bm_record_bandwidth(&rec, "bw_test", "rd", &result,
	    1e6), 0);
	ck_assert_double_eq_tol(rec.value, BW_MEDIAN, 1e-3);
	ck_assert(rec.value != 8e6);
	record_check_stats(&rec, BW_MEDIAN, 1e9 / 150, 1e7);

	ck_assert_int_eq(bm_record_bandwidth(&rec, "t", "c", &result, 0),
	    -EINVAL);
	ck_assert_int_eq(bm_record_bandwidth(&rec, "t", "c", &result, NAN),
	    -EINVAL);
	ck_assert_int_eq(bm_record_bandwidth(&rec, "t", "c", NULL, 1),
	    -EINVAL);
	ck_assert_int_eq(bm_record_bandwidth(&rec, NULL, "c", &result, 1),
	    -EINVAL);
}
END_TEST

START_TEST(test_make_rate)
{
	bm_record rec;

	record_setup();
	result.parallel = 1;
	record_garbage(&rec);
	ck_assert_int_eq(bm_record_rate(&rec, "lat_test", "create", "files/s",
	    &result, 1), 0);
	ck_assert_str_eq(rec.metric, "rate");
	ck_assert_str_eq(rec.unit, "files/s");
	ck_assert_int_eq(rec.better, BM_BETTER_HIGHER);
	ck_assert_int_eq(rec.inverse, 1);
	ck_assert(rec.scale == 1e9);
	/* One worker: its median rate, the record's median. */
	ck_assert_double_eq_tol(rec.value, BW_MEDIAN, 1e-3);
	ck_assert_ptr_null(rec.params);
	record_check_stats(&rec, BW_MEDIAN, 1e9 / 150, 1e7);
	/* Ten items an operation, two workers: their aggregate. */
	result.parallel = 2;
	ck_assert_int_eq(bm_record_rate(&rec, "lat_test", "create", "ops/s",
	    &result, 10), 0);
	ck_assert_double_eq_tol(rec.value, 1.6e8, 1e-2);
	ck_assert(rec.scale == 1e10);
	ck_assert_str_eq(rec.unit, "ops/s");

	ck_assert_int_eq(bm_record_rate(&rec, "t", "c", NULL, &result, 1),
	    -EINVAL);
	ck_assert_int_eq(bm_record_rate(&rec, "t", "c", "ops/s", &result, 0),
	    -EINVAL);
	ck_assert_int_eq(bm_record_rate(NULL, "t", "c", "ops/s", &result, 1),
	    -EINVAL);
}
END_TEST

/*
 * A rate of two workers over three rounds: the value is the best of
 * the rounds' aggregates and lies inside its own interval; each round's
 * median is its aggregate (bw_mem -P 2 wrote the aggregate as value with
 * a one-worker interval beside it).
 */
START_TEST(test_aggregate_interval)
{
	static const double agg[3] = { 2.0e7, 1.6e7, 1.8e7 };
	bm_sample s3[3 * 2 * 2];
	double rate[3];
	bm_record rec;
	char *s = NULL;
	unsigned k;

	record_setup();
	for (k = 0; k < 12; k++) {
		s3[k].n = 1000;
		s3[k].ns = (100.0 + 5 * (k % 4)) * 1000 * (1 + k / 4);
		s3[k].cycles = NAN;
		s3[k].worker = (k / 2) % 2;
		s3[k].process = k / 4;
	}
	memcpy(rate, agg, sizeof rate);
	result.samples = s3;
	result.nsamples = 12;
	result.parallel = 2;
	result.repetitions = 2;
	result.processes = 3;
	result.process_ops_per_s = rate;
	result.ops_per_s = 1.8e7;
	record_garbage(&rec);
	ck_assert_int_eq(bm_record_bandwidth(&rec, "bw_test", "rd", &result,
	    1e6), 0);
	/* The best round's aggregate; the median is the middle one's. */
	ck_assert_double_eq_tol(rec.value, 2.0e7, 1e-3);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_double_eq_tol(record_num(s, "median"), 1.8e7, 1e-3);
	ck_assert_double_eq_tol(record_num(s, "value"), rec.value, 1e-3);
	ck_assert(record_num(s, "ci_lo") <= rec.value);
	ck_assert(record_num(s, "ci_hi") >= rec.value);
	/* The process level: the rounds' aggregates. */
	ck_assert_double_eq_tol(record_num(s, "min"), 1.6e7, 1e-3);
	ck_assert_double_eq_tol(record_num(s, "max"), 2.0e7, 1e-3);
	free(s);
	result.process_ops_per_s = NULL;
}
END_TEST

/*
 * Two jobs' results of one figure joined (the MPI ranks' aggregate): a
 * bandwidth round for round, each round's figure the sum of the jobs'
 * rates and the value the median of those sums, inside its interval; a
 * latency with each job's rounds apart.
 */
START_TEST(test_join)
{
	bm_sample s[2][3 * 2];
	bm_result parts[2], all;
	bm_record rec;
	char *j = NULL;
	unsigned i, k;

	memset(parts, 0, sizeof parts);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < 6; k++) {
			memset(&s[i][k], 0, sizeof s[i][k]);
			s[i][k].n = 1000;
			/* Job 0 at 100 ns an operation, job 1 at 200 ns. */
			s[i][k].ns = 1000 * 100.0 * (i + 1) * (1 + 0.1 * (k / 2));
			s[i][k].cycles = NAN;
			s[i][k].process = k / 2;
		}
		parts[i].samples = s[i];
		parts[i].nsamples = 6;
		parts[i].parallel = 1;
		parts[i].repetitions = 2;
		parts[i].processes = 3;
		parts[i].ops_per_s = 1e7 / (i + 1);
	}
	ck_assert_int_eq(bm_record_bandwidth(&rec, "bw_test", "rd", &parts[0],
	    1e6), 0);
	ck_assert_int_eq(bm_record_join(&rec, &all, parts, 2), 0);
	ck_assert_ptr_eq(rec.result, &all);
	ck_assert_uint_eq(all.parallel, 2);
	ck_assert_uint_eq(all.processes, 3);
	ck_assert_uint_eq(all.nsamples, 12);
	/*
	 * Rounds 1e7 + 5e6 over 1, 1.1 and 1.2: the joined figure is the
	 * median of the parts' rounds, round 1's.
	 */
	ck_assert_double_eq_tol(all.ops_per_s, 1.5e7 / 1.1, 1e-3);
	ck_assert_double_eq_tol(rec.value, 1.5e7 / 1.1, 1e-3);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &j), 0);
	ck_assert_double_eq_tol(record_num(j, "median"), 1.5e7 / 1.1, 1e-3);
	ck_assert(record_num(j, "ci_lo") <= rec.value);
	ck_assert(record_num(j, "ci_hi") >= rec.value);
	ck_assert_double_eq_tol(record_num(j, "max"), 1.5e7, 1e-3);
	free(j);
	bm_result_free(&all);
	/* A latency does not add up: six rounds, the median of their medians. */
	ck_assert_int_eq(bm_record_latency(&rec, "lat_test", "null", "us",
	    &parts[0]), 0);
	ck_assert_int_eq(bm_record_join(&rec, &all, parts, 2), 0);
	ck_assert_uint_eq(all.processes, 6);
	ck_assert_uint_eq(all.parallel, 1);
	ck_assert_double_eq_tol(rec.value, (0.12 + 0.2) / 2, 1e-9);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &j), 0);
	ck_assert_double_eq_tol(record_num(j, "median"), (0.12 + 0.2) / 2,
	    1e-9);
	free(j);
	bm_result_free(&all);
	/* Rounds that were not in step are not one run's. */
	ck_assert_int_eq(bm_record_bandwidth(&rec, "bw_test", "rd", &parts[0],
	    1e6), 0);
	parts[1].processes = 2;
	parts[1].nsamples = 4;
	ck_assert_int_eq(bm_record_join(&rec, &all, parts, 2), BM_ERANGE);
	ck_assert_int_eq(bm_record_join(&rec, &all, parts, 0), -EINVAL);
}
END_TEST

/* The agreement rule: equal answers agree, any other or a NAN does not. */
START_TEST(test_agree)
{
	const double same[3] = { 64, 64, 64 }, two[3] = { 64, 32, 64 };
	const double lost[3] = { 64, NAN, 64 }, none[2] = { NAN, NAN };
	const double close[3] = { 100, 104, 96 };
	double lo, hi;

	ck_assert_int_eq(bm_agree(same, 3, 0, &lo, &hi), 1);
	ck_assert(lo == 64 && hi == 64);
	ck_assert_int_eq(bm_agree(two, 3, 0, &lo, &hi), 0);
	ck_assert(lo == 32 && hi == 64);
	/* A tolerance of half the median does not join 32 and 64 (range 32). */
	ck_assert_int_eq(bm_agree(two, 3, 0.49, NULL, NULL), 0);
	ck_assert_int_eq(bm_agree(two, 3, 0.5, NULL, NULL), 1);
	ck_assert_int_eq(bm_agree(close, 3, 0.08, &lo, &hi), 1);
	ck_assert_int_eq(bm_agree(close, 3, 0.07, NULL, NULL), 0);
	/* A process that could not tell: no agreement, the others' spread. */
	ck_assert_int_eq(bm_agree(lost, 3, 0, &lo, &hi), 0);
	ck_assert(lo == 64 && hi == 64);
	ck_assert_int_eq(bm_agree(none, 2, 0, &lo, &hi), 0);
	ck_assert(isnan(lo) && isnan(hi));
	ck_assert_int_eq(bm_agree(same, 1, 0, NULL, NULL), 1);
	ck_assert_int_eq(bm_agree(same, 0, 0, NULL, NULL), BM_ERANGE);
	ck_assert_int_eq(bm_agree(NULL, 3, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(bm_agree(same, 3, -1, NULL, NULL), -EINVAL);
	ck_assert_int_eq(bm_agree(same, 3, NAN, NULL, NULL), -EINVAL);
}
END_TEST

/* The contradiction rule: inside [machine * lo, machine * hi] stands. */
START_TEST(test_contradiction_check)
{
	bm_contradiction c;

	memset(&c, 0, sizeof c);
	ck_assert_int_eq(bm_contradiction_check(&c, "line size", 64, 64, 1,
	    1, "sysfs coherency_line_size", "bytes"), 0);
	ck_assert_ptr_null(c.what);
	ck_assert_int_eq(bm_contradiction_check(&c, "line size", 32, 64, 1,
	    1, "sysfs coherency_line_size", "bytes"), 1);
	ck_assert_str_eq(c.what, "line size");
	ck_assert(c.measured == 32 && c.machine == 64);
	ck_assert_str_eq(c.source, "sysfs coherency_line_size");
	ck_assert_str_eq(c.unit, "bytes");
	/* A size within a factor of two either way stands. */
	ck_assert_int_eq(bm_contradiction_check(&c, "L1 size", 24576, 49152,
	    0.5, 2, "sysfs", "bytes"), 0);
	ck_assert_int_eq(bm_contradiction_check(&c, "L1 size", 98304, 49152,
	    0.5, 2, "sysfs", "bytes"), 0);
	ck_assert_int_eq(bm_contradiction_check(&c, "L1 size", 16384, 49152,
	    0.5, 2, "sysfs", "bytes"), 1);
	ck_assert_int_eq(bm_contradiction_check(&c, "L1 size", 131072, 49152,
	    0.5, 2, "sysfs", "bytes"), 1);
	/* Not below: any figure above stands, one below does not. */
	ck_assert_int_eq(bm_contradiction_check(&c, "L2 latency", 100, 1.3,
	    0.9, INFINITY, "L1 latency", "ns"), 0);
	ck_assert_int_eq(bm_contradiction_check(&c, "L2 latency", 1.2, 1.3,
	    0.9, INFINITY, "L1 latency", "ns"), 0);
	ck_assert_int_eq(bm_contradiction_check(&c, "L2 latency", 1.1, 1.3,
	    0.9, INFINITY, "L1 latency", "ns"), 1);
	/* Nothing known: nothing contradicted. */
	ck_assert_int_eq(bm_contradiction_check(&c, "x", 1, 0, 1, 1, "s",
	    "u"), 0);
	ck_assert_int_eq(bm_contradiction_check(&c, "x", 1, NAN, 1, 1, "s",
	    "u"), 0);
	ck_assert_int_eq(bm_contradiction_check(NULL, "x", 1, 1, 1, 1, "s",
	    "u"), -EINVAL);
	ck_assert_int_eq(bm_contradiction_check(&c, NULL, 1, 1, 1, 1, "s",
	    "u"), -EINVAL);
	ck_assert_int_eq(bm_contradiction_check(&c, "x", NAN, 1, 1, 1, "s",
	    "u"), -EINVAL);
	ck_assert_int_eq(bm_contradiction_check(&c, "x", 1, 1, 0, 1, "s",
	    "u"), -EINVAL);
	ck_assert_int_eq(bm_contradiction_check(&c, "x", 1, 1, 2, 1, "s",
	    "u"), -EINVAL);
}
END_TEST

/* Format rec and check that its line holds has and its noisy is noisy. */
static void
record_expect(const bm_record *rec, const char *has, const char *noisy)
{
	char *s = NULL, want[32];

	snprintf(want, sizeof want, "\"noisy\":%s,", noisy);
	ck_assert_int_eq(bm_record_json(NULL, rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, has));
	/* The top-level noisy comes first, before within's. */
	ck_assert_ptr_eq(strstr(s, "\"noisy\":"), strstr(s, want));
	free(s);
}

/* A latency record of NSAMPLES equal rounds, one sample each, into rec. */
static void
record_flat(bm_record *rec)
{
	unsigned i;

	record_setup();
	for (i = 0; i < NSAMPLES; i++) {
		samples[i].ns = 100000;
		samples[i].process = i;
	}
	result.processes = NSAMPLES;
	record_latency(rec, NULL, 0);
}

/*
 * A record's judgement: no member unless judged; "disagree" and the
 * answers, "contradicts" with both numbers; either makes it noisy (the
 * eight equal rounds alone are not).
 */
START_TEST(test_judgement)
{
	const double agree[3] = { 64, 64, 64 }, split[3] = { 64, 32, 64 };
	bm_contradiction c[1];
	bm_record rec;
	char *s = NULL, out[256];

	record_flat(&rec);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_ptr_null(strstr(s, "\"disagree\""));
	ck_assert_ptr_null(strstr(s, "\"contradicts\""));
	ck_assert_ptr_nonnull(strstr(s, "\"noisy\":false"));
	free(s);
	s = NULL;

	ck_assert_int_eq(bm_record_agreement(&rec, agree, 3, 0), 1);
	ck_assert_int_eq(rec.agreement, BM_AGREEMENT_AGREE);
	record_expect(&rec, "\"disagree\":false,\"answers\":[64,64,64]",
	    "false");
	ck_assert_int_eq(bm_record_agreement(&rec, split, 3, 0), 0);
	ck_assert_int_eq(rec.agreement, BM_AGREEMENT_DISAGREE);
	record_expect(&rec, "\"disagree\":true,\"answers\":[64,32,64]",
	    "true");
	ck_assert_int_eq(bm_record_agreement(&rec, NULL, 3, 0), -EINVAL);
	ck_assert_int_eq(rec.agreement, BM_AGREEMENT_DISAGREE);

	rec.agreement = BM_AGREEMENT_NONE;
	ck_assert_int_eq(bm_contradiction_check(&c[0], "line size", 32, 64,
	    1, 1, "sysfs coherency_line_size", "bytes"), 1);
	ck_assert_int_eq(bm_record_contradicts(&rec, c, 1), 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, "\"contradicts\":[{\"what\":"
	    "\"line size\",\"measured\":32,\"machine\":64,\"source\":"
	    "\"sysfs coherency_line_size\",\"unit\":\"bytes\"}]"));
	ck_assert_ptr_nonnull(strstr(s, "\"noisy\":true"));
	if (have_jq())
		ck_assert_int_eq(jq(s, "-e '.noisy and .within.noisy == false "
		    "and (has(\"disagree\") | not) and "
		    ".contradicts[0].machine == 64'", out, sizeof out), 0);
	free(s);
	s = NULL;
	ck_assert_int_eq(bm_record_contradicts(&rec, NULL, 1), -EINVAL);
	ck_assert_int_eq(bm_record_contradicts(NULL, c, 1), -EINVAL);
	/* A count without its array is refused when formatting. */
	rec.contradicts = NULL;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
	ck_assert_int_eq(bm_record_contradicts(&rec, NULL, 0), 0);
	rec.answers = NULL;
	rec.nanswers = 2;
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), -EINVAL);
}
END_TEST

/*
 * A record its tool calls unsteady: "unsteady" with the reason, noisy
 * for that reason alone (its eight equal rounds are not); none without,
 * and a NULL reason takes it back.
 */
START_TEST(test_unsteady)
{
	const char *why = "a file system that remembers the last minute";
	bm_decision *d = NULL;
	bm_record rec;
	char *s = NULL, out[256];

	record_flat(&rec);
	ck_assert_ptr_null(bm_record_unsteady_why(&rec));
	ck_assert_int_eq(bm_record_unsteady(&rec, why), 0);
	ck_assert_str_eq(bm_record_unsteady_why(&rec), why);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	check_one_line(s);
	ck_assert_ptr_nonnull(strstr(s, "\"unsteady\":\"a file system that "
	    "remembers the last minute\""));
	ck_assert_ptr_nonnull(strstr(s, "\"noisy\":true"));
	if (have_jq())
		ck_assert_int_eq(jq(s, "-e '.noisy and .within.noisy == false'",
		    out, sizeof out), 0);
	free(s);
	s = NULL;
	ck_assert_int_eq(bm_record_decide(NULL, &rec, &d), 0);
	ck_assert_uint_eq(bm_decision_reasons(d), BM_NOISY_UNSTEADY);
	bm_decision_free(d);
	ck_assert_int_eq(bm_record_unsteady(&rec, NULL), 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_ptr_null(strstr(s, "\"unsteady\""));
	ck_assert_ptr_nonnull(strstr(s, "\"noisy\":false"));
	free(s);
	ck_assert_int_eq(bm_record_unsteady(NULL, why), -EINVAL);
	ck_assert_ptr_null(bm_record_unsteady_why(NULL));
}
END_TEST

/*
 * A figure whose samples are its three processes' answers: three rounds
 * alone are noisy (they cannot bound a median), three that agree are
 * judged by the agreement rule and are not; answers that are not the
 * samples leave the interval to decide.
 */
START_TEST(test_judged_answers)
{
	const double same[3] = { 64, 64, 64 }, other[3] = { 32, 32, 32 };
	bm_sample sm[3];
	bm_result r;
	bm_record rec;
	unsigned i;

	memset(sm, 0, sizeof sm);
	memset(&r, 0, sizeof r);
	for (i = 0; i < 3; i++) {
		sm[i].ns = 64;
		sm[i].n = 1;
		sm[i].cycles = NAN;
		sm[i].process = i;
	}
	r.samples = sm;
	r.nsamples = 3;
	r.processes = 3;
	r.parallel = 1;
	r.repetitions = 1;
	r.cycles_per_op = NAN;
	memset(&rec, 0, sizeof rec);
	rec.tool = "line";
	rec.case_name = "line";
	rec.metric = "size";
	rec.unit = "bytes";
	rec.value = 64;
	rec.scale = 1;
	rec.result = &r;
	record_expect(&rec, "\"process_values\":[64,64,64]", "true");
	ck_assert_int_eq(bm_record_agreement(&rec, same, 3, 0), 1);
	record_expect(&rec, "\"disagree\":false", "false");
	ck_assert_int_eq(bm_record_agreement(&rec, other, 3, 0), 1);
	record_expect(&rec, "\"disagree\":false", "true");
}
END_TEST

/* Build the suite. */
static Suite *
record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("record");

	if (!have_jq())
		fprintf(stderr, "check_record: jq not found: JSON validity "
		    "checks are skipped, structural checks run\n");
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_rounds);
	tcase_add_test(tc, test_robust);
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_bandwidth);
	tcase_add_test(tc, test_offset);
	tcase_add_test(tc, test_large_counts);
	tcase_add_test(tc, test_with_context);
	tcase_add_test(tc, test_overhead_share);
	tcase_add_test(tc, test_overhead_derived);
	tcase_add_test(tc, test_better);
	tcase_add_test(tc, test_measured);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_stats_json);
	tcase_add_test(tc, test_ci_floor);
	tcase_add_test(tc, test_make_latency);
	tcase_add_test(tc, test_make_latency_per);
	tcase_add_test(tc, test_make_bandwidth);
	tcase_add_test(tc, test_make_rate);
	tcase_add_test(tc, test_aggregate_interval);
	tcase_add_test(tc, test_join);
	tcase_add_test(tc, test_agree);
	tcase_add_test(tc, test_contradiction_check);
	tcase_add_test(tc, test_judgement);
	tcase_add_test(tc, test_unsteady);
	tcase_add_test(tc, test_judged_answers);
	tcase_add_test(tc, test_null_key);
	suite_add_tcase(s, tc);
	/* localedef takes a second or more on a loaded machine. */
	tc = tcase_create("locale");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_locale_comma);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(record_suite());
}
