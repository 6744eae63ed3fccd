/* sched-plan.c: benchmp-sched's plan: one tool command a line, with the scheduler's words before it. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "sched.h"

/* The most lines, and bytes, a plan may hold. */
#define PLAN_MAX_LINES 10000
#define PLAN_MAX_BYTES (4u << 20)

/* Free one line's words. */
static void
plan_line_free(struct sched_line *l)
{
	free(l->argv);
	free(l->path);
	l->argv = NULL;
	l->path = NULL;
}

/*
 * A tool named without a directory is run from beside this program when
 * it is there (a build's bin/, or where make install put both), as
 * benchmp-ab runs its arms' tools.  0, or -1 when out of memory.
 */
static int
plan_resolve(struct sched_line *l)
{
	/* Static: copied at once, and kept off a bounded stack. */
	static char beside[4096];

	if (strchr(l->argv[0], '/') != NULL ||
	    ab_beside_self(l->argv[0], beside, sizeof(beside)) != 0)
		return 0;
	if ((l->path = strdup(beside)) == NULL)
		return -1;
	l->argv[0] = l->path;
	return 0;
}

/* Free the plan. */
void
sched_plan_free(struct sched_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		plan_line_free(&plan->line[i]);
	free(plan->line);
	plan->line = NULL;
	plan->n = 0;
}

/*
 * A count word's value ("burst=3"): an integer from lo to hi; 0, or -1
 * with a message naming the word.
 */
