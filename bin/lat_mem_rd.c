/* lat_mem_rd.c: memory read latency by pointer chasing, as lmbench's lat_mem_rd. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/mem.h"
#include "common/progress.h"
#include "common/sweep.h"

/* The smallest size of a sweep, as lmbench. */
#define LMR_LOWER 512
/* The most strides one run takes. */
#define LMR_MAX_STRIDES 64
/* The most load processes. */
#define LMR_MAX_LOAD 256

enum {
	LMR_OPT_LOAD = TOOL_OPT_BASE,
	LMR_OPT_ROLE
};

static const struct option lmr_long[] = {
	{ "random", no_argument, NULL, 'r' },
	{ "load", required_argument, NULL, LMR_OPT_LOAD },
	{ "role", required_argument, NULL, LMR_OPT_ROLE },
	{ NULL, 0, NULL, 0 }
};

/* --role: the one point of each stride's sweep measured, or all. */
enum lmr_role { LMR_ROLE_ALL, LMR_ROLE_L1, LMR_ROLE_L2, LMR_ROLE_TOP };
static const char *const lmr_role_names[] = { "", "L1", "L2", "top" };

/*
 * The order rule of a sweep's roles (the points benchmp-run's summary
 * takes as lmbench's columns): "L1" the largest size at most half the
 * first level, "L2" the largest above the first level and at most half
 * the second, "main mem" the largest.  A later role's latency below an
 * earlier one's contradicts the order of the levels; the later point's
 * record says so with both numbers (the earlier one is already out).
 */
struct lmr_roles {
	size_t l1, l2, top;	/* their sizes; 0 where there is none */
	double l1_ns, l2_ns;	/* their latencies once measured, else 0 */
	bm_contradiction c;
	char what[32], source[64];
};

/* The options of lat_mem_rd. */
struct lmr_opts {
	int order;		/* the chase order chosen by -t or -r */
	unsigned load;		/* --load: processes streaming meanwhile */
	enum lmr_role role;	/* --role: one point a stride, or all */
};
/* The load processes, stopped by the cleanup hook on every exit. */
static struct mem_load lmr_loaders;

/* Take -t, -r and --load. */
static void
lmr_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct lmr_opts *o = cookie;
	int order = opt == 't' ? MEM_ORDER_PAGE : MEM_ORDER_RANDOM, r;

	switch (opt) {
	case 't':
	case 'r':
		/* Two orders in one run: refuse rather than let the last win. */
		if (o->order != MEM_ORDER_STRIDE && o->order != order)
			tool_exit_usage(t, "-t and -r are two chase orders: "
			    "give one");
		o->order = order;
		break;
	case LMR_OPT_LOAD:
		o->load = (unsigned)tool_uint(t, "--load", arg, 1,
		    LMR_MAX_LOAD);
		break;
	case LMR_OPT_ROLE:
		for (r = LMR_ROLE_L1; r <= LMR_ROLE_TOP; r++)
			if (strcmp(arg, lmr_role_names[r]) == 0)
				break;
		if (r > LMR_ROLE_TOP)
			tool_exit_usage(t, "--role: '%s' is not L1, L2 or top",
			    arg);
		o->role = (enum lmr_role)r;
		break;
	default:
		tool_exit_usage(t, "unexpected option");
	}
}

/* Stop the load processes. */
static void
lmr_cleanup(void)
{
	mem_load_stop(&lmr_loaders);
}

/* Fail (exit 1) when a load process died or was stopped. */
static void
lmr_check_load(struct tool *t)
{
	char why[256];

	if (mem_load_check(&lmr_loaders, why, sizeof why) != 0)
		tool_exit_fail(t, "%s", why);
}

/* The record's case name for the chase order. */
static const char *
lmr_case(int order)
{
	return order == MEM_ORDER_RANDOM ? "random" :
	    order == MEM_ORDER_PAGE ? "page" : "stride";
}

