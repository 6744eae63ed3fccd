/* cache.c: the cache levels found by their latency, as lmbench's cache. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/figures.h"
#include "common/mem.h"
#include "common/cluster.h"
#include "common/progress.h"
#include "common/sweep.h"

/* The most sizes of a sweep (512 bytes to 1 TB in steps of 1.5 and 2). */
#define CACHE_MAX_POINTS 128
/* A new level starts where a load costs this much more than the level's best. */
#define CACHE_JUMP_RATIO 1.5
#define CACHE_JUMP_NS 0.5
/* While each size costs this much more than the one before, the curve is still rising. */
#define CACHE_RISE_RATIO 1.15
/* A level spans at least this many sizes (a factor of two). */
#define CACHE_MIN_POINTS 3
/* The most processes whose curves are read one by one. */
#define CACHE_MAX_PROCS 16
/*
 * The agreement of processes on a level.  Its size: within one step of
 * the sweep (1.5 or 1.33 apart), as the boundary is the last size below
 * a midpoint and a point at the cache's own size can fall either side.
 * Its latency: a range within sqrt(1.5) - 1 of the median, so that every
 * process's value is nearer this level than half-way (geometrically) to
 * a next one CACHE_JUMP_RATIO above.
 */
#define CACHE_SIZE_TOLERANCE 0.5
#define CACHE_LATENCY_TOLERANCE 0.2247

/* A sweep: its sizes, the median curve and each process's curve. */
struct cache_sweep {
	size_t n;
	size_t sizes[CACHE_MAX_POINTS];
	double lat[CACHE_MAX_POINTS];
	size_t np;
	double proc[CACHE_MAX_PROCS][CACHE_MAX_POINTS];
	double took[CACHE_MAX_POINTS];	/* each point's seconds */
	struct sweep sw;	/* the plan and the time bound */
	size_t next;		/* the first size not measured, if cut */
};

/* A cut of a curve into levels: each one's sizes and its boundary. */
struct cache_cut {
	size_t nseg;
	size_t start[CACHE_MAX_POINTS], end[CACHE_MAX_POINTS];
	size_t bound[CACHE_MAX_POINTS];	/* the boundary's index */
	double v[CACHE_MAX_POINTS];
};

