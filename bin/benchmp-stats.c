/* benchmp-stats.c: the library's two-level statistics of numbers read from stdin, as JSON. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "internal.h"
#include "cmd/stats-print.h"
#include "verdict/verdict.h"

#define STATS_NAME		"benchmp-stats"
/* The longest line read, newline excluded. */
#define STATS_LINE_MAX		1023
/* At most this many values and rounds (a suite's merge has thousands). */
#define STATS_MAX_VALUES	10000000
#define STATS_MAX_ROUNDS	100000
/*
 * The values read so far, with their rounds, and the labels seen: each
 * label's round in rounds, a number label by its value (its own hash), a
 * text one by its text's hash and its text.
 */
struct stats_input {
	double *v;
	unsigned *round;
	size_t n;
	size_t cap;
	unsigned nr;
	int form;		/* 0 none yet, 1 value alone, 2 round and value */
	struct bm__keymap rounds;
	unsigned long long last_label;	/* the label of the previous line */
	unsigned last_round;
	int textkeys;		/* --each: a label is any text, kept in key */
	char **key;		/* a round's label text, with textkeys */
};

/*
 * Write s to f with its control bytes escaped (\xHH), as the tools'
 * messages do: a message quotes what the user typed or the input held,
 * and an ESC or a BEL in it must not reach the terminal as such.  Bytes
 * from 0x80 on pass, so that UTF-8 reads as it was written.
 */
static void
stats_put_escaped(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

/* Print a message about the input to stderr, escaped, and exit 1. */
static void __attribute__((noreturn, format(printf, 2, 3)))
stats_fail(unsigned long long line, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	if (line > 0)
		fprintf(stderr, "%s: line %llu: ", STATS_NAME, line);
	else
		fprintf(stderr, "%s: ", STATS_NAME);
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	stats_put_escaped(stderr, msg);
	fputc('\n', stderr);
	exit(1);
}

/* Print the usage line to f. */
static void
stats_usage_line(FILE *f)
{
	fprintf(f, "usage: %s [-h] [-V] [--better=lower|higher "
	    "[--disturbed=D/N]] [--shift[=LEVEL]]\n"
	    "       [--median | --print=LIST] [--each] < FILE\n",
	    STATS_NAME);
}

/* Print the full help to stdout and exit 0. */
static void __attribute__((noreturn))
stats_help(void)
{
	stats_usage_line(stdout);
	printf("\n"
	    "Reads one value per line, 'ROUND VALUE' (ROUND a non-negative "
	    "integer label)\nor 'VALUE' alone (all one round), and prints "
	    "benchmp's statistics of them\nas one JSON object: the median "
	    "over the rounds' medians, its order-statistic\ninterval, the "
	    "flags and the scatter within rounds, as a record has them.\n"
	    "\n"
	    "  --better=lower|higher  also the robust figure (\"robust\": "
	    "the best round's\n"
	    "                  median, lowest or highest, with its interval "
	    "and flags), from\n"
	    "                  three rounds or more\n"
	    "  --disturbed=D/N  D of the N intervals measured were disturbed "
	    "(0 <= D <= N):\n"
	    "                  accepted for older callers; the width alone "
	    "flags now\n"
	    "  --shift[=LEVEL]  instead: the change from the first label's "
	    "values (run A)\n"
	    "                  to the second's (run B), the ratio of the "
	    "Hodges-Lehmann\n"
	    "                  shift of their logs with Mann-Whitney's "
	    "interval at LEVEL\n"
	    "                  (default 0.95) and the p value of no "
	    "change\n"
	    "  --print=LIST    instead: the statistics LIST names (count, "
	    "median, mean,\n"
	    "                  stddev, cv, min, max, ci_lo, ci_hi, ci_level, "
	    "pP: the P-th\n"
	    "                  percentile), tab-separated on one line\n"
	    "  --median        the same as --print=median\n"
	    "  --each          with --print: lines are 'KEY VALUE' (KEY any "
	    "text), each\n"
	    "                  key its own sample, printed as 'KEY<tab>"
	    "statistics'\n"
	    "  -h, --help      print this help\n"
	    "  -V, --version   print the version\n");
	exit(fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1);
}

/* Print a usage error and the usage line to stderr and exit 2. */
static void __attribute__((noreturn))
stats_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s: ", STATS_NAME, what);
	stats_put_escaped(stderr, arg);
	fputc('\n', stderr);
	stats_usage_line(stderr);
	exit(2);
}

