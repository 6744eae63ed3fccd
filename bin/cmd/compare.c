/* compare.c: benchmp compare: options, two files of records paired, judged and gated. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "internal.h"
#include "clock.h"
#include "compare.h"

/* The default least change that counts, in percent, as benchmp-compare's. */
#define COMPARE_THRESHOLD_PCT	5
/* The default false alarm rate over all the figures compared. */
#define COMPARE_ALPHA		0.05

/* Print compare's usage text to f. */
void
compare_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [--threshold PCT] [--threshold-for GLOB=PCT] [--alpha A]\n"
"       [--correction bh|holm|none] [--allow-undecided | --strict]\n"
"       [--tsv | --json] [--junit FILE] [--markdown FILE] [--matched | --all]\n"
"       [--machine-a FILE] [--machine-b FILE] BASELINE.jsonl NEW.jsonl\n"
"\n"
"Judge each figure of NEW against BASELINE: worse, better, same, changed\n"
"(a figure better neither higher nor lower), undecided (the evidence is\n"
"too wide for the threshold: the row says how many times the processes\n"
"would decide) or failed (a bad record, units of different kinds).\n"
"\n"
"  --threshold PCT        the least change that counts (0 to 1000, default %d)\n"
"  --threshold-for G=PCT  the threshold of the figures whose name matches G\n"
"  --alpha A              false alarms over all the figures (default %g)\n"
"  --correction C         bh (Benjamini-Hochberg, default), holm or none\n"
"  --allow-undecided      exit 0, not 3, when figures are undecided\n"
"  --strict               the default: undecided figures exit 3\n"
"  --tsv                  rows only, tab-separated: verdict, figure, A, B, B/A\n"
"  --json                 the report as one JSON object\n"
"  --junit FILE           JUnit XML, one testcase a figure\n"
"  --markdown FILE        a Markdown summary table\n"
"  --matched, --all       list only figures of both files (the default with\n"
"                         an lmbench import), or all\n"
"  --machine-a FILE, --machine-b FILE\n"
"                         the machines (default NAME.machine.json beside\n"
"                         NAME.jsonl): their differences come first\n"
"  -h, --help             print this help and exit\n"
"  -V, --version          print the version and exit\n"
"\n"
"Exit status: 0 nothing worse or undecided, 1 a figure worse, 2 a usage\n"
"error, 3 a figure undecided and none worse, 4 a failure (a file that\n"
"cannot be read, an invalid record, a failed figure, a write error).\n",
	    prog, COMPARE_THRESHOLD_PCT, COMPARE_ALPHA);
}

/* Say what was wrong with the arguments, and the usage line; the usage status. */
static int
compare_bad(const struct compare *c, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", c->prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s [options] BASELINE.jsonl NEW.jsonl "
	    "(--help lists them)\n", c->prog);
	return COMPARE_USAGE;
}

/* Say that a --threshold is not a percentage; the usage status. */
static int
compare_bad_pct(const struct compare *c, const char *arg)
{
	fprintf(stderr, "%s: --threshold: '%s' is not a percentage from 0 to "
	    "1000\n", c->prog, arg);
	fprintf(stderr, "usage: %s [options] BASELINE.jsonl NEW.jsonl "
	    "(--help lists them)\n", c->prog);
	return COMPARE_USAGE;
}

/* Parse a plain decimal percentage 0 to 1000 (5, 2.5, .5) into a fraction. */
static int
compare_pct(const char *s, double *t)
{
	size_t digits = strspn(s, "0123456789"), frac = 0;
	double v;

	if (s[digits] == '.')
		frac = strspn(s + digits + 1, "0123456789") + 1;
	if (digits + frac == 0 || (frac == 1 && digits == 0) ||
	    s[digits + frac] != '\0' ||
	    bm_parse_double(s, 0, 1000, &v) != 0)
		return -1;
	*t = v / 100;
	return 0;
}

/* Add a --threshold-for GLOB=PCT. */
static int
compare_add_pattern(struct compare *c, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	char **np;
	double *nt, t;

	if (eq == NULL || eq == arg || compare_pct(eq + 1, &t) != 0)
		return -1;
	np = realloc(c->pat, (c->npat + 1) * sizeof *np);
	if (np == NULL)
		return -1;
	c->pat = np;
	nt = realloc(c->pat_t, (c->npat + 1) * sizeof *nt);
	if (nt == NULL)
		return -1;
	c->pat_t = nt;
	if ((c->pat[c->npat] = strndup(arg, (size_t)(eq - arg))) == NULL)
		return -1;
	c->pat_t[c->npat++] = t;
	return 0;
}

