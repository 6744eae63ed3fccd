/*
 * calib-store.c: a machine's calibrations kept in a file, so that a
 * series of runs on one machine takes the same values (enough --store).
 * One calibration on a loaded machine can ask for intervals 50 times
 * longer than the next one on the same machine; the median of its last
 * runs does not move with one of them.  The file is text:
 *
 *   benchmp-calibration 1
 *   machine cpu=MODEL;cpus=N;kernel=RELEASE;clock=TIMER;clocksource=NAME
 *   run UNIX_TIME ENOUGH_US TIMING_O_US LOOP_O_US
 *   ...
 *
 * A machine line that differs from this machine's (another CPU, kernel,
 * clock or version) starts the runs anew.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/calibration.h"
#include "calib.h"

#define STORE_MAGIC "benchmp-calibration 1"
/* The runs kept, and the last ones the values are the median of. */
#define STORE_KEEP 9
#define STORE_VOTE 5
/* The longest line the file may have. */
#define STORE_LINE 512

/* One stored run. */
struct store_run {
	long long when;
	double enough_us, timing_o_us, loop_o_us;
};

/* Copy the first line of file path that starts with tag into buf. */
static void
store_read_first(const char *path, const char *tag, char *buf, size_t size)
{
	char line[STORE_LINE];
	size_t n = strlen(tag);
	FILE *f;

	buf[0] = '\0';
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, tag, n) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%s", line + n);
			break;
		}
	fclose(f);
}

