/* bw_unix.c: the bandwidth of an AF_UNIX stream socket, as lmbench's bw_unix. */
#include "config.h"

#include "common/ipc.h"

static const struct ipc_tool bw_unix = {
	"bw_unix", IPC_UNIX, 1, "AF_UNIX sock stream bandwidth", 1, 65536, 10485760
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return ipc_main(&bw_unix, argc, argv);
}
