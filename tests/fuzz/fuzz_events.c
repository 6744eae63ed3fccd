/* fuzz_events.c: libFuzzer target for event lists (bm__events_parse, bm_ctx_set_events). */
#include "config.h"

#include "benchmp/counters.h"
#include "fuzz.h"

/* Check a parsed list against the text it came from. */
static void
check_events(const bm__events *ev, const char *list)
{
	char joined[BM_MAX_EVENTS * 25 + 1], *end;
	size_t i, k, used = 0, len;

	joined[0] = '\0';
	FUZZ_CHECK(ev->n <= BM_MAX_EVENTS);
	for (i = 0; i < ev->n; i++) {
		len = strlen(ev->info[i].name);
		FUZZ_CHECK(len > 0 && len < sizeof ev->info[i].name);
		FUZZ_CHECK(strchr(ev->info[i].name, ',') == NULL);
		for (k = 0; k < i; k++)
			FUZZ_CHECK(strcmp(ev->info[k].name,
			    ev->info[i].name) != 0);
		/* A raw event (PERF_TYPE_RAW) is rNNNN, and its code NNNN. */
		if (ev->type[i] == 4) {
			FUZZ_CHECK(ev->info[i].name[0] == 'r');
			FUZZ_CHECK(strtoull(ev->info[i].name + 1, &end, 16) ==
			    ev->config[i] && *end == '\0');
		} else	/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
			FUZZ_CHECK(ev->type[i] <= 1);
		used += (size_t)snprintf(joined + used, sizeof joined - used,
		    "%s%s", i > 0 ? "," : "", ev->info[i].name);
	}
	/* The names, joined again, are the list. */
	FUZZ_CHECK(strcmp(joined, list) == 0);
}

/* Parse the input as an event list, then set it on a context. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[FUZZ_ERR_MAX];
	struct bm_ctx before;
	bm__events ev;
	bm_ctx *ctx;
	int rc, crc;
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	err[0] = '\0';
	memset(&ev, 0xa5, sizeof ev);
	rc = bm__events_parse(&ev, s, err, sizeof err);
	if (rc == 0)
		check_events(&ev, s);
	else {
		FUZZ_CHECK(rc == BM_EPARSE || rc == BM_ECONFIG ||
		    rc == BM_ERANGE);
		FUZZ_CHECK(err[0] != '\0');
	}

	FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
	before = *ctx;
	crc = bm_ctx_set_events(ctx, s);
	FUZZ_CHECK(crc == rc);
	if (rc == 0) {
		check_events(&ctx->events, s);
		FUZZ_CHECK(ctx->events.n == ev.n);
	} else {
		FUZZ_CHECK(strcmp(bm_ctx_errmsg(ctx), err) == 0);
		FUZZ_CHECK(fuzz_ctx_same(ctx, &before));
	}
	bm_ctx_free(ctx);
	free(s);
	return 0;
}