/*
 * The round of a label: the labels are numbered in the order they first
 * appear, in the library's key map (the same label on consecutive
 * lines, the usual case, skips it).
 */
static unsigned
stats_round(struct stats_input *in, unsigned long long label,
    unsigned long long line)
{
	size_t at;

	if (in->nr > 0 && label == in->last_label)
		return in->last_round;
	if (!bm__keymap_find_hash(&in->rounds, label, NULL, NULL, NULL,
	    &at)) {
		if (in->nr >= STATS_MAX_ROUNDS)
			stats_fail(line, "more than %u rounds",
			    STATS_MAX_ROUNDS);
		if (bm__keymap_add_hash(&in->rounds, label, in->nr) != 0)
			stats_fail(line, "cannot allocate memory");
		at = in->nr++;
	}
	in->last_label = label;
	in->last_round = (unsigned)at;
	return in->last_round;
}

/* Parse a round label: digits only, at most ULLONG_MAX. */
static unsigned long long
stats_label(const char *s, unsigned long long line)
{
	unsigned long long x;
	const char *p;
	char *end;

	for (p = s; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p))
			stats_fail(line, "round '%s' is not a non-negative "
			    "integer", s);
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno == ERANGE)
		stats_fail(line, "round %s is out of range (0 to %llu)", s,
		    (unsigned long long)ULLONG_MAX);
	if (errno != 0 || end == s || *end != '\0')
		stats_fail(line, "round '%s' is not a non-negative integer",
		    s);
	return x;
}

/* Parse a value: a finite decimal number within a double's range. */
static double
stats_value(const char *s, unsigned long long line)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end != '\0')
		stats_fail(line, "'%s' is not a number", s);
	if (!isfinite(x))
		stats_fail(line, "'%s' is not a finite number", s);
	if (errno == ERANGE)
		stats_fail(line, "%s is out of the range of a double", s);
	return x;
}

/* Add one value of a round. */
static void
stats_add(struct stats_input *in, double v, unsigned round,
    unsigned long long line)
{
	unsigned *nr;
	double *nv;
	size_t cap;

	if (in->n >= STATS_MAX_VALUES)
		stats_fail(line, "more than %u values", STATS_MAX_VALUES);
	if (in->n == in->cap) {
		cap = in->cap > 0 ? in->cap * 2 : 1024;
		if (cap > STATS_MAX_VALUES)
			cap = STATS_MAX_VALUES;
		if ((nv = realloc(in->v, cap * sizeof *nv)) != NULL)
			in->v = nv;
		if ((nr = realloc(in->round, cap * sizeof *nr)) != NULL)
			in->round = nr;
		if (nv == NULL || nr == NULL)
			stats_fail(line, "cannot allocate memory for %zu "
			    "values", cap);
		in->cap = cap;
	}
	in->v[in->n] = v;
	in->round[in->n] = round;
	in->n++;
}

/* The text of round at (a bm__keymap_key). */
static const char *
stats_key_at(const void *arg, size_t at)
{
	const struct stats_input *in = arg;

	return in->key[at];
}

/*
 * The round of a text key (--each): numbered in the order the keys first
 * appear, in the same map as the labels, by the key's hash and text.
 */
