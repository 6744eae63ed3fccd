/*
 * history.c: benchmp history: each figure's interval of the next run
 * widened to how the figure moved from one run to the next on this
 * machine, and this run's figures kept with the machine's past runs.
 *
 * A run's interval comes from its own visits, tens of seconds of one
 * host; between runs the host moves too.  On a 2-vCPU Intel Xeon KVM
 * guest, 2026-12-03, bw_mem 256m rd moved -17% to +7.5% between suites
 * whose intervals said +-4%, and the next run fell inside the previous
 * run's interval for 85-91% of the figures.  The store keeps each
 * figure's values, one line a figure and run, in the order run:
 *
 *	STAMP <tab> VALUE <tab> KEY [<tab> IDENTITY]
 *
 * (KEY the figure's key as benchmp merge makes it, compact JSON; IDENTITY
 * what was measured, --identity, absent when empty).  A figure's move is
 * the median of |log(v[i+1] / v[i])| over its last runs of this run's
 * identity, in order: runs of two builds taken in turns are two series,
 * not one that moves at every run, and a change the identity does not
 * name is one move among several, not a spread of all of them.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchmp.h"
#include "clock.h"
#include "history.h"
#include "merge.h"
#include "opts.h"
#include "record/record.h"
#include "stats/stats.h"
#include "whole.h"

/* The exit statuses. */
enum {
	HISTORY_OK = 0,
	HISTORY_FAILED = 1,
	HISTORY_USAGE = 2
};

/* The runs of a figure read by default, the bounds of --runs. */
#define HISTORY_RUNS		10
#define HISTORY_RUNS_MIN	3
#define HISTORY_RUNS_MAX	100
/* The runs the store keeps: the last ones. */
#define HISTORY_KEEP		100
/* The largest store read (100 runs of a suite take 2-5 MB with identities). */
#define HISTORY_STORE_MAX	(64u << 20)
/* The median of |d| for a normal d of standard deviation 1. */
#define HISTORY_MEDIAN_SD	0.674489750196
/*
 * A past move from one run to the next past this share is a jump: the
 * figure has two states or more on this machine, and the next run may
 * jump again.  On a 2-vCPU AMD EPYC KVM guest, 2026-12-04, nine suites:
 * lat_tcp across CPUs read 28 us and 33 us in turns of minutes, its
 * median move 1.4%; doc/measurements.md, "2026-12-04, from 10:40 UTC:
 * the EPYC guest again, a figure's jumps".
 */
#define HISTORY_JUMP		0.10
/*
 * How far beyond the farthest value a figure has shown (its past runs,
 * this run's visits) the next run's interval may reach, in log ratio
 * (history_reach).
 */
#define HISTORY_REACH		0.05
/* The copies beside the outputs, renamed over them. */
#define HISTORY_PART		"/.benchmp-history.XXXXXX"

/* A line of the store: its run, the figure's value and key, the identity. */
struct history_line {
	const char *stamp;
	double value;
	const char *key;
	const char *identity;
};

/* A record read, its key (NULL when it has no figure to keep). */
struct history_rec {
	struct bm__jval *rec;
	char *key;
};

/* benchmp history: its options, the store and the records. */
struct history {
	const char *prog;
	const char *store;
	const char *input;
	const char *output;
	const char *stamp;
	const char *identity;
	unsigned runs;
	double precision;
	double jump;
	int add;
	struct history_line *line;
	size_t nline;
	/*
	 * The store's lines of each key, newest first: the newest line of
	 * key k is newest[k] - 1, the line before line i of its key
	 * older[i] - 1 (0: none); keys indexes them by key.
	 */
	struct bm__keymap keys;
	size_t *newest;
	size_t *older;
	char *text;
	struct history_rec *rec;
	size_t nrec;
	size_t cap;
	size_t figures;
	size_t past;
	size_t widened;
	size_t flagged;
	/* This run's clock (mhz's record), NULL when it has none. */
	const struct history_rec *clock;
};

