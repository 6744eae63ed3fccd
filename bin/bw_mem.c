/* bw_mem.c: memory bandwidth of reading, writing and copying, as lmbench's bw_mem. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/mem.h"
#include "common/tool.h"

/*
 * Memory moves in blocks of 512 bytes (128 ints), the unit lmbench's loops
 * are unrolled over.  The "rd", "wr", "rdwr" and "cp" modes touch one int
 * in four (one every 16 bytes) yet count every byte, as lmbench's do, so
 * that their figures compare with lmbench's; the "f" modes touch them all.
 */
#define BW_BLOCK 512
#define BW_INTS (BW_BLOCK / sizeof(unsigned))
/* The second buffer of "conflict" starts this far from the first. */
#define BW_CONFLICT_ALIGN (2u << 20)
/*
 * The largest size accepted: any larger and the mapping's length could
 * overflow.  Sizes no machine has are refused by mmap, a runtime error.
 */
#define BW_MAX_SIZE ((uint64_t)(SIZE_MAX / 4))

/* One worker's buffers. */
struct bw_state {
	size_t size;		/* bytes per buffer, a multiple of BW_BLOCK */
	int two;		/* the mode copies: a second buffer */
	int conflict;		/* place both buffers on the same cache sets */
	char *map;		/* the mapping(s) */
	size_t maplen;
	unsigned *src;		/* unsigned: sums wrap instead of overflowing */
	unsigned *dst;
	volatile unsigned sink;	/* keeps reads from being optimised away */
};

/*
 * The 32 ints of a block that "rd" reads (one in four), summed in one
 * expression: its loads do not wait on each other or on a loop's branch,
 * so the processor has many misses in flight, as lmbench's unrolled read
 * has; read as a loop they gave 14-17% less (doc/measurements.md,
 * "bw_mem rd: the block as one sum").
 */
#define BW_RD4(p, o) ((p)[o] + (p)[(o) + 4] + (p)[(o) + 8] + (p)[(o) + 12])
#define BW_RD_BLOCK(p) (BW_RD4(p, 0) + BW_RD4(p, 16) + BW_RD4(p, 32) + \
	BW_RD4(p, 48) + BW_RD4(p, 64) + BW_RD4(p, 80) + BW_RD4(p, 96) + \
	BW_RD4(p, 112))
_Static_assert(BW_INTS == 128, "BW_RD_BLOCK reads a block of 128 ints");

/* Read one int in four. */
static int
bw_rd(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	const unsigned *end = s->src + s->size / sizeof(unsigned), *p;
	unsigned sum = 0;

	while (n-- > 0) {
		for (p = s->src; p < end; p += BW_INTS)
			sum += BW_RD_BLOCK(p);
	}
	s->sink = sum;
	return 0;
}

/* Write one int in four. */
static int
bw_wr(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	unsigned *end = s->src + s->size / sizeof(unsigned), *p;
	size_t i;

	while (n-- > 0) {
		for (p = s->src; p < end; p += BW_INTS) {
			for (i = 0; i < BW_INTS; i += 4)
				p[i] = (unsigned)n;
		}
	}
	return 0;
}

/* Read and write back one int in four. */
static int
bw_rdwr(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	unsigned *end = s->src + s->size / sizeof(unsigned), *p;
	unsigned sum = 0;
	size_t i;

	while (n-- > 0) {
		for (p = s->src; p < end; p += BW_INTS) {
			for (i = 0; i < BW_INTS; i += 4) {
				sum += p[i];
				p[i] = sum;
			}
		}
	}
	s->sink = sum;
	return 0;
}

/* Copy one int in four. */
static int
bw_cp(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	const unsigned *end = s->src + s->size / sizeof(unsigned), *p;
	unsigned *d;
	size_t i;

	while (n-- > 0) {
		for (p = s->src, d = s->dst; p < end; p += BW_INTS,
		    d += BW_INTS) {
			for (i = 0; i < BW_INTS; i += 4)
				d[i] = p[i];
		}
	}
	return 0;
}

