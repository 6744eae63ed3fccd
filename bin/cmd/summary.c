/* summary.c: benchmp summary: options, the files of records read, the table printed. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "summary.h"

/* The exit statuses. */
enum {
	SUMMARY_OK = 0,
	SUMMARY_FAILED = 1,	/* a file, its records, memory or the output */
	SUMMARY_USAGE = 2
};

/* Print the usage text to f. */
void
summary_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [--hosts | --no-hosts] FILE...\n"
"\n"
"Print the summary table of benchmp's records (one JSON object per line,\n"
"as benchmp-run writes to RESULTS/HOST/TIMESTAMP.jsonl and the tools print\n"
"with --json): the latest record of each figure, in lmbench's groups, with\n"
"its value (its robust figure, the best process, where the record has one,\n"
"\"best\" in the coverage column; else its median), unit, interval with its\n"
"coverage, coefficient of variation and a note: the one reason a flagged\n"
"figure is not to be taken at its word (an invalid value, a contradiction,\n"
"processes that disagree, its modes, how far its interval reaches, slow\n"
"spells, the budget), with a line under the row for each contradiction\n"
"with the machine.  The first line gives the share of flagged figures\n"
"(invalid, noisy, disturbed, bimodal, disagree, contradicts, bound,\n"
"budget).  benchmp-run prints this table at the end of a run; this prints\n"
"it again from the file, of any run and any host.\n"
"\n"
"A record that benchmp-run wrote names its group and figure (its \"suite\"\n"
"member); any other record is listed under \"Other records\", named by its\n"
"tool, case and parameters.  Several files are read as one run, in order.\n"
"\n"
"  --hosts      the per-rank records of an MPI run (benchmp-run --mpi:\n"
"               RESULTS/HOST/TIMESTAMP.jsonl of every host, with\n"
"               RESULTS/aggregate/TIMESTAMP.jsonl) side by side, one\n"
"               column per host (the median of its ranks), the aggregate of\n"
"               all ranks beside them, and * on a host more than 10%% from\n"
"               the median of the hosts; the default when per-rank records\n"
"               (aggregate false) are among the files\n"
"  --no-hosts   the single table even when per-rank records are there\n"
"  -h, --help   print this help and exit\n"
"  -V, --version\n"
"               print the version and exit\n"
"\n"
"Exit status: 0 when the table was printed, 1 when a file cannot be read,\n"
"is not records, or holds none, 2 on a usage error.\n", prog);
}

/* Say what was wrong with the arguments, and the usage line; the usage status. */
static int
summary_bad(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s [--hosts | --no-hosts] FILE...\n", prog);
	return SUMMARY_USAGE;
}

/* The status after printing: 0, or 1 with a message when stdout failed. */
static int
summary_printed(const char *prog)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return SUMMARY_OK;
	fprintf(stderr, "%s: writing to standard output failed\n", prog);
	return SUMMARY_FAILED;
}

/* Read the options into s; -1 to go on with the files from optind, else the exit status. */
static int
summary_options(struct summary *s, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "hosts", no_argument, NULL, 'H' },
		{ "no-hosts", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int o;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, "+hV", lo, NULL)) != -1) {
		switch (o) {
		case 'H':
		case 'N':
			s->hosts = o == 'H';
			break;
		case 'h':
			summary_usage(stdout, s->prog);
			return summary_printed(s->prog);
		case 'V':
			printf("%s %s\n", s->prog, PACKAGE_VERSION);
			return summary_printed(s->prog);
		default:
			return summary_bad(s->prog, "unknown option",
			    argv[optind - 1]);
		}
	}
	if (optind == argc)
		return summary_bad(s->prog, "missing the results file", NULL);
	return -1;
}

/* Say that the files hold no records (what) and name them; the failing status. */
static int
summary_none(const char *prog, const char *what, int argc, char **argv,
    const char *hint)
{
	int i;

	fprintf(stderr, "%s: %s in", prog, what);
	for (i = optind; i < argc; i++)
		fprintf(stderr, " %s", argv[i]);
	fprintf(stderr, "%s\n", hint);
	return SUMMARY_FAILED;
}

/* Read the files' records into s, print the table; the exit status. */
static int
summary_run(struct summary *s, int argc, char **argv)
{
	char why[512];
	int i;

	for (i = optind; i < argc; i++)
		if (bm__reader_records(argv[i], summary_row_add, s, why,
		    sizeof why) != 0) {
			fprintf(stderr, "%s: %s: %s\n", s->prog, argv[i], why);
			return SUMMARY_FAILED;
		}
	if (s->nrow == 0 && s->nrank == 0)
		return summary_none(s->prog, "no records", argc, argv, "");
	/* The figures and their order come from the aggregates. */
	if (s->nrow == 0)
		return summary_none(s->prog, "no aggregate records", argc,
		    argv, ": give RESULTS/aggregate/TIMESTAMP.jsonl too");
	if (s->hosts < 0)
		s->hosts = s->nrank > 0;
	if (s->hosts && summary_hosts_medians(s) != 0) {
		fprintf(stderr, "%s: out of memory\n", s->prog);
		return SUMMARY_FAILED;
	}
	summary_table_print(s, stdout);
	return summary_printed(s->prog);
}

/* Run benchmp summary with its arguments. */
int
summary_main(const char *prog, int argc, char **argv)
{
	struct summary s;
	int rc;

	memset(&s, 0, sizeof s);
	s.prog = prog;
	s.hosts = -1;
	if ((rc = summary_options(&s, argc, argv)) < 0)
		rc = summary_run(&s, argc, argv);
	summary_row_free_all(&s);
	return rc;
}
