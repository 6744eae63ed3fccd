/*
 * bw_mem_rd.c: lmbench-style memory read bandwidth, ported by include:
 * sum one int of every four over SIZE bytes (as bw_mem SIZE rd), print
 * with mb() as lmbench's "MB/sec".
 */
#include "timing.h"

struct state {
	size_t size;
	int *buf;
};

static volatile int sink;

/* Allocate and touch the buffer (in each worker). */
static void
initialize(iter_t iterations, void *cookie)
{
	struct state *s = cookie;

	if (iterations != 0)	/* once per worker, not per interval */
		return;
	if ((s->buf = malloc(s->size)) == NULL) {
		perror("bw_mem_rd: malloc");
		exit(1);
	}
	memset(s->buf, 1, s->size);
}

/* Read the whole buffer once per iteration. */
static void
rd(iter_t iterations, void *cookie)
{
	struct state *s = cookie;
	size_t i, n = s->size / sizeof(int);
	int sum = 0;

	while (iterations-- > 0)
		for (i = 0; i < n; i += 4)
			sum += s->buf[i];
	sink = sum;
}

/* Free the buffer. */
static void
cleanup(iter_t iterations, void *cookie)
{
	struct state *s = cookie;

	if (iterations != 0)	/* once per worker, not per interval */
		return;
	free(s->buf);
	s->buf = NULL;
}

/* bw_mem_rd [SIZE in bytes, default 1 MiB] */
int
main(int argc, char **argv)
{
	struct state s = { 1 << 20, NULL };
	char *end;
	unsigned long v;

	if (argc > 1) {
		v = strtoul(argv[1], &end, 10);
		if (*end != '\0' || v < 4096 || v > (1UL << 30)) {
			fprintf(stderr, "usage: bw_mem_rd [4096..2^30]\n");
			return 2;
		}
		s.size = v;
	}
	benchmp(initialize, rd, cleanup, 0, 1, 0, TRIES, &s);
	if (gettime() == 0) {
		fprintf(stderr, "bw_mem_rd: %s\n", bm_compat_errmsg());
		return 1;
	}
	mb(get_n() * s.size);
	return 0;
}
