/* lat_pagefault.c: the cost of a page fault on a file in the page cache. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "file.h"
#include "tool.h"

/* The largest file we map: 64 GB. */
#define PF_MAX_SIZE (1ull << 36)
/* Passes the parent makes to count the faults of one. */
#define PF_COUNT_PASSES 4

/*
 * One operation is a pass: map the file, read one byte of every page in a
 * stride that defeats readahead order, unmap.  Linux maps the neighbours
 * of a faulting page that are in the page cache ("fault-around"), so a
 * pass takes far fewer faults than it touches pages; lmbench divides by
 * the pages and so reports a figure no fault ever cost.  We divide by the
 * faults the kernel counts for a pass (getrusage), measured beforehand.
 */
struct pf_state {
	const char *file;
	const char *dir;	/* -C: where the copies go, else NULL */
	char path[600];
	uint64_t size;
	size_t pagesize, npages, stride;
	int fd;
	volatile char sink;
};

/* One pass over a mapping of the whole file. */
static int
pf_pass(struct pf_state *s)
{
	const char *m;
	size_t i, p;
	char c = 0;

	m = mmap(NULL, (size_t)s->size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	for (i = 0, p = 0; i < s->npages; i++) {
		c ^= m[p * s->pagesize];
		if ((p += s->stride) >= s->npages)
			p -= s->npages;
	}
	munmap((void *)m, (size_t)s->size);
	s->sink = c;
	return 0;
}

/* Lay out the pass and open the file (a copy with -C). */
static int
pf_setup(struct pf_state *s, unsigned worker)
{
	int rc;

	snprintf(s->path, sizeof s->path, "%s", s->file);
	if (s->dir != NULL && (rc = file_clone(s->file, s->dir, worker,
	    s->size, s->path, sizeof s->path)) != 0)
		return rc;
	if ((s->fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	s->pagesize = (size_t)sysconf(_SC_PAGESIZE);
	s->npages = (size_t)((s->size + s->pagesize - 1) / s->pagesize);
	/* A stride prime to the page count visits every page once. */
	for (s->stride = 17; s->npages % s->stride == 0; s->stride += 2)
		;
	if (s->stride >= s->npages)
		s->stride = 1;
	return 0;
}

/* The worker's file. */
static int
pf_init(bm_iter_t n, void *cookie)
{
	(void)n;
	return pf_setup(cookie, bm_worker_index(bm_state_current()));
}

/* n passes. */
static int
pf_bench(bm_iter_t n, void *cookie)
{
	int rc;

	while (n-- > 0) {
		if ((rc = pf_pass(cookie)) != 0)
			return rc;
	}
	return 0;
}

/* Close and remove the worker's copy. */
static int
pf_cleanup(bm_iter_t n, void *cookie)
{
	struct pf_state *s = cookie;

	(void)n;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->dir != NULL)
		(void)unlink(s->path);
	return 0;
}

/* The faults of one pass, as the kernel counts them. */
static double
pf_count(struct tool *t, struct pf_state *s)
{
	struct rusage a, b;
	int i, rc;

	if ((rc = pf_pass(s)) != 0)
		tool_fail(t, "cannot map %s: %s", s->file, strerror(-rc));
	getrusage(RUSAGE_SELF, &a);
	for (i = 0; i < PF_COUNT_PASSES; i++)
		(void)pf_pass(s);
	getrusage(RUSAGE_SELF, &b);
	return (double)(b.ru_minflt - a.ru_minflt + b.ru_majflt -
	    a.ru_majflt) / PF_COUNT_PASSES;
}

static int pf_clone;

/* Take -C. */
static void
pf_option(struct tool *t, int opt, const char *arg)
{
	(void)t;
	(void)opt;
	(void)arg;
	pf_clone = 1;
}

/* Count the faults of a pass, time passes, print the time per fault. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_pagefault", .args = "[-C] file" };
	struct pf_state s, probe;
	bm_param params[3];
	bm_record rec;
	bm_bench b;
	bm_result r;
	char line[700];
	double faults;
	int first, rc;

	memset(&s, 0, sizeof s);
	first = tool_parse(&t, argc, argv, "C", NULL, pf_option);
	if (first >= argc)
		tool_usage_error(&t, "missing the file");
	if (first + 1 < argc)
		tool_usage_error(&t, "too many arguments");
	s.file = argv[first];
	tool_setup(&t);
	s.size = file_check(&t, s.file, 1);
	if (s.size > PF_MAX_SIZE)
		s.size = PF_MAX_SIZE;
	file_pass_bound(&t, s.size);
	if (pf_clone)
		s.dir = tool_tmpdir(&t);
	probe = s;
	probe.dir = NULL;
	if ((rc = pf_setup(&probe, 0)) != 0)
		tool_fail(&t, "cannot open %s: %s", s.file, strerror(-rc));
	faults = pf_count(&t, &probe);
	close(probe.fd);
	if (faults < 1)
		tool_fail(&t, "a pass over %s took no page faults", s.file);
	b.initialize = pf_init;
	b.benchmark = pf_bench;
	b.cleanup = pf_cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	params[0].key = "file";
	params[0].str = s.file;
	params[0].num = 0;
	params[1].key = "pages";
	params[1].str = NULL;
	params[1].num = (double)probe.npages;
	params[2].key = "faults_per_pass";
	params[2].str = NULL;
	params[2].num = faults;
	memset(&rec, 0, sizeof rec);
	rec.tool = t.name;
	rec.case_name = "file";
	rec.params = params;
	rec.nparams = 3;
	rec.metric = "latency";
	rec.unit = "us";
	rec.scale = 1e-3 / faults;
	rec.value = r.per_op_ns.median / faults / 1000.0;
	rec.result = &r;
	tool_aggregate(&t, &rec);
	snprintf(line, sizeof line, "Pagefaults on %s: %.4f microseconds\n",
	    s.file, rec.value);
	tool_report(&t, &rec, line);
	bm_result_free(&r);
	return tool_finish(&t);
}
