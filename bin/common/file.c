/* file.c: opening, checking, cloning and reading the files the file tools are given. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "benchmp/worker.h"
#include "file.h"

/* The copy buffer of file_clone(). */
#define FILE_CHUNK (1u << 16)
/* The largest size bw_file_rd and bw_mmap_rd accept: 1 TB. */
#define FILE_MAX_SIZE (1ull << 40)

/* Write all of buf, going on after a short write to learn why it was short. */
int
file_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t got;

	while (len > 0) {
		if ((got = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (got == 0)
			return -ENOSPC;	/* no progress and no reason given */
		p += got;
		len -= (size_t)got;
	}
	return 0;
}

/* Open a regular file without blocking; refuse anything else. */
int
file_open(const char *path, int flags, int *fdp, uint64_t *size)
{
	struct stat st;
	int fd, fl, err;

	/*
	 * O_NONBLOCK: open() of a FIFO waits for a writer and a device's may
	 * wait for its hardware; the mode is checked on the open descriptor,
	 * so nothing can be swapped in between a stat() and the open().
	 */
	if ((fd = open(path, flags | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		err = errno;
		close(fd);
		return -err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		err = errno;
		close(fd);
		return -err;
	}
	if (size != NULL)
		*size = (uint64_t)st.st_size;
	*fdp = fd;
	return 0;
}

/* Check the file, or exit 1 naming it. */
uint64_t
file_check(struct tool *t, const char *path, int flags, uint64_t min)
{
	uint64_t size;
	int fd, rc;

	if ((rc = file_open(path, flags, &fd, &size)) == -ENODEV)
		tool_exit_fail(t, "%s is not a regular file", path);
	if (rc != 0)
		tool_exit_fail(t, "cannot open %s%s: %s", path,
		    (flags & O_ACCMODE) == O_RDWR && (rc == -EACCES ||
		    rc == -EPERM || rc == -EROFS || rc == -ETXTBSY) ?
		    " for writing" : "", strerror(-rc));
	close(fd);
	if (size < min)
		tool_exit_fail(t,
		    "%s holds %ju bytes, fewer than the %ju asked for",
		    path, (uintmax_t)size, (uintmax_t)min);
	return size;
}

/*
 * Copy the first size bytes of src for one worker, as dir/clone.WORKER.PID.
 * Named by the worker's process too (as lat_fcntl's lock file): served,
 * the engine kills a worker set mid-warmup to start one with fewer
 * intervals, whose cleanup never runs, and the next worker of that
 * index found its copy there and failed (EEXIST).  dir is the tool's
 * own, removed with what it holds; a name reused with a pid is ours.
 */
int
file_clone(const char *src, const char *dir, unsigned worker, uint64_t size,
    char *out, size_t outlen)
{
	char *buf;
	ssize_t got;
	size_t want;
	int in, fd, rc = 0;

	if ((size_t)snprintf(out, outlen, "%s/clone.%u.%ld", dir, worker,
	    (long)getpid()) >= outlen)
		return -ENAMETOOLONG;
	if ((buf = malloc(FILE_CHUNK)) == NULL)
		return -ENOMEM;
	if ((rc = file_open(src, O_RDONLY, &in, NULL)) != 0) {
		free(buf);
		return rc;
	}
	if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) < 0) {
		rc = -errno;
		close(in);
		free(buf);
		return rc;
	}
	while (size > 0) {
		want = size < FILE_CHUNK ? (size_t)size : FILE_CHUNK;
		if ((got = read(in, buf, want)) <= 0) {
			if (got < 0 && errno == EINTR)
				continue;
			rc = got == 0 ? -ENODATA : -errno;
			break;
		}
		if ((rc = file_write_full(fd, buf, (size_t)got)) != 0)
			break;
		size -= (uint64_t)got;
	}
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	close(in);
	free(buf);
	if (rc != 0)
		(void)unlink(out);
	return rc;
}

/* The worker's file: the one named, or its own copy under dir. */
int
file_worker_path(const char *file, const char *dir, uint64_t size, char *out,
    size_t outlen)
{
	if (dir != NULL)
		return file_clone(file, dir,
		    bm_worker_index(bm_state_current()),
		    size, out, outlen);
	if ((size_t)snprintf(out, outlen, "%s", file) >= outlen)
		return -ENAMETOOLONG;
	return 0;
}

/* Release a worker's file and page order; with -C, remove its copy. */
void
file_worker_close(int *fd, size_t **order, const char *dir, const char *path)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	if (order != NULL) {
		free(*order);
		*order = NULL;
	}
	if (dir != NULL)
		(void)unlink(path);
}

/* Open the worker's file, or its copy with -C. */
int
file_pages_open(struct file_pages *w, int flags)
{
	int rc;

	w->fd = -1;
	if ((rc = file_worker_path(w->file, w->dir, w->size, w->path,
	    sizeof w->path)) != 0)
		return rc;
	return file_open(w->path, flags, &w->fd, NULL);
}