/* The status after printing help or the version: 0, or 4 with a message. */
static int
compare_printed(const struct compare *c)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return COMPARE_OK;
	fprintf(stderr, "%s: writing to standard output failed\n", c->prog);
	return COMPARE_FAILED;
}

/* The long options. */
enum {
	OPT_THRESHOLD = 256, OPT_THRESHOLD_FOR, OPT_ALPHA, OPT_CORRECTION,
	OPT_ALLOW, OPT_STRICT, OPT_TSV, OPT_JSON, OPT_JUNIT, OPT_MARKDOWN,
	OPT_MATCHED, OPT_ALL, OPT_MACHINE_A, OPT_MACHINE_B
};

/* Read the options into c; -1 to go on, else the exit status. */
static int
compare_options(struct compare *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "threshold-for", required_argument, NULL, OPT_THRESHOLD_FOR },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "correction", required_argument, NULL, OPT_CORRECTION },
		{ "allow-undecided", no_argument, NULL, OPT_ALLOW },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "markdown", required_argument, NULL, OPT_MARKDOWN },
		{ "matched", no_argument, NULL, OPT_MATCHED },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "machine-a", required_argument, NULL, OPT_MACHINE_A },
		{ "machine-b", required_argument, NULL, OPT_MACHINE_B },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int o;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, "+:hV", lo, NULL)) != -1) {
		switch (o) {
		case OPT_THRESHOLD:
			if (compare_pct(optarg, &c->threshold) != 0)
				return compare_bad_pct(c, optarg);
			break;
		case OPT_THRESHOLD_FOR:
			if (compare_add_pattern(c, optarg) != 0)
				return compare_bad(c, "--threshold-for: not "
				    "GLOB=PCT (0 to 1000):", optarg);
			break;
		case OPT_ALPHA:
			if (bm_parse_double(optarg, 1e-9, 0.5, &c->alpha) != 0)
				return compare_bad(c, "--alpha: not a number "
				    "above 0 and at most 0.5:", optarg);
			break;
		case OPT_CORRECTION:
			if (strcmp(optarg, "bh") == 0)
				c->corr = BM__CORR_BH;
			else if (strcmp(optarg, "holm") == 0)
				c->corr = BM__CORR_HOLM;
			else if (strcmp(optarg, "none") == 0)
				c->corr = BM__CORR_NONE;
			else
				return compare_bad(c, "--correction: not bh, "
				    "holm or none:", optarg);
			break;
		case OPT_ALLOW: c->allow_undecided = 1; break;
		case OPT_STRICT: c->allow_undecided = 0; break;
		case OPT_TSV: c->tsv = 1; break;
		case OPT_JSON: c->json = 1; break;
		case OPT_JUNIT: c->junit = optarg; break;
		case OPT_MARKDOWN: c->markdown = optarg; break;
		case OPT_MATCHED: c->matched = 1; break;
		case OPT_ALL: c->matched = 0; break;
		case OPT_MACHINE_A:
		case OPT_MACHINE_B:
			if (optarg[0] == '\0')
				return compare_bad(c, o == OPT_MACHINE_A ?
				    "--machine-a needs a file name" :
				    "--machine-b needs a file name", NULL);
			*(o == OPT_MACHINE_A ? &c->machine_a : &c->machine_b) =
			    optarg;
			break;
		case 'h':
			compare_usage(stdout, c->prog);
			return compare_printed(c);
		case 'V':
			printf("%s %s\n", c->prog, PACKAGE_VERSION);
			return compare_printed(c);
		case ':':
			return compare_bad(c, "an option needs a value:",
			    argv[optind - 1]);
		default:
			return compare_bad(c, "unknown option", argv[optind - 1]);
		}
	}
	if (c->tsv && c->json)
		return compare_bad(c, "--tsv and --json exclude each other",
		    NULL);
	if (argc - optind != 2)
		return compare_bad(c, "need two files of records, BASELINE "
		    "and NEW", NULL);
	c->file_a = argv[optind];
	c->file_b = argv[optind + 1];
	return -1;
}

