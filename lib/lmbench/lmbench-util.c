/* lmbench-util.c: the small helpers lmbench's benchmarks call (lmbench.h). */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <sys/resource.h>

#include "benchmp/lmbench.h"

/* Where the reporting helpers print; NULL is standard error. */
FILE *ftiming;

/* What use_int() and use_pointer() add to, so their work is not dropped. */
static volatile uintptr_t lmbench_used;

/* The stream the reporting helpers print to. */
static FILE *
util_out(void)
{
	return ftiming != NULL ? ftiming : stderr;
}

/* Print "Usage: PROG usage" to stderr and exit as lmbench does. */
void
lmbench_usage(int argc, char *argv[], char *usage)
{
	(void)argc;
	(void)fprintf(stderr, "Usage: %s %s", argv[0], usage);
	exit(-1);
}

/* GO_AWAY's alarm: the benchmark ran for an hour. */
void
lmbench_go_away(int sig)
{
	(void)sig;
	_exit(1);
}

/* Reap every child that has exited, keeping errno. */
void
sigchld_wait_handler(int signo)
{
	int e = errno;

	(void)signo;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	errno = e;
}

/* Keep an int result alive. */
void
use_int(int result)
{
	lmbench_used += (uintptr_t)result;
}

/* Keep a pointer result alive. */
void
use_pointer(void *result)
{
	lmbench_used += (uintptr_t)result;
}

/* The last character of s, 0 for an empty string. */
char
last(char *s)
{
	size_t n = strlen(s);

	return n > 0 ? s[n - 1] : '\0';
}

/*
 * A size: digits and an optional k, m or g (either case), powers of
 * 1024 as lmbench's sizes; 0 when s does not begin with a number.
 */
uint64
bytes(char *s)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (end == s || errno != 0)
		return 0;
	switch (*end) {
	case 'k': case 'K':
		n *= 1024;
		break;
	case 'm': case 'M':
		n *= 1024 * 1024;
		break;
	case 'g': case 'G':
		n *= 1024ULL * 1024 * 1024;
		break;
	default:
		break;
	}
	return (uint64)n;
}

/* Write one byte in every page of buf (from its first byte). */
void
touch(char *buf, int size)
{
	long psz = sysconf(_SC_PAGESIZE);
	long i;

	if (buf == NULL || size <= 0)
		return;
	if (psz <= 0)
		psz = 4096;
	for (i = 0; i < size; i += psz)
		buf[i] = 1;
}

