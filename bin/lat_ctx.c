/* lat_ctx.c: context-switch time, passing a token around a ring of processes. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "benchmp/figures.h"
#include "benchmp/worker.h"
#include "common/mem.h"
#include "common/partner.h"
#include "common/placement.h"
#include "common/tool.h"

/* The most processes in one ring, and the largest working set (-s). */
#define CTX_MAX_PROCS 1024
#define CTX_MAX_KB (1u << 20)
/* The most ring sizes on one command line. */
#define CTX_MAX_RINGS 64
/*
 * The descriptors a worker holds beside its ring's pipes (standard
 * streams, the engine's channel, the overhead's pipe): the soft limit is
 * raised to the ring's 2N plus these, and a hard limit below the ring's
 * 2N plus CTX_FD_MIN refused up front.
 */
#define CTX_FD_SPARE 64
#define CTX_FD_MIN 8

/*
 * One worker's ring: process i (the worker is 0) reads the token from
 * pipe i, sums its working set, and writes the token to pipe i+1 mod N.
 */
struct ctx_state {
	unsigned nprocs;
	size_t size;		/* working set of each process, bytes */
	int (*fds)[2];		/* the N pipes */
	int self[2];		/* the overhead's pipe to itself, -1 closed */
	struct partner *partners;
	unsigned me;		/* the process a partner is */
	unsigned long *data;
	volatile unsigned long sink;
	struct placement place;
};

