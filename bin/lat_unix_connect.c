/* lat_unix_connect.c: AF_UNIX connection cost, as lmbench's lat_unix_connect. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_unix_connect = {
	.name = "lat_unix_connect",
	.kind = NET_UNIX_CONNECT,
	.label = "UNIX connection cost",
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_unix_connect, argc, argv);
}
