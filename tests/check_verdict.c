/* check_verdict.c: the tests of one figure of two runs judged (lib/verdict/verdict.c), over fixture records. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "internal.h"
#include "verdict/verdict.h"

/* The longest fixture file read. */
#define FIXTURE_MAX	65536

/*
 * Read the fixture tests/fixtures/verdict/NAME.jsonl: its first record is
 * A's figure, its second B's.
 */
static void
fixture(const char *name, struct bm__fig *a, struct bm__fig *b)
{
	const char *top = getenv("top_srcdir");
	char path[4096], *buf, *nl;
	struct bm__jval *v;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/tests/fixtures/verdict/%s.jsonl",
	    top != NULL ? top : "..", name);
	ck_assert_msg((f = fopen(path, "r")) != NULL, "cannot open %s", path);
	ck_assert((buf = malloc(FIXTURE_MAX)) != NULL);
	n = fread(buf, 1, FIXTURE_MAX - 1, f);
	fclose(f);
	buf[n] = '\0';
	ck_assert_msg((nl = strchr(buf, '\n')) != NULL, "%s: one line", path);
	ck_assert_int_eq(bm__jparse(buf, (size_t)(nl - buf), &v, NULL, NULL),
	    0);
	ck_assert_int_eq(bm__reader_figure(v, a), 0);
	bm__jval_free(v);
	ck_assert_int_eq(bm__jparse(nl + 1, strlen(nl + 1), &v, NULL, NULL), 0);
	ck_assert_int_eq(bm__reader_figure(v, b), 0);
	bm__jval_free(v);
	free(buf);
}

/* The verdict of fixture name alone (one figure), with the judgement in *out. */
static enum bm__verdict
judge(const char *name, double threshold, struct bm__judgement *out)
{
	struct bm__fig a, b;
	struct bm__judgement j;

	fixture(name, &a, &b);
	bm__verdict_judge(&a, &b, threshold, 0.05, &j);
	ck_assert_int_eq(bm__verdict_decide(&j, 1, 0.05, BM__CORR_BH), 0);
	bm__reader_fig_free(&a);
	bm__reader_fig_free(&b);
	if (out != NULL)
		*out = j;
	return j.verdict;
}

/* The rule each fixture stands for, and its verdict at a 5% threshold. */
static const struct {
	const char *name;
	enum bm__verdict verdict;
} cases[] = {
	{ "worse-ranks", BM__V_WORSE },		/* every B process above every A */
	{ "better-ranks", BM__V_BETTER },
	{ "same-ranks", BM__V_SAME },		/* the interval inside +-5% */
	{ "small-change", BM__V_SAME },		/* significant, under 5% */
	/* Significant and under 5%, but its interval reaches past 5%. */
	{ "small-wide", BM__V_UNDECIDED },
	{ "undecided-ranks", BM__V_UNDECIDED },	/* too wide for 5% */
	{ "changed-none", BM__V_CHANGED },	/* better none: not judged */
	{ "same-none", BM__V_SAME },
	{ "units-us-ns", BM__V_SAME },		/* 1 us and 1000 ns */
	{ "units-gbs-mbs", BM__V_SAME },	/* 1000 MB/s and 1 GB/s */
	{ "units-kinds", BM__V_FAILED },	/* us against MB/s */
	{ "value-zero", BM__V_FAILED },
	{ "value-negative", BM__V_FAILED },
	{ "value-null", BM__V_FAILED },
	{ "value-missing", BM__V_FAILED },
	{ "value-string", BM__V_FAILED },
	{ "intervals-worse", BM__V_WORSE },	/* no processes, intervals apart */
	{ "intervals-wide", BM__V_UNDECIDED },
	{ "one-sample", BM__V_UNDECIDED },	/* one sample is no interval */
	{ "higher-worse", BM__V_WORSE },	/* bandwidth down 20% */
	{ "better-from-metric", BM__V_WORSE },	/* no "better": clock is higher */
	/* The intervals apart, the processes not: the values' ratio decides. */
	{ "separate-stale", BM__V_WORSE },
	/* As worse-ranks, but B says the machine moves it between runs. */
	{ "unsteady", BM__V_UNDECIDED },
	/*
	 * Served figures: every B process 7% above every A process, but
	 * the runs' intervals of a next run overlap; then apart.  The same
	 * figures shown as their best process (cold runs): the ranks decide.
	 */
	{ "drift-overlap", BM__V_UNDECIDED },
	{ "drift-apart", BM__V_WORSE },
	{ "drift-cold", BM__V_WORSE },
	/*
	 * Visited in a burst (a size sweep's point in a suite): neither its
	 * interval nor its processes say where another run falls.  As
	 * drift-apart, and as worse-ranks with B's suite saying "burst".
	 */
	{ "burst-apart", BM__V_UNDECIDED },
	{ "burst-ranks", BM__V_UNDECIDED }
};

