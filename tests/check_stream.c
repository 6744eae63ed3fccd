/* check_stream.c: a listener and a many-writer round trip for stream sinks. */
#include "config.h"

#include <check.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/sinks.h"
#include "benchmp.h"
#include "check_stream.h"

/* Make a record of writer w, number i, padded to a length that varies. */
size_t
stream_record(char *buf, size_t cap, unsigned w, unsigned i)
{
	size_t pad = (size_t)((w * 7919u + i * 104729u) % 6000u), n;

	n = (size_t)snprintf(buf, cap, "{\"w\":%u,\"i\":%u,\"pad\":\"", w, i);
	memset(buf + n, 'a' + (char)(w % 26), pad);
	n += pad;
	n += (size_t)snprintf(buf + n, cap - n, "\"}\n");
	return n;
}

/*
 * A writer process's body: open spec through its own sink, write worker
 * w's RECORDS records and exit 0, or 2, 3 or 4 where opening, a write or
 * the close failed.
 */
void
stream_writer(const char *spec, unsigned w)
{
	char buf[8192];
	bm_sink *s;
	bm_ctx *ctx;
	unsigned i;

	if (bm_ctx_new(&ctx) != 0 || bm_sink_open(ctx, spec, &s) != 0)
		_exit(2);
	for (i = 0; i < RECORDS; i++) {
		size_t m = stream_record(buf, sizeof buf, w, i);

		if (bm_sink_write(ctx, s, buf, m) != 0)
			_exit(3);
	}
	_exit(bm_sink_close(ctx, s) == 0 ? 0 : 4);
}


/*
 * Listen on 127.0.0.1, ::1 or a Unix socket in a fresh directory, on a
 * free port, with a small receive buffer so that the sender meets full
 * sockets and short sends; 0, or -1 when the family is not available.
 */
int
stream_listen(struct stream_listener *l, int family)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_un *sun = (struct sockaddr_un *)&ss;
	socklen_t len;
	int small = 4096;

	memset(l, 0, sizeof *l);
	memset(&ss, 0, sizeof ss);
	l->fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0)
		return -1;
	ck_assert_int_eq(setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &small,
	    sizeof small), 0);
	if (family == AF_UNIX) {
		snprintf(l->dir, sizeof l->dir, "%s/check_sink.XXXXXX",
		    getenv("TMPDIR") != NULL && strlen(getenv("TMPDIR")) < 30 ?
		    getenv("TMPDIR") : "/tmp");
		ck_assert_ptr_nonnull(mkdtemp(l->dir));
		snprintf(l->path, sizeof l->path, "%s/sock", l->dir);
		sun->sun_family = AF_UNIX;
		snprintf(sun->sun_path, sizeof sun->sun_path, "%s", l->path);
		len = sizeof *sun;
		snprintf(l->spec, sizeof l->spec, "unix:%s", l->path);
	} else if (family == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof *sin;
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_loopback;
		len = sizeof *sin6;
	}
	if (bind(l->fd, (struct sockaddr *)&ss, len) != 0) {
		ck_assert_int_ne(family, AF_UNIX);
		close(l->fd);
		return -1;
	}
	ck_assert_int_eq(listen(l->fd, 16), 0);
	len = sizeof ss;
	ck_assert_int_eq(getsockname(l->fd, (struct sockaddr *)&ss, &len), 0);
	if (family == AF_INET)
		snprintf(l->spec, sizeof l->spec, "tcp:127.0.0.1:%u",
		    ntohs(sin->sin_port));
	else if (family == AF_INET6)
		snprintf(l->spec, sizeof l->spec, "tcp:[::1]:%u",
		    ntohs(sin6->sin6_port));
	return 0;
}

/* Close the listener and remove its socket and directory. */
void
stream_unlisten(struct stream_listener *l)
{
	close(l->fd);
	if (l->dir[0] != '\0') {
		unlink(l->path);
		rmdir(l->dir);
	}
}

/* One writer's connection as the listener reads it. */
struct conn {
	int fd;
	int w;			/* the writer its first line named, or -1 */
	unsigned next;		/* the record number expected next */
	size_t have;
	char buf[16384];
};

