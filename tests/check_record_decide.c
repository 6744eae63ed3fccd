/* check_record_decide.c: a record decided once: its flags, their reasons, and the calls it costs. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "internal.h"

/*
 * The statistics of a record are computed once, when it is decided: the
 * test binary is linked with --wrap=bm_stats_levels, and this wrapper
 * counts the calls before it makes them.
 */
int __real_bm_stats_levels(const double *v, const unsigned *round, size_t n,
    unsigned nr, bm_stats *proc, bm_stats *within, double *med);
int __wrap_bm_stats_levels(const double *v, const unsigned *round, size_t n,
    unsigned nr, bm_stats *proc, bm_stats *within, double *med);

static unsigned levels_calls;

/* Count a call of bm_stats_levels and make it. */
int
__wrap_bm_stats_levels(const double *v, const unsigned *round, size_t n,
    unsigned nr, bm_stats *proc, bm_stats *within, double *med)
{
	levels_calls++;
	return __real_bm_stats_levels(v, round, n, nr, proc, within, med);
}

#define PER_ROUND 3
#define MAX_ROUNDS 8

static bm_sample samples[PER_ROUND * MAX_ROUNDS];
static bm_result result;

/*
 * A result of nr rounds of three intervals of 1000 operations: round k
 * at 100 ns per operation times 1 + spread * k, its three values a
 * thousandth apart.
 */
static void
decide_result(unsigned nr, double spread)
{
	unsigned k, i;

	memset(samples, 0, sizeof samples);
	memset(&result, 0, sizeof result);
	for (k = 0; k < nr; k++)
		for (i = 0; i < PER_ROUND; i++) {
			bm_sample *s = &samples[k * PER_ROUND + i];

			s->n = 1000;
			s->ns = 100.0 * (1 + spread * k) * (1 + 0.001 * i) *
			    1000;
			s->cycles = NAN;
			s->process = k;
		}
	result.samples = samples;
	result.nsamples = (size_t)nr * PER_ROUND;
	result.processes = nr;
	result.parallel = 1;
	result.repetitions = PER_ROUND;
	result.enough_us = 100;
	result.wall_s = 0.5;
	result.ops_per_s = 1e7;
	result.cycles_per_op = NAN;
	result.per_op_ns.median = 100;
}

/* A latency record in us of that result. */
static void
decide_latency(bm_record *rec, unsigned nr, double spread)
{
	decide_result(nr, spread);
	ck_assert_int_eq(bm_record_latency(rec, "lat_test", "null", "us",
	    &result), 0);
}

/* A record of line's size whose three rounds are one value each, 64. */
static void
decide_answers(bm_record *rec)
{
	unsigned k;

	decide_result(3, 0);
	for (k = 0; k < 3; k++) {
		samples[k] = samples[k * PER_ROUND];
		samples[k].ns = 64 * 1000;
		samples[k].process = k;
	}
	result.nsamples = 3;
	memset(rec, 0, sizeof *rec);
	rec->tool = "line";
	rec->metric = "size";
	rec->unit = "bytes";
	rec->scale = 1;
	rec->value = 64;
	rec->result = &result;
}

/* Decide rec and check its noisy flag and reasons. */
static bm_decision *
decide_expect(const bm_ctx *ctx, const bm_record *rec, int noisy,
    unsigned reasons)
{
	bm_decision *d;
	double lo, hi;
	int got;

	ck_assert_int_eq(bm_record_decide(ctx, rec, &d), 0);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &got), 0);
	ck_assert_int_eq(got, noisy);
	ck_assert_uint_eq(bm_decision_reasons(d), reasons);
	return d;
}

/* Close rounds, five of them: a quiet figure, its interval around it. */
START_TEST(test_quiet)
{
	bm_record rec;
	bm_decision *d;
	double lo, hi;
	int noisy;

	decide_latency(&rec, 5, 0.001);
	d = decide_expect(NULL, &rec, 0, 0);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	ck_assert(lo <= rec.value && rec.value <= hi);
	ck_assert_int_eq(bm_decision_overhead(d, NULL), 0);
	bm_decision_free(d);
}
END_TEST

/*
 * Rounds 20% apart: the best process's interval reaches past the
 * precision, wide; the same spread without a direction (no best
 * process) makes the median's interval wide.
 */
START_TEST(test_noisy_spread)
{
	bm_record rec;

	decide_latency(&rec, 6, 0.2);
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_WIDE));
	rec.better = BM_BETTER_NONE;
	rec.metric = "size";
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_WIDE));
}
END_TEST

