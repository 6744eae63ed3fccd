/* timing_o.c: print the cost of reading the clock around an interval, as lmbench's timing_o. */
#include "config.h"

#include "benchmp/calibration.h"
#include "common/tool.h"

/* Calibrate and print the value. */
int
main(int argc, char **argv)
{
	return calib_main("timing_o", BM_CAL_TIMING_O, argc, argv);
}