/* Fault in a working set of size bytes; NULL when size is 0. */
static unsigned long *
ctx_data(size_t size, int *rc)
{
	unsigned long *d;

	*rc = 0;
	if (size == 0)
		return NULL;
	if ((d = malloc(size)) == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	memset(d, 1, size);
	return d;
}

/* Sum the working set, as a process that does some work between switches. */
static unsigned long
ctx_touch(const unsigned long *d, size_t size)
{
	size_t i, n = size / sizeof *d;
	unsigned long sum = 0;

	for (i = 0; i < n; i++)
		sum += d[i];
	return sum;
}

/* A process of the ring: close the other pipes, then pass the token on. */
static int
ctx_member(void *arg)
{
	struct ctx_state *s = arg;
	unsigned i, in = s->me, out = (s->me + 1) % s->nprocs;
	unsigned long *d;
	int rc, token;

	for (i = 0; i < s->nprocs; i++) {
		if (i != in)
			close(s->fds[i][0]);
		if (i != out)
			close(s->fds[i][1]);
	}
	if ((d = ctx_data(s->size, &rc)) == NULL && rc != 0)
		return 1;
	for (;;) {
		if (partner_read(s->fds[in][0], &token, sizeof token) != 0)
			return 0;
		s->sink = ctx_touch(d, s->size);
		if (partner_write(s->fds[out][1], &token, sizeof token) != 0)
			return 0;
	}
}

/* Build the ring (ctx_init's work, without the stop on a failure). */
static int
ctx_build(bm_iter_t n, void *cookie)
{
	struct ctx_state *s = cookie;
	unsigned i;
	int rc;

	(void)n;
	if ((rc = placement_worker(&s->place,
	    bm_worker_index(bm_state_current()))) != 0)
		return rc;
	s->fds = calloc(s->nprocs, sizeof *s->fds);
	s->partners = calloc(s->nprocs, sizeof *s->partners);
	if (s->fds == NULL || s->partners == NULL)
		return -ENOMEM;
	for (i = 0; i < s->nprocs; i++)
		s->fds[i][0] = s->fds[i][1] = -1;
	for (i = 0; i < s->nprocs; i++) {
		if (pipe2(s->fds[i], O_CLOEXEC) != 0)
			return -errno;
	}
	for (i = 1; i < s->nprocs; i++) {
		s->me = i;
		if ((rc = placement_start(&s->place, i, &s->partners[i],
		    ctx_member, s)) != 0)
			return rc;
	}
	/* The worker keeps the read end of pipe 0 and the write end of 1. */
	for (i = 0; i < s->nprocs; i++) {
		if (i != 0) {
			close(s->fds[i][0]);
			s->fds[i][0] = -1;
		}
		if (i != 1 % s->nprocs) {
			close(s->fds[i][1]);
			s->fds[i][1] = -1;
		}
	}
	s->data = ctx_data(s->size, &rc);
	return rc;
}

static int ctx_cleanup(bm_iter_t n, void *cookie);

/* The overhead's pipe to itself, made after the ring's members started. */
static int
ctx_self_pipe(struct ctx_state *s)
{
	if (pipe2(s->self, O_CLOEXEC) != 0) {
		s->self[0] = s->self[1] = -1;
		return -errno;
	}
	return 0;
}

/*
 * Build the ring: N pipes, N-1 partners.  On a failure (a fork refused by
 * RLIMIT_NPROC half way round) the members already started are stopped
 * and reaped here: the engine runs cleanup only after a successful
 * initialize, and their zombies would outlive the worker where nothing
 * reaps orphans.
 */
static int
ctx_init(bm_iter_t n, void *cookie)
{
	int rc = ctx_build(n, cookie);

	if (rc != 0)
		(void)ctx_cleanup(n, cookie);
	return rc;
}

/*
 * Build the ring and the overhead's pipe, for both figures of a group
 * (ctx_measure_group): the members are blocked in a read while the
 * overhead runs, and do not hold the overhead's pipe.
 */
static int
ctx_group_init(bm_iter_t n, void *cookie)
{
	int rc = ctx_build(n, cookie);

	if (rc == 0)
		rc = ctx_self_pipe(cookie);
	if (rc != 0)
		(void)ctx_cleanup(n, cookie);
	return rc;
}

/* n trips of the token around the ring. */
static int
ctx_ring(bm_iter_t n, void *cookie)
{
	struct ctx_state *s = cookie;
	int rc, token = 0;

	while (n-- > 0) {
		s->sink = ctx_touch(s->data, s->size);
		if ((rc = partner_write(s->fds[1 % s->nprocs][1], &token,
		    sizeof token)) != 0 ||
		    (rc = partner_read(s->fds[0][0], &token, sizeof token)) != 0)
			return rc;
	}
	return 0;
}

/* Stop the partners, close the pipes, free the working set. */
static int
ctx_cleanup(bm_iter_t n, void *cookie)
{
	struct ctx_state *s = cookie;
	unsigned i;

	(void)n;
	if (s->partners != NULL) {
		for (i = 1; i < s->nprocs; i++)
			(void)partner_stop(&s->partners[i]);
	}
	if (s->fds != NULL) {
		for (i = 0; i < s->nprocs; i++) {
			if (s->fds[i][0] >= 0)
				close(s->fds[i][0]);
			if (s->fds[i][1] >= 0)
				close(s->fds[i][1]);
		}
	}
	for (i = 0; i < 2; i++) {
		if (s->self[i] >= 0)
			close(s->self[i]);
		s->self[i] = -1;
	}
	free(s->fds);
	free(s->partners);
	free(s->data);
	s->fds = NULL;
	s->partners = NULL;
	s->data = NULL;
	return 0;
}

/* The overhead of one hop without a switch: a pipe to oneself and the sum. */
static int
ctx_overhead_init(bm_iter_t n, void *cookie)
{
	struct ctx_state *s = cookie;
	int rc;

	(void)n;
	if ((rc = placement_worker(&s->place,
	    bm_worker_index(bm_state_current()))) != 0)
		return rc;
	if ((rc = ctx_self_pipe(s)) != 0)
		return rc;
	s->data = ctx_data(s->size, &rc);
	return rc;
}

/* n hops through the pipe to oneself, each with the working-set sum. */
static int
ctx_overhead(bm_iter_t n, void *cookie)
{
	struct ctx_state *s = cookie;
	int rc, token = 0;

	while (n-- > 0) {
		s->sink = ctx_touch(s->data, s->size);
		if ((rc = partner_write(s->self[1], &token,
		    sizeof token)) != 0 ||
		    (rc = partner_read(s->self[0], &token, sizeof token)) != 0)
			return rc;
	}
	return 0;
}

/* Take -s kbytes and --placement into the ctx_state cookie. */
static void
ctx_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct ctx_state *s = cookie;

	if (opt == PLACEMENT_OPT) {
		placement_option(&s->place, t, arg);
		return;
	}
	s->size = (size_t)tool_uint(t, "-s", arg, 0, CTX_MAX_KB) * 1024;
}

/*
 * Report one ring: the time of a hop less the overhead measured alone.
 * When the hop costs no more than the overhead (a working set so large
 * that summing it swamps the switch, and the noise of the sum decides the
 * sign), the switch is not measurable: say so instead of printing a
 * figure, which would be zero or negative.  Returns 0 or -1.
 */
