/* scaling-run.c: benchmp scaling's runs: the tool at each point, its record kept, and the plot. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab.h"
#include "opts.h"
#include "scaling.h"

/*
 * The signal that stops the runs (0: none).  File-level because a
 * signal handler sets it; one benchmp scaling, one run at a time.
 */
static volatile sig_atomic_t run_stop;

/* Note SIGINT, SIGTERM or SIGHUP: the run under way is killed, and the command ends. */
static void
run_on_signal(int sig)
{
	if (run_stop == 0)
		run_stop = sig;
}

/*
 * Before the first run: SIGINT, SIGTERM and SIGHUP caught (they kill
 * the run under way, whose process group the terminal's ^C does not
 * reach, and end the command), SIGPIPE ignored, the guard that kills a
 * run if this process dies any other way, and /dev/null for the runs to
 * read (this command reads nothing).  0 or the exit status.
 */
static int
run_prepare(const struct scaling *s)
{
	int fd;

	if (ab_run_signals(run_on_signal) != 0)
		return scaling_fail(s, "cannot catch the signals or start the "
		    "guard of the runs: %s", strerror(errno));
	if ((fd = open("/dev/null", O_RDONLY)) < 0)
		return scaling_fail(s, "cannot open /dev/null: %s",
		    strerror(errno));
	if (fd != STDIN_FILENO) {
		if (dup2(fd, STDIN_FILENO) < 0) {
			close(fd);
			return scaling_fail(s, "cannot read /dev/null: %s",
			    strerror(errno));
		}
		close(fd);
	}
	return 0;
}

/*
 * Run argv to its end within the timeout (its output on pipes, in a
 * process group of its own, killed with whatever it forked when the
 * time is up).  0 with run to read (and free), 128 + a signal that
 * stopped it, or the failing status after saying why (what names it).
 */
static int
run_one(const struct scaling *s, char **argv, const char *what,
    struct ab_run *run)
{
	char why[600];

	if (ab_run_start(run, argv) != 0)
		return scaling_fail(s, "%s: %s", what, run->why);
	(void)ab_run_wait(run, 1, s->timeout, &run_stop);
	if (run_stop) {
		ab_run_free(run);
		return 128 + run_stop;
	}
	if (ab_run_failed(run, why, sizeof why)) {
		ab_run_free(run);
		return scaling_fail(s, "%s failed: %s", what, why);
	}
	return 0;
}

/* The last line of out that begins with "{" (a record), its length in *len; NULL when there is none. */
static const char *
run_last_record(const char *out, size_t n, size_t *len)
{
	const char *p = out, *end = out + n, *nl, *last = NULL;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (*p == '{') {
			last = p;
			*len = (size_t)(nl - p);
		}
	}
	return last;
}

/*
 * Keep the record a run printed: parsed and checked as the library's
 * reader takes a record (a line within BM__JSON_LINE_MAX, JSON, a "tool"
 * string, members of the types benchmp's tools write), so that the
 * records file stays readable, appended whole, and its row made.  0 or
 * the exit status.
 */
static int
run_keep(struct scaling *s, const struct ab_run *run, const char *what,
    unsigned p)
{
	struct bm__jval *rec;
	const char *line, *msg = NULL;
	char shape[200];
	size_t len = 0, at = 0;
	int rc;

	if ((line = run_last_record(run->out, run->out_len, &len)) == NULL)
		return scaling_fail(s, "%s printed no record", what);
	if (len > BM__JSON_LINE_MAX)
		return scaling_fail(s, "%s: an odd record: longer than %u MB",
		    what, BM__JSON_LINE_MAX >> 20);
	if ((rc = bm__jparse(line, len, &rec, &at, &msg)) != 0)
		return msg == NULL ? scaling_fail(s, "out of memory") :
		    scaling_fail(s, "%s: an odd record: invalid JSON at byte "
		    "%zu: %s", what, at + 1, msg);
	if (bm__reader_shape(rec, shape, sizeof shape) != 0)
		rc = scaling_fail(s, "%s: an odd record: %s", what, shape);
	else if (bm__jstr(rec, "tool") == NULL)
		rc = scaling_fail(s, "%s: an odd record: no \"tool\" string",
		    what);
	else if ((rc = scaling_files_append(s, line, len)) == 0 &&
	    scaling_table_add(s, rec, p) != 0)
		rc = scaling_fail(s, "out of memory");
	bm__jval_free(rec);
	return rc;
}

/*
 * Run the tool with --json -P p and its arguments (said on stderr as
 * the script said it) and keep its last record; 0 or the exit status.
 */
static int
run_point(struct scaling *s, unsigned p)
{
	char pbuf[16], **argv, *what;
	struct ab_run run;
	size_t n;
	int i, rc;

	snprintf(pbuf, sizeof pbuf, "%u", p);
	n = strlen(s->tool) + sizeof pbuf + 8;
	argv = calloc((size_t)s->nargs + 4, sizeof *argv);
	what = malloc(n);
	if (argv == NULL || what == NULL) {
		free(argv);
		free(what);
		return scaling_fail(s, "out of memory");
	}
	snprintf(what, n, "%s -P %s", s->tool, pbuf);
	argv[0] = s->tool;
	argv[1] = (char *)"--json";
	argv[2] = (char *)"-P";
	argv[3] = pbuf;
	fprintf(stderr, "%s: %s", s->prog, what);
	for (i = 1; i < s->nargs; i++) {
		argv[i + 3] = s->args[i];
		fprintf(stderr, " %s", s->args[i]);
	}
	fputc('\n', stderr);
	if ((rc = run_one(s, argv, what, &run)) == 0) {
		rc = run_keep(s, &run, what, p);
		ab_run_free(&run);
	}
	free(argv);
	free(what);
	return rc;
}

/* Run the points: powers of two below the largest count, then it. */
int
scaling_run_points(struct scaling *s)
{
	unsigned p;
	int rc;

	if ((rc = run_prepare(s)) != 0)
		return rc;
	for (p = 1; p < s->max; p *= 2)
		if ((rc = run_point(s, p)) != 0)
			return rc;
	if ((rc = run_point(s, s->max)) == 0 && run_stop)
		rc = 128 + run_stop;
	return rc;
}

/*
 * Draw BASE.png and BASE.svg of the records with benchmp-plot scaling
 * (found as the tools are, else on PATH), its output passed on; 0 or
 * the exit status.
 */
int
scaling_run_plot(struct scaling *s)
{
	char *argv[6], *plotter;
	struct ab_run run;
	int rc;

	if (s->base == NULL)
		return 0;
	if ((plotter = scaling_find(s, "benchmp-plot")) == NULL)
		return scaling_fail(s, "out of memory");
	argv[0] = plotter;
	argv[1] = (char *)"scaling";
	argv[2] = (char *)"--output";
	argv[3] = s->base;
	argv[4] = s->records;
	argv[5] = NULL;
	rc = run_one(s, argv, "plotting", &run);
	free(plotter);
	if (rc != 0)
		return rc;
	fputs(run.err, stderr);
	/* Written out now: a closed pipe is a failure said, not exit 0. */
	if (run.out_len > 0 &&
	    fwrite(run.out, 1, run.out_len, stdout) != run.out_len)
		rc = scaling_fail(s, "writing to standard output failed");
	else
		rc = opts_printed(s->prog);
	ab_run_free(&run);
	return rc;
}
