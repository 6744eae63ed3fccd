/* benchmp.c: one command for the harness: compare, check, summary, report, spread, merge and scaling in C, the others run beside it. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/ab.h"
#include "cmd/check.h"
#include "cmd/compare.h"
#include "cmd/history.h"
#include "cmd/merge.h"
#include "cmd/report.h"
#include "cmd/scaling.h"
#include "cmd/spread.h"
#include "cmd/summary.h"

#define BENCHMP_NAME	"benchmp"

/* A subcommand: its name, the program it runs (NULL: built in), what it does, and its main and usage when built in. */
struct benchmp_sub {
	const char *name;
	const char *program;
	const char *what;
	int (*main)(const char *prog, int argc, char **argv);
	void (*usage)(FILE *f, const char *prog);
};

/* A subcommand that runs its program, benchmp-NAME. */
#define BENCHMP_PROGRAM(name, what) \
	{ name, "benchmp-" name, what, NULL, NULL }

/* The subcommands, in the order --help lists them. */
static const struct benchmp_sub benchmp_subs[] = {
	BENCHMP_PROGRAM("run", "run the standard suite into a results file"),
	{ "compare", NULL, "judge two runs figure by figure (a CI gate)",
	    compare_main, compare_usage },
	BENCHMP_PROGRAM("ab", "compare two builds or commands, interleaved"),
	BENCHMP_PROGRAM("sched", "visit the figures within a time budget"),
	BENCHMP_PROGRAM("stats", "the library's statistics of numbers"),
	{ "check", NULL, "check the machine for what distorts figures",
	    check_main, check_usage },
	{ "summary", NULL, "the summary table of a results file",
	    summary_main, summary_usage },
	BENCHMP_PROGRAM("repeat", "run the suite K times, the spread"),
	{ "spread", NULL, "how runs' figures spread from run to run",
	    spread_main, spread_usage },
	{ "merge", NULL, "merge the passes' records of each figure",
	    merge_main, merge_usage },
	{ "history", NULL, "widen intervals to the machine's past runs",
	    history_main, history_usage },
	{ "report", NULL, "the HTML report of a run", report_main,
	    report_usage },
	BENCHMP_PROGRAM("plot", "gnuplot charts of records"),
	{ "scaling", NULL, "one tool at 1, 2, 4, ... workers", scaling_main,
	    scaling_usage },
	BENCHMP_PROGRAM("import-lmbench",
	    "lmbench's results as benchmp records"),
	BENCHMP_PROGRAM("vs-lmbench",
	    "the shared figures beside a built lmbench")
};
#define BENCHMP_NSUBS	(sizeof benchmp_subs / sizeof benchmp_subs[0])

/* Print the usage text to f. */
static void
benchmp_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s SUBCOMMAND [ARGS...]\n"
	    "       %s help SUBCOMMAND | -h | --help | -V | --version\n\n"
	    "Subcommands:\n", BENCHMP_NAME, BENCHMP_NAME);
	for (i = 0; i < BENCHMP_NSUBS; i++)
		fprintf(f, "  %-15s %s\n", benchmp_subs[i].name,
		    benchmp_subs[i].what);
	fprintf(f, "\nEach but compare, check, summary, report, spread, merge "
	    "and scaling runs\nits program (benchmp-NAME), found beside %s "
	    "first, then on PATH.  Exit\nstatus: the subcommand's; 2 on a usage "
	    "error.\n", BENCHMP_NAME);
}

/* Say what was wrong, print the usage line, and return 2. */
static int
benchmp_bad(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\n", BENCHMP_NAME, what, arg);
	fprintf(stderr, "usage: %s SUBCOMMAND [ARGS...] (%s --help lists "
	    "them)\n", BENCHMP_NAME, BENCHMP_NAME);
	return 2;
}

/* The subcommand named name, or NULL. */
static const struct benchmp_sub *
benchmp_find(const char *name)
{
	size_t i;

	for (i = 0; i < BENCHMP_NSUBS; i++)
		if (strcmp(benchmp_subs[i].name, name) == 0)
			return &benchmp_subs[i];
	return NULL;
}

/*
 * The folder this program was started from, into dir: argv[0]'s when it
 * names a path, else /proc/self/exe's; 0, or -1 when neither is known.
 */
static int
benchmp_dir(const char *argv0, char *dir, size_t size)
{
	const char *slash = strrchr(argv0, '/');

	if (slash != NULL) {
		if ((size_t)(slash - argv0) + 1 > size)
			return -1;
		memcpy(dir, argv0, (size_t)(slash - argv0));
		dir[slash - argv0] = '\0';
		return 0;
	}
	return ab_self_dir(dir, size);
}

/* Run the program of sub with args (args[0] replaced); returns only on failure. */
static int
benchmp_exec(const struct benchmp_sub *sub, const char *argv0, char **args)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];

	args[0] = (char *)sub->program;
	if (benchmp_dir(argv0, dir, sizeof dir) == 0 &&
	    snprintf(path, sizeof path, "%s/%s", dir, sub->program) <
	    (int)sizeof path && access(path, X_OK) == 0)
		execv(path, args);
	execvp(sub->program, args);
	fprintf(stderr, "%s: %s: cannot run %s: %s\n", BENCHMP_NAME, sub->name,
	    sub->program, strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

/* benchmp help [SUB]: the usage, or a subcommand's help. */
static int
benchmp_help(int argc, char **argv)
{
	const struct benchmp_sub *sub;
	char *args[3], prog[64];

	if (argc < 3) {
		benchmp_usage(stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if ((sub = benchmp_find(argv[2])) == NULL)
		return benchmp_bad("no such subcommand", argv[2]);
	if (sub->program == NULL) {
		(void)snprintf(prog, sizeof prog, "%s %s", BENCHMP_NAME,
		    sub->name);
		sub->usage(stdout, prog);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	args[1] = (char *)"--help";
	args[2] = NULL;
	return benchmp_exec(sub, argv[0], args);
}

/* Run a subcommand. */
int
main(int argc, char **argv)
{
	const struct benchmp_sub *sub;
	char prog[64];

	if (argc < 2) {
		benchmp_usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		benchmp_usage(stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", BENCHMP_NAME, PACKAGE_VERSION);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (strcmp(argv[1], "help") == 0)
		return benchmp_help(argc, argv);
	if ((sub = benchmp_find(argv[1])) == NULL)
		return benchmp_bad(argv[1][0] == '-' ? "unknown option" :
		    "no such subcommand", argv[1]);
	if (sub->program == NULL) {
		(void)snprintf(prog, sizeof prog, "%s %s", BENCHMP_NAME,
		    sub->name);
		return sub->main(prog, argc - 1, argv + 1);
	}
	return benchmp_exec(sub, argv[0], argv + 1);
}
