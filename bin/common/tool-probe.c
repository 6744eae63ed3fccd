/* tool-probe.c: check overheads given in the environment against this machine. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp/calibration.h"
#include "benchmp/settings.h"
#include "benchmp/timers.h"
#include "tool.h"

/*
 * A given overhead is called off when it and what the probe measures
 * differ by more than this factor.  The same calibration run to run on
 * one machine differs by up to about two (an empty loop's iteration takes
 * one cycle or nearly two on a shared VM, doc/measurements.md, "LOOP_O:
 * the calibration"; reading the clock costs more at a low frequency), so
 * two would call honest values off; the wrong values met in use are far
 * beyond three (another machine's clock, nanoseconds given for
 * microseconds: a thousand).
 */
#define PROBE_FACTOR 3.0

/*
 * Below these (microseconds) two values are taken as equal, whatever
 * their ratio: a clock overhead of 0.1 us is 0.1% of the shortest
 * interval (100 us), and a loop overhead of 0.001 us (a few cycles) moves
 * a figure by less than the last digit of its classic line; without a
 * floor LOOP_O=0 against a measured 0.0003 would be a factor of infinity.
 */
#define PROBE_FLOOR_TIMING_O 0.1
#define PROBE_FLOOR_LOOP_O 0.001

/*
 * The probe times intervals of this length (us) as ENOUGH: the search for
 * enough is skipped, and with the interference accounting off no probe
 * is run again, so the whole probe is a spin of 2 ms, the timing
 * overhead's reads and the loop overhead's nine pairs of loops of 0.2
 * and 0.4 ms: under 10 ms.  The least of nine pairs is what a disturbed
 * probe would otherwise have been run again for.
 */
#define PROBE_ENOUGH_US 100

/*
 * Warn when a given value and the measured one differ by PROBE_FACTOR,
 * and keep the contradiction for the records (tool_report).
 */
static void
tool_probe_compare(struct tool *t, const char *var, double given,
    double measured, double floor_us)
{
	double g = given > floor_us ? given : floor_us;
	double m = measured > floor_us ? measured : floor_us;
	bm_contradiction *c;

	if (!isfinite(measured) || (g <= m * PROBE_FACTOR &&
	    m <= g * PROBE_FACTOR))
		return;
	if (t->nprobe_off < sizeof t->probe_off / sizeof t->probe_off[0]) {
		c = &t->probe_off[t->nprobe_off++];
		c->what = var;
		c->measured = given;
		c->machine = measured;
		c->source = "calibration probe";
		c->unit = "us";
	}
	fprintf(stderr, "%s: warning: %s=%g us from the environment, but this "
	    "machine measures %.6f us now (more than %g times apart): the "
	    "figures are corrected by the value given; unset %s to have it "
	    "measured\n", t->name, var, given, measured, PROBE_FACTOR, var);
}

/*
 * Compare the value of var, when the context took setting from it, with
 * the measured one; bm_ctx_configure() has checked its form and range.
 */
static void
tool_probe_given(struct tool *t, const char *var, unsigned setting,
    double measured, double floor_us)
{
	const char *env = getenv(var);
	char *end;
	double given;

	if (bm_ctx_source(t->ctx, setting) != BM_SOURCE_ENV || env == NULL)
		return;
	given = strtod(env, &end);
	if (end != env && *end == '\0')
		tool_probe_compare(t, var, given, measured, floor_us);
}

/* This boot's identity (see tool.h). */
int
tool_boot_id(char *buf, size_t size)
{
	FILE *f;
	size_t n;

	if (size < 2 || (f = fopen(TOOL_BOOT_ID_FILE, "r")) == NULL)
		return -1;
	n = fread(buf, 1, size - 1, f);
	(void)fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	/* A boot id is a UUID: anything else is not vouched for. */
	if (*buf == '\0' || n == size - 1 ||
	    buf[strspn(buf, "0123456789abcdef-")] != '\0')
		return -1;
	return 0;
}

/*
 * Whether BENCHMP_CALIBRATED vouches for TIMING_O and LOOP_O as they are
 * in the environment: it names this boot and the two values as written
 * ("BOOT_ID:TIMING_O:LOOP_O", as enough --all and benchmp-run export it
 * after a calibration of theirs on this machine).  A value changed by
 * hand, or a line exported on another machine or before a reboot, is not
 * vouched for, and the probe runs.
 */
static int
tool_probe_vouched(void)
{
	const char *v = getenv("BENCHMP_CALIBRATED");
	const char *to = getenv("TIMING_O"), *lo = getenv("LOOP_O");
	char boot[64], want[256];
	int n;

	if (v == NULL || to == NULL || lo == NULL ||
	    tool_boot_id(boot, sizeof boot) != 0)
		return 0;
	n = snprintf(want, sizeof want, "%s:%s:%s", boot, to, lo);
	return n > 0 && (size_t)n < sizeof want && strcmp(v, want) == 0;
}

/*
 * When TIMING_O or LOOP_O came from the environment, measure them with
 * the library's own calibration on a context of the same clock (the
 * given values are kept for the run) and warn of any that differ by more
 * than PROBE_FACTOR: an exported value from another machine, another
 * clock or another state of this one moves every figure in silence
 * otherwise.  A probe that cannot run says so and the run goes on.  Values
 * that a calibration of this boot vouches for (tool_probe_vouched) are not
 * measured again: each tool that benchmp-run starts would otherwise spend
 * about 7 ms of its start re-measuring what benchmp-run has just measured.
 */
void
tool_probe_overheads(struct tool *t)
{
	char config[128];
	const char *clock;
	bm_calibration measured;
	bm_ctx *probe = NULL;
	int rc;

	if (bm_ctx_source(t->ctx, BM_SETTING_TIMING_O) != BM_SOURCE_ENV &&
	    bm_ctx_source(t->ctx, BM_SETTING_LOOP_O) != BM_SOURCE_ENV)
		return;
	if (tool_probe_vouched())
		return;
	clock = bm_ctx_timer_name(t->ctx, BM_SUBTIMER_CLOCK);
	(void)snprintf(config, sizeof config, "clock=%s cycle=null",
	    clock != NULL ? clock : "posix-monotonic");
	if ((rc = bm_ctx_new(&probe)) != 0 ||
	    (rc = bm_ctx_set_timer(probe, config)) != 0 ||
	    (rc = bm_ctx_set_interference(probe, 0)) != 0 ||
	    (rc = bm_ctx_set_calibration(probe, BM_CAL_ENOUGH,
	    PROBE_ENOUGH_US)) != 0 ||
	    (rc = bm_calibrate(probe, &measured)) != 0) {
		fprintf(stderr, "%s: warning: cannot check TIMING_O and LOOP_O "
		    "against this machine: %s%s%s\n", t->name, bm_strerror(rc),
		    probe != NULL && *bm_ctx_errmsg(probe) != '\0' ? ": " : "",
		    probe != NULL ? bm_ctx_errmsg(probe) : "");
		bm_ctx_free(probe);
		return;
	}
	bm_ctx_free(probe);
	tool_probe_given(t, "TIMING_O", BM_SETTING_TIMING_O,
	    measured.timing_o_us, PROBE_FLOOR_TIMING_O);
	tool_probe_given(t, "LOOP_O", BM_SETTING_LOOP_O, measured.loop_o_us,
	    PROBE_FLOOR_LOOP_O);
}