static int
ctx_report(struct tool *t, struct ctx_state *s, unsigned nprocs,
    double ovr_us, const bm_result *r)
{
	bm_param params[2 + PLACEMENT_NPARAMS];
	bm_param measured[1 + PLACEMENT_NMEASURED];
	double hop_us = r->per_op_ns.median / 1000.0 / nprocs;
	size_t np = 2, i;
	bm_record rec;
	int rc;
	char line[96];

	if (!(hop_us > ovr_us)) {
		fprintf(stderr, "%s: %u processes%s: the switch is not "
		    "measurable: a hop took %.2f microseconds, no more than "
		    "the %.2f of summing the %zuk working set alone\n",
		    t->name, nprocs, placement_suffix(&s->place), hop_us,
		    ovr_us, s->size / 1024);
		return -1;
	}
	params[0] = tool_record_param("nprocs", NULL, nprocs);
	params[1] = tool_record_param("size", NULL, (double)s->size);
	placement_params(&s->place, params, &np);
	/* The overhead and the CPUs are measured: apart from the inputs. */
	measured[0] = tool_record_param("overhead_us", NULL, ovr_us);
	for (i = 0; i < s->place.nmeasured; i++)
		measured[1 + i] = s->place.measured[i];
	/* One trip is nprocs switches, each with one hop's overhead. */
	if ((rc = bm_record_latency_per(&rec, t->name, "ring", "us", r,
	    nprocs, ovr_us * 1000.0 * nprocs)) != 0)
		tool_exit_lib(t, rc, "building the record");
	rec.params = params;
	rec.nparams = np;
	rec.measured = measured;
	rec.nmeasured = 1 + s->place.nmeasured;
	snprintf(line, sizeof line, "%u ", nprocs);
	tool_report_value(t, &rec, line, 2, "");
	return 0;
}

/*
 * --served: the overhead (a part), then every ring (ops: the ring
 * sizes), for each placement (--placement set t->placements).
 */
static unsigned
ctx_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	(void)ops;
	(void)cookie;
	*parts = 1;
	return 1 + (unsigned)(nops > 0 ? nops : 0) *
	    (t->placements > 1 ? t->placements : 1);
}

/* Parse and check the ring sizes into rings; how many; the largest in *maxring. */
static int
ctx_parse(struct tool *t, int argc, char **argv, struct ctx_state *s,
    unsigned *rings, unsigned *maxring)
{
	int first, i, nrings;

	first = tool_parse(t, argc, argv, "s:", placement_long, ctx_option,
	    s);
	if (first >= argc)
		tool_exit_usage(t, "missing the number of processes");
	nrings = argc - first;
	if (nrings > CTX_MAX_RINGS)
		tool_exit_usage(t, "at most %d ring sizes", CTX_MAX_RINGS);
	*maxring = 1;
	for (i = 0; i < nrings; i++) {
		rings[i] = (unsigned)tool_uint(t, "nprocs", argv[first + i], 2,
		    CTX_MAX_PROCS);
		if (rings[i] > *maxring)
			*maxring = rings[i];
	}
	if (t->opts.percentiles > 0)
		tool_exit_usage(t, "--percentiles does not apply to lat_ctx");
	return nrings;
}

/*
 * Make room for the largest ring's pipes: the worker makes all 2N of them
 * before it forks the members, so a ring of 1024 (the most) failed with
 * EMFILE at about 510 under the common soft limit of 1024 descriptors.
 * The soft limit is raised as far as the hard one allows; a hard limit
 * that cannot hold the ring is refused now, not in a worker.
 */
static void
ctx_fd_room(const struct tool *t, unsigned maxring)
{
	rlim_t want = 2 * (rlim_t)maxring + CTX_FD_SPARE;
	rlim_t least = 2 * (rlim_t)maxring + CTX_FD_MIN;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < least)
		tool_exit_fail(t, "a ring of %u processes needs %ju open "
		    "files, more than the limit of %ju (ulimit -Hn)", maxring,
		    (uintmax_t)least, (uintmax_t)rl.rlim_max);
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ?
	    rl.rlim_max : want;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		tool_exit_fail(t, "cannot raise the limit of open files to "
		    "%ju for a ring of %u processes: %s",
		    (uintmax_t)rl.rlim_cur, maxring, strerror(errno));
}

/* The overhead in us: one process's, its worker placed where a ring's is. */
static double
ctx_overhead_us(struct tool *t, struct ctx_state *s, bm_bench *b)
{
	bm_result r;
	double ovr_us;

	b->cookie = s;
	b->initialize = ctx_overhead_init;
	b->benchmark = ctx_overhead;
	b->cleanup = ctx_cleanup;
	s->nprocs = 1;
	placement_begin(&s->place, 0, 1);
	tool_run(t, b, &r);
	ovr_us = r.per_op_ns.median / 1000.0;
	bm_result_free(&r);
	return ovr_us;
}

