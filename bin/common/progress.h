/*
 * progress.h: one line of progress on stderr while a tool works long
 * (progress.c), rewritten in place and cleared before anything else is
 * printed, shown only on a terminal unless BENCHMP_PROGRESS says otherwise.
 */
#ifndef BM_PROGRESS_H
#define BM_PROGRESS_H

#include <stddef.h>

#include "tool.h"

/* The longest progress line kept, before it is cut to the terminal. */
#define PROGRESS_MAX 160

/* A tool's progress line and what decides when it is drawn. */
struct progress {
	const char *name;	/* the tool, at the start of the line */
	int on;			/* lines may be drawn (decided once) */
	int shown;		/* a line is on the terminal now */
	int drawn;		/* a line was ever drawn */
	double delay_s;		/* no line before this much work */
	double t0;		/* when the work began (monotonic seconds) */
	double last;		/* when the line was last drawn */
	unsigned width;		/* the terminal's columns */
};

int progress_mode(const char *value);
void progress_start(struct progress *p, const struct tool *t);
double progress_elapsed(const struct progress *p);
void progress_show(struct progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void progress_clear(struct progress *p);
void progress_clear_any(void);
char *progress_size(char *buf, size_t len, double bytes);
char *progress_time(char *buf, size_t len, double seconds);

#endif /* BM_PROGRESS_H */
