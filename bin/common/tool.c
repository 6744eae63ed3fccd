/* tool.c: a tool's options and context: parsing, setup, running, finishing. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/settings.h"
#include "benchmp/sinks.h"
#include "benchmp/timers.h"
#include "cluster.h"
#include "tool.h"
#include "tool-private.h"

#define TOOL_MAX_LONG 32
#define TOOL_MAX_WARMUP_US 3600000000u

enum {
	TOOL_OPT_JSON = 1,
	TOOL_OPT_TIMER,
	TOOL_OPT_OUTPUT,
	TOOL_OPT_EVENTS,
	TOOL_OPT_PERCENTILES,
	TOOL_OPT_PROCESSES,
	TOOL_OPT_FORCE,
	TOOL_OPT_NO_INTERFERENCE,
	TOOL_OPT_MAX_TIME,
	TOOL_OPT_LATER_WARMUP,
	TOOL_OPT_PRECISION,
	TOOL_OPT_SERVED,
	TOOL_OPT_TIMEOUT
};

/*
 * A tool's whole run, every figure it measures, is bounded by this much
 * wall time unless --max-time or BENCHMP_MAX_TIME says otherwise: no round
 * is started past it (the engine's max_time_us), and a record whose
 * rounds were cut says budget_hit.  lmbench-named tools on a noisy machine
 * otherwise ran for minutes.  The bound is in seconds, 0.01 to a day.
 */
#define TOOL_DEFAULT_MAX_TIME_S 60.0
#define TOOL_MAX_MAX_TIME_S 86400.0
/*
 * --served's shortest spread: a fifth of a second still gives a quick
 * figure its SCHED_MIN_VISITS (a cold lat_syscall null within 0.3 s).
 */
#define TOOL_MIN_SERVED_S 0.2

/*
 * Workers per CPU above which a run is refused unless forced.  Each
 * worker waits its turn for a scheduler slice in every interval, so a run
 * grows with the square of the crowd: on 2 CPUs, 64 per CPU took 20 s
 * here and 2048 per CPU (-P 4096) more than four minutes, printing
 * nothing; and the figure is then the scheduler's, not the operation's.
 */
#define TOOL_MAX_PER_CPU 64

/*
 * The warmup when -W is not given: a fresh process runs its first tens of
 * milliseconds slowly (page faults, cold caches and predictors, the
 * scheduler placing it; doc/measurements.md, "The first warmup").
 * lmbench's default is none.
 */
#define TOOL_DEFAULT_WARMUP_US 50000
/*
 * The same, served (benchmp-sched): a fresh worker set's first visit
 * follows other figures' visits on a machine the scheduler keeps busy.
 * 10 ms, as a figure across CPUs gets before each later visit, left the
 * figures' medians where 50 ms put them, and a suite measured for 2 to 3
 * points more of its time (doc/measurements.md, "2026-12-03, from 07:32
 * UTC: a fresh set's first warmup, served").  A figure across CPUs keeps
 * the full warmup.
 */
#define TOOL_SERVED_WARMUP_US 10000

/*
 * The warmup of each round after a figure's first, unless -W or
 * --later-warmup says otherwise: the first round's warmup brings the
 * machine to the figure's state, and a later round's fresh workers warm up
 * their own pages and caches in milliseconds (doc/measurements.md, "The
 * later rounds' warmup").
 */
#define TOOL_LATER_WARMUP_US 5000

/*
 * Workers that each initialise this much memory run fewer rounds and
 * intervals by default (tool_big_run): a round of bw_mem over 1 GB spends
 * about a second touching its buffers and a third of one per operation.
 */
#define TOOL_BIG_BYTES ((uint64_t)64 << 20)
#define TOOL_BIG_PROCESSES 3
#define TOOL_BIG_REPETITIONS 2

/* Single operations timed per worker for --percentiles without a count. */
#define TOOL_DEFAULT_PERCENTILES 10000

