/* benchmp/command.h: timing another program, runs or readings. */
#ifndef BENCHMP_COMMAND_H
#define BENCHMP_COMMAND_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Measure another program: run argv (argv[0] found on PATH) reps times,
 * one after the other, counting the context's events in it and its
 * children (inherit, from exec on), and fill res as bm_run does: one
 * sample per run (ns, n = 1, events).  A run that exits non-zero or dies
 * is BM_EBENCH, and one that outlives timeout_us (0: ten minutes) is
 * BM_ETIMEDOUT, each with the detail on ctx; no process is left behind:
 * the command's process group and whatever it orphaned (the caller is a
 * child subreaper during the runs) are killed after each run.  SIGINT,
 * SIGTERM, SIGHUP and the other fatal signals end the runs with BM_EINTR,
 * as in bm_run().
 */
BM_EXTERN int bm_run_command(bm_ctx *ctx, char *const argv[], unsigned reps,
    uint64_t timeout_us, bm_result *res);

/* One periodic reading of a command's run (bm_run_command_every). */
typedef struct bm_reading {
	unsigned run;		/* the run, from 0 */
	unsigned index;		/* the reading in its run, from 1 */
	int last;		/* 1: the rest of the run, to the command's exit */
	double since_ns;	/* from the run's start to this reading */
	/*
	 * The interval since the previous reading (or the start) alone: one
	 * sample, its ns the interval's time and its events the counts in it
	 * (NAN for an event not counted), merged as bm_run's results are.
	 */
	const bm_result *result;
	uint64_t reserved[4];
} bm_reading;

/* Called with each reading; not 0 stops the runs with that error. */
typedef int (*bm_reading_fn)(bm_ctx *ctx, const bm_reading *rd,
    void *cookie);

/*
 * As bm_run_command, and every every_us (10 ms to 1 h, else BM_ERANGE)
 * during each run, read the time and the counters without stopping them
 * and call fn, like perf stat -I; then once more at the command's exit
 * (last = 1), so that a run's readings add up to its sample (the times
 * before the clock overhead is subtracted from the sample).  every_us 0
 * takes no reading.  fn's error kills the command and ends the runs,
 * returned as it is (with its detail on ctx, or a generic one).
 */
BM_EXTERN int bm_run_command_every(bm_ctx *ctx, char *const argv[],
    unsigned reps, uint64_t timeout_us, uint64_t every_us, bm_reading_fn fn,
    void *cookie, bm_result *res);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_COMMAND_H */
