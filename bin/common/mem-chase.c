/* mem-chase.c: what the memory tools time: the pointer chase and the read. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "benchmp/calibration.h"
#include "benchmp/settings.h"
#include "benchmp/stats.h"
#include "benchmp/worker.h"
#include "mem.h"

/* The read kernel's block: 512 bytes, read one int in four (bw_mem's rd). */
#define MEM_BLOCK 512
#define MEM_INTS (MEM_BLOCK / sizeof(unsigned))

/* A 64-bit xorshift* generator: fixed seed, the same chains every run. */
static uint64_t
mem_chase_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Shuffle n indices in place (Fisher-Yates). */
static void
mem_chase_shuffle(size_t *v, size_t n, uint64_t *rs)
{
	size_t i, j, tmp;

	for (i = n; i > 1; i--) {
		j = (size_t)(mem_chase_random(rs) % i);
		tmp = v[i - 1];
		v[i - 1] = v[j];
		v[j] = tmp;
	}
}

/* The address of a chase's unit u. */
static char *
mem_chase_addr(const struct mem_chase *c, size_t u)
{
	size_t off = 0;

	if (c->offset_step > 0)
		off = (u * c->offset_step) % c->stride;
	return c->map + u * c->stride + off;
}

/* Where a ring's links stand while it is linked (mem_chase_link). */
struct mem_link {
	char *first;		/* the ring's first unit */
	char *prev;		/* the unit linked last (NULL: none yet) */
	size_t i;		/* units linked */
	size_t n;		/* units in the ring */
	unsigned j;		/* chains whose start is known */
};

/*
 * Link unit u after the one linked before it, and start chain j at the
 * unit i = j * n / k of the ring.
 */
static void
mem_chase_link(struct mem_chase *c, struct mem_link *l, size_t u)
{
	char *a = mem_chase_addr(c, u);

	if (l->prev != NULL)
		*(void **)(void *)l->prev = a;
	else
		l->first = a;
	while (l->j < c->k && (size_t)l->j * l->n / c->k == l->i)
		c->p[l->j++] = a;
	l->prev = a;
	l->i++;
}

/*
 * Link the units of the buffer into one ring in the chase's order, each
 * as its place in the order is known: no list of the whole order, whose
 * memory (8 bytes a unit: 128 MB for line's 8-byte stride over 128 MB)
 * a fresh worker faulted for every chain, 0.5 s of it on a 2-vCPU AMD
 * EPYC KVM guest (2026-12-04).  The order is the same.
 */
static int
mem_chase_build(struct mem_chase *c)
{
	size_t n = c->size / c->stride, upp, ngroups, g, u, m, *grp, *units;
	uint64_t rs = 0x9E3779B97F4A7C15ULL;
	struct mem_link l;

	if (n == 0)
		n = 1;
	memset(&l, 0, sizeof l);
	l.n = n;
	if (c->order == MEM_ORDER_STRIDE) {
		/*
		 * lmbench's order: forwards, 0, 1, ... n-1, then 0 again.
		 * Its man page says the ring points backward one stride,
		 * but its binary walks forwards (the loads valgrind's lackey
		 * traces: 0x000, 0x080, 0x100, 0x180, 0x000 at 512 bytes,
		 * stride 128).  This chase walked backwards until
		 * 2026-11-26; what the direction changes in the figure
		 * (little) is in doc/measurements.md, "lat_mem_rd against
		 * lmbench: direction and unroll".
		 */
		for (u = 0; u < n; u++)
			mem_chase_link(c, &l, u);
	} else {
		/* Pages in order or shuffled, the lines shuffled in each. */
		upp = c->page > c->stride ? c->page / c->stride : 1;
		ngroups = (n + upp - 1) / upp;
		grp = malloc(ngroups * sizeof *grp);
		units = malloc(upp * sizeof *units);
		if (grp == NULL || units == NULL) {
			free(grp);
			free(units);
			return -ENOMEM;
		}
		for (g = 0; g < ngroups; g++)
			grp[g] = g;
		if (c->order == MEM_ORDER_RANDOM)
			mem_chase_shuffle(grp, ngroups, &rs);
		for (g = 0; g < ngroups; g++) {
			m = 0;
			for (u = grp[g] * upp; u < n && u < (grp[g] + 1) * upp;
			    u++)
				units[m++] = u;
			mem_chase_shuffle(units, m, &rs);
			for (u = 0; u < m; u++)
				mem_chase_link(c, &l, units[u]);
		}
		free(grp);
		free(units);
	}
	*(void **)(void *)l.prev = l.first;
	return 0;
}