static const struct option tool_long_common[] = {
	{ "json", no_argument, NULL, TOOL_OPT_JSON },
	{ "timer", required_argument, NULL, TOOL_OPT_TIMER },
	{ "output", required_argument, NULL, TOOL_OPT_OUTPUT },
	{ "events", required_argument, NULL, TOOL_OPT_EVENTS },
	{ "percentiles", optional_argument, NULL, TOOL_OPT_PERCENTILES },
	{ "processes", required_argument, NULL, TOOL_OPT_PROCESSES },
	{ "force", no_argument, NULL, TOOL_OPT_FORCE },
	{ "no-interference", no_argument, NULL, TOOL_OPT_NO_INTERFERENCE },
	{ "max-time", required_argument, NULL, TOOL_OPT_MAX_TIME },
	{ "later-warmup", required_argument, NULL, TOOL_OPT_LATER_WARMUP },
	{ "precision", required_argument, NULL, TOOL_OPT_PRECISION },
	{ "served", required_argument, NULL, TOOL_OPT_SERVED },
	{ "timeout", required_argument, NULL, TOOL_OPT_TIMEOUT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
};
#define TOOL_NCOMMON (sizeof tool_long_common / sizeof tool_long_common[0])

/* Monotonic time in ns, for the tool's time bound. */
static uint64_t
tool_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Print the one-line usage.  It is formatted into a static buffer and
 * written with fputs: fprintf on unbuffered stderr formats through a
 * buffer of BUFSIZ on the stack, and under ulimit -s 32 lat_proc's usage
 * error died of that (SIGSEGV after its message, in a make check whose
 * environment took more of the stack), where its measurement runs in 20
 * KB.  A tool prints from one thread.
 */
void
tool_usage_line(const struct tool *t, FILE *f)
{
	static char line[2048];

	(void)snprintf(line, sizeof(line), "usage: %s [-P n] [-W us] "
	    "[-N reps] [--json] [--timer=CONFIG] [--output=SINK] "
	    "[--events=LIST] [--percentiles[=N]] [--processes=MIN[:MAX]] "
	    "[--force] [--no-interference] [--max-time=S] "
	    "[--later-warmup=us] [--precision=P] [--served=S] %s%s\n",
	    t->name, t->own_timeout ? "" : "[--timeout=S] ", t->args);
	fputs(line, f);
}

/* Print the full help to stdout and exit 0. */
static void __attribute__((noreturn))
tool_help(const struct tool *t)
{
	tool_usage_line(t, stdout);
	printf("\n"
	    "  -P n            run n worker processes in parallel (1 to %u)\n"
	    "  -W us           warm up for us microseconds before timing "
	    "(default %u)\n"
	    "  -N reps         timed intervals per worker (1 to %u, "
	    "default %u)\n"
	    "  --json          print one JSON record per result instead of "
	    "the line\n"
	    "  --timer=CONFIG  clock=NAMES cycle=NAMES, or list\n"
	    "  --output=SINK   also send records to -, file:PATH, "
	    "tcp:HOST:PORT, unix:PATH or zmq:ENDPOINT\n"
	    "  --events=LIST   count perf events per operation (page-faults,"
	    "task-clock,...)\n"
	    "  --percentiles[=N]  also time N single operations per worker "
	    "(default %u)\n"
	    "  --processes=MIN[:MAX]  rounds of fresh workers (default %u; "
	    "up to MAX while\n"
	    "                  the interval is wider than 1%%)\n"
	    "  --force         run more than %u workers per CPU\n"
	    "  --no-interference  do not judge intervals by the machine's "
	    "interference\n"
	    "                  (run-queue wait, time off the CPU) nor run "
	    "disturbed ones again\n"
	    "  --max-time=S    start no round past S seconds of the tool's "
	    "run (default %g)\n"
	    "  --later-warmup=us  warm up for us microseconds before each "
	    "round after a\n"
	    "                  figure's first (default %u, or -W's when given; "
	    "not for a\n"
	    "                  figure across CPUs)\n"
	    "  --precision=P   flag a figure noisy when its interval reaches "
	    "past P%%\n"
	    "                  of it (0.1 to 100, default 3; served, when "
	    "the next run's\n"
	    "                  move does at one standard deviation); with "
	    "--processes=MIN:MAX,\n"
	    "                  add rounds until it does not\n"
	    "  --served=S      run under benchmp-sched: visits of kept "
	    "workers spread\n"
	    "                  over S seconds (with --precision, until it "
	    "is reached)\n",
	    BM_MAX_PARALLEL, TOOL_DEFAULT_WARMUP_US, BM_MAX_REPETITIONS,
	    BM_DEFAULT_REPETITIONS, TOOL_DEFAULT_PERCENTILES,
	    BM_DEFAULT_PROCESSES, TOOL_MAX_PER_CPU, TOOL_DEFAULT_MAX_TIME_S,
	    TOOL_LATER_WARMUP_US);
	if (!t->own_timeout)
		fputs("  --timeout=S     wait at most S seconds for the workers "
		    "at each step (0.01 to\n"
		    "                  86400; default a minute for their "
		    "set-up, 10 s and twice the\n"
		    "                  planned intervals for the others)\n",
		    stdout);
	fputs("  -h, --help      print this help\n"
	    "  -V, --version   print the version\n", stdout);
	if (t->extra_usage != NULL)
		fputs(t->extra_usage, stdout);
	printf("\nEnvironment: ENOUGH, TIMING_O, LOOP_O, BENCHMP_TIMER, "
	    "BENCHMP_SCHED, BENCHMP_OUTPUT, BENCHMP_EVENTS,\n"
	    "BENCHMP_PROCESSES, BENCHMP_FORCE, BENCHMP_INTERFERENCE,\n"
	    "BENCHMP_MAX_TIME, BENCHMP_WARMUP, BENCHMP_LATER_WARMUP, "
	    "BENCHMP_PRECISION%s.  Results go to stdout; see %s(8).\n",
	    t->own_timeout ? "" : ",\nBENCHMP_TIMEOUT", t->name);
	tool_exit_printed(t);
}

/* Parse a percentage from 0.1 to 100 as a share, or exit 2 naming it. */
static double
tool_percent(const struct tool *t, const char *what, const char *s)
{
	double v;

	if (bm_parse_double(s, 0.1, 100, &v) != 0)
		tool_exit_usage(t, "%s: '%s' is not a percentage from 0.1 to "
		    "100", what, s);
	return v / 100;
}

/* Parse an unsigned number within [min, max] or exit 2 naming it. */
uint64_t
tool_uint(const struct tool *t, const char *what, const char *s,
    uint64_t min, uint64_t max)
{
	uint64_t v = 0;
	int rc;

	if ((rc = bm_parse_uint(s, min, max, &v)) == BM_EPARSE)
		tool_exit_usage(t, "%s: '%s' is not a number", what, s);
	if (rc != 0)
		tool_exit_usage(t, "%s: %s is out of range (%llu to %llu)",
		    what, s, (unsigned long long)min, (unsigned long long)max);
	return v;
}

/* Find a mode by name in a table of named entries or exit 2 naming it. */
const void *
tool_mode(const struct tool *t, const char *what, const char *name,
    const void *table, size_t n, size_t size)
{
	const void *entry = tool_mode_find(name, table, n, size);

	if (entry == NULL)
		tool_exit_usage(t, "unknown %s '%s'", what, name);
	return entry;
}

/* The entry of table (n of size bytes) that name names, or NULL. */
const void *
tool_mode_find(const char *name, const void *table, size_t n, size_t size)
{
	const char *entry = table;
	size_t i;

	/* Each entry starts with its name, so it is where the entry is. */
	for (i = 0; i < n; i++, entry += size)
		if (strcmp(name, *(const char *const *)(const void *)entry) == 0)
			return entry;
	return NULL;
}

/* Parse a size with k/m/g within [min, max] or exit 2 naming it. */
uint64_t
tool_size(const struct tool *t, const char *what, const char *s,
    uint64_t min, uint64_t max)
{
	uint64_t v = 0;
	int rc;

	rc = bm_parse_size(s, &v);
	if (rc == BM_EPARSE)
		tool_exit_usage(t, "%s: '%s' is not a size (digits and an "
		    "optional k, m or g)", what, s);
	if (rc != 0 || v < min || v > max)
		tool_exit_usage(t, "%s: %s is out of range (%llu to %llu "
		    "bytes)", what, s, (unsigned long long)min,
		    (unsigned long long)max);
	return v;
}

/* Print every subtimer and whether it works here, then exit 0. */
static void __attribute__((noreturn))
tool_list_timers(const struct tool *t)
{
	/* A stdout that cannot take the list is tool_exit_printed's. */
	if (bm_timer_list_print() != 0 && !ferror(stdout))
		tool_exit_fail(t, "cannot list the timers");
	tool_exit_printed(t);
}

/*
 * Print the version and, as curl -V does, the optional features this
 * build has (scripts ask for "mpi"); exit 0.
 */
static void __attribute__((noreturn))
tool_version(const struct tool *t)
{
	const char *mpi = cluster_feature();

	printf("%s (benchmp) %s\n", t->name, bm_version());
	printf("features:%s%s%s\n",
#ifdef BM_HAVE_ZMQ
	    " zmq",
#else
	    "",
#endif
	    *mpi != '\0' ? " " : "", mpi);
	tool_exit_printed(t);
}

/*
 * Make sure descriptors 0, 1 and 2 are open before the tool opens
 * anything: a tool started with stdout closed (>&-) would otherwise get
 * one of its own descriptors as number 1 and write its result into it (a
 * worker's pipe, /dev/null).  A missing descriptor becomes /dev/null
 * opened the other way round (stdout read-only, stdin write-only), so
 * that it stays taken while a write to stdout still fails with EBADF, as
 * it would closed, and the result is reported lost, never silently.
 */
static void
tool_std_fds(const struct tool *t)
{
	static const char msg[] = ": cannot open /dev/null for a closed "
	    "standard descriptor\n";
	int fd, got;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		got = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY));
		/* The lowest free number: fd, as the lower ones are open. */
		if (got != fd) {
			if (got >= 0)
				(void)close(got);
			(void)!write(STDERR_FILENO, t->name, strlen(t->name));
			(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
			_exit(1);
		}
	}
}

