/* rederive.c: a recorded figure's statistics and flags, computed again. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Reads one figure a line, as scripts/bench/bench-flags.sh writes them with jq
 * from records, fields separated by tabs: name, better (lower, higher or
 * none), timed intervals, disturbed intervals, judged (0 when no
 * agreement rule judged the figure, 1 when its processes agreed and its
 * values are their answers, 2 when they disagreed or it contradicts the
 * machine, 3 when they agreed on answers other than its values), the
 * values per
 * process (comma-separated counts), the values (comma-separated).  Writes
 * one line a figure: name, median, interval (widened to the floor as the
 * record's), noisy, bimodal, then the robust figure (value, interval,
 * noisy) or "-".  The statistics come from the library's functions
 * (bm_stats_levels, bm__stats_disturbed, bm__stats_robust); noisy is
 * decided as decide_flagged() and bm__figure_noisy() (record-decide.c)
 * decide it.
 * With -r RULE the robust figure's interval and wide flag follow RULE
 * (below) instead of the library's.
 *
 * With -n FLOOR it reads instead a served figure a line, as
 * scripts/bench/bench-frontier.sh writes them: its median and the
 * median's interval (tab-separated), and writes its next-run interval
 * with FLOOR as the floor and whether it is noisy at the default
 * precision (1 or 0: the move's standard deviation past it), as
 * bm__stats_next_run() and decide_next() (record-decide.c) make them,
 * but for decide_next()'s bound to the figure's values (2% beyond their
 * least and greatest), which a line of a median and its interval does
 * not carry.
 *
 * Exit 0, 1 on a line it cannot read, 2 on bad usage.
 */

#define LINE_MAX_LEN (1 << 20)

/*
 * The rules for the robust figure's interval that scripts/bench/bench-flags.sh
 * --rules compares (the value is the best process under every rule; only
 * the interval and its wide flag change): "library" is what
 * bm__stats_robust() does now; the others are computed here from the
 * rounds' medians and the library's modes (bm_stats_levels), widened to
 * the same floor and called wide past the same 10%.
 *   median   best +- its distance to the median process (the rule before)
 *   cluster  best +- its distance to the centre of its own mode when the
 *            rounds' medians form two modes, else as median
 *   second   best +- its distance to the second-best process
 *   third    best +- its distance to the third-best process
 *   cluster3 as cluster when the best's mode holds three processes or
 *            more, else as median
 *   clusterh as cluster when the best's mode holds half the processes or
 *            more, else as median
 *   third2   best +- twice its distance to the third-best process
 *   third15  best +- 1.5 times its distance to the third-best process
 *   third3   best +- three times its distance to the third-best process
 *   five     the library's, from five processes or more (fewer give no
 *            robust figure: the rule before BM__ROBUST_MIN was three)
 */
enum rederive_rule { RULE_LIBRARY, RULE_MEDIAN, RULE_CLUSTER, RULE_SECOND,
    RULE_THIRD, RULE_CLUSTER3, RULE_CLUSTERH, RULE_THIRD2, RULE_THIRD15,
    RULE_THIRD3, RULE_FIVE };
static const char *const rederive_rules[] = { "library", "median",
    "cluster", "second", "third", "cluster3", "clusterh", "third2",
    "third15", "third3", "five", NULL };
static enum rederive_rule rule = RULE_LIBRARY;

/* Order doubles for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The robust interval of rule (not RULE_LIBRARY) over the rounds' medians
 * med (nr of them, sorted here), with proc their statistics; rb->value is
 * the best already, and its interval and wide flag are set.
 */
