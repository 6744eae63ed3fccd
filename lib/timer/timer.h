/*
 * timer.h: the timer's internals: the subtimer backends (timer-*.c,
 * cycle-*.c), the timer they make (timer.c) and the cycle rate (tsc.c).
 */
#ifndef BM_TIMER_TIMER_H
#define BM_TIMER_TIMER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "benchmp.h"

/* Flags of a subtimer backend. */
enum {
	BM__ST_NODATA = 1u << 0	/* initialises but reports nothing (null) */
};

/*
 * One subtimer backend, defined in its own file (timer-*.c, cycle-*.c).
 * init() returns 0 or an error and writes why into detail; now() reads
 * nanoseconds (clocks) or a count (cycle counters); after_fork() reopens
 * per-process resources in a freshly forked worker.
 */
typedef struct bm__subtimer_ops {
	const char *name;
	int kind;			/* enum bm_subtimer_kind */
	unsigned flags;			/* BM__ST_* */
	const char *what;		/* one line: what it reads */
	int (*init)(void **priv, char *detail, size_t len);
	uint64_t (*now)(void *priv);
	int (*after_fork)(void *priv);	/* may be NULL */
	void (*fini)(void *priv);	/* may be NULL */
	/*
	 * A cycle counter that may tick at a constant rate: 1 when it does
	 * here, 0 when not, with how that was found or why not in detail.
	 * NULL: its counts follow the core (or are none), never converted.
	 */
	int (*constant_rate)(char *detail, size_t len);
} bm__subtimer_ops;

/* The backends the build includes (see timer.c's registry). */
extern const bm__subtimer_ops bm__clock_posix_monotonic;
extern const bm__subtimer_ops bm__clock_posix_monotonic_raw;
extern const bm__subtimer_ops bm__clock_posix_thread_cputime;
extern const bm__subtimer_ops bm__clock_stdc_clock;
extern const bm__subtimer_ops bm__cycle_x86_rdtscp;
extern const bm__subtimer_ops bm__cycle_x86_rdtsc;
extern const bm__subtimer_ops bm__cycle_linux_perf_event;
extern const bm__subtimer_ops bm__cycle_null;

/*
 * Shared by the POSIX clock backends (timer.c): check that a clock works
 * and describe it in detail; read it in nanoseconds.
 */
int bm__posix_clock_init(clockid_t id, const char *name, char *detail,
    size_t len);

static inline uint64_t
bm__posix_clock_read(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Return 1 when CPUID says the x86 TSC is invariant (cycle-x86-rdtscp.c). */
int bm__x86_tsc_invariant(void);
/*
 * Return 1 when the TSC ticks at a constant rate: CPUID's invariant bit,
 * or constant_tsc and nonstop_tsc in /proc/cpuinfo (a virtual machine
 * often hides the bit while the kernel knows); say which, or why not.
 */
int bm__x86_tsc_constant(char *detail, size_t len);

/* A timer: an initialised clock and cycle subtimer. */
typedef struct bm__timer {
	const bm__subtimer_ops *clock;
	void *clock_priv;
	const bm__subtimer_ops *cycle;	/* never NULL once initialised */
	void *cycle_priv;
} bm__timer;

/*
 * Initialise a timer from a config string (NULL: the default).  On error,
 * err names the offending word or subtimer.  The word "list" is ignored
 * here: the caller prints the list.
 */
int bm__timer_init(bm__timer *t, const char *config, char *err,
    size_t errlen);
/*
 * Check a config string as bm__timer_init() would, initialising nothing:
 * 0, or BM_EPARSE or BM_ECONFIG with err naming the word.
 */
int bm__timer_check(const char *config, char *err, size_t errlen);
/* Release a timer's subtimers. */
void bm__timer_fini(bm__timer *t);
/* Reopen per-process resources after fork (perf event descriptors). */
int bm__timer_after_fork(bm__timer *t);

/* Read the clock subtimer in nanoseconds. */
static inline uint64_t
bm__clock_now(const bm__timer *t)
{
	return t->clock->now(t->clock_priv);
}

/* Return 1 when the cycle subtimer reports counts. */
static inline int
bm__timer_has_cycles(const bm__timer *t)
{
	return t->cycle != NULL && !(t->cycle->flags & BM__ST_NODATA);
}

/* Read the cycle subtimer. */
static inline uint64_t
bm__cycle_now(const bm__timer *t)
{
	return t->cycle->now(t->cycle_priv);
}

/*
 * The cycle subtimer's rate (tsc.c), decided once per timer: known is 0
 * until then and after the timer changes.  given_hz (BENCHMP_TSC_HZ or
 * bm_ctx_set_cycle_hz, 0: none) outlives the timer, as given calibration
 * values do.
 */
typedef struct bm__cycle_rate {
	int known;
	int status;		/* 0, BM_ENOTSUP or BM_ECALIB */
	int invariant;		/* 1, 0, or -1: not a reference counter */
	double hz;		/* NAN unless status is 0 */
	double given_hz;
	int measured;		/* 1: hz was measured here */
	double spread;		/* (max - min) / median of the windows, or NAN */
	unsigned windows;	/* clean windows behind a measured hz */
	char detail[160];	/* how invariance was found, or why no hz */
} bm__cycle_rate;

/*
 * Decide the context's cycle rate if it is not known for its timer:
 * measure it, take the given one, or note why there is none.  Never
 * fails the caller: the outcome is in ctx->rate.
 */
void bm__tsc_settle(bm_ctx *ctx);

/* Return 1 when a timer config has no word but "list" (timer.c). */
int bm__timer_config_only_list(const char *config);

#endif /* BM_TIMER_TIMER_H */