/*
 * Two close rounds: no best process (three are needed), and a median's
 * interval from two rounds covers a half at most: too few to settle.
 */
START_TEST(test_few_rounds)
{
	bm_record rec;

	decide_latency(&rec, 2, 0.001);
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_FEW));
	decide_latency(&rec, 1, 0);
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_FEW));
}
END_TEST

/*
 * Overheads given as TIMING_O that make a third of each interval flag
 * the figure, with the share the record writes; measured ones do not.
 */
START_TEST(test_overhead)
{
	bm_record rec;
	bm_decision *d;
	bm_ctx *ctx;
	double share;

	decide_latency(&rec, 5, 0.001);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_calibration(ctx, BM_CAL_TIMING_O, 50), 0);
	d = decide_expect(ctx, &rec, 1, BM_NOISY_OVERHEAD);
	ck_assert_int_eq(bm_decision_overhead(d, &share), 1);
	ck_assert_double_eq_tol(share, 50.0 / 150.05, 0.001);
	bm_decision_free(d);
	bm_ctx_free(ctx);
	ck_assert_int_eq(bm_decision_overhead(NULL, &share), 0);
	ck_assert(isnan(share));
}
END_TEST

/* The judgement's rules, each alone, then together. */
START_TEST(test_judgement)
{
	static const double apart[] = { 5, 6, 9 };
	bm_contradiction c = { .what = "line size", .measured = 32,
	    .machine = 64, .source = "sysfs", .unit = "bytes" };
	bm_record rec;

	decide_latency(&rec, 5, 0.001);
	ck_assert_int_eq(bm_record_agreement(&rec, apart, 3, 0), 0);
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_DISAGREE));

	decide_latency(&rec, 5, 0.001);
	ck_assert_int_eq(bm_record_contradicts(&rec, &c, 1), 0);
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_CONTRADICTS));

	/* A fifth of the intervals disturbed: the figure's normal state. */
	decide_latency(&rec, 5, 0.001);
	result.interference.accounted = 1;
	result.interference.intervals = 15;
	result.interference.disturbed = 3;
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_DISTURBED));
	result.interference.disturbed = 2;
	bm_decision_free(decide_expect(NULL, &rec, 0, 0));

	result.interference.disturbed = 3;
	ck_assert_int_eq(bm_record_contradicts(&rec, &c, 1), 0);
	bm_decision_free(decide_expect(NULL, &rec, 1,
	    BM_NOISY_CONTRADICTS | BM_NOISY_DISTURBED));
}
END_TEST

/*
 * Three rounds whose values are the processes' agreed answers: the
 * agreement rule judges them alone, and the unsettled interval of three
 * equal answers does not make the figure noisy.
 */
START_TEST(test_agreed_answers)
{
	static const double answers[] = { 64, 64, 64 };
	bm_record rec;

	decide_answers(&rec);
	ck_assert_int_eq(bm_record_agreement(&rec, answers, 3, 0), 1);
	bm_decision_free(decide_expect(NULL, &rec, 0, 0));
	/* The same values without the rule: three rounds do not settle. */
	rec.agreement = BM_AGREEMENT_NONE;
	bm_decision_free(decide_expect(NULL, &rec, 1, BM_NOISY_FEW));
}
END_TEST

/* No samples: no figure, nothing to doubt, no interval. */
START_TEST(test_no_figure)
{
	bm_record rec;
	bm_decision *d;
	char *s;

	decide_result(1, 0);
	result.nsamples = 0;
	ck_assert_int_eq(bm_record_latency(&rec, "line", "knee", "us",
	    &result), 0);
	d = decide_expect(NULL, &rec, 0, 0);
	ck_assert_int_eq(bm_decision_json(d, &s), BM_ERANGE);
	bm_decision_free(d);
	rec.value = NAN;
	d = decide_expect(NULL, &rec, 0, 0);
	ck_assert_int_eq(bm_decision_json(d, &s), 0);
	ck_assert_ptr_nonnull(strstr(s, "\"noisy\":false,\"samples\":0,"));
	free(s);
	bm_decision_free(d);
}
END_TEST

