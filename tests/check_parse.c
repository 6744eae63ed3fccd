/* check_parse.c: the strict number parsers, good and bad values. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "internal.h"

struct size_case {
	const char *s;
	int rc;
	uint64_t v;
};

/* Sizes: suffixes, limits and every way a user can get one wrong. */
static const struct size_case size_cases[] = {
	{ "0", 0, 0 },
	{ "512", 0, 512 },
	{ "64k", 0, 65536 },
	{ "64K", 0, 65536 },
	{ "8m", 0, 8u << 20 },
	{ "2g", 0, 2ull << 30 },
	{ "4294967296", 0, 4294967296ull },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "17179869183g", 0, 17179869183ull << 30 },
	{ "17179869184g", BM_ERANGE, 0 },
	{ "18446744073709551616", BM_ERANGE, 0 },
	{ "99999999999999999999999", BM_ERANGE, 0 },
	{ "99999999999999999999999x", BM_EPARSE, 0 },
	{ "99999999999999999999999kb", BM_EPARSE, 0 },
	{ "", BM_EPARSE, 0 },
	{ "k", BM_EPARSE, 0 },
	{ "-1", BM_EPARSE, 0 },
	{ "+1", BM_EPARSE, 0 },
	{ " 1", BM_EPARSE, 0 },
	{ "1 ", BM_EPARSE, 0 },
	{ "0x10", BM_EPARSE, 0 },
	{ "12q", BM_EPARSE, 0 },
	{ "64kb", BM_EPARSE, 0 },
	{ "64kk", BM_EPARSE, 0 },
	{ "1.5m", BM_EPARSE, 0 },
	{ "1e3", BM_EPARSE, 0 },
};

START_TEST(test_size_table)
{
	const struct size_case *c = &size_cases[_i];
	uint64_t v = 12345;
	int rc;

	rc = bm_parse_size(c->s, &v);
	ck_assert_msg(rc == c->rc, "'%s': rc %d, expected %d", c->s, rc,
	    c->rc);
	if (c->rc == 0)
		ck_assert_msg(v == c->v, "'%s': %llu", c->s,
		    (unsigned long long)v);
	else
		ck_assert_msg(v == 12345, "'%s' wrote its output", c->s);
}
END_TEST

START_TEST(test_size_null)
{
	uint64_t v;

	ck_assert_int_eq(bm_parse_size(NULL, &v), BM_EPARSE);
}
END_TEST