/* Read every int. */
static int
bw_frd(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	const unsigned *end = s->src + s->size / sizeof(unsigned), *p;
	unsigned sum = 0;

	while (n-- > 0) {
		for (p = s->src; p < end; p++)
			sum += *p;
	}
	s->sink = sum;
	return 0;
}

/* Write every int. */
static int
bw_fwr(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	unsigned *end = s->src + s->size / sizeof(unsigned), *p;

	while (n-- > 0) {
		for (p = s->src; p < end; p++)
			*p = (unsigned)n;
	}
	return 0;
}

/* Copy every int. */
static int
bw_fcp(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	const unsigned *end = s->src + s->size / sizeof(unsigned), *p;
	unsigned *d;

	while (n-- > 0) {
		for (p = s->src, d = s->dst; p < end; p++, d++)
			*d = *p;
	}
	return 0;
}

/* Zero the buffer with the C library. */
static int
bw_bzero(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;

	while (n-- > 0) {
		memset(s->src, 0, s->size);
		__asm__ volatile("" : : "r"(s->src) : "memory");
	}
	return 0;
}

/* Copy the buffer with the C library. */
static int
bw_bcopy(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;

	while (n-- > 0) {
		memmove(s->dst, s->src, s->size);
		__asm__ volatile("" : : "r"(s->dst) : "memory");
	}
	return 0;
}

/* How long the mapping for the buffers must be. */
static size_t
bw_maplen(const struct bw_state *s)
{
	size_t gap;

	if (!s->two)
		return s->size;
	/*
	 * With conflict the second buffer starts a multiple of 2 MB after
	 * the first, so both have the same low address bits and fall on
	 * the same sets of every cache indexed by them; without it, one
	 * 512-byte block more keeps them apart.
	 */
	gap = s->conflict ? (s->size + BW_CONFLICT_ALIGN - 1) /
	    BW_CONFLICT_ALIGN * BW_CONFLICT_ALIGN : s->size + BW_BLOCK;
	return gap + s->size;
}

/* Map and touch a worker's buffers. */
static int
bw_init(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;
	int rc;

	(void)n;
	s->maplen = bw_maplen(s);
	/* What is timed reads and writes, whatever the buffer holds. */
	if ((rc = mem_pool_map(s->maplen, &s->map)) < 0)
		return rc;
	s->src = (unsigned *)(void *)s->map;
	s->dst = s->two ? (unsigned *)(void *)(s->map + s->maplen - s->size) :
	    NULL;
	/* Fault every page in now, not in the first timed pass. */
	memset(s->map, 1, s->maplen);
	return 0;
}

/* Unmap a worker's buffers. */
static int
bw_cleanup(bm_iter_t n, void *cookie)
{
	struct bw_state *s = cookie;

	(void)n;
	return mem_chase_unmap(&s->map, s->maplen);
}

static const struct bw_mode {
	const char *name;
	bm_fn fn;
	int two;
} bw_modes[] = {
	{ "rd", bw_rd, 0 },
	{ "wr", bw_wr, 0 },
	{ "rdwr", bw_rdwr, 0 },
	{ "cp", bw_cp, 1 },
	{ "frd", bw_frd, 0 },
	{ "fwr", bw_fwr, 0 },
	{ "fcp", bw_fcp, 1 },
	{ "bzero", bw_bzero, 0 },
	{ "bcopy", bw_bcopy, 1 },
};

#define BW_NMODES (sizeof(bw_modes) / sizeof(bw_modes[0]))

/*
 * Check that the buffers can be mapped at all before forking workers, so
 * that an impossible size is one clear message, not one per worker.
 */
static void
bw_precheck(const struct tool *t, const struct bw_state *s)
{
	size_t len = bw_maplen(s);
	const char *pool;
	void *p;

	if (mem_pool_fd(&pool, NULL) == -EINVAL)
		tool_exit_usage(t, "BENCHMP_POOL: '%.40s' is not an open "
		    "memory file", pool);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tool_exit_fail(t, "cannot allocate %.0f MB: %s",
		    (double)len / 1e6,
		    strerror(errno));
	munmap(p, len);
	mem_topo_fits(t, len, t->opts.parallel, 0, 0);
}