static unsigned
stats_key_round(struct stats_input *in, const char *key,
    unsigned long long line)
{
	uint64_t hash;
	size_t at;
	char **nk;

	if (in->nr > 0 && strcmp(key, in->key[in->last_round]) == 0)
		return in->last_round;
	hash = bm__keymap_hash(key);
	if (!bm__keymap_find_hash(&in->rounds, hash, key, stats_key_at, in,
	    &at)) {
		if (in->nr >= STATS_MAX_ROUNDS)
			stats_fail(line, "more than %u keys",
			    STATS_MAX_ROUNDS);
		if ((in->nr & (in->nr - 1)) == 0) {
			nk = realloc(in->key, (in->nr > 0 ? 2 * in->nr : 1) *
			    sizeof *nk);
			if (nk == NULL)
				stats_fail(line, "cannot allocate memory");
			in->key = nk;
		}
		if ((in->key[in->nr] = strdup(key)) == NULL ||
		    bm__keymap_add_hash(&in->rounds, hash, in->nr) != 0)
			stats_fail(line, "cannot allocate memory");
		at = in->nr++;
	}
	in->last_round = (unsigned)at;
	return in->last_round;
}

/*
 * Take one line of KEY VALUE (--each): the value is the last field.  With
 * a tab in the line the key is all before the last tab, exactly (a
 * script's tab-separated key comes back as it went in); without one, all
 * before the value, the spaces around it dropped.
 */
static void
stats_key_line(struct stats_input *in, char *s, unsigned long long line)
{
	char *end = s + strlen(s), *value, *tab;
	double v;

	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\r'))
		end--;
	*end = '\0';
	if ((tab = strrchr(s, '\t')) != NULL) {
		value = tab + 1;
		while (*value == ' ' || *value == '\r')
			value++;
		end = tab;
	} else {
		while (*s == ' ' || *s == '\r')
			s++;
		if (*s == '\0')
			return;
		value = end;
		while (value > s && value[-1] != ' ' && value[-1] != '\r')
			value--;
		end = value;
		while (end > s && (end[-1] == ' ' || end[-1] == '\r'))
			end--;
	}
	if (end == s)
		stats_fail(line, "a value without a key (KEY VALUE with "
		    "--each)");
	v = stats_value(value, line);
	*end = '\0';
	stats_add(in, v, stats_key_round(in, s, line), line);
}

/* Take one line (NUL-terminated, no newline): blank, VALUE or ROUND VALUE. */
static void
stats_line(struct stats_input *in, char *s, unsigned long long line)
{
	char *field[3];
	int nf = 0, form;

	if (in->textkeys) {
		stats_key_line(in, s, line);
		return;
	}
	while (nf < 3) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\0')
			break;
		field[nf++] = s;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s != '\0')
			*s++ = '\0';
	}
	if (nf == 0)
		return;
	if (nf == 3)
		stats_fail(line, "more than two fields (ROUND VALUE)");
	form = nf;
	if (in->form != 0 && form != in->form)
		stats_fail(line, "%s after lines of %s: use one form "
		    "throughout", form == 1 ? "a value alone" : "ROUND VALUE",
		    in->form == 1 ? "values alone" : "ROUND VALUE");
	in->form = form;
	if (form == 1)
		stats_add(in, stats_value(field[0], line), 0, line);
	else {
		/* The value first: a bad value is named before its round. */
		double v = stats_value(field[1], line);

		stats_add(in, v, stats_round(in, stats_label(field[0], line),
		    line), line);
	}
}

/*
 * Read stdin line by line, each at most STATS_LINE_MAX bytes; a longer
 * line and a NUL byte are errors, not truncated or split values.
 */
static void
stats_read(struct stats_input *in)
{
	char buf[STATS_LINE_MAX + 1];
	unsigned long long line = 0;
	size_t len = 0;
	int c;

	for (;;) {
		c = getc(stdin);
		if (c == EOF || c == '\n') {
			if (c == EOF && ferror(stdin))
				stats_fail(0, "reading standard input: %s",
				    strerror(errno));
			if (c == EOF && len == 0)
				break;
			buf[len] = '\0';
			stats_line(in, buf, ++line);
			len = 0;
			if (c == EOF)
				break;
			continue;
		}
		if (c == '\0')
			stats_fail(line + 1, "a NUL byte");
		if (len == STATS_LINE_MAX)
			stats_fail(line + 1, "longer than %d characters",
			    STATS_LINE_MAX);
		buf[len++] = (char)c;
	}
	if (in->n == 0)
		stats_fail(0, "no values on standard input");
	if (in->form == 1)
		in->nr = 1;
}