/* An option's argument, or the usage error "OPT: empty WHAT" if it is "". */
static const char *
tool_nonempty(const struct tool *t, const char *opt, const char *what,
    const char *arg)
{
	if (*arg == '\0')
		tool_exit_usage(t, "%s: empty %s", opt, what);
	return arg;
}

/* Parse a time bound in seconds or exit 2 naming where it came from. */
static double
tool_seconds(struct tool *t, const char *what, const char *arg)
{
	double v;
	int rc;

	if ((rc = bm_parse_double(arg, 0.01, TOOL_MAX_MAX_TIME_S, &v)) != 0)
		tool_exit_usage(t, "%s: '%s' is %s (seconds, 0.01 to %g)",
		    what, arg, rc == BM_EPARSE ? "not a number" :
		    "out of range", TOOL_MAX_MAX_TIME_S);
	return v;
}

/*
 * --timeout's seconds (or BENCHMP_TIMEOUT's, named by what) as the
 * engine's bound on each wait for the workers, in microseconds.
 */
static uint64_t
tool_wait_us(struct tool *t, const char *what, const char *arg)
{
	return (uint64_t)(tool_seconds(t, what, arg) * 1e6 + 0.5);
}

/*
 * Give standard error a buffer of its own, flushed at each newline.
 * Unbuffered, each fprintf to it formats through a buffer of BUFSIZ on
 * the stack (glibc), and lat_fs's warning under ulimit -s 32 died of
 * that with an environment of a few KB.  Messages end in a newline, so
 * each line still leaves at once; exit flushes the rest.
 */
