/* bw_file_rd.c: the bandwidth of reading a file with read(), as lmbench's bw_file_rd. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/file.h"
#include "common/tool.h"

/* The read size and the buffer's, lmbench's XFERSIZE. */
#define FRD_CHUNK (64u * 1024)

/*
 * Read size bytes from fd from its start into one 64 KiB buffer, summing
 * each chunk as it comes: lmbench's definition of io_only.
 */
static int
frd_read(struct file_bw_state *s, int fd)
{
	uint64_t left = s->size, sum = 0;
	size_t want;
	ssize_t got;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -errno;
	while (left > 0) {
		want = left < FRD_CHUNK ? (size_t)left : FRD_CHUNK;
		if ((got = read(fd, s->mem, want)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The file shrank under us: never a silent short read. */
		if (got == 0)
			return -ENODATA;
		sum += file_sum(s->mem, (size_t)got);
		left -= (uint64_t)got;
	}
	s->sink = sum;
	return 0;
}

/* The worker's buffer and, for io_only, its descriptor. */
static int
frd_open(struct file_bw_state *s)
{
	if ((s->mem = malloc(FRD_CHUNK)) == NULL)
		return -ENOMEM;
	return s->open2close ? 0 : file_open(s->path, O_RDONLY, &s->fd, NULL);
}

/* n reads of the file (open2close: each with its open and close). */
static int
frd_bench(bm_iter_t n, void *cookie)
{
	struct file_bw_state *s = cookie;
	int fd, rc;

	while (n-- > 0) {
		if (!s->open2close) {
			if ((rc = frd_read(s, s->fd)) != 0)
				return rc;
			continue;
		}
		/*
		 * Not file_open(): its checks would be timed too.  The file
		 * was checked when the worker started; O_NONBLOCK, which
		 * reads of a regular file ignore, keeps a FIFO swapped in
		 * since then from blocking the open.
		 */
		if ((fd = open(s->path, O_RDONLY | O_NONBLOCK |
		    O_CLOEXEC)) < 0)
			return -errno;
		rc = frd_read(s, fd);
		close(fd);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* bw_file_rd's half of file_bw_main(). */
static const struct file_bw_tool frd_tool = {
	.name = "bw_file_rd", .first_mode = "io_only",
	.open = frd_open, .benchmark = frd_bench
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return file_bw_main(&frd_tool, argc, argv);
}
