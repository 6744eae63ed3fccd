/* bw_unix.c: the bandwidth of an AF_UNIX stream socket, as lmbench's bw_unix. */
#include "config.h"

#include "common/ipc.h"

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&ipc_tools[IPC_BW_UNIX], argc, argv);
}
