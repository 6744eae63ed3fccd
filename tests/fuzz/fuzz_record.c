/* fuzz_record.c: libFuzzer target for stored records: the JSON parser and writer, the record reader, the verdicts over what it read. */
#include "config.h"

#include <math.h>

#include "fuzz.h"

/* The verdicts a judgement may end in. */
#define RECORD_VERDICTS	(BM__V_FAILED + 1)

/* Write v out and parse the text again: 0 with *text and *back, or -1. */
static int
record_again(const struct bm__jval *v, char **text, struct bm__jval **back)
{
	const char *why = NULL;
	size_t at = 0;

	*text = NULL;
	*back = NULL;
	if (bm__jwrite(v, text) != 0)
		return -1;
	/* What the writer writes is JSON the parser takes. */
	FUZZ_CHECK(bm__jparse(*text, strlen(*text), back, &at, &why) == 0);
	return 0;
}

/*
 * Parse the input as one JSON text: a failure names a place inside it
 * and a reason.  A value written out parses again; from then on the
 * text is fixed (the first writing may replace bytes that are not
 * UTF-8 with U+FFFD, and numbers take their fewest digits).
 */
static void
check_json(const char *s, size_t len)
{
	struct bm__jval *v = NULL, *w = NULL, *x = NULL;
	char *one = NULL, *two = NULL, *three = NULL;
	const char *why = NULL;
	size_t at = 0;
	int rc;

	rc = bm__jparse(s, len, &v, &at, &why);
	if (rc == BM_EPARSE) {
		FUZZ_CHECK(at <= len);
		FUZZ_CHECK(why != NULL && *why != '\0');
		return;
	}
	if (rc != 0)
		return;
	if (record_again(v, &one, &w) == 0 &&
	    record_again(w, &two, &x) == 0) {
		bm__jval_free(w);
		w = NULL;
		if (record_again(x, &three, &w) == 0)
			FUZZ_CHECK(strcmp(two, three) == 0);
	}
	free(one);
	free(two);
	free(three);
	bm__jval_free(v);
	bm__jval_free(w);
	bm__jval_free(x);
}

/* Each record the reader hands over: its throughput and its figure, freed. */
static int
check_each(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize)
{
	struct bm__throughput tp;
	struct bm__fig f;

	(void)arg;
	(void)why;
	(void)whysize;
	FUZZ_CHECK(line >= 1);
	bm__throughput(rec, &tp);
	/* An interval, where there is one, is of a positive value. */
	if (!isnan(tp.lo) || !isnan(tp.hi))
		FUZZ_CHECK(tp.value > 0 && tp.lo >= 0 && tp.hi >= 0);
	memset(&f, 0, sizeof f);
	if (bm__reader_figure(rec, &f) == 0)
		bm__reader_fig_free(&f);
	bm__jval_free(rec);
	return 0;
}

/*
 * Read the input as a file of records; judge each figure against the
 * next, as compare judges two runs: every judgement ends in a verdict,
 * a worse or better one on a positive, finite ratio.
 */
static void
check_records(const char *s, size_t len)
{
	struct bm__judgement *j;
	struct bm__figset set;
	char why[256];
	size_t i, n;

	memset(&set, 0, sizeof set);

	(void)bm__reader_lines(s, len, check_each, NULL, why, sizeof why);
	if (bm__reader_buf(s, len, &set, why, sizeof why) != 0) {
		FUZZ_CHECK(memchr(why, '\0', sizeof why) != NULL);
		bm__reader_free(&set);
		return;
	}
	n = set.n > 1 ? set.n - 1 : 0;
	if (n > 0 && (j = calloc(n, sizeof *j)) != NULL) {
		for (i = 0; i < n; i++)
			bm__verdict_judge(&set.fig[i], &set.fig[i + 1], 0.05,
			    0.05, &j[i]);
		if (bm__verdict_decide(j, n, 0.05, BM__CORR_BH) == 0)
			for (i = 0; i < n; i++) {
				FUZZ_CHECK((unsigned)j[i].verdict <
				    RECORD_VERDICTS);
				FUZZ_CHECK(memchr(j[i].why, '\0',
				    sizeof j[i].why) != NULL);
				if (j[i].verdict == BM__V_WORSE ||
				    j[i].verdict == BM__V_BETTER)
					FUZZ_CHECK(isfinite(j[i].ratio) &&
					    j[i].ratio > 0);
			}
		free(j);
	}
	bm__reader_free(&set);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	check_json(s, size);
	check_records(s, size);
	free(s);
	return 0;
}
