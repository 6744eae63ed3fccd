/* lat_tcp.c: TCP round-trip latency, as lmbench's lat_tcp. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_tcp = {
	"lat_tcp", NET_TCP_ECHO, "TCP latency using", 31234, 1, 0
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_tcp, argc, argv);
}
