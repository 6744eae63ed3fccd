/* spread.c: benchmp spread: options, the runs read, their figures matched and judged, the report. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "opts.h"
#include "spread.h"

/* The usage line. */
#define SPREAD_SYNOPSIS \
"[--json] [--compared I-J:STATUS:FILE]... [--wall LIST]\n" \
"       [--measured LIST] [--exit LIST] RUN.jsonl RUN.jsonl...\n"

/* Print the usage text to f. */
void
spread_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s " SPREAD_SYNOPSIS
"       %s --sides TABLE [--sides-walls FILE] [--sides-failed FILE] VALUES\n"
"\n"
"Read two or more runs of the same suite (benchmp-run's records, one file a\n"
"run) and print how each figure found in every run spread from run to run:\n"
"its run-to-run coefficient of variation (of the value benchmp summary\n"
"shows: the robust figure, the best process, where a record has one, else\n"
"the median) and how many times one run's value fell inside another run's\n"
"interval; then the totals, each beside its target (PASS or MISS): figures\n"
"within 3%% CV and beyond 10%%, those with a run more than 10%% from the\n"
"median of the runs that did not flag it, the next run's value inside the\n"
"previous run's interval, each run's share of flagged figures.  The points\n"
"of size sweeps are counted on a line of their own.  benchmp-repeat prints\n"
"this report of its runs.\n"
"\n"
"  --json           the report as one JSON object\n"
"  --compared I-J:STATUS:FILE\n"
"                   FILE holds benchmp compare --tsv of runs I and J (from\n"
"                   1), which exited STATUS: each figure's verdict is\n"
"                   shown, and whether every compare exited 0\n"
"  --wall LIST      the runs' wall times in seconds, comma-separated, \"-\"\n"
"                   for one not known: judged against 90 s\n"
"  --measured LIST  the seconds each run spent measuring (benchmp-run's\n"
"                   summary), as --wall's: judged against 60%% of the\n"
"                   wall time (needs --wall; at most the wall time, give\n"
"                   or take 0.1 s of rounding)\n"
"  --exit LIST      the runs' exit statuses, comma-separated (shown with\n"
"                   the wall times)\n"
"  --sides TABLE    benchmp-vs-lmbench's table of lmbench's figures beside\n"
"                   benchmp's, from VALUES (SIDE, FIGURE, VALUE a line,\n"
"                   tab-separated), the runs' wall times (SIDE, RUN,\n"
"                   SECONDS) and failures (SIDE, RUN); TABLE lists the\n"
"                   runs, NAME|KIND a line (benchmp-vs-lmbench(1))\n"
"  -h, --help       print this help and exit\n"
"  -V, --version    print the version and exit\n"
"\n"
"Exit status: 0 when the report was printed (whatever its verdicts), 1 when\n"
"a file cannot be read or holds a line that is not a record, or no figure\n"
"is in every run, 2 on a usage error.\n", prog, prog);
}

/* Say what was wrong with the arguments, and the usage line; the usage status. */
static int
spread_bad(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s [options] RUN.jsonl RUN.jsonl... (--help "
	    "lists them)\n", prog);
	return SPREAD_USAGE;
}

/*
 * Parse --compared I-J:STATUS:FILE into a new pair of s (the runs
 * checked against their count later); 0, or -1 when it is not one.
 */
static int
spread_compared(struct spread *s, char *arg)
{
	struct spread_pair *grown, *p;
	char *dash = strchr(arg, '-'), *c1, *c2;
	uint64_t a, b, st;

	if (dash == NULL || (c1 = strchr(dash, ':')) == NULL ||
	    (c2 = strchr(c1 + 1, ':')) == NULL || c2[1] == '\0')
		return -1;
	*dash = *c1 = *c2 = '\0';
	if (bm_parse_uint(arg, 1, SPREAD_RUNS_MAX, &a) != 0 ||
	    bm_parse_uint(dash + 1, 1, SPREAD_RUNS_MAX, &b) != 0 ||
	    bm_parse_uint(c1 + 1, 0, 255, &st) != 0 || a >= b)
		return -1;
	grown = realloc(s->pair, (s->npair + 1) * sizeof *grown);
	if (grown == NULL)
		return -1;
	s->pair = grown;
	p = &s->pair[s->npair++];
	memset(p, 0, sizeof *p);
	p->a = (size_t)a - 1;
	p->b = (size_t)b - 1;
	p->exit = (int)st;
	p->path = c2 + 1;
	return 0;
}

