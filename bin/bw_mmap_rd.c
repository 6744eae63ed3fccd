/* bw_mmap_rd.c: the bandwidth of reading a mapped file, as lmbench's bw_mmap_rd. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/file.h"
#include "common/tool.h"

/* Map size bytes of the worker's file read-only, shared. */
static int
mrd_map(struct file_bw_state *s, void **out, int checked)
{
	void *m;
	int fd, rc;

	*out = NULL;
	/*
	 * In the timed open2close loop not file_open(), whose checks would
	 * be timed too: the file was checked when the worker started, and
	 * O_NONBLOCK keeps a FIFO swapped in since from blocking (mmap then
	 * refuses it).
	 */
	if (checked) {
		if ((fd = open(s->path, O_RDONLY | O_NONBLOCK |
		    O_CLOEXEC)) < 0)
			return -errno;
	} else if ((rc = file_open(s->path, O_RDONLY, &fd, NULL)) != 0)
		return rc;
	m = mmap(NULL, (size_t)s->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*out = m;
	return 0;
}

/* Check the file can be mapped and, for mmap_only, keep its mapping. */
static int
mrd_open(struct file_bw_state *s)
{
	void *m;
	int rc;

	if ((rc = mrd_map(s, &m, 0)) != 0)
		return rc;
	if (s->open2close)
		munmap(m, (size_t)s->size);
	else
		s->mem = m;
	return 0;
}

/*
 * n sums of the mapping (lmbench's mmap_only); open2close: each with its
 * open, mmap, munmap and close.
 */
static int
mrd_bench(bm_iter_t n, void *cookie)
{
	struct file_bw_state *s = cookie;
	void *m;
	int rc;

	while (n-- > 0) {
		if (!s->open2close) {
			s->sink = file_sum(s->mem, (size_t)s->size);
			continue;
		}
		if ((rc = mrd_map(s, &m, 1)) != 0)
			return rc;
		s->sink = file_sum(m, (size_t)s->size);
		munmap(m, (size_t)s->size);
	}
	return 0;
}

/* bw_mmap_rd's half of file_bw_main(): its buffer is the mapping. */
static const struct file_bw_tool mrd_tool = {
	.name = "bw_mmap_rd", .first_mode = "mmap_only",
	.open = mrd_open, .benchmark = mrd_bench, .mapped = 1
};

/* Measure and print. */
int
main(int argc, char **argv)
{
	return file_bw_main(&mrd_tool, argc, argv);
}
