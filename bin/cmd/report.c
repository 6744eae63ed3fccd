/* report.c: benchmp report: options, the records and machine read, benchmp compare's verdicts, the page written. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "report.h"
#include "whole.h"

/* Print report's usage text to f. */
void
report_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [--output FILE] [--machine FILE] A.jsonl [B.jsonl]\n"
"\n"
"Write one self-contained HTML file (inline CSS and SVG) of benchmp's\n"
"records: the machine, lmbench's sections as tables and bar charts, the\n"
"lat_mem_rd curve, scaling series, and with B the ratios B/A with\n"
"benchmp compare's verdicts (benchmp-report(1)).  Records that benchmp\n"
"history read add how far the run lies from the machine's past runs, and\n"
"its clock from theirs, as benchmp summary says it.\n"
"\n"
"  --output FILE   where to write (default: A without .jsonl, plus .html)\n"
"  --machine FILE  the machine description (default: A's name with\n"
"                  .machine.json instead of .jsonl, when it exists)\n"
"  -h, --help      print this help and exit\n"
"  -V, --version   print the version and exit\n"
"\n"
"Exit status: 0 when the report was written, 1 when a file cannot be read\n"
"or written, holds a line that is not a record or holds no records, 2 on\n"
"a usage error.\n", prog);
}

/* Say what was wrong with the arguments, and the usage line; 2. */
static int
report_bad(const struct report *r, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", r->prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s [--output FILE] [--machine FILE] A.jsonl "
	    "[B.jsonl]\n", r->prog);
	return 2;
}

/* The status after printing help or the version: 0, or 1 with a message. */
static int
report_printed(const struct report *r)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "%s: writing to standard output failed\n", r->prog);
	return 1;
}

/* path with its suffix .jsonl (if any) replaced by sfx, malloc'd, or NULL. */
static char *
report_beside(const char *path, const char *sfx)
{
	size_t n = strlen(path), k = strlen(sfx);
	char *s;

	if (n >= 6 && strcmp(path + n - 6, ".jsonl") == 0)
		n -= 6;
	if ((s = malloc(n + k + 1)) == NULL)
		return NULL;
	memcpy(s, path, n);
	memcpy(s + n, sfx, k + 1);
	return s;
}

/* Read the options and operands into r; -1 to go on, else the exit status. */
static int
report_options(struct report *r, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "machine", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct stat st;
	int o, i;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, "+:hV", lo, NULL)) != -1) {
		switch (o) {
		case 'o':
		case 'm':
			if (optarg[0] == '\0')
				return report_bad(r, o == 'o' ?
				    "--output needs a file name" :
				    "--machine needs a file name", NULL);
			*(o == 'o' ? &r->output : &r->machine_path) = optarg;
			break;
		case 'h':
			report_usage(stdout, r->prog);
			return report_printed(r);
		case 'V':
			printf("%s %s\n", r->prog, PACKAGE_VERSION);
			return report_printed(r);
		case ':':
			return report_bad(r, "an option needs a value:",
			    argv[optind - 1]);
		default:
			return report_bad(r, "unknown option",
			    argv[optind - 1]);
		}
	}
	if (argc - optind < 1)
		return report_bad(r, "missing the results file", NULL);
	if (argc - optind > 2)
		return report_bad(r, "at most two results files (A and B)",
		    NULL);
	for (i = optind; i < argc; i++)
		if (argv[i][0] == '\0')
			return report_bad(r, "an empty file name", NULL);
	r->nrun = (size_t)(argc - optind);
	r->run[0].path = argv[optind];
	r->run[1].path = r->nrun == 2 ? argv[optind + 1] : NULL;
	if ((r->own[0] = report_beside(argv[optind], ".html")) == NULL ||
	    (r->own[1] = report_beside(argv[optind], ".machine.json")) ==
	    NULL) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return 1;
	}
	if (r->output == NULL)
		r->output = r->own[0];
	if (r->machine_path == NULL && stat(r->own[1], &st) == 0 &&
	    S_ISREG(st.st_mode))
		r->machine_path = r->own[1];
	return -1;
}

/*
 * Keep a record of a file with its figure (the bm__reader_lines callback;
 * bm__reader_buf has checked that each is one), unless it is one MPI
 * rank's (aggregate false: those are benchmp-summary --hosts's).
 */
