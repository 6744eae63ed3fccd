/*
 * progress.c: one line of progress on stderr while a tool works long, as
 * hyperfine shows its runs: drawn only when stderr is a terminal (or as
 * BENCHMP_PROGRESS says), after a second of work, at most ten times a
 * second, and cleared before the tool prints anything else.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "progress.h"

/* Short work prints nothing: the line appears after this much. */
#define PROGRESS_DELAY_S 1.0
/* At most ten lines a second: a terminal that redraws faster flickers. */
#define PROGRESS_EVERY_S 0.1
/* The columns assumed when the terminal does not say. */
#define PROGRESS_WIDTH 80

/* BENCHMP_PROGRESS's values. */
enum {
	PROGRESS_NEVER,
	PROGRESS_AUTO,
	PROGRESS_ALWAYS
};

/*
 * The line being shown, if any: the terminal's line is one per process,
 * whatever struct draws it, so that progress_clear_any() can clear it
 * from code that has no struct progress at hand.
 */
static struct progress *progress_active;

/* Seconds on the monotonic clock (0 if it cannot be read). */
static double
progress_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Write all of buf to stderr; -1 when it cannot be written.  Progress is
 * a courtesy: the caller stops drawing rather than fail the measurement.
 */
static int
progress_write(const char *buf, size_t len)
{
	ssize_t got;

	while (len > 0) {
		got = write(STDERR_FILENO, buf, len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		buf += got;
		len -= (size_t)got;
	}
	return 0;
}

/*
 * The mode a value of BENCHMP_PROGRESS names: never, auto (unset or
 * empty too) or always; -1 for anything else.
 */
int
progress_mode(const char *value)
{
	if (value == NULL || *value == '\0' || strcmp(value, "auto") == 0)
		return PROGRESS_AUTO;
	if (strcmp(value, "never") == 0)
		return PROGRESS_NEVER;
	if (strcmp(value, "always") == 0)
		return PROGRESS_ALWAYS;
	return -1;
}

/*
 * Decide once whether this run draws progress and start its clock: in
 * auto mode when stderr is a terminal that understands "erase the line"
 * (TERM not dumb) and after a second of work; always draws at once on
 * any stderr (for tests, and users who want it in a log); never, never.
 * Only MPI rank 0 draws.  A malformed BENCHMP_PROGRESS exits 2.
 */
void
progress_start(struct progress *p, const struct tool *t)
{
	const char *env = getenv("BENCHMP_PROGRESS"), *term = getenv("TERM");
	struct winsize ws;
	int mode;

	memset(p, 0, sizeof *p);
	p->name = t->name;
	p->width = PROGRESS_WIDTH;
	p->t0 = progress_now();
	/* tool_exit_usage escapes the value: it may hold an ESC. */
	if ((mode = progress_mode(env)) < 0)
		tool_exit_usage(t, "BENCHMP_PROGRESS=%s: expected always, "
		    "never or auto", env);
	if (mode == PROGRESS_NEVER || cluster_rank() != 0)
		return;
	if (mode == PROGRESS_AUTO) {
		if (!isatty(STDERR_FILENO) ||
		    (term != NULL && strcmp(term, "dumb") == 0))
			return;
		p->delay_s = PROGRESS_DELAY_S;
	}
	if (isatty(STDERR_FILENO) &&
	    ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		p->width = ws.ws_col;
	p->on = 1;
}

/* Seconds since progress_start(). */
double
progress_elapsed(const struct progress *p)
{
	return progress_now() - p->t0;
}

/*
 * Draw the line "name: text" in place of the previous one, unless it is
 * too early (the first second of auto mode) or too soon after the last
 * (a tenth of a second; a cleared line is drawn again at once).  The line
 * is cut to the terminal's width: a line that wrapped could not be
 * rewritten with a carriage return.
 */
void
progress_show(struct progress *p, const char *fmt, ...)
{
	char line[PROGRESS_MAX + 16];
	double now;
	va_list ap;
	int n, m;
	size_t max;

	if (!p->on)
		return;
	now = progress_now();
	if (now - p->t0 < p->delay_s)
		return;
	if (p->shown && now - p->last < PROGRESS_EVERY_S)
		return;
	n = snprintf(line, sizeof line, "\r\033[K%s: ", p->name);
	if (n < 0 || (size_t)n >= sizeof line)
		return;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	/* "\r\033[K" takes no column; leave the last column free. */
	max = (size_t)p->width - 1 + 4;
	if (max > strlen(line))
		max = strlen(line);
	if (progress_write(line, max) != 0) {
		p->on = 0;
		return;
	}
	p->shown = p->drawn = 1;
	p->last = now;
	progress_active = p;
}

/* Erase the line, if one is shown, and leave the cursor at its start. */
void
progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	p->shown = 0;
	if (progress_active == p)
		progress_active = NULL;
	if (progress_write("\r\033[K", 4) != 0)
		p->on = 0;
}

/*
 * Erase whichever progress line is shown, for code that prints to the
 * terminal without the struct at hand (a message before an exit).
 */
void
progress_clear_any(void)
{
	if (progress_active != NULL)
		progress_clear(progress_active);
}

/* Format a size in bytes as people read it: "512 B", "48 KB", "1.5 MB". */
char *
progress_size(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
	unsigned u = 0;

	while (bytes >= 1024 && u + 1 < sizeof unit / sizeof unit[0]) {
		bytes /= 1024;
		u++;
	}
	if (u == 0 || bytes >= 100 || bytes == (double)(long long)bytes)
		snprintf(buf, len, "%.0f %s", bytes, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", bytes, unit[u]);
	return buf;
}

/* Format a duration as people read it: "850 us", "12.3 ms", "2.50 s", "3m05s". */
char *
progress_time(char *buf, size_t len, double seconds)
{
	if (seconds < 0)
		seconds = 0;
	if (seconds < 1e-3)
		snprintf(buf, len, "%.0f us", seconds * 1e6);
	else if (seconds < 1)
		snprintf(buf, len, "%.1f ms", seconds * 1e3);
	else if (seconds < 60)
		snprintf(buf, len, "%.2f s", seconds);
	else if (seconds < 3600)
		snprintf(buf, len, "%um%02us", (unsigned)(seconds / 60),
		    (unsigned)seconds % 60);
	else
		snprintf(buf, len, "%lluh%02um",
		    (unsigned long long)(seconds / 3600),
		    (unsigned)((unsigned long long)seconds / 60 % 60));
	return buf;
}
