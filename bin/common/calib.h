/* calib.h: the calibration tools' shared parts (calib.c, calib-store.c). */
#ifndef BM_CALIB_H
#define BM_CALIB_H

#include "benchmp/calibration.h"

/* The longest machine line a store holds, its NUL in. */
#define CALIB_MACHINE_MAX 496

/* What a stored calibration was chosen from. */
struct calib_stored {
	bm_calibration measured;	/* this run's own values */
	char machine[CALIB_MACHINE_MAX];	/* this machine's line */
	unsigned runs;		/* stored runs of this machine, this one in */
	int kept;		/* this run was stored (settled, measured) */
	int other_machine;	/* the file held another machine's runs */
};

/*
 * Keep this run's calibration in the store at path (when it settled and
 * was measured), and replace the values in *cal not given by the
 * environment by the median of this machine's last stored runs.  0, or
 * -1 with a message in why (a file that is not a store is not touched).
 */
int calib_store(const char *path, const char *clock, bm_calibration *cal,
    struct calib_stored *st, char *why, size_t size);

#endif