/* Map len bytes of private anonymous memory; *map stays NULL on failure. */
int
mem_chase_map(size_t len, char **map)
{
	void *p;

	*map = NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	*map = p;
	return 0;
}

/*
 * The pool: memory a scheduler faulted once for a whole run and names in
 * BENCHMP_POOL (a descriptor of a memory file), so that the figures of a
 * bandwidth over a large buffer do not each fault theirs afresh.  Only a
 * memory file sealed against shrinking and growing, as benchmp-sched
 * makes it, is taken: the buffers are written, and a file the variable
 * named by mistake (a standard input redirected from one) must not be.
 * See mem.h.
 */
int
mem_pool_fd(const char **value, int64_t *size)
{
	const char *v = getenv("BENCHMP_POOL");
	uint64_t fd;
	struct stat st;
	int seals;

	if (value != NULL)
		*value = v;
	if (size != NULL)
		*size = 0;
	if (v == NULL || *v == '\0')
		return -1;
	if (bm_parse_uint(v, 0, MEM_POOL_MAX_FD, &fd) != 0 ||
	    fstat((int)fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0)
		return -EINVAL;
#ifdef F_GET_SEALS
	seals = fcntl((int)fd, F_GET_SEALS);
	if (seals >= 0 && (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) ==
	    (F_SEAL_SHRINK | F_SEAL_GROW)) {
		if (size != NULL)
			*size = (int64_t)st.st_size;
		return (int)fd;
	}
#else
	(void)seals;
#endif
	return -EINVAL;
}

/*
 * Where worker w's len bytes start in a pool of size bytes (each worker
 * its own MEM_POOL_ALIGN-aligned slot), or -1 when they do not fit or len
 * is too small to take from it.
 */
static int64_t
mem_pool_offset(size_t len, unsigned w, int64_t size)
{
	uint64_t slot = ((uint64_t)len + MEM_POOL_ALIGN - 1) /
	    MEM_POOL_ALIGN * MEM_POOL_ALIGN, off = slot * w;

	if (len < MEM_POOL_MIN || size <= 0 || off + len > (uint64_t)size)
		return -1;
	return (int64_t)off;
}

/* Whether the pool holds len bytes for each of n workers; see mem.h. */
int
mem_pool_holds(size_t len, unsigned n)
{
	int64_t size;

	return mem_pool_fd(NULL, &size) >= 0 && n > 0 &&
	    mem_pool_offset(len, n - 1, size) >= 0;
}

/* Map len bytes for a worker, from the pool when it holds them; see mem.h. */
int
mem_pool_map(size_t len, char **map)
{
	bm_state *ws = bm_state_current();
	int64_t off, size;
	void *p;
	int fd;

	*map = NULL;
	if ((fd = mem_pool_fd(NULL, &size)) == -EINVAL)
		return fd;
	off = fd < 0 ? -1 : mem_pool_offset(len, ws != NULL ?
	    bm_worker_index(ws) : 0, size);
	if (off < 0)
		return mem_chase_map(len, map);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
	    (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	*map = p;
	return 1;
}

/* Unmap a buffer mapped by mem_chase_map() (nothing when *map is NULL). */
int
mem_chase_unmap(char **map, size_t len)
{
	if (*map != NULL && munmap(*map, len) != 0)
		return -errno;
	*map = NULL;
	return 0;
}

/* The bytes chase c maps: its size (a stride at least) in whole pages. */
static size_t
mem_chase_maplen(const struct mem_chase *c)
{
	size_t page = c->page > 0 ? c->page : 4096;
	size_t len = c->size > c->stride ? c->size : c->stride;

	return (len + page - 1) / page * page;
}

/*
 * The buffer a worker keeps for a group's points (mem_chase.keep): mapped
 * by the first point's initialize, reused by the next ones' and unmapped
 * only with the process.
 */
static char *mem_kept;
static size_t mem_kept_len;
static int mem_kept_pages;

/* Ask for huge (pages 1) or small (-1) pages for len bytes at map. */
static void
mem_chase_advise(char *map, size_t len, int pages)
{
#if defined(MADV_NOHUGEPAGE) && defined(MADV_HUGEPAGE)
	if (pages != 0)
		(void)madvise(map, len, pages < 0 ? MADV_NOHUGEPAGE :
		    MADV_HUGEPAGE);
#else
	(void)map;
	(void)len;
	(void)pages;
#endif
}

/* Map the buffer, build the chains and walk them once. */
int
mem_chase_init(bm_iter_t n, void *cookie)
{
	struct mem_chase *c = cookie;
	size_t units;
	int rc;

	(void)n;
	c->maplen = mem_chase_maplen(c);
	if (c->keep >= c->maplen) {
		/*
		 * A group's point: the start of the buffer kept, mapped
		 * again for another length or kind of pages.
		 */
		if (mem_kept == NULL || mem_kept_len != c->keep ||
		    mem_kept_pages != c->pages) {
			if (mem_kept != NULL &&
			    (rc = mem_chase_unmap(&mem_kept, mem_kept_len)) != 0)
				return rc;
			if ((rc = mem_chase_map(c->keep, &mem_kept)) != 0)
				return rc;
			mem_kept_len = c->keep;
			mem_kept_pages = c->pages;
			mem_chase_advise(mem_kept, mem_kept_len, c->pages);
		}
		c->map = mem_kept;
	} else if ((rc = mem_chase_map(c->maplen, &c->map)) != 0) {
		return rc;
	} else {
		mem_chase_advise(c->map, c->maplen, c->pages);
	}
	if ((rc = mem_chase_build(c)) != 0)
		return rc;
	units = c->size / c->stride;
	return mem_chase_run(units > 0 ? (units + c->k - 1) / c->k : 1, c);
}

/* Ten dependent loads. */
#define CHASE10(p) do {							\
	p = *(void **)p; p = *(void **)p; p = *(void **)p;		\
	p = *(void **)p; p = *(void **)p; p = *(void **)p;		\
	p = *(void **)p; p = *(void **)p; p = *(void **)p;		\
	p = *(void **)p;						\
} while (0)

/*
 * Follow one fixed-stride chain n loads, unrolled 100 loads long, as
 * lmbench's lat_mem_rd (its man page says so).  The unroll is part of
 * what a stride chase measures: a prefetcher that follows each load
 * instruction's own stride sees unroll x stride bytes between that
 * instruction's addresses (doc/measurements.md, "lat_mem_rd against
 * lmbench: direction and unroll").
 */
static void *
mem_chase_stride(void *p, bm_iter_t n)
{
	while (n >= 100) {
		CHASE10(p); CHASE10(p); CHASE10(p); CHASE10(p); CHASE10(p);
		CHASE10(p); CHASE10(p); CHASE10(p); CHASE10(p); CHASE10(p);
		n -= 100;
	}
	while (n >= 10) {
		CHASE10(p);
		n -= 10;
	}
	while (n-- > 0)
		p = *(void **)p;
	return p;
}

/* Follow the chains n steps each: k dependent loads per step. */
int
mem_chase_run(bm_iter_t n, void *cookie)
{
	struct mem_chase *c = cookie;
	void *p = c->p[0], *q[MEM_MAX_CHAINS];
	unsigned j;

	if (c->k == 1 && c->order == MEM_ORDER_STRIDE) {
		p = mem_chase_stride(p, n);
		c->p[0] = p;
		c->sink = (uintptr_t)p;
		return 0;
	}
	if (c->k == 1) {
		while (n >= 8) {
			p = *(void **)p; p = *(void **)p;
			p = *(void **)p; p = *(void **)p;
			p = *(void **)p; p = *(void **)p;
			p = *(void **)p; p = *(void **)p;
			n -= 8;
		}
		while (n-- > 0)
			p = *(void **)p;
		c->p[0] = p;
		c->sink = (uintptr_t)p;
		return 0;
	}
	for (j = 0; j < MEM_MAX_CHAINS; j++)
		q[j] = j < c->k ? c->p[j] : NULL;
	while (n-- > 0) {
		switch (c->k) {
		case 16: q[15] = *(void **)q[15]; /* FALLTHROUGH */
		case 15: q[14] = *(void **)q[14]; /* FALLTHROUGH */
		case 14: q[13] = *(void **)q[13]; /* FALLTHROUGH */
		case 13: q[12] = *(void **)q[12]; /* FALLTHROUGH */
		case 12: q[11] = *(void **)q[11]; /* FALLTHROUGH */
		case 11: q[10] = *(void **)q[10]; /* FALLTHROUGH */
		case 10: q[9] = *(void **)q[9]; /* FALLTHROUGH */
		case 9: q[8] = *(void **)q[8]; /* FALLTHROUGH */
		case 8: q[7] = *(void **)q[7]; /* FALLTHROUGH */
		case 7: q[6] = *(void **)q[6]; /* FALLTHROUGH */
		case 6: q[5] = *(void **)q[5]; /* FALLTHROUGH */
		case 5: q[4] = *(void **)q[4]; /* FALLTHROUGH */
		case 4: q[3] = *(void **)q[3]; /* FALLTHROUGH */
		case 3: q[2] = *(void **)q[2]; /* FALLTHROUGH */
		default:
			q[1] = *(void **)q[1];
			q[0] = *(void **)q[0];
		}
	}
	for (j = 0; j < c->k; j++) {
		c->p[j] = q[j];
		c->sink += (uintptr_t)q[j];
	}
	return 0;
}

/* Unmap the chase's buffer. */
int
mem_chase_cleanup(bm_iter_t n, void *cookie)
{
	struct mem_chase *c = cookie;

	(void)n;
	if (c->map != NULL && c->map == mem_kept) {
		/* The buffer kept stays for the group's next point. */
		c->map = NULL;
		return 0;
	}
	return mem_chase_unmap(&c->map, c->maplen);
}

/*
 * Chase c as a benchmark, its chains and page defaulted, with LOOP_O
 * calibrated (mem_chase_measure says why).
 */
static bm_bench
mem_chase_bench(struct tool *t, struct mem_chase *c)
{
	int rc;

	if ((rc = bm_ctx_force_calibration(t->ctx, BM_CAL_LOOP_O, 0)) != 0)
		tool_exit_lib(t, rc, "LOOP_O");
	if (c->k < 1 || c->k > MEM_MAX_CHAINS)
		c->k = 1;
	if (c->page == 0)
		c->page = 4096;
	return (bm_bench){ .initialize = mem_chase_init,
	    .benchmark = mem_chase_run, .cleanup = mem_chase_cleanup,
	    .cookie = c };
}

/*
 * Run a chase in the engine's workers: per_op_ns is one step of k loads.
 *
 * No loop overhead is subtracted (LOOP_O is 0 for every chase, whatever
 * the environment says, and the record shows loop_o_us 0): each load
 * depends on the one before, so the loop's own work (a count and a
 * branch, one per eight loads unrolled) runs beside the load that is in
 * flight and costs no time of its own.  Subtracting it made lat_mem_rd's
 * L1 0.80 ns, 3 cycles at 3.8 GHz, below what the core can do (4 cycles,
 * 1.05 ns, with LOOP_O=0).  lmbench's figures for these tools are the
 * chase's time per load as well.
 */
void
mem_chase_measure(struct tool *t, struct mem_chase *c, bm_result *r)
{
	bm_bench b = mem_chase_bench(t, c);

	tool_run(t, &b, r);
}

/*
 * Run n chases c[0..n-1] (1 to BM_MAX_GROUP) into r[0..n-1] as one group
 * (tool_run_group): a sweep's points, each over the start of one buffer
 * of keep bytes (the largest chase's at least: 0 for just that) that a
 * served worker maps once for all of them (each point's chain is built
 * again when the worker turns to it, untimed), as lmbench maps its
 * sweep's whole length for every point.  A chase that asks for huge or
 * small pages has them in the kept buffer too (advised before the first
 * point touches it).
 */
void
mem_chase_group(struct tool *t, struct mem_chase *c, size_t n, size_t keep,
    bm_result *r)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static bm_bench b[BM_MAX_GROUP];
	size_t i;

	if (n == 0 || n > BM_MAX_GROUP)
		tool_exit_fail(t, "a group of %zu chases (1 to %d)", n,
		    BM_MAX_GROUP);
	for (i = 0; i < n; i++) {
		b[i] = mem_chase_bench(t, &c[i]);
		if (keep < mem_chase_maplen(&c[i]))
			keep = mem_chase_maplen(&c[i]);
	}
	for (i = 0; i < n; i++)
		c[i].keep = keep;
	tool_run_group(t, b, n, r);
}

