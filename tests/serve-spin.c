/* serve-spin.c: a stand-in tool with a known cost per operation (SPIN_NS) and set-up (SPIN_SETUP_MS), on the installed API, for benchmp-sched's tests. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchmp.h"
#include "benchmp/settings.h"
#include "benchmp/worker.h"

/* Nanoseconds on the monotonic clock. */
static uint64_t
spin_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* n operations, each spinning until the clock has moved by *cookie ns. */
static int
spin_bench(bm_iter_t n, void *cookie)
{
	uint64_t ns = *(const uint64_t *)cookie, t;

	while (n-- > 0) {
		t = spin_now();
		while (spin_now() - t < ns)
			;
	}
	return 0;
}

/* A worker's set-up: SPIN_SETUP_MS of sleep, said on stderr. */
static uint64_t spin_setup_ms;

static int
spin_setup(bm_iter_t n, void *cookie)
{
	struct timespec ts;

	(void)n;
	(void)cookie;
	ts.tv_sec = (time_t)(spin_setup_ms / 1000);
	ts.tv_nsec = (long)(spin_setup_ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	fprintf(stderr, "serve-spin: set up\n");
	return 0;
}

/* Print r as a record of spins per second, as a tool's record; 0 or -1. */
static int
spin_record(bm_ctx *ctx, const bm_result *r)
{
	bm_record rec;
	char *json;

	if (bm_record_rate(&rec, "serve-spin", "spin", "ops/s", r, 1) != 0 ||
	    bm_record_json(ctx, &rec, &json) != 0) {
		fprintf(stderr, "serve-spin: no record\n");
		return -1;
	}
	fputs(json, stdout);
	free(json);
	return 0;
}

/*
 * Run the spin once (or as many figures as argv[1] says, one after
 * another) and print each figure's median ns per operation.
 */
int
main(int argc, char **argv)
{
	const char *v = getenv("SPIN_NS");
	uint64_t ns = 1000, figures = 1;
	bm_options o;
	bm_result r;
	bm_bench b;
	bm_ctx *ctx;
	int rc;

	const char *setup = getenv("SPIN_SETUP_MS");
	/*
	 * SPIN_GROUP=N: N figures as one group (bm_run_group), whoever
	 * serves it: the arm unsaid, as a library that predates
	 * BENCHMP_SERVE_ARM announces a group in an A/B's arm.
	 */
	const char *group = getenv("SPIN_GROUP");
	uint64_t ngroup = 0;
	/* SPIN_TELL=N,K: bm_serve_figures(N, K) before the first run. */
	const char *tell = getenv("SPIN_TELL");
	unsigned tell_n = 0, tell_k = 0;
	/* SPIN_RECORD: a rate record (higher is better) instead of the line. */
	int record = getenv("SPIN_RECORD") != NULL;

	if ((setup != NULL && bm_parse_uint(setup, 0, 60000, &spin_setup_ms)
	    != 0) ||
	    (v != NULL && bm_parse_uint(v, 1, 1000000000u, &ns) != 0) ||
	    (group != NULL && bm_parse_uint(group, 2, 8, &ngroup) != 0) ||
	    (tell != NULL && sscanf(tell, "%u,%u", &tell_n, &tell_k) != 2) ||
	    (argc > 1 && bm_parse_uint(argv[1], 1, 100, &figures) != 0)) {
		fprintf(stderr, "usage: SPIN_NS=ns SPIN_SETUP_MS=ms "
		    "SPIN_GROUP=2..8 SPIN_TELL=N,K serve-spin [figures]\n");
		return 2;
	}
	if ((rc = bm_ctx_new(&ctx)) != 0 || (rc = bm_ctx_load_env(ctx)) != 0) {
		fprintf(stderr, "serve-spin: %s\n", bm_strerror(rc));
		return 1;
	}
	if (tell != NULL && (rc = bm_serve_figures(ctx, tell_n,
	    tell_k)) != 0) {
		fprintf(stderr, "serve-spin: bm_serve_figures(%u, %u): %s\n",
		    tell_n, tell_k, bm_strerror(rc));
		return 1;
	}
	/*
	 * SPIN_SAY: say on stderr that it started, and in an A/B's arm
	 * which (a restart's test, a generation's start order).
	 */
	if (getenv("SPIN_SAY") != NULL)
		fprintf(stderr, "serve-spin: started%s%s%s\n",
		    getenv("BENCHMP_SERVE_ARM") ? " (arm " : "",
		    getenv("BENCHMP_SERVE_ARM") ? getenv("BENCHMP_SERVE_ARM") :
		    "", getenv("BENCHMP_SERVE_ARM") ? ")" : "");
	bm_options_init(&o);
	memset(&b, 0, sizeof(b));
	b.benchmark = spin_bench;
	b.cookie = &ns;
	if (setup != NULL)
		b.initialize = spin_setup;
	if (ngroup > 0) {
		bm_bench g[8];
		bm_result gr[8];
		unsigned i;

		(void)unsetenv("BENCHMP_SERVE_ARM");
		for (i = 0; i < ngroup; i++)
			g[i] = b;
		if ((rc = bm_run_group(ctx, g, ngroup, &o, gr)) != 0) {
			fprintf(stderr, "serve-spin: %s\n", bm_ctx_errmsg(ctx));
			return 1;
		}
		for (i = 0; i < ngroup; i++) {
			printf("spin: %.1f ns %u\n", gr[i].per_op_ns.median,
			    gr[i].processes);
			bm_result_free(&gr[i]);
		}
		figures = 0;
	}
	while (figures-- > 0) {
		if ((rc = bm_run(ctx, &b, &o, &r)) != 0) {
			fprintf(stderr, "serve-spin: %s\n", bm_ctx_errmsg(ctx));
			return 1;
		}
		if (record) {
			if (spin_record(ctx, &r) != 0)
				return 1;
		} else {
			printf("spin: %.1f ns %u\n", r.per_op_ns.median,
			    r.processes);
		}
		bm_result_free(&r);
	}
	bm_ctx_free(ctx);
	return 0;
}
