/* lat_tcp.c: TCP round-trip latency, as lmbench's lat_tcp. */
#include "config.h"

#include "common/net.h"

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&net_tools[NET_LAT_TCP], argc, argv);
}