/*
 * Split a comma-separated LIST into at most max items (cut in place) in
 * item; their count, or 0 when an item is empty or there are too many.
 */
static size_t
spread_list(char *list, char **item, size_t max)
{
	size_t n = 0;
	char *p = list, *comma;

	for (;;) {
		if ((comma = strchr(p, ',')) != NULL)
			*comma = '\0';
		if (*p == '\0' || n == max)
			return 0;
		item[n++] = p;
		if (comma == NULL)
			return n;
		p = comma + 1;
	}
}

/* The options of a report. */
struct spread_opts {
	char *wall;
	char *measured;
	char *exit;
	const char *sides;
	const char *sides_walls;
	const char *sides_failed;
};

/* The long options. */
enum {
	OPT_JSON = 256, OPT_COMPARED, OPT_WALL, OPT_MEASURED, OPT_EXIT,
	OPT_SIDES, OPT_SIDES_WALLS, OPT_SIDES_FAILED
};

/* Read the options into s and o; -1 to go on with the files from optind, else the exit status. */
static int
spread_options(struct spread *s, struct spread_opts *o, int argc,
    char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "compared", required_argument, NULL, OPT_COMPARED },
		{ "wall", required_argument, NULL, OPT_WALL },
		{ "measured", required_argument, NULL, OPT_MEASURED },
		{ "exit", required_argument, NULL, OPT_EXIT },
		{ "sides", required_argument, NULL, OPT_SIDES },
		{ "sides-walls", required_argument, NULL, OPT_SIDES_WALLS },
		{ "sides-failed", required_argument, NULL, OPT_SIDES_FAILED },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct opts_cmd cmd = { s->prog, spread_usage, spread_bad };
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:hV", lo, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: s->json = 1; break;
		case OPT_COMPARED:
			if (spread_compared(s, optarg) != 0)
				return spread_bad(s->prog, "--compared: not "
				    "I-J:STATUS:FILE (runs I < J from 1, a "
				    "status 0 to 255)", NULL);
			break;
		case OPT_WALL: o->wall = optarg; break;
		case OPT_MEASURED: o->measured = optarg; break;
		case OPT_EXIT: o->exit = optarg; break;
		case OPT_SIDES: o->sides = optarg; break;
		case OPT_SIDES_WALLS: o->sides_walls = optarg; break;
		case OPT_SIDES_FAILED: o->sides_failed = optarg; break;
		default:
			return opts_common(c, &cmd, argv);
		}
	}
	return -1;
}

/* Check what --sides reads against the other options; -1 to go on, else the exit status. */
static int
spread_sides_options(const struct spread *s, const struct spread_opts *o,
    int argc)
{
	if (o->sides == NULL) {
		if (o->sides_walls != NULL || o->sides_failed != NULL)
			return spread_bad(s->prog, "--sides-walls and "
			    "--sides-failed go with --sides", NULL);
		return -1;
	}
	if (s->json || s->npair > 0 || o->wall != NULL ||
	    o->measured != NULL || o->exit != NULL)
		return spread_bad(s->prog, "--sides takes no --json, "
		    "--compared, --wall, --measured or --exit", NULL);
	if (argc - optind != 1)
		return spread_bad(s->prog, "--sides needs one file of values",
		    NULL);
	return -1;
}

/*
 * The runs' seconds of --wall (wall, 1) or --measured (0) into s's runs,
 * "-" NAN; 0, or the usage status.
 */
static int
spread_seconds(struct spread *s, char *list, int wall)
{
	char *item[SPREAD_RUNS_MAX + 1];
	double v;
	size_t i;

	if (spread_list(list, item, SPREAD_RUNS_MAX + 1) != s->nrun)
		return spread_bad(s->prog, wall ? "--wall: not one wall time "
		    "a run" : "--measured: not one number of seconds a run",
		    NULL);
	for (i = 0; i < s->nrun; i++) {
		v = NAN;
		if (strcmp(item[i], "-") != 0 &&
		    bm_parse_double(item[i], 0, 1e9, &v) != 0)
			return spread_bad(s->prog, wall ? "--wall: not a "
			    "number of seconds:" : "--measured: not a number "
			    "of seconds:", item[i]);
		if (wall)
			s->run[i].wall = v;
		else
			s->run[i].measured = v;
	}
	return 0;
}

