/* error.c: names of error codes, the version string and error details. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The library's own error codes, in enum order from BM_EPARSE. */
static const char *const error_names[] = {
	"malformed value",			/* BM_EPARSE */
	"value out of range",			/* BM_ERANGE */
	"unknown word in configuration",	/* BM_ECONFIG */
	"no usable timer",			/* BM_ENOTIMER */
	"not supported on this machine",	/* BM_ENOTSUP */
	"a worker process died",		/* BM_ECHILD */
	"a worker did not answer in time",	/* BM_ETIMEDOUT */
	"a worker sent a malformed record",	/* BM_EPROTO */
	"interrupted by a signal",		/* BM_EINTR */
	"the benchmark reported failure",	/* BM_EBENCH */
	"calibration failed",			/* BM_ECALIB */
	"an MPI rank failed",			/* BM_ERANK */
	"the overheads swallow the measurement",	/* BM_EOVERHEAD */
	"the benchmark takes no measurable time"	/* BM_ENOTIME */
};

/* Name an error code: one of ours, a negated errno, or success. */
const char *
bm_strerror(int err)
{
	int idx;

	if (err == 0)
		return "success";
	if (err <= BM_EPARSE && err >= BM_ENOTIME) {
		idx = BM_EPARSE - err;
		return error_names[idx];
	}
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}

/* Return the library's version string. */
const char *
bm_version(void)
{
	return PACKAGE_VERSION;
}

/* dlerror()'s reason for file, without the file's name it often starts with. */
const char *
bm__dl_reason(const char *file, const char *why)
{
	size_t n = strlen(file);

	if (why == NULL)
		return "unknown error";
	if (strncmp(why, file, n) == 0 && strncmp(why + n, ": ", 2) == 0)
		return why + n + 2;
	return why;
}

/* Keep the detail of an error on the context and return the code. */
int
bm__fail(bm_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	if (ctx == NULL)
		return err;
	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
	va_end(ap);
	return err;
}
