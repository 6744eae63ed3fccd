/*
 * mem.h: what the memory-hierarchy tools share: topology (mem-topo.c), the
 * chase and read kernels (mem-chase.c), the sweep options (mem-sweep.c),
 * load processes (mem-load.c) and reporting (mem-report.c).
 */
#ifndef BM_MEM_H
#define BM_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchmp/figures.h"
#include "tool.h"

#define MEM_MAX_LEVELS 4
/*
 * A last-level cache reported larger than this is not believed: virtual
 * machines report whole-socket or made-up L3 sizes (512 MB here), and no
 * core sees more than 96 MB of L3 on any current part.  In its place the
 * sizing assumes MEM_LLC_ASSUMED.
 */
#define MEM_LLC_PLAUSIBLE ((size_t)128 << 20)
#define MEM_LLC_ASSUMED ((size_t)32 << 20)
/* The interval used by sweeping tools when ENOUGH is not set. */
#define MEM_ENOUGH_US 5000
/* The repetitions per point of sweeping tools when -N is not given. */
#define MEM_SWEEP_REPS 5
#define MEM_SWEEP_PROCESSES 3
/* The warmup per point of sweeping tools when -W is not given. */
#define MEM_SWEEP_WARMUP_US 2000
/* The most independent chases par_mem and cache interleave. */
#define MEM_MAX_CHAINS 16
/* The largest buffer any tool accepts. */
#define MEM_MAX_LEN ((uint64_t)1 << 40)

/* One data or unified cache level. */
struct mem_level {
	unsigned level;
	size_t size;
	size_t line;
};

/* The cache hierarchy as seen from CPU 0. */
struct mem_topo {
	struct mem_level lv[MEM_MAX_LEVELS];	/* ascending levels */
	unsigned n;
	size_t l1d;		/* the first level's size */
	size_t llc;		/* the last level used for sizing */
	size_t llc_reported;	/* the last level as the system reports it */
	int llc_plausible;	/* llc_reported was believed */
	size_t line;		/* coherency line size */
	size_t page;		/* the page size */
	const char *source;	/* "sysfs", "sysconf" or "default" */
};

/* How a chase visits the lines of its buffer. */
enum mem_order {
	MEM_ORDER_STRIDE,	/* forwards by a fixed stride, as lmbench */
	MEM_ORDER_PAGE,		/* pages in order, lines shuffled in each */
	MEM_ORDER_RANDOM	/* pages shuffled, lines shuffled in each */
};

/* One worker's pointer chase: k independent chains through one buffer. */
struct mem_chase {
	size_t size;		/* bytes the chase covers */
	size_t stride;		/* bytes between chased pointers */
	size_t page;		/* the unit of MEM_ORDER_PAGE and _RANDOM */
	size_t offset_step;	/* tlb: added to the offset per page */
	int order;		/* enum mem_order */
	int pages;		/* -1 small pages, 1 huge, 0 as the system */
	unsigned k;		/* chains, 1 to MEM_MAX_CHAINS */
	/*
	 * A sweep's points served as one group (mem_chase_group): the
	 * prefix of one buffer of keep bytes the worker maps once and keeps
	 * from point to point; 0, a buffer of the chase's own.
	 */
	size_t keep;
	char *map;
	size_t maplen;
	void *p[MEM_MAX_CHAINS];
	volatile uintptr_t sink;
};

/* One worker of the read kernel (bw_mem's rd). */
struct mem_read {
	size_t size;
	char *map;
	volatile unsigned sink;
};

/* Processes that stream memory while something else is measured. */
struct mem_load {
	unsigned n;		/* started */
	unsigned cap;		/* asked for: the counters mapped */
	size_t size;		/* each one's buffer */
	pid_t *pids;
	uint64_t *bytes;	/* shared counters, one per process */
	pid_t owner;
};

void mem_topo_detect(struct mem_topo *tp);
void mem_topo_detect_at(struct mem_topo *tp, const char *root);
size_t mem_topo_size(const struct mem_topo *tp, unsigned mult, size_t min,
    size_t max);
size_t mem_topo_next_size(size_t size);
void mem_sweep_options(struct tool *t);

/* The -L and -M of the sweep tools (cache, line, par_mem, tlb). */
struct mem_sweep_opts {
	uint64_t line;		/* -L, or the cache's line */
	uint64_t len;		/* -M, or 0 for the tool's default */
	uint64_t min_len;	/* the smallest -M accepted */
};

/* tool_parse's callback for -c (accepted, ignored), -L and -M. */
void mem_sweep_option(struct tool *t, int opt, const char *arg, void *cookie);
/*
 * Parse a sweep tool's options (no operands), find the topology and
 * default -L to the cache's line.
 */
void mem_sweep_parse(struct tool *t, int argc, char **argv,
    const char *optstring, struct mem_sweep_opts *o, struct mem_topo *tp);
/*
 * The same with long options of the tool's own: extra takes every
 * option with cookie, and gives -c, -L and -M to mem_sweep_option()
 * with o.
 */
void mem_sweep_parse_long(struct tool *t, int argc, char **argv,
    const char *optstring, const struct option *longopts,
    tool_option_fn *extra, void *cookie, struct mem_sweep_opts *o,
    struct mem_topo *tp);
/* The chase of cache and par_mem: lines shuffled in each page, pages in order. */
void mem_chase_paged(struct mem_chase *c, size_t size, size_t line,
    size_t page);
/* Refuse an -L larger than a page (exit 2). */
void mem_sweep_line_fits(struct tool *t, const struct mem_sweep_opts *o,
    const struct mem_topo *tp);

/*
 * Map len bytes of private anonymous memory into *map (left NULL on
 * failure).  0 or -errno.
 */
