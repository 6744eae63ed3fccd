/* lat_tcp.c: TCP round-trip latency, as lmbench's lat_tcp. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_tcp = {
	.name = "lat_tcp",
	.kind = NET_TCP_ECHO,
	.label = "TCP latency using",
	.port = 31234,
	.msg = 1,
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_tcp, argc, argv);
}
