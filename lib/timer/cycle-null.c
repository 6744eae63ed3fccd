/* cycle-null.c: the cycle subtimer that counts nothing, the default. */
#include "config.h"

#include <stdio.h>

#include "internal.h"

/* Always works. */
static int
null_init(void **priv, char *detail, size_t len)
{
	*priv = NULL;
	snprintf(detail, len, "no cycle counts");
	return 0;
}

/* Count nothing. */
static uint64_t
null_now(void *priv)
{
	(void)priv;
	return 0;
}

const bm__subtimer_ops bm__cycle_null = {
	"null", BM_SUBTIMER_CYCLE, BM__ST_NODATA, "no cycle counts",
	null_init, null_now, NULL, NULL, NULL
};
