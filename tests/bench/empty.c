/* empty.c: time an empty counted loop with bm_run() and print ns per iteration. */
#include <stdio.h>
#include <stdlib.h>

#include <benchmp.h>

/*
 * The body does nothing but count: the empty asm keeps the loop from being
 * folded away without adding an instruction.  After the engine subtracts
 * the timing and loop overheads what is left is the harness's own error,
 * which make bench expects to be a fraction of a nanosecond.
 */
static int
empty_body(bm_iter_t n, void *cookie)
{
	bm_iter_t i;

	(void)cookie;
	for (i = 0; i < n; i++)
		__asm__ volatile("");
	return 0;
}

/* Run the empty benchmark once and print its median time per iteration. */
int
main(void)
{
	bm_bench b = { .benchmark = empty_body };
	bm_options o;
	bm_result r;
	bm_ctx *ctx;
	int rc;

	if ((rc = bm_ctx_new(&ctx)) != 0) {
		fprintf(stderr, "empty: %s\n", bm_strerror(rc));
		return 1;
	}
	if ((rc = bm_ctx_load_env(ctx)) != 0) {
		fprintf(stderr, "empty: %s\n", bm_ctx_errmsg(ctx));
		bm_ctx_free(ctx);
		return 2;
	}
	bm_options_init(&o);
	if ((rc = bm_run(ctx, &b, &o, &r)) != 0) {
		fprintf(stderr, "empty: %s: %s\n", bm_strerror(rc),
		    bm_ctx_errmsg(ctx));
		bm_ctx_free(ctx);
		return 1;
	}
	printf("%.4f\n", r.per_op_ns.median);
	bm_result_free(&r);
	bm_ctx_free(ctx);
	return 0;
}
