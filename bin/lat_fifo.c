/* lat_fifo.c: the round-trip latency of a FIFO, as lmbench's lat_fifo. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool lat_fifo = {
	"lat_fifo", IPC_FIFO, 0, "Fifo latency", 0, 1, 0
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&lat_fifo, argc, argv);
}
