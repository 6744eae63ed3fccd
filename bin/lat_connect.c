/* lat_connect.c: TCP connection cost, as lmbench's lat_connect. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_connect = {
	"lat_connect", NET_TCP_CONNECT, "TCP/IP connection cost to", 31237, 0, 0
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_connect, argc, argv);
}
