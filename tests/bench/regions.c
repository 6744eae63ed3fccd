/* regions.c: print ns per region start/stop pair, regions switched off or on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <benchmp.h>
#include <benchmp/regions.h>

/*
 * Pairs per timed loop (fewer when on: each pair keeps a sample, and a
 * fresh region per loop bounds them to 10 MB), and loops whose median is
 * printed.
 */
#define PAIRS_OFF 2000000u
#define PAIRS_ON 100000u
#define LOOPS 7

/* Order doubles for qsort. */
static int
regions_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Monotonic time in nanoseconds. */
static double
regions_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * Time pairs start/stop pairs around an empty body.  The region pointer
 * is loaded through a volatile each time, as from a structure, so the
 * compiler cannot hoist the switch's test out of the loop: the figure is
 * the whole loop, an upper bound of what the calls cost.
 */
static double
regions_loop(bm_region *r, unsigned pairs)
{
	bm_region *volatile rv = r;
	double t0, t1;
	unsigned i;

	t0 = regions_now();
	for (i = 0; i < pairs; i++) {
		bm_region *cur = rv;

		bm_region_start(cur);
		__asm__ volatile("");
		bm_region_stop(cur);
	}
	t1 = regions_now();
	return (t1 - t0) / pairs;
}

/* Print the median ns per pair with regions "off" or "on". */
int
main(int argc, char **argv)
{
	double v[LOOPS];
	bm_region *r;
	bm_ctx *ctx;
	int rc, on, k;

	if (argc != 2 || (strcmp(argv[1], "off") != 0 &&
	    strcmp(argv[1], "on") != 0)) {
		fprintf(stderr, "usage: regions off|on\n");
		return 2;
	}
	on = strcmp(argv[1], "on") == 0;
	if ((rc = bm_ctx_new(&ctx)) != 0) {
		fprintf(stderr, "regions: %s\n", bm_strerror(rc));
		return 1;
	}
	if ((rc = bm_ctx_load_env(ctx)) != 0 ||
	    (rc = bm_ctx_set_regions(ctx, on)) != 0) {
		fprintf(stderr, "regions: %s\n", bm_ctx_errmsg(ctx));
		bm_ctx_free(ctx);
		return 1;
	}
	for (k = 0; k < LOOPS; k++) {
		if ((rc = bm_region_new(ctx, "bench", &r)) != 0) {
			fprintf(stderr, "regions: %s\n", bm_ctx_errmsg(ctx));
			bm_ctx_free(ctx);
			return 1;
		}
		if ((r != NULL) != on) {
			fprintf(stderr, "regions: the region is %s, expected "
			    "%s\n", r != NULL ? "on" : "off", argv[1]);
			bm_region_free(r);
			bm_ctx_free(ctx);
			return 1;
		}
		v[k] = regions_loop(r, on ? PAIRS_ON : PAIRS_OFF);
		bm_region_free(r);
	}
	qsort(v, LOOPS, sizeof(v[0]), regions_cmp);
	printf("%.3f\n", v[LOOPS / 2]);
	bm_ctx_free(ctx);
	return 0;
}
