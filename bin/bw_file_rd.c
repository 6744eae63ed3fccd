/* bw_file_rd.c: the bandwidth of reading a file with read(), as lmbench's bw_file_rd. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "tool.h"

/* The read size, lmbench's XFERSIZE. */
#define FRD_CHUNK (64u * 1024)
/* The largest size a user may ask for: 1 TB. */
#define FRD_MAX_SIZE (1ull << 40)

/* One worker's file and buffer. */
struct frd_state {
	const char *file;
	const char *dir;	/* -C: where the copies go, else NULL */
	char path[600];		/* the file this worker reads */
	uint64_t size;
	int open2close;
	int fd;
	char *buf;
	volatile uint64_t sink;
};

/* Read size bytes from fd from its start, summing them. */
static int
frd_read(struct frd_state *s, int fd)
{
	uint64_t left = s->size, sum = 0;
	size_t want;
	ssize_t got;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -errno;
	while (left > 0) {
		want = left < FRD_CHUNK ? (size_t)left : FRD_CHUNK;
		if ((got = read(fd, s->buf, want)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The file shrank under us: never a silent short read. */
		if (got == 0)
			return -ENODATA;
		sum += file_sum(s->buf, (size_t)got);
		left -= (uint64_t)got;
	}
	s->sink = sum;
	return 0;
}

/* The worker's buffer, its copy of the file (-C), its descriptor. */
static int
frd_init(bm_iter_t n, void *cookie)
{
	struct frd_state *s = cookie;
	int rc;

	(void)n;
	s->fd = -1;
	if ((s->buf = malloc(FRD_CHUNK)) == NULL)
		return -ENOMEM;
	snprintf(s->path, sizeof s->path, "%s", s->file);
	if (s->dir != NULL && (rc = file_clone(s->file, s->dir,
	    bm_worker_index(bm_state_current()), s->size, s->path,
	    sizeof s->path)) != 0)
		return rc;
	if (!s->open2close &&
	    (s->fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	return 0;
}

/* n reads of the file. */
static int
frd_bench(bm_iter_t n, void *cookie)
{
	struct frd_state *s = cookie;
	int fd, rc;

	while (n-- > 0) {
		if (!s->open2close) {
			if ((rc = frd_read(s, s->fd)) != 0)
				return rc;
			continue;
		}
		if ((fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
			return -errno;
		rc = frd_read(s, fd);
		close(fd);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Close, free, and remove the worker's copy. */
static int
frd_cleanup(bm_iter_t n, void *cookie)
{
	struct frd_state *s = cookie;

	(void)n;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
	if (s->dir != NULL)
		(void)unlink(s->path);
	return 0;
}

static int frd_clone;

/* Take -C. */
static void
frd_option(struct tool *t, int opt, const char *arg)
{
	(void)t;
	(void)opt;
	(void)arg;
	frd_clone = 1;
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "bw_file_rd",
		.args = "[-C] size io_only|open2close file"
	};
	struct frd_state s;
	bm_param params[2];
	bm_record rec;
	bm_bench b;
	bm_result r;
	char line[96];
	int first;

	memset(&s, 0, sizeof s);
	first = tool_parse(&t, argc, argv, "C", NULL, frd_option);
	if (argc - first < 3)
		tool_usage_error(&t, "missing the size, the mode or the file");
	if (argc - first > 3)
		tool_usage_error(&t, "too many arguments");
	s.size = tool_size(&t, "size", argv[first], 1, FRD_MAX_SIZE);
	if (strcmp(argv[first + 1], "open2close") == 0)
		s.open2close = 1;
	else if (strcmp(argv[first + 1], "io_only") != 0)
		tool_usage_error(&t, "unknown mode '%s'", argv[first + 1]);
	s.file = argv[first + 2];
	tool_setup(&t);
	(void)file_check(&t, s.file, s.size);
	file_pass_bound(&t, s.size);
	if (frd_clone)
		s.dir = tool_tmpdir(&t);
	b.initialize = frd_init;
	b.benchmark = frd_bench;
	b.cleanup = frd_cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	params[0].key = "size";
	params[0].str = NULL;
	params[0].num = (double)s.size;
	params[1].key = "file";
	params[1].str = s.file;
	params[1].num = 0;
	tool_record_bw(&rec, &t, argv[first + 1], params, 2, &r,
	    (double)s.size);
	tool_aggregate(&t, &rec);
	snprintf(line, sizeof line, "%.2f %.2f\n", (double)s.size / 1e6,
	    rec.value);
	tool_report(&t, &rec, line);
	bm_result_free(&r);
	return tool_finish(&t);
}
