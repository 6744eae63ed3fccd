/*
 * lm_lat_tcp: TCP round-trip latency written as lmbench's benchmarks are,
 * on <benchmp/lmbench.h> alone: a forked echo server on a port the
 * kernel picks (tcp_server, sockport, tcp_accept), a client per worker
 * (tcp_connect), and benchmp() timing one round trip of -m bytes.
 */
#include <benchmp/lmbench.h>

struct state {
	int port;
	int sock;
	int msize;
	char *buf;
};

/* Echo what arrives on one connection until the client closes it. */
static void
echo(int sock, int msize)
{
	char *buf = malloc((size_t)msize);
	ssize_t n;

	if (buf == NULL)
		_exit(1);
	while ((n = read(sock, buf, (size_t)msize)) > 0)
		if (write(sock, buf, (size_t)n) != n)
			break;
	_exit(0);
}

/* Accept connections forever, one echo process each. */
static void
server(int sock, int msize)
{
	int c;

	(void)signal(SIGCHLD, sigchld_wait_handler);
	for (;;) {
		c = tcp_accept(sock, SOCKOPT_NONE);
		switch (fork()) {
		case -1:
			perror("fork");
			_exit(1);
		case 0:
			echo(c, msize);
			break;
		default:
			close(c);
		}
	}
}

/* Connect (in each worker, once). */
static void
initialize(iter_t iterations, void *cookie)
{
	struct state *s = cookie;

	if (iterations)
		return;
	s->sock = tcp_connect("127.0.0.1", -s->port, SOCKOPT_NONE);
	if ((s->buf = malloc((size_t)s->msize)) == NULL) {
		perror("malloc");
		exit(1);
	}
	memset(s->buf, 'x', (size_t)s->msize);
}

/* One round trip of msize bytes per iteration. */
static void
doclient(iter_t iterations, void *cookie)
{
	struct state *s = cookie;
	ssize_t n, got;

	while (iterations-- > 0) {
		if (write(s->sock, s->buf, (size_t)s->msize) != s->msize) {
			perror("write");
			exit(1);
		}
		for (got = 0; got < s->msize; got += n)
			if ((n = read(s->sock, s->buf + got,
			    (size_t)(s->msize - got))) <= 0) {
				perror("read");
				exit(1);
			}
	}
}

/* Close the connection (once per worker). */
static void
cleanup(iter_t iterations, void *cookie)
{
	struct state *s = cookie;

	if (iterations)
		return;
	close(s->sock);
	free(s->buf);
}

int
main(int ac, char **av)
{
	struct state state;
	int c, parallel = 1, warmup = 0, repetitions = TRIES, sock;
	char *usage = "[-P <parallelism>] [-W <warmup>] [-N <repetitions>] "
	    "[-m <message size>]\n";
	char label[64];
	pid_t pid;

	state.msize = 1;
	while ((c = getopt(ac, av, "P:W:N:m:")) != EOF) {
		switch (c) {
		case 'P':
			parallel = atoi(optarg);
			if (parallel <= 0)
				lmbench_usage(ac, av, usage);
			break;
		case 'W':
			warmup = atoi(optarg);
			break;
		case 'N':
			repetitions = atoi(optarg);
			break;
		case 'm':
			state.msize = (int)bytes(optarg);
			if (state.msize <= 0)
				lmbench_usage(ac, av, usage);
			break;
		default:
			lmbench_usage(ac, av, usage);
		}
	}
	if (optind != ac)
		lmbench_usage(ac, av, usage);
	sock = tcp_server(0, SOCKOPT_REUSE);
	state.port = sockport(sock);
	if ((pid = fork()) < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0)
		server(sock, state.msize);
	close(sock);
	benchmp(initialize, doclient, cleanup, 0, parallel, warmup,
	    repetitions, &state);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	tcp_done(0);
	if (gettime() == 0) {
		fprintf(stderr, "lm_lat_tcp: %s\n", bm_compat_errmsg());
		return 1;
	}
	snprintf(label, sizeof(label), "TCP latency using 127.0.0.1 "
	    "(%d bytes)", state.msize);
	micro(label, get_n());
	return 0;
}
