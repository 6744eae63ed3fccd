/* lat_unix_connect.c: AF_UNIX connection cost, as lmbench's lat_unix_connect. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_unix_connect = {
	"lat_unix_connect", NET_UNIX_CONNECT, "UNIX connection cost", 0, 0, 0
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_unix_connect, argc, argv);
}