/* qsort's comparison of doubles. */
static int
cache_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of lat[from..to]. */
static double
cache_median(const double *lat, size_t from, size_t to)
{
	double v[CACHE_MAX_POINTS];
	size_t n = to - from + 1;

	memcpy(v, lat + from, n * sizeof *v);
	qsort(v, n, sizeof *v, cache_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Format a level's line from its aggregated record (params, measured). */
static void
cache_line(const bm_record *rec, const void *cookie, char *line, size_t len)
{
	(void)cookie;
	if (rec->params[0].num > 0)
		snprintf(line, len, "L%.0f cache: %.0f bytes %.2f nanoseconds "
		    "%.0f linesize %.2f parallelism\n", rec->params[0].num,
		    rec->measured[0].num, rec->value, rec->params[1].num,
		    rec->measured[1].num);
	else
		snprintf(line, len, "Memory latency: %.2f nanoseconds %.2f "
		    "parallelism\n", rec->value, rec->measured[1].num);
}

/*
 * The statistics of a level's latency from its n samples v: a cache's
 * are the medians of its plateau's sizes (each over fresh processes), so
 * that the record's median is the plateau's median and its interval the
 * order-statistic interval over those sizes; memory's are the processes'
 * latencies at the largest size.  0, or a library error.
 */
static int
cache_level_result(const double *v, size_t n, bm_result *r)
{
	size_t i;
	unsigned e;

	memset(r, 0, sizeof *r);
	if ((r->samples = calloc(n, sizeof *r->samples)) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r->samples[i].ns = v[i];
		r->samples[i].n = 1;
		r->samples[i].cycles = (double)NAN;
		for (e = 0; e < BM_MAX_EVENTS; e++)
			r->samples[i].events[e] = (double)NAN;
		r->samples[i].process = (unsigned)i;
	}
	r->nsamples = n;
	r->processes = (unsigned)n;
	r->parallel = 1;
	r->repetitions = 1;
	r->cycles_per_op = (double)NAN;
	return mem_chase_result_stats(r);
}

/* What the processes and the machine say of one level. */
struct cache_judge {
	double lat[CACHE_MAX_PROCS];	/* each process's latency */
	size_t np;
	int sizes_agree;		/* the processes' sizes agree */
	bm_contradiction c[2];
	size_t nc;
	char what[2][32];		/* the contradictions' what */
};

/* Whether every process of j has a latency (two at least). */
static int
cache_procs_whole(const struct cache_judge *j)
{
	size_t p;

	for (p = 0; p < j->np; p++)
		if (!isfinite(j->lat[p]))
			return 0;
	return j->np >= 2;
}

/* Print one level (or memory, when level is 0) with its parallelism. */
static void
cache_report(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, unsigned level, size_t size,
    const struct cache_sweep *w, size_t from, size_t to, size_t at,
    int apart, const struct cache_judge *j)
{
	struct mem_chase c;
	bm_param params[3], found[5], measured[8];
	bm_record rec;
	/* Static (one level at a time, each set before use): 4 KB. */
	static bm_result lr;
	static struct mem_parallel mp;
	double par;
	int rc, phit;

	mem_chase_paged(&c, at, (size_t)o->line, tp->page);
	mem_chase_parallelism(t, &c, apart, &mp);
	par = mp.value;
	phit = mp.r.budget_hit;
	mem_chase_parallelism_free(&mp);
	/* The level names the figure; its size and parallelism were found. */
	params[0] = (bm_param){ .key = "level", .num = (double)level };
	params[1] = (bm_param){ .key = "line", .num = (double)o->line };
	params[2] = (bm_param){ .key = "len", .num = (double)o->len };
	found[0] = (bm_param){ .key = "size", .num = (double)size };
	found[1] = (bm_param){ .key = "parallelism", .num = par };
	found[2] = (bm_param){ .key = "reported",
	    .num = level > 0 && level <= tp->n ?
	    (double)tp->lv[level - 1].size : 0 };
	found[3] = (bm_param){ .key = "topology", .str = tp->source };
	/* A level that lasts to the sweep's end is at least that size. */
	found[4] = (bm_param){ .key = "size_at_least",
	    .num = level > 0 && w->n > 0 && size == w->sizes[w->n - 1] };
	if ((rc = level == 0 && cache_procs_whole(j) ?
	    cache_level_result(j->lat, j->np, &lr) :
	    cache_level_result(w->lat + from, to - from + 1, &lr)) != 0)
		tool_exit_lib(t, rc, "the level's statistics");
	/* A sweep cut by the time bound: its levels say so. */
	lr.budget_hit = w->sw.hit || phit;
	tool_record_figure(&rec, t, level > 0 ? "cache" : "memory", "latency",
	    "ns", BM_BETTER_AUTO, lr.per_op_ns.median);
	/* The sizes' medians are held as the samples' ns: scale 1. */
	rec.result = &lr;
	rec.scale = 1;
	rec.params = params;
	rec.nparams = 3;
	rec.measured = measured;
	rec.nmeasured = sweep_measured(found, 5, measured, 8, &w->sw,
	    (double)w->next);
	if ((rc = bm_record_agreement(&rec, j->lat, j->np,
	    CACHE_LATENCY_TOLERANCE)) < 0)
		tool_exit_lib(t, rc, "judging the processes' latencies");
	if (!j->sizes_agree)
		rec.agreement = BM_AGREEMENT_DISAGREE;
	(void)bm_record_contradicts(&rec, j->c, j->nc);
	mem_report_derived(t, &rec, cache_line, NULL);
	bm_result_free(&lr);
}

/* The seconds the sweep's point nearest size (in ratio) took. */
static double
cache_point_s(const struct cache_sweep *w, size_t size)
{
	size_t i, best = 0;
	double d, bd = HUGE_VAL;

	for (i = 0; i < w->n; i++) {
		d = fabs(log((double)w->sizes[i] / (double)size));
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return w->took[best];
}

/*
 * Whether the parallelism of level i of n, each measured at at[], is
 * measured apart (one chain and the most chains: two measures instead of
 * up to five, par_mem(8)): when all of its chains, and the levels after
 * it measured apart, would not end within --max-time.  Each measure is
 * expected to take as long as the sweep's point of that size.  Beyond
 * the caches the most chains did best in each of 60 suites (par_mem(8)),
 * where a large buffer's measure takes a second or more on a guest whose
 * pages cost 6-13 us to fault (a 2-vCPU AMD EPYC KVM guest, 2026-12-02):
 * measured in full, cache's suite bound of 7.4 s became 8.3-11.5 s
 * (doc/measurements.md, "2026-12-02, from 09:09 UTC: cache within its
 * bound, an A/B's figures out of reach").
 */
static int
cache_par_apart(const struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, const struct cache_sweep *w,
    const size_t *at, size_t i, size_t n)
{
	struct mem_chase c;
	double need;
	size_t j;

	mem_chase_paged(&c, at[i], (size_t)o->line, tp->page);
	need = mem_chase_parallel_chases(c.size, c.stride, 0) *
	    cache_point_s(w, at[i]);
	for (j = i + 1; j < n; j++)
		need += 2 * cache_point_s(w, at[j]);
	/* Every rank of an MPI job measures the level the same way. */
	return !cluster_all(need <= sweep_left_s(t));
}

/* Keep point n of the sweep (size, its result r, freed) in w. */
static void
cache_take(struct cache_sweep *w, size_t n, size_t size, bm_result *r)
{
	size_t p;

	w->sizes[n] = size;
	w->lat[n] = r->per_op_ns.median;
	if (n == 0 || r->processes < w->np)
		w->np = r->processes < CACHE_MAX_PROCS ? r->processes :
		    CACHE_MAX_PROCS;
	for (p = 0; p < w->np; p++)
		w->proc[p][n] = r->process_ns != NULL ? r->process_ns[p] :
		    (double)NAN;
	bm_result_free(r);
}

/*
 * Served by a scheduler, the sweep's npoints sizes from size on as groups
 * of up to BM_MAX_GROUP (mem_chase_group): one set of workers maps the
 * largest size's buffer once and chases each size over its start, as
 * lat_mem_rd's served sweep; the scheduler's visits bound it.  Returns
 * the size after the last.
 */
static size_t
cache_sweep_group(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, struct cache_sweep *w, size_t size,
    size_t npoints, struct progress *prog)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct mem_chase c[BM_MAX_GROUP];
	static bm_result r[BM_MAX_GROUP];
	size_t sizes[CACHE_MAX_POINTS], n, i, m;
	double each;
	int hit;

	for (n = 0; n < npoints; n++, size = mem_topo_next_size(size))
		sizes[n] = size;
	for (n = 0; n < npoints; n += m) {
		m = npoints - n < BM_MAX_GROUP ? npoints - n : BM_MAX_GROUP;
		progress_show(prog, "%zu sizes (%zu/%zu)", m, n + m,
		    npoints);
		for (i = 0; i < m; i++)
			mem_chase_paged(&c[i], sizes[n + i], (size_t)o->line,
			    tp->page);
		mem_chase_group(t, c, m, 0, r);
		for (i = hit = 0; i < m; i++)
			hit = hit || r[i].budget_hit;
		each = sweep_group(&w->sw, m, hit);
		for (i = 0; i < m; i++) {
			w->took[n + i] = each;
			cache_take(w, n + i, sizes[n + i], &r[i]);
		}
	}
	return size;
}

/*
 * Chase buffers from tp's L1 / 8 up to o->len: the sizes, the median
 * curve and each process's (round p of every size, a fresh process; a
 * visit, served).
 */
static void
cache_sweep(struct tool *t, const struct mem_topo *tp,
    const struct mem_sweep_opts *o, struct cache_sweep *w)
{
	struct mem_chase c;
	struct progress prog;
	bm_result r;
	uint64_t t0;
	size_t n = 0, npoints = 0, s, size;
	char sz[32];
	int more;

	size = tp->l1d / 8 > 4096 ? tp->l1d / 8 : 4096;
	progress_start(&prog, t);
	for (s = size; s <= o->len && npoints < CACHE_MAX_POINTS;
	    s = mem_topo_next_size(s))
		npoints++;
	sweep_begin(&w->sw, "sizes", npoints);
	if (tool_served_inside() && npoints >= 3) {
		size = cache_sweep_group(t, tp, o, w, size, npoints, &prog);
		n = npoints;
	}
	for (more = 1; more && size <= o->len && n < CACHE_MAX_POINTS;
	    size = mem_topo_next_size(size)) {
		progress_show(&prog, "%s (%zu/%zu)", progress_size(sz,
		    sizeof sz, (double)size), n + 1, npoints);
		mem_chase_paged(&c, size, (size_t)o->line, tp->page);
		t0 = w->sw.last_ns;
		mem_chase_measure(t, &c, &r);
		more = sweep_point(t, &w->sw, r.budget_hit);
		w->took[n] = (double)(w->sw.last_ns - t0) / 1e9;
		cache_take(w, n, size, &r);
		n++;
	}
	progress_clear(&prog);
	if (n < 3 && w->sw.cut)
		tool_exit_fail(t,
		    "the time bound (--max-time %.2f s) left fewer "
		    "than 3 sizes measured", t->max_time_s);
	if (n < 3)
		tool_exit_usage(t, "-M %llu leaves fewer than 3 sizes to "
		    "measure", (unsigned long long)o->len);
	w->n = n;
	w->next = size;
	sweep_say(t, &w->sw, progress_size(sz, sizeof sz, (double)size));
}

/*
 * Cut lat[0..n-1] into plateaus, [start, end] each, with their medians
 * in v: a plateau ends where a size costs clearly more than its best
 * point, and the next one starts where the curve stops rising.
 * Neighbouring plateaus whose medians differ by less than the jump are
 * one level, and there are no more levels than tp's caches (and memory).
 * Returns how many.
 */
static size_t
cache_plateaus(const double *lat, size_t n, const struct mem_topo *tp,
    size_t *start, size_t *end, double *v)
{
	size_t nseg, s, i, j;
	double base;

	/* The plateaus. */
	nseg = 1;
	start[0] = 0;
	base = lat[0];
	for (i = 1; i < n; i++) {
		if (lat[i] > CACHE_JUMP_RATIO * base &&
		    lat[i] - base > CACHE_JUMP_NS) {
			end[nseg - 1] = i - 1;
			while (i + 1 < n && lat[i + 1] > CACHE_RISE_RATIO * lat[i])
				i++;
			start[nseg++] = i;
			base = lat[i];
		} else if (lat[i] < base)
			base = lat[i];
	}
	end[nseg - 1] = n - 1;
	/*
	 * Fewer than CACHE_MIN_POINTS sizes between two jumps are a
	 * transition, not a level; at the end, noise on the last level.
	 */
	for (s = 0, i = 0; s < nseg; s++) {
		if (end[s] - start[s] + 1 < CACHE_MIN_POINTS && s > 0 &&
		    s + 1 < nseg)
			continue;
		if (end[s] - start[s] + 1 < CACHE_MIN_POINTS && s > 0 &&
		    i > 0) {
			end[i - 1] = end[s];
			continue;
		}
		start[i] = start[s];
		end[i++] = end[s];
	}
	nseg = i;
	for (s = 0; s < nseg; s++)
		v[s] = cache_median(lat, start[s], end[s]);
	/*
	 * A slow climb (TLB misses past the TLB's reach) can cut one level
	 * in two: join neighbours whose medians are not a jump apart.
	 */
	for (;;) {
		/* The closest neighbours: joined if not a jump apart, or
		 * while there are more levels than the system has caches
		 * (and memory). */
		for (s = 0, j = 0; j + 1 < nseg; j++) {
			if (v[j + 1] / v[j] < v[s + 1] / v[s])
				s = j;
		}
		if (nseg < 2 || (v[s + 1] >= CACHE_JUMP_RATIO * v[s] &&
		    nseg <= tp->n + 1))
			break;
		end[s] = end[s + 1];
		for (i = s + 1; i + 1 < nseg; i++) {
			start[i] = start[i + 1];
			end[i] = end[i + 1];
		}
		nseg--;
		for (i = 0; i < nseg; i++)
			v[i] = cache_median(lat, start[i], end[i]);
	}
	return nseg;
}

/*
 * Cut a curve into levels (cache_plateaus) and find each one's boundary:
 * the last size whose latency is below the midpoint of it and the next.
 */
static void
cache_cut(const double *lat, size_t n, const struct mem_topo *tp,
    struct cache_cut *k)
{
	size_t s, i, j;
	double mid;

	k->nseg = cache_plateaus(lat, n, tp, k->start, k->end, k->v);
	for (s = 0; s < k->nseg; s++) {
		j = k->end[s];
		if (s + 1 < k->nseg) {
			mid = (k->v[s] + k->v[s + 1]) / 2;
			for (i = k->start[s]; i < k->start[s + 1]; i++) {
				if (lat[i] <= mid)
					j = i;
			}
		}
		k->bound[s] = j;
	}
}

/*
 * Judge level s of the median cut m (memory when level is 0): each
 * process's latency over the level's sizes, whether each process's own
 * cut puts the level's size within a step of the others (a process whose
 * curve has no such level disagrees), and the size against the machine's
 * and the latency against the level before.
 */
static void
cache_judge(struct tool *t, const struct mem_topo *tp,
    const struct cache_sweep *w, const struct cache_cut *m, size_t s,
    unsigned level, struct cache_judge *j)
{
	struct cache_cut k;
	double sizes[CACHE_MAX_PROCS];
	size_t p, size;
	int rc;

	memset(j, 0, sizeof *j);
	j->np = w->np;
	for (p = 0; p < w->np; p++) {
		j->lat[p] = cache_median(w->proc[p], m->start[s], m->end[s]);
		cache_cut(w->proc[p], w->n, tp, &k);
		sizes[p] = s < k.nseg ? (double)w->sizes[k.bound[s]] :
		    (double)NAN;
	}
	j->sizes_agree = level == 0 || w->np == 0 ||
	    bm_agree(sizes, w->np, CACHE_SIZE_TOLERANCE, NULL, NULL) == 1;
	if (level > 0) {
		size = w->sizes[m->bound[s]];
		rc = mem_rules_level_size_check(tp, level, size,
		    &j->c[j->nc], j->what[0], sizeof j->what[0]);
		if (rc < 0)
			tool_exit_lib(t, rc, "checking the level's size");
		/* A level to the sweep's end is at least its size: below
		 * the stated one it agrees. */
		if (rc == 1 && size == w->sizes[w->n - 1] &&
		    size < tp->lv[level - 1].size)
			rc = 0;
		j->nc += (size_t)rc;
	}
	if (s > 0) {
		if (level > 0)
			snprintf(j->what[1], sizeof j->what[1], "L%u latency",
			    level);
		else
			snprintf(j->what[1], sizeof j->what[1],
			    "memory latency");
		rc = bm_contradiction_check(&j->c[j->nc], j->what[1], m->v[s],
		    m->v[s - 1], 1, INFINITY, "the level before", "ns");
		if (rc < 0)
			tool_exit_lib(t, rc, "checking the level's latency");
		j->nc += (size_t)rc;
	}
}

/*
 * Chase buffers of growing size and cut the latency curve into plateaus
 * (cache_plateaus).  Each boundary is the last size whose latency is
 * below the midpoint of the two plateaus; each level's latency is its
 * plateau's median.  The last plateau is memory
 * when the sweep went past twice the last-level cache.  Each level is
 * judged (cache_judge) by its processes and the machine.
 */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "cache",
		.args = "[-c] [-L line] [-M len]",
		.extra_usage = "  -c              accepted for lmbench's "
		    "scripts\n"
		    "  -L line         the line size (default: the cache's)\n"
		    "  -M len          the largest size (k/m/g); default four "
		    "times the last-level cache\n"
	};
	/* Static, as the sweep: 6 KB off a stack a user may bound. */
	static struct cache_sweep w;
	static struct cache_cut m;
	static struct cache_judge j;
	static size_t at[CACHE_MAX_POINTS];
	struct mem_sweep_opts o = { 0, 0, 64 * 1024 };
	struct mem_topo tp;
	size_t s, b, n;
	int memory;

	mem_sweep_parse(&t, argc, argv, "cL:M:", &o, &tp);
	mem_sweep_line_fits(&t, &o, &tp);
	if (o.len == 0)
		o.len = mem_topo_size(&tp, 4, (size_t)8 << 20,
		    (size_t)1 << 30);
	tool_setup(&t);
	mem_sweep_options(&t);
	mem_topo_precheck(&t, (size_t)o.len);
	cache_sweep(&t, &tp, &o, &w);
	cache_cut(w.lat, w.n, &tp, &m);
	/*
	 * A sweep cut short is memory only if it went that far itself.
	 * Past a last-level cache assumed in place of the one stated (not
	 * believed), the last plateau is memory only when the curve has
	 * more plateaus than the caches stated: fewer, and the stated cache
	 * reaches further than assumed.  (On a 2-vCPU Intel Xeon KVM guest
	 * whose L3 is stated as 480 MB, 2026-12-04, the curve stayed at
	 * 16.5 ns from 2 to 48 MB and rose to 24 ns at 128 MB: that L3 was
	 * reported as memory at 17 ns.)
	 */
	memory = m.nseg > 1 && o.len >= 2 * tp.llc &&
	    (!w.sw.cut || w.sizes[w.n - 1] >= 2 * tp.llc) &&
	    (tp.llc_plausible || m.nseg > tp.n);
	/*
	 * Memory is the largest size alone.  The sizes between the last
	 * cache and memory hold a share of the buffer in that cache, as
	 * much as the host leaves: on a 2-vCPU Intel Xeon KVM guest whose
	 * L3 is stated as 480 MB, 2026-12-04, the plateau's median read
	 * 16-55 ns from suite to suite (and 17 ns when the cut took the L3
	 * into memory) where the 128 MB point read 33-56 ns.
	 */
	n = m.nseg;
	if (memory) {
		m.start[n - 1] = w.n - 1;
		m.v[n - 1] = w.lat[w.n - 1];
	}
	/* Where each level's parallelism is measured, memory's last. */
	for (s = 0; s < n - (size_t)memory; s++) {
		b = m.bound[s];
		at[s] = w.sizes[b] / 2 >= w.sizes[m.start[s]] ?
		    w.sizes[b] / 2 : w.sizes[m.start[s]];
	}
	if (memory)
		at[n - 1] = w.sizes[w.n - 1];
	for (s = 0; s < n - (size_t)memory; s++) {
		b = m.bound[s];
		cache_judge(&t, &tp, &w, &m, s, (unsigned)s + 1, &j);
		cache_report(&t, &tp, &o, (unsigned)s + 1, w.sizes[b], &w,
		    m.start[s], m.end[s], at[s],
		    cache_par_apart(&t, &tp, &o, &w, at, s, n), &j);
	}
	if (memory) {
		cache_judge(&t, &tp, &w, &m, n - 1, 0, &j);
		cache_report(&t, &tp, &o, 0, 0, &w, m.start[n - 1],
		    m.end[n - 1], at[n - 1],
		    cache_par_apart(&t, &tp, &o, &w, at, n - 1, n), &j);
	}
	return tool_finish(&t);
}