/*
 * Check a point against the roles before it (lmr_roles) and note its own
 * latency when it is one: 1 when it contradicts their order (ro->c
 * filled), else 0.
 */
static int
lmr_order(struct tool *t, struct lmr_roles *ro, size_t size, double ns)
{
	const char *name = size == ro->l2 ? "L2" : "main mem";
	double ref = ro->l2_ns > 0 && size != ro->l2 ? ro->l2_ns : ro->l1_ns;
	size_t refsize = ro->l2_ns > 0 && size != ro->l2 ? ro->l2 : ro->l1;
	int rc = 0;

	if (size == ro->l1)
		ro->l1_ns = ns;
	if ((size == ro->l2 || size == ro->top) && size != ro->l1 &&
	    ref > 0) {
		snprintf(ro->what, sizeof ro->what, "%s latency", name);
		snprintf(ro->source, sizeof ro->source, "lat_mem_rd %s "
		    "(%zu bytes)", refsize == ro->l1 ? "L1" : "L2", refsize);
		rc = bm_contradiction_check(&ro->c, ro->what, ns, ref, 1,
		    INFINITY, ro->source, "ns");
		if (rc < 0)
			tool_exit_lib(t, rc, "checking the levels' order");
	}
	if (size == ro->l2)
		ro->l2_ns = ns;
	return rc;
}

/* Lay out the chase of one size and stride. */
static void
lmr_chase(struct mem_chase *c, const struct lmr_opts *o,
    const struct mem_topo *tp, size_t size, size_t stride)
{
	memset(c, 0, sizeof *c);
	c->size = size;
	c->stride = stride;
	c->page = tp->page;
	c->order = o->order;
	c->k = 1;
}

/*
 * Print the point measured in r (its result freed) as "MB ns" and its
 * record; mbps is what the load moved meanwhile, next the point after it
 * (0 if none), named by a cut sweep's last record.
 */
static void
lmr_report(struct tool *t, const struct lmr_opts *o,
    const struct mem_topo *tp, size_t size, size_t stride, size_t len,
    size_t next, struct progress *prog, struct lmr_roles *ro,
    const struct sweep *sw, bm_result *r, double mbps)
{
	bm_param params[13];
	bm_record rec;
	char prefix[64];
	int rc;
	size_t np = 0, nm;

	params[np++] = (bm_param){ .key = "size", .num = (double)size };
	params[np++] = (bm_param){ .key = "stride", .num = (double)stride };
	params[np++] = (bm_param){ .key = "len", .num = (double)len };
	params[np++] = (bm_param){ .key = "l1d", .num = (double)tp->l1d };
	params[np++] = (bm_param){ .key = "llc", .num = (double)tp->llc };
	params[np++] = (bm_param){ .key = "llc_reported",
	    .num = (double)tp->llc_reported };
	params[np++] = (bm_param){ .key = "topology", .str = tp->source };
	params[np++] = (bm_param){ .key = "load", .num = (double)o->load };
	/* What the load processes moved is measured, not asked. */
	nm = o->load > 0;
	params[np] = (bm_param){ .key = "load_mbps", .num = mbps };
	if (sw->cut) {
		params[np + nm++] = (bm_param){ .key = "points",
		    .num = (double)sw->done };
		params[np + nm++] = (bm_param){ .key = "points_planned",
		    .num = (double)sw->planned };
		params[np + nm++] = (bm_param){ .key = "missing_from",
		    .num = (double)next };
	}
	if (o->role != LMR_ROLE_ALL)
		params[np + nm++] = (bm_param){ .key = "role",
		    .str = lmr_role_names[o->role] };
	if ((rc = bm_record_latency(&rec, t->name, lmr_case(o->order), "ns",
	    r)) != 0)
		tool_exit_lib(t, rc, "building the record");
	rec.params = params;
	rec.nparams = np;
	rec.measured = params + np;
	rec.nmeasured = nm;
	if (lmr_order(t, ro, size, rec.value) > 0)
		(void)bm_record_contradicts(&rec, &ro->c, 1);
	progress_clear(prog);
	snprintf(prefix, sizeof prefix, "%.5f ",
	    (double)size / (1024.0 * 1024.0));
	tool_report_value(t, &rec, prefix, 3, "");
	bm_result_free(r);
}

