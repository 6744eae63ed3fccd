/* stream.c: McCalpin's STREAM kernels on the benchmp engine, as lmbench's stream. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "common/mem.h"

/* The scalar of scale, triad and daxpy. */
#define STREAM_SCALAR 3.0

/* One worker's arrays. */
struct stream_state {
	size_t n;		/* doubles per array */
	char *map;
	size_t maplen;
	double *a, *b, *c;
	volatile double sink;
};

/* lmbench's -v 1 copy: c = a. */
static int
stream_copy(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->c[i] = s->a[i];
		__asm__ volatile("" : : "r"(s->c) : "memory");
	}
	return 0;
}

/* scale: b = s * c. */
static int
stream_scale(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->b[i] = STREAM_SCALAR * s->c[i];
		__asm__ volatile("" : : "r"(s->b) : "memory");
	}
	return 0;
}

/* add: c = a + b. */
static int
stream_add(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->c[i] = s->a[i] + s->b[i];
		__asm__ volatile("" : : "r"(s->c) : "memory");
	}
	return 0;
}

/* triad: a = b + s * c. */
static int
stream_triad(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->a[i] = s->b[i] + STREAM_SCALAR * s->c[i];
		__asm__ volatile("" : : "r"(s->a) : "memory");
	}
	return 0;
}

/* -v 2 fill: a = s. */
static int
stream_fill(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->a[i] = STREAM_SCALAR;
		__asm__ volatile("" : : "r"(s->a) : "memory");
	}
	return 0;
}

/* -v 2 copy: a = b. */
static int
stream_copy2(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->a[i] = s->b[i];
		__asm__ volatile("" : : "r"(s->a) : "memory");
	}
	return 0;
}

/* -v 2 daxpy: a = a + s * b. */
static int
stream_daxpy(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			s->a[i] = s->a[i] + STREAM_SCALAR * s->b[i];
		__asm__ volatile("" : : "r"(s->a) : "memory");
	}
	return 0;
}

/* -v 2 sum: s += a. */
static int
stream_sum(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	double sum = 0;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < s->n; i++)
			sum += s->a[i];
		__asm__ volatile("" : : "r"(s->a) : "memory");
	}
	s->sink = sum;
	return 0;
}

/* Map and fill the three arrays. */
static int
stream_init(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;

	(void)n;
	s->maplen = 3 * s->n * sizeof(double);
	s->map = mmap(NULL, s->maplen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		return -errno;
	}
	s->a = (double *)(void *)s->map;
	s->b = s->a + s->n;
	s->c = s->b + s->n;
	for (i = 0; i < s->n; i++) {
		s->a[i] = 1.0;
		s->b[i] = 2.0;
		s->c[i] = 0.0;
	}
	return 0;
}

/* Unmap the arrays. */
static int
stream_cleanup(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;

	(void)n;
	if (s->map != NULL && munmap(s->map, s->maplen) != 0)
		return -errno;
	s->map = NULL;
	return 0;
}

static const struct stream_kernel {
	const char *name;
	bm_fn fn;
	unsigned arrays;	/* arrays moved per element: bytes / 8 */
} stream_v1[] = {
	{ "copy", stream_copy, 2 },
	{ "scale", stream_scale, 2 },
	{ "add", stream_add, 3 },
	{ "triad", stream_triad, 3 },
}, stream_v2[] = {
	{ "fill", stream_fill, 1 },
	{ "copy", stream_copy2, 2 },
	{ "daxpy", stream_daxpy, 3 },
	{ "sum", stream_sum, 1 },
};

/* Take -v and -M. */
struct stream_opts {
	unsigned version;	/* -v: 1 (STREAM) or 2 (STREAM2) */
	uint64_t len;		/* -M, or four times the last level */
};

/* Parse the tool's options. */
static void
stream_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct stream_opts *o = cookie;

	switch (opt) {
	case 'v':
		o->version = (unsigned)tool_uint(t, "-v", arg, 1, 2);
		break;
	case 'M':
		o->len = tool_size(t, "-M", arg, 3 * 1024, MEM_MAX_LEN);
		break;
	default:
		tool_usage_error(t, "unexpected option");
	}
}

/* Measure one kernel and print its latency and bandwidth lines. */
static void
stream_one(struct tool *t, struct stream_state *s,
    const struct stream_kernel *k, const struct mem_topo *tp,
    unsigned version)
{
	const char *label = version == 1 ? "STREAM" : "STREAM2";
	bm_param params[4];
	bm_record rec;
	bm_result r;
	bm_bench b;
	char line[128];
	int rc;
	double bytes = (double)s->n * 8.0 * k->arrays;

	b.initialize = stream_init;
	b.benchmark = k->fn;
	b.cleanup = stream_cleanup;
	b.cookie = s;
	tool_big_run(t, (uint64_t)(3 * s->n * sizeof(double)));
	tool_run(t, &b, &r);

	params[0] = (bm_param){ "len", NULL, (double)(s->n * sizeof(double)) };
	params[1] = (bm_param){ "version", NULL, (double)version };
	params[2] = (bm_param){ "llc", NULL, (double)tp->llc };
	params[3] = (bm_param){ "topology", tp->source, 0 };
	/* One operation is the kernel over all n elements. */
	if ((rc = bm_record_latency_per(&rec, t->name, k->name, "ns", &r,
	    (double)s->n, 0)) != 0)
		tool_lib_fail(t, rc, "building the record");
	rec.params = params;
	rec.nparams = 4;
	snprintf(line, sizeof line, "%s %s latency: ", label, k->name);
	tool_report_value(t, &rec, line, 2, " nanoseconds");

	tool_record_bw(&rec, t, k->name, params, 4, &r, bytes);
	snprintf(line, sizeof line, "%s %s bandwidth: ", label, k->name);
	tool_report_value(t, &rec, line, 2, " MB/sec");
	bm_result_free(&r);
}

/* Run the four kernels of the chosen version. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "stream",
		.args = "[-v 1|2] [-M len]",
		.extra_usage = "  -v 1|2          STREAM (copy, scale, add, "
		    "triad) or STREAM2 (fill, copy, daxpy, sum)\n"
		    "  -M len          bytes per array (k/m/g); default four "
		    "times the last-level cache\n"
	};
	const struct stream_kernel *ks;
	struct stream_state s;
	struct stream_opts o = { 1, 0 };
	struct mem_topo tp;
	size_t i;
	int first;

	first = tool_parse(&t, argc, argv, "v:M:", NULL, stream_option, &o);
	if (first < argc)
		tool_usage_error(&t, "unexpected argument '%s'", argv[first]);
	mem_topology(&tp);
	if (o.len == 0)
		o.len = mem_topo_size(&tp, 4, (size_t)8 << 20,
		    (size_t)1 << 30);
	memset(&s, 0, sizeof s);
	s.n = (size_t)(o.len / sizeof(double));
	tool_setup(&t);
	mem_precheck(&t, 3 * s.n * sizeof(double));
	ks = o.version == 1 ? stream_v1 : stream_v2;
	for (i = 0; i < 4; i++)
		stream_one(&t, &s, &ks[i], &tp, o.version);
	return tool_finish(&t);
}
