/* summary-hosts.c: the hosts of an MPI run side by side, each the median of its ranks. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmp.h"
#include "benchmp/stats.h"
#include "compare.h"
#include "summary.h"

/* A host more than this share from the median of the hosts is marked. */
#define HOSTS_OUTLIER	0.1
/* The least width of a host's column. */
#define HOSTS_MIN_W	11

/* Order ranks as the run went: by batch, rank, then the order read. */
static int
hosts_cmp_run(const void *a, const void *b)
{
	const struct summary_rank *x = a, *y = b;

	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* Order ranks by figure, host, then the run's order. */
static int
hosts_cmp_figure(const void *a, const void *b)
{
	const struct summary_rank *x = a, *y = b;
	int c = strcmp(x->label, y->label);

	if (c != 0)
		return c;
	if (x->host_id != y->host_id)
		return x->host_id < y->host_id ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* The median of n values (the library's), into *m; 0 or an error. */
static int
hosts_median(const double *v, size_t n, double *m)
{
	bm_stats st;
	int rc = bm_stats_compute(v, n, &st);

	*m = st.median;
	return rc;
}

/* The hosts in the order the run first names them: each rank's host_id; 0 or -ENOMEM. */
static int
hosts_columns(struct summary *s)
{
	size_t i, h;

	qsort(s->rank, s->nrank, sizeof *s->rank, hosts_cmp_run);
	if ((s->host = malloc(s->nrank * sizeof *s->host)) == NULL)
		return -ENOMEM;
	for (i = 0; i < s->nrank; i++) {
		s->rank[i].at = i;
		for (h = 0; h < s->nhost; h++)
			if (strcmp(s->host[h], s->rank[i].host) == 0)
				break;
		if (h == s->nhost)
			s->host[s->nhost++] = s->rank[i].host;
		s->rank[i].host_id = h;
	}
	return 0;
}

/*
 * The medians of figure f: each host's of its ranks of the figure's
 * latest batch (values that are not numbers left out), in med, and the
 * median of the hosts' in mid (0 when no host has one); v has room for
 * every rank.  The ranks are in hosts_cmp_figure's order.
 */
static int
hosts_figure(struct summary *s, size_t f, double *v)
{
	const char *label = s->row[f].label;
	double *med = s->med + f * s->nhost;
	size_t lo = 0, hi = s->nrank, j, k, m, n, h;
	int rc;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (strcmp(s->rank[m].label, label) < 0)
			lo = m + 1;
		else
			hi = m;
	}
	for (h = 0; h < s->nhost; h++)
		med[h] = NAN;
	for (j = lo; j < s->nrank && strcmp(s->rank[j].label, label) == 0;
	    j = k) {
		h = s->rank[j].host_id;
		for (k = j; k < s->nrank && s->rank[k].host_id == h &&
		    strcmp(s->rank[k].label, label) == 0; k++)
			;
		for (m = k; m > j && s->rank[m - 1].batch ==
		    s->rank[k - 1].batch; m--)
			;
		for (n = 0; m < k; m++)
			if (!isnan(s->rank[m].value))
				v[n++] = s->rank[m].value;
		if (n > 0 && (rc = hosts_median(v, n, &med[h])) != 0)
			return rc;
	}
	for (n = 0, h = 0; h < s->nhost; h++)
		if (!isnan(med[h]))
			v[n++] = med[h];
	s->mid[f] = 0;
	return n > 0 ? hosts_median(v, n, &s->mid[f]) : 0;
}

/* Each host's median of each figure, and the hosts'. */
int
summary_hosts_medians(struct summary *s)
{
	double *v;
	size_t f;
	int rc = 0;

	if (s->nrank == 0)
		return 0;
	if (hosts_columns(s) != 0)
		return -ENOMEM;
	qsort(s->rank, s->nrank, sizeof *s->rank, hosts_cmp_figure);
	if (s->nhost > SIZE_MAX / sizeof *s->med / s->nrow)
		return -ENOMEM;
	s->med = malloc(s->nrow * s->nhost * sizeof *s->med);
	s->mid = malloc(s->nrow * sizeof *s->mid);
	v = malloc(s->nrank * sizeof *v);
	if (s->med == NULL || s->mid == NULL || v == NULL)
		rc = -ENOMEM;
	for (f = 0; f < s->nrow && rc == 0; f++)
		rc = hosts_figure(s, f, v);
	free(v);
	return rc;
}

/* The width of a host's column: its name's and a space, at least 11. */
static size_t
hosts_width(const char *host)
{
	size_t w = summary_table_width(host) + 1;

	return w > HOSTS_MIN_W ? w : HOSTS_MIN_W;
}

/* Write a group's title and header: figure, the hosts, all ranks, unit. */
static void
hosts_header(const struct summary *s, const char *group, size_t fw,
    FILE *out)
{
	size_t h, w;

	fputc('\n', out);
	compare_put_escaped(out, summary_table_title(group));
	fputs("\n  ", out);
	summary_table_pad(out, "figure", fw);
	for (h = 0; h < s->nhost; h++) {
		w = summary_table_width(s->host[h]);
		fprintf(out, " %*s", (int)(hosts_width(s->host[h]) - w), "");
		compare_put_escaped(out, s->host[h]);
	}
	fprintf(out, " %12s %s\n", "all ranks", "unit");
}

/*
 * Print the hosts side by side: each host's median of its ranks, the
 * aggregate of all ranks beside them, and a * on a host more than 10%
 * from the median of the hosts (a slow node, a different configuration,
 * a noisy neighbour).
 */
void
summary_hosts_print(const struct summary *s, FILE *out)
{
	size_t f, h, m, outliers = 0, fw = summary_table_figwidth(s);
	const char *group = "";
	char cell[64];

	for (f = 0; f < s->nrow; f++) {
		const struct summary_row *r = &s->row[f];
		const double *med = s->med != NULL ? s->med + f * s->nhost :
		    NULL;

		if (strcmp(r->group, group) != 0)
			hosts_header(s, group = r->group, fw, out);
		for (m = 0, h = 0; h < s->nhost; h++)
			m += !isnan(med[h]);
		fputs("  ", out);
		summary_table_pad(out, r->label, fw);
		for (h = 0; h < s->nhost; h++) {
			int mark = m > 1 && fabs(med[h] - s->mid[f]) >
			    HOSTS_OUTLIER * fabs(s->mid[f]);

			if (isnan(med[h]))
				snprintf(cell, sizeof cell, "-");
			else
				snprintf(cell, sizeof cell, "%.5g%s", med[h],
				    mark ? "*" : " ");
			outliers += mark;
			fprintf(out, " %*s", (int)hosts_width(s->host[h]),
			    cell);
		}
		if (r->flags & 1u << SUMMARY_INVALID)
			fprintf(out, " %12s ", "invalid");
		else
			fprintf(out, " %12.5g ", r->value);
		compare_put_escaped(out, r->unit);
		fputc('\n', out);
	}
	if (outliers > 0)
		fprintf(out, "\n* more than 10%% from the median of the hosts "
		    "(%zu)\n", outliers);
}
