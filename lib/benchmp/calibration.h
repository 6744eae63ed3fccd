/* benchmp/calibration.h: clock and loop overheads, the interval floor. */
#ifndef BENCHMP_CALIBRATION_H
#define BENCHMP_CALIBRATION_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calibration values: microseconds, as lmbench's timing(3). */
enum {
	BM_CAL_ENOUGH = 1u << 0,	/* enough came from ENOUGH */
	BM_CAL_TIMING_O = 1u << 1,	/* timing_o came from TIMING_O */
	BM_CAL_LOOP_O = 1u << 2		/* loop_o came from LOOP_O */
};

typedef struct bm_calibration {
	uint64_t enough_us;	/* shortest trustworthy interval */
	double timing_o_us;	/* cost of one start+stop of the clock */
	double loop_o_us;	/* cost of one empty loop iteration */
	unsigned from_env;	/* BM_CAL_* bits */
	double seconds;		/* how long measuring took */
	/*
	 * With a cycle subtimer (NAN without one): the cycles counted by one
	 * start+stop of an interval around an empty call, and by one empty
	 * loop iteration, subtracted from every interval's cycles as
	 * timing_o and loop_o are from its time.  Always measured.
	 */
	double cycle_o;
	double loop_o_cycles;
	/*
	 * What the measurement met: probes judged disturbed by the
	 * interference accounting (preempted, stopped, stolen, migrated)
	 * and measured again, and settled 0 when a value had to be taken
	 * from a disturbed probe or enough was given up on at the time
	 * bound: then the values are the best that could be had, not clean
	 * ones, and exporting them is not advised.
	 */
	unsigned disturbed;
	int settled;
	uint64_t reserved[8];
} bm_calibration;

/* Set one calibration value by hand, as the environment would. */
BM_EXTERN int bm_ctx_set_calibration(bm_ctx *ctx, unsigned which,
    double value);
/*
 * A program's own value for one calibration value, used unless the
 * environment (or bm_ctx_set_calibration) gave one: the record does not
 * count it as from the environment.  0, -EINVAL or BM_ERANGE.
 */
BM_EXTERN int bm_ctx_default_calibration(bm_ctx *ctx, unsigned which,
    double value);
/*
 * A program's value for one calibration value that holds whatever the
 * environment or the command line say, because its measurement's
 * definition needs it (the memory chase subtracts no loop overhead): the
 * source is the program's, not the environment's.  0, -EINVAL or
 * BM_ERANGE.
 */
BM_EXTERN int bm_ctx_force_calibration(bm_ctx *ctx, unsigned which,
    double value);
/* Calibrate what is not yet known (once per context) and report it. */
BM_EXTERN int bm_calibrate(bm_ctx *ctx, bm_calibration *out);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_CALIBRATION_H */
