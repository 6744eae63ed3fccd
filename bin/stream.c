/* stream.c: McCalpin's STREAM kernels on the benchmp engine, as lmbench's stream. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/mem.h"

/* The scalar of scale, triad and daxpy. */
#define STREAM_SCALAR 3.0

/* What a kernel does to element i of its destination d. */
enum stream_op {
	STREAM_FILL,		/* d = s */
	STREAM_COPY,		/* d = x */
	STREAM_SCALE,		/* d = s * x */
	STREAM_ADD,		/* d = x + y */
	STREAM_TRIAD,		/* d = x + s * y */
	STREAM_SUM		/* sum += x (d is x) */
};

/* The three arrays, by index into stream_state.arr. */
enum { STREAM_A, STREAM_B, STREAM_C };

/* One kernel: its operation and the arrays it works on. */
struct stream_kernel {
	const char *name;
	enum stream_op op;
	unsigned dst, x, y;	/* STREAM_A, _B or _C */
	unsigned arrays;	/* arrays moved per element: bytes / 8 */
};

/* lmbench's -v 1 (STREAM) and -v 2 (STREAM2) kernels. */
static const struct stream_kernel stream_v1[] = {
	{ "copy", STREAM_COPY, STREAM_C, STREAM_A, STREAM_A, 2 },
	{ "scale", STREAM_SCALE, STREAM_B, STREAM_C, STREAM_C, 2 },
	{ "add", STREAM_ADD, STREAM_C, STREAM_A, STREAM_B, 3 },
	{ "triad", STREAM_TRIAD, STREAM_A, STREAM_B, STREAM_C, 3 },
}, stream_v2[] = {
	{ "fill", STREAM_FILL, STREAM_A, STREAM_A, STREAM_A, 1 },
	{ "copy", STREAM_COPY, STREAM_A, STREAM_B, STREAM_B, 2 },
	{ "daxpy", STREAM_TRIAD, STREAM_A, STREAM_A, STREAM_B, 3 },
	{ "sum", STREAM_SUM, STREAM_A, STREAM_A, STREAM_A, 1 },
};

/* One worker's arrays and the kernel it runs. */
struct stream_state {
	size_t n;		/* doubles per array */
	char *map;
	size_t maplen;
	double *arr[3];		/* a, b, c */
	const struct stream_kernel *k;
	const struct stream_kernel *ks;	/* a group's: the version's four */
	volatile double sink;
};

/*
 * n passes of kernel s->k over all n elements: the operation is chosen
 * once a pass, each loop is the plain STREAM loop.
 */
static int
stream_run(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	const struct stream_kernel *k = s->k;
	double *d = s->arr[k->dst], sum = 0;
	const double *x = s->arr[k->x], *y = s->arr[k->y];
	size_t i, len = s->n;

	while (n-- > 0) {
		switch (k->op) {
		case STREAM_FILL:
			for (i = 0; i < len; i++)
				d[i] = STREAM_SCALAR;
			break;
		case STREAM_COPY:
			for (i = 0; i < len; i++)
				d[i] = x[i];
			break;
		case STREAM_SCALE:
			for (i = 0; i < len; i++)
				d[i] = STREAM_SCALAR * x[i];
			break;
		case STREAM_ADD:
			for (i = 0; i < len; i++)
				d[i] = x[i] + y[i];
			break;
		case STREAM_TRIAD:
			for (i = 0; i < len; i++)
				d[i] = x[i] + STREAM_SCALAR * y[i];
			break;
		case STREAM_SUM:
			for (i = 0; i < len; i++)
				sum += x[i];
			break;
		}
		__asm__ volatile("" : : "r"(d) : "memory");
	}
	s->sink = sum;
	return 0;
}

