/* mem.c: the pointer chase, cache topology and read kernel of the memory tools. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mem.h"

/* The read kernel's block: 512 bytes, read one int in four (bw_mem's rd). */
#define MEM_BLOCK 512
#define MEM_INTS (MEM_BLOCK / sizeof(unsigned))
/* A load process adds to its counter after this many bytes. */
#define MEM_LOAD_CHUNK ((size_t)1 << 20)
/* Counters sit this far apart so that they do not share a cache line. */
#define MEM_COUNTER_GAP 16
#define MEM_SYSFS "/sys/devices/system/cpu/cpu0/cache"

/* Read a small sysfs file into buf; 0 on success. */
static int
mem_read_file(const char *path, char *buf, size_t len)
{
	FILE *f;
	size_t got;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	got = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return got > 0 ? 0 : -1;
}

/* Parse a sysfs size such as "48K" or "1024K"; 0 if malformed. */
static size_t
mem_parse_sysfs_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return (size_t)v;
}

/* Insert a level into the topology, keeping the levels ascending. */
static void
mem_topo_add(struct mem_topo *tp, unsigned level, size_t size, size_t line)
{
	unsigned i;

	if (size == 0 || tp->n >= MEM_MAX_LEVELS)
		return;
	for (i = 0; i < tp->n; i++) {
		if (tp->lv[i].level == level)
			return;
	}
	i = tp->n;
	while (i > 0 && tp->lv[i - 1].level > level) {
		tp->lv[i] = tp->lv[i - 1];
		i--;
	}
	tp->lv[i].level = level;
	tp->lv[i].size = size;
	tp->lv[i].line = line;
	tp->n++;
}

/* Read the data and unified caches of CPU 0 from sysfs. */
static void
mem_topo_sysfs(struct mem_topo *tp)
{
	char path[128], buf[64];
	unsigned idx, level;
	size_t size, line;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof path, MEM_SYSFS "/index%u/type", idx);
		if (mem_read_file(path, buf, sizeof buf) != 0)
			break;
		if (strcmp(buf, "Data") != 0 && strcmp(buf, "Unified") != 0)
			continue;
		snprintf(path, sizeof path, MEM_SYSFS "/index%u/level", idx);
		if (mem_read_file(path, buf, sizeof buf) != 0)
			continue;
		level = (unsigned)strtoul(buf, NULL, 10);
		snprintf(path, sizeof path, MEM_SYSFS "/index%u/size", idx);
		if (mem_read_file(path, buf, sizeof buf) != 0)
			continue;
		size = mem_parse_sysfs_size(buf);
		snprintf(path, sizeof path,
		    MEM_SYSFS "/index%u/coherency_line_size", idx);
		line = 0;
		if (mem_read_file(path, buf, sizeof buf) == 0)
			line = (size_t)strtoul(buf, NULL, 10);
		mem_topo_add(tp, level, size, line);
	}
	if (tp->n > 0)
		tp->source = "sysfs";
}

/* Read the caches from sysconf (glibc takes them from CPUID). */
static void
mem_topo_sysconf(struct mem_topo *tp)
{
#ifdef _SC_LEVEL1_DCACHE_SIZE
	static const int names[][2] = {
		{ _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE },
		{ _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE },
		{ _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE },
		{ _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_LINESIZE },
	};
	long size, line;
	unsigned i;

	for (i = 0; i < 4; i++) {
		size = sysconf(names[i][0]);
		line = sysconf(names[i][1]);
		if (size > 0)
			mem_topo_add(tp, i + 1, (size_t)size,
			    line > 0 ? (size_t)line : 0);
	}
	if (tp->n > 0)
		tp->source = "sysconf";
#else
	(void)tp;
#endif
}

/* Find the cache topology: sysfs, else sysconf, else a guess. */
void
mem_topology(struct mem_topo *tp)
{
	long page;
	unsigned i;

	memset(tp, 0, sizeof *tp);
	mem_topo_sysfs(tp);
	if (tp->n == 0)
		mem_topo_sysconf(tp);
	if (tp->n == 0) {
		mem_topo_add(tp, 1, 32 << 10, 64);
		mem_topo_add(tp, 2, 1 << 20, 64);
		tp->source = "default";
	}
	page = sysconf(_SC_PAGESIZE);
	tp->page = page > 0 ? (size_t)page : 4096;
	tp->line = 0;
	for (i = 0; i < tp->n; i++) {
		if (tp->line == 0 && tp->lv[i].line >= sizeof(void *) &&
		    tp->lv[i].line <= tp->page)
			tp->line = tp->lv[i].line;
	}
	if (tp->line == 0)
		tp->line = 64;
	tp->l1d = tp->lv[0].size;
	tp->llc_reported = tp->lv[tp->n - 1].size;
	tp->llc_plausible = tp->llc_reported <= MEM_LLC_PLAUSIBLE;
	tp->llc = tp->llc_plausible ? tp->llc_reported : MEM_LLC_ASSUMED;
}