/*
 * Measure each mode's bandwidth and print "MB MB/s" for it, in the order
 * given.  Several modes share one worker's buffers (two when one of them
 * copies): served (benchmp-sched), one set of workers serves them all,
 * its buffers faulted once; run by hand, each mode runs as it would
 * alone, one after another.
 */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "bw_mem",
		.args = "size mode [mode...] [conflict]",
		.extra_usage = "\nmode is rd, wr, rdwr, cp, frd, fwr, fcp, bzero "
		    "or bcopy.  size takes a k, m or g\nsuffix (powers of "
		    "1024) and is rounded down to a multiple of 512 bytes.\n"
	};
	struct bw_state s;
	const struct bw_mode *m[BW_NMODES];
	/* Static, off a stack that a user may limit to 32 KB. */
	static bm_bench b[BW_NMODES];
	static bm_result r[BW_NMODES];
	bm_param params[2], found;
	bm_record rec;
	char line[128];
	uint64_t size;
	size_t n = 0, i, j;
	int first;

	memset(&s, 0, sizeof s);
	first = tool_parse(&t, argc, argv, NULL, NULL, NULL, NULL);
	if (argc - first < 2)
		tool_exit_usage(&t, "missing %s", argc - first == 0 ?
		    "the size and the mode" : "the mode");
	size = tool_size(&t, "size", argv[first], BW_BLOCK, BW_MAX_SIZE);
	m[n++] = tool_mode(&t, "mode", argv[first + 1], TOOL_TABLE(bw_modes));
	s.two = m[0]->two;
	for (i = (size_t)first + 2; i < (size_t)argc; i++) {
		if (strcmp(argv[i], "conflict") == 0) {
			if (i + 1 < (size_t)argc)
				tool_exit_usage(&t, "too many arguments "
				    "(conflict comes last)");
			s.conflict = 1;
			break;
		}
		if (n == BW_NMODES)
			tool_exit_usage(&t, "too many arguments");
		m[n] = tool_mode_find(argv[i], TOOL_TABLE(bw_modes));
		if (m[n] == NULL)
			tool_exit_usage(&t, "unknown argument '%s' (expected "
			    "a mode or conflict)", argv[i]);
		for (j = 0; j < n; j++)
			if (m[j] == m[n])
				tool_exit_usage(&t, "mode '%s' given twice",
				    argv[i]);
		s.two |= m[n]->two;
		n++;
	}
	s.size = (size_t)(size / BW_BLOCK * BW_BLOCK);
	tool_big_run(&t, (uint64_t)bw_maplen(&s));
	tool_setup(&t);
	bw_precheck(&t, &s);

	for (i = 0; i < n; i++) {
		b[i].initialize = bw_init;
		b[i].benchmark = m[i]->fn;
		b[i].cleanup = bw_cleanup;
		b[i].cookie = &s;
	}
	/* By hand, each mode maps what it alone needs, as it would alone. */
	if (n == 1 || tool_served_inside()) {
		tool_run_group(&t, b, n, r);
	} else {
		for (i = 0; i < n; i++) {
			s.two = m[i]->two;
			tool_run(&t, &b[i], &r[i]);
		}
	}

	params[0] = tool_record_param("size", NULL, (double)s.size);
	params[1] = tool_record_param("conflict", s.conflict ? "yes" : "no", 0);
	for (i = 0; i < n; i++) {
		tool_record_bw(&rec, &t, m[i]->name, params, 2, &r[i],
		    (double)s.size);
		/* Where the buffers came from: a scheduler's pool or not. */
		found = tool_record_param("buffer", mem_pool_holds(bw_maplen(&s),
		    t.opts.parallel) ? "pool" : "private", 0);
		rec.measured = &found;
		rec.nmeasured = 1;
		snprintf(line, sizeof line, "%.2f ", (double)s.size / 1e6);
		tool_report_value(&t, &rec, line, 2, "");
		bm_result_free(&r[i]);
	}
	return tool_finish(&t);
}
