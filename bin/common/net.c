/* net.c: the socket tools: a server (-s), its stop (-S), and the clients. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "benchmp/worker.h"
#include "mem.h"
#include "net.h"
#include "partner.h"
#include "placement.h"
#include "tool.h"

/* The largest message or transfer (1 GB) and UDP datagram. */
#define NET_MAX_SIZE (1ul << 30)
#define NET_MAX_DATAGRAM 65507ul
/*
 * How long a request header, a UDP reply, a stop's connect or a stop's
 * answer may take.
 */
#define NET_WAIT_MS 5000
/* The pause before a new accept when the server is out of descriptors. */
#define NET_ACCEPT_PAUSE_MS 100

/*
 * Every TCP and AF_UNIX connection that wants more than a connect starts
 * with this header, four 32-bit words in network order: the magic, the
 * command, the message size and the transfer size.
 */
#define NET_MAGIC 0x424d5031u	/* "BMP1" */
enum {
	NET_CMD_ECHO = 1,	/* echo messages of msg bytes */
	NET_CMD_SOURCE,		/* per request byte, send total bytes */
	NET_CMD_STOP		/* the server exits */
};
#define NET_HEADER 16

/* The tool's settings and, in a worker, its connection. */
struct net_state {
	const struct net_tool *desc;
	size_t msg, total;
	const char *host;		/* NULL: our own server */
	char port[16];			/* TCP/UDP port, as text */
	char path[300];			/* AF_UNIX socket path */
	struct sockaddr_storage addr;	/* the server, resolved once */
	socklen_t addrlen;
	int fd;
	char *buf;
	/*
	 * own: each worker starts its own server in initialize, a partner
	 * pinned as --placement says (dir: where their sockets go).
	 */
	int own;
	const char *dir;
	struct partner server;
	struct placement place;
	int mode;		/* -s, -S: 0 measure, 's' serve, 'S' stop */
};

/* Fill a header. */
static void
net_header(unsigned char *h, uint32_t cmd, size_t msg, size_t total)
{
	uint32_t w[4];

	w[0] = htonl(NET_MAGIC);
	w[1] = htonl(cmd);
	w[2] = htonl((uint32_t)msg);
	w[3] = htonl((uint32_t)total);
	memcpy(h, w, sizeof w);
}

/* Parse a header; 0 or -EPROTO. */
static int
net_parse_header(const unsigned char *h, uint32_t *cmd, size_t *msg,
    size_t *total)
{
	uint32_t w[4];

	memcpy(w, h, sizeof w);
	if (ntohl(w[0]) != NET_MAGIC)
		return -EPROTO;
	*cmd = ntohl(w[1]);
	*msg = ntohl(w[2]);
	*total = ntohl(w[3]);
	if (*msg == 0 || *msg > NET_MAX_SIZE || *total > NET_MAX_SIZE)
		return *cmd == NET_CMD_STOP ? 0 : -EPROTO;
	return 0;
}

