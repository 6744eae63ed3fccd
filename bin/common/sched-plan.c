/* sched-plan.c: benchmp-sched's plan: one tool command a line, with the scheduler's words before it. */
#include "config.h"

#include <errno.h>
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
	l->argv = NULL;
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
 * Take the scheduler's words off the front of a line: "once" (run the
 * tool to completion, not served), "figures=N" (it serves N figures, one
 * after another) and "threshold=P%" (an A/B's threshold for it).  0, or
 * -1 with a message.
 */
static int
plan_keywords(struct sched_line *l, char *why, size_t size)
{
	char *end;
	double v;

	while (l->argc > 0) {
		const char *w = l->argv[0];

		if (strcmp(w, "once") == 0) {
			l->once = 1;
		} else if (strncmp(w, "figures=", 8) == 0) {
			errno = 0;
			v = strtod(w + 8, &end);
			if (errno != 0 || *end != '\0' || !(v >= 1 && v <= 1000) ||
			    v != (unsigned)v) {
				snprintf(why, size, "figures= takes a count from "
				    "1 to 1000");
				return -1;
			}
			l->figures = (unsigned)v;
		} else if (strncmp(w, "threshold=", 10) == 0) {
			errno = 0;
			v = strtod(w + 10, &end);
			if (errno != 0 || strcmp(end, "%") != 0 ||
			    !(v > 0 && v <= 100)) {
				snprintf(why, size, "threshold= takes a percentage "
				    "above 0 and at most 100, as 5%%");
				return -1;
			}
			l->threshold = v / 100;
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
	char line[AB_LINE_MAX + 2];
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