/*
 * Measure one size and stride and print it (lmr_report).  Returns 1 when
 * the sweep goes on (sweep_point).
 */
static int
lmr_point(struct tool *t, const struct lmr_opts *o,
    const struct mem_topo *tp, size_t size, size_t stride, size_t len,
    size_t next, struct progress *prog, struct lmr_roles *ro,
    struct sweep *sw)
{
	struct mem_chase c;
	bm_result r;
	uint64_t b0 = 0;
	double t0 = 0, mbps = 0;
	int more;

	lmr_chase(&c, o, tp, size, stride);
	if (o->load > 0) {
		lmr_check_load(t);
		b0 = mem_load_bytes(&lmr_loaders);
		t0 = mem_load_now();
	}
	mem_chase_measure(t, &c, &r);
	if (o->load > 0) {
		/* A load that ended meanwhile voids this point too. */
		lmr_check_load(t);
		mbps = (double)(mem_load_bytes(&lmr_loaders) - b0) / 1e6 /
		    (mem_load_now() - t0);
	}
	/* The last point of a cut sweep says so, and what is missing. */
	more = sweep_point(t, sw, r.budget_hit);
	if (sw->cut)
		r.budget_hit = 1;
	lmr_report(t, o, tp, size, stride, len, next, prog, ro, sw, &r, mbps);
	return more;
}

/*
 * Served by a scheduler (and without --load), a stride's points from
 * size on form groups of up to BM_MAX_GROUP, each point's chain over the
 * start of one buffer of len bytes that each worker maps once: the
 * scheduler visits them on one set of workers, where each point's own
 * set would fault its own buffer again (benchmp-sched(1), burst=).
 * Prints them in order as lmr_point() does; returns the size after the
 * last.
 */
static size_t
lmr_group(struct tool *t, const struct lmr_opts *o,
    const struct mem_topo *tp, size_t size, size_t stride, size_t len,
    struct progress *prog, struct lmr_roles *ro, struct sweep *sw)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct mem_chase c[BM_MAX_GROUP];
	static bm_result r[BM_MAX_GROUP];
	size_t sizes[BM_MAX_GROUP], n = 0, i;
	int hit = 0;

	for (; n < BM_MAX_GROUP && size <= len;
	    size = mem_topo_next_size(size)) {
		sizes[n] = size;
		lmr_chase(&c[n++], o, tp, size, stride);
	}
	progress_show(prog, "%zu sizes, stride %zu (%zu/%zu)", n, stride,
	    sw->done + n, sw->planned);
	mem_chase_group(t, c, n, (len + tp->page - 1) / tp->page * tp->page,
	    r);
	for (i = 0; i < n; i++)
		hit = hit || r[i].budget_hit;
	(void)sweep_group(sw, n, hit);
	for (i = 0; i < n; i++)
		lmr_report(t, o, tp, sizes[i], stride, len, 0, prog, ro, sw,
		    &r[i], 0);
	return size;
}

/* Parse len_MB and the strides (default: the cache's line); returns the length. */
static size_t
lmr_parse(struct tool *t, int argc, char **argv, struct lmr_opts *o,
    struct mem_topo *tp, size_t *strides, size_t *nstrides)
{
	size_t len, i;
	int first;

