/*
 * check_stream.h: what the stream sinks' suites share: records of known
 * bytes, a listening socket, and many writers' round trip through it.
 */
#ifndef BM_CHECK_STREAM_H
#define BM_CHECK_STREAM_H

#include <stddef.h>

#define WRITERS 8
#define RECORDS 200

/* A listening socket for the stream sinks' tests, and its spec. */
struct stream_listener {
	int fd;
	char dir[64];		/* the unix socket's directory, or "" */
	char path[96];
	char spec[160];
};

/* Make a record of writer w, number i, padded to a length that varies. */
size_t stream_record(char *buf, size_t cap, unsigned w, unsigned i);
/* A writer process: worker w's records through a sink to spec; exits. */
void stream_writer(const char *spec, unsigned w)
    __attribute__((noreturn));

/*
 * Listen on 127.0.0.1, ::1 or a Unix socket in a fresh directory, on a
 * free port, with a small receive buffer; 0, or -1 when the family is not
 * available.
 */
int stream_listen(struct stream_listener *l, int family);

/* Close the listener and remove its socket and directory. */
void stream_unlisten(struct stream_listener *l);

/*
 * WRITERS processes each send RECORDS records through their own stream
 * sink to a listener of the family; each arrives once, whole, in order.
 */
void stream_roundtrip(int family);

#endif /* BM_CHECK_STREAM_H */
