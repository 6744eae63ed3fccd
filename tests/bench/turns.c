/* turns.c: how closely an A/B must pair its arms in time on this host: a trace of null system calls, and A/A pairs drawn from it. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Calls a chunk of the trace: about 40 us of getppid(). */
#define TURNS_CHUNK	500
/* The trace's default length, and the longest accepted (s). */
#define TURNS_SECONDS	12.0
#define TURNS_MAX_S	600.0
/*
 * What separates two visits besides their timed parts: benchmp-sched's
 * command, the engine's warmup (2 ms) and its first pass; 3.3 ms a
 * visit of 5 ms on a 2-vCPU Intel Xeon guest (wall 9.5 ms, timed 6.2).
 */
#define TURNS_GAP_MS	3.3
/* Pairs drawn per design. */
#define TURNS_DRAWS	800

/* One design: an arm's timed time a call (ms), in this many turns. */
struct turns_design {
	double arm_ms;
	unsigned turns;
};

static const struct turns_design designs[] = {
	{ 20, 1 }, { 5, 1 }, { 20, 2 }, { 20, 4 }, { 10, 5 }, { 20, 10 }
};

/* The trace: each chunk's start (ms from the first) and ns a call. */
static double *at, *ns;
static size_t nchunk;

/* Nanoseconds on the monotonic clock. */
static double
turns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int
turns_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The median of v[0..n), n > 0, sorting v. */
static double
turns_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), turns_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The first chunk starting at or after t (ms). */
static size_t
turns_find(double t)
{
	size_t lo = 0, hi = nchunk;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (at[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The median of the chunks that start in [t, t + len) (one at least). */
static double
turns_window(double t, double len, double *tmp)
{
	size_t i = turns_find(t), j = turns_find(t + len), k;

	if (j <= i)
		j = i + 1 < nchunk ? i + 1 : nchunk;
	if (i >= j)
		i = j - 1;
	for (k = i; k < j; k++)
		tmp[k - i] = ns[k];
	return turns_median(tmp, j - i);
}

/* A small, seeded generator: the same draws every run. */
static uint64_t turns_state = 88172645463325252ULL;
static double
turns_uniform(void)
{
	turns_state ^= turns_state << 13;
	turns_state ^= turns_state >> 7;
	turns_state ^= turns_state << 17;
	return (double)(turns_state >> 11) / 9007199254740992.0;
}

/*
 * Draw TURNS_DRAWS A/A calls of design d at random times of the trace:
 * its turns A B, B A, A B ... each a visit of arm_ms / turns and a gap;
 * a call's log(B/A) the median of its turns'.  Print the half-width of
 * their middle 90% and their SD.
 */
static int
turns_design(const struct turns_design *d, double gap)
{
	double sub = d->arm_ms / d->turns, span = 2 * d->turns * (sub + gap);
	double *r = malloc(TURNS_DRAWS * sizeof(*r)), *tr, *tmp, sum = 0,
	    sq = 0, end = at[nchunk - 1];
	size_t i;
	unsigned k;

	tr = malloc(d->turns * sizeof(*tr));
	tmp = malloc(nchunk * sizeof(*tmp));
	if (r == NULL || tr == NULL || tmp == NULL || end <= span) {
		free(r);
		free(tr);
		free(tmp);
		return -1;
	}
	for (i = 0; i < TURNS_DRAWS; i++) {
		double t = turns_uniform() * (end - span), a, b;

		for (k = 0; k < d->turns; k++) {
			double first = turns_window(t, sub, tmp);
			double second = turns_window(t + sub + gap, sub, tmp);

			a = k % 2 ? second : first;
			b = k % 2 ? first : second;
			tr[k] = log(b / a);
			t += 2 * (sub + gap);
		}
		r[i] = turns_median(tr, d->turns);
		sum += r[i];
		sq += r[i] * r[i];
	}
	qsort(r, TURNS_DRAWS, sizeof(*r), turns_cmp);
	printf("an arm's %g ms a call in %u turn%s of %.1f ms: 90%% of A/A "
	    "log(B/A) within +-%.2f%%, SD %.2f%%\n", d->arm_ms, d->turns,
	    d->turns == 1 ? "" : "s", sub,
	    100 * (r[TURNS_DRAWS * 95 / 100] - r[TURNS_DRAWS * 5 / 100]) / 2,
	    100 * sqrt(sq / TURNS_DRAWS - (sum / TURNS_DRAWS) *
	    (sum / TURNS_DRAWS)));
	free(r);
	free(tr);
	free(tmp);
	return 0;
}

/* The autocorrelation of the trace's 1 ms medians at a few lags. */
static int
turns_acf(void)
{
	static const unsigned lags[] = { 1, 5, 20, 100, 1000 };
	size_t nms = (size_t)at[nchunk - 1], i, l;
	double *m = malloc((nms + 1) * sizeof(*m)), *tmp, mean = 0, var = 0;

	tmp = malloc(nchunk * sizeof(*tmp));
	if (m == NULL || tmp == NULL || nms < 2) {
		free(m);
		free(tmp);
		return -1;
	}
	for (i = 0; i < nms; i++) {
		m[i] = turns_window((double)i, 1, tmp);
		mean += m[i];
	}
	mean /= (double)nms;
	for (i = 0; i < nms; i++)
		var += (m[i] - mean) * (m[i] - mean);
	printf("autocorrelation of the 1 ms medians:");
	for (l = 0; l < sizeof(lags) / sizeof(lags[0]); l++) {
		double c = 0;

		if (lags[l] >= nms)
			break;
		for (i = 0; i + lags[l] < nms; i++)
			c += (m[i] - mean) * (m[i + lags[l]] - mean);
		c = var > 0 ? c / (double)(nms - lags[l]) / (var /
		    (double)nms) : 0;
		printf(" %u ms %.2f", lags[l], c);
	}
	printf("\n");
	free(m);
	free(tmp);
	return 0;
}

int
main(int argc, char **argv)
{
	double secs = TURNS_SECONDS, t0, t1, q[3], *tmp;
	size_t cap, i, k;
	char *end;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-h") == 0)) {
		fprintf(stderr, "usage: turns [SECONDS]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		secs = strtod(argv[1], &end);
		if (errno != 0 || end == argv[1] || *end != '\0' ||
		    !(secs >= 1 && secs <= TURNS_MAX_S)) {
			fprintf(stderr, "turns: '%s' is not 1 to %g seconds\n",
			    argv[1], TURNS_MAX_S);
			return 2;
		}
	}
	cap = (size_t)(secs * 1e5) + 1024;
	at = malloc(cap * sizeof(*at));
	ns = malloc(cap * sizeof(*ns));
	if (at == NULL || ns == NULL) {
		fprintf(stderr, "turns: out of memory\n");
		return 1;
	}
	t0 = turns_now();
	for (nchunk = 0; nchunk < cap; nchunk++) {
		double a = turns_now();

		if (a - t0 >= secs * 1e9)
			break;
		for (k = 0; k < TURNS_CHUNK; k++)
			(void)syscall(SYS_getppid);
		t1 = turns_now();
		at[nchunk] = (a - t0) / 1e6;
		ns[nchunk] = (t1 - a) / TURNS_CHUNK;
	}
	if (nchunk < 100) {
		fprintf(stderr, "turns: a trace of %zu chunks is too short\n",
		    nchunk);
		return 1;
	}
	if ((tmp = malloc(nchunk * sizeof(*tmp))) == NULL) {
		fprintf(stderr, "turns: out of memory\n");
		return 1;
	}
	memcpy(tmp, ns, nchunk * sizeof(*tmp));
	qsort(tmp, nchunk, sizeof(*tmp), turns_cmp);
	for (i = 0; i < 3; i++)
		q[i] = tmp[nchunk * (i + 1) / 4];
	free(tmp);
	printf("a trace of %.1f s: getppid() in %zu chunks of %u calls, "
	    "%.1f ns a call (quartiles %.1f and %.1f)\n", at[nchunk - 1] /
	    1000, nchunk, TURNS_CHUNK, q[1], q[0], q[2]);
	if (turns_acf() != 0)
		return 1;
	for (i = 0; i < sizeof(designs) / sizeof(designs[0]); i++)
		if (turns_design(&designs[i], TURNS_GAP_MS) != 0) {
			fprintf(stderr, "turns: out of memory, or a trace "
			    "too short for a call\n");
			return 1;
		}
	free(at);
	free(ns);
	return 0;
}
