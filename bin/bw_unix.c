/* bw_unix.c: the bandwidth of an AF_UNIX stream socket, as lmbench's bw_unix. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool bw_unix = {
	.name = "bw_unix",
	.channel = IPC_UNIX,
	.bandwidth = 1,
	.label = "AF_UNIX sock stream bandwidth",
	.options = 1,
	.msg = 65536,
	.total = 10485760,
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&bw_unix, argc, argv);
}
