/* enough.c: print the shortest interval a measurement can trust, as lmbench's enough. */
#include "config.h"

#include "benchmp/calibration.h"
#include "common/tool.h"

/* Calibrate and print the value. */
int
main(int argc, char **argv)
{
	return calib_main("enough", BM_CAL_ENOUGH, argc, argv);
}