static void
tool_stderr_buffer(void)
{
	static char buf[BUFSIZ];

	(void)setvbuf(stderr, buf, _IOLBF, sizeof(buf));
}

/* The command line's words as given, while tool_parse() runs. */
static char **tool_words;

/* Parse the command line; return the index of the first operand. */
int
tool_parse(struct tool *t, int argc, char **argv, const char *extra_short,
    const struct option *extra_long, tool_option_fn *extra, void *cookie)
{
	struct option longopts[TOOL_MAX_LONG];
	char shortopts[64];
	unsigned pmin, pmax;
	size_t n = 0;
	const char *env;
	int opt, rc;

	tool_std_fds(t);
	tool_stderr_buffer();
	/*
	 * The words as given, before getopt moves them (--served); kept
	 * where a usage error's exit still reaches them.
	 */
	if ((tool_words = calloc((size_t)argc + 1, sizeof(*tool_words))) ==
	    NULL)
		tool_exit_fail(t, "out of memory");
	memcpy(tool_words, argv, (size_t)argc * sizeof(*tool_words));
	/* Before anything can fail, so that every exit leaves MPI in order. */
	cluster_init(t->name);
	bm_options_init(&t->opts);
	t->opts.warmup_us = TOOL_DEFAULT_WARMUP_US;
	/* BENCHMP_WARMUP stands for -W, which still overrides it. */
	if ((env = getenv("BENCHMP_WARMUP")) != NULL && *env != '\0') {
		t->opts.warmup_us = tool_uint(t, "BENCHMP_WARMUP", env, 0,
		    TOOL_MAX_WARMUP_US);
		t->warmup_given = 1;
	}
	t->started_ns = tool_now_ns();
	/*
	 * The tool's own options first: getopt_long takes the first exact
	 * match, so one of the same name as a common one wins (lat_cmd's
	 * --timeout bounds its command, not the workers' waits).
	 */
	n = 0;
	while (extra_long != NULL && extra_long->name != NULL &&
	    n < TOOL_MAX_LONG - 1 - TOOL_NCOMMON)
		longopts[n++] = *extra_long++;
	memcpy(&longopts[n], tool_long_common, sizeof tool_long_common);
	n += TOOL_NCOMMON;
	memset(&longopts[n], 0, sizeof longopts[n]);
	/*
	 * getopt_long's default order lets options follow the operands (it
	 * moves the operands to the end of argv) and stops at "--", as GNU
	 * tools do (POSIX's order when POSIXLY_CORRECT is set); a leading
	 * '+' stops at the first operand, for a command whose own options
	 * follow it.
	 */
	snprintf(shortopts, sizeof shortopts, "%sP:W:N:hV%s",
	    t->options_first ? "+" : "",
	    extra_short != NULL ? extra_short : "");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 'P':
			t->opts.parallel = (unsigned)tool_uint(t, "-P", optarg,
			    1, BM_MAX_PARALLEL);
			break;
		case 'W':
			t->opts.warmup_us = tool_uint(t, "-W", optarg, 0,
			    TOOL_MAX_WARMUP_US);
			t->warmup_given = 1;
			break;
		case 'N':
			t->opts.repetitions = (unsigned)tool_uint(t, "-N",
			    optarg, 1, BM_MAX_REPETITIONS);
			t->reps_given = 1;
			break;
		case 'h':
			tool_help(t);
		case 'V':
			tool_version(t);
		case TOOL_OPT_JSON:
			t->json = 1;
			break;
		case TOOL_OPT_TIMER:
			t->timer = tool_nonempty(t, "--timer", "config",
			    optarg);
			break;
		case TOOL_OPT_OUTPUT:
			t->output = optarg;
			break;
		case TOOL_OPT_EVENTS:
			t->events = tool_nonempty(t, "--events", "list",
			    optarg);
			break;
		case TOOL_OPT_FORCE:
			t->force = 1;
			t->force_source = BM_SOURCE_CMDLINE;
			break;
		case TOOL_OPT_PERCENTILES:
			t->opts.percentiles = optarg == NULL ?
			    TOOL_DEFAULT_PERCENTILES : (unsigned)tool_uint(t,
			    "--percentiles", optarg, 1, BM_MAX_PERCENTILE_OPS);
			break;
		case TOOL_OPT_NO_INTERFERENCE:
			t->interference = "off";
			break;
		case TOOL_OPT_MAX_TIME:
			t->max_time_s = tool_seconds(t, "--max-time", optarg);
			break;
		case TOOL_OPT_TIMEOUT:
			t->opts.timeout_us = tool_wait_us(t, "--timeout",
			    optarg);
			break;
		case TOOL_OPT_LATER_WARMUP:
			t->later_warmup_us = tool_uint(t, "--later-warmup",
			    optarg, 1, TOOL_MAX_WARMUP_US);
			break;
		case TOOL_OPT_PRECISION:
			t->precision = tool_percent(t, "--precision", optarg);
			break;
		case TOOL_OPT_SERVED:
			if (t->no_served)
				tool_exit_usage(t, "--served does not apply: "
				    "%s serves no figure to a scheduler",
				    t->name);
			if (bm_parse_double(optarg, TOOL_MIN_SERVED_S,
			    TOOL_MAX_MAX_TIME_S, &t->served_s) != 0)
				tool_exit_usage(t, "--served: '%s' is not a "
				    "number of seconds from %g to %g", optarg,
				    TOOL_MIN_SERVED_S,
				    TOOL_MAX_MAX_TIME_S);
			break;
		case TOOL_OPT_PROCESSES:
			if ((rc = bm_parse_processes(optarg, &pmin,
			    &pmax)) != 0)
				tool_exit_usage(t, "--processes: '%s' is %s "
				    "(MIN or MIN:MAX, 1 to %u)", optarg,
				    rc == BM_EPARSE ? "not a number" :
				    "out of range", BM_MAX_PROCESSES);
			t->processes = optarg;
			break;
		case '?':
			/* A long option's optopt is its code, not a letter. */
			if (optopt > ' ' && optopt < 127)
				tool_exit_usage(t, "unknown option or missing "
				    "value: -%c", optopt);
			tool_exit_usage(t, "unknown option or missing value: "
			    "%s", argv[optind - 1]);
		case ':':
			tool_exit_usage(t, "option needs a value: %s",
			    argv[optind - 1]);
		default:
			if (extra == NULL)
				tool_exit_usage(t, "unexpected option");
			extra(t, opt, optarg, cookie);
			break;
		}
	}
	if (t->timer != NULL && bm_timer_config_wants_list(t->timer))
		tool_list_timers(t);
	/*
	 * --served runs the tool under benchmp-sched with the figures it
	 * measures one after another; served already (--served says nothing
	 * more), the tool tells the scheduler those itself, for a plan line
	 * that does not (tool_setup).
	 */
	if (t->served_s > 0 || tool_served_inside()) {
		unsigned parts = 0, figures = t->placements > 1 ?
		    t->placements : 1;

		if (t->served_figures != NULL)
			figures = t->served_figures(t, argv + optind,
			    argc - optind, cookie, &parts);
		if (!tool_served_inside())
			tool_served_exec(t, argc, tool_words, figures, parts);
		t->serve_figures = figures;
		t->serve_parts = parts;
	}
	free(tool_words);
	tool_words = NULL;
	return optind;
}

