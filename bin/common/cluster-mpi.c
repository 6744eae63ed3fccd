/* cluster-mpi.c: a tool as one rank of an MPI job: start, output on rank 0, end. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/figures.h"
#include "cluster.h"
#include "engine/mpi.h"

#define CLUSTER_HOST_MAX 256
/* The most measured params whose median the aggregate takes. */
#define CLUSTER_MEASURED_MAX 16
/*
 * How long a rank waits at cluster_all for the others, in s: they come
 * from the same meeting of the engine, a point's analysis apart.
 */
#define CLUSTER_AGREE_TIMEOUT_S 120

/* This process's place in the job. */
static struct {
	int active;
	int rank;
	int size;
	pid_t pid;		/* the process that initialised MPI */
	const char *name;	/* the tool's, for messages */
	const struct bm__mpi *mpi;	/* the MPI module's calls */
	char host[CLUSTER_HOST_MAX];
	char where[CLUSTER_HOST_MAX + 32];
} cluster = { 0, 0, 1, 0, "", NULL, "", "" };

/* The aggregate's measured params: the last aggregate's, on rank 0. */
static bm_param cluster_measured[CLUSTER_MEASURED_MAX];

/*
 * Return 1 when an MPI launcher started this process: Open MPI's mpirun
 * sets OMPI_COMM_WORLD_SIZE, MPICH's Hydra PMI_SIZE, PMIx launchers
 * PMIX_RANK.  A tool run by hand does not call MPI_Init at all: its
 * output and behaviour stay those of a build without MPI.
 */
static int
cluster_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") != NULL ||
	    getenv("PMI_SIZE") != NULL || getenv("PMIX_RANK") != NULL;
}

/*
 * Start MPI and join the job.  Its own function, never inlined: the
 * message buffer (a path's length) takes stack only in a rank, and a tool
 * run by hand may run under a stack of 32 KB.
 */
static void __attribute__((noinline))
cluster_start(const char *name)
{
	char err[PATH_MAX + 128];
	int fd;

	/* MPI's libraries come with its module, only in a rank (mpi.h). */
	if ((cluster.mpi = bm__mpi_load(err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s: cannot start MPI: %s\n", name, err);
		exit(1);
	}
	/*
	 * MPI starts before any worker is forked; the workers never call
	 * MPI and leave through _exit(), so Open MPI's state is used by
	 * this process alone (its fork warning is about children that
	 * would; mpi_warn_on_fork=0 silences it).
	 */
	if (cluster.mpi->init() != 0) {
		fprintf(stderr, "%s: cannot start MPI\n", name);
		exit(1);
	}
	cluster.active = 1;
	cluster.pid = getpid();
	cluster.name = name;
	(void)cluster.mpi->rank(&cluster.rank);
	(void)cluster.mpi->ranks(&cluster.size);
	if (gethostname(cluster.host, sizeof cluster.host) != 0)
		(void)snprintf(cluster.host, sizeof cluster.host, "?");
	cluster.host[sizeof cluster.host - 1] = '\0';
	if (cluster.size > 1)
		(void)snprintf(cluster.where, sizeof cluster.where,
		    "rank %d on %s: ", cluster.rank, cluster.host);
	/* Rank 0 speaks for the job: the others print nothing. */
	if (cluster.rank != 0 && (fd = open("/dev/null", O_WRONLY)) >= 0) {
		fflush(stdout);
		(void)dup2(fd, STDOUT_FILENO);
		(void)close(fd);
	}
}

/* Join the job if a launcher started us; see cluster.h. */
void
cluster_init(const char *name)
{
	if (!cluster.active && cluster_launched())
		cluster_start(name);
}

/* 1 in a rank of an MPI job. */
int
cluster_active(void)
{
	return cluster.active;
}

/* This rank. */
int
cluster_rank(void)
{
	return cluster.rank;
}

/* The number of ranks. */
int
cluster_size(void)
{
	return cluster.size;
}

/* "rank N on HOST: " beside other ranks, else "". */
const char *
cluster_where(void)
{
	return cluster.where;
}

/* This build has MPI. */
const char *
cluster_feature(void)
{
	return "mpi";
}

/* End MPI in order, once, in the process that started it. */
void
cluster_finish(void)
{
	if (!cluster.active || cluster.pid != getpid())
		return;
	cluster.mpi->finalize();
}

/* Leave the job: in order, or by aborting it; see cluster.h. */
void
cluster_exit(int status, int agreed)
{
	if (!cluster.active || cluster.pid != getpid())
		exit(status);
	if (status == 0 || agreed || cluster.size == 1) {
		cluster_finish();
		exit(status);
	}
	fflush(NULL);
	cluster.mpi->abort(status);
	exit(status);
}

/* Monotonic time in s. */
static double
cluster_now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether every rank says yes; see cluster.h.  The reduction is
 * non-blocking so that the wait is bounded: a rank that does not come
 * (out of step, or gone) ends the job rather than hanging it.
 */
int
cluster_all(int yes)
{
	struct timespec nap = { 0, 1000000 };
	int in = yes != 0, out = 0, done = 0;
	struct bm__mpi_req *req;
	double deadline;

	if (!cluster.active || cluster.size == 1 || cluster.pid != getpid())
		return in;
	if (cluster.mpi->iallreduce(&in, &out, 1, BM__MPI_LAND, &req) != 0) {
		fprintf(stderr, "%s: %sMPI failed to agree with the other "
		    "ranks\n", cluster.name, cluster.where);
		cluster_exit(1, 0);
	}
	deadline = cluster_now_s() + CLUSTER_AGREE_TIMEOUT_S;
	for (;;) {
		if (cluster.mpi->test(req, &done) != 0) {
			fprintf(stderr, "%s: %sMPI failed while agreeing with "
			    "the other ranks\n", cluster.name, cluster.where);
			cluster_exit(1, 0);
		}
		if (done)
			return out;
		if (cluster_now_s() >= deadline) {
			fprintf(stderr, "%s: %sthe other ranks did not come to "
			    "agree within %d s\n", cluster.name,
			    cluster.where, CLUSTER_AGREE_TIMEOUT_S);
			cluster_exit(1, 0);
		}
		(void)nanosleep(&nap, NULL);
	}
}

/* Join a's and b's text into a new string; NULL without memory. */
static char *
cluster_concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);

	if (s != NULL) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb + 1);
	}
	return s;
}