/* The threshold of a figure: the last --threshold-for its name matches, else the default. */
static double
compare_threshold(const struct compare *c, const char *name)
{
	size_t i;

	for (i = c->npat; i-- > 0;)
		if (fnmatch(c->pat[i], name, 0) == 0)
			return c->pat_t[i];
	return c->threshold;
}

/* Read one file's records into set; 0, or a message and -1. */
static int
compare_read(const struct compare *c, const char *path,
    struct bm__figset *set)
{
	char why[512];

	if (bm__reader_file(path, set, why, sizeof why) != 0) {
		fprintf(stderr, "%s: %s: %s\n", c->prog, path, why);
		return -1;
	}
	if (set->n == 0) {
		fprintf(stderr, "%s: %s: holds no records\n", c->prog, path);
		return -1;
	}
	return 0;
}

/* Whether a set holds an lmbench import. */
static int
compare_imported(const struct bm__figset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->fig[i].imported)
			return 1;
	return 0;
}

/* Judge every pair, correct over them, and count the verdicts into the status. */
static int
compare_judge(struct compare *c)
{
	struct bm__judgement *j;
	size_t i, m = 0;
	int rc, worse = 0, undecided = 0, failed = 0;

	if ((j = calloc(c->nrow + 1, sizeof *j)) == NULL)
		return -ENOMEM;
	for (i = 0; i < c->nrow; i++)
		if (c->row[i].a != NULL && c->row[i].b != NULL)
			bm__verdict_judge(c->row[i].a, c->row[i].b,
			    compare_threshold(c, c->row[i].a->name), c->alpha,
			    &j[m++]);
	if ((rc = bm__verdict_decide(j, m, c->alpha, c->corr)) != 0) {
		free(j);
		return rc;
	}
	for (i = 0, m = 0; i < c->nrow; i++) {
		struct compare_row *r = &c->row[i];

		if (r->a == NULL || r->b == NULL) {
			c->noplace += r->noplace;
			c->only_a += r->b == NULL && !r->noplace;
			c->only_b += r->a == NULL && !r->noplace;
			continue;
		}
		r->j = j[m++];
		/* A sweep's point moves with the pages a run gets: shown, not gated. */
		r->gating = !(r->a->curve || r->b->curve);
		c->count[r->j.verdict]++;
		worse |= r->gating && r->j.verdict == BM__V_WORSE;
		undecided |= r->gating && r->j.verdict == BM__V_UNDECIDED;
		failed |= r->j.verdict == BM__V_FAILED;
	}
	free(j);
	c->status = failed ? COMPARE_FAILED : worse ? COMPARE_WORSE :
	    undecided && !c->allow_undecided ? COMPARE_UNDECIDED : COMPARE_OK;
	return 0;
}

/*
 * The clock, when both runs read it (mhz) and it is better or worse, and
 * of the other figures decided better or worse those that moved with it.
 */
static void
compare_clock(struct compare *c)
{
	const struct compare_row *r;
	double k, v;
	size_t i;

	for (i = 0; i < c->nrow && c->clock == NULL; i++) {
		r = &c->row[i];
		if (r->a != NULL && r->b != NULL && r->gating &&
		    clock_is(r->a) && (r->j.verdict == BM__V_WORSE ||
		    r->j.verdict == BM__V_BETTER) && isfinite(r->j.ratio) &&
		    r->j.ratio > 0)
			c->clock = r;
	}
	if (c->clock == NULL)
		return;
	k = c->clock->j.ratio;
	for (i = 0; i < c->nrow; i++) {
		r = &c->row[i];
		if (r == c->clock || r->a == NULL || r->b == NULL ||
		    !r->gating || (r->j.verdict != BM__V_WORSE &&
		    r->j.verdict != BM__V_BETTER))
			continue;
		c->clock_decided++;
		v = clock_scaled(r->a, r->j.ratio, k, 1);
		c->clock_with += fabs(v - 1) <= CLOCK_WITH;
	}
}

/*
 * Set run set (A or B) against its machine's past runs into p: its
 * figures (a sweep's points apart) that carry a past median; 0 or
 * -ENOMEM.
 */
