/* mpi-load.c: load benchmp-mpi.so, the MPI calls of a rank (see mpi.h). */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "engine/mpi.h"

/* The loaded calls, NULL before. */
static const struct bm__mpi *mpi_calls;

/* The loaded calls; see mpi.h. */
const struct bm__mpi *
bm__mpi(void)
{
	return mpi_calls;
}

/*
 * Whether this program runs from the build tree (BM_MPI_BUILD_TOP): it
 * then takes that tree's module, not an installed one of another build.
 */
static int
mpi_in_build_tree(void)
{
	char exe[PATH_MAX];
	size_t top = strlen(BM_MPI_BUILD_TOP);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	return strncmp(exe, BM_MPI_BUILD_TOP, top) == 0 && exe[top] == '/';
}

/* Load the module once; see mpi.h. */
const struct bm__mpi *
bm__mpi_load(char *err, size_t len)
{
	const struct bm__mpi *m;
	const char *file = getenv("BENCHMP_MPI_MODULE");
	char path[PATH_MAX];
	void *lib;

	if (mpi_calls != NULL)
		return mpi_calls;
	if (file == NULL || *file == '\0') {
		(void)snprintf(path, sizeof(path), "%s/%s", mpi_in_build_tree() ?
		    BM_MPI_BUILD_TOP "/lib/.libs" : BM_MPI_MODULE_DIR,
		    BM__MPI_FILE);
		file = path;
	}
	/*
	 * Global: Open MPI's own components, loaded by MPI_Init, look for
	 * libmpi's symbols in the global scope.
	 */
	(void)dlerror();
	if ((lib = dlopen(file, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		(void)snprintf(err, len, "cannot load %s: %s", file,
		    bm__dl_reason(file, dlerror()));
		return NULL;
	}
	m = (const struct bm__mpi *)dlsym(lib, BM__MPI_SYMBOL);
	if (m == NULL || m->version != BM__MPI_VERSION ||
	    m->size != sizeof(*m)) {
		(void)snprintf(err, len, "%s is not this build's MPI module "
		    "(%s)", file, m == NULL ? "no " BM__MPI_SYMBOL :
		    "another version");
		(void)dlclose(lib);
		return NULL;
	}
	/* Kept loaded for the life of the process. */
	mpi_calls = m;
	return m;
}