/*
 * Check the whole lines at the start of c->buf: each is the next record of
 * the connection's one writer, byte for byte; keep the rest for later.
 */
static void
conn_lines(struct conn *c, unsigned *total)
{
	char expect[8192], *nl;
	unsigned w, i;
	size_t len;

	while ((nl = memchr(c->buf, '\n', c->have)) != NULL) {
		len = (size_t)(nl - c->buf) + 1;
		ck_assert_int_eq(sscanf(c->buf, "{\"w\":%u,\"i\":%u,", &w,
		    &i), 2);
		if (c->w < 0)
			c->w = (int)w;
		ck_assert_int_eq(w, c->w);
		ck_assert_uint_eq(i, c->next);
		ck_assert_uint_eq(len, stream_record(expect, sizeof expect, w,
		    i));
		ck_assert(memcmp(c->buf, expect, len) == 0);
		c->next++;
		(*total)++;
		memmove(c->buf, c->buf + len, c->have - len);
		c->have -= len;
	}
	ck_assert_uint_lt(c->have, sizeof c->buf);
}

/*
 * Several processes each send RECORDS records of varied lengths through
 * their own stream sink; the listener reads them all, over a small receive
 * buffer and late, and finds each record once, whole, in order.
 */
void
stream_roundtrip(int family)
{
	static struct conn conns[WRITERS];
	struct pollfd pfd[WRITERS + 1];
	struct timespec pause = { 0, 500000000 };
	struct stream_listener l;
	unsigned w, total = 0, open = 0, accepted = 0, k;
	ssize_t got;
	pid_t pid;
	int st;

	/* A family this machine lacks is its own program's skip. */
	ck_assert_msg(stream_listen(&l, family) == 0, "cannot listen on "
	    "family %d", family);
	for (w = 0; w < WRITERS; w++) {
		if ((pid = fork()) == 0) {
			/* The default SIGPIPE: the sink must not raise it. */
			signal(SIGPIPE, SIG_DFL);
			stream_writer(l.spec, w);
		}
		ck_assert_int_gt(pid, 0);
	}
	while (accepted < WRITERS || open > 0) {
		pfd[0].fd = accepted < WRITERS ? l.fd : -1;
		pfd[0].events = POLLIN;
		for (k = 0; k < WRITERS; k++) {
			pfd[k + 1].fd = accepted == WRITERS ? conns[k].fd : -1;
			pfd[k + 1].events = POLLIN;
			pfd[k + 1].revents = 0;
		}
		/* Nothing for 20 s: a writer is stuck, which is a failure. */
		ck_assert_int_gt(poll(pfd, WRITERS + 1, 20000), 0);
		if (pfd[0].revents & POLLIN) {
			conns[accepted].fd = accept(l.fd, NULL, NULL);
			ck_assert_int_ge(conns[accepted].fd, 0);
			conns[accepted].w = -1;
			conns[accepted].next = 0;
			conns[accepted].have = 0;
			accepted++;
			open++;
			/*
			 * Nothing is read until the writers have filled their
			 * sockets (each sends more than a socket holds), so
			 * that they meet full sockets and short sends.
			 */
			if (accepted == WRITERS)
				nanosleep(&pause, NULL);
			continue;
		}
		for (k = 0; k < WRITERS; k++) {
			if (conns[k].fd < 0 || pfd[k + 1].revents == 0)
				continue;
			got = read(conns[k].fd, conns[k].buf + conns[k].have,
			    sizeof conns[k].buf - conns[k].have);
			ck_assert_int_ge(got, 0);
			if (got == 0) {
				/* The end: no half record left over. */
				ck_assert_uint_eq(conns[k].have, 0);
				ck_assert_uint_eq(conns[k].next, RECORDS);
				close(conns[k].fd);
				conns[k].fd = -1;
				open--;
				continue;
			}
			conns[k].have += (size_t)got;
			conn_lines(&conns[k], &total);
		}
	}
	for (w = 0; w < WRITERS; w++) {
		ck_assert_int_gt(wait(&st), 0);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "writer status %d", st);
	}
	ck_assert_uint_eq(total, WRITERS * RECORDS);
	stream_unlisten(&l);
}