/*
 * Put members before the others of a record: json is "{...}\n", members
 * is "\"k\":v," and the result "{members...}\n".
 */
static char *
cluster_prefix(const char *json, const char *members)
{
	char *head = cluster_concat("{", members), *s;

	if (head == NULL)
		return NULL;
	s = cluster_concat(head, json + 1);
	free(head);
	return s;
}

/*
 * Gather LEN bytes from every rank on rank 0 (a collective): *all gets
 * them end to end in rank order, followed by a NUL, and *lens (when not
 * NULL) each rank's byte count; both stay NULL on other ranks.  The caller
 * frees them, after a failure too.
 */
static int
cluster_gather_bytes(const void *mine, int len, char **all, int **lens)
{
	int *n = NULL, *offs = NULL, total = 0, i, rc = 0;

	*all = NULL;
	if (cluster.rank == 0) {
		n = calloc((size_t)cluster.size, sizeof *n);
		offs = calloc((size_t)cluster.size, sizeof *offs);
		if (n == NULL || offs == NULL)
			rc = -ENOMEM;
	}
	if (rc == 0 && cluster.mpi->gather(&len, 1, BM__MPI_INT, n, 0) != 0)
		rc = -EPROTO;
	if (rc == 0 && cluster.rank == 0) {
		for (i = 0; i < cluster.size; i++) {
			offs[i] = total;
			total += n[i];
		}
		if ((*all = malloc((size_t)total + 1)) == NULL)
			rc = -ENOMEM;
	}
	if (rc == 0 && cluster.mpi->gatherv(mine, len, *all, n, offs, 0) != 0)
		rc = -EPROTO;
	if (rc == 0 && *all != NULL)
		(*all)[total] = '\0';
	if (lens != NULL)
		*lens = n;
	else
		free(n);
	free(offs);
	return rc;
}

/* What each rank sends beside its samples. */
enum {
	CL_VALUE,
	CL_PARALLEL,
	CL_OPS_PER_S,
	CL_WALL_S,
	CL_NSAMPLES,
	CL_PROCESSES,
	CL_REPETITIONS,
	CL_NFIGURES
};

/*
 * Gather every rank's samples on rank 0 (a collective), in rank order;
 * each rank's count is in figs.  Results of one tool on one
 * architecture: bm_sample travels as bytes.
 */
static int
cluster_gather_samples(const bm_result *r, bm_sample **out)
{
	char *all;
	int rc;

	rc = cluster_gather_bytes(r->samples,
	    (int)(r->nsamples * sizeof(bm_sample)), &all, NULL);
	*out = (bm_sample *)(void *)all;
	return rc;
}