/* Print the usage text to f. */
void
history_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s --store FILE [--runs N] [--precision P] [--jump J]\n"
"       [--stamp NAME] [--identity TEXT] [--no-add] [-o FILE] RECORDS.jsonl\n"
"\n"
"Widen each figure's interval of the next run (ci_lo, ci_hi) to how the\n"
"figure moved from one run to the next on this machine, as FILE keeps its\n"
"past runs, then keep this run's figures there.  A figure of three runs\n"
"or more in FILE gets \"history\": its runs, its move (the median over\n"
"its last runs of how far one run's value lay from the one before, as a\n"
"share) and the interval that move gives the next run, at the record's\n"
"ci_level (Student's t); its ci_lo and ci_hi become the wider of the\n"
"two.  A figure whose move from one run to the next is past the\n"
"precision at one standard deviation is noisy, with that reason in its\n"
"noisy_why; so is one that jumped by more than J from one run to the\n"
"next within its last runs (two states or more on this machine), whose\n"
"interval then reaches as far as that jump (\"jump\", the largest move);\n"
"so is one whose value lies more than the precision from the median of\n"
"its past runs (\"past_median\"): the next run may move back.  A record\n"
"already widened (it has \"history\") is written as it is.  The\n"
"records are written in their order; \"-\" reads standard input.  When\n"
"the run's clock (mhz's figure) lies more than 3%% from the median of its\n"
"past runs, standard error says so: the figures the clock times moved\n"
"with it.\n"
"\n"
"  --store FILE     the machine's past runs, one line a figure and run;\n"
"                   created when missing (its directory must exist), at\n"
"                   most its last %u runs kept\n"
"  --runs N         a figure's last N runs (%u to %u; default %u)\n"
"  --precision P    the move's standard deviation, in percent, past\n"
"                   which a figure is noisy\n"
"                   (over 0 to 100; default 3)\n"
"  --jump J         a move from one run to the next, in percent, past\n"
"                   which a figure is noisy until it leaves its last\n"
"                   runs (0 to 1000; 0: none; default %.0f)\n"
"  --stamp NAME     this run's name in FILE (default: the earliest\n"
"                   timestamp of its records); a run kept under the same\n"
"                   name before is replaced, not read\n"
"  --identity TEXT  what this run measured (a build, kernel, setting):\n"
"                   the moves are read from the runs of this TEXT only,\n"
"                   and this run is kept with it (default: none)\n"
"  --no-add         read FILE, do not keep this run in it\n"
"  -o, --output FILE\n"
"                   write to FILE, through a copy beside it renamed over\n"
"                   it, not to standard output (FILE may be the input)\n"
"  -h, --help       print this help and exit\n"
"  -V, --version    print the version and exit\n"
"\n"
"A change to what the figures measure (another build, kernel or setting)\n"
"that --identity does not name counts as one move of each figure it\n"
"changed; runs under two identities taken in turns are read as two\n"
"series.\n"
"\n"
"Exit status: 0 when the records and FILE were written, 1 when the input\n"
"or FILE cannot be read (or FILE holds a line that is not STAMP, VALUE,\n"
"KEY and maybe IDENTITY) or an output cannot be written, 2 on a usage\n"
"error.\n",
	    prog, HISTORY_KEEP, HISTORY_RUNS_MIN, HISTORY_RUNS_MAX,
	    HISTORY_RUNS, 100 * HISTORY_JUMP);
}

/* Say what was wrong with the arguments, and the usage line; the usage status. */
static int
history_bad(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s%s\n", prog, what, arg ? " '" : "",
	    arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "usage: %s --store FILE [-o FILE] RECORDS.jsonl "
	    "(--help says more)\n", prog);
	return HISTORY_USAGE;
}

