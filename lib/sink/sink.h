/* sink.h: the sinks' internals: a spec parsed, the stream and ZeroMQ backends. */
#ifndef BM_SINK_SINK_H
#define BM_SINK_SINK_H

#include <stddef.h>

#include "benchmp.h"

/* The kinds of sink a spec names (sink.c). */
enum {
	BM__SINK_STDOUT,	/* "-" */
	BM__SINK_FILE,		/* file:PATH */
	BM__SINK_ZMQ,		/* zmq:ENDPOINT */
	BM__SINK_TCP,		/* tcp:HOST:PORT */
	BM__SINK_UNIX		/* unix:PATH */
};

/*
 * Split a sink spec into its kind and its argument (the path or endpoint,
 * pointing into spec) without opening anything; 0, or BM_EPARSE or
 * BM_ECONFIG with the detail on ctx.
 */
int bm__sink_parse(bm_ctx *ctx, const char *spec, int *kind,
    const char **arg);

/*
 * The ZeroMQ sink backend (sink-zmq.c, built with libzmq): open a PUSH
 * socket connected to endpoint, send one message, close with a bounded
 * linger.  The handle is opaque to sink.c; bm__sink_parse() has already
 * refused an empty endpoint.
 */
int bm__zmq_open(bm_ctx *ctx, const char *endpoint, void **handle);
int bm__zmq_send(bm_ctx *ctx, void *handle, const char *msg, size_t len);
int bm__zmq_close(bm_ctx *ctx, void *handle);

/*
 * The stream sockets' sink backend (sink-stream.c): check a tcp: or unix:
 * argument (BM_EPARSE, or BM_ERANGE for a port or a path out of range),
 * connect within a bounded time, and send a record whole, handling EINTR,
 * short sends and a gone listener (no SIGPIPE); *sent says how much of a
 * failed record left.  spec names the sink in messages.
 */
int bm__stream_check(bm_ctx *ctx, int kind, const char *arg);
int bm__stream_open(bm_ctx *ctx, int kind, const char *arg, const char *spec,
    int *fd);
int bm__stream_send(bm_ctx *ctx, int fd, const char *rec, size_t len,
    const char *spec, size_t *sent);

#endif /* BM_SINK_SINK_H */
