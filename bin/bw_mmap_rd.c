/* bw_mmap_rd.c: the bandwidth of reading a mapped file, as lmbench's bw_mmap_rd. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "file.h"
#include "tool.h"

/* The largest size a user may ask for: 1 TB. */
#define MRD_MAX_SIZE (1ull << 40)

/* One worker's file and mapping. */
struct mrd_state {
	const char *file;
	const char *dir;	/* -C: where the copies go, else NULL */
	char path[600];
	uint64_t size;
	int open2close;
	void *map;
	volatile uint64_t sink;
};

/* Map size bytes of a file read-only. */
static int
mrd_map(struct mrd_state *s, void **out)
{
	void *m;
	int fd;

	if ((fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	m = mmap(NULL, (size_t)s->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*out = m;
	return 0;
}

/* The worker's copy (-C) and, for mmap_only, its mapping. */
static int
mrd_init(bm_iter_t n, void *cookie)
{
	struct mrd_state *s = cookie;
	int rc;

	(void)n;
	snprintf(s->path, sizeof s->path, "%s", s->file);
	if (s->dir != NULL && (rc = file_clone(s->file, s->dir,
	    bm_worker_index(bm_state_current()), s->size, s->path,
	    sizeof s->path)) != 0)
		return rc;
	return s->open2close ? 0 : mrd_map(s, &s->map);
}

/* n reads of the mapping (open2close: each with open, mmap and munmap). */
static int
mrd_bench(bm_iter_t n, void *cookie)
{
	struct mrd_state *s = cookie;
	void *m;
	int rc;

	while (n-- > 0) {
		if (!s->open2close) {
			s->sink = file_sum(s->map, (size_t)s->size);
			continue;
		}
		if ((rc = mrd_map(s, &m)) != 0)
			return rc;
		s->sink = file_sum(m, (size_t)s->size);
		munmap(m, (size_t)s->size);
	}
	return 0;
}

/* Unmap and remove the worker's copy. */
static int
mrd_cleanup(bm_iter_t n, void *cookie)
{
	struct mrd_state *s = cookie;

	(void)n;
	if (s->map != NULL)
		munmap(s->map, (size_t)s->size);
	s->map = NULL;
	if (s->dir != NULL)
		(void)unlink(s->path);
	return 0;
}

static int mrd_clone;

/* Take -C. */
static void
mrd_option(struct tool *t, int opt, const char *arg)
{
	(void)t;
	(void)opt;
	(void)arg;
	mrd_clone = 1;
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "bw_mmap_rd",
		.args = "[-C] size mmap_only|open2close file"
	};
	struct mrd_state s;
	bm_param params[2];
	bm_record rec;
	bm_bench b;
	bm_result r;
	char line[96];
	int first;

	memset(&s, 0, sizeof s);
	first = tool_parse(&t, argc, argv, "C", NULL, mrd_option);
	if (argc - first < 3)
		tool_usage_error(&t, "missing the size, the mode or the file");
	if (argc - first > 3)
		tool_usage_error(&t, "too many arguments");
	s.size = tool_size(&t, "size", argv[first], 1, MRD_MAX_SIZE);
	if (strcmp(argv[first + 1], "open2close") == 0)
		s.open2close = 1;
	else if (strcmp(argv[first + 1], "mmap_only") != 0)
		tool_usage_error(&t, "unknown mode '%s'", argv[first + 1]);
	s.file = argv[first + 2];
	tool_setup(&t);
	/*
	 * A mapping past the end of the file raises SIGBUS on the first
	 * read there: the size is checked before any worker maps it.
	 */
	(void)file_check(&t, s.file, s.size);
	file_pass_bound(&t, s.size);
	if (mrd_clone)
		s.dir = tool_tmpdir(&t);
	b.initialize = mrd_init;
	b.benchmark = mrd_bench;
	b.cleanup = mrd_cleanup;
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