static int
compare_past(const struct bm__figset *set, struct clock_past *p)
{
	double *d, x;
	size_t i, n = 0;

	if ((d = calloc(set->n + 1, sizeof *d)) == NULL)
		return -ENOMEM;
	for (i = 0; i < set->n; i++)
		if (!set->fig[i].curve && !isnan(x = clock_shift(
		    set->fig[i].better, set->fig[i].value,
		    set->fig[i].past_median)))
			d[n++] = x;
	clock_past_sum(d, n, p);
	free(d);
	return 0;
}

/* Write the reports; 0, or -1 with a message. */
static int
compare_write(struct compare *c)
{
	int rc = c->json ? compare_out_json(c, stdout) :
	    compare_out_text(c, stdout);

	if (rc != 0 || fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing to standard output: %s\n",
		    c->prog, strerror(errno ? errno : EIO));
		return -1;
	}
	if (c->junit != NULL && compare_out_junit(c, c->junit) != 0) {
		fprintf(stderr, "%s: %s: %s\n", c->prog, c->junit,
		    strerror(errno));
		return -1;
	}
	if (c->markdown != NULL && compare_out_markdown(c, c->markdown) != 0) {
		fprintf(stderr, "%s: %s: %s\n", c->prog, c->markdown,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* Free what c holds. */
void
compare_free(struct compare *c)
{
	size_t i;

	bm__reader_free(&c->sa);
	bm__reader_free(&c->sb);
	compare_machine_free(c);
	free(c->row);
	for (i = 0; i < c->npat; i++)
		free(c->pat[i]);
	free(c->pat);
	free(c->pat_t);
}

/* Whether row r is named on stderr under verdict v (a curve point is not gated). */
static int
compare_named(const struct compare_row *r, enum bm__verdict v)
{
	return r->a != NULL && r->b != NULL && r->j.verdict == v &&
	    (r->gating || v == BM__V_FAILED);
}

/* Name the figures of verdict v on stderr after label. */
static void
compare_say(const struct compare *c, enum bm__verdict v, const char *label)
{
	size_t i, k = 0;

	for (i = 0; i < c->nrow; i++) {
		const struct compare_row *r = &c->row[i];

		if (!compare_named(r, v))
			continue;
		if (k++ == 0)
			fprintf(stderr, "%s: %s: ", c->prog, label);
		else
			fprintf(stderr, ", ");
		compare_put_escaped(stderr, r->a->name);
		if (v == BM__V_FAILED)
			fprintf(stderr, " (%s)", r->j.why);
	}
	if (k > 0)
		fputc('\n', stderr);
}

/* Set c to a comparison's defaults. */
void
compare_init(struct compare *c, const char *prog)
{
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->threshold = COMPARE_THRESHOLD_PCT / 100.0;
	c->alpha = COMPARE_ALPHA;
	c->corr = BM__CORR_BH;
	c->matched = -1;
}

/* Pair and judge the figures of c->sa and c->sb. */
int
compare_decide(struct compare *c)
{
	int rc;

	/* An lmbench import holds a few figures of a run: list the shared. */
	if (c->matched == -1)
		c->matched = compare_imported(&c->sa) ||
		    compare_imported(&c->sb);
	if ((rc = compare_pair(c)) != 0 || (rc = compare_judge(c)) != 0)
		return rc;
	compare_clock(c);
	if ((rc = compare_past(&c->sa, &c->past[0])) != 0 ||
	    (rc = compare_past(&c->sb, &c->past[1])) != 0)
		return rc;
	return 0;
}

/* Run benchmp compare. */
int
compare_main(const char *prog, int argc, char **argv)
{
	struct compare c;
	int rc;

	compare_init(&c, prog);
	if ((rc = compare_options(&c, argc, argv)) >= 0) {
		compare_free(&c);
		return rc;
	}
	if (compare_read(&c, c.file_a, &c.sa) != 0 ||
	    compare_read(&c, c.file_b, &c.sb) != 0 ||
	    compare_machine_load(&c) != 0) {
		compare_free(&c);
		return COMPARE_FAILED;
	}
	if (compare_decide(&c) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		compare_free(&c);
		return COMPARE_FAILED;
	}
	rc = compare_write(&c) != 0 ? COMPARE_FAILED : c.status;
	compare_say(&c, BM__V_WORSE, "worse");
	compare_say(&c, BM__V_UNDECIDED, "undecided");
	compare_say(&c, BM__V_FAILED, "failed");
	compare_free(&c);
	return rc;
}
