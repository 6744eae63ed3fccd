/* lat_pipe.c: the round-trip latency of a pipe, as lmbench's lat_pipe. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool lat_pipe = {
	"lat_pipe", IPC_PIPE, 0, "Pipe latency", 0, 1, 0
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&lat_pipe, argc, argv);
}
