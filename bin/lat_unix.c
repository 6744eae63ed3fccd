/* lat_unix.c: the round-trip latency of an AF_UNIX stream socket, as lmbench's lat_unix. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool lat_unix = {
	.name = "lat_unix",
	.channel = IPC_UNIX,
	.label = "AF_UNIX sock stream latency",
	.options = 1,
	.msg = 1,
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&lat_unix, argc, argv);
}