/* Bad arguments. */
START_TEST(test_bad_arguments)
{
	bm_record rec;
	bm_decision *d;
	double lo, hi;
	int noisy;
	char *s;

	decide_latency(&rec, 5, 0.001);
	ck_assert_int_eq(bm_record_decide(NULL, NULL, &d), -EINVAL);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(bm_record_decide(NULL, &rec, NULL), -EINVAL);
	rec.nanswers = 2;
	ck_assert_int_eq(bm_record_decide(NULL, &rec, &d), -EINVAL);
	ck_assert_int_eq(bm_decision_json(NULL, &s), -EINVAL);
	ck_assert_int_eq(bm_decision_interval(NULL, &lo, &hi, &noisy),
	    -EINVAL);
	ck_assert_uint_eq(bm_decision_reasons(NULL), 0);
	bm_decision_free(NULL);
}
END_TEST

/*
 * Making, deciding and formatting a record and its line's interval
 * compute its statistics once: the constructor picks the value from the
 * rounds' medians, the decision makes the one call, and what reads the
 * decision makes none; a rate of two workers, scaled to its rounds'
 * aggregates, no more.
 */
START_TEST(test_levels_once)
{
	static double ops[5] = { 1e7, 1.01e7, 1.02e7, 1.03e7, 1.04e7 };
	bm_record rec;
	bm_decision *d;
	double lo, hi;
	int noisy;
	char *s;

	decide_result(5, 0.01);
	levels_calls = 0;
	ck_assert_int_eq(bm_record_latency(&rec, "lat_test", "null", "us",
	    &result), 0);
	ck_assert_uint_eq(levels_calls, 0);
	ck_assert_int_eq(bm_record_decide(NULL, &rec, &d), 0);
	ck_assert_int_eq(bm_decision_json(d, &s), 0);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	(void)bm_decision_overhead(d, NULL);
	ck_assert_uint_eq(levels_calls, 1);
	free(s);
	bm_decision_free(d);

	decide_result(5, 0.01);
	result.parallel = 2;
	result.process_ops_per_s = ops;
	levels_calls = 0;
	ck_assert_int_eq(bm_record_bandwidth(&rec, "bw_test", "rd", &result,
	    4096), 0);
	ck_assert_uint_eq(levels_calls, 0);
	ck_assert_int_eq(bm_record_json(NULL, &rec, &s), 0);
	ck_assert_uint_eq(levels_calls, 1);
	free(s);
}
END_TEST

/* The records' JSON from "value" to the host, as the writer gave it. */
#define GOLDEN_THREE \
	"\"value\":0.10009999999999999,\"median\":0.102102,\"min\":0.10" \
	"009999999999999,\"max\":0.10410399999999999,\"mean\":0.10210" \
	"199999999998,\"stddev\":0.0020019999999999968,\"cv\":0.01960" \
	"7843137254874,\"stat\":\"best process\",\"ci_lo\":0.0925480769" \
	"23076955,\"ci_hi\":0.10826815999999996,\"ci_level\":0.900000" \
	"00000000002,\"ci_kind\":\"next run\",\"median_ci_lo\":0.100099" \
	"99999999999,\"median_ci_hi\":0.10410399999999999,\"median_c" \
	"i_level\":0.75,\"noisy\":true,\"bimodal\":false,\"samples\":9,\"" \
	"processes\":3,\"within\":{\"median\":0.102102,\"cv\":0.00086527" \
	"111177269085,\"ci_lo\":0.10200000000000001,\"ci_hi\":0.10220" \
	"399999999999,\"ci_level\":0.9609375,\"noisy\":false,\"bimodal" \
	"\":false},\"values\":[0.10000000000000001,0.100099999999999" \
	"99,0.10020000000000001,0.10200000000000001,0.102102,0.10" \
	"220399999999999,0.10400000000000001,0.10410399999999999," \
	"0.104208],\"process_values\":[0.10009999999999999,0.102102" \
	",0.10410399999999999],\"process_samples\":[3,3,3],\"robust\"" \
	":{\"stat\":\"best process\",\"value\":0.10009999999999999,\"ci_" \
	"lo\":0.092548076923076955,\"ci_hi\":0.10826815999999996,\"no" \
	"isy\":true,\"causes\":[\"wide\"]},\"noisy_why\":[\"its interval " \
	"reaches +-8% of it, past the precision of +-3%\"]," \
	"\"parallel\":1,\"repetitions\":" \
	"3,\"warmup_us\":0,\"enough_us\":100,\"wall_s\":0.5,\"budget_hit" \
	"\":false,\"overhead_share\":null,\"overhead_flagged\":false,\"" \
	"ops_per_s\":10000000,\"cycles_per_op\":null,\"cycle_ns_per_o" \
	"p\":null,\"interference\":{\"accounted\":false},\"calibration\"" \
	":null,\"sources\":null,\"timer\":null"