/*
 * The runs' wall times, seconds measuring and exit statuses of --wall,
 * --measured and --exit into s's runs; 0, or the usage status.
 */
static int
spread_run_facts(struct spread *s, const struct spread_opts *o)
{
	char *item[SPREAD_RUNS_MAX + 1];
	uint64_t st;
	size_t i;
	int rc;

	for (i = 0; i < s->nrun; i++)
		s->run[i].wall = s->run[i].measured = NAN;
	if (o->measured != NULL && o->wall == NULL)
		return spread_bad(s->prog, "--measured needs --wall", NULL);
	if (o->wall != NULL) {
		if ((rc = spread_seconds(s, o->wall, 1)) != 0)
			return rc;
		s->walls = 1;
	}
	if (o->measured != NULL) {
		if ((rc = spread_seconds(s, o->measured, 0)) != 0)
			return rc;
		for (i = 0; i < s->nrun; i++)
			if (s->run[i].measured > s->run[i].wall +
			    SPREAD_ROUNDING_S)
				return spread_bad(s->prog, "--measured: more "
				    "seconds than the run's wall time", NULL);
		s->measured = 1;
	}
	if (o->exit != NULL) {
		if (spread_list(o->exit, item, SPREAD_RUNS_MAX + 1) != s->nrun)
			return spread_bad(s->prog, "--exit: not one exit "
			    "status a run", NULL);
		for (i = 0; i < s->nrun; i++) {
			if (bm_parse_uint(item[i], 0, 255, &st) != 0)
				return spread_bad(s->prog, "--exit: not an exit "
				    "status:", item[i]);
			s->run[i].exit = (int)st;
		}
	}
	for (i = 0; i < s->npair; i++)
		if (s->pair[i].b >= s->nrun)
			return spread_bad(s->prog, "--compared: a run past the "
			    "last", NULL);
	return 0;
}

/* Read the runs of argv from optind, judge them and print the report; the exit status. */
static int
spread_run(struct spread *s, const struct spread_opts *o, int argc,
    char **argv)
{
	char most[16];
	size_t i;
	int rc;

	if (argc - optind < 2)
		return spread_bad(s->prog, "need two runs or more", NULL);
	if (argc - optind > SPREAD_RUNS_MAX) {
		snprintf(most, sizeof most, "%d", SPREAD_RUNS_MAX);
		return spread_bad(s->prog, "more runs than it reads, at most",
		    most);
	}
	s->nrun = (size_t)(argc - optind);
	if ((s->run = calloc(s->nrun, sizeof *s->run)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", s->prog);
		return SPREAD_FAILED;
	}
	for (i = 0; i < s->nrun; i++)
		s->run[i].path = argv[optind + (int)i];
	if ((rc = spread_run_facts(s, o)) != 0)
		return rc;
	if (spread_runs_read(s) != 0 || spread_pair_read(s) != 0 ||
	    spread_runs_judge(s) != 0)
		return SPREAD_FAILED;
	if ((s->json ? spread_out_json(s, stdout) :
	    spread_out_text(s, stdout)) != 0) {
		fprintf(stderr, "%s: writing to standard output failed\n",
		    s->prog);
		return SPREAD_FAILED;
	}
	return opts_printed(s->prog);
}

/* Run benchmp spread with its arguments. */
int
spread_main(const char *prog, int argc, char **argv)
{
	struct spread s;
	struct spread_opts o;
	int rc;

	memset(&s, 0, sizeof s);
	memset(&o, 0, sizeof o);
	s.prog = prog;
	if ((rc = spread_options(&s, &o, argc, argv)) < 0 &&
	    (rc = spread_sides_options(&s, &o, argc)) < 0)
		rc = o.sides != NULL ? spread_sides_main(prog, o.sides,
		    o.sides_walls, o.sides_failed, argv[optind]) :
		    spread_run(&s, &o, argc, argv);
	spread_pair_free(&s);
	spread_runs_free(&s);
	return rc;
}