/*
 * A group's four benchmarks (served: the version's kernels on one set of
 * workers, its arrays filled once): kernel i of the version, each.  Each
 * kernel alone writes the same values every pass; alternating, they
 * carry each other's on (a triad after a scale after a copy), so the
 * values may grow to infinity or fall to zero, but being whole numbers
 * never become denormals, the values a processor computes slowly.
 */
static int
stream_run_at(bm_iter_t n, void *cookie, unsigned i)
{
	struct stream_state *s = cookie;

	s->k = &s->ks[i];
	return stream_run(n, cookie);
}

static int
stream_k0(bm_iter_t n, void *cookie)
{
	return stream_run_at(n, cookie, 0);
}

static int
stream_k1(bm_iter_t n, void *cookie)
{
	return stream_run_at(n, cookie, 1);
}

static int
stream_k2(bm_iter_t n, void *cookie)
{
	return stream_run_at(n, cookie, 2);
}

static int
stream_k3(bm_iter_t n, void *cookie)
{
	return stream_run_at(n, cookie, 3);
}

static const bm_fn stream_group_fns[4] = {
	stream_k0, stream_k1, stream_k2, stream_k3
};

/* Map and fill the three arrays. */
static int
stream_init(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;
	size_t i;
	int rc;

	(void)n;
	s->maplen = 3 * s->n * sizeof(double);
	if ((rc = mem_chase_map(s->maplen, &s->map)) != 0)
		return rc;
	s->arr[STREAM_A] = (double *)(void *)s->map;
	s->arr[STREAM_B] = s->arr[STREAM_A] + s->n;
	s->arr[STREAM_C] = s->arr[STREAM_B] + s->n;
	for (i = 0; i < s->n; i++) {
		s->arr[STREAM_A][i] = 1.0;
		s->arr[STREAM_B][i] = 2.0;
		s->arr[STREAM_C][i] = 0.0;
	}
	return 0;
}

/* Unmap the arrays. */
static int
stream_cleanup(bm_iter_t n, void *cookie)
{
	struct stream_state *s = cookie;

	(void)n;
	return mem_chase_unmap(&s->map, s->maplen);
}

/* Take -v, -M and -k. */
struct stream_opts {
	unsigned version;	/* -v: 1 (STREAM) or 2 (STREAM2) */
	uint64_t len;		/* -M, or four times the last level */
	const char *kernel;	/* -k: the one kernel to run, or NULL */
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
	case 'k':
		o->kernel = arg;
		break;
	default:
		tool_exit_usage(t, "unexpected option");
	}
}

/* Print kernel k's latency and bandwidth lines from its result rp. */
static void
stream_report(struct tool *t, struct stream_state *s,
    const struct stream_kernel *k, const struct mem_topo *tp,
    unsigned version, bm_result *rp)
{
	const char *label = version == 1 ? "STREAM" : "STREAM2";
	bm_param params[4];
	bm_record rec;
	char line[128];
	int rc;
	double bytes = (double)s->n * 8.0 * k->arrays;

	params[0] = (bm_param){ .key = "len",
	    .num = (double)(s->n * sizeof(double)) };
	params[1] = (bm_param){ .key = "version", .num = (double)version };
	params[2] = (bm_param){ .key = "llc", .num = (double)tp->llc };
	params[3] = (bm_param){ .key = "topology", .str = tp->source };
	/* One operation is the kernel over all n elements. */
	if ((rc = bm_record_latency_per(&rec, t->name, k->name, "ns", rp,
	    (double)s->n, 0)) != 0)
		tool_exit_lib(t, rc, "building the record");
	rec.params = params;
	rec.nparams = 4;
	snprintf(line, sizeof line, "%s %s latency: ", label, k->name);
	tool_report_value(t, &rec, line, 2, " nanoseconds");

	tool_record_bw(&rec, t, k->name, params, 4, rp, bytes);
	snprintf(line, sizeof line, "%s %s bandwidth: ", label, k->name);
	tool_report_value(t, &rec, line, 2, " MB/sec");
	bm_result_free(rp);
}