/*
 * --shift: the change from run A (the values of the first label) to run B
 * (the second's) as the ratio of the Hodges-Lehmann shift of their logs,
 * with Mann-Whitney's interval at level and the p value of no change
 * (bm__shift_logratio).  Prints one JSON object; exits 0, or 1 when the
 * input is not two runs of positive values.
 */
static int
stats_shift(struct stats_input *in, double level)
{
	double *a, *b;
	size_t na = 0, nb = 0, k;
	bm__paired st;
	int rc;

	if (in->nr != 2)
		stats_fail(0, "--shift needs two runs (two labels), not %u",
		    in->nr);
	a = malloc(in->n * sizeof *a);
	b = malloc(in->n * sizeof *b);
	if (a == NULL || b == NULL)
		stats_fail(0, "cannot allocate memory");
	for (k = 0; k < in->n; k++) {
		if (in->round[k] == 0)
			a[na++] = in->v[k];
		else
			b[nb++] = in->v[k];
	}
	rc = bm__shift_logratio(a, na, b, nb, level, &st);
	free(a);
	free(b);
	free(in->v);
	free(in->round);
	if (rc != 0 && rc != BM_ERANGE)
		stats_fail(0, "%s", bm_strerror(rc));
	if (rc == BM_ERANGE && st.n == 0)
		stats_fail(0, "--shift needs positive values");
	if (rc == 0)
		printf("{\"ratio\":%.17g,\"ci_lo\":%.17g,\"ci_hi\":%.17g,"
		    "\"ci_level\":%.17g,\"p\":%.17g,\"a\":%zu,\"b\":%zu}\n",
		    exp(st.shift), exp(st.lo), exp(st.hi), st.level, st.p, na,
		    nb);
	else
		printf("{\"ratio\":%.17g,\"ci_lo\":null,\"ci_hi\":null,"
		    "\"ci_level\":null,\"p\":%.17g,\"a\":%zu,\"b\":%zu}\n",
		    exp(st.shift), st.p, na, nb);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing to standard output: %s\n",
		    STATS_NAME, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * --print and --median: the statistics sp names of all the values, or
 * with --each of each key's, one line per key in the order the keys first
 * appeared.  Returns the exit status.
 */
static int
stats_print_all(struct stats_input *in, const struct stats_print *sp)
{
	size_t *start, k;
	double *by;
	unsigned r;
	int rc = 0;

	if (!in->textkeys) {
		if (in->form == 2)
			stats_fail(0, "--print and --median take values "
			    "alone; with --each, KEY VALUE");
		rc = stats_print_sample(stdout, NULL, in->v, in->n, sp);
	} else {
		/* The values of each key together, in input order. */
		start = calloc((size_t)in->nr + 1, sizeof *start);
		by = malloc(in->n * sizeof *by);
		if (start == NULL || by == NULL)
			stats_fail(0, "cannot allocate memory");
		for (k = 0; k < in->n; k++)
			start[in->round[k] + 1]++;
		for (r = 0; r < in->nr; r++)
			start[r + 1] += start[r];
		for (k = 0; k < in->n; k++)
			by[start[in->round[k]]++] = in->v[k];
		for (r = in->nr; r > 0; r--)
			start[r] = start[r - 1];
		start[0] = 0;
		for (r = 0; r < in->nr && rc == 0; r++)
			rc = stats_print_sample(stdout, in->key[r],
			    by + start[r], start[r + 1] - start[r], sp);
		for (r = 0; r < in->nr; r++)
			free(in->key[r]);
		free(in->key);
		free(start);
		free(by);
	}
	free(in->v);
	free(in->round);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = -EIO;
	if (rc == -EIO) {
		fprintf(stderr, "%s: writing to standard output: %s\n",
		    STATS_NAME, strerror(errno));
		return 1;
	}
	if (rc != 0)
		stats_fail(0, "%s", bm_strerror(rc));
	return 0;
}

/*
 * Check --disturbed=D/N (0 <= D <= N), accepted for older callers: the
 * disturbed share no longer flags a figure.  Exits 2 when malformed.
 */
static void
stats_disturbed(const char *arg)
{
	unsigned long long d, n;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)arg[0]) ||
	    (d = strtoull(arg, &end, 10), *end != '/') ||
	    !isdigit((unsigned char)end[1]) ||
	    (n = strtoull(end + 1, &end, 10), *end != '\0') ||
	    errno != 0 || d > n)
		stats_usage_error("--disturbed: not D/N with 0 <= D <= N", arg);
}