/*
 * Make agg the job's record over all (bm_record_join): every rank's
 * result rebuilt from its figures and its part of the gathered samples,
 * so that the library joins them as it joins the workers of one run.
 */
static int
cluster_join(bm_record *agg, const double *figs, bm_sample *samples,
    bm_result *all)
{
	bm_result *parts;
	size_t at = 0;
	int i, rc;

	if ((parts = calloc((size_t)cluster.size, sizeof *parts)) == NULL)
		return -ENOMEM;
	for (i = 0; i < cluster.size; i++) {
		const double *f = &figs[i * CL_NFIGURES];

		parts[i].samples = samples + at;
		parts[i].nsamples = (size_t)f[CL_NSAMPLES];
		parts[i].parallel = (unsigned)f[CL_PARALLEL];
		parts[i].processes = (unsigned)f[CL_PROCESSES];
		parts[i].repetitions = (unsigned)f[CL_REPETITIONS];
		parts[i].ops_per_s = f[CL_OPS_PER_S];
		parts[i].wall_s = f[CL_WALL_S];
		parts[i].warmup_us = agg->result->warmup_us;
		parts[i].enough_us = agg->result->enough_us;
		at += parts[i].nsamples;
	}
	rc = bm_record_join(agg, all, parts, (size_t)cluster.size);
	free(parts);
	return rc;
}

/* Order doubles for qsort. */
static int
cluster_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Give the aggregate agg the median over ranks of each numeric measured
 * param (mfigs: per rank, the count then the numbers), in
 * cluster_measured.  Ranks that disagree on the count (a tool that
 * measured something on one rank only) leave rank 0's params as they
 * are, and so does a number some rank did not have (not finite).
 */
static void
cluster_merge_measured(bm_record *agg, const double *mfigs)
{
	double y, *x;
	size_t i, n, m = agg->nmeasured;
	int r;

	if (m == 0 || m > CLUSTER_MEASURED_MAX)
		return;
	for (r = 0; r < cluster.size; r++)
		if (mfigs[r * (CLUSTER_MEASURED_MAX + 1)] != (double)m)
			return;
	if ((x = malloc((size_t)cluster.size * sizeof *x)) == NULL)
		return;
	for (i = 0; i < m; i++) {
		cluster_measured[i] = agg->measured[i];
		if (agg->measured[i].str != NULL)
			continue;
		for (n = 0, r = 0; r < cluster.size; r++) {
			y = mfigs[r * (CLUSTER_MEASURED_MAX + 1) + 1 + i];
			if (isfinite(y))
				x[n++] = y;
		}
		if (n < (size_t)cluster.size)
			continue;
		qsort(x, n, sizeof *x, cluster_cmp);
		cluster_measured[i].num = n % 2 ? x[n / 2] :
		    (x[n / 2 - 1] + x[n / 2]) / 2;
	}
	free(x);
	agg->measured = cluster_measured;
}

/* Append a JSON string of a host name (letters, digits, '-', '.') to s. */
static void
cluster_json_host(char *s, size_t len, const char *host)
{
	size_t n = strlen(s);
	const char *p;

	if (n + 3 >= len)
		return;
	s[n++] = '"';
	for (p = host; *p != '\0' && n + 3 < len; p++)
		if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
			s[n++] = *p;
	s[n++] = '"';
	s[n] = '\0';
}

/*
 * The "hosts" member of the aggregate: every rank's host once, in rank
 * order, from the hosts gathered in rank order.
 */
static char *
cluster_hosts_member(const char *hosts)
{
	size_t len = (size_t)cluster.size * (CLUSTER_HOST_MAX + 4) + 64;
	char *s = malloc(len);
	int i, j, dup;

	if (s == NULL)
		return NULL;
	(void)snprintf(s, len, "\"aggregate\":true,\"ranks\":%d,\"hosts\":[",
	    cluster.size);
	for (i = 0; i < cluster.size; i++) {
		const char *h = hosts + (size_t)i * CLUSTER_HOST_MAX;

		for (dup = 0, j = 0; j < i && !dup; j++)
			dup = strcmp(h, hosts + (size_t)j * CLUSTER_HOST_MAX) ==
			    0;
		if (dup)
			continue;
		if (s[strlen(s) - 1] != '[')
			(void)strncat(s, ",", len - strlen(s) - 1);
		cluster_json_host(s, len, h);
	}
	(void)strncat(s, "],", len - strlen(s) - 1);
	return s;
}