/* Run a chase and return its median time per step. */
double
mem_chase_latency(struct tool *t, struct mem_chase *c)
{
	bm_result r;
	double ns;

	mem_chase_measure(t, c, &r);
	ns = r.per_op_ns.median;
	bm_result_free(&r);
	return ns;
}

/* Lay out a chase of size bytes: lines shuffled in each page, pages in order. */
void
mem_chase_paged(struct mem_chase *c, size_t size, size_t line, size_t page)
{
	memset(c, 0, sizeof *c);
	c->size = size;
	c->stride = line;
	c->page = page;
	c->order = MEM_ORDER_PAGE;
	c->k = 1;
}

/* A ratio as a sample: its ns with n 1, no cycles or events. */
static void
mem_chase_ratio_sample(bm_sample *s, double ratio, unsigned worker,
    unsigned process)
{
	unsigned e;

	s->ns = ratio;
	s->n = 1;
	s->cycles = (double)NAN;
	for (e = 0; e < BM_MAX_EVENTS; e++)
		s->events[e] = (double)NAN;
	s->worker = worker;
	s->process = process;
}

/*
 * Pair the samples of one chain (r1) with those of k chains (rk) into
 * samples of their ratio, one chain's ns per load over k chains' ns per
 * load: sample j of round p of one with sample j of round p of the other.
 * Rounds are fresh processes, independent and alike, so any fixed pairing
 * of them is as good as another; each ratio carries the scatter of both
 * chases, between processes and inside them.  The ratio is stored as a
 * sample's ns with n 1 (a record of it has scale 1, inverse 0): the
 * statistics of a record and the median across MPI ranks then treat it
 * as they treat any time.  0 or -ENOMEM.
 */