/* Intervals of at least us, whatever ENOUGH says (a floor in the options). */
void
tool_min_enough(struct tool *t, uint64_t us)
{
	if (t->opts.enough_us < us)
		t->opts.enough_us = us;
}

/* Fewer rounds and intervals by default for workers of 64 MB and more. */
void
tool_big_run(struct tool *t, uint64_t bytes)
{
	if (bytes < TOOL_BIG_BYTES)
		return;
	t->opts.processes = TOOL_BIG_PROCESSES;
	if (!t->reps_given)
		t->opts.repetitions = TOOL_BIG_REPETITIONS;
}

/*
 * Served and without -W or BENCHMP_WARMUP, the first warmup of a fresh
 * worker set: TOOL_SERVED_WARMUP_US, or the tool's default where the
 * figure warms up fully (full: its processes cross CPUs).
 */
void
tool_served_warmup(struct tool *t, int full)
{
	if (t->warmup_given || !tool_served_inside())
		return;
	t->opts.warmup_us = full ? TOOL_DEFAULT_WARMUP_US :
	    TOOL_SERVED_WARMUP_US;
}

/* Cap the warmup of the later runs at us unless -W was given. */
void
tool_later_warmup(struct tool *t, uint64_t us)
{
	if (!t->warmup_given && t->opts.warmup_us > us)
		t->opts.warmup_us = us;
}