/*
 * Served, one ring at one placement: the overhead (the part) and the
 * ring as one group (tool_run_group) on one set of workers, whose
 * initialize builds both, so that each sweep visits both and the overhead
 * taken off the ring is measured across the same stretch of the run.
 * Measured one after another, the overhead took the first visits of a
 * suite and the ring the rest: on a 2-vCPU AMD EPYC KVM guest
 * (2026-12-06) the ring got 11 visits where a figure alone got 16-17,
 * and the rings of two processes moved by up to 47% from run to run
 * (doc/measurements.md, section "2026-12-06, from 14:15 UTC: the EPYC
 * guest's host phases, lat_ctx's overhead beside its ring").  In an
 * A/B's arm the library serves the two one after another.  *ovr_us gets
 * the overhead, *r the ring.
 */
static void
ctx_measure_group(struct tool *t, struct ctx_state *s, unsigned nprocs,
    double *ovr_us, bm_result *r)
{
	bm_bench g[2];
	/* Static, off a stack that a user may limit to 32 KB. */
	static bm_result gr[2];

	memset(g, 0, sizeof g);
	g[0].cookie = g[1].cookie = s;
	g[0].initialize = g[1].initialize = ctx_group_init;
	g[0].cleanup = g[1].cleanup = ctx_cleanup;
	g[0].benchmark = ctx_overhead;
	g[1].benchmark = ctx_ring;
	s->nprocs = nprocs;
	placement_begin(&s->place, 0, nprocs);
	tool_run_group(t, g, 2, gr);
	*ovr_us = gr[0].per_op_ns.median / 1000.0;
	bm_result_free(&gr[0]);
	*r = gr[1];
}

/* The header line of a placement's rings (not with --json). */
static void
ctx_header(const struct tool *t, const struct ctx_state *s, double ovr_us)
{
	if (t->json)
		return;
	printf("\"size=%zuk ovr=%.2f%s\n", s->size / 1024, ovr_us,
	    placement_suffix(&s->place));
	fflush(stdout);
}

/*
 * Measure the overhead, then each ring (for both: every ring cross, then
 * every ring same, each set under its own header line), and print them.
 * 1 when a ring was not measurable, else 0.
 */
static int
ctx_measure_all(struct tool *t, struct ctx_state *s, const unsigned *rings,
    int nrings)
{
	unsigned run;
	bm_result r;
	bm_bench b;
	double ovr_us;
	int i, failed = 0;

	ovr_us = ctx_overhead_us(t, s, &b);
	b.initialize = ctx_init;
	b.benchmark = ctx_ring;
	for (run = 0; run < placement_runs(&s->place); run++) {
		placement_begin(&s->place, run, 1);
		ctx_header(t, s, ovr_us);
		for (i = 0; i < nrings; i++) {
			s->nprocs = rings[i];
			placement_begin(&s->place, run, rings[i]);
			tool_run(t, &b, &r);
			if (ctx_report(t, s, rings[i], ovr_us, &r) != 0)
				failed = 1;
			bm_result_free(&r);
		}
	}
	return failed;
}

/*
 * Measure and print every ring (ctx_measure_all); served, one ring at
 * one placement with its overhead as one group (ctx_measure_group).
 */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_ctx", .args = "[-s kbytes] "
	    "[--placement=WHERE] nprocs..." };
	unsigned rings[CTX_MAX_RINGS], maxring;
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct ctx_state s;
	bm_result r;
	double ovr_us;
	int nrings, failed;

	memset(&s, 0, sizeof s);
	s.self[0] = s.self[1] = -1;
	t.extra_usage = placement_usage;
	t.served_figures = ctx_served_figures;
	nrings = ctx_parse(&t, argc, argv, &s, rings, &maxring);
	tool_setup(&t);
	tool_wall_clock(&t);
	ctx_fd_room(&t, maxring);
	/*
	 * Every process of a ring sums a working set of its own: -s 1048576
	 * 64 asked each worker for 64 GB, which the OOM killer answered.
	 */
	mem_topo_fits(&t, (uint64_t)s.size * maxring, t.opts.parallel, 0, 0);
	placement_setup(&s.place, &t, maxring);

	if (nrings == 1 && placement_runs(&s.place) == 1 &&
	    tool_served_inside()) {
		ctx_measure_group(&t, &s, rings[0], &ovr_us, &r);
		ctx_header(&t, &s, ovr_us);
		failed = ctx_report(&t, &s, rings[0], ovr_us, &r) != 0;
		bm_result_free(&r);
	} else
		failed = ctx_measure_all(&t, &s, rings, nrings);
	if (failed) {
		(void)tool_finish(&t);
		return 1;
	}
	return tool_finish(&t);
}
