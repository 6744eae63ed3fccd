/* mpi-module.c: benchmp-mpi.so, the one object that links MPI (see mpi.h). */
#include "config.h"

#include <stdlib.h>

#include <mpi.h>

#include "engine/mpi.h"

/* The MPI datatype of a type. */
static MPI_Datatype
mod_type(enum bm__mpi_type type)
{
	switch (type) {
	case BM__MPI_INT:
		return MPI_INT;
	case BM__MPI_DOUBLE:
		return MPI_DOUBLE;
	case BM__MPI_CHAR:
		return MPI_CHAR;
	default:
		return MPI_BYTE;
	}
}

static int
mod_init(void)
{
	return MPI_Init(NULL, NULL) == MPI_SUCCESS ? 0 : -1;
}

static int
mod_active(void)
{
	int init = 0, fini = 0;

	if (MPI_Initialized(&init) != MPI_SUCCESS || !init)
		return 0;
	if (MPI_Finalized(&fini) != MPI_SUCCESS || fini)
		return 0;
	return 1;
}

static int
mod_rank(int *rank)
{
	return MPI_Comm_rank(MPI_COMM_WORLD, rank) == MPI_SUCCESS ? 0 : -1;
}

static int
mod_ranks(int *size)
{
	return MPI_Comm_size(MPI_COMM_WORLD, size) == MPI_SUCCESS ? 0 : -1;
}

static void
mod_finalize(void)
{
	int fini = 0;

	if (MPI_Finalized(&fini) == MPI_SUCCESS && !fini)
		(void)MPI_Finalize();
}

static void
mod_abort(int status)
{
	(void)MPI_Abort(MPI_COMM_WORLD, status);
}

static int
mod_iallreduce(const int *in, int *out, int n, enum bm__mpi_op op,
    struct bm__mpi_req **req)
{
	MPI_Request *r = malloc(sizeof(*r));

	*req = NULL;
	if (r == NULL)
		return -1;
	if (MPI_Iallreduce(in, out, n, MPI_INT, op == BM__MPI_MIN ? MPI_MIN :
	    MPI_LAND, MPI_COMM_WORLD, r) != MPI_SUCCESS) {
		free(r);
		return -1;
	}
	*req = (struct bm__mpi_req *)r;
	return 0;
}

static int
mod_test(struct bm__mpi_req *req, int *done)
{
	MPI_Request *r = (MPI_Request *)req;

	*done = 0;
	if (r == NULL || MPI_Test(r, done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return -1;
	if (*done)
		free(r);
	return 0;
}

static int
mod_gather(const void *mine, int n, enum bm__mpi_type type, void *all,
    int root)
{
	return MPI_Gather(mine, n, mod_type(type), all, n, mod_type(type),
	    root, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

static int
mod_gatherv(const void *mine, int n, void *all, const int *lens,
    const int *offs, int root)
{
	return MPI_Gatherv(mine, n, MPI_BYTE, all, lens, offs, MPI_BYTE, root,
	    MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

static int
mod_bcast(void *buf, int n, enum bm__mpi_type type, int root)
{
	return MPI_Bcast(buf, n, mod_type(type), root, MPI_COMM_WORLD) ==
	    MPI_SUCCESS ? 0 : -1;
}

/* The module's calls, found by name (BM__MPI_SYMBOL). */
extern const struct bm__mpi benchmp_mpi_module
    __attribute__((visibility("default")));
const struct bm__mpi benchmp_mpi_module = {
	BM__MPI_VERSION, sizeof(struct bm__mpi),
	mod_init, mod_active, mod_rank, mod_ranks, mod_finalize, mod_abort,
	mod_iallreduce, mod_test, mod_gather, mod_gatherv, mod_bcast
};