static int
mem_chase_ratio_pair(const bm_result *r1, const bm_result *rk, unsigned k,
    bm_result *out)
{
	unsigned np1 = r1->processes > 0 ? r1->processes : 1;
	unsigned npk = rk->processes > 0 ? rk->processes : 1;
	unsigned np = np1 < npk ? np1 : npk, p, q = 0;
	size_t i, j, n = 0, max = r1->nsamples < rk->nsamples ?
	    r1->nsamples : rk->nsamples;
	double a, b;
	bm_sample *s;

	memset(out, 0, sizeof *out);
	if (max == 0 || (s = calloc(max, sizeof *s)) == NULL)
		return max == 0 ? BM_ERANGE : -ENOMEM;
	for (p = 0; p < np; p++) {
		size_t before = n;

		i = j = 0;
		for (;;) {
			while (i < r1->nsamples && (r1->samples[i].process %
			    np1) != p)
				i++;
			while (j < rk->nsamples && (rk->samples[j].process %
			    npk) != p)
				j++;
			if (i >= r1->nsamples || j >= rk->nsamples || n >= max)
				break;
			a = r1->samples[i].ns / (double)r1->samples[i].n;
			b = rk->samples[j].ns / (double)rk->samples[j].n / k;
			if (a > 0 && b > 0)
				mem_chase_ratio_sample(&s[n++], a / b,
				    rk->samples[j].worker, q);
			i++;
			j++;
		}
		/* A round without a pair is left out; the next takes its number. */
		if (n > before)
			q++;
	}
	out->samples = s;
	out->nsamples = n;
	out->processes = q;
	out->parallel = 1;
	out->repetitions = rk->repetitions;
	out->warmup_us = rk->warmup_us;
	out->enough_us = rk->enough_us;
	out->wall_s = r1->wall_s + rk->wall_s;
	out->budget_hit = r1->budget_hit || rk->budget_hit;
	out->cycles_per_op = (double)NAN;
	return q > 0 ? 0 : BM_ERANGE;
}

