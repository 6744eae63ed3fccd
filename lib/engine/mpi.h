/* mpi.h: the MPI calls of a run across ranks, from a module loaded when MPI starts. */
#ifndef BM_ENGINE_MPI_H
#define BM_ENGINE_MPI_H

#include <stddef.h>

/*
 * A build with MPI (--with-mpi) puts every MPI call in one module,
 * benchmp-mpi.so (mpi-module.c), which alone links the MPI libraries; a
 * tool loads it when a launcher started it as a rank (cluster_init), a
 * program of its own that has MPI at its first bm_run (meet-mpi.c), and a
 * tool run by hand never does.  Linked into the tools instead, Open MPI's
 * libraries (libmpi, libopen-rte, libopen-pal, hwloc, libevent, ...) made
 * every tool start 2.7 ms later and lat_proc fork, which measures
 * process creation, 36% slower on a 2-vCPU AMD EPYC KVM guest
 * (doc/measurements.md, "Decisions: MPI in a module").  The calls take
 * plain C types, so that nothing but the module sees mpi.h.
 */

/* The version of struct bm__mpi a module must give. */
#define BM__MPI_VERSION 1
/* The module's one exported name: a const struct bm__mpi. */
#define BM__MPI_SYMBOL "benchmp_mpi_module"
/* The module's file name, in pkglibdir (or the build tree's lib/.libs). */
#define BM__MPI_FILE "benchmp-mpi.so"

/* The element types and reductions used. */
enum bm__mpi_type { BM__MPI_INT, BM__MPI_DOUBLE, BM__MPI_CHAR, BM__MPI_BYTE };
enum bm__mpi_op { BM__MPI_MIN, BM__MPI_LAND };
/* A pending request (the module's MPI_Request). */
struct bm__mpi_req;

/* The calls, each on MPI_COMM_WORLD; 0 on MPI_SUCCESS, -1 otherwise. */
struct bm__mpi {
	unsigned version;	/* BM__MPI_VERSION */
	size_t size;		/* sizeof(struct bm__mpi) */
	int (*init)(void);
	/* 1 when MPI is initialised and not finalised. */
	int (*active)(void);
	int (*rank)(int *rank);
	int (*ranks)(int *size);
	/* MPI_Finalize, unless done. */
	void (*finalize)(void);
	void (*abort)(int status);
	/* A non-blocking reduction of n ints; *req is the request to test. */
	int (*iallreduce)(const int *in, int *out, int n, enum bm__mpi_op op,
	    struct bm__mpi_req **req);
	/* Test the request: *done 1 once complete, the request then freed. */
	int (*test)(struct bm__mpi_req *req, int *done);
	int (*gather)(const void *mine, int n, enum bm__mpi_type type,
	    void *all, int root);
	/* Bytes, lens[i] of them from rank i at offs[i] of all on root. */
	int (*gatherv)(const void *mine, int n, void *all, const int *lens,
	    const int *offs, int root);
	int (*bcast)(void *buf, int n, enum bm__mpi_type type, int root);
};

/*
 * Load the module, once: BENCHMP_MPI_MODULE names its file, else the
 * build tree's for a program run from there, else pkglibdir's.  The calls,
 * or NULL with the reason in err (len bytes).
 */
const struct bm__mpi *bm__mpi_load(char *err, size_t len);

/* The loaded module's calls, or NULL before bm__mpi_load succeeded. */
const struct bm__mpi *bm__mpi(void);

#endif /* BM_ENGINE_MPI_H */
