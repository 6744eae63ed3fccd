/* lmbench-net.c: lmbench's TCP, UDP and Unix-domain helpers (lmbench.h). */
#include "config.h"

#include <netinet/tcp.h>

#include "benchmp/lmbench.h"

/*
 * These helpers print why and exit(1) when they fail, as lmbench's do:
 * the benchmarks written for them use what they return without checking.
 */
static void
net_die(const char *what)
{
	perror(what);
	exit(1);
}

/*
 * Ask for SOCKBUF bytes of socket buffer in the directions rdwr names
 * (halving until the kernel accepts), and SO_REUSEADDR for SOCKOPT_REUSE.
 */
void
sock_optimize(int sock, int rdwr)
{
	int sz, one = 1;

	if (rdwr & SOCKOPT_READ)
		for (sz = SOCKBUF; sz >= 1024; sz >>= 1)
			if (setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &sz,
			    sizeof(sz)) == 0)
				break;
	if (rdwr & SOCKOPT_WRITE)
		for (sz = SOCKBUF; sz >= 1024; sz >>= 1)
			if (setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sz,
			    sizeof(sz)) == 0)
				break;
	if (rdwr & SOCKOPT_REUSE)
		(void)setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof(one));
}

/* The local port of s, 0 when it has none. */
int
sockport(int s)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);

	if (getsockname(s, (struct sockaddr *)&sin, &len) != 0)
		return 0;
	return ntohs(sin.sin_port);
}

/*
 * A socket of type bound to port -prog of any address (prog >= 0: a port
 * the kernel picks; without a portmapper nobody finds it by prog).
 */
static int
net_bound(int type, long prog, int rdwr)
{
	struct sockaddr_in s;
	int sock;

	if ((sock = socket(AF_INET, type, 0)) < 0)
		net_die("socket");
	sock_optimize(sock, rdwr);
	memset(&s, 0, sizeof(s));
	s.sin_family = AF_INET;
	s.sin_addr.s_addr = htonl(INADDR_ANY);
	if (prog < 0)
		s.sin_port = htons((unsigned short)-prog);
	if (bind(sock, (struct sockaddr *)&s, sizeof(s)) < 0)
		net_die("bind");
	return sock;
}

/* A listening TCP socket on port -prog. */
int
tcp_server(int prog, int rdwr)
{
	int sock = net_bound(SOCK_STREAM, prog, rdwr);

	if (listen(sock, 100) < 0)
		net_die("listen");
	return sock;
}

/* Nothing to unregister without a portmapper. */
int
tcp_done(int prog)
{
	(void)prog;
	return 0;
}

/* Accept a connection, again after a signal. */
int
tcp_accept(int sock, int rdwr)
{
	int s;

	while ((s = accept(sock, NULL, NULL)) < 0)
		if (errno != EINTR)
			net_die("accept");
	sock_optimize(s, rdwr);
	return s;
}

/* The IPv4 address of host:port in sin; the lookup failing is fatal. */
static void
net_resolve(const char *host, long prog, struct sockaddr_in *sin)
{
	struct addrinfo hints, *ai;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_INET;
	if ((rc = getaddrinfo(host, NULL, &hints, &ai)) != 0) {
		(void)fprintf(stderr, "%s: %s\n", host, gai_strerror(rc));
		exit(1);
	}
	memcpy(sin, ai->ai_addr, sizeof(*sin));
	freeaddrinfo(ai);
	sin->sin_port = htons((unsigned short)(prog < 0 ? -prog : prog));
}

/*
 * A TCP connection to port -prog of host, retried while the server is
 * not yet listening (a benchmark starts its server just before).
 */
int
tcp_connect(char *host, int prog, int rdwr)
{
	struct sockaddr_in sin;
	int sock, tries;

	net_resolve(host, prog, &sin);
	for (tries = 0;; tries++) {
		if ((sock = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			net_die("socket");
		sock_optimize(sock, rdwr);
		if (connect(sock, (struct sockaddr *)&sin, sizeof(sin)) == 0)
			return sock;
		if ((errno != ECONNREFUSED && errno != EINTR &&
		    errno != EAGAIN) || tries >= 100)
			net_die("connect");
		(void)close(sock);
		(void)usleep(10000);
	}
}

/* A UDP socket bound to port -prog. */
int
udp_server(u_long prog, int rdwr)
{
	return net_bound(SOCK_DGRAM, (long)prog, rdwr);
}

/* Nothing to unregister without a portmapper. */
void
udp_done(int prog)
{
	(void)prog;
}

/* A UDP socket connected to port -prog of host. */
int
udp_connect(char *host, u_long prog, int rdwr)
{
	struct sockaddr_in sin;
	int sock;

	net_resolve(host, (long)prog, &sin);
	if ((sock = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
		net_die("socket");
	sock_optimize(sock, rdwr);
	if (connect(sock, (struct sockaddr *)&sin, sizeof(sin)) < 0)
		net_die("connect");
	return sock;
}

/* path in a sockaddr_un; a path too long is fatal. */
static void
net_unix_addr(const char *path, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun->sun_path)) {
		(void)fprintf(stderr, "%s: path too long\n", path);
		exit(1);
	}
	memcpy(sun->sun_path, path, strlen(path) + 1);
}

/* A listening Unix-domain socket at path, replacing an old one. */
int
unix_server(char *path)
{
	struct sockaddr_un sun;
	int sock;

	net_unix_addr(path, &sun);
	if ((sock = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		net_die("socket");
	(void)unlink(path);
	if (bind(sock, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		net_die("bind");
	if (listen(sock, 100) < 0)
		net_die("listen");
	return sock;
}

/* Close the server's socket and remove its path. */
int
unix_done(int sock, char *path)
{
	(void)close(sock);
	(void)unlink(path);
	return 0;
}

/* Accept a connection, again after a signal. */
int
unix_accept(int sock)
{
	int s;

	while ((s = accept(sock, NULL, NULL)) < 0)
		if (errno != EINTR)
			net_die("accept");
	return s;
}

/* A connection to the socket at path, retried while it is not there. */
int
unix_connect(char *path)
{
	struct sockaddr_un sun;
	int sock, tries;

	net_unix_addr(path, &sun);
	for (tries = 0;; tries++) {
		if ((sock = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			net_die("socket");
		if (connect(sock, (struct sockaddr *)&sun, sizeof(sun)) == 0)
			return sock;
		if ((errno != ECONNREFUSED && errno != ENOENT &&
		    errno != EINTR && errno != EAGAIN) || tries >= 100)
			net_die("connect");
		(void)close(sock);
		(void)usleep(10000);
	}
}

/*
 * "$TMPDIR/lmbench-UID.what" (TMPDIR unset or empty: /tmp): a name both
 * a server and its clients compute alike, one per user.
 */
char *
lmbench_unix_path(const char *what)
{
	static char buf[3][108];
	static int next;
	const char *dir = getenv("TMPDIR");
	char *s = buf[next];

	next = (next + 1) % 3;
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	(void)snprintf(s, sizeof(buf[0]), "%s/lmbench-%lu.%s", dir,
	    (unsigned long)getuid(), what);
	return s;
}
