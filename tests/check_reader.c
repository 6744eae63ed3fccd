/* check_reader.c: the tests of stored records read back (lib/verdict/jparse.c, lib/verdict/reader*.c, lib/verdict/throughput.c). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check_run.h"
#include "internal.h"
#include "verdict/verdict.h"

/* Parse s; the result code, the value freed. */
static int
parse(const char *s)
{
	struct bm__jval *v;
	int rc = bm__jparse(s, strlen(s), &v, NULL, NULL);

	bm__jval_free(v);
	return rc;
}

/* Valid JSON of every kind parses, and values come back as written. */
START_TEST(test_valid)
{
	const char *s = "{\"a\":[1,-2.5e3,0.25,true,false,null],\"b\":"
	    "\"x\\u00e9\\ud83d\\ude00\\n\",\"c\":{}, \"d\":[] }";
	const struct bm__jval *a, *b;
	struct bm__jval *v;
	char *out;

	ck_assert_int_eq(bm__jparse(s, strlen(s), &v, NULL, NULL), 0);
	ck_assert_int_eq(v->type, BM__J_OBJECT);
	ck_assert_uint_eq(v->n, 4);
	ck_assert((a = bm__jget(v, "a")) != NULL && a->n == 6);
	ck_assert(a->item[1].num == -2500 && a->item[2].num == 0.25);
	ck_assert_int_eq(a->item[3].type, BM__J_TRUE);
	ck_assert_int_eq(a->item[5].type, BM__J_NULL);
	ck_assert((b = bm__jget(v, "b")) != NULL);
	ck_assert_str_eq(b->str, "x\xc3\xa9\xf0\x9f\x98\x80\n");
	ck_assert(isnan(bm__jnum(v, "b")) && isnan(bm__jnum(v, "none")));
	ck_assert(bm__jstr(v, "b") == b->str && bm__jstr(v, "a") == NULL);
	ck_assert(!bm__jtrue(v, "a") && !bm__jtrue(NULL, "a"));
	ck_assert(bm__jtrue(a, "x") == 0 && isnan(bm__jnum(a, "x")));
	ck_assert_int_eq(bm__jwrite(v, &out), 0);
	ck_assert_str_eq(out, "{\"a\":[1,-2500,0.25,true,false,null],"
	    "\"b\":\"x\xc3\xa9\xf0\x9f\x98\x80\\n\",\"c\":{},\"d\":[]}");
	free(out);
	bm__jval_free(v);
	ck_assert_int_eq(parse(" 0 "), 0);
	ck_assert_int_eq(parse("\"\""), 0);
}
END_TEST

/* What RFC 8259 does not allow, or the bounds do not, is refused. */
START_TEST(test_invalid)
{
	static const char *const bad[] = {
		"", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "NaN",
		"Infinity", "-", "01", "1.", ".5", "1e", "+1", "1e999",
		"\"a", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\t\"",
		"[1] 2", "tru", "nul", "{\"a\":NaN}", "'a'"
	};
	struct bm__jval *v;
	const char *why = NULL;
	size_t i, at = 0;
	char deep[200];

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(parse(bad[i]) == BM_EPARSE, "accepted '%s'",
		    bad[i]);
	ck_assert_int_eq(bm__jparse("[1,]", 4, &v, &at, &why), BM_EPARSE);
	ck_assert(v == NULL && why != NULL && at == 3);
	/* Nesting: 64 levels pass, 65 do not. */
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	deep[128] = '\0';
	ck_assert_int_eq(parse(deep), 0);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = '\0';
	ck_assert_int_eq(parse(deep), BM_EPARSE);
}
END_TEST

/*
 * A line of many short strings (the 1 MB a record line may hold) parses
 * within 1 GB of address space: each string takes its own length, not
 * the rest of the text (200000 copies of it, 100 GB, before).
 */
