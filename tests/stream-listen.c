/* stream-listen.c: a test helper receiving records on a TCP or Unix socket. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/*
 * Usage: stream-listen tcp|unix:PATH READY.  Listen on 127.0.0.1 at a free
 * port, or on the Unix socket PATH; then write READY (the port, or
 * nothing; written aside and renamed) so the script knows where to send;
 * accept one connection and copy what it carries to stdout until the
 * sender closes it.  Every wait lasts at most 30 s: the helper never
 * hangs a test.  Exit 0, or 1 with a message.
 */
int
main(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_un *sun = (struct sockaddr_un *)&ss;
	struct pollfd p;
	char buf[65536], tmp[4096];
	socklen_t len;
	ssize_t got;
	FILE *ready;
	int l, c;

	if (argc != 3 || (strcmp(argv[1], "tcp") != 0 &&
	    strncmp(argv[1], "unix:", 5) != 0)) {
		fprintf(stderr, "usage: stream-listen tcp|unix:PATH READY\n");
		return 1;
	}
	memset(&ss, 0, sizeof ss);
	if (argv[1][0] == 't') {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof *sin;
	} else {
		if (strlen(argv[1] + 5) >= sizeof sun->sun_path) {
			fprintf(stderr, "stream-listen: path too long\n");
			return 1;
		}
		sun->sun_family = AF_UNIX;
		strcpy(sun->sun_path, argv[1] + 5);
		len = sizeof *sun;
	}
	if ((l = socket(ss.ss_family, SOCK_STREAM, 0)) < 0 ||
	    bind(l, (struct sockaddr *)&ss, len) != 0 || listen(l, 1) != 0 ||
	    getsockname(l, (struct sockaddr *)&ss, &len) != 0) {
		fprintf(stderr, "stream-listen: %s\n", strerror(errno));
		return 1;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
	if ((ready = fopen(tmp, "w")) == NULL ||
	    (ss.ss_family == AF_INET &&
	    fprintf(ready, "%u\n", ntohs(sin->sin_port)) < 0) ||
	    fclose(ready) != 0 || rename(tmp, argv[2]) != 0) {
		fprintf(stderr, "stream-listen: %s: %s\n", argv[2],
		    strerror(errno));
		return 1;
	}
	p.fd = l;
	p.events = POLLIN;
	if (poll(&p, 1, 30000) != 1 || (c = accept(l, NULL, NULL)) < 0) {
		fprintf(stderr, "stream-listen: no connection\n");
		return 1;
	}
	for (;;) {
		p.fd = c;
		p.events = POLLIN;
		if (poll(&p, 1, 30000) != 1) {
			fprintf(stderr, "stream-listen: nothing for 30 s\n");
			return 1;
		}
		if ((got = read(c, buf, sizeof buf)) < 0) {
			fprintf(stderr, "stream-listen: %s\n", strerror(errno));
			return 1;
		}
		if (got == 0)
			break;
		if (fwrite(buf, 1, (size_t)got, stdout) != (size_t)got) {
			fprintf(stderr, "stream-listen: cannot write\n");
			return 1;
		}
	}
	close(c);
	close(l);
	return fclose(stdout) == 0 ? 0 : 1;
}