/* One pass over the worker's pages in its order. */
int
file_pages_pass(struct file_pages *w)
{
	return file_page_pass(w->fd, w->size, w->order, w->npages,
	    w->pagesize, &w->sink);
}

/* n passes over the worker's pages. */
int
file_pages_run(bm_iter_t n, void *cookie)
{
	int rc;

	while (n-- > 0) {
		if ((rc = file_pages_pass(cookie)) != 0)
			return rc;
	}
	return 0;
}

/* Release the worker's file and order; with -C, remove its copy. */
int
file_pages_cleanup(bm_iter_t n, void *cookie)
{
	struct file_pages *w = cookie;

	(void)n;
	file_worker_close(&w->fd, &w->order, w->dir, w->path);
	return 0;
}

/* The pages 0..npages-1 in a new array, shuffled from seed when asked. */
size_t *
file_page_order(size_t npages, unsigned seed, int shuffle)
{
	size_t *order, i, j, tmp;

	if ((order = malloc(npages * sizeof *order)) == NULL)
		return NULL;
	for (i = 0; i < npages; i++)
		order[i] = i;
	for (i = npages; shuffle && i > 1; i--) {
		j = (size_t)rand_r(&seed) % i;
		tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
	return order;
}

/* Map fd read-only, read a byte of each page in order, unmap. */
int
file_page_pass(int fd, uint64_t size, const size_t *order, size_t npages,
    size_t pagesize, volatile char *sink)
{
	const char *m;
	size_t i;
	char c = 0;

	m = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	for (i = 0; i < npages; i++)
		c ^= m[order[i] * pagesize];
	munmap((void *)m, (size_t)size);
	*sink = c;
	return 0;
}

/*
 * The terms of lmbench's unrolled sum.  One expression of 128 loads lets
 * the compiler add them as a tree (or in vector registers): a plain loop
 * "sum += w[i]" is one dependent chain of adds, which capped a mapping in
 * the cache at about 30 GB/s where lmbench's sum reads 50 GB/s and more.
 */
#define FILE_S4(i) (p[i] + p[(i) + 1] + p[(i) + 2] + p[(i) + 3])
#define FILE_S16(i) (FILE_S4(i) + FILE_S4((i) + 4) + FILE_S4((i) + 8) + \
	FILE_S4((i) + 12))
#define FILE_S128 (FILE_S16(0) + FILE_S16(16) + FILE_S16(32) + \
	FILE_S16(48) + FILE_S16(64) + FILE_S16(80) + FILE_S16(96) + \
	FILE_S16(112))
#define FILE_STEP 128

/* Sum a buffer as longs, 128 per step, then its tail. */
uint64_t
file_sum(const void *buf, size_t size)
{
	const unsigned long *p = buf, *end;
	const unsigned char *b;
	unsigned long sum = 0;
	size_t i, tail;

	end = p + size / sizeof *p / FILE_STEP * FILE_STEP;
	for (; p < end; p += FILE_STEP)
		sum += FILE_S128;
	tail = size - (size_t)((const char *)p - (const char *)buf);
	for (i = 0; i < tail / sizeof *p; i++)
		sum += p[i];
	b = (const unsigned char *)(p + tail / sizeof *p);
	for (i = 0; i < tail % sizeof *p; i++)
		sum += b[i];
	return sum;
}

/* Take -C, -r and the tool's one long option into the file_opts cookie. */
static void
file_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct file_opts *o = cookie;

	(void)t;
	(void)arg;
	if (opt == 'C')
		o->clone = 1;
	else if (opt == 'r')
		o->random = 1;
	else
		o->flag = 1;
}

/* Parse the options into o and check the operands' count. */
int
file_parse(struct tool *t, int argc, char **argv, const char *shortopts,
    const char *flag, struct file_opts *o, int nargs, const char *missing)
{
	const struct option longopts[] = {
		{ flag, no_argument, NULL, TOOL_OPT_BASE },
		{ NULL, 0, NULL, 0 }
	};
	int first;

	memset(o, 0, sizeof *o);
	first = tool_parse(t, argc, argv, shortopts,
	    flag != NULL ? longopts : NULL, file_option, o);
	if (argc - first < nargs)
		tool_exit_usage(t, "%s", missing);
	if (argc - first > nargs)
		tool_exit_usage(t, "too many arguments");
	return first;
}

/* The workers' copies' directory with -C, made now; NULL without. */
const char *
file_clone_dir(struct tool *t, const struct file_opts *o)
{
	return o->clone ? tool_exit_tmpdir(t) : NULL;
}

/* A worker's start: its file (its own copy with -C), then the tool's open. */
static int
file_bw_init(bm_iter_t n, void *cookie)
{
	struct file_bw_state *s = cookie;
	int rc;

	(void)n;
	s->fd = -1;
	s->mem = NULL;
	if ((rc = file_worker_path(s->file, s->dir, s->size, s->path,
	    sizeof s->path)) != 0)
		return rc;
	return s->ft->open(s);
}