	first = tool_parse(t, argc, argv, "tr", lmr_long, lmr_option, o);
	if (argc - first - 1 > LMR_MAX_STRIDES)
		tool_exit_usage(t, "too many strides (at most %d)",
		    LMR_MAX_STRIDES);
	mem_topo_detect(tp);
	/* Without a length, four times the last-level cache. */
	if (first < argc)
		len = (size_t)tool_uint(t, "len_MB", argv[first], 1,
		    MEM_MAX_LEN >> 20) << 20;
	else
		len = mem_topo_size(tp, 4, (size_t)8 << 20, (size_t)1 << 30);
	*nstrides = 0;
	for (i = first + 1; i < (size_t)argc; i++) {
		strides[*nstrides] = (size_t)tool_size(t, "stride", argv[i],
		    sizeof(void *), len);
		if (strides[*nstrides] % sizeof(void *) != 0)
			tool_exit_usage(t, "stride %s is not a multiple of "
			    "%zu bytes", argv[i], sizeof(void *));
		(*nstrides)++;
	}
	if (*nstrides == 0)
		strides[(*nstrides)++] = tp->line;
	return len;
}

/* The roles' sizes of a sweep at this stride (lmr_roles). */
static void
lmr_roles_find(const struct mem_topo *tp, size_t stride, size_t len,
    struct lmr_roles *ro)
{
	size_t size, l2 = tp->n > 1 ? tp->lv[1].size : 0;

	memset(ro, 0, sizeof *ro);
	for (size = LMR_LOWER; size <= len; size = mem_topo_next_size(size)) {
		if (size < stride)
			continue;
		if (size <= tp->l1d / 2)
			ro->l1 = size;
		if (size > tp->l1d && size <= l2 / 2)
			ro->l2 = size;
		ro->top = size;
	}
}

/* The size --role names among the roles (0: none), or size itself. */
static size_t
lmr_role_size(const struct lmr_roles *ro, enum lmr_role role, size_t size)
{
	switch (role) {
	case LMR_ROLE_L1:
		return ro->l1;
	case LMR_ROLE_L2:
		return ro->l2;
	case LMR_ROLE_TOP:
		return ro->top;
	default:
		return size;
	}
}

/*
 * The first size of a sweep at this stride (the grid from LMR_LOWER), or
 * with --role its one point.
 */
static size_t
lmr_first(const struct mem_topo *tp, size_t stride, size_t len,
    enum lmr_role role)
{
	struct lmr_roles ro;
	size_t size = LMR_LOWER;

	while (size < stride)
		size = mem_topo_next_size(size);
	if (role == LMR_ROLE_ALL)
		return size;
	lmr_roles_find(tp, stride, len, &ro);
	return lmr_role_size(&ro, role, size);
}

