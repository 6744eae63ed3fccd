/* calib.c: the shared main of the calibration tools enough, timing_o and loop_o. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "benchmp/calibration.h"
#include "benchmp/timers.h"
#include "calib.h"
#include "tool.h"

enum {
	CALIB_OPT_EXPORT = TOOL_OPT_BASE,
	CALIB_OPT_ALL,
	CALIB_OPT_STORE
};

static const struct option calib_long[] = {
	{ "export", no_argument, NULL, CALIB_OPT_EXPORT },
	{ "all", no_argument, NULL, CALIB_OPT_ALL },
	{ "store", required_argument, NULL, CALIB_OPT_STORE },
	{ NULL, 0, NULL, 0 }
};

/* What the options asked for. */
struct calib_opts {
	int export;
	int all;
	const char *store;	/* --store FILE */
};

/* Take --export and --all. */
static void
calib_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct calib_opts *o = cookie;

	if (opt == CALIB_OPT_EXPORT)
		o->export = 1;
	else if (opt == CALIB_OPT_ALL)
		o->all = 1;
	else if (opt == CALIB_OPT_STORE) {
		if (arg == NULL || *arg == '\0')
			tool_exit_usage(t, "--store needs a file");
		o->store = arg;
		o->all = 1;
	} else
		tool_exit_usage(t, "unexpected option");
}

/* Print one value, bare or as an export line for the shell. */
static void
calib_print(const bm_calibration *cal, unsigned which, int export)
{
	const char *var = which == BM_CAL_ENOUGH ? "ENOUGH" :
	    which == BM_CAL_TIMING_O ? "TIMING_O" : "LOOP_O";

	if (export)
		printf("export %s=", var);
	if (which == BM_CAL_ENOUGH)
		printf("%llu\n", (unsigned long long)cal->enough_us);
	else
		printf("%.6f\n", which == BM_CAL_TIMING_O ? cal->timing_o_us :
		    cal->loop_o_us);
}

/*
 * After an exported TIMING_O, the clock it was measured on when it is
 * not the one the tools assume (posix-monotonic): a tool on another
 * clock sets it aside and measures its own (benchmp(3)).
 */
static void
calib_print_clock(const struct tool *t)
{
	const char *clock = bm_ctx_timer_name(t->ctx, BM_SUBTIMER_CLOCK);

	if (clock != NULL && strcmp(clock, "posix-monotonic") != 0)
		printf("export BENCHMP_OVERHEAD_CLOCK=%s\n", clock);
}

