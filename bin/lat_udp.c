/* lat_udp.c: UDP round-trip latency, as lmbench's lat_udp. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_udp = {
	.name = "lat_udp",
	.kind = NET_UDP_ECHO,
	.label = "UDP latency using",
	.port = 31238,
	.msg = 4,
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_udp, argc, argv);
}
