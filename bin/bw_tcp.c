/* bw_tcp.c: TCP bandwidth, as lmbench's bw_tcp. */
#include "config.h"

#include "common/net.h"

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&net_tools[NET_BW_TCP], argc, argv);
}