/* Each fixture gets the verdict of its rule. */
START_TEST(test_fixture)
{
	struct bm__judgement j;

	ck_assert_msg(judge(cases[_i].name, 0.05, &j) == cases[_i].verdict,
	    "%s: %s, expected %s (%s)", cases[_i].name,
	    bm__verdict_word(j.verdict), bm__verdict_word(cases[_i].verdict),
	    j.why);
}
END_TEST

/*
 * Five processes of B all slower than A's five: the exact Mann-Whitney p
 * is 2/252, its interval of B/A excludes 1 at 96.8% (the 3rd of the 25
 * ratios from each end), and the estimate is about 1.2.
 */
START_TEST(test_worse_interval)
{
	struct bm__judgement j;

	ck_assert_int_eq(judge("worse-ranks", 0.05, &j), BM__V_WORSE);
	ck_assert_int_eq(j.evidence, BM__EV_RANKS);
	ck_assert(fabs(j.p - 2 / 252.0) < 1e-9);
	ck_assert(fabs(j.level - (1 - 2 * 4 / 252.0)) < 1e-9);
	ck_assert(j.lo > 1.15 && j.hi < 1.25);
	ck_assert(j.estimate > 1.18 && j.estimate < 1.22);
	ck_assert(j.significant);
	/* At a threshold of 30% the same change is same, not worse. */
	ck_assert_int_eq(judge("worse-ranks", 0.30, NULL), BM__V_SAME);
}
END_TEST

/* Undecided says how many times the processes would decide: more than once. */
START_TEST(test_undecided_need)
{
	struct bm__judgement j;

	ck_assert_int_eq(judge("undecided-ranks", 0.05, &j),
	    BM__V_UNDECIDED);
	ck_assert(isfinite(j.need) && j.need > 1);
	ck_assert(strstr(j.why, "the processes would decide") != NULL);
	/* A threshold wider than the interval decides: same. */
	ck_assert_int_eq(judge("undecided-ranks", 0.60, NULL), BM__V_SAME);
}
END_TEST

/*
 * Twelve figures, each five processes of B above A's five (p = 2/252
 * each): Benjamini-Hochberg keeps all (2/252 <= 0.05), Holm none
 * (2/252 > 0.05/12), uncorrected all: the correction is over figures.
 */
