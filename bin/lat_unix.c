/* lat_unix.c: the round-trip latency of an AF_UNIX stream socket, as lmbench's lat_unix. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool lat_unix = {
	"lat_unix", IPC_UNIX, 0, "AF_UNIX sock stream latency", 1, 1, 0
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&lat_unix, argc, argv);
}
