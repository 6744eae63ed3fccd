/* lat_unix.c: the round-trip latency of an AF_UNIX stream socket, as lmbench's lat_unix. */
#include "config.h"

#include "common/ipc.h"

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&ipc_tools[IPC_LAT_UNIX], argc, argv);
}
