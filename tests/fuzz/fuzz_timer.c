/* fuzz_timer.c: libFuzzer target for the timer config string (bm__timer_init, bm_ctx_set_timer). */
#include "config.h"

#include "benchmp/timers.h"
#include "fuzz.h"

/* The blanks that separate the words of a config string (timer.c). */
#define BLANKS " \t\n\r\v\f"

/*
 * Find the word of s that starts with key ("clock=" or "cycle="): return
 * its list and length, or NULL when no word does.
 */
static const char *
find_key(const char *s, const char *key, size_t *len)
{
	size_t n, klen = strlen(key);

	while (*s != '\0') {
		s += strspn(s, BLANKS);
		n = strcspn(s, BLANKS);
		if (n >= klen && strncmp(s, key, klen) == 0) {
			*len = n - klen;
			return s + klen;
		}
		s += n;
	}
	return NULL;
}

/* Return 1 when name is one of the comma-separated names of list. */
static int
in_list(const char *name, const char *list, size_t len)
{
	const char *p = list, *end = list + len, *comma;
	size_t n;

	for (;;) {
		comma = memchr(p, ',', (size_t)(end - p));
		n = (size_t)((comma != NULL ? comma : end) - p);
		if (strlen(name) == n && strncmp(name, p, n) == 0)
			return 1;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* Return 1 when every word of s is list, clock=... or cycle=... */
static int
words_known(const char *s)
{
	size_t n;

	while (*s != '\0') {
		s += strspn(s, BLANKS);
		if (*s == '\0')
			break;
		n = strcspn(s, BLANKS);
		if (!(n == 4 && strncmp(s, "list", 4) == 0) &&
		    !(n >= 6 && strncmp(s, "clock=", 6) == 0) &&
		    !(n >= 6 && strncmp(s, "cycle=", 6) == 0))
			return 0;
		s += n;
	}
	return 1;
}

/*
 * Return 1 when some word of s is exactly "list".  The words come from
 * strtok_r, not the library's way of scanning them, so that the two can
 * disagree.
 */
static int
has_list(const char *s)
{
	char *copy, *w, *save;
	int found = 0;

	if ((copy = strdup(s)) == NULL)
		abort();
	for (w = strtok_r(copy, BLANKS, &save); w != NULL && !found;
	    w = strtok_r(NULL, BLANKS, &save))
		found = strcmp(w, "list") == 0;
	free(copy);
	return found;
}

/* Check that a timer picked from config fits what config asked for. */
static void
check_timer(const bm__timer *t, const char *config)
{
	const char *list;
	size_t len;

	FUZZ_CHECK(t->clock != NULL && t->cycle != NULL);
	FUZZ_CHECK(t->clock->kind == BM_SUBTIMER_CLOCK);
	FUZZ_CHECK(t->cycle->kind == BM_SUBTIMER_CYCLE);
	FUZZ_CHECK(words_known(config));
	if ((list = find_key(config, "clock=", &len)) != NULL)
		FUZZ_CHECK(in_list(t->clock->name, list, len));
	else
		FUZZ_CHECK(strcmp(t->clock->name, "posix-monotonic") == 0);
	if ((list = find_key(config, "cycle=", &len)) != NULL)
		FUZZ_CHECK(in_list(t->cycle->name, list, len));
	else
		FUZZ_CHECK(strcmp(t->cycle->name, "null") == 0);
}

/* Initialise a timer from the input, then set it on a context. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[FUZZ_ERR_MAX];
	struct bm_ctx before;
	bm__timer t;
	bm_ctx *ctx;
	int rc, crc;
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	memset(err, 'x', sizeof err - 1);
	err[sizeof err - 1] = '\0';
	rc = bm__timer_init(&t, s, err, sizeof err);
	FUZZ_CHECK(bm_timer_config_wants_list(s) == has_list(s));

	FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
	before = *ctx;
	crc = bm_ctx_set_timer(ctx, s);
	FUZZ_CHECK(crc == rc);
	if (rc == 0) {
		FUZZ_CHECK(err[0] == '\0');
		check_timer(&t, s);
		FUZZ_CHECK(ctx->timer.clock == t.clock);
		FUZZ_CHECK(ctx->timer.cycle == t.cycle);
		bm__timer_fini(&t);
	} else {
		/* A failed config says why and holds on to nothing. */
		FUZZ_CHECK(rc == BM_EPARSE || rc == BM_ECONFIG ||
		    rc == BM_ENOTIMER);
		FUZZ_CHECK(err[0] != '\0' && err[0] != 'x');
		FUZZ_CHECK(t.clock == NULL && t.cycle == NULL);
		FUZZ_CHECK(strcmp(bm_ctx_errmsg(ctx), err) == 0);
		FUZZ_CHECK(fuzz_ctx_same(ctx, &before));
	}
	bm_ctx_free(ctx);
	free(s);
	return 0;
}
