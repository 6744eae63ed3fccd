/* meet-mpi.c: the meeting hook of bm_run for MPI ranks, so a run spans a cluster. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "engine/mpi.h"

/*
 * Where this process is in the sequence of meetings.  The meetings are
 * collective operations on MPI_COMM_WORLD, of which a process has one, so
 * the sequence is the process's whatever context runs: the run number
 * that keeps ranks in step counts every bm_run() of the process, and
 * after a meeting that failed (every rank knows, or the others are gone)
 * there is no other in that run.
 */
static struct {
	unsigned run;		/* bm_run() calls so far, from 1 */
	int failed;		/* a meeting of this run failed: no more */
} meet_seq;

/*
 * The reduction of the last meeting, in storage that outlives the call
 * that posted it: a meeting left pending (BM_ETIMEDOUT, BM_EINTR) is
 * completed by MPI when the late ranks come, and writes its answer then.
 * While it is pending no other is posted over it.
 */
static struct {
	int in[4];
	int out[4];
	struct bm__mpi_req *req;	/* the pending request, or NULL */
} meet_op;

/*
 * Load the MPI module for a program that has MPI_Initialized(): whether
 * MPI is active, as meet_active().  Its own function, never inlined, so
 * the message buffer (a path's length) takes stack only on this rare
 * path: every run meets, and a tool may run under a stack of 32 KB.
 */
static int __attribute__((noinline))
meet_load(bm_ctx *ctx, int (*initialized)(int *))
{
	const struct bm__mpi *m;
	char err[PATH_MAX + 128];
	int init = 0;

	if ((m = bm__mpi_load(err, sizeof(err))) == NULL)
		return initialized(&init) != 0 || !init ? 0 :
		    bm__fail(ctx, BM_ENOTSUP, "MPI: %s", err);
	return m->active();
}

/*
 * Whether the program has initialised MPI and not finalised it: 1, or 0.
 * A tool loaded the MPI module (mpi.h) to start as a rank; a program of
 * its own that links MPI and calls MPI_Init() gets the module here, which
 * uses the program's MPI (the same library, already loaded).  A program
 * without MPI at its start (none of its symbols) is never looked at
 * again.  A negative error, its detail in ctx, when a program that has
 * initialised MPI cannot load the module (asked with its own
 * MPI_Initialized(), whose form and MPI_SUCCESS, 0, the standard fixes).
 */
static int
meet_active(bm_ctx *ctx)
{
	static int no_mpi;
	const struct bm__mpi *m = bm__mpi();
	int (*initialized)(int *);

	if (m == NULL) {
		if (no_mpi || (initialized = (int (*)(int *))dlsym(
		    RTLD_DEFAULT, "MPI_Initialized")) == NULL) {
			no_mpi = 1;
			return 0;
		}
		return meet_load(ctx, initialized);
	}
	return m->active();
}

/*
 * Wait for the reduction, bounded by the deadline and ended by a signal.
 * MPI has no timed wait, so the request is tested between short sleeps on
 * the engine's signal pipe: a millisecond late at most, which falls
 * outside every timed interval (the workers warm up or cool down
 * meanwhile).
 */
static int
meet_wait(bm_ctx *ctx, struct bm__mpi_req *req, uint64_t timeout_ns, int rank,
    const char *host, unsigned run, const char *where)
{
	uint64_t deadline = bm__deadline_now() + timeout_ns;
	struct pollfd pfd;
	int done = 0;

	for (;;) {
		if (bm__mpi()->test(req, &done) != 0)
			return bm__fail(ctx, BM_EPROTO, "rank %d on %s: MPI "
			    "failed while meeting the other ranks", rank,
			    host);
		if (done) {
			meet_op.req = NULL;
			return 0;
		}
		if (bm__signals_caught()) {
			ctx->last_signal = bm__signals_caught();
			return bm__fail(ctx, BM_EINTR, "interrupted by "
			    "signal %d while meeting the other ranks",
			    ctx->last_signal);
		}
		if (bm__deadline_now() >= deadline)
			return bm__fail(ctx, BM_ETIMEDOUT, "rank %d on %s: "
			    "the other ranks did not reach the %s of run %u "
			    "within %.0f s", rank, host, where, run,
			    (double)timeout_ns / 1e9);
		pfd.fd = bm__signals_fd();
		pfd.events = POLLIN;
		(void)poll(&pfd, pfd.fd >= 0 ? 1 : 0, 1);
	}
}

/* What a rank waits for at a phase, for the message of a timeout. */
static const char *
meet_where(enum bm__phase phase)
{
	switch (phase) {
	case BM__PHASE_WARM:
		return "start";
	case BM__PHASE_TIMED:
		return "end of the intervals";
	case BM__PHASE_ROUND:
		return "end of a round";
	case BM__PHASE_MEASURED:
		return "end";
	default:
		return "next meeting";
	}
}