#define GOLDEN_TWO \
	"\"value\":0.10000000000000001,\"median\":0.101101,\"min\":0.10" \
	"009999999999999,\"max\":0.102102,\"mean\":0.101101,\"stddev\":" \
	"0.0014156277759354709,\"cv\":0.014002114478941563,\"ci_lo\":" \
	"0.10009999999999999,\"ci_hi\":0.102102,\"ci_level\":0.5,\"ci_" \
	"floor\":0.0050000000000000001,\"ci_stat_lo\":0.100099999999" \
	"99999,\"ci_stat_hi\":0.102102,\"noisy\":true,\"bimodal\":false" \
	",\"samples\":6,\"processes\":2,\"within\":{\"median\":0.101101,\"" \
	"cv\":0.00089357745264497825,\"ci_lo\":0.10099900000000001,\"" \
	"ci_hi\":0.10120299999999999,\"ci_level\":0.96875,\"noisy\":fa" \
	"lse,\"bimodal\":false},\"values\":[0.10000000000000001,0.100" \
	"09999999999999,0.10020000000000001,0.10200000000000001,0" \
	".102102,0.10220399999999999],\"process_values\":[0.1000999" \
	"9999999999,0.102102],\"process_samples\":[3,3],\"noisy_why\"" \
	":[\"too few processes or visits to bound it\"],\"parallel\":" \
	"1,\"repetitions\":3,\"warmup_us\":0,\"enough_us\":100,\"wall_s\"" \
	":0.5,\"budget_hit\":false,\"overhead_share\":null,\"overhead_" \
	"flagged\":false,\"ops_per_s\":10000000,\"cycles_per_op\":null" \
	",\"cycle_ns_per_op\":null,\"interference\":{\"accounted\":fals" \
	"e},\"calibration\":null,\"sources\":null,\"timer\":null"

/*
 * A record's JSON, decided or not, is what it was before the decision
 * moved out of the writer: this text is the writer's output for the
 * same record before (up to the host, which is the machine's), with the
 * noisy figure's reasons in words ("noisy_why") added since.
 */
START_TEST(test_json_unchanged)
{
	static const char *const want[] = {
		"{\"tool\":\"lat_test\",\"case\":\"null\",\"params\":{},"
		"\"metric\":\"latency\",\"unit\":\"us\",\"better\":\"lower\","
		GOLDEN_THREE,
		"{\"tool\":\"lat_test\",\"case\":\"null\",\"params\":{},"
		"\"metric\":\"latency\",\"unit\":\"us\",\"better\":\"lower\","
		GOLDEN_TWO,
	};
	static const unsigned rounds[] = { 3, 2 };
	bm_record rec;
	bm_decision *d;
	char *a, *b, *host;
	size_t k;

	for (k = 0; k < 2; k++) {
		decide_latency(&rec, rounds[k], 0.02);
		ck_assert_int_eq(bm_record_json(NULL, &rec, &a), 0);
		ck_assert_int_eq(bm_record_decide(NULL, &rec, &d), 0);
		ck_assert_int_eq(bm_decision_json(d, &b), 0);
		ck_assert_ptr_nonnull(host = strstr(a, ",\"host\":"));
		*host = '\0';
		ck_assert_str_eq(a, want[k]);
		ck_assert_ptr_nonnull(host = strstr(b, ",\"host\":"));
		*host = '\0';
		ck_assert_str_eq(b, want[k]);
		free(a);
		free(b);
		bm_decision_free(d);
	}
}
END_TEST

/* The suite. */
/*
 * A served latency record of eight visits spread apart each into rec,
 * and the statistics of the visits' medians (in us, as the record's) in
 * st.
 */
static void
decide_served_record(bm_record *rec, double spread, bm_stats *st)
{
	double med[8];
	unsigned k;

	decide_result(8, spread);
	BM__RESULT_SERVED(&result) = 1;
	ck_assert_int_eq(bm_record_latency(rec, "lat_test", "null", "us",
	    &result), 0);
	for (k = 0; k < 8; k++)
		med[k] = 0.1 * (1 + spread * k) * 1.001;
	ck_assert_int_eq(bm_stats_compute(med, 8, st), 0);
}

