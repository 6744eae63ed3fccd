/* benchmp/settings.h: parsers, setters, sources of settings. */
#ifndef BENCHMP_SETTINGS_H
#define BENCHMP_SETTINGS_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The limits of bm_options that bm_run() accepts. */
#define BM_MAX_PERCENTILE_OPS 1000000
#define BM_MAX_PARALLEL 4096
#define BM_MAX_REPETITIONS 100000
#define BM_MAX_PROCESSES 100

/*
 * Parsers for numbers a user types, with full checking: no sign, no
 * trailing garbage, no overflow.  They return 0, BM_EPARSE or BM_ERANGE.
 */

/* Parse a size with an optional k/m/g suffix (powers of 1024, as lmbench). */
BM_EXTERN int bm_parse_size(const char *s, uint64_t *out);
/* Parse an unsigned decimal integer within [min, max]. */
BM_EXTERN int bm_parse_uint(const char *s, uint64_t min, uint64_t max,
    uint64_t *out);
/* Parse a finite decimal number within [min, max]. */
BM_EXTERN int bm_parse_double(const char *s, double min, double max,
    double *out);
/* Choose the worker placement policy: default, single, unique, list:CPUS. */
BM_EXTERN int bm_ctx_set_sched(bm_ctx *ctx, const char *policy);
/*
 * Run every benchmark in at least min and at most max rounds of fresh
 * worker processes (max 0: as many as min), whatever bm_options says:
 * the environment's BENCHMP_PROCESSES and a tool's --processes come here.
 * Out of range (min 1 to BM_MAX_PROCESSES, max 0 or min to
 * BM_MAX_PROCESSES) is BM_ERANGE.
 */
BM_EXTERN int bm_ctx_set_processes(bm_ctx *ctx, unsigned min, unsigned max);
/*
 * Interference accounting on (1, the default) or off (0): with it on,
 * each worker reads its run-queue wait, CPU time, involuntary switches
 * and CPU before and after every timed interval (outside it), discards a
 * disturbed interval and runs it again, up to as many again as it keeps;
 * bm_result's interference says what it saw.  BENCHMP_INTERFERENCE
 * (on/off, 1/0) sets it from the environment.
 */
BM_EXTERN int bm_ctx_set_interference(bm_ctx *ctx, int on);
/*
 * The precision a figure is held to: it is flagged noisy when the
 * interval its record shows reaches further than share of it on either
 * side (default 0.03).  Out of range (0.001 to 1) is BM_ERANGE.
 */
BM_EXTERN int bm_ctx_set_precision(bm_ctx *ctx, double share);
/*
 * Parse "MIN" or "MIN:MAX" as bm_ctx_set_processes() takes it; 0,
 * BM_EPARSE or BM_ERANGE.
 */
BM_EXTERN int bm_parse_processes(const char *s, unsigned *min, unsigned *max);
/* Where a setting's value came from, lowest precedence first. */
enum {
	BM_SOURCE_BUILTIN = 0,	/* the library's default or measurement */
	BM_SOURCE_TOOL,		/* the program's own default */
	BM_SOURCE_ENV,		/* the environment (or bm_ctx_set_calibration) */
	BM_SOURCE_CMDLINE	/* the command line (or a bm_ctx_set_* call) */
};

/* The settings a context keeps the source of. */
enum {
	BM_SETTING_TIMER,	/* BENCHMP_TIMER, --timer */
	BM_SETTING_ENOUGH,	/* ENOUGH */
	BM_SETTING_TIMING_O,	/* TIMING_O */
	BM_SETTING_LOOP_O,	/* LOOP_O */
	BM_SETTING_SCHED,	/* BENCHMP_SCHED, LMBENCH_SCHED */
	BM_SETTING_PROCESSES,	/* BENCHMP_PROCESSES, --processes */
	BM_SETTING_EVENTS,	/* BENCHMP_EVENTS, --events */
	BM_SETTING_OUTPUT,	/* BENCHMP_OUTPUT, --output */
	BM_SETTING_REGIONS,	/* BENCHMP_REGIONS, bm_ctx_set_regions */
	BM_SETTING_TSC_HZ,	/* BENCHMP_TSC_HZ, bm_ctx_set_cycle_hz */
	BM_SETTING_INTERFERENCE,	/* BENCHMP_INTERFERENCE, --no-interference */
	BM_NSETTINGS
};

/*
 * A program's defaults and its command line, for bm_ctx_configure().
 * NULL (0 for a number) means not given.  The command-line strings are
 * named in errors as the options --timer, --enough, --output, --events
 * and --processes; an empty one is an error, as typed.
 */
typedef struct bm_settings {
	const char *timer_default;	/* the program's timer config */
	uint64_t enough_default_us;	/* the program's ENOUGH */
	const char *output_default;	/* the program's sink spec */
	const char *timer;		/* --timer=CONFIG */
	const char *enough;		/* --enough=US */
	const char *output;		/* --output=SINK */
	const char *events;		/* --events=LIST */
	const char *processes;		/* --processes=MIN[:MAX] */
	const char *interference;	/* "on" or "off" (--no-interference) */
	uint64_t reserved[8];
} bm_settings;

/*
 * Resolve every setting from its sources, built-in default < the
 * program's default < environment < command line, and remember each
 * one's source.  Every value of every source is checked before anything
 * is applied, so an error leaves the context as it was; the timer is
 * built once, from the winning source.  BENCHMP_TIMER containing the word
 * "list" is refused (BM_ECONFIG) unless the command line names a timer.
 * s NULL: the environment alone, as bm_ctx_load_env().
 */
BM_EXTERN int bm_ctx_configure(bm_ctx *ctx, const bm_settings *s);
/* The source of a setting (BM_SOURCE_*), or -EINVAL. */
BM_EXTERN int bm_ctx_source(const bm_ctx *ctx, unsigned setting);
/* "builtin", "tool", "env" or "cmdline"; NULL for another value. */
BM_EXTERN const char *bm_source_name(int source);
/* The sink spec chosen by bm_ctx_configure(), or NULL for none (stdout). */
BM_EXTERN const char *bm_ctx_output(const bm_ctx *ctx);
/*
 * The number of CPUs this process may run on (its affinity mask, or the
 * CPUs online when the mask cannot be read); at least 1.  bm_run() makes
 * intervals longer when the workers outnumber them.
 */
BM_EXTERN unsigned bm_cpus_allowed(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_SETTINGS_H */