START_TEST(test_many_strings)
{
	static const size_t n = 200000;
	struct rlimit old, lim;
	struct bm__jval *v;
	size_t i, len = 0;
	const char *san;
	char *s;

	ck_assert((s = malloc(n * 5 + 2)) != NULL);
	s[len++] = '[';
	for (i = 0; i < n; i++) {
		memcpy(s + len, i > 0 ? ",\"ab\"" : "\"ab\"", i > 0 ? 5 : 4);
		len += i > 0 ? 5 : 4;
	}
	s[len++] = ']';
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
	lim = old;
	/* (A sanitizer maps terabytes of shadow: no limit holds it.) */
	san = getenv("BM_SANITIZERS");
	if ((san == NULL || strcmp(san, "yes") != 0) &&
	    (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > (1ul << 30)))
		lim.rlim_cur = (rlim_t)1 << 30;
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	ck_assert_int_eq(bm__jparse(s, len, &v, NULL, NULL), 0);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
	ck_assert_uint_eq(v->n, n);
	ck_assert(v->item[n - 1].len == 2 &&
	    strcmp(v->item[n - 1].str, "ab") == 0);
	bm__jval_free(v);
	free(s);
	/* An escape, a pair of surrogates: their text is longer than they. */
	ck_assert_int_eq(bm__jparse("\"\\\"\\ud83d\\ude00\"", 16, &v,
	    NULL, NULL), 0);
	ck_assert(v->len == 5 && memcmp(v->str, "\"\xf0\x9f\x98\x80", 6) == 0);
	bm__jval_free(v);
}
END_TEST

/* A real record of lat_syscall null --json: its figure. */
START_TEST(test_real_record)
{
	const char *top = getenv("top_srcdir");
	char path[4096], why[256];
	struct bm__figset set;
	const struct bm__fig *f;

	snprintf(path, sizeof path, "%s/tests/fixtures/verdict/real.jsonl",
	    top != NULL ? top : "..");
	ck_assert_msg(bm__reader_file(path, &set, why, sizeof why) == 0,
	    "%s: %s", path, why);
	ck_assert_uint_eq(set.n, 2);
	f = &set.fig[0];
	ck_assert_str_eq(f->name, "lat_syscall null (us)");
	ck_assert_str_eq(f->unit, "us");
	ck_assert_int_eq(f->better, BM__BETTER_LOWER);
	ck_assert_uint_eq(f->nprocs, 5);
	ck_assert(f->value > 0 && f->ci_lo <= f->value && f->value <= f->ci_hi);
	ck_assert(fabs(f->ci_level - 0.9) < 1e-9);
	ck_assert(f->noisy && !f->bimodal && f->bad == NULL);
	f = &set.fig[1];
	ck_assert_str_eq(f->name, "bw_mem rd 8m (MB/s)");
	ck_assert_int_eq(f->better, BM__BETTER_HIGHER);
	bm__reader_free(&set);
}
END_TEST

/* One key: private paths as <tmp>, the last record of a figure counts. */
START_TEST(test_key)
{
	const char *buf =
	    "{\"tool\":\"t\",\"case\":\"c\",\"params\":{\"file\":"
	    "\"/tmp/benchmp-run.AbC123/f\",\"size\":4096},\"metric\":\"m\","
	    "\"unit\":\"us\",\"value\":1}\n"
	    "\n"
	    "{\"tool\":\"t\",\"case\":\"c\",\"params\":{\"file\":"
	    "\"/var/tmp/benchmp-lat_fs.XyZ987/f\",\"size\":4096},"
	    "\"metric\":\"m\",\"unit\":\"us\",\"value\":2,\"parallel\":2}\n"
	    "{\"tool\":\"t\",\"case\":\"c\",\"params\":{\"file\":"
	    "\"/tmp/benchmp-x.QQQ111/f\",\"size\":4096},\"metric\":\"m\","
	    "\"unit\":\"us\",\"value\":3}";
	struct bm__figset set;
	char why[256];

	ck_assert_int_eq(bm__reader_buf(buf, strlen(buf), &set, why,
	    sizeof why), 0);
	ck_assert_uint_eq(set.n, 2);
	ck_assert(set.fig[0].value == 3 && set.fig[0].line == 4);
	ck_assert_str_eq(set.fig[0].name, "t c <tmp>/f 4k (us)");
	ck_assert_str_eq(set.fig[1].name, "t c <tmp>/f 4k -P2 (us)");
	ck_assert(strstr(set.fig[0].key, "<tmp>/f") != NULL);
	ck_assert(bm__reader_find(&set, set.fig[1].key) == &set.fig[1]);
	bm__reader_free(&set);
}
END_TEST

