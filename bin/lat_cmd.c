/* lat_cmd.c: the time (and counters) of running another program. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchmp/command.h"
#include "benchmp/sinks.h"
#include "common/progress.h"
#include "common/tool.h"

/*
 * While the progress line is shown and --interval is not given, a reading
 * every quarter second refreshes it during a run.  The readings are taken
 * by this (parent) process, which wakes every 50 ms during a run anyway
 * to look for signals; the command's own time is not touched.
 */
#define CMD_PROGRESS_US 250000u

enum {
	CMD_OPT_TIMEOUT = TOOL_OPT_BASE,
	CMD_OPT_KEEP_OUTPUT,
	CMD_OPT_INTERVAL
};

static const struct option cmd_long[] = {
	{ "timeout", required_argument, NULL, CMD_OPT_TIMEOUT },
	{ "keep-output", no_argument, NULL, CMD_OPT_KEEP_OUTPUT },
	{ "interval", required_argument, NULL, CMD_OPT_INTERVAL },
	{ NULL, 0, NULL, 0 }
};

/* The options of lat_cmd. */
struct cmd_opts {
	/* --timeout: seconds per run (0: the library's ten minutes). */
	uint64_t timeout_s;
	/* --keep-output: the command's stdout to our stderr, not /dev/null. */
	int keep_output;
	/* --interval: a reading every this many ms during each run (0: none). */
	uint64_t interval_ms;
};

/* Where the readings go while our standard output is the command's. */
struct cmd_readings {
	struct tool *t;
	const char *name;	/* the command, the record's case */
	FILE *out;		/* a copy of our standard output, or NULL */
	uint64_t interval_ms;	/* --interval */
	int report;		/* the readings are output (--interval) */
	struct progress prog;	/* the run, the mean so far, the time left */
	unsigned reps;		/* the runs asked for (-N) */
	unsigned done;		/* the runs finished */
	double sum_s;		/* their times */
};

/* Take --timeout, --keep-output and --interval. */
static void
cmd_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct cmd_opts *o = cookie;

	if (opt == CMD_OPT_KEEP_OUTPUT)
		o->keep_output = 1;
	else if (opt == CMD_OPT_INTERVAL)
		o->interval_ms = tool_uint(t, "--interval", arg, 10, 3600000);
	else if (opt == CMD_OPT_TIMEOUT)
		o->timeout_s = tool_uint(t, "--timeout", arg, 1,
		    7 * 24 * 3600);
	else
		tool_exit_usage(t, "unexpected option");
}

/*
 * Point the standard output the command inherits at /dev/null (or, with
 * --keep-output, at our standard error), so that only results reach ours:
 * lat_cmd --json echo hi | jq failed on the mixed "hi".  Returns a copy of
 * our standard output to put back, or -1 when it was closed.
 */
static int
cmd_hide_stdout(struct tool *t, int keep_output)
{
	int saved, fd;

	if ((saved = fcntl(1, F_DUPFD_CLOEXEC, 3)) < 0) {
		if (errno == EBADF)
			return -1;
		tool_exit_fail(t, "cannot copy standard output: %s",
		    strerror(errno));
	}
	fd = keep_output ? 2 : open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		tool_exit_fail(t, "cannot open /dev/null: %s", strerror(errno));
	if (dup2(fd, 1) < 0)
		tool_exit_fail(t, "cannot redirect standard output: %s",
		    strerror(errno));
	if (fd != 2)
		close(fd);
	return saved;
}

/* Put back the standard output that cmd_hide_stdout() saved. */
static void
cmd_restore_stdout(struct tool *t, int saved)
{
	if (saved < 0)
		return;
	if (dup2(saved, 1) < 0)
		tool_exit_fail(t, "cannot restore standard output: %s",
		    strerror(errno));
	close(saved);
}

/*
 * Show the run under way, the mean of the finished ones and the time the
 * rest should take (that mean times the runs left, less what the current
 * run has taken), as hyperfine does.
 */