/* A worker's end: its descriptor, its buffer or mapping, its copy. */
static int
file_bw_cleanup(bm_iter_t n, void *cookie)
{
	struct file_bw_state *s = cookie;

	(void)n;
	if (s->ft->mapped && s->mem != NULL)
		munmap(s->mem, (size_t)s->size);
	else
		free(s->mem);
	s->mem = NULL;
	file_worker_close(&s->fd, NULL, s->dir, s->path);
	return 0;
}

/* Parse, check the file, measure and print "MB MB/s". */
int
file_bw_main(const struct file_bw_tool *ft, int argc, char **argv)
{
	struct tool t = { .name = ft->name };
	struct file_bw_state s;
	bm_param params[2];
	bm_record rec;
	bm_bench b;
	bm_result r;
	struct file_opts o;
	char line[96], args[64];
	int first;

	snprintf(args, sizeof args, "[-C] size %s|open2close file",
	    ft->first_mode);
	t.args = args;
	memset(&s, 0, sizeof s);
	s.ft = ft;
	s.fd = -1;
	first = file_parse(&t, argc, argv, "C", NULL, &o, 3,
	    "missing the size, the mode or the file");
	s.size = tool_size(&t, "size", argv[first], 1, FILE_MAX_SIZE);
	if (strcmp(argv[first + 1], "open2close") == 0)
		s.open2close = 1;
	else if (strcmp(argv[first + 1], ft->first_mode) != 0)
		tool_exit_usage(&t, "unknown mode '%s'", argv[first + 1]);
	s.file = argv[first + 2];
	tool_setup(&t);
	/*
	 * A mapping past the end of the file raises SIGBUS on the first
	 * read there, and a read past it comes back short: the size is
	 * checked before any worker starts.
	 */
	(void)file_check(&t, s.file, O_RDONLY, s.size);
	file_pass_bound(&t, s.size);
	s.dir = file_clone_dir(&t, &o);
	b.initialize = file_bw_init;
	b.benchmark = ft->benchmark;
	b.cleanup = file_bw_cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	params[0] = (bm_param){ .key = "size", .num = (double)s.size };
	params[1] = (bm_param){ .key = "file", .str = s.file };
	tool_record_bw(&rec, &t, argv[first + 1], params, 2, &r,
	    (double)s.size);
	snprintf(line, sizeof line, "%.2f ", (double)s.size / 1e6);
	tool_report_value(&t, &rec, line, 2, "");
	bm_result_free(&r);
	return tool_finish(&t);
}

/*
 * Bound the waits of a run whose one operation passes over bytes of a
 * file: the engine gives a first pass 10 s plus a few expected intervals,
 * which a pass over gigabytes outlasts on a loaded machine (bw_file_rd
 * 4200m under stress-ng gave up after 10.4 s).  From 1 GB on, each wait
 * may last 10 s plus twenty passes at 100 MB/s instead (15 minutes for
 * 4.4 GB): still a bound, never a hang.  An explicit timeout stays.
 */
void
file_pass_bound(struct tool *t, uint64_t bytes)
{
	uint64_t pass_us = bytes / 100;		/* 100 MB/s: 100 bytes per us */

	if (t->opts.timeout_us != 0 || bytes < FILE_BIG_PASS)
		return;
	t->opts.timeout_us = 10000000u + 20 * pass_us;
}

/*
 * The block device name of st_dev (DEVNAME in /sys/dev/block/M:m/uevent:
 * "vda", "nvme0n1p2", "dm-0") into name; 0, or -1 when there is none.
 */
static int
file_devname(dev_t dev, char *name, size_t size)
{
	char path[64], buf[1024], *p, *end;
	ssize_t got;
	size_t len;
	int fd;

	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/uevent",
	    major(dev), minor(dev));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	got = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	for (p = buf; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, "DEVNAME=", 8) != 0)
			continue;
		p += 8;
		end = strchr(p, '\n');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == 0 || len >= size || memchr(p, '/', len) != NULL)
			return -1;
		memcpy(name, p, len);
		name[len] = '\0';
		return 0;
	}
	return -1;
}

/* See file.h. */
const char *
file_unsteady(const char *dir, int delete)
{
	char dev[64], path[128];
	struct stat st;

	if (stat(dir, &st) != 0 || file_devname(st.st_dev, dev,
	    sizeof dev) != 0)
		return NULL;
	snprintf(path, sizeof path, "/proc/fs/ext4/%s", dev);
	if (access(path, F_OK) != 0)
		return NULL;
	snprintf(path, sizeof path, "/proc/fs/jbd2/%s-8", dev);
	if (access(path, F_OK) == 0 || errno != ENOENT)
		return NULL;
	if (delete)
		return "ext4 without a journal: the files deleted lie where "
		    "creations that skip the last minute's deleted inodes put "
		    "them";
	return "ext4 without a journal: a creation skips the inodes deleted "
	    "in the last minute, this run's and others'";
}
