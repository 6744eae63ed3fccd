/* benchmp/sinks.h: where records go. */
#ifndef BENCHMP_SINKS_H
#define BENCHMP_SINKS_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where records go: see bm_sink_open(). */
typedef struct bm_sink bm_sink;
/*
 * Sinks: where records go (after ntime's NTIME_OUTPUT).  A spec is "-"
 * (standard output), "file:PATH" (appended; each record is one write() on
 * an O_APPEND descriptor, so processes can share the file without
 * interleaving), "tcp:HOST:PORT" ("tcp:[ADDR]:PORT" for IPv6) or
 * "unix:PATH" (a stream socket to a listener, one record per line, 5 s
 * bounds on the connect and on each record) or "zmq:ENDPOINT" (a ZeroMQ
 * PUSH socket connected to ENDPOINT, when built with libzmq).
 */
/* Open a sink; an unusable one fails here, with the detail on ctx. */
BM_EXTERN int bm_sink_open(bm_ctx *ctx, const char *spec, bm_sink **out);
/* Write one record (a line of JSON) as one unit. */
BM_EXTERN int bm_sink_write(bm_ctx *ctx, bm_sink *s, const char *rec,
    size_t len);
/* Return 1 when the sink is standard output. */
BM_EXTERN int bm_sink_is_stdout(const bm_sink *s);
/* Flush and close a sink (bounded wait for zmq); 0 or an error. */
BM_EXTERN int bm_sink_close(bm_ctx *ctx, bm_sink *s);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_SINKS_H */
