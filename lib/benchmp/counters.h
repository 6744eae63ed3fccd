/* benchmp/counters.h: perf_event events counted with every interval. */
#ifndef BENCHMP_COUNTERS_H
#define BENCHMP_COUNTERS_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Counters: perf_event events counted with every interval, chosen by name
 * from a comma-separated list: cycles, instructions, cache-references,
 * cache-misses, branch-misses, task-clock, page-faults, context-switches,
 * cpu-migrations, or rNNNN (a raw hexadecimal event code).  An unknown
 * name is BM_ECONFIG; an event this machine cannot count is kept and
 * reported as not supported while the run goes on.  BENCHMP_EVENTS is
 * read by bm_ctx_load_env().
 */
BM_EXTERN int bm_ctx_set_events(bm_ctx *ctx, const char *list);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_COUNTERS_H */
