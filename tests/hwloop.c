/* hwloop.c: cycles and instructions per operation of a loop whose cost is known, on real counters. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchmp/counters.h"
#include "benchmp/measure.h"
#include "benchmp/timers.h"
#include "benchmp.h"

/*
 * One operation is 100 dependent one-cycle additions (each needs the
 * last one's result, so no core overlaps them) plus the loop's decrement
 * and branch, which run beside the chain: 102 instructions and 100 core
 * cycles on every x86-64 core since the Pentium 4's successors.  The
 * whole loop is assembly, so the compiler adds nothing per operation.
 */
#define HW_OP_INSNS 102.0
#define HW_OP_CYCLES 100.0
/* Within this fraction of what the loop must cost. */
#define HW_TOLERANCE 0.10

#if defined(__x86_64__)
#define HW_ADD10 "add $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t" \
	"add $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t" \
	"add $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t" \
	"add $1, %%rax\n\t"

/* Run the known loop n times. */
static int
hw_loop(bm_iter_t n, void *cookie)
{
	uint64_t x = 0, count = n;

	(void)cookie;
	if (count == 0)
		return 0;
	__asm__ volatile(
	    "1:\n\t"
	    HW_ADD10 HW_ADD10 HW_ADD10 HW_ADD10 HW_ADD10
	    HW_ADD10 HW_ADD10 HW_ADD10 HW_ADD10 HW_ADD10
	    "dec %%rcx\n\t"
	    "jnz 1b\n\t"
	    : "+a"(x), "+c"(count) : : "cc");
	return 0;
}

/* Check one figure against what the loop must cost; 0 when within. */
static int
hw_check(const char *what, double got, double want)
{
	int ok = isfinite(got) && fabs(got - want) <= HW_TOLERANCE * want;

	printf("%s: %.2f per operation (want %.0f within %.0f%%): %s\n",
	    what, got, want, HW_TOLERANCE * 100, ok ? "ok" : "FAIL");
	return ok ? 0 : 1;
}

/* Check the event figures of one result (events cycles, instructions). */
static int
hw_check_result(const char *how, const bm_result *r)
{
	char what[64];
	int bad = 0;
	size_t i;

	for (i = 0; i < r->nevents; i++) {
		if (r->events[i].status != 0) {
			printf("%s: %s not counted: %s\n", how,
			    r->events[i].name, r->events[i].detail);
			bad = 1;
			continue;
		}
		snprintf(what, sizeof what, "%s %s", how, r->events[i].name);
		bad |= hw_check(what, r->event_per_op[i],
		    strcmp(r->events[i].name, "cycles") == 0 ? HW_OP_CYCLES :
		    HW_OP_INSNS);
	}
	snprintf(what, sizeof what, "%s cycle subtimer", how);
	bad |= hw_check(what, r->cycles_per_op, HW_OP_CYCLES);
	return bad;
}

/* Run the loop through bm_run and bm_measure and check its counts. */
int
main(void)
{
	bm_measurement m;
	bm_options o;
	bm_result r;
	bm_ctx *ctx;
	bm_bench b = { .benchmark = hw_loop };
	int rc, bad = 0;

	if ((rc = bm_ctx_new(&ctx)) != 0 ||
	    (rc = bm_ctx_set_events(ctx, "cycles,instructions")) != 0 ||
	    (rc = bm_ctx_set_timer(ctx, "cycle=linux-perf-event")) != 0) {
		printf("hwloop: %s: %s\n", bm_strerror(rc),
		    ctx != NULL ? bm_ctx_errmsg(ctx) : "");
		bm_ctx_free(ctx);
		return 1;
	}
	bm_options_init(&o);
	o.repetitions = 5;
	o.processes = 1;
	if ((rc = bm_run(ctx, &b, &o, &r)) != 0) {
		printf("hwloop: bm_run: %s\n", bm_ctx_errmsg(ctx));
		bm_ctx_free(ctx);
		return 1;
	}
	bad |= hw_check_result("bm_run", &r);
	bm_result_free(&r);
	if ((rc = bm_measure(ctx, hw_loop, NULL, &o, &m)) != 0) {
		printf("hwloop: bm_measure: %s\n", bm_ctx_errmsg(ctx));
		bm_ctx_free(ctx);
		return 1;
	}
	bad |= hw_check_result("bm_measure", &m.result);
	bm_result_free(&m.result);
	bm_ctx_free(ctx);
	return bad;
}
#else
/* The known loop is x86-64 assembly: elsewhere there is nothing to run. */
int
main(void)
{
	printf("hwloop: the known loop is written for x86-64 only\n");
	return 77;
}
#endif
