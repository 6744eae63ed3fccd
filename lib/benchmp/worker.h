/* benchmp/worker.h: what a callback may ask of its worker; a group's workers. */
#ifndef BENCHMP_WORKER_H
#define BENCHMP_WORKER_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Inside a worker.  A benchmark whose body cannot return (for example one
 * that leaves through a signal handler) calls bm_interval() itself to end
 * one interval and learn the count for the next, as lmbench's
 * benchmp_interval().
 */
typedef struct bm_state bm_state;

/* The running worker's state, or NULL outside a worker. */
BM_EXTERN bm_state *bm_state_current(void);
/* End the current interval and return the iteration count for the next. */
BM_EXTERN bm_iter_t bm_interval(bm_state *s);
/* The index of the running worker, 0 to parallel - 1. */
BM_EXTERN unsigned bm_worker_index(const bm_state *s);
/*
 * Count another process's run-queue wait as the worker's (a partner the
 * benchmark started in initialize, whose every wakeup the figure waits
 * for): 0, BM_ERANGE beyond four partners, -EINVAL outside a worker or
 * with the accounting off, or -errno when /proc has no such process.
 */
BM_EXTERN int bm_state_watch(bm_state *s, long pid);

/*
 * Run n benchmarks into res[0..n-1]: one after another as bm_run() would,
 * or, when a scheduler serves the process (benchmp-sched), as one group
 * whose figures it visits in any order on one set of workers.  Those that
 * share initialize, cleanup and cookie (a tool's modes over the same
 * buffers) are set up once a set; a worker switching between two that do
 * not runs the one's cleanup and the other's initialize, untimed.  On
 * failure no result is left to free.
 */
#define BM_MAX_GROUP 64
BM_EXTERN int bm_run_group(bm_ctx *ctx, const bm_bench *b, size_t n,
    const bm_options *o, bm_result *res);

/*
 * Tell a scheduler that serves the process how many figures its runs
 * measure one after another (1 to BM_MAX_SERVED_FIGURES) and how many of
 * the first are parts taken off the figures after them (fewer than
 * figures): said with its first figure, so that a plan line without the
 * scheduler's figures= and parts= gets them.  Before the first run; 0
 * (also when no scheduler serves it), -EINVAL out of range or too late.
 */
#define BM_MAX_SERVED_FIGURES 1000
BM_EXTERN int bm_serve_figures(bm_ctx *ctx, unsigned figures,
    unsigned parts);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_WORKER_H */
