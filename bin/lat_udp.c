/* lat_udp.c: UDP round-trip latency, as lmbench's lat_udp. */
#include "config.h"

#include "common/net.h"

static const struct net_tool lat_udp = {
	"lat_udp", NET_UDP_ECHO, "UDP latency using", 31238, 4, 0
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&lat_udp, argc, argv);
}
