/* pages.c: what a process's first access to a page costs on this machine, apart from what the kernel's fault costs. */
/*
 * A worker set's buffer is mapped, faulted and touched by each fresh
 * process.  This program separates the parts of that cost on one memory
 * file (as benchmp-sched's pool) and on private memory:
 *
 *   populate  mmap with MAP_POPULATE: the kernel's page faults, counted
 *   first     the first read of a byte a page after it: no fault of the
 *             kernel's (the count says so), whatever the hypervisor adds
 *   again     a write of every byte after that: the memory's own speed
 *
 * then the same memory file mapped a second time in the same process,
 * and in a fresh child; private memory twice, then twice on huge pages
 * (faulted as touched).  Usage: pages [MB] (default 256, 1 to 4096).
 * Prints one line a step: seconds, microseconds a page, the kernel's
 * minor faults.  Part of make bench.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGES_MB_DEFAULT	256
#define PAGES_MB_MAX		4096

/* Seconds on the monotonic clock. */
static double
pages_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This process's minor faults so far. */
static long
pages_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return -1;
	return ru.ru_minflt;
}

/* Where a step started: its time and the faults so far. */
struct pages_lap {
	double t;
	long faults;
};

/* Start timing a step. */
static void
pages_start(struct pages_lap *l)
{
	l->faults = pages_faults();
	l->t = pages_now();
}

/*
 * Print the step that ends now (who and step name it; n pages): its
 * seconds, us a page and the kernel's faults; the next starts here.
 */
static void
pages_lap(struct pages_lap *l, const char *who, const char *step, size_t n)
{
	double t = pages_now();
	long faults = pages_faults();
	char what[64];

	snprintf(what, sizeof what, "%s %s", who, step);
	printf("%-28s %8.3f s %8.2f us/page %8ld faults\n", what, t - l->t,
	    (t - l->t) * 1e6 / (double)n, faults - l->faults);
	pages_start(l);
}

/*
 * Map len bytes (of fd, or private memory when fd < 0) populated, read a
 * byte a page, write them all: three lines named by who.  0, or 1 after
 * saying why.
 */
static int
pages_steps(const char *who, int fd, size_t len, size_t page)
{
	volatile unsigned char sum = 0;
	struct pages_lap lap;
	unsigned char *m;
	size_t i;

	pages_start(&lap);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_POPULATE |
	    (fd >= 0 ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS), fd, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "pages: mmap: %s\n", strerror(errno));
		return 1;
	}
	pages_lap(&lap, who, "populate", len / page);
	for (i = 0; i < len; i += page)
		sum += m[i];
	pages_lap(&lap, who, "first", len / page);
	memset(m, (int)sum | 1, len);
	pages_lap(&lap, who, "again", len / page);
	if (munmap(m, len) != 0) {
		fprintf(stderr, "pages: munmap: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * Map len bytes of private memory on huge pages (MADV_HUGEPAGE, as line's
 * chase asks) and write a byte a page, faults and all: one line named by
 * who.  0, or 1 after saying why.
 */
static int
pages_huge(const char *who, size_t len, size_t page)
{
	struct pages_lap lap;
	unsigned char *m;
	size_t i;

	pages_start(&lap);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "pages: mmap: %s\n", strerror(errno));
		return 1;
	}
#ifdef MADV_HUGEPAGE
	(void)madvise(m, len, MADV_HUGEPAGE);
#endif
	for (i = 0; i < len; i += page)
		m[i] = 1;
	pages_lap(&lap, who, "touched", len / page);
	if (munmap(m, len) != 0) {
		fprintf(stderr, "pages: munmap: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long mb = PAGES_MB_DEFAULT;
	char *end;
	size_t len;
	pid_t pid;
	int fd, rc = 0, status;

	if (argc > 2 || page <= 0) {
		fprintf(stderr, "usage: pages [MB]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		mb = strtoul(argv[1], &end, 10);
		if (errno != 0 || end == argv[1] || *end != '\0' || mb < 1 ||
		    mb > PAGES_MB_MAX) {
			fprintf(stderr, "pages: MB is from 1 to %d, not '%s'\n",
			    PAGES_MB_MAX, argv[1]);
			return 2;
		}
	}
	len = (size_t)mb << 20;
	fd = memfd_create("benchmp-pages", MFD_CLOEXEC);
	if (fd < 0 || (errno = posix_fallocate(fd, 0, (off_t)len)) != 0) {
		fprintf(stderr, "pages: a memory file of %lu MB: %s\n", mb,
		    strerror(errno));
		return 1;
	}
	printf("%lu MB, %zu pages of %ld bytes\n", mb, len / (size_t)page,
	    page);
	rc |= pages_steps("file", fd, len, (size_t)page);
	rc |= pages_steps("file mapped again", fd, len, (size_t)page);
	fflush(stdout);
	if ((pid = fork()) < 0) {
		fprintf(stderr, "pages: fork: %s\n", strerror(errno));
		rc = 1;
	} else if (pid == 0) {
		status = pages_steps("file, a fresh child", fd, len,
		    (size_t)page);
		fflush(stdout);
		_exit(status);
	} else if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pages: the child failed\n");
		rc = 1;
	}
	rc |= pages_steps("private", -1, len, (size_t)page);
	rc |= pages_steps("private again", -1, len, (size_t)page);
	rc |= pages_huge("huge", len, (size_t)page);
	rc |= pages_huge("huge again", len, (size_t)page);
	(void)close(fd);
	return rc;
}