/* This machine's line: what the values depend on. */
static void
store_machine(const char *clock, char *buf, size_t size)
{
	char cpu[128], src[64];
	struct utsname u;

	store_read_first("/proc/cpuinfo", "model name\t: ", cpu, sizeof(cpu));
	store_read_first("/sys/devices/system/clocksource/clocksource0/"
	    "current_clocksource", "", src, sizeof(src));
	if (uname(&u) != 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(buf, size, "cpu=%s;cpus=%ld;kernel=%s;clock=%s;"
	    "clocksource=%s;version=%s", cpu[0] != '\0' ? cpu : "unknown",
	    sysconf(_SC_NPROCESSORS_ONLN), u.release,
	    clock != NULL ? clock : "unknown", src[0] != '\0' ? src :
	    "unknown", PACKAGE_VERSION);
}

/*
 * Read the runs stored in path for this machine into run (at most
 * STORE_KEEP, the last ones); *n is how many.  A missing file or one of
 * another machine has none (*other says the latter); a file that is not
 * a store, or a malformed run line, is an error in why.
 */
static int
store_load(const char *path, const char *machine, struct store_run *run,
    size_t *n, int *other, char *why, size_t size)
{
	char line[STORE_LINE];
	struct store_run r;
	unsigned lineno = 0;
	FILE *f;
	int end;

	*n = 0;
	*other = 0;
	if ((f = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, size, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f))
			goto bad;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, STORE_MAGIC) != 0)
				goto bad;
		} else if (lineno == 2) {
			if (strncmp(line, "machine ", 8) != 0)
				goto bad;
			if (strcmp(line + 8, machine) != 0) {
				*other = 1;
				break;
			}
		} else {
			end = 0;
			if (sscanf(line, "run %lld %lf %lf %lf%n", &r.when,
			    &r.enough_us, &r.timing_o_us, &r.loop_o_us,
			    &end) != 4 || line[end] != '\0' ||
			    !(r.enough_us >= 1 && r.enough_us <= 60e6) ||
			    !(r.timing_o_us >= 0 && r.timing_o_us < 1e6) ||
			    !(r.loop_o_us >= 0 && r.loop_o_us < 1e6))
				goto bad;
			if (*n == STORE_KEEP) {
				memmove(run, run + 1, (STORE_KEEP - 1) *
				    sizeof(*run));
				(*n)--;
			}
			run[(*n)++] = r;
		}
	}
	if (ferror(f)) {
		snprintf(why, size, "%s: cannot read it", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (lineno == 1) {
		snprintf(why, size, "%s: no machine line", path);
		return -1;
	}
	return 0;
bad:
	fclose(f);
	snprintf(why, size, "%s: line %u is not a calibration store's (%s, "
	    "then a machine line, then run lines): not overwritten", path,
	    lineno, STORE_MAGIC);
	return -1;
}

/* The name of the file beside path that a save writes; 0, or -1 with why. */
static int
store_tmp_name(const char *path, char *tmp, size_t tsize, char *why,
    size_t size)
{
	if (snprintf(tmp, tsize, "%s.%ld.tmp", path, (long)getpid()) >=
	    (int)tsize) {
		snprintf(why, size, "%s: name too long", path);
		return -1;
	}
	return 0;
}

/* Write the runs to path through a file beside it; 0 or -1 with why. */
static int
store_save(const char *path, const char *machine,
    const struct store_run *run, size_t n, char *why, size_t size)
{
	char tmp[4096];
	FILE *f;
	size_t i;
	int bad;

	if (store_tmp_name(path, tmp, sizeof(tmp), why, size) != 0)
		return -1;
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(why, size, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "%s\nmachine %s\n", STORE_MAGIC, machine);
	for (i = 0; i < n; i++)
		fprintf(f, "run %lld %.0f %.6f %.6f\n", run[i].when,
		    run[i].enough_us, run[i].timing_o_us, run[i].loop_o_us);
	bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		snprintf(why, size, "%s: cannot write it: %s", path,
		    strerror(errno));
		(void)unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * Whether a store can be written at path, tried with the file beside it
 * that a save writes: 0, or -1 with why.  A calibration that is not kept
 * writes nothing, yet a store that cannot be written is said at once,
 * not on the first quiet run.
 */
static int
store_writable(const char *path, char *why, size_t size)
{
	char tmp[4096];
	FILE *f;

	if (store_tmp_name(path, tmp, sizeof(tmp), why, size) != 0)
		return -1;
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(why, size, "%s: cannot write it: %s", path,
		    strerror(errno));
		return -1;
	}
	(void)fclose(f);
	(void)unlink(tmp);
	return 0;
}

/* Order two doubles, for qsort(). */
static int
store_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The median of the member at offset off over the last STORE_VOTE runs;
 * of an even count the lower middle value (the quieter machine's).
 */
static double
store_median(const struct store_run *run, size_t n, size_t off)
{
	double v[STORE_VOTE] = { 0 };
	size_t i, k = n < STORE_VOTE ? n : STORE_VOTE;

	for (i = 0; i < k; i++)
		memcpy(&v[i], (const char *)&run[n - k + i] + off, sizeof(v[i]));
	qsort(v, k, sizeof(v[0]), store_cmp);
	return v[(k - 1) / 2];
}

int
calib_store(const char *path, const char *clock, bm_calibration *cal,
    struct calib_stored *st, char *why, size_t size)
{
	struct store_run run[STORE_KEEP];
	size_t n;
	int other;

	memset(st, 0, sizeof(*st));
	st->measured = *cal;
	store_machine(clock, st->machine, sizeof(st->machine));
	if (store_load(path, st->machine, run, &n, &other, why, size) != 0)
		return -1;
	st->other_machine = other;
	/*
	 * A calibration the machine disturbed is not kept (it votes for a
	 * longer interval than the machine needs), and values the
	 * environment gave were not measured: neither is stored.
	 */
	if (cal->settled && cal->from_env == 0) {
		if (n == STORE_KEEP) {
			memmove(run, run + 1, (STORE_KEEP - 1) * sizeof(*run));
			n--;
		}
		run[n].when = (long long)time(NULL);
		run[n].enough_us = (double)cal->enough_us;
		run[n].timing_o_us = cal->timing_o_us;
		run[n].loop_o_us = cal->loop_o_us;
		n++;
		st->kept = 1;
		if (store_save(path, st->machine, run, n, why, size) != 0)
			return -1;
	} else if (store_writable(path, why, size) != 0) {
		return -1;
	}
	st->runs = (unsigned)n;
	if (n == 0)
		return 0;
	if (!(cal->from_env & BM_CAL_ENOUGH))
		cal->enough_us = (uint64_t)store_median(run, n,
		    offsetof(struct store_run, enough_us));
	if (!(cal->from_env & BM_CAL_TIMING_O))
		cal->timing_o_us = store_median(run, n,
		    offsetof(struct store_run, timing_o_us));
	if (!(cal->from_env & BM_CAL_LOOP_O))
		cal->loop_o_us = store_median(run, n,
		    offsetof(struct store_run, loop_o_us));
	return 0;
}
