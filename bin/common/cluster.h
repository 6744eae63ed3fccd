/* cluster.h: a tool as one rank of an MPI job (cluster-mpi.c, cluster-none.c). */
#ifndef BM_CLUSTER_H
#define BM_CLUSTER_H

#include "benchmp.h"

/*
 * Join the MPI job when mpirun (or another MPI launcher) started this
 * process, and do nothing otherwise, so that a tool run by hand behaves
 * as in a build without MPI.  Ranks other than 0 send their standard
 * output to /dev/null: rank 0 speaks for the job.  Exits 1 if MPI cannot
 * start.
 */
void cluster_init(const char *name);

/* 1 when this process is a rank of an MPI job (even a job of one). */
int cluster_active(void);
/* This rank (0 without MPI) and the number of ranks (1 without MPI). */
int cluster_rank(void);
int cluster_size(void);

/*
 * Where a message comes from when other ranks run beside this one:
 * "rank N on HOST: ", else "".
 */
const char *cluster_where(void);

/* The optional features of this build for -V: "mpi" or "". */
const char *cluster_feature(void);

/*
 * Leave the job and exit with status.  Success, and a failure every rank
 * has agreed on (BM_ERANK), end MPI in order; a failure of this rank
 * alone aborts the whole job (MPI_Abort), since the other ranks may be
 * waiting for this one in a collective and would otherwise hang.  In a
 * forked child, which never touches MPI, this is exit().
 */
void cluster_exit(int status, int agreed) __attribute__((noreturn));

/*
 * 1 when every rank says yes (a collective: every rank calls it at the
 * same point), yes itself without MPI.  A choice that rests on time
 * (another run of mhz, another point of a sweep) must be the same on
 * every rank: ranks that chose apart would call the next collective out
 * of step and wait for each other for ever.  A rank that does not come
 * within 120 s, or an MPI failure, ends the job (cluster_exit).
 */
int cluster_all(int yes);

/* End MPI in order after a successful run (no-op without MPI). */
void cluster_finish(void);

/*
 * Gather one result from every rank on rank 0 (a collective: every rank
 * calls it for the same record).  On rank 0, *json gets one record per
 * rank ("rank", "ranks", "aggregate": false, its own statistics and host)
 * and then the aggregate ("aggregate": true, "ranks", "hosts"), and
 * rec->value becomes the aggregate, as the library joins the ranks'
 * results (bm_record_join): for a bandwidth or a rate the median over the
 * rounds of every rank's workers' summed rates, as -P sums a run's; the
 * median of every rank's rounds otherwise (latencies, clock rates).  On
 * other ranks *json is NULL.  0 or a negative error.
 */
int cluster_aggregate(bm_ctx *ctx, bm_record *rec, char **json);

#endif /* BM_CLUSTER_H */
