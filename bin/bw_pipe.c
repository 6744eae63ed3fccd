/* bw_pipe.c: the bandwidth of a pipe, as lmbench's bw_pipe. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool bw_pipe = {
	"bw_pipe", IPC_PIPE, 1, "Pipe bandwidth", 1, 65536, 10485760
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&bw_pipe, argc, argv);
}
