/* lat_fifo.c: the round-trip latency of a FIFO, as lmbench's lat_fifo. */
#include "config.h"

#include "common/ipc.h"

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&ipc_tools[IPC_LAT_FIFO], argc, argv);
}
