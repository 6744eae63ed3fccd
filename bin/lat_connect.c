/* lat_connect.c: TCP connection cost, as lmbench's lat_connect. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_connect = {
	.name = "lat_connect",
	.kind = NET_TCP_CONNECT,
	.label = "TCP/IP connection cost to",
	.port = 31237,
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_connect, argc, argv);
}
