/* lat_fifo.c: the round-trip latency of a FIFO, as lmbench's lat_fifo. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool lat_fifo = {
	.name = "lat_fifo",
	.channel = IPC_FIFO,
	.label = "Fifo latency",
	.msg = 1,
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&lat_fifo, argc, argv);
}
