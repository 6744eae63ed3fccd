/*
 * stats-print.h: named statistics of one sample printed as text
 * (stats-print.c), what benchmp-stats --print and --median show, so that
 * scripts take every median, percentile and interval from the library.
 */
#ifndef BM_STATS_PRINT_H
#define BM_STATS_PRINT_H

#include <stddef.h>
#include <stdio.h>

/* The most statistics one --print list names. */
#define STATS_PRINT_LIST_MAX 32

/* The statistics to print, in the order they were named. */
struct stats_print {
	unsigned n;
	int what[STATS_PRINT_LIST_MAX];	/* a STATS_PRINT_* */
	double p[STATS_PRINT_LIST_MAX];	/* the percent of a STATS_PRINT_PCT */
};

int stats_print_parse(const char *list, struct stats_print *sp);
int stats_print_sample(FILE *f, const char *key, const double *v, size_t n,
    const struct stats_print *sp);

#endif
