/* lat_select.c: the time of one select() over many file or TCP descriptors. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "benchmp/worker.h"
#include "common/tool.h"

/* lmbench's default count, and room left below FD_SETSIZE for the engine. */
#define SELECT_DEFAULT_N 200
#define SELECT_MAX_N (FD_SETSIZE - 24)

/* One worker's descriptors. */
struct select_state {
	int tcp;		/* 1: sockets, 0: a file */
	unsigned nfds;
	const char *dir;
	char path[600];
	int *fds;
	int maxfd;
	fd_set set;
};

/* Open nfds descriptors: one file or one listening socket, duplicated. */
static int
select_init(bm_iter_t n, void *cookie)
{
	struct select_state *s = cookie;
	struct sockaddr_in sin;
	unsigned i;
	int fd;

	(void)n;
	if ((s->fds = malloc(s->nfds * sizeof *s->fds)) == NULL)
		return -ENOMEM;
	for (i = 0; i < s->nfds; i++)
		s->fds[i] = -1;
	if (s->tcp) {
		if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
			return -errno;
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
		    listen(fd, 1) != 0) {
			close(fd);
			return -errno;
		}
	} else {
		/* Named by the worker's process too, as lat_fcntl's file. */
		snprintf(s->path, sizeof s->path, "%s/select.%u.%ld", s->dir,
		    bm_worker_index(bm_state_current()), (long)getpid());
		if ((fd = open(s->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0600)) < 0)
			return -errno;
	}
	s->fds[0] = fd;
	for (i = 1; i < s->nfds; i++) {
		if ((s->fds[i] = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
			return -errno;
	}
	FD_ZERO(&s->set);
	s->maxfd = -1;
	for (i = 0; i < s->nfds; i++) {
		/* select() cannot see a descriptor past FD_SETSIZE. */
		if (s->fds[i] >= FD_SETSIZE)
			return -EMFILE;
		FD_SET(s->fds[i], &s->set);
		if (s->fds[i] > s->maxfd)
			s->maxfd = s->fds[i];
	}
	return 0;
}

/* n select() calls for reading, without waiting. */
static int
select_bench(bm_iter_t n, void *cookie)
{
	struct select_state *s = cookie;
	struct timeval tv;
	fd_set set;

	while (n-- > 0) {
		set = s->set;
		tv.tv_sec = 0;
		tv.tv_usec = 0;
		if (select(s->maxfd + 1, &set, NULL, NULL, &tv) < 0)
			return -errno;
	}
	return 0;
}

/* Close the descriptors and remove the file. */
static int
select_cleanup(bm_iter_t n, void *cookie)
{
	struct select_state *s = cookie;
	unsigned i;

	(void)n;
	if (s->fds != NULL) {
		for (i = 0; i < s->nfds; i++) {
			if (s->fds[i] >= 0)
				close(s->fds[i]);
		}
	}
	free(s->fds);
	s->fds = NULL;
	if (s->path[0] != '\0')
		(void)unlink(s->path);
	return 0;
}

/* Take -n nfds into the select_state cookie. */
static void
select_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct select_state *s = cookie;

	(void)opt;
	s->nfds = (unsigned)tool_uint(t, "-n", arg, 1, SELECT_MAX_N);
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_select", .args = "[-n nfds] file|tcp" };
	struct select_state state = { .nfds = SELECT_DEFAULT_N };
	struct select_state *s = &state;
	bm_param params[1];
	bm_bench b;
	bm_result r;
	char label[64];
	int first;

	first = tool_parse(&t, argc, argv, "n:", NULL, select_option, s);
	if (first >= argc)
		tool_exit_usage(&t, "missing the kind of descriptor");
	if (strcmp(argv[first], "tcp") == 0)
		s->tcp = 1;
	else if (strcmp(argv[first], "file") != 0)
		tool_exit_usage(&t, "unknown kind '%s'", argv[first]);
	if (first + 1 < argc)
		tool_exit_usage(&t, "too many arguments");
	tool_setup(&t);
	if (!s->tcp)
		s->dir = tool_exit_tmpdir(&t);
	b.initialize = select_init;
	b.benchmark = select_bench;
	b.cleanup = select_cleanup;
	b.cookie = s;
	tool_run(&t, &b, &r);
	params[0] = tool_record_param("nfds", NULL, s->nfds);
	snprintf(label, sizeof label, "Select on %u %sfd's", s->nfds,
	    s->tcp ? "tcp " : "");
	tool_report_us(&t, s->tcp ? "tcp" : "file", params, 1, &r, label);
	bm_result_free(&r);
	return tool_finish(&t);
}