int mem_chase_map(size_t len, char **map);
/*
 * The pool a scheduler sets aside for a run (benchmp-sched --pool): a
 * memory file faulted once, named by BENCHMP_POOL=FD.  A bandwidth
 * buffer of MEM_POOL_MIN bytes or more is mapped from it, shared, each
 * worker of a figure at its own MEM_POOL_ALIGN-aligned slot (worker i at
 * i slots), instead of being faulted afresh: a 2-vCPU Intel Xeon KVM
 * guest, 2026-12-01, faulted cold memory at 2 to 4 ms a MB, most of a
 * 256 MB figure's set-up.  Only buffers whose contents do not matter to
 * what is timed use it, as the figures that map it at once share its
 * pages (bw_mem's; not a chase's links nor stream's numbers).
 */
#define MEM_POOL_MIN ((size_t)8 << 20)
#define MEM_POOL_ALIGN ((uint64_t)2 << 20)
#define MEM_POOL_MAX_FD 1048576u
/*
 * The pool's descriptor: -1 without BENCHMP_POOL, -EINVAL when it does
 * not name an open, non-empty memory file sealed against shrinking and
 * growing; *value and *size (each may be NULL) get the variable and the
 * pool's size in bytes (0 without one).
 */
int mem_pool_fd(const char **value, int64_t *size);
/*
 * Map len bytes for the running worker: from the pool when there is one,
 * len is at least MEM_POOL_MIN and the worker's slot fits (1), else as
 * mem_chase_map() (0); unmap with mem_chase_unmap().  -errno on failure.
 */
int mem_pool_map(size_t len, char **map);
/* Whether mem_pool_map() gives each of n workers len bytes of the pool. */
int mem_pool_holds(size_t len, unsigned n);
/* Unmap *map (len bytes) when it is mapped and set it NULL; 0 or -errno. */
int mem_chase_unmap(char **map, size_t len);

int mem_chase_init(bm_iter_t n, void *cookie);
int mem_chase_run(bm_iter_t n, void *cookie);
int mem_chase_cleanup(bm_iter_t n, void *cookie);
void mem_chase_measure(struct tool *t, struct mem_chase *c, bm_result *r);
void mem_chase_group(struct tool *t, struct mem_chase *c, size_t n,
    size_t keep, bm_result *r);
double mem_chase_latency(struct tool *t, struct mem_chase *c);
uint64_t mem_sweep_line_arg(const struct tool *t, const char *arg);
/* The k tried by mem_chase_parallelism: 1, 2, 4, 8, 16 (index log2 k). */
#define MEM_PAR_KS 5
/* What mem_chase_parallelism() found for one chase. */
struct mem_parallel {
	double value;		/* the chosen k's median ratio, at least 1 */
	unsigned k;		/* the chains chosen */
	double one_ns;		/* one chain's median ns per load */
	double ratio[MEM_PAR_KS];	/* each k's median ratio, NAN if not tried */
	bm_result r;		/* the chosen k's paired ratios (ns = ratio) */
};
unsigned mem_chase_parallel_ks(size_t size, size_t stride);
unsigned mem_chase_parallel_chases(size_t size, size_t stride, int apart);
int mem_chase_lower_look(bm_result *a, bm_result *b);
void mem_chase_parallelism(struct tool *t, const struct mem_chase *c,
    int apart, struct mem_parallel *p);
void mem_chase_parallelism_group(struct tool *t, const struct mem_chase *c,
    size_t n, struct mem_parallel *p);
void mem_chase_parallelism_free(struct mem_parallel *p);
int mem_chase_result_stats(bm_result *r);
void mem_topo_precheck(const struct tool *t, size_t len);
void mem_topo_fits(const struct tool *t, uint64_t per, unsigned nprocs,
    uint64_t load_per, unsigned nload);

unsigned mem_chase_read_pass(const unsigned *src, size_t size);
int mem_chase_read_init(bm_iter_t n, void *cookie);
int mem_chase_read_run(bm_iter_t n, void *cookie);
int mem_chase_read_cleanup(bm_iter_t n, void *cookie);

int mem_load_start(struct mem_load *l, unsigned n, size_t size, char *why,
    size_t len);
int mem_load_check(struct mem_load *l, char *why, size_t len);
uint64_t mem_load_bytes(const struct mem_load *l);
void mem_load_stop(struct mem_load *l);
double mem_load_now(void);

void mem_report_derived(struct tool *t, bm_record *rec, tool_line_fn fn,
    const void *cookie);
/* tool_line_fn of a value printed as a whole number: "%.0f\n". */
void mem_report_line_whole(const bm_record *rec, const void *cookie, char *line,
    size_t len);

/* The judgement of the sweeps' figures (mem-rules.c). */
int mem_rules_line_knee(const double *lat, size_t n, size_t *index,
    double *cost);
const char *mem_rules_topo_stated(const struct mem_topo *tp);
int mem_rules_answers_result(const double *v, size_t n, bm_result *r);
size_t mem_rules_round_medians(const bm_result *r, double *med, size_t max);
int mem_rules_level_size_check(const struct mem_topo *tp, unsigned level,
    size_t measured, bm_contradiction *c, char *what, size_t len);
int mem_rules_tlb_read(const double *spread, const double *packed, size_t n,
    size_t *reach, double *cost);
size_t mem_rules_tlb_bisect(const size_t *pages, const double *spread,
    const double *packed, size_t n);
size_t mem_rules_tlb_bisect_points(size_t lo, size_t hi);
int mem_rules_tlb_partial(const double *spread, const double *packed,
    size_t n, size_t first, double *first_ns, double *full_ns);

#endif /* BM_MEM_H */