/*
 * The ratios of k chains' samples to one chain's median time per load,
 * one_ns: one chain's ns per load over each sample's ns per load of k
 * chains, in rk's rounds.  For a point served apart (par_mem --role),
 * where one chain is a part of a few visits and the k chains are
 * visited across the budget, so that no pairing of the two holds: the
 * figure's interval then comes from the visits of the k chains.  The
 * ratios' rounds are rk's, and so is the engine's word on how they were
 * made (its reserved room: whether they are a scheduler's visits).  0,
 * BM_ERANGE without a sample, or -ENOMEM.
 */
static int
mem_chase_ratio_median(double one_ns, const bm_result *rk, unsigned k,
    bm_result *out)
{
	size_t i, n = 0;
	double b;
	bm_sample *s;

	memset(out, 0, sizeof *out);
	if (rk->nsamples == 0 || !(one_ns > 0))
		return BM_ERANGE;
	if ((s = calloc(rk->nsamples, sizeof *s)) == NULL)
		return -ENOMEM;
	for (i = 0; i < rk->nsamples; i++) {
		b = rk->samples[i].ns / (double)rk->samples[i].n / k;
		if (b > 0)
			mem_chase_ratio_sample(&s[n++], one_ns / b,
			    rk->samples[i].worker, rk->samples[i].process);
	}
	out->samples = s;
	out->nsamples = n;
	out->processes = rk->processes;
	out->parallel = 1;
	out->repetitions = rk->repetitions;
	out->enough_us = rk->enough_us;
	out->warmup_us = rk->warmup_us;
	out->wall_s = rk->wall_s;
	out->budget_hit = rk->budget_hit;
	out->cycles_per_op = (double)NAN;
	memcpy(out->reserved, rk->reserved, sizeof out->reserved);
	if (n == 0) {
		bm_result_free(out);
		return BM_ERANGE;
	}
	return 0;
}

