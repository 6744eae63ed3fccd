/* zmq-pull.c: a test helper that receives records on a ZeroMQ PULL socket. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zmq.h>

/*
 * Usage: zmq-pull ENDPOINT COUNT READY.  Bind a PULL socket to ENDPOINT,
 * create the file READY once bound (the script waits for it before it
 * starts the sender), then copy COUNT messages to stdout.  Each receive
 * waits at most 30 s: the helper never hangs a test.  Exit 0, or 1 with a
 * message.  This program links libzmq; the tools never do.
 */
int
main(int argc, char **argv)
{
	char buf[65536];
	void *zctx, *pull;
	char *end = NULL;
	long count = 0;
	int timeout = 30000, i, n, fd;

	if (argc == 4)
		count = strtol(argv[2], &end, 10);
	if (argc != 4 || *end != '\0' || count <= 0 || count > 1000) {
		fprintf(stderr, "usage: zmq-pull ENDPOINT COUNT READY\n");
		return 2;
	}
	if ((zctx = zmq_ctx_new()) == NULL ||
	    (pull = zmq_socket(zctx, ZMQ_PULL)) == NULL ||
	    zmq_setsockopt(pull, ZMQ_RCVTIMEO, &timeout, sizeof timeout) != 0 ||
	    zmq_bind(pull, argv[1]) != 0) {
		fprintf(stderr, "zmq-pull: %s: %s\n", argv[1],
		    zmq_strerror(zmq_errno()));
		return 1;
	}
	if ((fd = open(argv[3], O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0 ||
	    close(fd) != 0) {
		perror(argv[3]);
		return 1;
	}
	for (i = 0; i < count; i++) {
		if ((n = zmq_recv(pull, buf, sizeof buf, 0)) < 0) {
			fprintf(stderr, "zmq-pull: message %d of %ld: %s\n",
			    i + 1, count, zmq_strerror(zmq_errno()));
			return 1;
		}
		if (n > (int)sizeof buf)
			n = (int)sizeof buf;
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			return 1;
	}
	zmq_close(pull);
	zmq_ctx_term(zctx);
	return fflush(stdout) == 0 ? 0 : 1;
}