/* An invalid line is refused with its number; a bad value is read, marked. */
START_TEST(test_bad_lines)
{
	const char *two = "{\"tool\":\"t\",\"value\":1}\n"
	    "{\"tool\":\"t\",\"case\":\"x\",\"value\":NaN}\n";
	const char *notrec = "{\"tool\":\"t\",\"value\":1}\n[1]\n";
	const char *zero = "{\"tool\":\"t\",\"value\":0}\n";
	struct bm__figset set;
	char why[256];

	ck_assert_int_eq(bm__reader_buf(two, strlen(two), &set, why,
	    sizeof why), BM_EPARSE);
	ck_assert_msg(strncmp(why, "line 2: invalid JSON", 20) == 0, "%s",
	    why);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_int_eq(bm__reader_buf(notrec, strlen(notrec), &set, why,
	    sizeof why), BM_EPARSE);
	ck_assert(strncmp(why, "line 2: not a record", 20) == 0);
	ck_assert_int_eq(bm__reader_buf(zero, strlen(zero), &set, why,
	    sizeof why), 0);
	ck_assert_uint_eq(set.n, 1);
	ck_assert_str_eq(set.fig[0].bad, "the value is 0");
	bm__reader_free(&set);
	ck_assert_int_eq(bm__reader_file("/nonexistent/x.jsonl", &set, why,
	    sizeof why), -ENOENT);
}
END_TEST

/* Count a record's lines into arg; refuse the third record. */
static int
count_lines(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize)
{
	size_t *sum = arg;

	bm__jval_free(rec);
	*sum += line;
	if (line == 4) {
		snprintf(why, whysize, "line 4: refused");
		return BM_ERANGE;
	}
	return 0;
}

/*
 * The records of a buffer reach the caller one by one, blank lines
 * skipped; its error stops them; a line that is not a record, or of the
 * wrong shape, is refused.
 */
START_TEST(test_lines)
{
	const char *buf = "{\"tool\":\"a\"}\n \t\r\n{\"tool\":\"b\"}\n"
	    "{\"tool\":\"c\"}\n{\"tool\":\"d\"}\n";
	const char *odd = "{\"tool\":\"a\",\"params\":[1]}\n";
	size_t sum = 0;
	char why[256];

	ck_assert_int_eq(bm__reader_lines(buf, 30, count_lines, &sum, why,
	    sizeof why), 0);
	ck_assert_uint_eq(sum, 1 + 3);
	sum = 0;
	ck_assert_int_eq(bm__reader_lines(buf, strlen(buf), count_lines, &sum,
	    why, sizeof why), BM_ERANGE);
	ck_assert_uint_eq(sum, 1 + 3 + 4);
	ck_assert_str_eq(why, "line 4: refused");
	ck_assert_int_eq(bm__reader_lines("[1]\n", 4, count_lines, &sum, why,
	    sizeof why), BM_EPARSE);
	ck_assert_int_eq(bm__reader_lines(odd, strlen(odd), count_lines, &sum,
	    why, sizeof why), BM_EPARSE);
	ck_assert_str_eq(why, "line 1: params is an array, not an object");
}
END_TEST

