/* benchmp/regions.h: timing and counting a stretch of the caller's own code. */
#ifndef BENCHMP_REGIONS_H
#define BENCHMP_REGIONS_H

#include <benchmp.h>
#include <benchmp/sinks.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Regions: time and count a stretch of your own code (after ntime's
 * results).  Each start/stop pair reads the clock, the timer's cycle
 * subtimer and the context's events (one perf_event group per region),
 * and adds one sample: the differences minus what a start/stop pair
 * around nothing costs (the clock's from TIMING_O; the cycles' and
 * events' measured once, by bm_region_new()).  bm_region_result() gives
 * the statistics as a bm_result and bm_region_write() sends the
 * cumulative record through a sink.
 *
 * Regions can be switched off: at run time by BENCHMP_REGIONS=off (read
 * by bm_ctx_configure()) or bm_ctx_set_regions(), where bm_region_new()
 * then gives a NULL region and every call on it returns at once without
 * touching its result arguments; at compile time by defining
 * BM_REGIONS_OFF before including this header, where every region call
 * becomes a constant no-op that does not evaluate its arguments (only
 * bm_region_new() stores NULL in *out).
 */
typedef struct bm_region bm_region;

/* One reading of a region, or a sum or difference of readings. */
typedef struct bm_counts {
	uint64_t id;		/* the region's id when it was read */
	uint64_t count;		/* start/stop pairs it covers */
	double ns;		/* clock time, overhead subtracted */
	double cycles;		/* cycle subtimer, or NAN without one */
	size_t nevents;		/* the context's events, in its order */
	double events[BM_MAX_EVENTS];	/* counts, or NAN: not counted */
	/*
	 * When the reading was taken (its end: the stop, or the split
	 * read), after ntime's timestamps: the clock's own reading in ns
	 * (with posix-monotonic, comparable across regions and processes
	 * of the machine) and the ns since the region was created.  A sum
	 * or difference keeps the later of the two readings' times.
	 */
	uint64_t clock_ns;
	double timestamp_ns;
	uint64_t reserved[4];
} bm_counts;

/* Zero a result (NAN figures become 0 too); 0 or -EINVAL. */
BM_EXTERN int bm_counts_zero(bm_counts *c);
/* Copy src to dst; 0 or -EINVAL. */
BM_EXTERN int bm_counts_copy(bm_counts *dst, const bm_counts *src);
/*
 * Add src to dst: count, ns, cycles and each event (NAN, not counted,
 * stays NAN); dst keeps its id; 0 or -EINVAL.
 */
BM_EXTERN int bm_counts_add(bm_counts *dst, const bm_counts *src);
/*
 * Subtract src from dst as bm_counts_add adds: figures may become
 * negative (a difference), the count stops at 0; 0 or -EINVAL.
 */
BM_EXTERN int bm_counts_sub(bm_counts *dst, const bm_counts *src);

/*
 * Switch regions of this context on (1) or off (0), over BENCHMP_REGIONS;
 * regions created before keep their state.  0 or -EINVAL.
 */
BM_EXTERN int bm_ctx_set_regions(bm_ctx *ctx, int on);
/* Return 1 when the context's regions are on, 0 when off. */
BM_EXTERN int bm_ctx_regions(const bm_ctx *ctx);

/* Create a region named name on ctx (NULL in *out when regions are off). */
BM_EXTERN int bm_region_new(bm_ctx *ctx, const char *name, bm_region **out);
/* Set the region's numeric id, carried in its readings and record. */
BM_EXTERN int bm_region_set_id(bm_region *r, uint64_t id);
/* Start a start/stop pair. */
BM_EXTERN void bm_region_start(bm_region *r);
/* Stop the pair and add its sample. */
BM_EXTERN void bm_region_stop(bm_region *r);
/*
 * A split reading: while the region runs, its counts since start,
 * without stopping it; after a stop, the last pair's counts.  0,
 * BM_ERANGE before the first start, or -EINVAL.
 */
BM_EXTERN int bm_region_read(bm_region *r, bm_counts *out);
/* The sum of every start/stop pair so far; 0 or -EINVAL. */
BM_EXTERN int bm_region_total(const bm_region *r, bm_counts *out);
/*
 * The counting overhead bm_region_new() measured and subtracts from each
 * reading (ns is TIMING_O's); 0 or -EINVAL.
 */
BM_EXTERN int bm_region_overhead(const bm_region *r, bm_counts *out);
/*
 * Build a result of the samples so far (free it with bm_result_free);
 * BM_ENOTSUP, res untouched, for a region that is off (NULL).
 */
BM_EXTERN int bm_region_result(const bm_region *r, bm_result *res);
/*
 * Write the region's cumulative record (tool "region") to a sink; with
 * sink NULL, to the configured one (bm_ctx_output(): --output or
 * BENCHMP_OUTPUT as bm_ctx_configure() resolved it), or standard output.
 */
BM_EXTERN int bm_region_write(bm_region *r, bm_sink *sink);
/*
 * Write one reading (from bm_region_read(), a stop's, or a sum or
 * difference of them) as its own record, as ntime writes a result per
 * reading: tool "region", the region's name as case, the reading's time
 * per start/stop pair in microseconds as value, its count, id,
 * timestamp_us and clock_ns as params, its cycles and events.  The sink
 * as bm_region_write's.  0, -EINVAL (c NULL), BM_ERANGE (a count of 0,
 * or a time that is not finite) or the sink's error.
 */
BM_EXTERN int bm_region_write_counts(bm_region *r, const bm_counts *c,
    bm_sink *sink);
/*
 * The names of the region's counters, in the order of bm_counts'
 * events, joined by join (after ntime's counter names, for a header):
 * "cycles, instructions" with ", ".  An empty string without events.
 * 0, -EINVAL (join or buf NULL, len 0) or BM_ERANGE when buf is too
 * short (it then holds as much as fits, terminated).
 */
BM_EXTERN int bm_region_names(const bm_region *r, const char *join,
    char *buf, size_t len);
/* Release a region. */
BM_EXTERN void bm_region_free(bm_region *r);

#if defined(BM_REGIONS_OFF) && !defined(BM_BUILDING_LIBRARY)
/*
 * Compiled out: sizeof names each argument (no unused-variable warning)
 * without evaluating it or emitting code.  A call that returns a value is
 * a statement expression, so that it may be used as a statement without
 * -Wunused-value ("right-hand operand of comma expression has no
 * effect") as well as for its value; compilers without GNU C's
 * statement expressions get the comma form.
 */
#if defined(__GNUC__) || defined(__clang__)
#define BM__OFF(expr, value) (__extension__({ expr; (value); }))
#else
#define BM__OFF(expr, value) ((expr), (value))
#endif
#define bm_region_new(ctx, name, out) \
	BM__OFF(((void)sizeof(ctx), (void)sizeof(name), *(out) = NULL), 0)
#define bm_region_set_id(r, id) \
	BM__OFF(((void)sizeof(r), (void)sizeof(id)), 0)
#define bm_region_start(r) ((void)sizeof(r))
#define bm_region_stop(r) ((void)sizeof(r))
#define bm_region_read(r, out) \
	BM__OFF(((void)sizeof(r), (void)sizeof(out)), 0)
#define bm_region_total(r, out) \
	BM__OFF(((void)sizeof(r), (void)sizeof(out)), 0)
#define bm_region_overhead(r, out) \
	BM__OFF(((void)sizeof(r), (void)sizeof(out)), 0)
#define bm_region_result(r, res) \
	BM__OFF(((void)sizeof(r), (void)sizeof(res)), BM_ENOTSUP)
#define bm_region_write(r, sink) \
	BM__OFF(((void)sizeof(r), (void)sizeof(sink)), 0)
#define bm_region_write_counts(r, c, sink) \
	BM__OFF(((void)sizeof(r), (void)sizeof(c), (void)sizeof(sink)), 0)
#define bm_region_names(r, join, buf, len) \
	BM__OFF(((void)sizeof(r), (void)sizeof(join), (void)sizeof(buf), \
	    (void)sizeof(len)), 0)
#define bm_region_free(r) ((void)sizeof(r))
#elif !defined(BM_BUILDING_LIBRARY)
/*
 * Switched off at run time, a region is NULL: the test is made here, in
 * line, so that an off start/stop pair costs two compares and no call.
 */
/* Start r when it is on. */
static inline void
bm__region_start_if(bm_region *r)
{
	if (r != NULL)
		(bm_region_start)(r);
}

/* Stop r when it is on. */
static inline void
bm__region_stop_if(bm_region *r)
{
	if (r != NULL)
		(bm_region_stop)(r);
}
#define bm_region_start(r) bm__region_start_if(r)
#define bm_region_stop(r) bm__region_stop_if(r)
#endif

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_REGIONS_H */
