/* tool-cluster.c: a tool's records across the ranks of an MPI job. */
#include "config.h"

#include <stdlib.h>

#include "cluster.h"
#include "tool.h"
#include "tool-private.h"

/* Gather rec from every MPI rank and make its value the aggregate. */
void
tool_cluster_aggregate(struct tool *t, bm_record *rec)
{
	int rc;

	if (!cluster_active() || t->cluster_rec == rec)
		return;
	free(t->cluster_json);
	t->cluster_json = NULL;
	if ((rc = cluster_aggregate(t->ctx, rec, &t->cluster_json)) != 0)
		tool_exit_fail(t, "gathering the ranks' results: %s",
		    bm_strerror(rc));
	t->cluster_rec = rec;
}

/*
 * Take the job's records of rec (aggregating it if tool_cluster_aggregate
 * has not) into *json; return 1 on rank 0, which speaks for the job, and 0
 * with nothing to free on the other ranks.
 */
int
tool_cluster_records(struct tool *t, const bm_record *rec, char **json)
{
	bm_record copy;

	if (t->cluster_rec != rec) {
		copy = *rec;
		tool_cluster_aggregate(t, &copy);
	}
	*json = t->cluster_json;
	t->cluster_json = NULL;
	t->cluster_rec = NULL;
	if (cluster_rank() != 0) {
		free(*json);
		*json = NULL;
		return 0;
	}
	return 1;
}
