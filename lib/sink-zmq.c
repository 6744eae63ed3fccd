/* sink-zmq.c: records sent as messages on a ZeroMQ PUSH socket. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include <zmq.h>

#include "internal.h"

/*
 * Bounds on waiting for the receiver: a send waits this long for a
 * connected receiver with room (ZMQ_IMMEDIATE: nothing is queued for a
 * connection not yet made, so a missing receiver is an error rather than
 * a record silently dropped at exit), and closing waits this long for
 * queued records to leave.  Never a hang.
 */
#define ZMQ_SEND_TIMEOUT_MS 5000
#define ZMQ_LINGER_MS 5000

struct zmq_sink {
	void *context;
	void *socket;
};

/* Release what a sink holds. */
static void
zmq_sink_free(struct zmq_sink *z)
{
	if (z->socket != NULL)
		zmq_close(z->socket);
	if (z->context != NULL)
		zmq_ctx_term(z->context);
	free(z);
}

/* Open a PUSH socket connected to the endpoint. */
int
bm__zmq_open(bm_ctx *ctx, const char *endpoint, void **handle)
{
	struct zmq_sink *z;
	int sndtimeo = ZMQ_SEND_TIMEOUT_MS, linger = ZMQ_LINGER_MS, one = 1;
	int err;

	*handle = NULL;
	if ((z = calloc(1, sizeof *z)) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for a zmq sink");
	if ((z->context = zmq_ctx_new()) == NULL ||
	    (z->socket = zmq_socket(z->context, ZMQ_PUSH)) == NULL ||
	    zmq_setsockopt(z->socket, ZMQ_SNDTIMEO, &sndtimeo,
	    sizeof sndtimeo) != 0 ||
	    zmq_setsockopt(z->socket, ZMQ_LINGER, &linger, sizeof linger) != 0 ||
	    zmq_setsockopt(z->socket, ZMQ_IMMEDIATE, &one, sizeof one) != 0 ||
	    zmq_connect(z->socket, endpoint) != 0) {
		err = zmq_errno();
		zmq_sink_free(z);
		return bm__fail(ctx, err == EINVAL || err == EPROTONOSUPPORT ?
		    BM_EPARSE : -err, "sink zmq:%.64s: %s", endpoint,
		    zmq_strerror(err));
	}
	*handle = z;
	return 0;
}

/* Send one record as one message. */
int
bm__zmq_send(bm_ctx *ctx, void *handle, const char *msg, size_t len)
{
	struct zmq_sink *z = handle;
	int err;

	while (zmq_send(z->socket, msg, len, 0) < 0) {
		err = zmq_errno();
		if (err == EINTR)
			continue;
		return bm__fail(ctx, err == EAGAIN ? BM_ETIMEDOUT : -err,
		    "sending a record to the zmq sink: %s", err == EAGAIN ?
		    "no receiver took it in time" : zmq_strerror(err));
	}
	return 0;
}

/* Close the socket, waiting a bounded time for records to leave. */
int
bm__zmq_close(bm_ctx *ctx, void *handle)
{
	(void)ctx;
	zmq_sink_free(handle);
	return 0;
}
