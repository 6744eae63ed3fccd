/* bw_pipe.c: the bandwidth of a pipe, as lmbench's bw_pipe. */
#include "config.h"

#include "common/ipc.h"

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&ipc_tools[IPC_BW_PIPE], argc, argv);
}