/* Measure every size up to len for each stride, one block of lines per stride. */
static void
lmr_sweep(struct tool *t, const struct lmr_opts *o, const struct mem_topo *tp,
    const size_t *strides, size_t nstrides, size_t len)
{
	struct progress prog;
	struct lmr_roles ro;
	struct sweep sw;
	size_t npoints = 0, point = 0, size, i, next = 0, nstride = 0;
	char sz[32];
	int more = 1;

	progress_start(&prog, t);
	for (i = 0; i < nstrides; i++) {
		lmr_roles_find(tp, strides[i], len, &ro);
		if (lmr_role_size(&ro, o->role, 1) == 0)
			tool_exit_usage(t, "--role=%s: no size up to %zu "
			    "bytes at stride %zu has that role here (L1 at "
			    "most half the first level, L2 above it and at "
			    "most half the second)", lmr_role_names[o->role],
			    len, strides[i]);
		for (size = LMR_LOWER; size <= len;
		    size = mem_topo_next_size(size))
			npoints += size >= strides[i] &&
			    lmr_role_size(&ro, o->role, size) == size;
	}
	sweep_begin(&sw, "points", npoints);
	for (i = 0; more && i < nstrides; i++) {
		progress_clear(&prog);
		if (!t->json)
			printf("\"stride=%zu\n", strides[i]);
		lmr_roles_find(tp, strides[i], len, &ro);
		if (tool_served_inside() && o->role == LMR_ROLE_ALL &&
		    o->load == 0) {
			size = lmr_first(tp, strides[i], len, o->role);
			while (size <= len)
				size = lmr_group(t, o, tp, size, strides[i],
				    len, &prog, &ro, &sw);
			progress_clear(&prog);
			if (!t->json)
				printf("\n");
			continue;
		}
		for (size = LMR_LOWER; more && size <= len;
		    size = mem_topo_next_size(size)) {
			if (size < strides[i] ||
			    lmr_role_size(&ro, o->role, size) != size)
				continue;
			progress_show(&prog, "%s, stride %zu (%zu/%zu)",
			    progress_size(sz, sizeof sz, (double)size),
			    strides[i], ++point, npoints);
			/* The point after this one, in this stride or the next. */
			next = mem_topo_next_size(size);
			nstride = strides[i];
			if (next > len || o->role != LMR_ROLE_ALL) {
				nstride = i + 1 < nstrides ? strides[i + 1] : 0;
				next = nstride > 0 ? lmr_first(tp, nstride, len,
				    o->role) : 0;
			}
			more = lmr_point(t, o, tp, size, strides[i], len, next,
			    &prog, &ro, &sw);
		}
		progress_clear(&prog);
		if (!t->json)
			printf("\n");
	}
	progress_clear(&prog);
	if (sw.cut) {
		snprintf(sz, sizeof sz, "size %zu at stride %zu", next,
		    nstride);
		sweep_say(t, &sw, sz);
	}
}

/* Sweep the sizes up to len MB for every stride. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_mem_rd",
		.args = "[-t|-r] [--load N] [--role R] [len_MB [stride...]]",
		.extra_usage = "  -t              chase lines shuffled within "
		    "each page, pages in order\n"
		    "  -r, --random    chase lines shuffled within each page, "
		    "pages shuffled\n"
		    "  --load=N        measure while N processes stream "
		    "memory\n"
		    "  --role=R        only the point of each stride's sweep "
		    "that is L1, L2 or top\n\n"
		    "Without -t or -r the chase goes forwards by a fixed "
		    "stride, as lmbench's.\nThe stride defaults to the cache "
		    "line size; strides take k/m suffixes.\n"
	};
	struct lmr_opts o = { MEM_ORDER_STRIDE, 0, LMR_ROLE_ALL };
	struct mem_topo tp;
	size_t strides[LMR_MAX_STRIDES], nstrides, len, load_size;
	uint64_t b0 = 0;
	double t0 = 0;
	char why[256];
	int rc;

	len = lmr_parse(&t, argc, argv, &o, &tp, strides, &nstrides);
	t.default_enough_us = MEM_ENOUGH_US;
	tool_setup(&t);
	mem_sweep_options(&t);
	load_size = mem_topo_size(&tp, 4, (size_t)64 << 20, (size_t)1 << 30);
	if (o.load > 0)
		mem_topo_fits(&t, len, t.opts.parallel, load_size, o.load);
	mem_topo_precheck(&t, len);

	if (o.load > 0) {
		t.cleanup = lmr_cleanup;
		rc = mem_load_start(&lmr_loaders, o.load, load_size, why,
		    sizeof why);
		if (rc != 0)
			tool_exit_fail(&t, "cannot start the load: %s", why);
		b0 = mem_load_bytes(&lmr_loaders);
		t0 = mem_load_now();
	}
	lmr_sweep(&t, &o, &tp, strides, nstrides, len);
	if (o.load > 0) {
		double mbps = (double)(mem_load_bytes(&lmr_loaders) - b0) /
		    1e6 / (mem_load_now() - t0);

		mem_load_stop(&lmr_loaders);
		if (!t.json)
			printf("load: %u workers %.2f MB/sec\n", o.load, mbps);
	}
	return tool_finish(&t);
}