/*
 * Resolve the tool setting force once, with its source: --force (the
 * command line) over BENCHMP_FORCE (the environment) over the built-in
 * "no".  The variable is checked whatever wins, as the library checks
 * every source of its settings: a value other than 0 or 1 exits 2; an
 * empty one is unset.
 */
static void
tool_read_force(struct tool *t)
{
	const char *env = getenv("BENCHMP_FORCE");

	if (env == NULL || *env == '\0')
		return;
	if (strcmp(env, "0") != 0 && strcmp(env, "1") != 0)
		tool_exit_usage(t, "BENCHMP_FORCE: '%s' is not 0 or 1", env);
	if (t->force_source < BM_SOURCE_ENV) {
		t->force = *env == '1';
		t->force_source = BM_SOURCE_ENV;
	}
}

/*
 * Refuse more than TOOL_MAX_PER_CPU workers per CPU unless the force
 * setting (tool_read_force) says to run them anyway (exit 2, with how to
 * force it).
 */
static void
tool_check_crowd(struct tool *t)
{
	unsigned cpus = bm_cpus_allowed();

	if (t->force || t->opts.parallel <= (uint64_t)TOOL_MAX_PER_CPU * cpus)
		return;
	tool_exit_usage(t, "-P %u: %u worker(s) per CPU on %u CPU(s) is more "
	    "than %u per CPU; such a run takes minutes and measures the "
	    "scheduler: use --force (or BENCHMP_FORCE=1) to run it anyway%s",
	    t->opts.parallel, (t->opts.parallel + cpus - 1) / cpus, cpus,
	    TOOL_MAX_PER_CPU, t->force_source == BM_SOURCE_ENV ?
	    " (BENCHMP_FORCE=0 is set)" : "");
}

/*
 * Refuse a CPU-time clock (exit 2) for a tool whose figure is elapsed
 * time spent sleeping or waiting on another process: such a clock counts
 * only this process's own CPU time, and lat_usleep 1000 read 22.7 us on
 * it.  Call after tool_setup().
 */
