/* merge.c: benchmp merge: options, the passes' records read, the merged records written in the plan's order. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "merge.h"
#include "opts.h"
#include "whole.h"

/* The name of the copy beside the output, renamed over it. */
#define MERGE_PART	"/.benchmp-merge.XXXXXX"

/* Print the usage text to f. */
void
merge_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [-o FILE] RAW.jsonl\n"
"\n"
"Read the records of a run in several passes of fresh processes\n"
"(benchmp-run --classic --passes N: one JSON object a line, each with its\n"
"line of the plan in \"_line\") and write them with the records of each\n"
"figure measured in more than one pass merged into one: the statistics\n"
"of every round of every pass, made by the library as benchmp-stats makes\n"
"them, in the last pass's record, with its value, ops_per_s and\n"
"cycles_per_op scaled to the merged median, its wall time the sum of the\n"
"passes', budget_hit when a pass was cut short, the first pass's\n"
"timestamp, and the passes counted in suite.passes.  The records are\n"
"written in the plan's order, without \"_line\".  A figure whose records\n"
"cannot be merged is written as its last pass measured it, with a\n"
"warning.  \"-\" reads standard input.\n"
"\n"
"  -o, --output FILE\n"
"                   write to FILE, through a copy beside it renamed over\n"
"                   it (a full disk leaves FILE as it was), not to\n"
"                   standard output\n"
"  -h, --help       print this help and exit\n"
"  -V, --version    print the version and exit\n"
"\n"
"Exit status: 0 when the records were written (a figure kept apart is a\n"
"warning), 1 when the input cannot be read or holds a line that is not a\n"
"record with its \"_line\", or the output cannot be written, 2 on a usage\n"
"error.\n", prog);
}

/* Say what was wrong with the arguments, and the usage line; the usage status. */
static int
merge_bad(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s [-o FILE] RAW.jsonl (--help says more)\n",
	    prog);
	return MERGE_USAGE;
}

/* Read the options into m; -1 to go on, else the exit status. */
static int
merge_options(struct merge *m, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct opts_cmd cmd = { m->prog, merge_usage, merge_bad };
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:ho:V", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (optarg[0] == '\0')
				return merge_bad(m->prog, "an empty output "
				    "name", NULL);
			m->output = optarg;
			break;
		default:
			return opts_common(c, &cmd, argv);
		}
	}
	if (optind == argc)
		return merge_bad(m->prog, "missing the records file", NULL);
	if (argc - optind > 1)
		return merge_bad(m->prog, "one records file, not more:",
		    argv[optind + 1]);
	m->input = strcmp(argv[optind], "-") == 0 ? "/dev/stdin" :
	    argv[optind];
	return -1;
}

/*
 * Keep one record read (the bm__reader_records callback): it must have
 * its line of the plan, a number in "_line".
 */
static int
merge_add(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t size)
{
	struct merge *m = arg;
	const struct bm__jval *at = bm__jget(rec, "_line");
	struct merge_rec *grown;
	size_t cap;

	if (at == NULL || at->type != BM__J_NUMBER) {
		snprintf(why, size, "line %zu: no \"_line\" number (the "
		    "record's line of the plan)", line);
		bm__jval_free(rec);
		return BM_EPARSE;
	}
	if (m->n == m->cap) {
		cap = m->cap > 0 ? 2 * m->cap : 256;
		if ((grown = realloc(m->rec, cap * sizeof *grown)) == NULL) {
			snprintf(why, size, "line %zu: out of memory", line);
			bm__jval_free(rec);
			return -ENOMEM;
		}
		m->rec = grown;
		m->cap = cap;
	}
	memset(&m->rec[m->n], 0, sizeof m->rec[m->n]);
	m->rec[m->n].rec = rec;
	m->rec[m->n].line = line;
	m->n++;
	return 0;
}

/* A record written, with its line of the plan and its place read. */
struct merge_out {
	double plan;
	size_t at;
	struct bm__jval *rec;
};

/* Order written records by their line of the plan, then as read (jq's stable sort_by). */
static int
merge_out_cmp(const void *a, const void *b)
{
	const struct merge_out *x = a, *y = b;

	if (x->plan != y->plan)
		return x->plan < y->plan ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/*
 * The records to write, in the plan's order, each without "_line", as
 * JSON lines into *buf (malloc'd) and *size; 0, or -1 with a message.
 */
static int
merge_text(struct merge *m, char **buf, size_t *size)
{
	struct merge_out *o;
	size_t i, k = 0;
	char *text;
	FILE *f;
	int rc = 0;

	if ((o = calloc(m->n + 1, sizeof *o)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", m->prog);
		return -1;
	}
	for (i = 0; i < m->n; i++)
		if (m->rec[i].out != NULL) {
			o[k].rec = m->rec[i].out;
			o[k].plan = bm__jnum(o[k].rec, "_line");
			o[k++].at = i;
		}
	qsort(o, k, sizeof *o, merge_out_cmp);
	*buf = NULL;
	*size = 0;
	if ((f = open_memstream(buf, size)) == NULL)
		rc = -1;
	for (i = 0; i < k && rc == 0; i++) {
		merge_json_del(o[i].rec, "_line");
		if (bm__jwrite(o[i].rec, &text) != 0) {
			rc = -1;
			break;
		}
		if (fputs(text, f) == EOF || putc('\n', f) == EOF)
			rc = -1;
		free(text);
	}
	free(o);
	if (f != NULL && (fclose(f) != 0 || rc != 0)) {
		free(*buf);
		*buf = NULL;
		rc = -1;
	}
	if (rc != 0)
		fprintf(stderr, "%s: out of memory\n", m->prog);
	return rc;
}

/* Write the merged records to the output, whole; the exit status. */
static int
merge_write(struct merge *m, int through)
{
	char *buf;
	size_t size;
	int rc;

	if (merge_text(m, &buf, &size) != 0)
		return MERGE_FAILED;
	if (m->output != NULL) {
		rc = whole_write(m->prog, m->output, MERGE_PART, through, buf,
		    size) == 0 ? MERGE_OK : MERGE_FAILED;
	} else if (size > 0 && fwrite(buf, 1, size, stdout) != size) {
		fprintf(stderr, "%s: writing to standard output: %s\n",
		    m->prog, strerror(errno));
		rc = MERGE_FAILED;
	} else {
		rc = opts_printed(m->prog);
	}
	free(buf);
	return rc;
}

/* Read the records, merge each figure's and write them; the exit status. */
static int
merge_run(struct merge *m)
{
	char why[512];
	int through = 0;

	if (m->output != NULL && whole_check(m->prog, m->output,
	    &through) != 0)
		return MERGE_FAILED;
	if (bm__reader_records(m->input, merge_add, m, why, sizeof why) != 0) {
		fprintf(stderr, "%s: %s: %s\n", m->prog, m->input, why);
		return MERGE_FAILED;
	}
	if (merge_key_group(m) != 0 || merge_figure_all(m) != 0)
		return MERGE_FAILED;
	return merge_write(m, through);
}

/* Run benchmp merge with its arguments. */
int
merge_main(const char *prog, int argc, char **argv)
{
	struct merge m;
	size_t i;
	int rc;

	memset(&m, 0, sizeof m);
	m.prog = prog;
	if ((rc = merge_options(&m, argc, argv)) < 0)
		rc = merge_run(&m);
	for (i = 0; i < m.n; i++) {
		bm__jval_free(m.rec[i].rec);
		free(m.rec[i].key);
	}
	free(m.rec);
	return rc;
}