START_TEST(test_uint)
{
	uint64_t v = 0;

	ck_assert_int_eq(bm_parse_uint("7", 1, 10, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(bm_parse_uint("1", 1, 10, &v), 0);
	ck_assert_int_eq(bm_parse_uint("10", 1, 10, &v), 0);
	ck_assert_int_eq(bm_parse_uint("0", 1, 10, &v), BM_ERANGE);
	ck_assert_int_eq(bm_parse_uint("11", 1, 10, &v), BM_ERANGE);
	ck_assert_int_eq(bm_parse_uint("-1", 0, UINT64_MAX, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_uint("1k", 0, UINT64_MAX, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_uint("", 0, 10, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_uint("18446744073709551616", 0,
	    UINT64_MAX, &v), BM_ERANGE);
	ck_assert_int_eq(bm_parse_uint("18446744073709551615", 0,
	    UINT64_MAX, &v), 0);
	ck_assert(v == UINT64_MAX);
	/* Malformed stays malformed when its digits would overflow. */
	ck_assert_int_eq(bm_parse_uint("18446744073709551616x", 0,
	    UINT64_MAX, &v), BM_EPARSE);
}
END_TEST

START_TEST(test_double)
{
	double v = 0;

	ck_assert_int_eq(bm_parse_double("0.03", 0, 1, &v), 0);
	ck_assert(v > 0.0299 && v < 0.0301);
	ck_assert_int_eq(bm_parse_double(".5", 0, 1, &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(bm_parse_double("3e-4", 0, 1, &v), 0);
	ck_assert(v > 0.00029 && v < 0.00031);
	ck_assert_int_eq(bm_parse_double("2", 0, 1, &v), BM_ERANGE);
	ck_assert_int_eq(bm_parse_double("1e999", 0, 1e300, &v), BM_ERANGE);
	/* An underflow reads as 0, which is in range. */
	ck_assert_int_eq(bm_parse_double("1e-400", 0, 1, &v), 0);
	ck_assert(v == 0);
	ck_assert_int_eq(bm_parse_double("1e-400", 1e-9, 1, &v), BM_ERANGE);
	ck_assert_int_eq(bm_parse_double("-1", -5, 5, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double("nan", 0, 1, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double("inf", 0, 1, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double("0x1p3", 0, 100, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double("1.5x", 0, 100, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double("", 0, 100, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double(".", 0, 100, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double(NULL, 0, 100, &v), BM_EPARSE);
	ck_assert_int_eq(bm_parse_double("0,5", 0, 1, &v), BM_EPARSE);
}
END_TEST

/*
 * A program that set a locale with a decimal comma: TIMING_O=0.5 is still
 * a half, and 0,5 still no number (strtod alone reads them the other way
 * round there).
 */
START_TEST(test_double_locale)
{
	char dir[64];
	double v = 0;

	if (check_comma_locale("check_parse", dir) != 0) {
		check_comma_locale_end(dir);
		return;
	}
	ck_assert_int_eq(bm_parse_double("0.5", 0, 1, &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(bm_parse_double("2.5e-1", 0, 1, &v), 0);
	ck_assert(v == 0.25);
	ck_assert_int_eq(bm_parse_double("0,5", 0, 1, &v), BM_EPARSE);
	check_comma_locale_end(dir);
}
END_TEST

START_TEST(test_strerror)
{
	int e;

	for (e = BM_ECALIB; e <= BM_EPARSE; e++)
		ck_assert_str_ne(bm_strerror(e), "unknown error");
	ck_assert_str_eq(bm_strerror(0), "success");
	ck_assert_str_eq(bm_strerror(-2), "No such file or directory");
	ck_assert_ptr_nonnull(strstr(bm_strerror(-1000), "1000"));
	ck_assert_str_eq(bm_strerror(12345), "unknown error");
	ck_assert_str_eq(bm_version(), PACKAGE_VERSION);
}
END_TEST

START_TEST(test_sched_parse)
{
	bm__sched s;
	char err[128];

	ck_assert_int_eq(bm__sched_parse(&s, "default", err, sizeof err), 0);
	ck_assert_int_eq(s.kind, BM__SCHED_DEFAULT);
	ck_assert_int_eq(bm__sched_parse(&s, "UNIQUE", err, sizeof err), 0);
	ck_assert_int_eq(s.kind, BM__SCHED_UNIQUE);
	ck_assert_int_eq(bm__sched_parse(&s, "list:0,2-4", err, sizeof err),
	    0);
	ck_assert_int_eq(s.kind, BM__SCHED_LIST);
	ck_assert_uint_eq(s.ncpus, 4);
	ck_assert_uint_eq(s.cpus[3], 4);
	ck_assert_int_eq(bm__sched_parse(&s, "custom 1", err, sizeof err), 0);
	ck_assert_uint_eq(s.cpus[0], 1);
	ck_assert_int_eq(bm__sched_parse(&s, "list:", err, sizeof err),
	    BM_EPARSE);
	ck_assert_int_eq(bm__sched_parse(&s, "list:3-1", err, sizeof err),
	    BM_EPARSE);
	ck_assert_int_eq(bm__sched_parse(&s, "list:1,", err, sizeof err),
	    BM_EPARSE);
	ck_assert_int_eq(bm__sched_parse(&s, "list:99999", err, sizeof err),
	    BM_EPARSE);
	ck_assert_ptr_nonnull(strstr(err, "99999"));
	ck_assert_int_eq(bm__sched_parse(&s, "sometimes", err, sizeof err),
	    BM_ECONFIG);
	ck_assert_ptr_nonnull(strstr(err, "sometimes"));
}
END_TEST

/* A CPU list as the kernel writes it, read and written back. */
START_TEST(test_sched_list)
{
	bm__sched s;
	char buf[BM__SCHED_LIST_MAX];
	const unsigned short odd[] = { 3, 1, 2, 7 };

	ck_assert_int_eq(bm__sched_list_parse(&s, "0-3,8,10-11"), 0);
	ck_assert_uint_eq(s.ncpus, 7);
	bm__sched_list_format(s.cpus, s.ncpus, buf, sizeof buf);
	ck_assert_str_eq(buf, "0-3,8,10-11");
	bm__sched_list_format(odd, 4, buf, sizeof buf);
	ck_assert_str_eq(buf, "3,1-2,7");
	bm__sched_list_format(odd, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "");
	bm__sched_list_format(s.cpus, s.ncpus, buf, 6);
	ck_assert_str_eq(buf, "0-3,8");
	ck_assert_int_eq(bm__sched_list_parse(&s, "0-1023"), 0);
	ck_assert_uint_eq(s.ncpus, BM__SCHED_MAX_CPUS);
	ck_assert_int_eq(bm__sched_list_parse(&s, "1024"), BM_EPARSE);
	ck_assert_int_eq(bm__sched_list_parse(&s, ""), BM_EPARSE);
	ck_assert_int_eq(bm__sched_list_parse(&s, "0-3\n"), BM_EPARSE);
	ck_assert_int_eq(bm__sched_list_parse(&s, "2-1"), BM_EPARSE);
}
END_TEST

START_TEST(test_sched_apply)
{
	bm__sched s;
	char err[128];
	cpu_set_t set;

	ck_assert_int_eq(bm__sched_parse(&s, "single", err, sizeof err), 0);
	ck_assert_int_eq(bm__sched_apply(&s, 3), 0);
	ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 1);
	/* CPU 1023 is not allowed on any machine this runs on. */
	ck_assert_int_eq(bm__sched_parse(&s, "list:1023", err, sizeof err), 0);
	ck_assert_int_eq(bm__sched_apply(&s, 0), -EINVAL);
}
END_TEST

/* Build the suite. */
static Suite *
parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_size_table, 0,
	    (int)(sizeof size_cases / sizeof size_cases[0]));
	tcase_add_test(tc, test_size_null);
	tcase_add_test(tc, test_uint);
	tcase_add_test(tc, test_double);
	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_sched_parse);
	tcase_add_test(tc, test_sched_list);
	tcase_add_test(tc, test_sched_apply);
	suite_add_tcase(s, tc);
	/* localedef takes a second or more on a loaded machine. */
	tc = tcase_create("locale");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_double_locale);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(parse_suite());
}
