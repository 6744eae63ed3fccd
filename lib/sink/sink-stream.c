/* sink-stream.c: records sent as lines on a TCP or a Unix stream socket. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/*
 * Bounds on waiting for the listener: the connection must be made within
 * STREAM_CONNECT_MS (the name of a tcp: host is resolved before, with the
 * resolver's own timeouts), and each record must leave within
 * STREAM_SEND_MS, or the sink fails rather than hang the tool.
 */
#define STREAM_CONNECT_MS 5000
#define STREAM_SEND_MS 5000

/* The longest host of a tcp: spec (a DNS name has at most 253 bytes). */
#define STREAM_HOST_MAX 255

/*
 * A write on a socket whose peer has gone raises SIGPIPE, which would kill
 * the tool in the middle of its report: MSG_NOSIGNAL (or SO_NOSIGPIPE
 * where that is the way) turns it into EPIPE.
 */
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

/*
 * Split the argument of a tcp: spec into host and port: HOST:PORT, or
 * [ADDR]:PORT for an IPv6 literal, whose colons would be ambiguous bare.
 * The port is a decimal number from 1 to 65535; 0, or the error with the
 * detail on ctx.
 */
static int
stream_split(bm_ctx *ctx, const char *arg, char *host, char *port)
{
	const char *colon, *h, *end;
	size_t hlen, plen, i;
	unsigned long num = 0;

	if (*arg == '[') {
		if ((end = strchr(arg, ']')) == NULL)
			return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s': no "
			    "']' after the IPv6 address", arg);
		h = arg + 1;
		hlen = (size_t)(end - h);
		colon = end + 1;
		if (*colon != ':')
			return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s' has "
			    "no port (expected tcp:[ADDR]:PORT)", arg);
	} else {
		if ((colon = strrchr(arg, ':')) == NULL)
			return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s' has "
			    "no port (expected tcp:HOST:PORT)", arg);
		h = arg;
		hlen = (size_t)(colon - h);
		if (memchr(h, ':', hlen) != NULL)
			return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s': an "
			    "IPv6 address goes in brackets (tcp:[ADDR]:PORT)",
			    arg);
	}
	if (hlen == 0)
		return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s' has no host",
		    arg);
	if (hlen > STREAM_HOST_MAX || memchr(h, '[', hlen) != NULL ||
	    memchr(h, ']', hlen) != NULL)
		return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s': the host "
		    "is not a name or an address", arg);
	plen = strlen(colon + 1);
	if (plen == 0)
		return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s' has no port",
		    arg);
	for (i = 0; i < plen; i++) {
		if (colon[1 + i] < '0' || colon[1 + i] > '9')
			return bm__fail(ctx, BM_EPARSE, "sink 'tcp:%.64s': "
			    "the port '%.16s' is not a number", arg,
			    colon + 1);
		if (num <= 65535)
			num = num * 10 + (unsigned long)(colon[1 + i] - '0');
	}
	if (num < 1 || num > 65535)
		return bm__fail(ctx, BM_ERANGE, "sink 'tcp:%.64s': the port "
		    "'%.16s' is out of range (1 to 65535)", arg, colon + 1);
	if (host != NULL) {
		memcpy(host, h, hlen);
		host[hlen] = '\0';
		snprintf(port, 6, "%lu", num);
	}
	return 0;
}

/* Check a unix: path: not empty, and short enough for sun_path. */
static int
stream_check_path(bm_ctx *ctx, const char *path)
{
	struct sockaddr_un sun;

	if (*path == '\0')
		return bm__fail(ctx, BM_EPARSE, "sink 'unix:' has no path");
	if (strlen(path) >= sizeof sun.sun_path)
		return bm__fail(ctx, BM_ERANGE, "sink 'unix:%.64s...': the "
		    "path is longer than a socket's %zu bytes", path,
		    sizeof sun.sun_path - 1);
	return 0;
}

/* Check a tcp: or unix: argument without connecting. */
int
bm__stream_check(bm_ctx *ctx, int kind, const char *arg)
{
	if (kind == BM__SINK_UNIX)
		return stream_check_path(ctx, arg);
	return stream_split(ctx, arg, NULL, NULL);
}

/* Milliseconds left until deadline (bm__deadline_now's ns), at least 0. */
static int
stream_left_ms(uint64_t deadline)
{
	uint64_t now = bm__deadline_now();

	if (now >= deadline)
		return 0;
	return (int)((deadline - now + 999999) / 1000000);
}

/*
 * Wait until fd is ready for events or the deadline passes; 1 ready, 0
 * timed out, or a negative errno.
 */
static int
stream_poll(int fd, short events, uint64_t deadline)
{
	struct pollfd p;
	int n;

	for (;;) {
		p.fd = fd;
		p.events = events;
		p.revents = 0;
		n = poll(&p, 1, stream_left_ms(deadline));
		if (n > 0)
			return 1;
		if (n == 0)
			return 0;
		if (errno != EINTR)
			return -errno;
	}
}

/*
 * Make a non-blocking socket of the address's family and connect it before
 * the deadline; the descriptor, or a negative errno (-ETIMEDOUT when the
 * deadline passed).  A Unix socket whose listener's backlog is full says
 * EAGAIN and cannot be polled for, so its connect is tried again.
 */