/*
 * The median and interval of a made-up result's samples (each a figure
 * as its ns, n 1, grouped by process), into per_op_ns and within, and
 * each round's median into process_ns: the ratios of mem_chase_parallelism(),
 * cache's levels.  0, or a library error.
 */
int
mem_chase_result_stats(bm_result *r)
{
	double *v, *med;
	unsigned *round;
	size_t i;
	int rc = -ENOMEM;

	v = malloc(r->nsamples * sizeof *v);
	round = malloc(r->nsamples * sizeof *round);
	med = malloc(r->processes * sizeof *med);
	if (v != NULL && round != NULL && med != NULL) {
		for (i = 0; i < r->nsamples; i++) {
			v[i] = r->samples[i].ns;
			round[i] = r->samples[i].process;
		}
		rc = bm_stats_levels(v, round, r->nsamples, r->processes,
		    &r->per_op_ns, &r->within, med);
	}
	free(v);
	free(round);
	/* Each round's median, kept as bm_run's results keep it. */
	if (rc == 0) {
		free(r->process_ns);
		r->process_ns = med;
	} else
		free(med);
	return rc;
}

/*
 * How many numbers of chains mem_chase_parallelism() measures on a
 * buffer of size bytes at stride (1, 2, 4, 8 and 16, as far as it holds
 * four steps of each chain), one chain included.
 */
unsigned
mem_chase_parallel_ks(size_t size, size_t stride)
{
	unsigned n = 1;

	while (n < MEM_PAR_KS && stride > 0 && size / stride >= 4u << n)
		n++;
	return n;
}

/* The numbers of chains mem_chase_parallelism() tries (index log2 k). */
static const unsigned mem_par_ks[MEM_PAR_KS] = { 1, 2, 4, 8, 16 };

/*
 * How many chases mem_chase_parallelism() makes of a buffer of size
 * bytes at stride, apart or not (mem_chase_parallel_plan): one chain,
 * each number of chains tried, and one chain again after them unless
 * apart or none were tried.
 */
unsigned
mem_chase_parallel_chases(size_t size, size_t stride, int apart)
{
	unsigned nk = mem_chase_parallel_ks(size, stride);

	if (nk == 1)
		return 1;
	return apart ? 2 : nk + 1;
}

/*
 * The chases that measure c's parallelism into w: one chain, then each k
 * from the first tried on (the most chains alone when apart), then one
 * chain again (not apart), met in the state the chains left the buffer
 * in (mem_chase_parallel_judge); returns how many
 * (mem_chase_parallel_chases(), MEM_PAR_KS + 1 at most).
 */
static size_t
mem_chase_parallel_plan(const struct mem_chase *c, int apart,
    struct mem_chase *w)
{
	size_t i, nk, first, n = 0;

	nk = mem_chase_parallel_ks(c->size, c->stride);
	first = apart && nk > 1 ? nk - 1 : 1;
	w[n] = *c;
	w[n++].k = 1;
	for (i = first; i < nk; i++) {
		w[n] = *c;
		w[n++].k = mem_par_ks[i];
	}
	if (!apart && nk > 1) {
		w[n] = *c;
		w[n++].k = 1;
	}
	return n;
}

/* A sample's time per load (its ns over its loads). */
static double
mem_chase_sample_ns(const bm_sample *s)
{
	return s->n > 0 ? s->ns / (double)s->n : (double)NAN;
}

/*
 * One chain's two looks (a, measured before the other chains, and b,
 * after them) as one result in a: each sample of a replaced by the
 * faster of it and its pair in b (sample j of round p of each, as
 * mem_chase_ratio_pair pairs), and a's median time per load made
 * theirs.  One chain so keeps the faster of the buffer's two states it
 * met, the one the size before left and the one the chains left: served
 * as a suite's sweep, one chain measured first and alone met 8 and 16 MB
 * buffers in memory where the chains after it met them in the
 * last-level cache (par_mem(8), JUDGEMENT).  b is freed; 0 or a library
 * error.
 */
