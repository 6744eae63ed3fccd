/* lat_cmd.c: the time (and counters) of running another program. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/tool.h"

enum {
	CMD_OPT_TIMEOUT = TOOL_OPT_BASE,
	CMD_OPT_KEEP_OUTPUT
};

static const struct option cmd_long[] = {
	{ "timeout", required_argument, NULL, CMD_OPT_TIMEOUT },
	{ "keep-output", no_argument, NULL, CMD_OPT_KEEP_OUTPUT },
	{ NULL, 0, NULL, 0 }
};

/* The options of lat_cmd. */
struct cmd_opts {
	/* --timeout: seconds per run (0: the library's ten minutes). */
	uint64_t timeout_s;
	/* --keep-output: the command's stdout to our stderr, not /dev/null. */
	int keep_output;
};

/* Take --timeout and --keep-output. */
static void
cmd_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct cmd_opts *o = cookie;

	if (opt == CMD_OPT_KEEP_OUTPUT)
		o->keep_output = 1;
	else if (opt == CMD_OPT_TIMEOUT)
		o->timeout_s = tool_uint(t, "--timeout", arg, 1,
		    7 * 24 * 3600);
	else
		tool_usage_error(t, "unexpected option");
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
		tool_fail(t, "cannot copy standard output: %s",
		    strerror(errno));
	}
	fd = keep_output ? 2 : open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		tool_fail(t, "cannot open /dev/null: %s", strerror(errno));
	if (dup2(fd, 1) < 0)
		tool_fail(t, "cannot redirect standard output: %s",
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
		tool_fail(t, "cannot restore standard output: %s",
		    strerror(errno));
	close(saved);
}

/* Run the command -N times and print its median time. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_cmd",
		.args = "[--timeout=SECONDS] [--keep-output] command "
		    "[args...]",
		.extra_usage = "  --timeout=S     kill a run that lasts longer "
		    "(default 600 s)\n"
		    "  --keep-output   send the command's output to stderr "
		    "(default /dev/null)\n\nRuns the command -N times one after "
		    "the other (-P and -W do not apply) and\nreports the median "
		    "time of a run and, with --events, its counts per run.\n"
		    "Whatever the command starts is killed when its run ends.\n"
	};
	bm_param param;
	struct cmd_opts o = { 0, 0 };
	bm_record rec;
	bm_result r;
	char line[160];
	int first, rc, saved;

	first = tool_parse(&t, argc, argv, NULL, cmd_long, cmd_option, &o);
	if (first >= argc)
		tool_usage_error(&t, "missing the command to run");
	if (t.opts.parallel != 1)
		tool_usage_error(&t, "-P does not apply: the command runs one "
		    "at a time");
	if (t.warmup_given)
		tool_usage_error(&t, "-W does not apply to a command");
	if (t.opts.percentiles != 0)
		tool_usage_error(&t, "--percentiles does not apply to a "
		    "command");
	tool_setup(&t);
	tool_wall_clock(&t);
	saved = cmd_hide_stdout(&t, o.keep_output);
	rc = bm_run_command(t.ctx, argv + first, t.opts.repetitions,
	    o.timeout_s * 1000000u, &r);
	cmd_restore_stdout(&t, saved);
	if (rc != 0)
		tool_run_fail(&t, rc);

	param.key = "command";
	param.str = argv[first];
	param.num = 0;
	tool_record_us(&rec, &t, argv[first], &param, 1, &r);
	tool_aggregate(&t, &rec);
	snprintf(line, sizeof line, "lat_cmd: %.4f microseconds\n", rec.value);
	tool_report(&t, &rec, line);
	bm_result_free(&r);
	return tool_finish(&t);
}