/* Build rank 0's text: every rank's record, then the aggregate's. */
static int
cluster_aggregate_text(bm_ctx *ctx, bm_record *rec, const char *ranks,
    const double *figs, const double *mfigs, bm_sample *samples,
    const char *hosts, char **json)
{
	bm_record agg = *rec;
	bm_result all;
	char *aj = NULL, *members = NULL, *tail = NULL;
	int rc;

	/* Events and single operations stay in the ranks' own records. */
	if ((rc = cluster_join(&agg, figs, samples, &all)) != 0)
		return rc;
	cluster_merge_measured(&agg, mfigs);
	rc = bm_record_json(ctx, &agg, &aj);
	bm_result_free(&all);
	if (rc != 0)
		return rc;
	if ((members = cluster_hosts_member(hosts)) == NULL ||
	    (tail = cluster_prefix(aj, members)) == NULL ||
	    (*json = cluster_concat(ranks, tail)) == NULL)
		rc = -ENOMEM;
	free(aj);
	free(members);
	free(tail);
	if (rc == 0) {
		rec->value = agg.value;
		rec->measured = agg.measured;
	}
	return rc;
}

/* Gather a result from every rank on rank 0; see cluster.h. */
int
cluster_aggregate(bm_ctx *ctx, bm_record *rec, char **json)
{
	const bm_result *r = rec->result;
	double mine[CL_NFIGURES], *figs = NULL;
	double mm[CLUSTER_MEASURED_MAX + 1], *mfigs = NULL;
	char members[64], *own = NULL, *tagged = NULL, *ranks = NULL;
	char *hosts = NULL;
	bm_sample *samples = NULL;
	size_t i;
	int rc;

	*json = NULL;
	mm[0] = rec->nmeasured <= CLUSTER_MEASURED_MAX ?
	    (double)rec->nmeasured : -1;
	for (i = 0; i < CLUSTER_MEASURED_MAX; i++)
		mm[1 + i] = i < rec->nmeasured && rec->measured[i].str == NULL ?
		    rec->measured[i].num : (double)NAN;
	if ((rc = bm_record_json(ctx, rec, &own)) != 0)
		return rc;
	(void)snprintf(members, sizeof members,
	    "\"rank\":%d,\"ranks\":%d,\"aggregate\":false,", cluster.rank,
	    cluster.size);
	if ((tagged = cluster_prefix(own, members)) == NULL)
		rc = -ENOMEM;
	mine[CL_VALUE] = rec->value;
	mine[CL_PARALLEL] = r->parallel;
	mine[CL_OPS_PER_S] = r->ops_per_s;
	mine[CL_WALL_S] = r->wall_s;
	mine[CL_NSAMPLES] = (double)r->nsamples;
	mine[CL_PROCESSES] = r->processes > 0 ? r->processes : 1;
	mine[CL_REPETITIONS] = r->repetitions;
	if (rc == 0 && cluster.rank == 0 &&
	    ((figs = calloc((size_t)cluster.size * CL_NFIGURES,
	    sizeof *figs)) == NULL ||
	    (hosts = calloc((size_t)cluster.size, CLUSTER_HOST_MAX)) == NULL ||
	    (mfigs = calloc((size_t)cluster.size * (CLUSTER_MEASURED_MAX + 1),
	    sizeof *mfigs)) == NULL))
		rc = -ENOMEM;
	/*
	 * A rank that failed here cannot tell the others, who wait in the
	 * gathers below: the caller aborts the job (cluster_exit).
	 */
	if (rc == 0)
		rc = cluster_gather_bytes(tagged, (int)strlen(tagged), &ranks,
		    NULL);
	if (rc == 0 && cluster.mpi->gather(mine, CL_NFIGURES, BM__MPI_DOUBLE,
	    figs, 0) != 0)
		rc = -EPROTO;
	if (rc == 0 && cluster.mpi->gather(mm, CLUSTER_MEASURED_MAX + 1,
	    BM__MPI_DOUBLE, mfigs, 0) != 0)
		rc = -EPROTO;
	if (rc == 0 && cluster.mpi->gather(cluster.host, CLUSTER_HOST_MAX,
	    BM__MPI_CHAR, hosts, 0) != 0)
		rc = -EPROTO;
	if (rc == 0)
		rc = cluster_gather_samples(r, &samples);
	if (rc == 0 && cluster.rank == 0)
		rc = cluster_aggregate_text(ctx, rec, ranks, figs, mfigs,
		    samples, hosts, json);
	free(own);
	free(tagged);
	free(ranks);
	free(figs);
	free(mfigs);
	free(hosts);
	free(samples);
	return rc;
}