static void
cmd_progress(struct cmd_readings *o, const bm_reading *rd)
{
	char mean[32], left[32], sofar[32];
	double m, rest;
	unsigned run = rd->run + 1;

	if (rd->last) {
		o->done++;
		o->sum_s += rd->since_ns / 1e9;
		if (o->done < o->reps)
			run++;
	}
	if (o->done == 0) {
		progress_show(&o->prog, "run %u/%u, %s so far", run, o->reps,
		    progress_time(sofar, sizeof sofar, rd->since_ns / 1e9));
		return;
	}
	/* The last run is over: the result follows at once. */
	if (o->done == o->reps)
		return;
	m = o->sum_s / o->done;
	rest = (o->reps - o->done) * m - (rd->last ? 0 : rd->since_ns / 1e9);
	progress_show(&o->prog, "run %u/%u, mean %s, about %s left", run,
	    o->reps, progress_time(mean, sizeof mean, m),
	    progress_time(left, sizeof left, rest));
}

/*
 * Report one reading, as perf stat -I prints one: its record (metric
 * "reading": the interval's time and the counts in it, with the run, the
 * reading's index, its time since the run's start and whether it is the
 * last, at the command's exit) to the sink and,
 * as a line or a record, to our standard output.  0, or an error for the
 * library to stop the runs with (a sink's detail is on ctx).
 */
static int
cmd_reading(bm_ctx *ctx, const bm_reading *rd, void *cookie)
{
	struct cmd_readings *o = cookie;
	struct tool *t = o->t;
	int to_stdout = t->json || bm_sink_is_stdout(t->sink), rc;
	const bm_result *r = rd->result;
	char *json = NULL;
	bm_param param[6];
	bm_record rec;
	size_t i;

	cmd_progress(o, rd);
	/* Taken for the progress line alone: nothing to report. */
	if (!o->report)
		return 0;
	if ((rc = bm_record_latency(&rec, t->name, o->name, "us", r)) != 0)
		return rc;
	rec.metric = "reading";
	rec.better = BM_BETTER_NONE;
	param[0] = (bm_param){ .key = "command", .str = o->name };
	param[1] = (bm_param){ .key = "run", .num = rd->run + 1 };
	param[2] = (bm_param){ .key = "reading", .num = rd->index };
	param[3] = (bm_param){ .key = "since_s", .num = rd->since_ns / 1e9 };
	param[4] = (bm_param){ .key = "interval_ms",
	    .num = (double)o->interval_ms };
	param[5] = (bm_param){ .key = "last", .num = rd->last };
	rec.params = param;
	rec.nparams = 6;
	if ((to_stdout || t->sink != NULL) &&
	    (rc = bm_record_json(ctx, &rec, &json)) != 0)
		return rc;
	if (t->sink != NULL && !bm_sink_is_stdout(t->sink) &&
	    (rc = bm_sink_write(ctx, t->sink, json, strlen(json))) != 0) {
		free(json);
		return rc;
	}
	if (o->out != NULL) {
		progress_clear(&o->prog);
		if (to_stdout)
			fputs(json, o->out);
		else {
			fprintf(o->out, "lat_cmd: run %u reading %u at %.4f s: "
			    "%.4f microseconds", rd->run + 1, rd->index,
			    rd->since_ns / 1e9, rec.value);
			for (i = 0; i < r->nevents; i++)
				if (!isnan(r->samples[0].events[i]))
					fprintf(o->out, ", %s %.0f",
					    r->events[i].name,
					    r->samples[0].events[i]);
			fputc('\n', o->out);
		}
	}
	free(json);
	if (o->out != NULL && (fflush(o->out) != 0 || ferror(o->out)))
		return -EIO;
	return 0;
}

/*
 * Open a stdio stream on a copy of the standard output saved before the
 * command took it, for the readings; NULL when there is none.
 */