/* Whether a stamp or identity can be kept: printable, no tab. */
static int
history_name_ok(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* Read the options into h; -1 to go on, else the exit status. */
static int
history_options(struct history *h, int argc, char **argv)
{
	enum { O_STORE = 256, O_RUNS, O_PRECISION, O_JUMP, O_STAMP,
	    O_IDENTITY, O_NO_ADD };
	static const struct option lo[] = {
		{ "store", required_argument, NULL, O_STORE },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "precision", required_argument, NULL, O_PRECISION },
		{ "jump", required_argument, NULL, O_JUMP },
		{ "stamp", required_argument, NULL, O_STAMP },
		{ "identity", required_argument, NULL, O_IDENTITY },
		{ "no-add", no_argument, NULL, O_NO_ADD },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct opts_cmd cmd = { h->prog, history_usage, history_bad };
	uint64_t u;
	double x;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:ho:V", lo, NULL)) != -1) {
		switch (c) {
		case O_STORE:
			if (optarg[0] == '\0')
				return history_bad(h->prog, "an empty store "
				    "name", NULL);
			h->store = optarg;
			break;
		case O_RUNS:
			if (bm_parse_uint(optarg, HISTORY_RUNS_MIN,
			    HISTORY_RUNS_MAX, &u) != 0)
				return history_bad(h->prog, "--runs: not a "
				    "whole number from 3 to 100:", optarg);
			h->runs = (unsigned)u;
			break;
		case O_PRECISION:
			if (bm_parse_double(optarg, 0, 100, &x) != 0 ||
			    !(x > 0))
				return history_bad(h->prog, "--precision: not "
				    "a percentage over 0 up to 100:", optarg);
			h->precision = x / 100;
			break;
		case O_JUMP:
			if (bm_parse_double(optarg, 0, 1000, &x) != 0)
				return history_bad(h->prog, "--jump: not a "
				    "percentage from 0 to 1000:", optarg);
			h->jump = x / 100;
			break;
		case O_STAMP:
			if (!history_name_ok(optarg))
				return history_bad(h->prog, "--stamp: empty, "
				    "or with a tab or control character:",
				    optarg);
			h->stamp = optarg;
			break;
		case O_IDENTITY:
			if (optarg[0] != '\0' && !history_name_ok(optarg))
				return history_bad(h->prog, "--identity: with "
				    "a tab or control character:", optarg);
			h->identity = optarg;
			break;
		case O_NO_ADD:
			h->add = 0;
			break;
		case 'o':
			if (optarg[0] == '\0')
				return history_bad(h->prog, "an empty output "
				    "name", NULL);
			h->output = optarg;
			break;
		default:
			return opts_common(c, &cmd, argv);
		}
	}
	if (h->store == NULL)
		return history_bad(h->prog, "missing --store FILE", NULL);
	if (optind == argc)
		return history_bad(h->prog, "missing the records file", NULL);
	if (argc - optind > 1)
		return history_bad(h->prog, "one records file, not more:",
		    argv[optind + 1]);
	h->input = strcmp(argv[optind], "-") == 0 ? "/dev/stdin" :
	    argv[optind];
	return -1;
}

/*
 * Split the store's text (h->text, changed in place) into its lines;
 * 0, or -1 with a message (a line that is not STAMP, VALUE and KEY, and
 * maybe IDENTITY, or memory).
 */
static int
history_parse(struct history *h, size_t len)
{
	char *p = h->text, *end = h->text + len, *nl, *t1, *t2, *t3, *e;
	size_t n = 0, cap = 0, at = 0;
	struct history_line *grown;

	while (p < end) {
		at++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			fprintf(stderr, "%s: %s: line %zu: cut off (no end "
			    "of line)\n", h->prog, h->store, at);
			return -1;
		}
		*nl = '\0';
		t1 = strchr(p, '\t');
		t2 = t1 != NULL ? strchr(t1 + 1, '\t') : NULL;
		if (t2 == NULL || t1 == p || memchr(p, '\0', (size_t)(nl -
		    p)) != NULL || t2[1] != '[') {
			fprintf(stderr, "%s: %s: line %zu: not STAMP, VALUE "
			    "and KEY\n", h->prog, h->store, at);
			return -1;
		}
		*t1 = *t2 = '\0';
		/* (Compact JSON holds no tab: one past the key is IDENTITY.) */
		if ((t3 = strchr(t2 + 1, '\t')) != NULL) {
			*t3 = '\0';
			if (!history_name_ok(t3 + 1)) {
				fprintf(stderr, "%s: %s: line %zu: an empty "
				    "identity, or one with a tab or control "
				    "character\n", h->prog, h->store, at);
				return -1;
			}
		}
		errno = 0;
		if (n == cap) {
			cap = cap > 0 ? 2 * cap : 1024;
			if ((grown = realloc(h->line, cap * sizeof *grown)) ==
			    NULL) {
				fprintf(stderr, "%s: out of memory\n", h->prog);
				return -1;
			}
			h->line = grown;
		}
		h->line[n].stamp = p;
		h->line[n].value = strtod(t1 + 1, &e);
		h->line[n].key = t2 + 1;
		h->line[n].identity = t3 != NULL ? t3 + 1 : "";
		if (errno != 0 || e == t1 + 1 || *e != '\0' ||
		    !isfinite(h->line[n].value) || !(h->line[n].value > 0)) {
			fprintf(stderr, "%s: %s: line %zu: the value is not "
			    "a number over 0\n", h->prog, h->store, at);
			return -1;
		}
		h->nline = ++n;
		p = nl + 1;
	}
	return 0;
}

/* The key of the store's key k (a bm__keymap_key): its newest line's. */
static const char *
history_key(const void *arg, size_t k)
{
	const struct history *h = arg;

	return h->line[h->newest[k] - 1].key;
}

