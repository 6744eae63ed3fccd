/* lat_cmd.c: the time (and counters) of running another program. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tool.h"

enum {
	CMD_OPT_TIMEOUT = TOOL_OPT_BASE
};

static const struct option cmd_long[] = {
	{ "timeout", required_argument, NULL, CMD_OPT_TIMEOUT },
	{ NULL, 0, NULL, 0 }
};

/* The --timeout of each run, in seconds (0: the library's ten minutes). */
static uint64_t cmd_timeout_s;

/* Take --timeout. */
static void
cmd_option(struct tool *t, int opt, const char *arg)
{
	if (opt != CMD_OPT_TIMEOUT)
		tool_usage_error(t, "unexpected option");
	cmd_timeout_s = tool_uint(t, "--timeout", arg, 1, 7 * 24 * 3600);
}

/* Run the command -N times and print its median time. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_cmd",
		.args = "[--timeout=SECONDS] command [args...]",
		.extra_usage = "  --timeout=S     kill a run that lasts longer "
		    "(default 600 s)\n\nRuns the command -N times one after "
		    "the other (-P and -W do not apply) and\nreports the median "
		    "time of a run and, with --events, its counts per run.\n"
	};
	bm_param param;
	bm_record rec;
	bm_result r;
	char line[160];
	int first, rc;

	first = tool_parse(&t, argc, argv, NULL, cmd_long, cmd_option);
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
	if ((rc = bm_run_command(t.ctx, argv + first, t.opts.repetitions,
	    cmd_timeout_s * 1000000u, &r)) != 0)
		tool_lib_fail(&t, rc == BM_ERANGE ? -22 : rc, NULL);

	param.key = "command";
	param.str = argv[first];
	param.num = 0;
	memset(&rec, 0, sizeof rec);
	rec.tool = t.name;
	rec.case_name = argv[first];
	rec.params = &param;
	rec.nparams = 1;
	rec.metric = "latency";
	rec.unit = "us";
	rec.value = r.per_op_ns.median / 1000.0;
	rec.scale = 1e-3;
	rec.result = &r;
	tool_aggregate(&t, &rec);
	snprintf(line, sizeof line, "lat_cmd: %.4f microseconds\n", rec.value);
	tool_report(&t, &rec, line);
	bm_result_free(&r);
	return tool_finish(&t);
}
