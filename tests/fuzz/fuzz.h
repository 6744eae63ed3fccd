/* fuzz.h: what every libFuzzer target shares: the input as a C string, checks. */
#ifndef BM_FUZZ_H
#define BM_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* libFuzzer's entry point, declared for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Check an invariant even when NDEBUG is defined: print what failed and
 * abort, which libFuzzer reports as a crash and saves the input of.
 */
#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
		    __FILE__, __LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

/*
 * The size of a context's message buffer: a target's own message buffer
 * is as long, so that a long message is cut at the same place in both.
 */
#define FUZZ_ERR_MAX sizeof(((struct bm_ctx *)0)->err)

/*
 * Copy the input into a NUL-terminated string, or return NULL when it
 * holds a NUL: the parsers take C strings, so such an input would only
 * repeat a shorter one, and the caller tells libFuzzer (by returning -1)
 * not to keep it in the corpus.
 */
static inline char *
fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s;

	if (memchr(data, '\0', size) != NULL)
		return NULL;
	if ((s = malloc(size + 1)) == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Return 1 when a context holds what a copy taken earlier held: the same
 * timer, placement, events and calibration.  The functions that read user
 * input promise to leave the context as it was when they fail.
 */
static inline int
fuzz_ctx_same(const bm_ctx *a, const bm_ctx *b)
{
	size_t i;

	if (a->timer.clock != b->timer.clock ||
	    a->timer.cycle != b->timer.cycle ||
	    a->sched.kind != b->sched.kind ||
	    a->sched.ncpus != b->sched.ncpus ||
	    memcmp(a->sched.cpus, b->sched.cpus,
	    a->sched.ncpus * sizeof a->sched.cpus[0]) != 0 ||
	    a->events.n != b->events.n ||
	    a->known != b->known ||
	    a->cal.from_env != b->cal.from_env ||
	    a->cal.enough_us != b->cal.enough_us ||
	    memcmp(&a->cal.timing_o_us, &b->cal.timing_o_us,
	    sizeof a->cal.timing_o_us) != 0 ||
	    memcmp(&a->cal.loop_o_us, &b->cal.loop_o_us,
	    sizeof a->cal.loop_o_us) != 0)
		return 0;
	for (i = 0; i < a->events.n; i++) {
		if (strcmp(a->events.info[i].name, b->events.info[i].name) != 0)
			return 0;
	}
	return 1;
}

#endif /* BM_FUZZ_H */