/* A file is read whole and NUL-terminated; a missing one says why. */
START_TEST(test_slurp)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096], why[256], *buf;
	size_t len;
	int fd;

	snprintf(path, sizeof path, "%s/check_reader.XXXXXX",
	    tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	ck_assert((fd = mkstemp(path)) >= 0);
	ck_assert(write(fd, "{}\n{}", 5) == 5);
	close(fd);
	ck_assert_int_eq(bm__reader_slurp(path, &buf, &len, why, sizeof why),
	    0);
	unlink(path);
	ck_assert(len == 5 && strcmp(buf, "{}\n{}") == 0);
	free(buf);
	ck_assert_int_eq(bm__reader_slurp(path, &buf, &len, why, sizeof why),
	    -ENOENT);
	ck_assert(buf == NULL && strncmp(why, "cannot read: ", 13) == 0);
}
END_TEST

/* The figure of a record's JSON text into f. */
static void
figure_of(const char *s, struct bm__fig *f)
{
	struct bm__jval *v;

	ck_assert_int_eq(bm__jparse(s, strlen(s), &v, NULL, NULL), 0);
	ck_assert_int_eq(bm__reader_figure(v, f), 0);
	bm__jval_free(v);
}

/* A figure added again takes the place of the first, with its own value; a new one goes last. */
START_TEST(test_add)
{
	struct bm__figset set;
	struct bm__fig f;
	size_t at = 99;

	memset(&set, 0, sizeof set);
	figure_of("{\"tool\":\"a\",\"value\":1}", &f);
	ck_assert_int_eq(bm__reader_add(&set, &f, &at), 0);
	ck_assert_uint_eq(at, 0);
	figure_of("{\"tool\":\"b\",\"value\":2}", &f);
	ck_assert_int_eq(bm__reader_add(&set, &f, &at), 0);
	ck_assert_uint_eq(at, 1);
	figure_of("{\"tool\":\"a\",\"value\":3}", &f);
	ck_assert_int_eq(bm__reader_add(&set, &f, &at), 0);
	ck_assert_uint_eq(at, 0);
	ck_assert_uint_eq(set.n, 2);
	ck_assert(set.fig[0].value == 3 && set.fig[1].value == 2);
	ck_assert_str_eq(set.fig[0].name, "a");
	bm__reader_free(&set);
}
END_TEST

/* The keys of the keymap tests: an array that moves as it grows. */
struct keys {
	char **k;
	size_t n;
};

/* The key at place at of a struct keys (a bm__keymap_key). */
static const char *
key_at(const void *arg, size_t at)
{
	const struct keys *ks = arg;

	return ks->k[at];
}

/* Add key to ks and to m at its place, after checking it is not there. */
static void
key_add(struct bm__keymap *m, struct keys *ks, const char *key,
    uint64_t hash)
{
	size_t at = 99;

	ck_assert(!bm__keymap_find_hash(m, hash, key, key_at, ks, &at));
	ck_assert_uint_eq(at, 99);
	ks->k = realloc(ks->k, (ks->n + 1) * sizeof *ks->k);
	ck_assert(ks->k != NULL);
	ck_assert((ks->k[ks->n] = strdup(key)) != NULL);
	ck_assert_int_eq(bm__keymap_add_hash(m, hash, ks->n), 0);
	ks->n++;
}

/* Free the keys. */
static void
key_free(struct keys *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->k[i]);
	free(ks->k);
}

/* A zeroed map is empty: nothing found, freed as it is. */
START_TEST(test_keymap_empty)
{
	struct bm__keymap m;
	struct keys ks = { NULL, 0 };
	size_t at = 7;

	memset(&m, 0, sizeof m);
	ck_assert(!bm__keymap_find(&m, "a", key_at, &ks, &at));
	ck_assert(!bm__keymap_find(&m, "", key_at, &ks, &at));
	ck_assert(!bm__keymap_find_hash(&m, 0, NULL, NULL, NULL, &at));
	ck_assert_uint_eq(at, 7);
	bm__keymap_free(&m);
	ck_assert(m.slot == NULL && m.cap == 0 && m.n == 0);
	ck_assert(bm__keymap_hash("") == 14695981039346656037ull);
	ck_assert(bm__keymap_hash("a") == 0xaf63dc4c8601ec8cull);
}
END_TEST

/*
 * Keys of one hash share a chain: each is found by its text, one not
 * added is not; a hash alone (get NULL) finds the first of it.
 */
