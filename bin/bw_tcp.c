/* bw_tcp.c: TCP bandwidth, as lmbench's bw_tcp. */
#include "config.h"

#include "common/net.h"

static const struct net_tool bw_tcp = {
	.name = "bw_tcp",
	.kind = NET_TCP_SOURCE,
	.label = "",
	.port = 31236,
	.msg = 65536,
	.total = 10485760,
};

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&bw_tcp, argc, argv);
}
