/* fuzz_sched.c: libFuzzer target for placement policies (bm__sched_parse, bm_ctx_set_sched). */
#include "config.h"

#include <strings.h>

#include "benchmp/settings.h"
#include "fuzz.h"

/* Check a parsed policy against the text it came from. */
static void
check_sched(const bm__sched *s, const char *policy)
{
	char list[8 * BM__SCHED_MAX_CPUS], err[256];
	bm__sched again;
	size_t used = 0;
	unsigned i;

	switch (s->kind) {
	case BM__SCHED_DEFAULT:
		FUZZ_CHECK(*policy == '\0' || strcasecmp(policy, "default") == 0);
		break;
	case BM__SCHED_SINGLE:
		FUZZ_CHECK(strcasecmp(policy, "single") == 0);
		break;
	case BM__SCHED_UNIQUE:
		FUZZ_CHECK(strcasecmp(policy, "unique") == 0);
		break;
	case BM__SCHED_LIST:
		FUZZ_CHECK(strncasecmp(policy, "list:", 5) == 0 ||
		    strncasecmp(policy, "custom ", 7) == 0);
		FUZZ_CHECK(s->ncpus >= 1 && s->ncpus <= BM__SCHED_MAX_CPUS);
		/* The CPUs, written out one by one, parse to the same. */
		used = (size_t)snprintf(list, sizeof list, "list:");
		for (i = 0; i < s->ncpus; i++) {
			FUZZ_CHECK(s->cpus[i] < BM__SCHED_MAX_CPUS);
			used += (size_t)snprintf(list + used, sizeof list - used,
			    "%s%u", i > 0 ? "," : "", s->cpus[i]);
		}
		FUZZ_CHECK(used < sizeof list);
		FUZZ_CHECK(bm__sched_parse(&again, list, err, sizeof err) == 0);
		FUZZ_CHECK(again.kind == BM__SCHED_LIST &&
		    again.ncpus == s->ncpus);
		FUZZ_CHECK(memcmp(again.cpus, s->cpus,
		    s->ncpus * sizeof s->cpus[0]) == 0);
		break;
	default:
		FUZZ_CHECK(!"unknown placement kind");
	}
}

/* Parse the input as a placement policy, then set it on a context. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[FUZZ_ERR_MAX];
	struct bm_ctx before;
	bm__sched sc;
	bm_ctx *ctx;
	int rc, crc, want;
	char *s;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	err[0] = '\0';
	rc = bm__sched_parse(&sc, s, err, sizeof err);
	want = rc;
	if (rc == 0) {
		check_sched(&sc, s);
		/* A list naming a CPU this process may not use is refused. */
		want = bm__sched_check(&sc, err, sizeof err);
		FUZZ_CHECK(want == 0 || err[0] != '\0');
	} else {
		FUZZ_CHECK(rc == BM_EPARSE || rc == BM_ECONFIG);
		FUZZ_CHECK(err[0] != '\0');
	}

	FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
	before = *ctx;
	crc = bm_ctx_set_sched(ctx, s);
	FUZZ_CHECK(crc == want);
	if (want == 0) {
		FUZZ_CHECK(ctx->sched.kind == sc.kind &&
		    ctx->sched.ncpus == sc.ncpus);
	} else {
		FUZZ_CHECK(strcmp(bm_ctx_errmsg(ctx), err) == 0);
		FUZZ_CHECK(fuzz_ctx_same(ctx, &before));
	}
	bm_ctx_free(ctx);
	free(s);
	return 0;
}