/* What the command line asks for. */
struct stats_opts {
	int better;		/* -1 none, 0 lower, 1 higher */
	int given;		/* --disturbed was given */
	int print;		/* --print or --median */
	int each;		/* --each */
	double shift;		/* the --shift level, 0 without */
	struct stats_print sp;
};

/* Parse the command line into o; exits 0 for -h and -V, 2 on a usage error. */
static void
stats_options(int argc, char **argv, struct stats_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "better", required_argument, NULL, 'b' },
		{ "disturbed", required_argument, NULL, 'd' },
		{ "shift", optional_argument, NULL, 's' },
		{ "print", required_argument, NULL, 'p' },
		{ "median", no_argument, NULL, 'm' },
		{ "each", no_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	memset(o, 0, sizeof *o);
	o->better = -1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			stats_help();
		case 'V':
			printf("%s (benchmp) %s\n", STATS_NAME, bm_version());
			exit(fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1);
		case 'b':
			if (strcmp(optarg, "lower") == 0)
				o->better = 0;
			else if (strcmp(optarg, "higher") == 0)
				o->better = 1;
			else
				stats_usage_error("--better: not lower or "
				    "higher", optarg);
			break;
		case 'd':
			o->given = 1;
			stats_disturbed(optarg);
			break;
		case 's':
			o->shift = 0.95;
			if (optarg != NULL && bm_parse_double(optarg, 0.5,
			    0.9999, &o->shift) != 0)
				stats_usage_error("--shift: not a level from 0.5 "
				    "to 0.9999", optarg);
			break;
		case 'p':
			if (stats_print_parse(optarg, &o->sp) != 0)
				stats_usage_error("--print: not a list of "
				    "count, median, mean, stddev, cv, min, max, "
				    "ci_lo, ci_hi, ci_level, pP", optarg);
			o->print = 1;
			break;
		case 'm':
			(void)stats_print_parse("median", &o->sp);
			o->print = 1;
			break;
		case 'e':
			o->each = 1;
			break;
		default:
			stats_usage_error("unknown option", argv[optind - 1]);
		}
	}
	if (o->given && o->better < 0)
		stats_usage_error("--disturbed without --better",
		    "the robust figure is what it flags");
	if (optind < argc)
		stats_usage_error("unexpected argument", argv[optind]);
	if (o->each && !o->print)
		stats_usage_error("--each without --print or --median",
		    "it says how to read the lines they summarise");
	if (o->print && (o->better >= 0 || o->shift > 0))
		stats_usage_error("--print or --median with --better or "
		    "--shift", "they print different things");
}

/* Read the values, compute and print their statistics. */
int
main(int argc, char **argv)
{
	struct stats_input in;
	struct stats_opts o;
	char *json = NULL;
	int rc;

	stats_options(argc, argv, &o);
	memset(&in, 0, sizeof in);
	in.textkeys = o.each;
	stats_read(&in);
	bm__keymap_free(&in.rounds);
	if (o.shift > 0)
		return stats_shift(&in, o.shift);
	if (o.print)
		return stats_print_all(&in, &o.sp);
	/* A record's members: its value and, with --better, its robust figure. */
	if ((rc = bm__stats_json_figure(in.v, in.round, in.n, in.nr, o.better,
	    BM__PRECISION_DEFAULT, &json)) != 0)
		stats_fail(0, "%s", bm_strerror(rc));
	free(in.v);
	free(in.round);
	if (printf("%s\n", json) < 0 || fflush(stdout) != 0 ||
	    ferror(stdout)) {
		fprintf(stderr, "%s: writing to standard output: %s\n",
		    STATS_NAME, strerror(errno));
		free(json);
		return 1;
	}
	free(json);
	return 0;
}
