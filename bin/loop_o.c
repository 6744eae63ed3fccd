/* loop_o.c: print the cost of one empty loop iteration, as lmbench's loop_o. */
#include "config.h"

#include "benchmp/calibration.h"
#include "common/tool.h"

/* Calibrate and print the value. */
int
main(int argc, char **argv)
{
	return calib_main("loop_o", BM_CAL_LOOP_O, argc, argv);
}