static int
report_keep(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize)
{
	struct report_run *run = arg;
	const struct bm__jval *agg = bm__jget(rec, "aggregate");
	struct report_rec *x, *grown;

	if (agg != NULL && agg->type == BM__J_FALSE) {
		bm__jval_free(rec);
		return 0;
	}
	if (run->n == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 64;

		if ((grown = realloc(run->rec, cap * sizeof *grown)) == NULL)
			goto nomem;
		run->rec = grown;
		run->cap = cap;
	}
	x = &run->rec[run->n];
	memset(x, 0, sizeof *x);
	if (bm__reader_figure(rec, &x->f) != 0)
		goto nomem;
	x->j = rec;
	x->f.line = line;
	run->n++;
	return 0;
nomem:
	bm__jval_free(rec);
	snprintf(why, whysize, "line %zu: out of memory", line);
	return -ENOMEM;
}

/*
 * Read a file's records: the figures benchmp compare judges into set
 * (every line checked there: JSON, a record, its members' types), then
 * every record itself into run; 0, or -1 with a message.
 */
static int
report_read(const struct report *r, struct report_run *run,
    struct bm__figset *set)
{
	char why[512], *buf;
	size_t len;
	int rc;

	if ((rc = bm__reader_slurp(run->path, &buf, &len, why, sizeof why)) ==
	    0) {
		if ((rc = bm__reader_buf(buf, len, set, why, sizeof why)) == 0)
			rc = bm__reader_lines(buf, len, report_keep, run, why,
			    sizeof why);
		free(buf);
	}
	if (rc != 0) {
		fprintf(stderr, "%s: %s: %s\n", r->prog, run->path, why);
		return -1;
	}
	if (run->n == 0) {
		fprintf(stderr, "%s: %s: holds no records\n", r->prog,
		    run->path);
		return -1;
	}
	return 0;
}

/* Read the machine description (one JSON object); 0, or -1 with a message. */
static int
report_machine(struct report *r)
{
	const char *msg = "not an object";
	char why[256], *buf;
	size_t len, at = 0;
	int rc;

	if (r->machine_path == NULL)
		return 0;
	if (bm__reader_slurp(r->machine_path, &buf, &len, why, sizeof why) !=
	    0) {
		fprintf(stderr, "%s: %s: %s\n", r->prog, r->machine_path, why);
		return -1;
	}
	rc = bm__jparse(buf, len, &r->machine, &at, &msg);
	free(buf);
	if (rc == 0 && r->machine->type == BM__J_OBJECT)
		return 0;
	if (rc == 0)
		msg = "not an object";
	fprintf(stderr, "%s: %s: not a machine description: %s\n", r->prog,
	    r->machine_path, rc == -ENOMEM ? "out of memory" :
	    msg != NULL ? msg : "invalid JSON");
	return -1;
}

/* Read the runs and the machine, and with B take benchmp compare's verdicts; 0 or -1. */
static int
report_load(struct report *r)
{
	size_t i;

	compare_init(&r->cmp, r->prog);
	for (i = 0; i < r->nrun; i++)
		if (report_read(r, &r->run[i], i == 0 ? &r->cmp.sa :
		    &r->cmp.sb) != 0)
			return -1;
	if (report_machine(r) != 0)
		return -1;
	if ((r->nrun == 2 && compare_decide(&r->cmp) != 0) ||
	    report_rec_prepare(r) != 0) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return -1;
	}
	return 0;
}

/* Draw the page in memory and write it to the output; 0 or -1. */
static int
report_draw(struct report *r)
{
	char *page = NULL;
	size_t size = 0;
	int through, rc;

	if (whole_check(r->prog, r->output, &through) != 0)
		return -1;
	if ((r->o = open_memstream(&page, &size)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return -1;
	}
	report_page(r);
	rc = ferror(r->o) || r->err != 0;
	if (fclose(r->o) != 0 || rc) {
		free(page);
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return -1;
	}
	rc = whole_write(r->prog, r->output, "/.benchmp-report.XXXXXX",
	    through, page, size);
	free(page);
	return rc;
}

/* Run benchmp report. */
int
report_main(const char *prog, int argc, char **argv)
{
	struct report r;
	size_t i;
	int rc;

	memset(&r, 0, sizeof r);
	r.prog = prog;
	if ((rc = report_options(&r, argc, argv)) == -1)
		rc = report_load(&r) != 0 || report_draw(&r) != 0;
	compare_free(&r.cmp);
	for (i = 0; i < 2; i++) {
		report_rec_free(&r.run[i]);
		free(r.own[i]);
	}
	bm__jval_free(r.machine);
	return rc;
}