static void
rederive_rule(double *med, unsigned nr, const bm_stats *proc, int higher,
    bm__robust *rb)
{
	double best = rb->value, half, w, other = proc->median;
	const bm_mode *m = NULL;
	unsigned k;

	qsort(med, nr, sizeof *med, cmp_double);
	if (proc->nmodes == 2)
		m = &proc->modes[higher ? 1 : 0];
	switch (rule) {
	case RULE_CLUSTER:
		if (m != NULL)
			other = m->centre;
		break;
	case RULE_CLUSTER3:
		if (m != NULL && m->count >= 3)
			other = m->centre;
		break;
	case RULE_CLUSTERH:
		if (m != NULL && 2 * m->count >= nr)
			other = m->centre;
		break;
	case RULE_SECOND:
	case RULE_THIRD:
	case RULE_THIRD2:
	case RULE_THIRD15:
	case RULE_THIRD3:
		k = rule == RULE_SECOND ? 1 : 2;
		if (k >= nr)
			k = nr - 1;
		other = higher ? med[nr - 1 - k] : med[k];
		break;
	default:
		break;
	}
	half = fabs(other - best);
	if (rule == RULE_THIRD2)
		half *= 2;
	else if (rule == RULE_THIRD15)
		half *= 1.5;
	else if (rule == RULE_THIRD3)
		half *= 3;
	w = fabs(best) * BM__ROBUST_FLOOR;
	if (half < w)
		half = w;
	rb->ci_lo = best - half;
	rb->ci_hi = best + half;
	rb->flags &= ~(unsigned)BM__ROBUST_WIDE;
	if (2 * half > 0.10 * fabs(best))
		rb->flags |= BM__ROBUST_WIDE;
}

/* Parse a comma-separated list of numbers into a new array; -1 if bad. */
static long
parse_list(char *s, double **out)
{
	size_t n = 1, i = 0;
	char *p, *end;

	for (p = s; *p != '\0'; p++)
		n += *p == ',';
	if ((*out = malloc(n * sizeof **out)) == NULL)
		return -1;
	for (p = s; i < n; i++) {
		errno = 0;
		(*out)[i] = strtod(p, &end);
		if (end == p || errno != 0 || (*end != ',' && *end != '\0'))
			return -1;
		p = end + (*end == ',');
	}
	return (long)n;
}

/* Work out one figure's line; 0, or -1 when it cannot be read. */
static int
rederive_line(char *line)
{
	char *f[7], *save = NULL;
	double *count = NULL, *v = NULL, lo, hi;
	unsigned *round = NULL, nr, r;
	unsigned long long intervals, disturbed;
	long nc, nv, k, at = 0;
	bm_stats proc, within;
	bm__robust rb;
	double *med = NULL;
	int i, judged, dist, noisy, rc = -1;

	line[strcspn(line, "\n")] = '\0';
	for (i = 0; i < 7; i++)
		if ((f[i] = strtok_r(i == 0 ? line : NULL, "\t",
		    &save)) == NULL)
			return -1;
	intervals = strtoull(f[2], NULL, 10);
	disturbed = strtoull(f[3], NULL, 10);
	judged = (int)strtol(f[4], NULL, 10);
	if ((nc = parse_list(f[5], &count)) < 1 ||
	    (nv = parse_list(f[6], &v)) < 1)
		goto out;
	nr = (unsigned)nc;
	round = malloc((size_t)nv * sizeof *round);
	med = malloc(nr * sizeof *med);
	if (round == NULL || med == NULL)
		goto out;
	for (r = 0; r < nr; r++)
		for (k = 0; k < (long)count[r] && at < nv; k++)
			round[at++] = r;
	if (at != nv || bm_stats_levels(v, round, (size_t)nv, nr, &proc,
	    &within, med) != 0)
		goto out;
	dist = bm__stats_disturbed(intervals, disturbed);
	/* As decide_flagged(): flagged, left to the agreement, or the width. */
	if (judged == 2 || dist)
		noisy = 1;
	else if (judged == 1)
		noisy = 0;	/* the answers agreed: see decide_flagged() */
	else
		noisy = (proc.flags & BM_STATS_NOISY) != 0;
	bm__stats_interval(&proc, BM__CI_FLOOR, &lo, &hi);
	printf("%s\t%.17g\t%.17g\t%.17g\t%d\t%d", f[0], proc.median, lo, hi,
	    noisy, (proc.flags & BM_STATS_BIMODAL) != 0);
	/* decide_robust(): a figure with a direction and no agreement rule. */
	if (judged == 0 && strcmp(f[1], "none") != 0 &&
	    (rule != RULE_FIVE || nr >= 5) && bm__stats_robust(v, round, (size_t)nv, nr,
	    strcmp(f[1], "higher") == 0, BM__ROBUST_FLOOR,
	    BM__PRECISION_DEFAULT, &rb) == 0) {
		if (rule != RULE_LIBRARY && rule != RULE_FIVE)
			rederive_rule(med, nr, &proc,
			    strcmp(f[1], "higher") == 0, &rb);
		printf("\t%.17g\t%.17g\t%.17g\t%d%s\n", rb.value, rb.ci_lo,
		    rb.ci_hi, rb.flags != 0,
		    rb.flags & BM__ROBUST_WIDE ? " wide" : "");
	} else
		printf("\t-\n");
	rc = 0;
out:
	free(count);
	free(v);
	free(round);
	free(med);
	return rc;
}

