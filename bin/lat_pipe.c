/* lat_pipe.c: the round-trip latency of a pipe, as lmbench's lat_pipe. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool lat_pipe = {
	.name = "lat_pipe",
	.channel = IPC_PIPE,
	.label = "Pipe latency",
	.msg = 1,
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&lat_pipe, argc, argv);
}