/* Print s as a JSON string, its quotes, backslashes and controls escaped. */
static void
calib_json_string(const char *s)
{
	const unsigned char *c;

	putchar('"');
	for (c = (const unsigned char *)s; *c != '\0'; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/*
 * After the three export lines of values measured here (a calibration
 * that settled, or the median of a store's, which keeps only those) with
 * neither overhead from the environment, BENCHMP_CALIBRATED: this boot
 * and the two values as printed, which vouches for them to the tools of
 * this boot that are given them (tool_probe_overheads: they do not
 * measure them again).  Nothing where the boot has no identity.
 */
static void
calib_print_vouched(const bm_calibration *cal, int measured)
{
	char boot[64];

	if (!measured ||
	    (cal->from_env & (BM_CAL_TIMING_O | BM_CAL_LOOP_O)) != 0 ||
	    tool_boot_id(boot, sizeof boot) != 0)
		return;
	printf("export BENCHMP_CALIBRATED=%s:%.6f:%.6f\n", boot,
	    cal->timing_o_us, cal->loop_o_us);
}

/* Print the whole calibration as one JSON object (st: stored, or NULL). */
static void
calib_json(const bm_calibration *cal, const struct calib_stored *st)
{
	printf("{\"enough_us\":%llu,\"timing_o_us\":%.6f,\"loop_o_us\":%.6f,"
	    "\"from_env\":{\"enough\":%s,\"timing_o\":%s,\"loop_o\":%s},"
	    "\"settled\":%s,\"disturbed_probes\":%u,\"seconds\":%.6f",
	    (unsigned long long)cal->enough_us, cal->timing_o_us,
	    cal->loop_o_us, cal->from_env & BM_CAL_ENOUGH ? "true" : "false",
	    cal->from_env & BM_CAL_TIMING_O ? "true" : "false",
	    cal->from_env & BM_CAL_LOOP_O ? "true" : "false",
	    cal->settled ? "true" : "false", cal->disturbed, cal->seconds);
	if (st != NULL) {
		printf(",\"stored\":{\"runs\":%u,\"kept\":%s,"
		    "\"other_machine\":%s,\"measured\":{\"enough_us\":%llu,"
		    "\"timing_o_us\":%.6f,\"loop_o_us\":%.6f},\"machine\":",
		    st->runs, st->kept ? "true" : "false",
		    st->other_machine ? "true" : "false",
		    (unsigned long long)st->measured.enough_us,
		    st->measured.timing_o_us, st->measured.loop_o_us);
		calib_json_string(st->machine);
		putchar('}');
	}
	printf("}\n");
}

/*
 * Calibrate (values in the environment are taken as given) and print.
 * timing_o and loop_o print microseconds with six decimals, where lmbench
 * printed whole microseconds and so reported 0 on every modern machine.
 */
int
calib_main(const char *name, unsigned which, int argc,
    char **argv)
{
	struct calib_opts o = { 0, 0, NULL };
	struct calib_stored st;
	struct tool t;
	bm_calibration cal;
	char why[600];
	int rc;

	memset(&st, 0, sizeof(st));

	memset(&t, 0, sizeof t);
	t.name = name;
	t.args = "[--export] [--all] [--store FILE]";
	t.no_served = 1;
	t.extra_usage = "  --export        print export VAR=value for the "
	    "shell\n  --all           print ENOUGH, TIMING_O and LOOP_O "
	    "(implies --export)\n  --store FILE    keep this calibration in "
	    "FILE and print the median\n                  of this machine's "
	    "last 5 (implies --all)\n  With --json: every value, whether the "
	    "calibration settled and the\n  probes the machine disturbed, as "
	    "one JSON object\n";
	if (tool_parse(&t, argc, argv, NULL, calib_long, calib_option,
	    &o) != argc)
		tool_exit_usage(&t, "unexpected argument '%s'",
		    argv[optind]);
	tool_setup(&t);
	if ((rc = bm_calibrate(t.ctx, &cal)) != 0)
		tool_exit_lib(&t, rc, "calibration");
	/*
	 * A value taken from disturbed probes, or an enough given up on at
	 * the time bound, would make every later run of a series that
	 * exports it slower or wrong: say so where a user sees it.
	 */
	if (!cal.settled)
		fprintf(stderr, "%s: warning: the machine disturbed the "
		    "calibration (%u probes preempted, stopped or stolen); "
		    "these values are not clean: do not export them, run "
		    "again on a quieter machine\n", name, cal.disturbed);
	if (o.store != NULL) {
		if (calib_store(o.store, bm_ctx_timer_name(t.ctx,
		    BM_SUBTIMER_CLOCK), &cal, &st, why, sizeof(why)) != 0)
			tool_exit_fail(&t, "%s", why);
		if (st.other_machine)
			fprintf(stderr, "%s: %s held another machine's "
			    "calibrations (CPU, kernel, clock or version): "
			    "started anew\n", name, o.store);
	}
	if (t.json)
		calib_json(&cal, o.store != NULL ? &st : NULL);
	else if (o.all) {
		calib_print(&cal, BM_CAL_ENOUGH, 1);
		calib_print(&cal, BM_CAL_TIMING_O, 1);
		calib_print(&cal, BM_CAL_LOOP_O, 1);
		calib_print_vouched(&cal, cal.settled ||
		    (o.store != NULL && st.runs > 0));
	} else
		calib_print(&cal, which, o.export);
	if (!t.json && (o.all || (o.export && which == BM_CAL_TIMING_O)))
		calib_print_clock(&t);
	return tool_finish(&t);
}
