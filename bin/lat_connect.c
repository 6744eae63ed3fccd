/* lat_connect.c: TCP connection cost, as lmbench's lat_connect. */
#include "config.h"

#include "common/net.h"

/* Serve, stop a server, or measure and print. */
int
main(int argc, char **argv)
{
	return net_main(&net_tools[NET_LAT_CONNECT], argc, argv);
}
