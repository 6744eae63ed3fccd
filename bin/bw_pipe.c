/* bw_pipe.c: the bandwidth of a pipe, as lmbench's bw_pipe. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool bw_pipe = {
	.name = "bw_pipe",
	.channel = IPC_PIPE,
	.bandwidth = 1,
	.label = "Pipe bandwidth",
	.options = 1,
	.msg = 65536,
	.total = 10485760,
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&bw_pipe, argc, argv);
}