/* Measure one kernel and print its latency and bandwidth lines. */
static void
stream_one(struct tool *t, struct stream_state *s,
    const struct stream_kernel *k, const struct mem_topo *tp,
    unsigned version)
{
	bm_result r;
	bm_bench b;

	s->k = k;
	b.initialize = stream_init;
	b.benchmark = stream_run;
	b.cleanup = stream_cleanup;
	b.cookie = s;
	tool_big_run(t, (uint64_t)(3 * s->n * sizeof(double)));
	tool_run(t, &b, &r);
	stream_report(t, s, k, tp, version, &r);
}

/*
 * Served, the version's four kernels as one group: one set of workers,
 * its arrays filled once, serves them all.
 */
static void
stream_group(struct tool *t, struct stream_state *s,
    const struct stream_kernel *ks, const struct mem_topo *tp,
    unsigned version)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static bm_result r[4];
	bm_bench b[4];
	size_t i;

	s->ks = ks;
	s->k = &ks[0];
	for (i = 0; i < 4; i++) {
		b[i].initialize = stream_init;
		b[i].benchmark = stream_group_fns[i];
		b[i].cleanup = stream_cleanup;
		b[i].cookie = s;
	}
	tool_big_run(t, (uint64_t)(3 * s->n * sizeof(double)));
	tool_run_group(t, b, 4, r);
	for (i = 0; i < 4; i++)
		stream_report(t, s, &ks[i], tp, version, &r[i]);
}

/*
 * The kernel of ks (four) that -k names, its index; 4 for all of them
 * without -k.  Exits on a name the version does not have (checked once
 * -v is known, whatever the options' order).
 */
static size_t
stream_pick(struct tool *t, const struct stream_kernel *ks,
    const struct stream_opts *o)
{
	size_t i;

	if (o->kernel == NULL)
		return 4;
	for (i = 0; i < 4; i++)
		if (strcmp(o->kernel, ks[i].name) == 0)
			return i;
	tool_exit_usage(t, "-k: no kernel '%s' in STREAM%s (%s, %s, %s, %s)",
	    o->kernel, o->version == 1 ? "" : "2", ks[0].name, ks[1].name,
	    ks[2].name, ks[3].name);
	return 4;
}

/* Run the four kernels of the chosen version, or the one -k names. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "stream",
		.args = "[-v 1|2] [-M len] [-k kernel]",
		.extra_usage = "  -v 1|2          STREAM (copy, scale, add, "
		    "triad) or STREAM2 (fill, copy, daxpy, sum)\n"
		    "  -M len          bytes per array (k/m/g); default four "
		    "times the last-level cache\n"
		    "  -k kernel       run this kernel alone\n"
	};
	const struct stream_kernel *ks;
	struct stream_state s;
	struct stream_opts o = { 1, 0, NULL };
	struct mem_topo tp;
	size_t i, one;
	int first;

	first = tool_parse(&t, argc, argv, "v:M:k:", NULL, stream_option, &o);
	if (first < argc)
		tool_exit_usage(&t, "unexpected argument '%s'", argv[first]);
	ks = o.version == 1 ? stream_v1 : stream_v2;
	one = stream_pick(&t, ks, &o);
	mem_topo_detect(&tp);
	if (o.len == 0)
		o.len = mem_topo_size(&tp, 4, (size_t)8 << 20,
		    (size_t)1 << 30);
	memset(&s, 0, sizeof s);
	s.n = (size_t)(o.len / sizeof(double));
	tool_setup(&t);
	mem_topo_precheck(&t, 3 * s.n * sizeof(double));
	if (one == 4 && tool_served_inside())
		stream_group(&t, &s, ks, &tp, o.version);
	else
		for (i = 0; i < 4; i++)
			if (one == 4 || i == one)
				stream_one(&t, &s, &ks[i], &tp, o.version);
	return tool_finish(&t);
}