/* Wait until fd is readable; 0, -ETIMEDOUT or -errno. */
static int
net_wait(int fd, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int rc;

	while ((rc = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	if (rc < 0)
		return -errno;
	return rc == 0 ? -ETIMEDOUT : 0;
}

/* Milliseconds on the monotonic clock. */
static int64_t
net_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Read a whole header within NET_WAIT_MS, however the client splits it:
 * a client that sends part of one and holds the connection must not
 * block the server, which reads headers one connection after another,
 * for every other client (a blocking read of the rest did).  0, -EPIPE
 * at end of file, -ETIMEDOUT or -errno.
 */
static int
net_read_header(int fd, uint32_t *cmd, size_t *msg, size_t *total)
{
	unsigned char h[NET_HEADER];
	int64_t end = net_now_ms() + NET_WAIT_MS, left;
	size_t have = 0;
	ssize_t got;
	int rc;

	/*
	 * The read comes first: a header (or lat_connect's end of file) is
	 * mostly there already, and the server's cost a connection stays one
	 * read, as it was; the wait only when it is not.
	 */
	while (have < sizeof h) {
		got = recv(fd, h + have, sizeof h - have, MSG_DONTWAIT);
		if (got == 0)
			return -EPIPE;
		if (got > 0) {
			have += (size_t)got;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		left = end - net_now_ms();
		if ((rc = net_wait(fd, left > 0 ? (int)left : 0)) != 0)
			return rc;
	}
	return net_parse_header(h, cmd, msg, total);
}

/*
 * After accept() failed with err: 1 to accept again, 0 to give up.  The
 * errors of the connection (a client that went away: Linux's accept
 * passes its network errors on) and of the moment (out of descriptors,
 * of buffers, of memory) are retried, the last ones after a pause that
 * lets a connection process exit; only an error of the listening socket
 * itself ends the server, which would otherwise exit with nobody told.
 */
static int
net_accept_again(int err)
{
	switch (err) {
	case EBADF:
	case EFAULT:
	case EINVAL:
	case ENOTSOCK:
		return 0;
	case EMFILE:
	case ENFILE:
	case ENOBUFS:
	case ENOMEM:
		(void)poll(NULL, 0, NET_ACCEPT_PAUSE_MS);
		return 1;
	default:
		return 1;
	}
}

/* A connection's server process: echo messages or send transfers. */
static int
net_serve_conn(int fd, uint32_t cmd, size_t msg, size_t total)
{
	size_t left, chunk;
	char *buf, req;
	int one = 1;

	if ((buf = calloc(1, msg)) == NULL)
		return 1;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	for (;;) {
		if (cmd == NET_CMD_ECHO) {
			if (partner_read(fd, buf, msg) != 0 ||
			    partner_write(fd, buf, msg) != 0)
				break;
			continue;
		}
		if (partner_read(fd, &req, 1) != 0)
			break;
		for (left = total; left > 0; left -= chunk) {
			chunk = left < msg ? left : msg;
			if (partner_write(fd, buf, chunk) != 0)
				goto out;
		}
	}
out:
	free(buf);
	return 0;
}

/*
 * Serve connections on a listening socket until a stop.  Connects alone
 * (lat_connect) are accepted and closed here; echo and transfer
 * connections get a process each, so parallel clients run in parallel.
 */
static int
net_serve_stream(int lfd, enum net_kind kind)
{
	uint32_t cmd;
	size_t msg, total;
	pid_t pid, server = getpid();
	int fd, rc;

	for (;;) {
		if ((fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0) {
			if (net_accept_again(errno))
				continue;
			return 1;
		}
		if (kind == NET_TCP_CONNECT || kind == NET_UNIX_CONNECT) {
			/* A measured connect sends nothing and closes. */
			if (net_wait(fd, NET_WAIT_MS) == 0 &&
			    net_read_header(fd, &cmd, &msg, &total) == 0 &&
			    cmd == NET_CMD_STOP)
				return 0;
			close(fd);
			continue;
		}
		rc = net_read_header(fd, &cmd, &msg, &total);
		if (rc == 0 && cmd == NET_CMD_STOP)
			return 0;
		if (rc != 0 || (cmd != NET_CMD_ECHO && cmd != NET_CMD_SOURCE)) {
			close(fd);
			continue;
		}
		if ((pid = fork()) == 0) {
#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
			(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
			if (getppid() != server)
				_exit(1);
			close(lfd);
			_exit(net_serve_conn(fd, cmd, msg, total));
		}
		close(fd);
	}
}

/* Serve UDP: echo every datagram; a stop header is echoed, then we exit. */
static int
net_serve_udp(int fd)
{
	struct sockaddr_storage from;
	socklen_t fromlen;
	unsigned char *buf;
	uint32_t cmd;
	size_t msg, total;
	ssize_t got;

	if ((buf = malloc(NET_MAX_DATAGRAM)) == NULL)
		return 1;
	for (;;) {
		fromlen = sizeof from;
		got = recvfrom(fd, buf, NET_MAX_DATAGRAM, 0,
		    (struct sockaddr *)&from, &fromlen);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		(void)sendto(fd, buf, (size_t)got, 0, (struct sockaddr *)&from,
		    fromlen);
		if (got == NET_HEADER && net_parse_header(buf, &cmd, &msg,
		    &total) == 0 && cmd == NET_CMD_STOP)
			break;
	}
	free(buf);
	return 0;
}

/* The server's whole life on a bound socket. */
static int
net_serve(const struct net_state *s, int fd)
{
	/* Connection processes are reaped by the kernel. */
	signal(SIGCHLD, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	if (s->desc->kind == NET_UDP_ECHO)
		return net_serve_udp(fd);
	return net_serve_stream(fd, s->desc->kind);
}

/*
 * A worker's own server (a partner): an echo or transfer connection is
 * served in this process, so the server is the one process placed;
 * connects and datagrams as a -s server does.
 */
static int
net_own_server(void *arg)
{
	const struct net_state *s = arg;
	uint32_t cmd;
	size_t msg, total;
	int fd;

	if (s->desc->kind != NET_TCP_ECHO && s->desc->kind != NET_TCP_SOURCE)
		return net_serve(s, s->fd);
	signal(SIGPIPE, SIG_IGN);
	while ((fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC)) < 0) {
		if (!net_accept_again(errno))
			return 1;
	}
	close(s->fd);
	if (net_read_header(fd, &cmd, &msg, &total) != 0 ||
	    (cmd != NET_CMD_ECHO && cmd != NET_CMD_SOURCE))
		return 1;
	return net_serve_conn(fd, cmd, msg, total);
}

/* Make the server's socket: bound (and listening) on host:port or path. */
static int
net_bind(struct net_state *s, int any, int *out)
{
	struct sockaddr_in sin;
	struct sockaddr_un sun;
	socklen_t len = sizeof sin;
	int fd, one = 1, udp = s->desc->kind == NET_UDP_ECHO;

	if (s->desc->kind == NET_UNIX_CONNECT) {
		/* A longer name would be cut short, or overrun sun_path. */
		if (strlen(s->path) >= sizeof sun.sun_path)
			return -ENAMETOOLONG;
		if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
			return -errno;
		memset(&sun, 0, sizeof sun);
		sun.sun_family = AF_UNIX;
		memcpy(sun.sun_path, s->path, strlen(s->path) + 1);
		if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
		    listen(fd, SOMAXCONN) != 0) {
			close(fd);
			return -errno;
		}
		memcpy(&s->addr, &sun, sizeof sun);
		s->addrlen = sizeof sun;
		*out = fd;
		return 0;
	}
	if ((fd = socket(AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) |
	    SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(any ? INADDR_ANY : INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)(any ? strtoul(s->port, NULL, 10) : 0));
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    (!udp && listen(fd, SOMAXCONN) != 0) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		close(fd);
		return -errno;
	}
	snprintf(s->port, sizeof s->port, "%u", ntohs(sin.sin_port));
	memcpy(&s->addr, &sin, sizeof sin);
	s->addrlen = sizeof sin;
	*out = fd;
	return 0;
}

/* Resolve the server's address once, before the workers fork. */
static int
net_resolve(struct tool *t, struct net_state *s)
{
	struct addrinfo hints, *ai;
	struct sockaddr_un sun;
	int rc;

	if (s->desc->kind == NET_UNIX_CONNECT) {
		if (strlen(s->path) >= sizeof sun.sun_path)
			tool_exit_fail(t,
			    "the socket path %s is too long (%zu bytes,"
			    " at most %zu)", s->path, strlen(s->path),
			    sizeof sun.sun_path - 1);
		memset(&sun, 0, sizeof sun);
		sun.sun_family = AF_UNIX;
		memcpy(sun.sun_path, s->path, strlen(s->path) + 1);
		memcpy(&s->addr, &sun, sizeof sun);
		s->addrlen = sizeof sun;
		return 0;
	}
	/*
	 * IPv4 alone, as lmbench's tools: the server listens on IPv4 only
	 * (net_bind), and a name whose first address is IPv6 (localhost
	 * with ::1 first in /etc/hosts, a dual-stack host) was refused.
	 */
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	hints.ai_socktype = s->desc->kind == NET_UDP_ECHO ? SOCK_DGRAM :
	    SOCK_STREAM;
	if ((rc = getaddrinfo(s->host, s->port, &hints, &ai)) != 0)
		tool_exit_fail(t, "cannot resolve %s to an IPv4 address: %s",
		    s->host, gai_strerror(rc));
	memcpy(&s->addr, ai->ai_addr, ai->ai_addrlen);
	s->addrlen = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

/*
 * Start the worker's own server: bind it (a loopback port of its own, or
 * a socket in the private directory named after the worker), then fork it
 * pinned.  The worker keeps the address, not the listening socket.
 */
static int
net_start_own(struct net_state *s, unsigned worker)
{
	int fd, rc;

	if (s->desc->kind == NET_UNIX_CONNECT) {
		if ((size_t)snprintf(s->path, sizeof s->path, "%s/s%u",
		    s->dir, worker) >= sizeof s->path)
			return -ENAMETOOLONG;
		/* A worker of a run before may have left it (killed). */
		(void)unlink(s->path);
	}
	if ((rc = net_bind(s, 0, &fd)) != 0)
		return rc;
	s->fd = fd;
	rc = placement_start(&s->place, 1, &s->server, net_own_server, s);
	close(fd);
	s->fd = -1;
	return rc;
}

/* A socket connected to the server; -errno on failure. */
static int
net_connect(const struct net_state *s)
{
	int fd, type = s->desc->kind == NET_UDP_ECHO ? SOCK_DGRAM :
	    SOCK_STREAM;

	if ((fd = socket(s->addr.ss_family, type | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	while (connect(fd, (const struct sockaddr *)&s->addr,
	    s->addrlen) != 0) {
		if (errno == EINTR)
			continue;
		close(fd);
		return -errno;
	}
	return fd;
}

/*
 * A socket connected to addr within ms milliseconds, for -S and the check
 * of a socket left behind: a blocking connect to a host that drops the
 * packets waits about two minutes, and one to an AF_UNIX listener whose
 * backlog is full waits until it accepts, for ever if it never does.
 * The socket is blocking again once connected.  -errno, or -ETIMEDOUT.
 */
static int
net_connect_within(const struct sockaddr *addr, socklen_t len, int type,
    int ms)
{
	int64_t end = net_now_ms() + ms, left;
	struct pollfd p;
	socklen_t elen = sizeof(int);
	int fd, fl, err, rc;

	if ((fd = socket(addr->sa_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) < 0)
		return -errno;
	rc = connect(fd, addr, len) == 0 ? 0 : -errno;
	/* AF_UNIX says EAGAIN, not EINPROGRESS, while the backlog is full. */
	while (rc == -EAGAIN && (left = end - net_now_ms()) > 0) {
		(void)poll(NULL, 0, left < 10 ? (int)left : 10);
		rc = connect(fd, addr, len) == 0 ? 0 : -errno;
	}
	if (rc == -EAGAIN)
		rc = -ETIMEDOUT;
	if (rc == -EINPROGRESS) {
		left = end - net_now_ms();
		p.fd = fd;
		p.events = POLLOUT;
		while ((rc = poll(&p, 1, left > 0 ? (int)left : 0)) < 0 &&
		    errno == EINTR)
			left = end - net_now_ms();
		if (rc < 0)
			rc = -errno;
		else if (rc == 0)
			rc = -ETIMEDOUT;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0)
			rc = -errno;
		else
			rc = -err;
	}
	if (rc == 0 && ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0))
		rc = -errno;
	if (rc != 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* A worker's connection: the header for echo and transfer, a buffer. */
static int
net_init(bm_iter_t n, void *cookie)
{
	struct net_state *s = cookie;
	unsigned char h[NET_HEADER];
	unsigned worker;
	int one = 1, rc;

	(void)n;
	s->fd = -1;
	if (s->own) {
		worker = bm_worker_index(bm_state_current());
		if ((rc = placement_worker(&s->place, worker)) != 0 ||
		    (rc = net_start_own(s, worker)) != 0)
			return rc;
	}
	if (s->desc->kind == NET_TCP_CONNECT ||
	    s->desc->kind == NET_UNIX_CONNECT)
		return 0;
	if ((s->buf = calloc(1, s->msg)) == NULL)
		return -ENOMEM;
	if ((s->fd = net_connect(s)) < 0)
		return s->fd;
	if (s->desc->kind == NET_UDP_ECHO)
		return 0;
	(void)setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	net_header(h, s->desc->kind == NET_TCP_ECHO ? NET_CMD_ECHO :
	    NET_CMD_SOURCE, s->msg, s->total);
	if ((rc = partner_write(s->fd, h, sizeof h)) != 0)
		return rc;
	return 0;
}

/* n round trips of a message over TCP. */
static int
net_tcp_echo(bm_iter_t n, void *cookie)
{
	struct net_state *s = cookie;

	return partner_round_trips(s->fd, s->fd, s->buf, s->msg, n);
}

/* n round trips of a datagram; a reply lost or late is an error. */
static int
net_udp_echo(bm_iter_t n, void *cookie)
{
	struct net_state *s = cookie;
	ssize_t got;
	int rc;

	while (n-- > 0) {
		if (send(s->fd, s->buf, s->msg, 0) != (ssize_t)s->msg)
			return -errno;
		if ((rc = net_wait(s->fd, NET_WAIT_MS)) != 0)
			return rc;
		if ((got = recv(s->fd, s->buf, s->msg, 0)) < 0)
			return -errno;
		if ((size_t)got != s->msg)
			return -EPROTO;
	}
	return 0;
}

/* n connections opened and closed. */
static int
net_connect_close(bm_iter_t n, void *cookie)
{
	struct net_state *s = cookie;
	struct linger lg = { 1, 0 };
	int fd;

	while (n-- > 0) {
		if ((fd = net_connect(s)) < 0)
			return fd;
		/*
		 * Closing with a reset leaves no TIME_WAIT behind: a long
		 * run would otherwise use up the ephemeral ports.
		 */
		if (s->desc->kind == NET_TCP_CONNECT)
			(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg,
			    sizeof lg);
		close(fd);
	}
	return 0;
}

/* n transfers of total bytes from the server. */
static int
net_tcp_source(bm_iter_t n, void *cookie)
{
	struct net_state *s = cookie;

	return partner_transfers(s->fd, s->fd, s->buf, s->msg, s->total, n);
}

/* Close the worker's connection. */
static int
net_close(bm_iter_t n, void *cookie)
{
	struct net_state *s = cookie;

	(void)n;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
	if (s->own) {
		(void)partner_stop(&s->server);
		if (s->desc->kind == NET_UNIX_CONNECT && s->path[0] != '\0')
			(void)unlink(s->path);
	}
	return 0;
}

/*
 * The socket of lat_unix_connect -s, which a fatal signal removes, and
 * the one process that removes it (0: none): the server, or the tool
 * before it forks the server.
 */
static char net_sock_path[sizeof ((struct sockaddr_un *)0)->sun_path];
static volatile pid_t net_sock_owner;

/* Remove the server's socket in its owner (async-signal-safe). */
static void
net_sock_remove(void)
{
	if (net_sock_owner != 0 && net_sock_owner == getpid())
		(void)unlink(net_sock_path);
}

/*
 * Is the socket at path one that nobody serves, left by a server that
 * could not remove it (SIGKILL, a crash)?  Only a socket whose connect is
 * refused is: a live server accepts, or, its backlog full, says EAGAIN.
 */
static int
net_sock_stale(const struct net_state *s)
{
	struct stat st;
	int fd;

	if (lstat(s->path, &st) != 0 || !S_ISSOCK(st.st_mode))
		return 0;
	fd = net_connect_within((const struct sockaddr *)&s->addr,
	    s->addrlen, SOCK_STREAM, NET_WAIT_MS);
	if (fd >= 0)
		close(fd);
	return fd == -ECONNREFUSED;
}

/*
 * Bind the -s server's socket.  An AF_UNIX one gets the handlers that
 * remove it first, with the fatal signals held until the caller releases
 * them in *old (so that SIGTERM or SIGHUP cannot leave it behind, and a
 * second -s fail with EADDRINUSE); one left behind by a server killed
 * outright is replaced.
 */
static int
net_daemon_bind(struct net_state *s, int *fd, sigset_t *old)
{
	struct sockaddr_un sun;
	int rc;

	if (s->desc->kind != NET_UNIX_CONNECT)
		return net_bind(s, 1, fd);
	if (strlen(s->path) >= sizeof net_sock_path)
		return -ENAMETOOLONG;
	tool_exit_fatal_hold(net_sock_remove, old);
	snprintf(net_sock_path, sizeof net_sock_path, "%s", s->path);
	net_sock_owner = getpid();
	if ((rc = net_bind(s, 1, fd)) != -EADDRINUSE)
		return rc;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, s->path, strlen(s->path) + 1);
	memcpy(&s->addr, &sun, sizeof sun);
	s->addrlen = sizeof sun;
	if (!net_sock_stale(s))
		return rc;
	if (unlink(s->path) != 0 && errno != ENOENT)
		return rc;
	return net_bind(s, 1, fd);
}

/* -s: bind, then serve in the background; the tool returns at once. */
static int
net_daemon(struct tool *t, struct net_state *s)
{
	sigset_t old;
	pid_t pid;
	int fd, null, rc, err;

	(void)sigprocmask(SIG_SETMASK, NULL, &old);
	if ((rc = net_daemon_bind(s, &fd, &old)) != 0) {
		net_sock_owner = 0;
		tool_exit_fatal_release(&old);
		tool_exit_fail(t, "cannot serve on %s %s: %s",
		    s->desc->kind == NET_UNIX_CONNECT ? "socket" : "port",
		    s->desc->kind == NET_UNIX_CONNECT ? s->path : s->port,
		    strerror(-rc));
	}
	if ((pid = fork()) < 0) {
		err = errno;
		net_sock_remove();
		net_sock_owner = 0;
		tool_exit_fatal_release(&old);
		tool_exit_fail(t, "cannot fork the server: %s",
		    strerror(err));
	}
	/* The socket is the server's now: the tool leaves it there. */
	net_sock_owner = pid > 0 ? 0 : getpid();
	tool_exit_fatal_release(&old);
	if (pid > 0)
		return 0;
	(void)setsid();
	if ((null = open("/dev/null", O_RDWR)) >= 0) {
		(void)dup2(null, STDIN_FILENO);
		(void)dup2(null, STDOUT_FILENO);
		(void)dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	rc = net_serve(s, fd);
	close(fd);
	if (s->desc->kind == NET_UNIX_CONNECT)
		(void)unlink(s->path);
	/* The connection processes go with the server. */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	_exit(rc);
}

/*
 * The UDP server's answer to the stop h: its echo.  A port that nobody
 * serves answers with an ICMP error, which poll() reports as readable
 * too (POLLERR), and recv() then as ECONNREFUSED: only the echo itself
 * says a server heard.  0, -EPROTO or -errno.
 */
static int
net_udp_stop_echo(int fd, const unsigned char *h)
{
	unsigned char echo[NET_HEADER + 1];
	ssize_t got;

	while ((got = recv(fd, echo, sizeof echo, 0)) < 0 && errno == EINTR)
		;
	if (got < 0)
		return -errno;
	if (got != NET_HEADER || memcmp(echo, h, NET_HEADER) != 0)
		return -EPROTO;
	return 0;
}

/* -S: ask the server to exit and wait for its answer, NET_WAIT_MS each. */
static int
net_stop(struct tool *t, struct net_state *s)
{
	unsigned char h[NET_HEADER];
	int fd, rc, udp = s->desc->kind == NET_UDP_ECHO;

	net_resolve(t, s);
	if ((fd = net_connect_within((const struct sockaddr *)&s->addr,
	    s->addrlen, udp ? SOCK_DGRAM : SOCK_STREAM, NET_WAIT_MS)) < 0)
		tool_exit_fail(t, "cannot reach the server at %s: %s",
		    s->desc->kind == NET_UNIX_CONNECT ? s->path : s->host,
		    strerror(-fd));
	net_header(h, NET_CMD_STOP, 1, 0);
	if (udp) {
		if (send(fd, h, sizeof h, 0) != (ssize_t)sizeof h)
			tool_exit_fail(t, "cannot send the stop: %s",
			    strerror(errno));
	} else if ((rc = partner_write(fd, h, sizeof h)) != 0) {
		tool_exit_fail(t, "cannot send the stop: %s", strerror(-rc));
	}
	/* TCP: the server closes; UDP: it echoes the stop. */
	if ((rc = net_wait(fd, NET_WAIT_MS)) != 0 ||
	    (udp && (rc = net_udp_stop_echo(fd, h)) != 0))
		tool_exit_fail(t, "the server did not answer the stop: %s",
		    strerror(-rc));
	close(fd);
	return 0;
}

/* Take -m, -M, -p, -s, -S and --placement into the net_state cookie. */
static void
net_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct net_state *s = cookie;

	switch (opt) {
	case PLACEMENT_OPT:
		placement_option(&s->place, t, arg);
		break;
	case 'm':
		s->msg = (size_t)tool_size(t, "-m", arg, 1,
		    s->desc->kind == NET_UDP_ECHO ? NET_MAX_DATAGRAM :
		    NET_MAX_SIZE);
		break;
	case 'M':
		s->total = (size_t)tool_size(t, "-M", arg, 1, NET_MAX_SIZE);
		break;
	case 'p':
		if (s->desc->kind == NET_UNIX_CONNECT) {
			if (*arg == '\0' || strlen(arg) >= sizeof s->path ||
			    strlen(arg) >= sizeof ((struct sockaddr_un *)0)->
			    sun_path)
				tool_exit_usage(t, "-p: bad socket path");
			snprintf(s->path, sizeof s->path, "%s", arg);
		} else {
			snprintf(s->port, sizeof s->port, "%u",
			    (unsigned)tool_uint(t, "-p", arg, 1, 65535));
		}
		break;
	case 's':
	case 'S':
		if (s->mode != 0)
			tool_exit_usage(t, "-s and -S exclude each other");
		s->mode = opt;
		if (opt == 'S' && s->desc->kind != NET_UNIX_CONNECT)
			s->host = arg;
		break;
	default:
		tool_exit_usage(t, "unexpected option");
	}
}

/* Print the figure in lmbench's form, labelled with its placement. */
static void
net_report(struct tool *t, const bm_result *r, void *cookie)
{
	struct net_state *s = cookie;
	bm_param params[3 + PLACEMENT_NPARAMS];
	size_t np = 0;
	bm_record rec;
	char label[400], line[160];
	int unix_connect = s->desc->kind == NET_UNIX_CONNECT;

	params[np++] = tool_record_param("host",
	    unix_connect ? s->path : s->host,
	    0);
	if (s->desc->kind == NET_TCP_ECHO || s->desc->kind == NET_UDP_ECHO ||
	    s->desc->kind == NET_TCP_SOURCE) {
		params[np++] = tool_record_param("msgsize", NULL,
		    (double)s->msg);
	}
	if (s->desc->kind == NET_TCP_SOURCE) {
		params[np++] = tool_record_param("total", NULL,
		    (double)s->total);
	}
	if (s->own)
		placement_params(&s->place, params, &np);
	if (s->desc->kind == NET_TCP_SOURCE) {
		tool_record_bw(&rec, t, "tcp", params, np, r, (double)s->total);
		if (s->own)
			placement_measured(&s->place, &rec);
		snprintf(line, sizeof line, " MB/sec%s",
		    placement_suffix(&s->place));
		snprintf(label, sizeof label, "%.6f ", (double)s->total / 1e6);
		tool_report_value(t, &rec, label, 2, line);
		return;
	}
	if (unix_connect)
		snprintf(label, sizeof label, "%s", s->desc->label);
	else
		snprintf(label, sizeof label, "%s %s", s->desc->label, s->host);
	placement_report_us(t, &s->place, unix_connect ? "unix" :
	    s->desc->kind == NET_TCP_CONNECT ? "connect" :
	    s->desc->kind == NET_UDP_ECHO ? "udp" : "tcp", params, np, r,
	    label);
}

/*
 * Parse the command line, serve, stop or measure (once, or cross and
 * same for --placement=both); the exit status.
 */
int
net_main(const struct net_tool *desc, int argc, char **argv)
{
	/*
	 * Static, as the program has one: its placement and paths stay off
	 * a stack that a user may limit to 32 KB.
	 */
	static struct net_state state;
	struct net_state *s = &state;
	struct sockaddr_un sun;
	struct tool t;
	bm_bench b;
	char args[200], opts[16], longest[600];
	const char *tmp;
	int first, is_unix = desc->kind == NET_UNIX_CONNECT;

	memset(&state, 0, sizeof state);
	memset(&t, 0, sizeof t);
	t.name = desc->name;
	t.extra_usage = placement_usage;
	s->desc = desc;
	s->msg = desc->msg != 0 ? desc->msg : 1;
	s->total = desc->total;
	s->fd = -1;
	snprintf(s->port, sizeof s->port, "%u", desc->port);
	snprintf(args, sizeof args, "%s%s[--placement=WHERE] %s",
	    desc->msg != 0 ? "[-m msgsize] " : "", desc->total != 0 ?
	    "[-M total] " : "", is_unix ? "[-p path] [-s | -S]" :
	    "[-p port] [-s | -S host | host]");
	t.args = args;
	snprintf(opts, sizeof opts, "%s%sp:s%s", desc->msg != 0 ? "m:" : "",
	    desc->total != 0 ? "M:" : "", is_unix ? "S" : "S:");
	first = tool_parse(&t, argc, argv, opts, placement_long, net_option,
	    s);
	if (first < argc && (is_unix || s->mode != 0))
		tool_exit_usage(&t, "unexpected argument '%s'", argv[first]);
	if (first + 1 < argc)
		tool_exit_usage(&t, "too many arguments");
	if (first < argc)
		s->host = argv[first];
	s->own = s->host == NULL && !(is_unix && s->path[0] != '\0') &&
	    s->mode == 0;
	if (s->place.given && !s->own)
		tool_exit_usage(&t, "--placement applies only to the tool's "
		    "own server (no host, -p path, -s or -S)");
	if (is_unix && s->path[0] == '\0' && s->mode != 0) {
		/* The one name -s and -S share: per user, under $TMPDIR. */
		tmp = getenv("TMPDIR");
		snprintf(s->path, sizeof s->path, "%s/benchmp-unix_connect.%u",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp",
		    (unsigned)getuid());
	}
	if (s->mode == 's')
		return net_daemon(&t, s);
	if (s->mode == 'S')
		return net_stop(&t, s);
	tool_setup(&t);
	tool_wall_clock(&t);
	/*
	 * Each worker's message, and its own server's copy beside it: -m 1g
	 * -P 16 asked for 32 GB without a word, and the OOM killer answered.
	 */
	if (desc->kind == NET_TCP_ECHO || desc->kind == NET_TCP_SOURCE)
		mem_topo_fits(&t, (uint64_t)s->msg * (s->own ? 2 : 1),
		    t.opts.parallel, 0, 0);

	if (s->own) {
		/* Each worker runs its own server (net_start_own). */
		if (is_unix) {
			s->dir = tool_exit_tmpdir(&t);
			/* The longest name a worker will bind, checked now. */
			if ((size_t)snprintf(longest, sizeof longest,
			    "%s/s%u", s->dir, t.opts.parallel - 1) >=
			    sizeof sun.sun_path)
				tool_exit_fail(&t,
				    "the socket path %s is too long "
				    "for AF_UNIX (at most %zu bytes): choose a "
				    "shorter TMPDIR", longest,
				    sizeof sun.sun_path - 1);
			snprintf(s->path, sizeof s->path, "%s/s0",
			    s->dir);
		} else {
			s->host = "127.0.0.1";
		}
		placement_setup(&s->place, &t, 2);
	} else {
		net_resolve(&t, s);
	}
	b.initialize = net_init;
	b.benchmark = desc->kind == NET_TCP_ECHO ? net_tcp_echo :
	    desc->kind == NET_UDP_ECHO ? net_udp_echo :
	    desc->kind == NET_TCP_SOURCE ? net_tcp_source : net_connect_close;
	b.cleanup = net_close;
	b.cookie = s;
	placement_run(&t, s->own ? &s->place : NULL, 2, &b, net_report, s);
	return tool_finish(&t);
}

/*
 * The family's programs, a row each: bin/NAME.c calls net_main() with its
 * own, &net_tools[NET_NAME].
 */
const struct net_tool net_tools[NET_NTOOLS] = {
	[NET_LAT_TCP] = { .name = "lat_tcp", .kind = NET_TCP_ECHO,
	    .label = "TCP latency using", .port = 31234, .msg = 1 },
	[NET_LAT_UDP] = { .name = "lat_udp", .kind = NET_UDP_ECHO,
	    .label = "UDP latency using", .port = 31238, .msg = 4 },
	[NET_LAT_CONNECT] = { .name = "lat_connect", .kind = NET_TCP_CONNECT,
	    .label = "TCP/IP connection cost to", .port = 31237 },
	[NET_LAT_UNIX_CONNECT] = { .name = "lat_unix_connect",
	    .kind = NET_UNIX_CONNECT, .label = "UNIX connection cost" },
	[NET_BW_TCP] = { .name = "bw_tcp", .kind = NET_TCP_SOURCE, .label = "",
	    .port = 31236, .msg = 65536, .total = 10485760 },
};
