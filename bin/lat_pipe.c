/* lat_pipe.c: the round-trip latency of a pipe, as lmbench's lat_pipe. */
#include "config.h"

#include "common/ipc.h"

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&ipc_tools[IPC_LAT_PIPE], argc, argv);
}
