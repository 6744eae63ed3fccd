/* scaling.c: benchmp scaling: options, the tool found, the points run, the table printed. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "benchmp.h"
#include "opts.h"
#include "scaling.h"

/* The usage line. */
#define SCALING_SYNOPSIS \
	"[--max N] [--output FILE] [--plot BASE] TOOL [ARGS...]"

/* Print the usage text to f. */
void
scaling_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s " SCALING_SYNOPSIS "\n"
"\n"
"Run TOOL ARGS with -P 1, 2, 4, ... up to N workers (default: twice the\n"
"CPUs this process may use, and always N itself), keep every record, and\n"
"print for each point the aggregate throughput over all workers (a\n"
"bandwidth in its own unit, MB/s; otherwise operations per second) with\n"
"its interval (the figure's interval, scaled to the aggregate), the\n"
"speed-up over one worker, the parallel efficiency (speed-up / workers)\n"
"and the tool's own figure (for bandwidths, the aggregate).\n"
"\n"
"  --max N        the largest worker count (1 to %d)\n"
"  --output FILE  append the records to FILE (default: a new private\n"
"                 directory in $TMPDIR, named on stderr)\n"
"  --plot BASE    draw BASE.png and BASE.svg with benchmp-plot (default:\n"
"                 the records file without .jsonl, when gnuplot is there)\n"
"  --no-plot      do not draw\n"
"  --timeout S    kill a run (its workers too) still going after S seconds\n"
"                 (1 to %d; default %d)\n"
"  -h, --help     print this help and exit\n"
"  -V, --version  print the version and exit\n"
"\n"
"TOOL is a path to a benchmp tool or its name: the one built beside this\n"
"program (bin/ of a build, or build/bin of the source tree it is in), else\n"
"the one on PATH.  Plots need gnuplot (Debian package gnuplot-nox).  Exit\n"
"status: 0 on success, 1 when a run fails, 2 on a usage error.\n",
	    prog, SCALING_MAX_WORKERS, SCALING_TIMEOUT_MAX, SCALING_TIMEOUT);
}

/* Say what was wrong with the arguments (what, then arg in quotes if any), and the usage line; the usage status. */
static int
scaling_bad(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s " SCALING_SYNOPSIS "\n", prog);
	return SCALING_USAGE;
}

/* Say why the command fails, and return the failing status. */
int
scaling_fail(const struct scaling *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", s->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return SCALING_FAILED;
}

/*
 * Read a whole number of opt ("--max") from arg within [1, hi] into
 * *out: decimal digits without a leading zero, as the script took them;
 * -1, or the usage status after saying what (noun: "a worker count").
 */
static int
scaling_number(const struct scaling *s, const char *opt, const char *arg,
    uint64_t hi, const char *noun, unsigned *out)
{
	char what[160];
	uint64_t v;
	int rc = BM_EPARSE;

	if (arg[0] != '0' && strspn(arg, "0123456789") == strlen(arg))
		rc = bm_parse_uint(arg, 1, hi, &v);
	if (rc == 0) {
		*out = (unsigned)v;
		return -1;
	}
	if (rc == BM_ERANGE) {
		fprintf(stderr, "%s: %s: %s is out of range (1 to %llu)\n",
		    s->prog, opt, arg, (unsigned long long)hi);
		fprintf(stderr, "usage: %s " SCALING_SYNOPSIS "\n", s->prog);
		return SCALING_USAGE;
	}
	snprintf(what, sizeof what, "%s: '%s' is not %s", opt, arg, noun);
	return scaling_bad(s->prog, what, NULL);
}

/* Say that an option (as typed, without "=VALUE") needs a value; the usage status. */
static int
scaling_needs(const struct scaling *s, const char *opt)
{
	char what[160];

	snprintf(what, sizeof what, "%.*s needs a value",
	    (int)strcspn(opt, "="), opt);
	return scaling_bad(s->prog, what, NULL);
}

/*
 * Read the options into s, up to the tool (what follows it is the
 * tool's); -1 to go on with the tool at optind, else the exit status.
 */
static int
scaling_options(struct scaling *s, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "max", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "plot", required_argument, NULL, 'p' },
		{ "no-plot", no_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct opts_cmd cmd = { s->prog, scaling_usage, scaling_bad };
	int o, rc;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, "+:hV", lo, NULL)) != -1) {
		if (strchr("mopt", o) != NULL && optarg[0] == '\0')
			return scaling_needs(s, argv[optind - 1]);
		switch (o) {
		case 'm':
			if ((rc = scaling_number(s, "--max", optarg,
			    SCALING_MAX_WORKERS, "a worker count", &s->max)) >= 0)
				return rc;
			break;
		case 'o':
			s->output = optarg;
			break;
		case 'p':
			s->plot = optarg;
			break;
		case 'n':
			s->noplot = 1;
			break;
		case 't':
			if ((rc = scaling_number(s, "--timeout", optarg,
			    SCALING_TIMEOUT_MAX, "a number of seconds",
			    &s->timeout)) >= 0)
				return rc;
			break;
		case ':':
			return scaling_needs(s, argv[optind - 1]);
		default:
			return opts_common(o, &cmd, argv);
		}
	}
	if (optind == argc)
		return scaling_bad(s->prog, "missing the tool to run", NULL);
	s->args = argv + optind;
	s->nargs = argc - optind;
	return -1;
}

/*
 * Find the tool, check and open where the records and plots go, run the
 * points, print the table, draw; the exit status.  Everything that can
 * be refused is refused before the first run.
 */
static int
scaling_run(struct scaling *s)
{
	struct stat st;
	int rc;

	/* The plot reads the records back: a device (/dev/null) keeps none. */
	if (s->plot != NULL && !s->noplot && s->output != NULL &&
	    stat(s->output, &st) == 0 && S_ISCHR(st.st_mode))
		return scaling_bad(s->prog, "--plot: the records go to a "
		    "device, nothing to plot from:", s->output);
	s->ncpu = bm_cpus_allowed();
	if (s->max == 0)
		s->max = s->ncpu < SCALING_MAX_WORKERS / 2 ? 2 * s->ncpu :
		    SCALING_MAX_WORKERS;
	scaling_find_self(s);
	if ((s->tool = scaling_find(s, s->args[0])) == NULL)
		return scaling_fail(s, "out of memory");
	if (!ab_plan_found(s->tool))
		return scaling_fail(s, "%s: no such tool", s->tool);
	if (s->plot != NULL && !ab_plan_found("gnuplot"))
		return scaling_fail(s, "gnuplot not found: install the Debian "
		    "package gnuplot-nox");
	if ((rc = scaling_files_prepare(s)) != 0 ||
	    (rc = scaling_run_points(s)) != 0)
		return rc;
	rc = close(s->fd);
	s->fd = -1;
	if (rc != 0)
		return scaling_fail(s, "cannot write %s: %s", s->records,
		    strerror(errno));
	scaling_table_print(s, stdout);
	if ((rc = opts_printed(s->prog)) != 0)
		return rc;
	return scaling_run_plot(s);
}

/* Run benchmp scaling with its arguments. */
int
scaling_main(const char *prog, int argc, char **argv)
{
	struct scaling s;
	int rc;

	memset(&s, 0, sizeof s);
	s.prog = prog;
	s.fd = -1;
	s.timeout = SCALING_TIMEOUT;
	if ((rc = scaling_options(&s, argc, argv)) < 0)
		rc = scaling_run(&s);
	if (s.fd >= 0)
		close(s.fd);
	scaling_table_free(&s);
	free(s.tool);
	free(s.records);
	free(s.base);
	return rc;
}
