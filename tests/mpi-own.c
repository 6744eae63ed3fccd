/*
 * mpi-own.c: a program of its own that links MPI and libbenchmp and calls
 * MPI_Init() (benchmp(3), MPI): bm_run() meets the other ranks through
 * the library's MPI module.  The last rank's benchmark fails; every rank
 * must then get BM_ERANK naming it, which only a meeting can tell rank 0.
 * Prints "rank R: CODE MESSAGE" on each rank; exit 0 when the rank got
 * BM_ERANK, 1 otherwise.  With the argument no-init it never calls
 * MPI_Init() and exits 0 when its run succeeds: such a program is not
 * affected, whatever becomes of the module.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "benchmp.h"

static int failing;

static int
bench(bm_iter_t n, void *cookie)
{
	(void)cookie;
	if (failing)
		return -1;
	while (n-- > 0)
		(void)getppid();
	return 0;
}

int
main(int argc, char **argv)
{
	bm_bench b = { .benchmark = bench };
	bm_options o;
	bm_result r;
	bm_ctx *ctx;
	int rank = 0, size = 1, err, init = argc < 2 ||
	    strcmp(argv[1], "no-init") != 0;

	if (init && MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "mpi-own: cannot start MPI\n");
		return 2;
	}
	if (init) {
		(void)MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		(void)MPI_Comm_size(MPI_COMM_WORLD, &size);
	}
	failing = size > 1 && rank == size - 1;
	if ((err = bm_ctx_new(&ctx)) != 0) {
		fprintf(stderr, "mpi-own: %s\n", bm_strerror(err));
		if (init)
			MPI_Abort(MPI_COMM_WORLD, 2);
		return 2;
	}
	bm_options_init(&o);
	o.processes = 1;
	o.repetitions = 3;
	o.enough_us = 1000;
	err = bm_run(ctx, &b, &o, &r);
	printf("rank %d: %d %s\n", rank, err, err != 0 ? bm_ctx_errmsg(ctx) :
	    "");
	if (err == 0)
		bm_result_free(&r);
	bm_ctx_free(ctx);
	if (!init)
		return err == 0 ? 0 : 1;
	MPI_Finalize();
	return err == BM_ERANK ? 0 : 1;
}