START_TEST(test_keymap_collisions)
{
	struct bm__keymap m;
	struct keys ks = { NULL, 0 };
	char key[16];
	size_t i, at;

	memset(&m, 0, sizeof m);
	for (i = 0; i < 40; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		key_add(&m, &ks, key, 42);
	}
	ck_assert_uint_eq(m.n, 40);
	ck_assert(m.cap >= 2 * m.n);
	for (i = 0; i < 40; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		ck_assert(bm__keymap_find_hash(&m, 42, key, key_at, &ks, &at));
		ck_assert_uint_eq(at, i);
		/* The right text under another hash is not found. */
		ck_assert(!bm__keymap_find_hash(&m, 43, key, key_at, &ks,
		    &at));
	}
	ck_assert(!bm__keymap_find_hash(&m, 42, "k40", key_at, &ks, &at));
	ck_assert(!bm__keymap_find_hash(&m, 42, "k", key_at, &ks, &at));
	ck_assert(bm__keymap_find_hash(&m, 42, NULL, NULL, NULL, &at));
	ck_assert_uint_eq(at, 0);
	bm__keymap_free(&m);
	key_free(&ks);
}
END_TEST

/*
 * Growth keeps every key at its place, the map at most half full, its
 * slots a power of two; the array moving (realloc) and an entry replaced
 * by another copy of its key change nothing; numbers in a row as their
 * own hash (benchmp-stats's labels) are found by value.
 */
START_TEST(test_keymap_growth)
{
	struct bm__keymap m, num;
	struct keys ks = { NULL, 0 };
	char key[32];
	size_t i, at, cap = 0;

	memset(&m, 0, sizeof m);
	memset(&num, 0, sizeof num);
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "tool\037case %zu", i);
		key_add(&m, &ks, key, bm__keymap_hash(key));
		ck_assert(m.cap >= 2 * m.n && (m.cap & (m.cap - 1)) == 0);
		if (m.cap != cap) {
			/* Just grown: every key before is still found. */
			cap = m.cap;
			ck_assert(bm__keymap_find(&m, "tool\037case 0", key_at,
			    &ks, &at) && at == 0);
		}
		ck_assert_int_eq(bm__keymap_add_hash(&num, i * 3, i), 0);
	}
	ck_assert_uint_eq(m.n, 5000);
	free(ks.k[1234]);
	ck_assert((ks.k[1234] = strdup("tool\037case 1234")) != NULL);
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "tool\037case %zu", i);
		ck_assert(bm__keymap_find(&m, key, key_at, &ks, &at));
		ck_assert_uint_eq(at, i);
		ck_assert(bm__keymap_find_hash(&num, i * 3, NULL, NULL, NULL,
		    &at) && at == i);
		ck_assert(!bm__keymap_find_hash(&num, i * 3 + 1, NULL, NULL,
		    NULL, &at));
	}
	ck_assert(!bm__keymap_find(&m, "tool\037case 5000", key_at, &ks,
	    &at));
	ck_assert(!bm__keymap_find(&m, "tool\037case", key_at, &ks, &at));
	bm__keymap_free(&m);
	bm__keymap_free(&num);
	key_free(&ks);
}
END_TEST

/*
 * A set of many figures: each key once, in the order first seen, the
 * last record of a key in the place of its first; find gives each.
 */