/*
 * A served figure (its rounds a scheduler's visits): its interval is
 * where the next run's median of visits falls:
 * the median's interval times sqrt 2 each side, with a floor of
 * BM__SERVED_FLOOR in quadrature, so never narrower than the floor.
 * Close visits are not noisy; visits 2% apart each (100 to 114) make
 * an interval past the precision.  The record says what it shows.
 */
START_TEST(test_served)
{
	bm_record rec;
	bm_decision *d;
	bm_stats st;
	double lo, hi, m, want_lo, want_hi;
	char *json = NULL;
	int noisy;

	decide_served_record(&rec, 0.001, &st);
	d = decide_expect(NULL, &rec, 0, 0);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	/* Around the median of the visits' medians. */
	m = st.median;
	want_lo = m - sqrt(2 * (m - st.ci_lo) * (m - st.ci_lo) +
	    (BM__SERVED_FLOOR * m) * (BM__SERVED_FLOOR * m));
	want_hi = m + sqrt(2 * (st.ci_hi - m) * (st.ci_hi - m) +
	    (BM__SERVED_FLOOR * m) * (BM__SERVED_FLOOR * m));
	ck_assert_msg(fabs(lo - want_lo) < 1e-9 * m &&
	    fabs(hi - want_hi) < 1e-9 * m, "interval [%g, %g], want [%g, %g]",
	    lo, hi, want_lo, want_hi);
	ck_assert(lo <= m * (1 - BM__SERVED_FLOOR) &&
	    hi >= m * (1 + BM__SERVED_FLOOR));
	ck_assert_int_eq(bm_decision_json(d, &json), 0);
	ck_assert_msg(strstr(json, "\"stat\":\"median of visits\"") != NULL &&
	    strstr(json, "\"ci_kind\":\"next run\"") != NULL &&
	    strstr(json, "\"ci_floor\":0.02") != NULL &&
	    strstr(json, "\"median_ci_lo\":") != NULL &&
	    strstr(json, "\"served\":true") != NULL, "%s", json);
	free(json);
	bm_decision_free(d);

	decide_result(8, 0.02);
	BM__RESULT_SERVED(&result) = 1;
	ck_assert_int_eq(bm_record_latency(&rec, "lat_test", "null", "us",
	    &result), 0);
	d = decide_expect(NULL, &rec, 1, BM_NOISY_WIDE);
	ck_assert_int_eq(bm_decision_json(d, &json), 0);
	ck_assert_msg(strstr(json, ": the next run is expected to move +-") !=
	    NULL && strstr(json, "(one standard deviation), past the "
	    "precision of +-3%") != NULL, "%s", json);
	free(json);
	bm_decision_free(d);
}
END_TEST

/*
 * A served figure is noisy when the next run is expected to move by more
 * than the precision: its interval over the normal quantile of its level
 * (1.51 for 0.87).  Visits 0.66% apart each (100 to 104.6) reach past 3%
 * but not past 1.51 times 3%: not noisy; at a precision of 2% they are.
 */
START_TEST(test_served_move)
{
	bm_record rec;
	bm_decision *d;
	bm_ctx *ctx;
	bm_stats st;
	double lo, hi, m, reach, z = bm__decide_move_z(0);
	int noisy;

	ck_assert(fabs(z - 1.514) < 0.001);
	ck_assert(fabs(bm__decide_move_z(1) - 1.103) < 0.001);
	decide_served_record(&rec, 0.0066, &st);
	d = decide_expect(NULL, &rec, 0, 0);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	/* How far it reaches from the median of the visits' medians. */
	m = st.median;
	reach = fmax(hi - m, m - lo) / m;
	ck_assert_msg(reach > BM__PRECISION_DEFAULT &&
	    reach < z * BM__PRECISION_DEFAULT, "reach %g", reach);
	bm_decision_free(d);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_ctx_set_precision(ctx, 0.02), 0);
	ck_assert_msg(reach > z * 0.02, "reach %g", reach);
	bm_decision_free(decide_expect(ctx, &rec, 1, BM_NOISY_WIDE));
	bm_ctx_free(ctx);
}
END_TEST

/*
 * A figure read off each process's sweep (its answers judged by an
 * agreement rule) takes the served figure's rule over its processes:
 * three equal answers, the values themselves, show the floor each side
 * and are not noisy (the agreement rule judges them); answers that
 * agree while the values are more than them show where the next run
 * falls, no farther than the floor beyond the values, and three
 * processes stay too few: noisy.
 */