START_TEST(test_correction)
{
	struct bm__judgement j[12];
	struct bm__fig a, b;
	size_t i;

	fixture("worse-ranks", &a, &b);
	for (i = 0; i < 12; i++)
		bm__verdict_judge(&a, &b, 0.05, 0.05, &j[i]);
	ck_assert_int_eq(bm__verdict_decide(j, 12, 0.05, BM__CORR_BH), 0);
	for (i = 0; i < 12; i++)
		ck_assert_int_eq(j[i].verdict, BM__V_WORSE);
	for (i = 0; i < 12; i++)
		bm__verdict_judge(&a, &b, 0.05, 0.05, &j[i]);
	ck_assert_int_eq(bm__verdict_decide(j, 12, 0.05, BM__CORR_HOLM), 0);
	for (i = 0; i < 12; i++) {
		ck_assert_int_eq(j[i].verdict, BM__V_UNDECIDED);
		/* Clear of 1 alone: the correction, not the width, holds it. */
		ck_assert(isnan(j[i].need));
		ck_assert(strstr(j[i].why, "the correction over all") != NULL);
	}
	bm__reader_fig_free(&a);
	bm__reader_fig_free(&b);
}
END_TEST

/* Units of one kind convert, of different kinds refuse. */
/* An A/B's interval of log(B/A): the one rule of benchmp ab and sched. */
START_TEST(test_paired_rule)
{
	double b = log1p(0.05);

	/* Inside +-5%: same, whatever the estimate. */
	ck_assert_int_eq(bm__verdict_paired(-b / 2, b / 2, 0.01, 0.05,
	    BM__BETTER_LOWER), BM__V_SAME);
	/* Clear of 1 and past 5%: worse where lower is better, else better. */
	ck_assert_int_eq(bm__verdict_paired(0.06, 0.12, 0.09, 0.05,
	    BM__BETTER_LOWER), BM__V_WORSE);
	ck_assert_int_eq(bm__verdict_paired(0.06, 0.12, 0.09, 0.05,
	    BM__BETTER_HIGHER), BM__V_BETTER);
	ck_assert_int_eq(bm__verdict_paired(-0.12, -0.06, -0.09, 0.05,
	    BM__BETTER_LOWER), BM__V_BETTER);
	ck_assert_int_eq(bm__verdict_paired(0.06, 0.12, 0.09, 0.05,
	    BM__BETTER_NONE), BM__V_CHANGED);
	/* Clear of 1 but under 5%, reaching past it: undecided. */
	ck_assert_int_eq(bm__verdict_paired(0.01, 0.07, 0.03, 0.05,
	    BM__BETTER_LOWER), BM__V_UNDECIDED);
	/* Across 1 and past 5%: undecided. */
	ck_assert_int_eq(bm__verdict_paired(-0.02, 0.2, 0.09, 0.05,
	    BM__BETTER_LOWER), BM__V_UNDECIDED);
}
END_TEST

START_TEST(test_units)
{
	double f;

	ck_assert_int_eq(bm__verdict_unit_factor("ns", "us", &f), 0);
	ck_assert(fabs(f - 1e-3) < 1e-15);
	ck_assert_int_eq(bm__verdict_unit_factor("s", "ms", &f), 0);
	ck_assert(fabs(f - 1e3) < 1e-9);
	ck_assert_int_eq(bm__verdict_unit_factor("GB/s", "MB/s", &f), 0);
	ck_assert(fabs(f - 1e3) < 1e-9);
	ck_assert_int_eq(bm__verdict_unit_factor("MB", "KB", &f), 0);
	ck_assert(fabs(f - 1024) < 1e-9);
	ck_assert_int_eq(bm__verdict_unit_factor("MHz", "MHz", &f), 0);
	ck_assert(f == 1);
	ck_assert_int_eq(bm__verdict_unit_factor("us", "MB/s", &f), BM_ERANGE);
	ck_assert_int_eq(bm__verdict_unit_factor("MB", "MB/s", &f), BM_ERANGE);
	ck_assert_int_eq(bm__verdict_unit_factor("pages", "loads", &f),
	    BM_ERANGE);
}
END_TEST

/* Build the suite. */
static Suite *
verdict_suite(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("verdict");

	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, test_worse_interval);
	tcase_add_test(tc, test_undecided_need);
	tcase_add_test(tc, test_correction);
	tcase_add_test(tc, test_paired_rule);
	tcase_add_test(tc, test_units);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(verdict_suite());
}
