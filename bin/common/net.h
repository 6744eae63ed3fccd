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

/* The programs of the family, one descriptor each (net.c). */
extern const struct net_tool net_lat_tcp;
extern const struct net_tool net_lat_udp;
extern const struct net_tool net_lat_connect;
extern const struct net_tool net_lat_unix_connect;
extern const struct net_tool net_bw_tcp;

#endif /* BM_NET_H */