/*
 * Chain the store's lines of each key, newest first (h->newest,
 * h->older), so that a figure's past runs are found without reading
 * every line of the store for each; 0, or -1 with a message.
 */
static int
history_index(struct history *h)
{
	size_t i, k, nkey = 0, cap = 0, *grown;
	uint64_t hash;

	if (h->nline == 0)
		return 0;
	if ((h->older = calloc(h->nline, sizeof *h->older)) == NULL)
		goto fail;
	for (i = 0; i < h->nline; i++) {
		hash = bm__keymap_hash(h->line[i].key);
		if (bm__keymap_find_hash(&h->keys, hash, h->line[i].key,
		    history_key, h, &k)) {
			h->older[i] = h->newest[k];
			h->newest[k] = i + 1;
			continue;
		}
		if (nkey == cap) {
			cap = cap > 0 ? 2 * cap : 1024;
			if ((grown = realloc(h->newest, cap *
			    sizeof *grown)) == NULL)
				goto fail;
			h->newest = grown;
		}
		if (bm__keymap_add_hash(&h->keys, hash, nkey) != 0)
			goto fail;
		h->newest[nkey++] = i + 1;
	}
	return 0;
fail:
	fprintf(stderr, "%s: out of memory\n", h->prog);
	return -1;
}

/* Read the store (a missing one is empty); 0, or -1 with a message. */
static int
history_read_store(struct history *h)
{
	FILE *f = fopen(h->store, "r");
	size_t len = 0, cap = 0, got;
	char *grown;

	if (f == NULL) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "%s: %s: cannot read: %s\n", h->prog,
		    h->store, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap > 0 ? 2 * cap : 1 << 16;
			if (cap > HISTORY_STORE_MAX + 1)
				cap = HISTORY_STORE_MAX + 1;
			if ((grown = realloc(h->text, cap)) == NULL) {
				fclose(f);
				fprintf(stderr, "%s: out of memory\n", h->prog);
				return -1;
			}
			h->text = grown;
		}
		got = fread(h->text + len, 1, cap - len, f);
		len += got;
	} while (got > 0 && len <= HISTORY_STORE_MAX);
	if (ferror(f) || len > HISTORY_STORE_MAX) {
		fprintf(stderr, "%s: %s: %s\n", h->prog, h->store,
		    ferror(f) ? "cannot read it" : "larger than 64 MB: not "
		    "a store of benchmp history");
		fclose(f);
		return -1;
	}
	fclose(f);
	if (history_parse(h, len) != 0)
		return -1;
	return history_index(h);
}

/* Keep one record read (the bm__reader_records callback). */
static int
history_add(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t size)
{
	struct history *h = arg;
	struct history_rec *grown;
	size_t cap;

	if (h->nrec == h->cap) {
		cap = h->cap > 0 ? 2 * h->cap : 256;
		if ((grown = realloc(h->rec, cap * sizeof *grown)) == NULL) {
			snprintf(why, size, "line %zu: out of memory", line);
			bm__jval_free(rec);
			return -ENOMEM;
		}
		h->rec = grown;
		h->cap = cap;
	}
	h->rec[h->nrec].rec = rec;
	h->rec[h->nrec].key = NULL;
	h->nrec++;
	return 0;
}

/*
 * The stamp of this run when none was given: the earliest "timestamp"
 * of its records (they sort as text), else the time now; 0 or -1.
 */
static int
history_default_stamp(struct history *h, char *buf, size_t size)
{
	const char *first = NULL, *t;
	time_t now;
	struct tm tm;
	size_t i;

	for (i = 0; i < h->nrec; i++) {
		t = bm__jstr(h->rec[i].rec, "timestamp");
		if (t != NULL && history_name_ok(t) &&
		    (first == NULL || strcmp(t, first) < 0))
			first = t;
	}
	if (first != NULL) {
		snprintf(buf, size, "%s", first);
		return 0;
	}
	now = time(NULL);
	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return -1;
	return 0;
}

/*
 * A record's value, when it is one the store keeps: finite, over 0, of
 * a figure that does not contradict what the machine states (a line
 * size sysfs does not have is no run of the figure).
 */
static double
history_value(const struct bm__jval *rec)
{
	const struct bm__jval *c = bm__jget(rec, "contradicts");
	double v = bm__jnum(rec, "value");

	if (c != NULL && c->type == BM__J_ARRAY && c->n > 0)
		return NAN;
	return isfinite(v) && v > 0 ? v : NAN;
}