/* A size of mult times the last-level cache, within [min, max]. */
size_t
mem_topo_size(const struct mem_topo *tp, unsigned mult, size_t min,
    size_t max)
{
	size_t s = tp->llc * mult;

	if (s < min)
		s = min;
	if (s > max)
		s = max;
	return s;
}

/* The next size of a sweep: 512, 768, 1k, 1.5k, 2k, 3k, 4k, 6k... */
size_t
mem_next_size(size_t size)
{
	size_t p = 1;

	while (p <= size / 2)
		p *= 2;
	return size == p ? p + p / 2 : 2 * p;
}

/*
 * Short points for tools that sweep many sizes: 5 ms intervals (unless
 * ENOUGH says otherwise), 5 repetitions, 2 ms of warmup unless -N or -W
 * were given, and 3 rounds of fresh workers per point unless
 * --processes or BENCHMP_PROCESSES say otherwise (a sweep's points check
 * each other; 5 rounds made cache take 20 s).  The chase walks its whole
 * chain once before timing.  Call after tool_setup().
 */
void
mem_sweep_options(struct tool *t)
{
	tool_default_enough(t, MEM_ENOUGH_US);
	if (!t->reps_given)
		t->opts.repetitions = MEM_SWEEP_REPS;
	t->opts.processes = MEM_SWEEP_PROCESSES;
	if (!t->warmup_given)
		t->opts.warmup_us = MEM_SWEEP_WARMUP_US;
}