void
tool_wall_clock(struct tool *t)
{
	static const char *const cputime[] = { "posix-thread-cputime",
	    "stdc-clock" };
	const char *clock = bm_ctx_timer_name(t->ctx, BM_SUBTIMER_CLOCK);
	size_t i;

	for (i = 0; clock != NULL && i < sizeof cputime / sizeof *cputime;
	    i++)
		if (strcmp(clock, cputime[i]) == 0)
			tool_exit_usage(t, "%s: the clock %s counts CPU time, "
			    "not the time %s waits; choose an elapsed-time "
			    "clock (posix-monotonic, posix-monotonic-raw)",
			    t->timer != NULL ? "--timer" : "BENCHMP_TIMER",
			    clock, t->name);
}

/*
 * Resolve the tool's own setting (force) and refuse a crowd, then create
 * the context and resolve its settings in the library: the tool's
 * defaults, the environment and the command line, in that order; last,
 * check overheads given in the environment against this machine.
 */
void
tool_setup(struct tool *t)
{
	bm_settings st;
	const char *spec;
	int rc;

	tool_read_force(t);
	tool_check_crowd(t);
	if ((rc = bm_ctx_new(&t->ctx)) != 0)
		tool_exit_lib(t, rc, "cannot set up");
	if (t->serve_figures > 1 && tool_served_inside() &&
	    (rc = bm_serve_figures(t->ctx, t->serve_figures,
	    t->serve_parts)) != 0)
		tool_exit_lib(t, rc, "telling the scheduler its figures");
	/*
	 * A file-size limit (ulimit -f) must show as a write error naming the
	 * file, like a full disk, not as a tool killed by SIGXFSZ.
	 */
	(void)signal(SIGXFSZ, SIG_IGN);
	memset(&st, 0, sizeof st);
	st.timer_default = t->default_timer;
	st.enough_default_us = t->default_enough_us;
	st.timer = t->timer;
	st.output = t->output;
	st.events = t->events;
	st.processes = t->processes;
	st.interference = t->interference;
	t->max_time_given = t->max_time_s != 0;
	if (t->max_time_s == 0) {
		const char *env = getenv("BENCHMP_MAX_TIME");

		t->max_time_s = env != NULL ? tool_seconds(t,
		    "BENCHMP_MAX_TIME", env) : TOOL_DEFAULT_MAX_TIME_S;
		t->max_time_given = env != NULL;
	}
	if (t->opts.timeout_us == 0 && !t->own_timeout) {
		const char *env = getenv("BENCHMP_TIMEOUT");

		if (env != NULL && *env != '\0')
			t->opts.timeout_us = tool_wait_us(t,
			    "BENCHMP_TIMEOUT", env);
	}
	if (t->later_warmup_us == 0) {
		const char *env = getenv("BENCHMP_LATER_WARMUP");

		if (env != NULL && *env != '\0')
			t->later_warmup_us = tool_uint(t,
			    "BENCHMP_LATER_WARMUP", env, 1, TOOL_MAX_WARMUP_US);
		else if (!t->warmup_given)
			t->later_warmup_us = TOOL_LATER_WARMUP_US;
	}
	t->opts.later_warmup_us = t->later_warmup_us;
	tool_served_warmup(t, 0);
	if (t->precision == 0) {
		const char *env = getenv("BENCHMP_PRECISION");

		if (env != NULL && *env != '\0')
			t->precision = tool_percent(t, "BENCHMP_PRECISION",
			    env);
	}
	if ((rc = bm_ctx_configure(t->ctx, &st)) != 0)
		tool_exit_lib(t, rc, NULL);
	if (t->precision > 0) {
		t->opts.precision = t->precision;
		if ((rc = bm_ctx_set_precision(t->ctx, t->precision)) != 0)
			tool_exit_lib(t, rc, NULL);
	}
	if ((spec = bm_ctx_output(t->ctx)) != NULL &&
	    (rc = bm_sink_open(t->ctx, spec, &t->sink)) != 0)
		tool_exit_lib(t, rc, bm_ctx_source(t->ctx, BM_SETTING_OUTPUT) ==
		    BM_SOURCE_CMDLINE ? "--output" : "BENCHMP_OUTPUT");
	tool_probe_overheads(t);
}

/*
 * Say on stderr that a CPU quota throttled the run: its figures are then
 * too slow by about the time throttled, and nothing else in them says so.
 */
