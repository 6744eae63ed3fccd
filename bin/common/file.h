/* file.h: what the file tools share: opening, checking, cloning and summing their file. */
#ifndef BM_FILE_H
#define BM_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "tool.h"

/*
 * Open path (flags: O_RDONLY or O_RDWR) without ever blocking: a FIFO
 * would wait in open() for a writer, a device for its hardware.  Anything
 * that is not a regular file is refused with -ENODEV before it is used;
 * a regular file's descriptor is returned blocking again, with its size in
 * *size when size is not NULL.  0 or -errno.
 */
int file_open(const char *path, int flags, int *fd, uint64_t *size);

/*
 * Write all len bytes of buf to fd: 0, or -errno.  A short write is
 * followed by another, which names the cause (ENOSPC for a full file
 * system, EFBIG past a file-size limit, SIGXFSZ being ignored): errno is
 * not set by a write that wrote something.
 */
int file_write_full(int fd, const void *buf, size_t len);

/*
 * Check that path is a regular file we can open with flags (O_RDONLY or
 * O_RDWR), holding at least min bytes; exit 1 naming it otherwise
 * ("... is not a regular file" for a FIFO, device or directory).
 * Returns its size.
 */
uint64_t file_check(struct tool *t, const char *path, int flags, uint64_t min);

/*
 * -C: copy the first size bytes of src to dir/clone.N.PID for worker N
 * (PID the worker's process), so parallel workers do not share one
 * file's pages; the copy's path goes to out.  0 or -errno.
 */
int file_clone(const char *src, const char *dir, unsigned worker,
    uint64_t size, char *out, size_t outlen);

/*
 * The file a worker uses: file itself, or with dir set (-C) its own copy
 * of the first size bytes made there.  0 or -errno.
 */
int file_worker_path(const char *file, const char *dir, uint64_t size,
    char *out, size_t outlen);

/*
 * A worker's cleanup of its file: close *fd (and set it to -1), free
 * *order (when order is not NULL) and, when dir is set (-C), unlink the
 * worker's copy at path.
 */
void file_worker_close(int *fd, size_t **order, const char *dir,
    const char *path);

/*
 * The page indexes 0 to npages - 1, in order or (shuffle) in a random
 * order drawn with rand_r from seed; malloc'd, NULL when out of memory.
 */
size_t *file_page_order(size_t npages, unsigned seed, int shuffle);

/*
 * One pass over a read-only shared mapping of size bytes of fd: read a
 * byte of each of the npages pages in order[] (pages of pagesize bytes),
 * unmap; their xor goes to *sink.  0 or -errno.
 */
int file_page_pass(int fd, uint64_t size, const size_t *order,
    size_t npages, size_t pagesize, volatile char *sink);

/*
 * Sum size bytes as longs, lmbench's way: an unrolled sum of 128 longs per
 * step (the compiler adds them in parallel), then the tail; every byte is
 * really read.  Returns the sum.
 */
uint64_t file_sum(const void *buf, size_t size);

/* The options of the file tools, filled by file_parse(). */
struct file_opts {
	int clone;		/* -C: each worker reads its own copy */
	int random;		/* -r (lat_mmap) */
	int flag;		/* the tool's long option given */
};

/*
 * Parse a file tool's command line: the common options, then shortopts
 * (-C, -r) and, when flag is not NULL, the tool's one long option --flag
 * into o; exactly nargs operands must follow, else a usage error
 * ("missing ..." as missing says, or "too many arguments").  Returns the
 * index of the first.
 */
int file_parse(struct tool *t, int argc, char **argv, const char *shortopts,
    const char *flag, struct file_opts *o, int nargs, const char *missing);

/* -C: a directory for the workers' copies (tool_exit_tmpdir), else NULL. */
const char *file_clone_dir(struct tool *t, const struct file_opts *o);

struct file_bw_tool;

/* One worker's state in bw_file_rd and bw_mmap_rd. */
struct file_bw_state {
	const struct file_bw_tool *ft;	/* the tool's half */
	const char *file;	/* the file named on the command line */
	const char *dir;	/* -C: where the copies go, else NULL */
	char path[600];		/* the file this worker reads */
	uint64_t size;		/* bytes read per operation */
	int open2close;		/* the second mode: open and close each pass */
	int fd;
	void *mem;		/* the read buffer or the mapping */
	volatile uint64_t sink;
};

/* What bw_file_rd and bw_mmap_rd differ in. */
struct file_bw_tool {
	const char *name;
	const char *first_mode;	/* "io_only" or "mmap_only" */
	/*
	 * The worker's open, once its file (s->path) is known: set s->mem
	 * (and s->fd) for the first mode.  0 or -errno.
	 */
	int (*open)(struct file_bw_state *s);
	bm_fn benchmark;	/* cookie: file_bw_state */
	int mapped;		/* s->mem is a mapping of s->size, not malloc */
};

/*
 * The main of bw_file_rd and bw_mmap_rd: parse [-C] size mode file,
 * check the file, run the benchmark and print "MB MB/s".
 */
int file_bw_main(const struct file_bw_tool *ft, int argc, char **argv);

/*
 * One worker's file in lat_mmap and lat_pagefault; the first member of
 * their states, so that a bm_fn's cookie is also a file_pages.
 */
struct file_pages {
	const char *file;	/* the file named on the command line */
	const char *dir;	/* -C: where the copies go, else NULL */
	char path[600];		/* the file this worker maps */
	uint64_t size;		/* bytes mapped */
	int fd;
	size_t pagesize, npages;
	size_t *order;		/* page indexes in the order a pass reads */
	volatile char sink;
};

/*
 * Open the worker's file (its own copy with -C) with flags (O_RDONLY or
 * O_RDWR) into w->fd, -1 until then.  0 or -errno.
 */
int file_pages_open(struct file_pages *w, int flags);
/* One file_page_pass() over w's pages in w->order.  0 or -errno. */
int file_pages_pass(struct file_pages *w);
/* A bm_fn: n passes (cookie: a state whose first member is a file_pages). */
int file_pages_run(bm_iter_t n, void *cookie);
/* A bm_fn: close the file, free the order, remove the worker's copy. */
int file_pages_cleanup(bm_iter_t n, void *cookie);

/*
 * Why creating (deleting: delete nonzero) files in dir costs what the
 * last minute's deletions make it cost, or NULL: ext4 without a journal
 * skips, in each creation, the inodes of the group deleted in the last
 * minute (six while their block is not yet written back), so that a
 * loop of creations and deletions meets its own earlier deletions, and
 * another run other ones (Linux's fs/ext4/ialloc.c, recently_deleted());
 * the deletions then free the inodes where those creations put them.
 * The file system is taken for ext4 when /proc/fs/ext4/DEV exists, and
 * journalled when /proc/fs/jbd2/DEV-8 does, DEV the device of dir.
 */
const char *file_unsteady(const char *dir, int delete);

/* From this size of a pass on, file_pass_bound() bounds the waits. */
#define FILE_BIG_PASS ((uint64_t)1000 * 1000 * 1000)

/* Bound the waits of a run whose operation passes over bytes of a file. */
void file_pass_bound(struct tool *t, uint64_t bytes);

#endif /* BM_FILE_H */