static FILE *
cmd_readings_out(struct tool *t, int saved, uint64_t interval_ms)
{
	FILE *f;
	int fd;

	if (saved < 0 || interval_ms == 0)
		return NULL;
	if ((fd = fcntl(saved, F_DUPFD_CLOEXEC, 3)) < 0)
		tool_exit_fail(t, "cannot copy standard output: %s",
		    strerror(errno));
	if ((f = fdopen(fd, "w")) == NULL)
		tool_exit_fail(t, "cannot open standard output: %s",
		    strerror(errno));
	return f;
}

/* Parse and check the command line into o; the command's index. */
static int
cmd_parse(struct tool *t, int argc, char **argv, struct cmd_opts *o)
{
	int first;

	t->no_served = 1;
	first = tool_parse(t, argc, argv, NULL, cmd_long, cmd_option, o);
	if (first >= argc)
		tool_exit_usage(t, "missing the command to run");
	if (t->opts.parallel != 1)
		tool_exit_usage(t, "-P does not apply: the command runs one "
		    "at a time");
	if (t->warmup_given)
		tool_exit_usage(t, "-W does not apply to a command");
	if (t->later_warmup_us != 0)
		tool_exit_usage(t, "--later-warmup does not apply to a "
		    "command");
	if (t->opts.percentiles != 0)
		tool_exit_usage(t, "--percentiles does not apply to a "
		    "command");
	return first;
}

/* Run the command -N times and print its median time. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_cmd",
		/* What follows the command is the command's own. */
		.options_first = 1,
		/* --timeout bounds each run of the command. */
		.own_timeout = 1,
		.args = "[--timeout=SECONDS] [--keep-output] [--interval=MS] "
		    "command [args...]",
		.extra_usage = "  --timeout=S     kill a run that lasts longer "
		    "(default 600 s)\n"
		    "  --keep-output   send the command's output to stderr "
		    "(default /dev/null)\n"
		    "  --interval=MS   also report the time and counts of each "
		    "MS (10 to 3600000)\n                  during a run, like "
		    "perf stat -I\n\nRuns the command -N times one after "
		    "the other (-P and -W do not apply) and\nreports the median "
		    "time of a run and, with --events, its counts per run.\n"
		    "Whatever the command starts is killed when its run ends.\n"
	};
	struct cmd_readings rd = { .t = &t };
	bm_param param;
	struct cmd_opts o = { 0, 0, 0 };
	bm_record rec;
	bm_result r;
	uint64_t every_us;
	int first, rc, saved;

	first = cmd_parse(&t, argc, argv, &o);
	progress_start(&rd.prog, &t);
	/* The command's output is on our stderr: no line between. */
	if (o.keep_output)
		rd.prog.on = 0;
	tool_setup(&t);
	tool_wall_clock(&t);
	if (fflush(stdout) != 0)
		tool_exit_fail(&t, "writing the result: %s", strerror(errno));
	saved = cmd_hide_stdout(&t, o.keep_output);
	rd.name = argv[first];
	rd.interval_ms = o.interval_ms;
	rd.report = o.interval_ms != 0;
	rd.reps = t.opts.repetitions;
	rd.out = cmd_readings_out(&t, saved, o.interval_ms);
	every_us = o.interval_ms * 1000u;
	if (every_us == 0 && rd.prog.on)
		every_us = CMD_PROGRESS_US;
	rc = bm_run_command_every(t.ctx, argv + first, t.opts.repetitions,
	    o.timeout_s * 1000000u, every_us, cmd_reading, &rd, &r);
	progress_clear(&rd.prog);
	if (rd.out != NULL && fclose(rd.out) != 0 && rc == 0)
		tool_exit_fail(&t, "writing the result: %s", strerror(errno));
	cmd_restore_stdout(&t, saved);
	if (rc != 0)
		tool_exit_run(&t, rc);

	param = (bm_param){ .key = "command", .str = argv[first] };
	tool_record_us(&rec, &t, argv[first], &param, 1, &r);
	tool_report_value(&t, &rec, "lat_cmd: ", 4, " microseconds");
	bm_result_free(&r);
	return tool_finish(&t);
}