int
mem_chase_lower_look(bm_result *a, bm_result *b)
{
	unsigned npa = a->processes > 0 ? a->processes : 1;
	unsigned npb = b->processes > 0 ? b->processes : 1;
	unsigned np = npa < npb ? npa : npb, p;
	size_t i, j, n = 0;
	bm_stats st;
	double *v;
	int rc = 0;

	for (p = 0; p < np; p++) {
		i = j = 0;
		for (;;) {
			while (i < a->nsamples &&
			    (a->samples[i].process % npa) != p)
				i++;
			while (j < b->nsamples &&
			    (b->samples[j].process % npb) != p)
				j++;
			if (i >= a->nsamples || j >= b->nsamples)
				break;
			if (mem_chase_sample_ns(&b->samples[j]) <
			    mem_chase_sample_ns(&a->samples[i])) {
				bm_sample keep = a->samples[i];

				a->samples[i] = b->samples[j];
				a->samples[i].process = keep.process;
				a->samples[i].worker = keep.worker;
			}
			i++;
			j++;
		}
	}
	a->wall_s += b->wall_s;
	a->budget_hit = a->budget_hit || b->budget_hit;
	bm_result_free(b);
	if (a->nsamples == 0)
		return 0;
	if ((v = malloc(a->nsamples * sizeof *v)) == NULL)
		return -ENOMEM;
	for (i = 0; i < a->nsamples; i++) {
		double ns = mem_chase_sample_ns(&a->samples[i]);

		if (ns > 0)
			v[n++] = ns;
	}
	if (n > 0 && (rc = bm_stats_compute(v, n, &st)) == 0)
		a->per_op_ns.median = st.median;
	free(v);
	return rc;
}

/*
 * What the chases of mem_chase_parallel_plan(c, apart) measured into rs
 * make of c's parallelism (p); rs is freed.
 */
static void
mem_chase_parallel_judge(struct tool *t, const struct mem_chase *c,
    int apart, bm_result *rs, struct mem_parallel *p)
{
	bm_result *r1 = &rs[0], *rk, ratio;
	size_t i, nk, first;
	int rc;

	memset(p, 0, sizeof *p);
	p->k = 1;
	p->value = 1;
	for (i = 0; i < MEM_PAR_KS; i++)
		p->ratio[i] = (double)NAN;
	nk = mem_chase_parallel_ks(c->size, c->stride);
	first = apart && nk > 1 ? nk - 1 : 1;
	if (!apart && nk > 1 &&
	    (rc = mem_chase_lower_look(r1, &rs[1 + nk - first])) != 0)
		tool_exit_lib(t, rc, "one chain's two looks");
	p->one_ns = r1->per_op_ns.median;
	p->ratio[0] = 1;
	/* k = 1 against itself: ratios of exactly 1, the floor. */
	if ((rc = mem_chase_ratio_pair(r1, r1, 1, &p->r)) != 0 ||
	    (rc = mem_chase_result_stats(&p->r)) != 0)
		tool_exit_lib(t, rc, "the parallelism's statistics");
	for (i = first; i < nk; i++) {
		rk = &rs[1 + i - first];
		rc = apart ? mem_chase_ratio_median(p->one_ns, rk,
		    mem_par_ks[i], &ratio) : mem_chase_ratio_pair(r1, rk,
		    mem_par_ks[i], &ratio);
		if (rc == 0)
			rc = mem_chase_result_stats(&ratio);
		bm_result_free(rk);
		if (rc != 0)
			tool_exit_lib(t, rc, "the parallelism's statistics");
		p->ratio[i] = ratio.per_op_ns.median;
		if (ratio.per_op_ns.median > p->value) {
			bm_result_free(&p->r);
			p->r = ratio;
			p->value = ratio.per_op_ns.median;
			p->k = mem_par_ks[i];
		} else
			bm_result_free(&ratio);
	}
	bm_result_free(r1);
}