START_TEST(test_derived)
{
	static const double answers[] = { 64, 64, 64 };
	static const double apart[] = { 0.1, 0.105, 0.11 };
	bm_record rec;
	bm_decision *d;
	double lo, hi, l, h;
	char *json = NULL;
	int noisy;

	decide_answers(&rec);
	ck_assert_int_eq(bm_record_agreement(&rec, answers, 3, 0), 1);
	d = decide_expect(NULL, &rec, 0, 0);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	ck_assert_msg(fabs(lo - 64 * (1 - BM__SERVED_FLOOR)) < 1e-9 &&
	    fabs(hi - 64 * (1 + BM__SERVED_FLOOR)) < 1e-9, "[%g, %g]", lo,
	    hi);
	ck_assert_int_eq(bm_decision_json(d, &json), 0);
	ck_assert_msg(strstr(json, "\"stat\":\"median of processes\"") !=
	    NULL && strstr(json, "\"ci_kind\":\"next run\"") != NULL &&
	    strstr(json, "\"served\":true") == NULL, "%s", json);
	ck_assert_double_eq_tol(strtod(strstr(json, "\"ci_level\":") + 11,
	    NULL), BM__DERIVED_LEVEL, 1e-9);
	free(json);
	bm_decision_free(d);

	/* Rounds at 100, 105 and 110 ns, their values a thousandth apart. */
	decide_latency(&rec, 3, 0.05);
	ck_assert_int_eq(bm_record_agreement(&rec, apart, 3, 0.4), 1);
	d = decide_expect(NULL, &rec, 1, BM_NOISY_FEW);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	/*
	 * The median's sides sqrt 2 times, the floor in quadrature, reach
	 * past the values (0.1 to 0.11022 us): the interval stops at the
	 * floor beyond them.
	 */
	l = 0.105 * 1.001 - 0.1 * 1.001;
	h = 0.11 * 1.001 - 0.105 * 1.001;
	ck_assert(0.105 * 1.001 - sqrt(2 * l * l + pow(BM__SERVED_FLOOR *
	    0.105 * 1.001, 2)) < 0.1 * (1 - BM__SERVED_FLOOR));
	ck_assert(0.105 * 1.001 + sqrt(2 * h * h + pow(BM__SERVED_FLOOR *
	    0.105 * 1.001, 2)) > 0.11 * 1.002 * (1 + BM__SERVED_FLOOR));
	ck_assert_msg(fabs(lo - 0.1 * (1 - BM__SERVED_FLOOR)) < 1e-9 &&
	    fabs(hi - 0.11 * 1.002 * (1 + BM__SERVED_FLOOR)) < 1e-9,
	    "[%g, %g]", lo, hi);
	bm_decision_free(d);
}
END_TEST

/*
 * A figure its tool calls unsteady (the machine moves it between runs
 * by a state no run sees) shows no interval: noisy for that reason, its
 * bounds NAN, null in its JSON with a level of 0.
 */
START_TEST(test_unsteady)
{
	bm_record rec;
	bm_decision *d;
	double lo, hi;
	char *json = NULL;
	int noisy;

	decide_latency(&rec, 5, 0.001);
	ck_assert_int_eq(bm_record_unsteady(&rec, "a file system's last "
	    "minute"), 0);
	d = decide_expect(NULL, &rec, 1, BM_NOISY_UNSTEADY);
	ck_assert_int_eq(bm_decision_interval(d, &lo, &hi, &noisy), 0);
	ck_assert(isnan(lo) && isnan(hi));
	ck_assert_int_eq(bm_decision_json(d, &json), 0);
	ck_assert_msg(strstr(json, "\"ci_lo\":null,\"ci_hi\":null,"
	    "\"ci_level\":0") != NULL &&
	    strstr(json, "\"stat\":\"best process\"") != NULL, "%s", json);
	free(json);
	bm_decision_free(d);
}
END_TEST

static Suite *
decide_suite(void)
{
	Suite *s = suite_create("record_decide");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_quiet);
	tcase_add_test(tc, test_noisy_spread);
	tcase_add_test(tc, test_few_rounds);
	tcase_add_test(tc, test_overhead);
	tcase_add_test(tc, test_judgement);
	tcase_add_test(tc, test_agreed_answers);
	tcase_add_test(tc, test_no_figure);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_levels_once);
	tcase_add_test(tc, test_json_unchanged);
	tcase_add_test(tc, test_served);
	tcase_add_test(tc, test_served_move);
	tcase_add_test(tc, test_derived);
	tcase_add_test(tc, test_unsteady);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(decide_suite());
}