/* 0..max-1 times scale in a random order (Fisher-Yates on rand()). */
size_t *
permutation(int max, int scale)
{
	size_t *v, t;
	size_t i, j;

	if (max <= 0 || (v = malloc((size_t)max * sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < (size_t)max; i++)
		v[i] = i * (size_t)scale;
	for (i = (size_t)max - 1; i > 0; i--) {
		j = ((size_t)rand() * ((size_t)RAND_MAX + 1) + (size_t)rand()) %
		    (i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
	return v;
}

/* Copy src to dst, created or truncated with mode; 0, or -1. */
int
cp(char *src, char *dst, mode_t mode)
{
	char buf[XFERSIZE];
	ssize_t n, w, off;
	int in, out, rc = 0;

	if ((in = open(src, O_RDONLY)) < 0)
		return -1;
	if ((out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, mode)) < 0) {
		(void)close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		for (off = 0; off < n; off += w)
			if ((w = write(out, buf + off, (size_t)(n - off))) <= 0) {
				if (w < 0 && errno == EINTR) {
					w = 0;
					continue;
				}
				rc = -1;
				goto done;
			}
	}
done:
	(void)close(in);
	if (close(out) != 0)
		rc = -1;
	return rc;
}

/* Read count bytes of src as longs and return their sum. */
long
bread(void *src, long count)
{
	const long *p = src;
	long sum = 0, i, n = count / (long)sizeof(long);

	for (i = 0; i < n; i++)
		sum += p[i];
	return sum;
}

/* Ten buffers in turn for p64() and p64sz(), as lmbench has. */
static char util_buf[10][32];
static int util_next;

/* The next of the ten buffers. */
static char *
util_buffer(void)
{
	char *s = util_buf[util_next];

	util_next = (util_next + 1) % 10;
	return s;
}

/* big in hexadecimal, "0x...". */
char *
p64(uint64 big)
{
	char *s = util_buffer();

	(void)snprintf(s, sizeof(util_buf[0]), "0x%" PRIx64, (uint64_t)big);
	return s;
}

/* big as a size: 4 decimals under 100, 2 above, with K, M, G, T, P, E. */
char *
p64sz(uint64 big)
{
	static const char tags[] = " KMGTPE";
	double d = (double)big;
	char *s;
	int t = 0;

	if (big == 0)
		return "0";
	while (d > 512 && t < 6) {
		t++;
		d /= 1024;
	}
	s = util_buffer();
	(void)snprintf(s, sizeof(util_buf[0]), d < 100 ? "%.4f%c" : "%.2f%c",
	    d, tags[t]);
	return s;
}

/* The wall clock in microseconds. */
uint64
now(void)
{
	struct timeval t;

	(void)gettimeofday(&t, NULL);
	return (uint64)t.tv_sec * 1000000u + (uint64)t.tv_usec;
}

/* The wall clock in microseconds, as a double. */
double
Now(void)
{
	return (double)now();
}

/* Microseconds since the last call, 0 the first time. */
uint64
delta(void)
{
	static uint64 prev;
	uint64 t = now(), d = prev != 0 && t > prev ? t - prev : 0;

	prev = t;
	return d;
}

/* Seconds since start(), without stopping. */
double
Delta(void)
{
	return (double)usecs_spent() / 1e6;
}

/* Seconds of the kept interval. */
double
timespent(void)
{
	return (double)gettime() / 1e6;
}

/* Send the reporting helpers of this library to out. */
void
timing(FILE *out)
{
	ftiming = out;
}

/* lmbench's old calibration hook; nothing to adjust here. */
void
adjust(int usec)
{
	(void)usec;
}

/*
 * "MB MB/sec" of bytes moved times times in the kept interval (verbose:
 * "M MB in S secs, B MB/sec"), with lmbench's precision switch under 1.
 */
void
bandwidth(uint64 nbytes, uint64 times, int verbose)
{
	double secs = (double)gettime() / 1e6, mb = (double)nbytes / 1e6;
	FILE *f = util_out();

	if (times == 0 || secs == 0)
		return;
	secs /= (double)times;
	if (verbose) {
		(void)fprintf(f, "%.4f MB in %.4f secs, %.4f MB/sec\n", mb, secs,
		    mb / secs);
		return;
	}
	(void)fprintf(f, mb < 1 ? "%.6f " : "%.2f ", mb);
	(void)fprintf(f, mb / secs < 1 ? "%.6f\n" : "%.2f\n", mb / secs);
}

/* Transfers of size bytes in the kept interval: time each and rate. */
void
latency(uint64 xfers, uint64 size)
{
	double s = (double)gettime() / 1e6, ms;
	FILE *f = util_out();

	if (s == 0 || xfers == 0)
		return;
	if (xfers > 1)
		(void)fprintf(f, "%d %dKB xfers in %.2f secs, ", (int)xfers,
		    (int)((double)size / 1e3), s);
	else
		(void)fprintf(f, "%.1fKB in ", (double)size / 1e3);
	ms = s * 1000 / (double)xfers;
	(void)fprintf(f, ms > 100 ? "%.0f millisec%s, " : "%.4f millisec%s, ",
	    ms, xfers > 1 ? "/xfer" : "s");
	if ((double)(xfers * size) / (1e6 * s) > 1)
		(void)fprintf(f, "%.2f MB/sec\n",
		    (double)(xfers * size) / (1e6 * s));
	else
		(void)fprintf(f, "%.2f KB/sec\n",
		    (double)(xfers * size) / (1e3 * s));
}

/* Context switches in the kept interval. */
void
context(uint64 xfers)
{
	double s = (double)gettime() / 1e6;

	if (s == 0 || xfers == 0)
		return;
	(void)fprintf(util_out(),
	    "%d context switches in %.2f secs, %.0f microsec/switch\n",
	    (int)xfers, s, s * 1e6 / (double)xfers);
}

/* "MB us" of a size and the kept interval per n operations. */
void
micromb(uint64 sz, uint64 n)
{
	double us, mb = (double)sz / 1e6;

	if (n == 0 || gettime() == 0)
		return;
	us = (double)gettime() / (double)n;
	(void)fprintf(util_out(), us >= 10 ? "%.6f %.0f\n" : "%.6f %.3f\n",
	    mb, us);
}

/* "N in S secs, U microseconds each" of the kept interval. */
void
ptime(uint64 n)
{
	double s = (double)gettime() / 1e6;

	if (s == 0 || n == 0)
		return;
	(void)fprintf(util_out(), "%d in %.2f secs, %.0f microseconds each\n",
	    (int)n, s, s * 1e6 / (double)n);
}

/*
 * The resource use of this process so far (lmbench counts from start();
 * here from the process's start), beside the kept interval.
 */
void
rusage(void)
{
	struct rusage r;
	double real = timespent(), sys, user, idle;

	if (getrusage(RUSAGE_SELF, &r) != 0)
		return;
	sys = (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec / 1e6;
	user = (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6;
	idle = real - (sys + user);
	(void)fprintf(util_out(), "real=%.2f sys=%.2f user=%.2f idle=%.2f "
	    "stall=%.0f%% ", real, sys, user, idle,
	    real > 0 ? idle / real * 100 : 0.0);
	(void)fprintf(util_out(), "rd=%ld wr=%ld min=%ld maj=%ld ctx=%ld\n",
	    r.ru_inblock, r.ru_oublock, r.ru_minflt, r.ru_majflt,
	    r.ru_nvcsw + r.ru_nivcsw);
}

/* getopt(3) under lmbench's name. */
int
mygetopt(int ac, char **av, char *opts)
{
	return getopt(ac, av, opts);
}

/* The results BENCH() fills. */
result_t *
lmbench_bench_results(void)
{
	static result_t r;

	return &r;
}