/*
 * Memory-level parallelism of a chase, as lmbench's par_mem: one chain's
 * time per load over the time per load of k interleaved chains (k = 2,
 * 4, 8, 16, as far as the buffer holds four steps of each chain), the
 * best k.  The figure is the median of the paired ratios of the chosen
 * k (mem_chase_ratio_pair) and p->r holds those ratios, so that a record of it
 * has their interval; with no k above one tried, or none better than
 * one, k is 1 and every ratio is exactly 1.  See par_mem(8), NOTES, for
 * the choice of the best k and its bias.  With apart (a point served
 * apart) only one chain and the most chains are measured, the ratios
 * over one chain's median (mem_chase_ratio_median): beyond the caches
 * the most chains did best in each of 60 standard suites of a 2-vCPU
 * Intel Xeon KVM guest (2026-12-01 and 2026-12-02, par_mem(8)), and
 * the chains between would take the visits of a part each.  p->r is
 * freed by mem_chase_parallelism_free().
 */
void
mem_chase_parallelism(struct tool *t, const struct mem_chase *c, int apart,
    struct mem_parallel *p)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct mem_chase w[MEM_PAR_KS + 1];
	static bm_result rs[MEM_PAR_KS + 1];
	size_t i, n;

	n = mem_chase_parallel_plan(c, apart, w);
	/*
	 * Served, the chases of one size are a group on one set of workers
	 * that faults the size's buffer once for them all (mem_chase_group).
	 */
	if (tool_served_inside() && !apart && n > 1)
		mem_chase_group(t, w, n, 0, rs);
	else
		for (i = 0; i < n; i++)
			mem_chase_measure(t, &w[i], &rs[i]);
	mem_chase_parallel_judge(t, c, apart, rs, p);
}

/*
 * The parallelism of n chases c[0..n-1] (a sweep's sizes; their chases,
 * mem_chase_parallel_ks() each, BM_MAX_GROUP at most in all) measured as
 * one group (mem_chase_group) into p[0..n-1]: served, one set of workers
 * maps the largest size's buffer once for every size, where a group a
 * size would map and fault each size's own buffer in a set of its own.
 */
void
mem_chase_parallelism_group(struct tool *t, const struct mem_chase *c,
    size_t n, struct mem_parallel *p)
{
	/* Static, off a stack that a user may limit to 32 KB. */
	static struct mem_chase w[BM_MAX_GROUP];
	static bm_result rs[BM_MAX_GROUP];
	size_t at[BM_MAX_GROUP], i, m = 0;

	/* (Each size adds a chase at least: m >= i, so at[] holds them.) */
	for (i = 0; i < n; i++) {
		if (m + mem_chase_parallel_chases(c[i].size, c[i].stride, 0) >
		    BM_MAX_GROUP)
			tool_exit_fail(t, "a group of more than %d chases",
			    BM_MAX_GROUP);
		at[i] = m;
		m += mem_chase_parallel_plan(&c[i], 0, w + m);
	}
	mem_chase_group(t, w, m, 0, rs);
	for (i = 0; i < n; i++)
		mem_chase_parallel_judge(t, &c[i], 0, rs + at[i], &p[i]);
}

/* Free what mem_chase_parallelism() kept. */
void
mem_chase_parallelism_free(struct mem_parallel *p)
{
	bm_result_free(&p->r);
}

/* One pass of bw_mem's rd over size bytes: one int in four. */
unsigned
mem_chase_read_pass(const unsigned *src, size_t size)
{
	const unsigned *end = src + size / sizeof(unsigned), *p;
	unsigned sum = 0;
	size_t i;

	for (p = src; p < end; p += MEM_INTS) {
		for (i = 0; i < MEM_INTS; i += 4)
			sum += p[i];
	}
	return sum;
}

/* Map and touch the read kernel's buffer. */
int
mem_chase_read_init(bm_iter_t n, void *cookie)
{
	struct mem_read *s = cookie;
	int rc;

	(void)n;
	s->size = s->size / MEM_BLOCK * MEM_BLOCK;
	if ((rc = mem_chase_map(s->size, &s->map)) != 0)
		return rc;
	memset(s->map, 1, s->size);
	return 0;
}

/* Read the buffer n times. */
int
mem_chase_read_run(bm_iter_t n, void *cookie)
{
	struct mem_read *s = cookie;
	unsigned sum = 0;

	while (n-- > 0)
		sum += mem_chase_read_pass((const unsigned *)(void *)s->map, s->size);
	s->sink = sum;
	return 0;
}

/* Unmap the read kernel's buffer. */
int
mem_chase_read_cleanup(bm_iter_t n, void *cookie)
{
	struct mem_read *s = cookie;

	(void)n;
	return mem_chase_unmap(&s->map, s->size);
}
