/* net.h: the TCP, UDP and AF_UNIX socket tools' shared main and server. */
#ifndef BM_NET_H
#define BM_NET_H

/* What a tool measures against its server. */
enum net_kind {
	NET_TCP_ECHO,		/* lat_tcp: round trips of a message */
	NET_UDP_ECHO,		/* lat_udp: round trips of a datagram */
	NET_TCP_CONNECT,	/* lat_connect: connect and close */
	NET_UNIX_CONNECT,	/* lat_unix_connect: the same on AF_UNIX */
	NET_TCP_SOURCE		/* bw_tcp: transfers from the server */
};

/* One tool. */
struct net_tool {
	const char *name;	/* "lat_tcp" */
	enum net_kind kind;
	const char *label;	/* "TCP latency using" */
	unsigned port;		/* the -s server's default port */
	unsigned long msg;	/* default message size (-m), 0: none */
	unsigned long total;	/* default transfer size (-M), 0: none */
};

/* Parse the command line, serve, stop or measure; returns the exit status. */
int net_main(const struct net_tool *desc, int argc, char **argv);

/* The programs of the family: bin/NAME.c passes &net_tools[NET_NAME]. */
enum net_program {
	NET_LAT_TCP,
	NET_LAT_UDP,
	NET_LAT_CONNECT,
	NET_LAT_UNIX_CONNECT,
	NET_BW_TCP,
	NET_NTOOLS
};

/* The family's descriptors, one row a program (net.c). */
extern const struct net_tool net_tools[NET_NTOOLS];

#endif /* BM_NET_H */