/*
 * The values of key in the store, its last runs of this identity but
 * this one's, oldest first, into v (at most h->runs); their count.
 */
static size_t
history_past(const struct history *h, const char *key, double *v)
{
	size_t i, n = 0;

	if (!bm__keymap_find(&h->keys, key, history_key, h, &i))
		return 0;
	for (i = h->newest[i]; i != 0 && n < h->runs; i = h->older[i - 1])
		if (strcmp(h->line[i - 1].identity, h->identity) == 0 &&
		    strcmp(h->line[i - 1].stamp, h->stamp) != 0)
			v[n++] = h->line[i - 1].value;
	/* Newest first: turn them round. */
	for (i = 0; i < n / 2; i++) {
		double t = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
	return n;
}

/* Order doubles, for the median. */
static int
history_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A figure's move from one run to the next over its n values in order:
 * the median of |log(v[i+1] / v[i])|, and in *max the largest.
 */
static double
history_move(const double *v, size_t n, double *max)
{
	double d[HISTORY_RUNS_MAX] = { 0 };
	size_t i, k = n - 1;

	*max = 0;
	if (n < 2)
		return 0;
	for (i = 0; i < k; i++)
		d[i] = fabs(log(v[i + 1] / v[i]));
	qsort(d, k, sizeof *d, history_cmp);
	*max = d[k - 1];
	return k % 2 ? d[k / 2] : (d[k / 2 - 1] + d[k / 2]) / 2;
}

/* Set an object's member name to the JSON text json; 0 or -ENOMEM. */
static int
history_set_json(struct bm__jval *obj, const char *name, const char *json)
{
	struct bm__jval *v;
	const char *why;
	size_t at;
	int rc;

	if ((rc = bm__jparse(json, strlen(json), &v, &at, &why)) != 0)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	rc = merge_json_set(obj, name, v);
	bm__jval_free(v);
	return rc;
}

/*
 * Append the string why to the record's noisy_why (made when missing)
 * and make it noisy; 0 or -ENOMEM.
 */
static int
history_flag(struct bm__jval *rec, const char *why)
{
	const struct bm__jval *old = bm__jget(rec, "noisy_why");
	struct bm__json b;
	char *text = NULL;
	int rc;

	memset(&b, 0, sizeof b);
	if (old != NULL && old->type == BM__J_ARRAY && old->n > 0) {
		if ((rc = bm__jwrite(old, &text)) != 0)
			return rc;
		text[strlen(text) - 1] = '\0';
		bm__json_printf(&b, "%s,", text);
		free(text);
	} else {
		bm__json_printf(&b, "[");
	}
	bm__json_string(&b, why);
	bm__json_printf(&b, "]");
	if (b.err != 0 || b.s == NULL) {
		free(b.s);
		return -ENOMEM;
	}
	if ((rc = history_set_json(rec, "noisy", "true")) == 0)
		rc = history_set_json(rec, "noisy_why", b.s);
	free(b.s);
	return rc;
}

/*
 * Bring lo and hi in to HISTORY_REACH beyond the farthest values figure
 * rec has shown: its n past runs v, its value x and this run's own
 * values (visits, or its processes' samples).  With few past runs,
 * Student's t stretches a move of 40% to an interval of -67%/+203%
 * (lat_syscall stat, three past runs on a 2-vCPU Intel Xeon KVM guest,
 * 2026-12-06) where no run or visit had been beyond 0.37-0.69 us.
 * Replayed over the ten sets of three suites of that guest from
 * 2026-12-05 12:38 UTC to 2026-12-06 07:54 UTC, each read against the
 * set before it alone, the next run fell inside 86.4% of the time
 * against 87.0%, and the intervals reaching past a factor of two were
 * 96 where they were 137 (doc/measurements.md, "2026-12-06, from 07:53
 * UTC: intervals that reach no farther than the values").
 */
static void
history_reach(const struct bm__jval *rec, const double *v, size_t n,
    double x, double *lo, double *hi)
{
	const struct bm__jval *a = bm__jget(rec, "values");
	double vmin = x, vmax = x, y;
	size_t i;

	for (i = 0; i < n; i++) {
		vmin = fmin(vmin, v[i]);
		vmax = fmax(vmax, v[i]);
	}
	for (i = 0; a != NULL && a->type == BM__J_ARRAY && i < a->n; i++) {
		if (a->item[i].type != BM__J_NUMBER ||
		    !((y = a->item[i].num) > 0) || !isfinite(y))
			continue;
		vmin = fmin(vmin, y);
		vmax = fmax(vmax, y);
	}
	*lo = fmax(*lo, vmin * exp(-HISTORY_REACH));
	*hi = fmin(*hi, vmax * exp(HISTORY_REACH));
}

/*
 * Widen one record's interval to its figure's past runs, and flag it
 * when the figure moves by more than the precision; 0 or -ENOMEM.
 */
static int
history_widen(struct history *h, struct history_rec *r)
{
	double v[HISTORY_RUNS_MAX], x = history_value(r->rec), move, sd, q;
	double level = bm__jnum(r->rec, "ci_level"), w, lo, hi, sdmove, max;
	double jump, dev, pm;
	double clo = bm__jnum(r->rec, "ci_lo"), chi = bm__jnum(r->rec,
	    "ci_hi");
	char json[440], why[224];
	size_t n;
	int rc, jumped;

	if (isnan(x) || bm__jget(r->rec, "history") != NULL)
		return 0;
	h->figures++;
	if ((n = history_past(h, r->key, v)) == 0)
		return 0;
	if (n < HISTORY_RUNS_MIN || !(level > 0 && level < 1) ||
	    !isfinite(clo) || !isfinite(chi)) {
		snprintf(json, sizeof json, "{\"runs\":%zu}", n);
		return history_set_json(r->rec, "history", json);
	}
	/*
	 * The median |difference| of two normal values is 0.6745 sqrt(2)
	 * sigma; the next run is one more, from this run's value: Student's
	 * t on the differences' degrees, sqrt(1 + 1/n) for the centre.
	 */
	h->past++;
	move = history_move(v, n, &max);
	sd = move / (HISTORY_MEDIAN_SD * sqrt(2.0));
	q = bm__student_quantile(1 - level, (double)(n - 1));
	pm = clock_median(v, n);
	w = q * sd * sqrt(1 + 1.0 / (double)n);
	/*
	 * A figure that jumped may jump as far again: the next run's
	 * interval reaches that far at least, as far as the values it has
	 * shown let it (history_reach).
	 */
	jump = expm1(max);
	jumped = h->jump > 0 && jump > h->jump;
	if (jumped)
		w = fmax(w, max);
	lo = x * exp(-w);
	hi = x * exp(w);
	history_reach(r->rec, v, n, x, &lo, &hi);
	/* Moves no double can hold (values e^700 apart) give no interval. */
	if (!isfinite(hi) || !(lo > 0) || !isfinite(jump)) {
		snprintf(json, sizeof json, "{\"runs\":%zu}", n);
		return history_set_json(r->rec, "history", json);
	}
	snprintf(json, sizeof json, "{\"runs\":%zu,\"move\":%.6g,"
	    "\"move_sd\":%.6g,\"jump\":%.6g,\"ci_lo\":%.17g,"
	    "\"ci_hi\":%.17g,\"run_ci_lo\":%.17g,\"run_ci_hi\":%.17g,"
	    "\"run_noisy\":%s,\"past_median\":%.17g}",
	    n, expm1(move), expm1(move / HISTORY_MEDIAN_SD), jump, lo, hi, clo,
	    chi, bm__jtrue(r->rec, "noisy") ? "true" : "false", pm);
	if ((rc = history_set_json(r->rec, "history", json)) != 0)
		return rc;
	if (lo < clo || hi > chi) {
		h->widened++;
		snprintf(json, sizeof json, "%.17g", fmin(lo, clo));
		if ((rc = history_set_json(r->rec, "ci_lo", json)) != 0)
			return rc;
		snprintf(json, sizeof json, "%.17g", fmax(hi, chi));
		if ((rc = history_set_json(r->rec, "ci_hi", json)) != 0)
			return rc;
	}
	/*
	 * Noisy when the next run is expected to move by more than the
	 * precision: the move's standard deviation, the median |log ratio|
	 * over 0.6745, as the run's own interval is judged
	 * (bm__decide_move_z).
	 */
	sdmove = 100 * expm1(move / HISTORY_MEDIAN_SD);
	if (sdmove > 100 * h->precision)
		snprintf(why, sizeof why, "its runs on this machine move "
		    "+-%.*f%% from one to the next (one standard deviation, "
		    "from the median of its last %zu), past the precision of "
		    "+-%.3g%%", sdmove < 10 ? 2 : 0, sdmove, n,
		    100 * h->precision);
	else if (jumped)
		snprintf(why, sizeof why, "its runs on this machine jumped "
		    "by %.*f%% from one to the next within its last %zu, past "
		    "%.3g%%: the next may jump as far", jump < 1 ? 1 : 0,
		    100 * jump, n, 100 * h->jump);
	else if (fabs(dev = x / pm - 1) > h->precision)
		snprintf(why, sizeof why, "it lies %+.*f%% from the median of "
		    "its last %zu runs on this machine, past the precision of "
		    "+-%.3g%%: the next run may move back", fabs(dev) < 0.1 ?
		    1 : 0, 100 * dev, n, 100 * h->precision);
	else
		return 0;
	h->flagged++;
	return history_flag(r->rec, why);
}

/*
 * Say on stderr when this run's clock (mhz's figure) lies more than
 * CLOCK_WITH from the median of its past runs: every figure the clock
 * times moved with it (the host of a virtual machine, or the governor,
 * moved the clock), a move no change of what was measured made.
 */
static void
history_clock(const struct history *h)
{
	double v[HISTORY_RUNS_MAX], x, m;
	size_t n;

	if (h->clock == NULL || isnan(x = history_value(h->clock->rec)) ||
	    (n = history_past(h, h->clock->key, v)) < HISTORY_RUNS_MIN)
		return;
	m = clock_median(v, n);
	if (fabs(x / m - 1) > CLOCK_WITH)
		fprintf(stderr, "%s: the clock (mhz) read %.0f MHz, %+.1f%% "
		    "from %.0f MHz, the median of its last %zu runs%s in %s: "
		    "the figures the clock times moved with it\n", h->prog, x,
		    100 * (x / m - 1), m, n, *h->identity ?
		    " of this identity" : "", h->store);
}

/*
 * Whether record r is this run's clock, mhz's figure, not read before
 * (a record with "history" was judged then).
 */
static int
history_is_clock(const struct history_rec *r)
{
	return clock_is_record(r->rec) && bm__jget(r->rec, "history") == NULL;
}

/* Write one line of the store to f; fprintf's count, under 0 on failure. */
static int
history_put(FILE *f, const struct history_line *l)
{
	return fprintf(f, "%s\t%.17g\t%s%s%s\n", l->stamp, l->value, l->key,
	    *l->identity != '\0' ? "\t" : "", l->identity);
}

/*
 * The store as written: its lines of the last HISTORY_KEEP runs but
 * this one, then this run's figures; into *buf and *size; 0 or -1.
 */
static int
history_store_text(struct history *h, char **buf, size_t *size)
{
	const char *seen[HISTORY_KEEP];
	size_t i, k, nseen = 0, from = 0;
	FILE *f;
	int rc = 0;

	/* The first line of the oldest run kept. */
	for (i = h->nline; i-- > 0;) {
		/* A run's lines are together: the next line counted its run. */
		if (strcmp(h->line[i].stamp, h->stamp) == 0 ||
		    (i + 1 < h->nline && strcmp(h->line[i].stamp,
		    h->line[i + 1].stamp) == 0))
			continue;
		for (k = 0; k < nseen; k++)
			if (strcmp(seen[k], h->line[i].stamp) == 0)
				break;
		if (k < nseen)
			continue;
		if (nseen == HISTORY_KEEP - 1) {
			from = i + 1;
			break;
		}
		seen[nseen++] = h->line[i].stamp;
	}
	if ((f = open_memstream(buf, size)) == NULL)
		return -1;
	for (i = from; i < h->nline && rc >= 0; i++)
		if (strcmp(h->line[i].stamp, h->stamp) != 0)
			rc = history_put(f, &h->line[i]);
	for (i = 0; i < h->nrec && rc >= 0; i++)
		if (h->rec[i].key != NULL) {
			struct history_line l = { h->stamp,
			    history_value(h->rec[i].rec), h->rec[i].key,
			    h->identity };

			rc = history_put(f, &l);
		}
	if (fclose(f) != 0 || rc < 0) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

/* The records as JSON lines into *buf and *size; 0 or -1. */
static int
history_records_text(struct history *h, char **buf, size_t *size)
{
	FILE *f;
	char *text;
	size_t i;
	int rc = 0;

	if ((f = open_memstream(buf, size)) == NULL)
		return -1;
	for (i = 0; i < h->nrec && rc == 0; i++) {
		if (bm__jwrite(h->rec[i].rec, &text) != 0) {
			rc = -1;
			break;
		}
		if (fputs(text, f) == EOF || putc('\n', f) == EOF)
			rc = -1;
		free(text);
	}
	if (fclose(f) != 0 || rc != 0) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

/* Write the records, then the store; the exit status. */
static int
history_write(struct history *h, int through, int store_through)
{
	char *rbuf = NULL, *sbuf = NULL;
	size_t rsize = 0, ssize = 0;
	int rc = HISTORY_OK;

	if (history_records_text(h, &rbuf, &rsize) != 0 || (h->add &&
	    history_store_text(h, &sbuf, &ssize) != 0)) {
		free(rbuf);
		fprintf(stderr, "%s: out of memory\n", h->prog);
		return HISTORY_FAILED;
	}
	if (h->output != NULL) {
		if (whole_write(h->prog, h->output, HISTORY_PART, through,
		    rbuf, rsize) != 0)
			rc = HISTORY_FAILED;
	} else if (rsize > 0 && fwrite(rbuf, 1, rsize, stdout) != rsize) {
		fprintf(stderr, "%s: writing to standard output: %s\n",
		    h->prog, strerror(errno));
		rc = HISTORY_FAILED;
	} else if (opts_printed(h->prog) != 0) {
		rc = HISTORY_FAILED;
	}
	/* The store only after the records: a failed run adds nothing. */
	if (rc == HISTORY_OK && h->add && whole_write(h->prog, h->store,
	    HISTORY_PART, store_through, sbuf, ssize) != 0)
		rc = HISTORY_FAILED;
	free(rbuf);
	free(sbuf);
	return rc;
}

/* Read the store and the records, widen, write; the exit status. */
static int
history_run(struct history *h)
{
	char why[512], stamp[64];
	const char *ident;
	int through = 0, store_through = 0, rc;
	size_t i;

	if (h->output != NULL && whole_check(h->prog, h->output,
	    &through) != 0)
		return HISTORY_FAILED;
	if (h->add && whole_check(h->prog, h->store, &store_through) != 0)
		return HISTORY_FAILED;
	if (history_read_store(h) != 0)
		return HISTORY_FAILED;
	if (bm__reader_records(h->input, history_add, h, why,
	    sizeof why) != 0) {
		fprintf(stderr, "%s: %s: %s\n", h->prog, h->input, why);
		return HISTORY_FAILED;
	}
	if (h->stamp == NULL) {
		if (history_default_stamp(h, stamp, sizeof stamp) != 0) {
			fprintf(stderr, "%s: no name for this run: give "
			    "--stamp\n", h->prog);
			return HISTORY_FAILED;
		}
		h->stamp = stamp;
	}
	for (i = 0; i < h->nrec; i++) {
		if (isnan(history_value(h->rec[i].rec)))
			continue;
		if (h->clock == NULL && history_is_clock(&h->rec[i]))
			h->clock = &h->rec[i];
		if (merge_key_of(h->rec[i].rec, &h->rec[i].key) != 0 ||
		    history_widen(h, &h->rec[i]) != 0) {
			fprintf(stderr, "%s: out of memory\n", h->prog);
			return HISTORY_FAILED;
		}
	}
	if ((rc = history_write(h, through, store_through)) != HISTORY_OK)
		return rc;
	/* What it did, on stderr: the records went to the output. */
	ident = *h->identity ? " of this identity" : "";
	if (h->past == 0)
		fprintf(stderr, "%s: no figure has %u runs%s in %s yet%s\n",
		    h->prog, HISTORY_RUNS_MIN, ident, h->store, h->add ?
		    ": this run is kept there" : "");
	else
		fprintf(stderr, "%s: %zu of %zu figures with past runs%s in "
		    "%s: %zu intervals widened to their moves, %zu noisy by "
		    "them\n", h->prog, h->past, h->figures, ident, h->store,
		    h->widened, h->flagged);
	history_clock(h);
	return HISTORY_OK;
}

/* Run benchmp history with its arguments. */
int
history_main(const char *prog, int argc, char **argv)
{
	struct history h;
	size_t i;
	int rc;

	memset(&h, 0, sizeof h);
	h.prog = prog;
	h.runs = HISTORY_RUNS;
	h.identity = "";
	h.precision = BM__PRECISION_DEFAULT;
	h.jump = HISTORY_JUMP;
	h.add = 1;
	if ((rc = history_options(&h, argc, argv)) < 0)
		rc = history_run(&h);
	for (i = 0; i < h.nrec; i++) {
		bm__jval_free(h.rec[i].rec);
		free(h.rec[i].key);
	}
	free(h.rec);
	free(h.line);
	free(h.newest);
	free(h.older);
	bm__keymap_free(&h.keys);
	free(h.text);
	return rc;
}
