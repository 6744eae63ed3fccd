/* meet-none.c: the meetings of MPI ranks in a build without MPI: none. */
#include "config.h"

#include "internal.h"

/* Without MPI there is one process and nobody to meet: rc stands. */
int
bm__meet(bm_ctx *ctx, int rc, unsigned run, uint64_t timeout_ns,
    int *more, const char *where)
{
	(void)ctx;
	(void)more;
	(void)run;
	(void)timeout_ns;
	(void)where;
	return rc;
}