/*
 * A served figure's line (-n): median, the median's interval; its
 * next-run interval with floor and its noisy flag.  0, or -1 when it
 * cannot be read.
 */
static int
rederive_next(char *line, double fl)
{
	bm_stats st;
	double x[3], lo, hi;
	char *p = line, *end;
	int i, noisy;

	memset(&st, 0, sizeof st);
	for (i = 0; i < 3; i++) {
		errno = 0;
		x[i] = strtod(p, &end);
		if (end == p || errno != 0 || !isfinite(x[i]) ||
		    (*end != (i < 2 ? '\t' : '\n') && *end != '\0'))
			return -1;
		p = end + (*end != '\0');
	}
	st.median = x[0];
	st.ci_lo = x[1];
	st.ci_hi = x[2];
	noisy = bm__stats_next_run(&st, fl, BM__PRECISION_DEFAULT *
	    bm__decide_move_z(0), &lo, &hi);
	printf("%.17g\t%.17g\t%d\n", lo, hi, noisy);
	return 0;
}

/* Read figures from stdin, write their statistics to stdout. */
int
main(int argc, char **argv)
{
	char *line, *end;
	unsigned long n = 0;
	double fl = NAN;
	int i;

	if (argc == 3 && strcmp(argv[1], "-n") == 0) {
		errno = 0;
		fl = strtod(argv[2], &end);
		if (end == argv[2] || *end != '\0' || errno != 0 ||
		    !(fl >= 0 && fl < 1)) {
			fprintf(stderr, "rederive: -n %s: not a floor from 0 "
			    "to below 1\n", argv[2]);
			return 2;
		}
	} else if (argc == 3 && strcmp(argv[1], "-r") == 0) {
		for (i = 0; rederive_rules[i] != NULL &&
		    strcmp(rederive_rules[i], argv[2]) != 0; i++)
			;
		if (rederive_rules[i] == NULL) {
			fprintf(stderr, "rederive: %s: no such rule\n",
			    argv[2]);
			return 2;
		}
		rule = (enum rederive_rule)i;
	} else if (argc != 1) {
		fprintf(stderr, "usage: rederive [-r RULE | -n FLOOR] "
		    "<figures\n");
		return 2;
	}
	if ((line = malloc(LINE_MAX_LEN)) == NULL)
		return 1;
	while (fgets(line, LINE_MAX_LEN, stdin) != NULL) {
		n++;
		if ((isnan(fl) ? rederive_line(line) :
		    rederive_next(line, fl)) != 0) {
			fprintf(stderr, "rederive: line %lu: cannot read it\n",
			    n);
			free(line);
			return 1;
		}
	}
	free(line);
	return fflush(stdout) == 0 ? 0 : 1;
}
