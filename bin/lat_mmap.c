/* lat_mmap.c: the cost of mapping a file, touching it and unmapping it, as lmbench's lat_mmap. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchmp/worker.h"
#include "common/file.h"
#include "common/tool.h"

/* The largest size a user may ask for: 1 TB. */
#define MMAP_MAX_SIZE (1ull << 40)
/*
 * lmbench's definition: one byte written every 16 KiB over the first
 * tenth of the mapping, or with -r one every 160 KiB over all of it.
 */
#define MMAP_STRIDE (16u * 1024)
#define MMAP_STRIDE_R (160u * 1024)
#define MMAP_SPAN_DIV 10
/*
 * The shortest interval for lmbench's definition, in us, whatever ENOUGH
 * says (benchmp-run exports the calibrated 100 us or so).
 * Writeback stalls of 10-30 ms count in lmbench's long intervals and not
 * in short ones (doc/measurements.md, "lat_mmap and lat_pagefault: the
 * interval").
 */
#define MMAP_ENOUGH_US 20000

/* One worker's file and what one operation touches. */
struct mmap_state {
	struct file_pages w;	/* --all-pages: w.order shuffled with -r */
	int all_pages;
	int random;
	size_t stride, span;	/* lmbench's: a byte every stride below span */
};

/* Open the worker's file and lay out what an operation touches. */
static int
mmap_init(bm_iter_t n, void *cookie)
{
	struct mmap_state *s = cookie;
	int rc;

	(void)n;
	if ((rc = file_pages_open(&s->w, s->all_pages ? O_RDONLY : O_RDWR))
	    != 0)
		return rc;
	if (!s->all_pages)
		return 0;
	s->w.pagesize = (size_t)sysconf(_SC_PAGESIZE);
	s->w.npages = (size_t)((s->w.size + s->w.pagesize - 1) / s->w.pagesize);
	if ((s->w.order = file_page_order(s->w.npages,
	    1u + bm_worker_index(bm_state_current()), s->random)) == NULL)
		return -ENOMEM;
	return 0;
}

/*
 * n times lmbench's operation: map size bytes read-write and shared,
 * write a byte every stride below span, unmap.  Each write puts back the
 * value that is there with an atomic compare-and-swap: it takes the same
 * write fault as lmbench's store and dirties the page, while the file's
 * contents never change, even with another process writing it.
 */
static int
mmap_bench(bm_iter_t n, void *cookie)
{
	struct mmap_state *s = cookie;
	char *m, v;
	size_t off;

	while (n-- > 0) {
		m = mmap(NULL, (size_t)s->w.size, PROT_READ | PROT_WRITE,
		    MAP_SHARED, s->w.fd, 0);
		if (m == MAP_FAILED)
			return -errno;
		for (off = 0; off < s->span; off += s->stride) {
			/*
			 * No plain load first: it would take a read fault
			 * and then a second, write-protect, fault.  The first
			 * compare-and-swap writes (on x86 even when the byte
			 * is not 0, and then fetches it); the second puts the
			 * byte fetched back, itself.
			 */
			v = 0;
			if (!__atomic_compare_exchange_n(m + off, &v, 0, 0,
			    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
				(void)__atomic_compare_exchange_n(m + off, &v,
				    v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		}
		munmap(m, (size_t)s->w.size);
	}
	return 0;
}

/* Parse and check the command line into s; the options go to o. */
static void
mmap_parse(struct tool *t, int argc, char **argv, struct file_opts *o,
    struct mmap_state *s)
{
	int first;

	first = file_parse(t, argc, argv, "rC", "all-pages", o, 2,
	    "missing the size or the file");
	s->w.size = tool_size(t, "size", argv[first], 1, MMAP_MAX_SIZE);
	s->w.file = argv[first + 1];
	s->random = o->random;
	s->all_pages = o->flag;
	s->stride = s->random ? MMAP_STRIDE_R : MMAP_STRIDE;
	s->span = (size_t)(s->random ? s->w.size : s->w.size / MMAP_SPAN_DIV);
}

/* Print the time per operation of r, with what it mapped and touched. */
static void
mmap_report(struct tool *t, const struct mmap_state *s, bm_result *r)
{
	const char *label = "", *name;
	bm_param params[4];
	bm_record rec;
	char line[128];

	params[0] = (bm_param){ .key = "size", .num = (double)s->w.size };
	params[1] = (bm_param){ .key = "file", .str = s->w.file };
	params[2] = (bm_param){ .key = "stride",
	    .num = s->all_pages ? (double)sysconf(_SC_PAGESIZE) :
	    (double)s->stride };
	params[3] = (bm_param){ .key = "span",
	    .num = s->all_pages ? (double)s->w.size : (double)s->span };
	if (!s->all_pages)
		name = s->random ? "write-160k" : "write-16k";
	else {
		name = s->random ? "all-pages-random" : "all-pages";
		label = s->random ? " all-pages-random" : " all-pages";
	}
	tool_record_us(&rec, t, name, params, 4, r);
	snprintf(line, sizeof line, "%.6f ", (double)s->w.size / 1e6);
	tool_report_value(t, &rec, line, 2, label);
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_mmap",
		.args = "[-r] [-C] [--all-pages] size file",
		.extra_usage = "\n  -r           lmbench's -r: a byte every 160 KiB "
		    "over the whole size\n               (with --all-pages: "
		    "the pages in a random order)\n"
		    "  -C           each worker maps its own copy of the file, "
		    "made under $TMPDIR\n"
		    "  --all-pages  map read-only and read every page "
		    "(not lmbench's definition)\n"
		    "\nBy default each touched byte is written back with its "
		    "own value (the file\nmust be writable; its contents never "
		    "change).\n"
	};
	struct file_opts o;
	struct mmap_state s;
	bm_bench b;
	bm_result r;

	memset(&s, 0, sizeof s);
	mmap_parse(&t, argc, argv, &o, &s);
	if (!s.all_pages)
		t.default_enough_us = MMAP_ENOUGH_US;
	tool_setup(&t);
	if (!s.all_pages)
		tool_min_enough(&t, MMAP_ENOUGH_US);
	/*
	 * Writing needs the file open for writing, unless each worker
	 * writes its own copy (-C).
	 */
	(void)file_check(&t, s.w.file, s.all_pages || o.clone ?
	    O_RDONLY : O_RDWR, s.w.size);
	s.w.dir = file_clone_dir(&t, &o);
	b.initialize = mmap_init;
	/* --all-pages, n times: map, read a byte of every page, unmap. */
	b.benchmark = s.all_pages ? file_pages_run : mmap_bench;
	b.cleanup = file_pages_cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	mmap_report(&t, &s, &r);
	bm_result_free(&r);
	return tool_finish(&t);
}