static int
stream_connect(const struct sockaddr *sa, socklen_t salen, uint64_t deadline)
{
	struct timespec pause = { 0, 10000000 };
	socklen_t len;
	int fd, err, rc;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (connect(fd, sa, salen) == 0)
			return fd;
		err = errno;
		if (err == EINTR || err == EINPROGRESS)
			break;
		if (err != EAGAIN || bm__deadline_now() >= deadline) {
			(void)close(fd);
			return err == EAGAIN ? -ETIMEDOUT : -err;
		}
		(void)nanosleep(&pause, NULL);
	}
	/* In progress: writable when done, then SO_ERROR says how. */
	if ((rc = stream_poll(fd, POLLOUT, deadline)) <= 0) {
		(void)close(fd);
		return rc == 0 ? -ETIMEDOUT : rc;
	}
	len = sizeof err;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err != 0) {
		(void)close(fd);
		return -err;
	}
	return fd;
}

/* Turn a failed connect into the sink's error, saying what it means. */
static int
stream_connect_fail(bm_ctx *ctx, const char *spec, int rc)
{
	if (rc == -ETIMEDOUT)
		return bm__fail(ctx, BM_ETIMEDOUT, "sink %s: no connection "
		    "within %d s", spec, STREAM_CONNECT_MS / 1000);
	if (rc == -ECONNREFUSED || rc == -ENOENT)
		return bm__fail(ctx, rc, "sink %s: nobody listens there (%s)",
		    spec, strerror(-rc));
	return bm__fail(ctx, rc, "sink %s: cannot connect: %s", spec,
	    strerror(-rc));
}

/* Connect a unix: sink. */
static int
stream_open_unix(bm_ctx *ctx, const char *path, const char *spec, int *fd)
{
	struct sockaddr_un sun;
	int rc;

	if ((rc = stream_check_path(ctx, path)) != 0)
		return rc;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	rc = stream_connect((const struct sockaddr *)&sun, sizeof sun,
	    bm__deadline_now() + STREAM_CONNECT_MS * 1000000ull);
	if (rc < 0)
		return stream_connect_fail(ctx, spec, rc);
	*fd = rc;
	return 0;
}

/*
 * Connect a tcp: sink: each address the host resolves to in turn, within
 * one connect timeout for them all; the last address's error tells.
 */
static int
stream_open_tcp(bm_ctx *ctx, const char *arg, const char *spec, int *fd)
{
	char host[STREAM_HOST_MAX + 1], port[6];
	struct addrinfo hints, *list, *ai;
	uint64_t deadline;
	int rc, one = 1;

	if ((rc = stream_split(ctx, arg, host, port)) != 0)
		return rc;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if ((rc = getaddrinfo(host, port, &hints, &list)) != 0)
		return bm__fail(ctx, rc == EAI_SYSTEM ? -errno : BM_ECONFIG,
		    "sink %s: cannot resolve %s: %s", spec, host,
		    rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
	deadline = bm__deadline_now() + STREAM_CONNECT_MS * 1000000ull;
	rc = -EADDRNOTAVAIL;
	for (ai = list; ai != NULL; ai = ai->ai_next) {
		if ((rc = stream_connect(ai->ai_addr, ai->ai_addrlen,
		    deadline)) >= 0 || rc == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(list);
	if (rc < 0)
		return stream_connect_fail(ctx, spec, rc);
	/* A record is a line a reader waits for: send it at once. */
	(void)setsockopt(rc, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	*fd = rc;
	return 0;
}

/* Open a tcp: or unix: sink; the connected descriptor goes to *fd. */
int
bm__stream_open(bm_ctx *ctx, int kind, const char *arg, const char *spec,
    int *fd)
{
	int rc, one = 1;

	*fd = -1;
	rc = kind == BM__SINK_UNIX ? stream_open_unix(ctx, arg, spec, fd) :
	    stream_open_tcp(ctx, arg, spec, fd);
#ifdef SO_NOSIGPIPE
	if (rc == 0)
		(void)setsockopt(*fd, SOL_SOCKET, SO_NOSIGPIPE, &one,
		    sizeof one);
#else
	(void)one;
#endif
	return rc;
}

/*
 * Send a whole record: short sends and EINTR continue where they stopped,
 * a full socket is waited for until STREAM_SEND_MS after the start.  The
 * count of bytes that did leave goes to *sent, so that the caller knows
 * whether a failure cut the record.
 */
int
bm__stream_send(bm_ctx *ctx, int fd, const char *rec, size_t len,
    const char *spec, size_t *sent)
{
	uint64_t deadline = bm__deadline_now() + STREAM_SEND_MS * 1000000ull;
	size_t done = 0;
	ssize_t w;
	int rc;

	*sent = 0;
	while (done < len) {
		w = send(fd, rec + done, len - done, MSG_NOSIGNAL |
		    MSG_DONTWAIT);
		if (w > 0) {
			done += (size_t)w;
			*sent = done;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return bm__fail(ctx, -errno, "writing to sink %s: %s",
			    spec, errno == EPIPE || errno == ECONNRESET ?
			    "the listener closed the connection" :
			    strerror(errno));
		rc = bm__deadline_now() < deadline ?
		    stream_poll(fd, POLLOUT, deadline) : 0;
		if (rc < 0)
			return bm__fail(ctx, rc, "writing to sink %s: %s",
			    spec, strerror(-rc));
		if (rc == 0)
			return bm__fail(ctx, BM_ETIMEDOUT, "writing to sink "
			    "%s: the listener took no data for %d s", spec,
			    STREAM_SEND_MS / 1000);
	}
	return 0;
}