static void
tool_warn_throttled(const struct tool *t, const bm_throttle *th)
{
	char quota[48] = "";

	if (th->nr_throttled == 0)
		return;
	if (th->quota_cpus > 0)
		(void)snprintf(quota, sizeof quota, " (%.2f CPUs)",
		    th->quota_cpus);
	fprintf(stderr, "%s: warning: the cgroup's CPU quota%s throttled the "
	    "run %llu times for %.3f s: the figures may be too slow\n", t->name,
	    quota, (unsigned long long)th->nr_throttled, th->throttled_s);
}

/* The end of the next of n parts' share of what is left before end_ns. */
uint64_t
tool_share_end(const struct tool *t, uint64_t end_ns, unsigned n)
{
	uint64_t now = tool_now_ns();

	if (t->max_time_s <= 0 || !t->max_time_given)
		return 0;
	if (end_ns == 0)
		end_ns = t->started_ns + (uint64_t)(t->max_time_s * 1e9);
	if (end_ns <= now)
		return now;
	return now + (end_ns - now) / (n > 0 ? n : 1);
}

/* Run the benchmarks; on failure report it and exit (tool_exit_run). */
static void
tool_run_n(struct tool *t, const bm_bench *b, size_t n, bm_result *res)
{
	uint64_t now = tool_now_ns();
	double left, part;
	size_t i;
	int rc;

	/* What is left of the tool's bound; 1 us still runs one round. */
	left = t->max_time_s * 1e6 - (double)(now - t->started_ns) / 1e3;
	if (t->part_end_ns != 0) {
		part = ((double)t->part_end_ns - (double)now) / 1e3;
		if (part < left)
			left = part;
	}
	t->opts.max_time_us = left >= 1 ? (uint64_t)left : 1;
	tool_exit_fatal_in_run(1);
	rc = n == 1 ? bm_run(t->ctx, b, &t->opts, res) :
	    bm_run_group(t->ctx, b, n, &t->opts, res);
	tool_exit_fatal_in_run(0);
	if (rc == 0 && tool_exit_fatal_run_signal(0) != 0) {
		/* The SIGTERM it became was ignored: die of it now. */
		for (i = 0; i < n; i++)
			bm_result_free(&res[i]);
		rc = BM_EINTR;
	}
	if (rc == 0) {
		tool_warn_throttled(t, &res->throttle);
		return;
	}
	tool_exit_run(t, rc);
}

/* Run the benchmark; on failure report it and exit (tool_exit_run). */
void
tool_run(struct tool *t, const bm_bench *b, bm_result *res)
{
	tool_run_n(t, b, 1, res);
}

void
tool_run_group(struct tool *t, const bm_bench *b, size_t n, bm_result *res)
{
	size_t i;

	if (tool_served_inside()) {
		tool_run_n(t, b, n, res);
		return;
	}
	for (i = 0; i < n; i++)
		tool_run_n(t, &b[i], 1, &res[i]);
}

/* Release the context and check that stdout was written. */
int
tool_finish(struct tool *t)
{
	int rc;

	if ((rc = bm_sink_close(t->ctx, t->sink)) != 0) {
		t->sink = NULL;
		tool_exit_lib(t, rc, NULL);
	}
	t->sink = NULL;
	tool_exit_cleanup(t);
	bm_ctx_free(t->ctx);
	t->ctx = NULL;
	free(t->cluster_json);
	t->cluster_json = NULL;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing the result: %s\n", t->name,
		    strerror(errno));
		cluster_exit(1, 0);
	}
	cluster_finish();
	return 0;
}

/*
 * Parse the common options, then find the mode named by the first
 * argument (tool_mode), or a usage error for a missing mode or more than
 * max_args arguments.
 */
const void *
tool_parse_mode(struct tool *t, int argc, char **argv, int *first,
    int max_args, const char *what, const char *missing, const void *table,
    size_t n, size_t size)
{
	const void *m;
	int i;

	i = tool_parse(t, argc, argv, NULL, NULL, NULL, NULL);
	if (i >= argc)
		tool_exit_usage(t, "%s",
		    missing != NULL ? missing : "missing the mode");
	m = tool_mode(t, what != NULL ? what : "mode", argv[i], table, n,
	    size);
	if (argc - i > max_args)
		tool_exit_usage(t, "too many arguments");
	if (first != NULL)
		*first = i;
	return m;
}

/* Install a signal handler with an empty mask. */
int
tool_catch_signal(int sig, void (*handler)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL) == 0 ? 0 : -errno;
}
