/* benchmp/timers.h: choosing, listing, adding, reading timers. */
#ifndef BENCHMP_TIMERS_H
#define BENCHMP_TIMERS_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Timers.  A timer is a clock subtimer (passage of time) and an optional
 * cycle subtimer, chosen by a config string such as
 * "clock=posix-monotonic-raw,posix-monotonic cycle=x86-rdtscp,null".
 */
enum bm_subtimer_kind {
	BM_SUBTIMER_CLOCK = 0,
	BM_SUBTIMER_CYCLE = 1
};

/* What bm_timer_list() says of one subtimer. */
typedef struct bm_subtimer_info {
	const char *name;	/* e.g. "posix-monotonic" */
	int kind;		/* enum bm_subtimer_kind */
	int status;		/* 0 when it initialises here, else an error */
	char detail[96];	/* why it does not work, or what it reads */
	uint64_t reserved[4];
} bm_subtimer_info;

/* Fill up to max entries describing every subtimer; *count gets the total. */
BM_EXTERN int bm_timer_list(bm_subtimer_info *out, size_t max, size_t *count);
/* Return 1 when a config string contains the word "list", else 0. */
BM_EXTERN int bm_timer_config_wants_list(const char *config);
/*
 * Print bm_timer_list() to standard output, one subtimer a line ("clock
 * posix-monotonic ok: ..."), as mLib's "list" word does; what
 * bm_ctx_set_timer() does with a config holding "list".  0, or -errno
 * when standard output cannot take it (-ENOSPC on a full disk).
 */
BM_EXTERN int bm_timer_list_print(void);

/*
 * A subtimer a program provides (after mLib's bench_timerops): init()
 * prepares it, returning 0 or a negative error with the reason written to
 * detail (then the next subtimer of the config list is tried); now()
 * reads nanoseconds (a clock) or a count (a cycle counter);
 * after_fork() reopens per-process resources in a forked worker and
 * fini() releases them (both may be NULL).  The callbacks must be safe
 * to call in forked workers.
 */
typedef struct bm_subtimer_class {
	const char *name;	/* the name a config string uses */
	int kind;		/* enum bm_subtimer_kind */
	int (*init)(void **priv, char *detail, size_t len);
	uint64_t (*now)(void *priv);
	int (*after_fork)(void *priv);
	void (*fini)(void *priv);
	/*
	 * BM_SUBTIMER_CONSTANT_RATE (cycle counters only): it counts at a
	 * rate that does not follow the core's frequency, as an invariant
	 * TSC does, so the library measures that rate and converts its
	 * counts to time (bm_ctx_cycle_hz).  0: counts are not converted.
	 */
	unsigned flags;
	uint64_t reserved[4];
} bm_subtimer_class;

/* Flags of a bm_subtimer_class. */
enum {
	BM_SUBTIMER_CONSTANT_RATE = 1u << 0
};

#define BM_MAX_REGISTERED_TIMERS 16
#define BM_TIMER_NAME_MAX 32

/*
 * Add a subtimer to the process's registry so that a config string
 * ("clock=NAME" or "cycle=NAME", --timer, BENCHMP_TIMER) can choose it
 * and bm_timer_list() lists it.  The class is copied (its name too).
 * Not thread-safe: register before creating contexts.  0, -EINVAL (a NULL
 * class, name or callback), BM_ERANGE (unknown kind, empty name or one of
 * BM_TIMER_NAME_MAX bytes or more), BM_EPARSE (a character other than
 * letters, digits, '-', '_' and '.'), BM_ECONFIG (the name "list"),
 * -EEXIST (a name already known) or -ENOSPC (BM_MAX_REGISTERED_TIMERS
 * added already); -EINVAL too for flags unknown, or CONSTANT_RATE on a
 * clock.
 */
BM_EXTERN int bm_timer_register(const bm_subtimer_class *c);
/*
 * Choose the timer from a config string; NULL or "" keeps the current
 * one.  The word "list" prints the subtimers (bm_timer_list_print()) as
 * mLib's bench(3) does; with no clock= or cycle= word beside it the
 * timer stays as it was.
 */
BM_EXTERN int bm_ctx_set_timer(bm_ctx *ctx, const char *config);
/* A reading of a context's timer (after mLib's struct bench_time). */
typedef struct bm_time {
	unsigned flags;		/* BM_TIME_OK, BM_TIME_CYCLES_OK */
	uint64_t ns;		/* the clock subtimer, in ns */
	uint64_t cycles;	/* the cycle subtimer's count */
	uint64_t reserved[2];
} bm_time;

enum {
	BM_TIME_OK = 1u << 0,		/* ns is valid */
	BM_TIME_CYCLES_OK = 1u << 1	/* cycles is valid */
};

/*
 * Read the context's timer now, as its intervals read it: the clock
 * subtimer, and the cycle subtimer when there is one that counts
 * (otherwise cycles is 0 without BM_TIME_CYCLES_OK).  Neither has a
 * defined origin: subtract two readings.  0 or -EINVAL.
 */
BM_EXTERN int bm_timer_now(const bm_ctx *ctx, bm_time *t);
/* The name of the active clock or cycle subtimer. */
BM_EXTERN const char *bm_ctx_timer_name(const bm_ctx *ctx, int kind);
/*
 * The cycle subtimer's rate, to turn its counts into time.  Only a
 * counter that ticks at a constant rate has one: the x86 TSC when it is
 * invariant (CPUID 0x80000007 EDX bit 8, or constant_tsc and nonstop_tsc
 * in /proc/cpuinfo) and a registered BM_SUBTIMER_CONSTANT_RATE counter;
 * core cycles (linux-perf-event) follow the core's frequency and null
 * counts nothing.  The rate is measured once per context and timer
 * (against CLOCK_MONOTONIC, the median of a few windows of 5 ms, about
 * 25 ms in all; bm_calibrate() does it too), unless BENCHMP_TSC_HZ or
 * bm_ctx_set_cycle_hz() gives it.  0 with *hz; BM_ENOTSUP when the
 * counter has no constant rate (*invariant -1: not a reference counter,
 * 0: a TSC that is not invariant); BM_ECALIB when the measurement failed
 * (the counter stood still or ran backwards, or the machine was too busy
 * for a clean window).  The detail is on ctx; *hz is NAN then.
 * invariant may be NULL.
 */
BM_EXTERN int bm_ctx_cycle_hz(bm_ctx *ctx, double *hz, int *invariant);
/*
 * Give the cycle subtimer's rate, as BENCHMP_TSC_HZ would but over it
 * (source cmdline), so that no measurement runs; 0 forgets it (measured
 * again when needed).  Out of BM_CYCLE_HZ_MIN to BM_CYCLE_HZ_MAX is
 * BM_ERANGE.  A counter without a constant rate still converts nothing.
 */
BM_EXTERN int bm_ctx_set_cycle_hz(bm_ctx *ctx, double hz);
#define BM_CYCLE_HZ_MIN 1e6	/* 1 MHz */
#define BM_CYCLE_HZ_MAX 1e11	/* 100 GHz */

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_TIMERS_H */
