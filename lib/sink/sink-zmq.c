/* sink-zmq.c: records sent as messages on a ZeroMQ PUSH socket. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "internal.h"

/*
 * libzmq is loaded when a zmq: sink is opened, never linked: linked, it
 * brought 17 more shared libraries (libstdc++, krb5, sodium, pgm, ...)
 * into every tool, and loading them made lat_proc fork and exec, which
 * measure process creation, about 60% and 20% slower.  The name is the
 * library's ABI soname; BENCHMP_ZMQ_LIBRARY names another file (a path
 * or a name searched as dlopen(3) does).  zmq.h, read at build time,
 * gives the constants and the types of the functions looked up.
 */
#define ZMQ_DEFAULT_LIBRARY "libzmq.so.5"

/*
 * Bounds on waiting for the receiver: a send waits this long for a
 * connected receiver with room (ZMQ_IMMEDIATE: nothing is queued for a
 * connection not yet made, so a missing receiver is an error rather than
 * a record silently dropped at exit), and closing waits this long for
 * queued records to leave.  Never a hang.
 */
#define ZMQ_SEND_TIMEOUT_MS 5000
#define ZMQ_LINGER_MS 5000

/* The functions of libzmq the sink uses, found with dlsym. */
struct zmq_api {
	__typeof__(zmq_ctx_new) *ctx_new;
	__typeof__(zmq_ctx_term) *ctx_term;
	__typeof__(zmq_socket) *socket;
	__typeof__(zmq_close) *close;
	__typeof__(zmq_setsockopt) *setsockopt;
	__typeof__(zmq_connect) *connect;
	__typeof__(zmq_send) *send;
	__typeof__(zmq_errno) *errno_;
	__typeof__(zmq_strerror) *strerror_;
};

struct zmq_sink {
	void *lib;		/* dlopen handle */
	struct zmq_api api;
	void *context;
	void *socket;
};

/*
 * Release what a sink holds, the library last; 0, or the error of a
 * context that would not end.  Ending the context waits for the queued
 * records (ZMQ_LINGER_MS at most), and a signal interrupts that wait
 * (EINTR) with the context and its I/O threads alive: it is ended again.
 * A context that still fails to end keeps its threads running libzmq's
 * code, so the library stays loaded then (a handle lost, not a crash).
 */
static int
zmq_sink_free(struct zmq_sink *z)
{
	int rc = 0, err = 0;

	if (z->socket != NULL)
		z->api.close(z->socket);
	if (z->context != NULL) {
		while ((rc = z->api.ctx_term(z->context)) != 0 &&
		    (err = z->api.errno_()) == EINTR)
			continue;
	}
	if (z->lib != NULL && rc == 0)
		(void)dlclose(z->lib);
	free(z);
	return rc == 0 ? 0 : -(err != 0 ? err : EIO);
}

/*
 * Load libzmq and find its functions; 0, or BM_ENOTSUP naming the library
 * and dlerror()'s reason.  Each pointer is assigned with its own type
 * (POSIX lets dlsym's void * convert to a function pointer).
 */
static int
zmq_load(bm_ctx *ctx, struct zmq_sink *z)
{
	const char *file = getenv("BENCHMP_ZMQ_LIBRARY"), *missing;

	if (file == NULL || *file == '\0')
		file = ZMQ_DEFAULT_LIBRARY;
	(void)dlerror();
	if ((z->lib = dlopen(file, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		return bm__fail(ctx, BM_ENOTSUP, "zmq sink: cannot load "
		    "%.200s: %s", file, bm__dl_reason(file, dlerror()));
	}
#define ZMQ_SYM(field, name) \
	if ((z->api.field = (__typeof__(z->api.field))dlsym(z->lib, \
	    (missing = name))) == NULL) \
		goto fail
	ZMQ_SYM(ctx_new, "zmq_ctx_new");
	ZMQ_SYM(ctx_term, "zmq_ctx_term");
	ZMQ_SYM(socket, "zmq_socket");
	ZMQ_SYM(close, "zmq_close");
	ZMQ_SYM(setsockopt, "zmq_setsockopt");
	ZMQ_SYM(connect, "zmq_connect");
	ZMQ_SYM(send, "zmq_send");
	ZMQ_SYM(errno_, "zmq_errno");
	ZMQ_SYM(strerror_, "zmq_strerror");
#undef ZMQ_SYM
	return 0;
fail:
	return bm__fail(ctx, BM_ENOTSUP, "zmq sink: %.200s has no %s: not "
	    "libzmq 4", file, missing);
}

/* Open a PUSH socket connected to the endpoint. */
int
bm__zmq_open(bm_ctx *ctx, const char *endpoint, void **handle)
{
	struct zmq_sink *z;
	int sndtimeo = ZMQ_SEND_TIMEOUT_MS, linger = ZMQ_LINGER_MS, one = 1;
	int err, rc;

	*handle = NULL;
	if ((z = calloc(1, sizeof *z)) == NULL)
		return bm__fail(ctx, -ENOMEM, "no memory for a zmq sink");
	if ((rc = zmq_load(ctx, z)) != 0) {
		(void)zmq_sink_free(z);
		return rc;
	}
	if ((z->context = z->api.ctx_new()) == NULL ||
	    (z->socket = z->api.socket(z->context, ZMQ_PUSH)) == NULL ||
	    z->api.setsockopt(z->socket, ZMQ_SNDTIMEO, &sndtimeo,
	    sizeof sndtimeo) != 0 ||
	    z->api.setsockopt(z->socket, ZMQ_LINGER, &linger,
	    sizeof linger) != 0 ||
	    z->api.setsockopt(z->socket, ZMQ_IMMEDIATE, &one,
	    sizeof one) != 0 ||
	    z->api.connect(z->socket, endpoint) != 0) {
		err = z->api.errno_();
		rc = bm__fail(ctx, err == EINVAL || err == EPROTONOSUPPORT ?
		    BM_EPARSE : -err, "sink zmq:%.64s: %s", endpoint,
		    z->api.strerror_(err));
		(void)zmq_sink_free(z);
		return rc;
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

	while (z->api.send(z->socket, msg, len, 0) < 0) {
		err = z->api.errno_();
		if (err == EINTR)
			continue;
		return bm__fail(ctx, err == EAGAIN ? BM_ETIMEDOUT : -err,
		    "sending a record to the zmq sink: %s", err == EAGAIN ?
		    "no receiver took it in time" : z->api.strerror_(err));
	}
	return 0;
}

/* Close the socket, waiting a bounded time for records to leave. */
int
bm__zmq_close(bm_ctx *ctx, void *handle)
{
	int rc;

	if ((rc = zmq_sink_free(handle)) != 0)
		return bm__fail(ctx, rc, "closing the zmq sink: %s",
		    strerror(-rc));
	return 0;
}