/*
 * Whether an earlier meeting is still pending (the late ranks have not
 * come): 1, after which no meeting can be posted; 0 when none is, or it
 * has completed since (its answer is stale and dropped: the ranks that
 * came to it are out of step with this one, and the next meeting's run
 * numbers say so).
 */
static int
meet_pending(void)
{
	int done = 0;

	if (meet_op.req == NULL)
		return 0;
	if (bm__mpi()->test(meet_op.req, &done) != 0 || !done)
		return 1;
	meet_op.req = NULL;
	return 0;
}

/*
 * Meet every other rank with this rank's status rc: 0 when every rank is
 * well and in step (with more, the ranks' wish for another round, set to
 * 1 on every rank when any wished for one), and otherwise BM_ERANK on
 * every rank with the detail of the lowest failing rank ("rank N on
 * HOST: ...").  BM_ETIMEDOUT when the others are late or gone (the
 * meeting stays pending, so the program must abort MPI); BM_EINTR on a
 * signal.
 */
static int
meet_ranks(bm_ctx *ctx, int rc, uint64_t timeout_ns, int *more,
    const char *where)
{
	char host[256], msg[sizeof ctx->err];
	unsigned run = meet_seq.run;
	int rank = 0, *in = meet_op.in, *out = meet_op.out, err;
	const struct bm__mpi *m = bm__mpi();

	if (gethostname(host, sizeof host) != 0)
		(void)snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	(void)m->rank(&rank);
	if (meet_pending())
		return bm__fail(ctx, BM_ETIMEDOUT, "rank %d on %s: an earlier "
		    "meeting of the ranks is still pending (a rank was late "
		    "or gone): MPI must be aborted", rank, host);
	/*
	 * One reduction answers the three questions: the lowest rank that
	 * failed (INT_MAX: none), whether every rank is at the same run
	 * (the smallest run number and the negated largest agree), and
	 * whether any rank wants another round (-1 is the smallest wish).
	 * It is non-blocking so that the wait can be bounded.
	 */
	in[0] = rc != 0 ? rank : INT_MAX;
	in[1] = (int)run;
	in[2] = -(int)run;
	in[3] = *more ? -1 : 0;
	if (m->iallreduce(in, out, 4, BM__MPI_MIN, &meet_op.req) != 0) {
		meet_op.req = NULL;
		return bm__fail(ctx, BM_EPROTO, "rank %d on %s: MPI failed to "
		    "meet the other ranks", rank, host);
	}
	if ((err = meet_wait(ctx, meet_op.req, timeout_ns, rank, host, run,
	    where)) != 0)
		return err;
	if (out[1] != -out[2])
		return bm__fail(ctx, BM_ERANK, "the ranks are out of step "
		    "(at runs %d and %d): every rank must run the same "
		    "benchmarks", out[1], -out[2]);
	if (out[0] == INT_MAX) {
		*more = out[3] < 0;
		return 0;
	}
	/* Every rank got here: the failing one tells everyone why. */
	memset(msg, 0, sizeof msg);
	/* Bounded so that the whole fits: a long detail loses its end. */
	if (rank == out[0])
		(void)snprintf(msg, sizeof msg, "rank %d on %.64s: %.400s",
		    rank, host, ctx->err[0] != '\0' ? ctx->err :
		    bm_strerror(rc));
	if (m->bcast(msg, (int)sizeof msg, BM__MPI_CHAR, out[0]) != 0)
		(void)snprintf(msg, sizeof msg, "rank %d failed", out[0]);
	msg[sizeof msg - 1] = '\0';
	return bm__fail(ctx, BM_ERANK, "%s", msg);
}

/*
 * The meeting hook (see internal.h): count the run at BEGIN, and meet the
 * other ranks at every later phase, FAILED included, so that a rank that
 * failed still comes to the meeting the others wait at, and none waits
 * for it.  Without MPI initialised (or once finalised) nobody is met.
 */
int
bm__meet_mpi(bm_ctx *ctx, struct bm__meeting *m)
{
	int rc;

	if (m->phase == BM__PHASE_BEGIN) {
		meet_seq.run++;
		meet_seq.failed = 0;
		return 0;
	}
	if (meet_seq.failed || (rc = meet_active(ctx)) == 0)
		return m->status;
	if (rc < 0) {
		meet_seq.failed = 1;
		return rc;
	}
	rc = meet_ranks(ctx, m->status, m->timeout_ns, &m->more,
	    meet_where(m->phase));
	if (rc != 0)
		meet_seq.failed = 1;
	return rc;
}
