/*
 * lat_pipe_port.c: lmbench-style pipe round trip, ported by include: each
 * worker's initialize forks an echo process over two pipes, the body
 * sends one byte and waits for it back, cleanup ends the echo process.
 * Both are placed by handle_scheduler() as LMBENCH_SCHED says (the worker
 * as process 0 of its child id, the echo process as process 1).
 */
#include "timing.h"

struct state {
	int to[2];	/* worker -> echo */
	int from[2];	/* echo -> worker */
	pid_t pid;
};

/* The echo process: return every byte until the pipe closes. */
static void
echo(struct state *s)
{
	char c;

	while (read(s->to[0], &c, 1) == 1)
		if (write(s->from[1], &c, 1) != 1)
			_exit(1);
	_exit(0);
}

/* Open the pipes and start the echo process (in each worker). */
static void
initialize(iter_t iterations, void *cookie)
{
	struct state *s = cookie;

	if (iterations != 0)	/* once per worker, not per interval */
		return;
	if (handle_scheduler(benchmp_childid(), 0, 1) != 0) {
		fprintf(stderr, "lat_pipe_port: bad LMBENCH_SCHED\n");
		exit(1);
	}
	if (pipe(s->to) != 0 || pipe(s->from) != 0) {
		perror("lat_pipe_port: pipe");
		exit(1);
	}
	if ((s->pid = fork()) < 0) {
		perror("lat_pipe_port: fork");
		exit(1);
	}
	if (s->pid == 0) {
		if (handle_scheduler(benchmp_childid(), 1, 1) != 0)
			_exit(1);
		close(s->to[1]);
		close(s->from[0]);
		echo(s);
	}
	close(s->to[0]);
	close(s->from[1]);
}

/* One round trip of a byte per iteration. */
static void
doit(iter_t iterations, void *cookie)
{
	struct state *s = cookie;
	char c = 'x';

	while (iterations-- > 0) {
		if (write(s->to[1], &c, 1) != 1 || read(s->from[0], &c, 1) != 1) {
			perror("lat_pipe_port: round trip");
			exit(1);
		}
	}
}

/* Close the pipes and reap the echo process. */
static void
cleanup(iter_t iterations, void *cookie)
{
	struct state *s = cookie;

	if (iterations != 0)	/* once per worker, not per interval */
		return;
	close(s->to[1]);
	close(s->from[0]);
	if (s->pid > 0) {
		(void)kill(s->pid, SIGTERM);
		(void)waitpid(s->pid, NULL, 0);
	}
}

/* Measure and print as lat_pipe does. */
int
main(void)
{
	struct state s = { .pid = 0 };

	benchmp(initialize, doit, cleanup, 0, 1, 0, TRIES, &s);
	if (gettime() == 0) {
		fprintf(stderr, "lat_pipe_port: %s\n", bm_compat_errmsg());
		return 1;
	}
	micro("Pipe latency", get_n());
	return 0;
}
