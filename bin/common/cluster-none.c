/* cluster-none.c: a tool in a build without MPI is a job of one. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "cluster.h"

/* Nothing to join. */
void
cluster_init(const char *name)
{
	(void)name;
}

/* Never a rank of an MPI job. */
int
cluster_active(void)
{
	return 0;
}

/* The only rank. */
int
cluster_rank(void)
{
	return 0;
}

/* A job of one. */
int
cluster_size(void)
{
	return 1;
}

/* Messages need no rank. */
const char *
cluster_where(void)
{
	return "";
}

/* No MPI in this build. */
const char *
cluster_feature(void)
{
	return "";
}

/* Exit as any program does. */
void
cluster_exit(int status, int agreed)
{
	(void)agreed;
	exit(status);
}

/* Nothing to end. */
void
cluster_finish(void)
{
}

/* A job of one agrees with itself. */
int
cluster_all(int yes)
{
	return yes != 0;
}

/* Never called without MPI (cluster_active() is 0). */
int
cluster_aggregate(bm_ctx *ctx, bm_record *rec, char **json)
{
	(void)ctx;
	(void)rec;
	*json = NULL;
	return -ENOTSUP;
}