/* A 64-bit xorshift* generator: fixed seed, the same chains every run. */
static uint64_t
mem_random(uint64_t *state)
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
mem_shuffle(size_t *v, size_t n, uint64_t *rs)
{
	size_t i, j, tmp;

	for (i = n; i > 1; i--) {
		j = (size_t)(mem_random(rs) % i);
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

/* Link the units of the buffer into one ring in the chase's order. */
static int
mem_chase_build(struct mem_chase *c)
{
	size_t n = c->size / c->stride, upp, ngroups, g, i, u, *seq, *grp;
	uint64_t rs = 0x9E3779B97F4A7C15ULL;
	unsigned j;

	if (n == 0)
		n = 1;
	if ((seq = malloc(n * sizeof *seq)) == NULL)
		return -ENOMEM;
	if (c->order == MEM_ORDER_STRIDE) {
		/* lmbench's order: 0, then backwards from the end. */
		seq[0] = 0;
		for (i = 1; i < n; i++)
			seq[i] = n - i;
	} else {
		upp = c->page > c->stride ? c->page / c->stride : 1;
		ngroups = (n + upp - 1) / upp;
		if ((grp = malloc(ngroups * sizeof *grp)) == NULL) {
			free(seq);
			return -ENOMEM;
		}
		for (g = 0; g < ngroups; g++)
			grp[g] = g;
		if (c->order == MEM_ORDER_RANDOM)
			mem_shuffle(grp, ngroups, &rs);
		i = 0;
		for (g = 0; g < ngroups; g++) {
			size_t first = i;

			for (u = grp[g] * upp; u < n && u < (grp[g] + 1) * upp;
			    u++)
				seq[i++] = u;
			mem_shuffle(seq + first, i - first, &rs);
		}
		free(grp);
	}
	for (i = 0; i < n; i++)
		*(void **)(void *)mem_chase_addr(c, seq[i]) =
		    mem_chase_addr(c, seq[(i + 1) % n]);
	for (j = 0; j < c->k; j++)
		c->p[j] = mem_chase_addr(c, seq[(size_t)j * n / c->k]);
	free(seq);
	return 0;
}

/* Map the buffer, build the chains and walk them once. */
int
mem_chase_init(bm_iter_t n, void *cookie)
{
	struct mem_chase *c = cookie;
	size_t units;
	int rc;

	(void)n;
	c->maplen = (c->size + c->page - 1) / c->page * c->page;
	if (c->maplen < c->stride)
		c->maplen = (c->stride + c->page - 1) / c->page * c->page;
	c->map = mmap(NULL, c->maplen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		return -errno;
	}
#if defined(MADV_NOHUGEPAGE) && defined(MADV_HUGEPAGE)
	if (c->pages != 0)
		(void)madvise(c->map, c->maplen, c->pages < 0 ?
		    MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#endif
	if ((rc = mem_chase_build(c)) != 0)
		return rc;
	units = c->size / c->stride;
	return mem_chase_run(units > 0 ? (units + c->k - 1) / c->k : 1, c);
}

/* Follow the chains n steps each: k dependent loads per step. */
int
mem_chase_run(bm_iter_t n, void *cookie)
{
	struct mem_chase *c = cookie;
	void *p = c->p[0], *q[MEM_MAX_CHAINS];
	unsigned j;

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
	if (c->map != NULL && munmap(c->map, c->maplen) != 0)
		return -errno;
	c->map = NULL;
	return 0;
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
	bm_bench b;
	int rc;

	if ((rc = bm_ctx_force_calibration(t->ctx, BM_CAL_LOOP_O, 0)) != 0)
		tool_lib_fail(t, rc, "LOOP_O");

	if (c->k < 1 || c->k > MEM_MAX_CHAINS)
		c->k = 1;
	if (c->page == 0)
		c->page = 4096;
	b.initialize = mem_chase_init;
	b.benchmark = mem_chase_run;
	b.cleanup = mem_chase_cleanup;
	b.cookie = c;
	tool_run(t, &b, r);
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

/* Parse -L: a line size, a multiple of a pointer, 8 bytes to 64 KB. */
uint64_t
mem_line_arg(const struct tool *t, const char *arg)
{
	uint64_t line = tool_size(t, "-L", arg, sizeof(void *), 65536);

	if (line % sizeof(void *) != 0)
		tool_usage_error(t, "-L %s is not a multiple of %zu bytes",
		    arg, sizeof(void *));
	return line;
}

/*
 * Memory-level parallelism of a chase: the time per load of one chain
 * over the best time per load of k interleaved chains (k = 2, 4, 8, 16),
 * as lmbench's par_mem.  *one gets the single chain's ns per load.
 */
double
mem_parallelism(struct tool *t, const struct mem_chase *c, double *one,
    unsigned *best_k)
{
	static const unsigned ks[] = { 1, 2, 4, 8, 16 };
	struct mem_chase w;
	double t1 = 0, tk, best = 1;
	size_t i;

	*best_k = 1;
	for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		if (ks[i] > 1 && c->size / c->stride < 4 * ks[i])
			break;
		w = *c;
		w.k = ks[i];
		tk = mem_chase_latency(t, &w) / ks[i];
		if (ks[i] == 1)
			t1 = tk;
		else if (tk > 0 && t1 / tk > best) {
			best = t1 / tk;
			*best_k = ks[i];
		}
	}
	*one = t1;
	return best;
}

/* MemAvailable from /proc/meminfo in bytes, or 0 where it is unknown. */
static uint64_t
mem_available(void)
{
	char line[256];
	unsigned long long kb = 0;
	int found = 0;
	FILE *f;

	if ((f = fopen("/proc/meminfo", "re")) == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
	fclose(f);
	return found && kb <= UINT64_MAX / 1024 ? (uint64_t)kb * 1024 : 0;
}

/*
 * Refuse (exit 1) a run whose processes together need more memory than
 * the machine has available (MemAvailable, which counts the page cache
 * the kernel can drop): nprocs workers of per bytes each, and nload load
 * processes of load_per bytes.  Each alone may fit, so the per-process
 * checks pass, and then the kernel's OOM killer ends the run half-way
 * (bw_mem -P 16 4g rd: "worker 1 killed by signal 9" after 49 s).
 */
void
mem_fits(const struct tool *t, uint64_t per, unsigned nprocs,
    uint64_t load_per, unsigned nload)
{
	double need = (double)per * nprocs + (double)load_per * nload;
	uint64_t avail = mem_available();

	if (avail == 0 || need <= (double)avail)
		return;
	if (nload > 0)
		tool_fail(t, "%u worker(s) of %.0f MB and %u load process(es) "
		    "of %.0f MB need %.0f MB; %.0f MB are available "
		    "(MemAvailable)", nprocs, (double)per / 1e6, nload,
		    (double)load_per / 1e6, need / 1e6, (double)avail / 1e6);
	tool_fail(t, "%u worker(s) of %.0f MB need %.0f MB; %.0f MB are "
	    "available (MemAvailable)", nprocs, (double)per / 1e6, need / 1e6,
	    (double)avail / 1e6);
}

/*
 * Refuse a buffer that cannot be mapped (RLIMIT_AS, overcommit) before any
 * worker starts, and one per worker that the machine cannot hold.
 */
void
mem_precheck(const struct tool *t, size_t len)
{
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		tool_fail(t, "cannot allocate %.0f MB: %s", (double)len / 1e6,
		    strerror(errno));
	munmap(p, len);
	mem_fits(t, len, t->opts.parallel, 0, 0);
}

/* One pass of bw_mem's rd over size bytes: one int in four. */
unsigned
mem_read_pass(const unsigned *src, size_t size)
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
mem_read_init(bm_iter_t n, void *cookie)
{
	struct mem_read *s = cookie;

	(void)n;
	s->size = s->size / MEM_BLOCK * MEM_BLOCK;
	s->map = mmap(NULL, s->size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		return -errno;
	}
	memset(s->map, 1, s->size);
	return 0;
}

/* Read the buffer n times. */
int
mem_read_run(bm_iter_t n, void *cookie)
{
	struct mem_read *s = cookie;
	unsigned sum = 0;

	while (n-- > 0)
		sum += mem_read_pass((const unsigned *)(void *)s->map, s->size);
	s->sink = sum;
	return 0;
}

/* Unmap the read kernel's buffer. */
int
mem_read_cleanup(bm_iter_t n, void *cookie)
{
	struct mem_read *s = cookie;

	(void)n;
	if (s->map != NULL && munmap(s->map, s->size) != 0)
		return -errno;
	s->map = NULL;
	return 0;
}

/* The monotonic clock in seconds. */
double
mem_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How a load process that cannot start exits. */
#define MEM_LOAD_ORPHAN 3	/* its parent died before it started */
#define MEM_LOAD_NOMEM 4	/* it could not map and touch its buffer */

/*
 * Describe in why how load process i, which waitpid() reported with
 * status st, ended or stopped.
 */
static void
mem_load_describe(const struct mem_load *l, unsigned i, int st, char *why,
    size_t len)
{
	pid_t pid = l->pids[i];

	if (WIFSTOPPED(st))
		snprintf(why, len, "load process %u (pid %ld) was stopped by "
		    "signal %d (%s)", i, (long)pid, WSTOPSIG(st),
		    strsignal(WSTOPSIG(st)));
	else if (WIFSIGNALED(st))
		snprintf(why, len, "load process %u (pid %ld) was killed by "
		    "signal %d (%s)", i, (long)pid, WTERMSIG(st),
		    strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == MEM_LOAD_NOMEM)
		snprintf(why, len, "load process %u (pid %ld) cannot allocate "
		    "its %.0f MB", i, (long)pid, (double)l->size / 1e6);
	else
		snprintf(why, len, "load process %u (pid %ld) exited with "
		    "status %d", i, (long)pid, WIFEXITED(st) ?
		    WEXITSTATUS(st) : -1);
}

/*
 * Check that every load process still runs: one that died, or was
 * stopped (SIGSTOP, a debugger), makes the figures measured meanwhile
 * those of a lighter load, as a dead partner does.  0, or -1 with why
 * filled (the process is then reaped, or left stopped for mem_load_stop).
 */
int
mem_load_check(struct mem_load *l, char *why, size_t len)
{
	unsigned i;
	pid_t got;
	int st;

	for (i = 0; i < l->n && l->pids != NULL; i++) {
		if (l->pids[i] <= 0)
			continue;
		got = waitpid(l->pids[i], &st, WNOHANG | WUNTRACED);
		if (got == 0)
			continue;
		if (got < 0) {
			snprintf(why, len, "load process %u (pid %ld): %s", i,
			    (long)l->pids[i], strerror(errno));
			return -1;
		}
		mem_load_describe(l, i, st, why, len);
		if (!WIFSTOPPED(st))
			l->pids[i] = 0;
		return -1;
	}
	return 0;
}

/* A load process: read its buffer forever, counting bytes; never returns. */
static void
mem_load_child(struct mem_load *l, unsigned i, pid_t parent)
{
	struct mem_read s;
	size_t off;
	unsigned sum = 0;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(MEM_LOAD_ORPHAN);
	memset(&s, 0, sizeof s);
	s.size = l->size;
	if (mem_read_init(0, &s) != 0)
		_exit(MEM_LOAD_NOMEM);
	for (;;) {
		for (off = 0; off + MEM_LOAD_CHUNK <= s.size;
		    off += MEM_LOAD_CHUNK) {
			sum += mem_read_pass((const unsigned *)(void *)
			    (s.map + off), MEM_LOAD_CHUNK);
			__atomic_fetch_add(&l->bytes[i * MEM_COUNTER_GAP],
			    MEM_LOAD_CHUNK, __ATOMIC_RELAXED);
		}
		s.sink = sum;
	}
}

/*
 * Start n processes that stream memory over size bytes each, and wait
 * until every one is reading.  0, or -1 with why filled (none is left).
 */
int
mem_load_start(struct mem_load *l, unsigned n, size_t size, char *why,
    size_t len)
{
	struct timespec ms = { 0, 1000000 };
	pid_t parent = getpid();
	unsigned i, ready, tries;
	int status;

	memset(l, 0, sizeof *l);
	l->owner = parent;
	l->cap = n;
	l->size = size < MEM_LOAD_CHUNK ? MEM_LOAD_CHUNK : size;
	if ((l->pids = calloc(n, sizeof *l->pids)) == NULL) {
		snprintf(why, len, "no memory for %u load processes", n);
		return -1;
	}
	l->bytes = mmap(NULL, (size_t)n * MEM_COUNTER_GAP * sizeof *l->bytes,
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (l->bytes == MAP_FAILED) {
		snprintf(why, len, "cannot map the load counters: %s",
		    strerror(errno));
		l->bytes = NULL;
		free(l->pids);
		l->pids = NULL;
		return -1;
	}
	fflush(NULL);
	for (i = 0; i < n; i++) {
		if ((l->pids[i] = fork()) < 0) {
			snprintf(why, len, "cannot fork load process %u: %s",
			    i, strerror(errno));
			l->pids[i] = 0;
			mem_load_stop(l);
			return -1;
		}
		l->n = i + 1;
		if (l->pids[i] == 0)
			mem_load_child(l, i, parent);
	}
	for (tries = 0; tries < 30000; tries++) {
		for (i = 0, ready = 0; i < n; i++) {
			if (waitpid(l->pids[i], &status, WNOHANG | WUNTRACED) !=
			    0) {
				mem_load_describe(l, i, status, why, len);
				if (!WIFSTOPPED(status))
					l->pids[i] = 0;
				mem_load_stop(l);
				return -1;
			}
			if (__atomic_load_n(&l->bytes[i * MEM_COUNTER_GAP],
			    __ATOMIC_RELAXED) > 0)
				ready++;
		}
		if (ready == n)
			return 0;
		nanosleep(&ms, NULL);
	}
	snprintf(why, len, "the load processes did not start reading within "
	    "30 s");
	mem_load_stop(l);
	return -1;
}

/* The bytes the load processes have read so far. */
uint64_t
mem_load_bytes(const struct mem_load *l)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < l->n && l->bytes != NULL; i++)
		sum += __atomic_load_n(&l->bytes[i * MEM_COUNTER_GAP],
		    __ATOMIC_RELAXED);
	return sum;
}

/* Kill and reap the load processes (only in the process that started them). */
void
mem_load_stop(struct mem_load *l)
{
	unsigned i;

	if (l->owner != getpid())
		return;
	for (i = 0; i < l->n && l->pids != NULL; i++) {
		if (l->pids[i] > 0) {
			kill(l->pids[i], SIGKILL);
			while (waitpid(l->pids[i], NULL, 0) < 0 &&
			    errno == EINTR)
				;
		}
	}
	if (l->bytes != NULL)
		munmap(l->bytes, (size_t)l->cap * MEM_COUNTER_GAP *
		    sizeof *l->bytes);
	free(l->pids);
	l->pids = NULL;
	l->bytes = NULL;
	l->n = 0;
}

/*
 * Report a figure derived from several runs (a size, a count): without a
 * result of its own, the record's statistics are those of the one value.
 */
void
mem_report_derived(struct tool *t, bm_record *rec, const char *line)
{
	bm_sample sample;
	bm_result r;
	unsigned i;

	if (rec->result != NULL) {
		tool_report(t, rec, line);
		return;
	}
	memset(&r, 0, sizeof r);
	memset(&sample, 0, sizeof sample);
	sample.ns = 1;
	sample.n = 1;
	sample.cycles = (double)NAN;
	for (i = 0; i < BM_MAX_EVENTS; i++)
		sample.events[i] = (double)NAN;
	r.samples = &sample;
	r.nsamples = 1;
	r.parallel = 1;
	r.repetitions = 1;
	r.cycles_per_op = (double)NAN;
	r.per_op_ns.count = 1;
	r.per_op_ns.median = r.per_op_ns.min = r.per_op_ns.max = 1;
	r.per_op_ns.mean = r.per_op_ns.ci_lo = r.per_op_ns.ci_hi = 1;
	rec->scale = rec->value;
	rec->inverse = 0;
	rec->result = &r;
	tool_report(t, rec, line);
	rec->result = NULL;
}
