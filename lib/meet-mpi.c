/* meet-mpi.c: the meetings of MPI ranks that make bm_run span a cluster. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "internal.h"

/* Return 1 when the program has initialised MPI and not finalised it. */
static int
meet_active(void)
{
	int init = 0, fini = 0;

	if (MPI_Initialized(&init) != MPI_SUCCESS || !init)
		return 0;
	if (MPI_Finalized(&fini) != MPI_SUCCESS || fini)
		return 0;
	return 1;
}

/*
 * Wait for the reduction, bounded by the deadline and ended by a signal.
 * MPI has no timed wait, so the request is tested between short sleeps on
 * the engine's signal pipe: a millisecond late at most, which falls
 * outside every timed interval (the workers warm up or cool down
 * meanwhile).
 */
static int
meet_wait(bm_ctx *ctx, MPI_Request *req, uint64_t timeout_ns, int rank,
    const char *host, unsigned run, const char *where)
{
	uint64_t deadline = bm__deadline_now() + timeout_ns;
	struct pollfd pfd;
	int done = 0;

	for (;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return bm__fail(ctx, BM_EPROTO, "rank %d on %s: MPI "
			    "failed while meeting the other ranks", rank,
			    host);
		if (done)
			return 0;
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

/* Meet every other rank with this rank's status; see internal.h. */
int
bm__meet(bm_ctx *ctx, int rc, unsigned run, uint64_t timeout_ns,
    int *more, const char *where)
{
	char host[256], msg[sizeof ctx->err];
	int rank = 0, in[4], out[4], err;
	MPI_Request req;

	if (!meet_active())
		return rc;
	if (gethostname(host, sizeof host) != 0)
		(void)snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	(void)MPI_Comm_rank(MPI_COMM_WORLD, &rank);
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
	in[3] = more != NULL && *more ? -1 : 0;
	if (MPI_Iallreduce(in, out, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD,
	    &req) != MPI_SUCCESS)
		return bm__fail(ctx, BM_EPROTO, "rank %d on %s: MPI failed to "
		    "meet the other ranks", rank, host);
	if ((err = meet_wait(ctx, &req, timeout_ns, rank, host, run,
	    where)) != 0)
		return err;
	if (out[1] != -out[2])
		return bm__fail(ctx, BM_ERANK, "the ranks are out of step "
		    "(at runs %d and %d): every rank must run the same "
		    "benchmarks", out[1], -out[2]);
	if (out[0] == INT_MAX) {
		if (more != NULL)
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
	if (MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, out[0],
	    MPI_COMM_WORLD) != MPI_SUCCESS)
		(void)snprintf(msg, sizeof msg, "rank %d failed", out[0]);
	msg[sizeof msg - 1] = '\0';
	return bm__fail(ctx, BM_ERANK, "%s", msg);
}