START_TEST(test_add_many)
{
	struct bm__figset set;
	struct bm__fig f;
	char rec[96];
	size_t i, at;

	memset(&set, 0, sizeof set);
	for (i = 0; i < 3000; i++) {
		snprintf(rec, sizeof rec, "{\"tool\":\"t%zu\",\"value\":%zu}",
		    i % 1000, i + 1);
		figure_of(rec, &f);
		ck_assert_int_eq(bm__reader_add(&set, &f, &at), 0);
		ck_assert_uint_eq(at, i % 1000);
	}
	ck_assert_uint_eq(set.n, 1000);
	for (i = 0; i < 1000; i++) {
		snprintf(rec, sizeof rec, "t%zu", i);
		ck_assert(bm__reader_find(&set, set.fig[i].key) == &set.fig[i]);
		ck_assert_str_eq(set.fig[i].name, rec);
		ck_assert(set.fig[i].value == (double)(i + 2001));
	}
	figure_of("{\"tool\":\"t1000\",\"value\":1}", &f);
	ck_assert(bm__reader_find(&set, f.key) == NULL);
	bm__reader_free(&set);
	ck_assert(set.n == 0 && set.map.n == 0);
	ck_assert(bm__reader_find(&set, f.key) == NULL);
	bm__reader_fig_free(&f);
}
END_TEST

/* The throughput of a record's JSON text into tp. */
static void
throughput_of(const char *s, struct bm__throughput *tp)
{
	struct bm__jval *v;

	ck_assert_int_eq(bm__jparse(s, strlen(s), &v, NULL, NULL), 0);
	bm__throughput(v, tp);
	bm__jval_free(v);
}

/*
 * A bandwidth's throughput is its value, its interval in proportion
 * around the median (around the value of a record of the best
 * process); a time's is its operations per second, its interval turned
 * over; a figure where higher is better scales in proportion; a missing
 * or zero number leaves the interval (or the throughput) NAN.
 */
START_TEST(test_throughput)
{
	struct bm__throughput tp;

	throughput_of("{\"metric\":\"bandwidth\",\"value\":2000,"
	    "\"median\":1000,\"ci_lo\":900,\"ci_hi\":1200,"
	    "\"ops_per_s\":7}", &tp);
	ck_assert(tp.rate && tp.value == 2000);
	ck_assert(fabs(tp.lo - 1800) < 1e-9 && fabs(tp.hi - 2400) < 1e-9);
	throughput_of("{\"metric\":\"bandwidth\",\"stat\":\"best process\","
	    "\"value\":2000,\"median\":1000,\"ci_lo\":1900,"
	    "\"ci_hi\":2100}", &tp);
	ck_assert(fabs(tp.lo - 1900) < 1e-9 && fabs(tp.hi - 2100) < 1e-9);
	throughput_of("{\"metric\":\"latency\",\"better\":\"lower\","
	    "\"value\":2,\"median\":2,\"ci_lo\":1.6,\"ci_hi\":2.5,"
	    "\"ops_per_s\":1000}", &tp);
	ck_assert(!tp.rate && tp.value == 1000);
	ck_assert(fabs(tp.lo - 800) < 1e-9 && fabs(tp.hi - 1250) < 1e-9);
	throughput_of("{\"better\":\"higher\",\"value\":10,\"median\":10,"
	    "\"ci_lo\":8,\"ci_hi\":11,\"ops_per_s\":100}", &tp);
	ck_assert(fabs(tp.lo - 80) < 1e-9 && fabs(tp.hi - 110) < 1e-9);
	throughput_of("{\"value\":2,\"median\":2,\"ci_lo\":0,"
	    "\"ci_hi\":3,\"ops_per_s\":100}", &tp);
	ck_assert(tp.value == 100 && isnan(tp.lo) && isnan(tp.hi));
	throughput_of("{\"metric\":\"bandwidth\",\"value\":\"1.5\","
	    "\"median\":2,\"ci_lo\":1,\"ci_hi\":3}", &tp);
	ck_assert(tp.rate && isnan(tp.value) && isnan(tp.lo));
}
END_TEST

/* Build the suite. */
static Suite *
reader_suite(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_invalid);
	tcase_add_test(tc, test_many_strings);
	tcase_add_test(tc, test_real_record);
	tcase_add_test(tc, test_key);
	tcase_add_test(tc, test_bad_lines);
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_slurp);
	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_keymap_empty);
	tcase_add_test(tc, test_keymap_collisions);
	tcase_add_test(tc, test_keymap_growth);
	tcase_add_test(tc, test_add_many);
	tcase_add_test(tc, test_throughput);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(reader_suite());
}