static int
plan_count(const char *w, size_t skip, double lo, double hi, double *out,
    char *why, size_t size)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(w + skip, &end);
	if (errno != 0 || end == w + skip || *end != '\0' ||
	    !(v >= lo && v <= hi) || v != floor(v)) {
		snprintf(why, size, "%.*s takes a count from %.0f to %.0f",
		    (int)skip, w, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * Take the scheduler's words off the front of a line: "once" (run the
 * tool to completion between sweeps, not served), "burst=N" (the same,
 * but served: each figure it announces gets N visits in a row, then the
 * next), "visit=MS" (its visits' timed length), "figures=N" (it serves
 * N figures, one after another), "parts=K" (its first K figures are
 * parts its tool takes off the figures after them, such as lat_ctx's
 * overhead: an A/B pairs them SCHED_MIN_VISITS times and judges none),
 * "restart" (an A/B's tool started
 * afresh in both arms for every pair of visits) and "threshold=P%" (an A/B's threshold
 * for it; the % may be left out, as in benchmp-ab's plans).  0, or -1
 * with a message.
 */
static int
plan_keywords(struct sched_line *l, char *why, size_t size)
{
	double v;

	while (l->argc > 0) {
		const char *w = l->argv[0];

		if (strcmp(w, "once") == 0) {
			l->once = 1;
		} else if (strcmp(w, "restart") == 0) {
			l->restart = 1;
		} else if (strncmp(w, "burst=", 6) == 0) {
			if (plan_count(w, 6, 1, SCHED_MAX_BURST, &v, why,
			    size) != 0)
				return -1;
			l->once = 1;
			l->burst = (unsigned)v;
		} else if (strncmp(w, "visit=", 6) == 0) {
			if (plan_count(w, 6, 1, 10000, &v, why, size) != 0)
				return -1;
			l->visit_us = (uint64_t)v * 1000;
		} else if (strncmp(w, "figures=", 8) == 0) {
			if (plan_count(w, 8, 1, SCHED_MAX_FIGURES, &v, why,
			    size) != 0)
				return -1;
			l->figures = (unsigned)v;
			l->counted = 1;
		} else if (strncmp(w, "parts=", 6) == 0) {
			if (plan_count(w, 6, 1, SCHED_MAX_FIGURES - 1, &v, why,
			    size) != 0)
				return -1;
			l->parts = (unsigned)v;
			l->counted = 1;
		} else if (strncmp(w, "threshold=", 10) == 0) {
			if (ab_plan_threshold(w, &l->threshold) != 1) {
				snprintf(why, size, "threshold= takes a percent "
				    "from %g to %g", (double)AB_THRESHOLD_MIN,
				    (double)AB_THRESHOLD_MAX);
				return -1;
			}
		} else {
			break;
		}
		memmove(l->argv, l->argv + 1, l->argc * sizeof(*l->argv));
		l->argc--;
	}
	if (l->argc == 0) {
		snprintf(why, size, "no command after the scheduler's words");
		return -1;
	}
	if (l->parts >= l->figures) {
		snprintf(why, size, "parts=%u leaves no figure of figures=%u",
		    l->parts, l->figures);
		return -1;
	}
	if (l->restart && (l->once || l->figures > 1)) {
		snprintf(why, size, "restart is for a line of one served "
		    "figure");
		return -1;
	}
	return 0;
}

/* Add one line of text (NUL-terminated, no newline) as plan line number ln. */
static int
plan_add(struct sched_plan *plan, char *text, unsigned ln, char *why,
    size_t size)
{
	struct sched_line l, *grown;
	const char *err = NULL;
	char *p;
	size_t len = strlen(text);

	/* A line of a file written on another system ends in CR LF. */
	if (len > 0 && text[len - 1] == '\r')
		text[--len] = '\0';
	for (p = text; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t') {
			snprintf(why, size, "line %u: a control byte (0x%02x)",
			    ln, (unsigned char)*p);
			return -1;
		}
	p = text + strspn(text, " \t");
	if (*p == '\0' || *p == '#')
		return 0;
	memset(&l, 0, sizeof(l));
	l.figures = 1;
	if ((l.argv = ab_split_words(p, &err)) == NULL) {
		snprintf(why, size, "line %u: %s", ln, err);
		return -1;
	}
	while (l.argv[l.argc] != NULL)
		l.argc++;
	if (plan_keywords(&l, why + strlen(why), size - strlen(why)) != 0) {
		char tail[128];

		snprintf(tail, sizeof(tail), "%s", why);
		snprintf(why, size, "line %u: %s", ln, tail);
		plan_line_free(&l);
		return -1;
	}
	if (plan_resolve(&l) != 0) {
		snprintf(why, size, "out of memory");
		plan_line_free(&l);
		return -1;
	}
	if (plan->n == PLAN_MAX_LINES) {
		snprintf(why, size, "more than %d commands", PLAN_MAX_LINES);
		plan_line_free(&l);
		return -1;
	}
	grown = realloc(plan->line, (plan->n + 1) * sizeof(*grown));
	if (grown == NULL) {
		snprintf(why, size, "out of memory");
		plan_line_free(&l);
		return -1;
	}
	plan->line = grown;
	plan->line[plan->n++] = l;
	return 0;
}

/*
 * Read a plan: at most PLAN_MAX_BYTES (an endless input such as
 * /dev/zero is refused, not read for ever), lines of at most AB_LINE_MAX
 * bytes, no NUL or other control byte, blank lines and # comments
 * skipped.  0, or -1 with a message naming the line.
 */
int
sched_plan_read(const char *path, struct sched_plan *plan, char *why,
    size_t size)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	/* Static: each line is copied (plan_add), and a stack may be bound. */
	static char line[AB_LINE_MAX + 2];
	size_t len = 0, total = 0;
	unsigned ln = 1;
	int c, rc = 0;

	memset(plan, 0, sizeof(*plan));
	why[0] = '\0';
	if (f == NULL) {
		snprintf(why, size, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (c = getc(f)) != EOF) {
		if (++total > PLAN_MAX_BYTES) {
			snprintf(why, size, "longer than %u bytes",
			    PLAN_MAX_BYTES);
			rc = -1;
		} else if (c == '\0') {
			snprintf(why, size, "line %u: a NUL byte", ln);
			rc = -1;
		} else if (c == '\n') {
			line[len] = '\0';
			rc = plan_add(plan, line, ln++, why, size);
			len = 0;
		} else if (len == AB_LINE_MAX) {
			snprintf(why, size, "line %u: longer than %d bytes", ln,
			    AB_LINE_MAX);
			rc = -1;
		} else {
			line[len++] = (char)c;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(why, size, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && len > 0) {
		line[len] = '\0';
		rc = plan_add(plan, line, ln, why, size);
	}
	if (f != stdin)
		(void)fclose(f);
	if (rc == 0 && plan->n == 0) {
		snprintf(why, size, "no command");
		rc = -1;
	}
	if (rc != 0)
		sched_plan_free(plan);
	return rc;
}

/*
 * A plan of one command given as words (benchmp-sched ... -- TOOL ARGS):
 * the scheduler's words may lead, as on a plan's line.  The words are
 * the caller's, not copied: they must outlive the plan.  0, or -1 with a
 * message.
 */
int
sched_plan_command(char **argv, size_t argc, struct sched_plan *plan,
    char *why, size_t size)
{
	struct sched_line l;

	memset(plan, 0, sizeof(*plan));
	memset(&l, 0, sizeof(l));
	why[0] = '\0';
	l.figures = 1;
	if ((l.argv = calloc(argc + 1, sizeof(*l.argv))) == NULL ||
	    (plan->line = calloc(1, sizeof(*plan->line))) == NULL) {
		free(l.argv);
		snprintf(why, size, "out of memory");
		return -1;
	}
	memcpy(l.argv, argv, argc * sizeof(*argv));
	l.argc = argc;
	if (plan_keywords(&l, why, size) != 0 || plan_resolve(&l) != 0) {
		if (why[0] == '\0')
			snprintf(why, size, "out of memory");
		plan_line_free(&l);
		sched_plan_free(plan);
		return -1;
	}
	plan->line[0] = l;
	plan->n = 1;
	return 0;
}
