/* lat_mmap.c: the cost of mapping a file, touching its pages and unmapping it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "file.h"
#include "tool.h"

/* The largest size a user may ask for: 1 TB. */
#define MMAP_MAX_SIZE (1ull << 40)

/* One worker's file and the order it touches pages in. */
struct mmap_state {
	const char *file;
	const char *dir;	/* -C: where the copies go, else NULL */
	char path[600];
	uint64_t size;
	int random;
	int fd;
	size_t npages, pagesize;
	size_t *order;		/* page indexes, shuffled with -r */
	volatile char sink;
};

/* Open the worker's file and lay out the page order. */
static int
mmap_init(bm_iter_t n, void *cookie)
{
	struct mmap_state *s = cookie;
	size_t i, j, tmp;
	unsigned seed;
	int rc;

	(void)n;
	s->fd = -1;
	snprintf(s->path, sizeof s->path, "%s", s->file);
	if (s->dir != NULL && (rc = file_clone(s->file, s->dir,
	    bm_worker_index(bm_state_current()), s->size, s->path,
	    sizeof s->path)) != 0)
		return rc;
	if ((s->fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	s->pagesize = (size_t)sysconf(_SC_PAGESIZE);
	s->npages = (size_t)((s->size + s->pagesize - 1) / s->pagesize);
	if ((s->order = malloc(s->npages * sizeof *s->order)) == NULL)
		return -ENOMEM;
	for (i = 0; i < s->npages; i++)
		s->order[i] = i;
	seed = 1u + bm_worker_index(bm_state_current());
	for (i = s->npages; s->random && i > 1; i--) {
		j = (size_t)rand_r(&seed) % i;
		tmp = s->order[i - 1];
		s->order[i - 1] = s->order[j];
		s->order[j] = tmp;
	}
	return 0;
}

/* n times: map size bytes, read a byte of every page, unmap. */
static int
mmap_bench(bm_iter_t n, void *cookie)
{
	struct mmap_state *s = cookie;
	const char *m;
	size_t i;
	char c = 0;

	while (n-- > 0) {
		m = mmap(NULL, (size_t)s->size, PROT_READ, MAP_SHARED, s->fd,
		    0);
		if (m == MAP_FAILED)
			return -errno;
		for (i = 0; i < s->npages; i++)
			c ^= m[s->order[i] * s->pagesize];
		munmap((void *)m, (size_t)s->size);
	}
	s->sink = c;
	return 0;
}

/* Close, free, and remove the worker's copy. */
static int
mmap_cleanup(bm_iter_t n, void *cookie)
{
	struct mmap_state *s = cookie;

	(void)n;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->order);
	s->order = NULL;
	if (s->dir != NULL)
		(void)unlink(s->path);
	return 0;
}

static int mmap_random, mmap_clone;

/* Take -r and -C. */
static void
mmap_option(struct tool *t, int opt, const char *arg)
{
	(void)t;
	(void)arg;
	if (opt == 'r')
		mmap_random = 1;
	else
		mmap_clone = 1;
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_mmap", .args = "[-r] [-C] size file" };
	struct mmap_state s;
	bm_param params[2];
	bm_record rec;
	bm_bench b;
	bm_result r;
	char line[96];
	int first;

	memset(&s, 0, sizeof s);
	first = tool_parse(&t, argc, argv, "rC", NULL, mmap_option);
	if (argc - first < 2)
		tool_usage_error(&t, "missing the size or the file");
	if (argc - first > 2)
		tool_usage_error(&t, "too many arguments");
	s.size = tool_size(&t, "size", argv[first], 1, MMAP_MAX_SIZE);
	s.file = argv[first + 1];
	s.random = mmap_random;
	tool_setup(&t);
	(void)file_check(&t, s.file, s.size);
	if (mmap_clone)
		s.dir = tool_tmpdir(&t);
	b.initialize = mmap_init;
	b.benchmark = mmap_bench;
	b.cleanup = mmap_cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	params[0].key = "size";
	params[0].str = NULL;
	params[0].num = (double)s.size;
	params[1].key = "file";
	params[1].str = s.file;
	params[1].num = 0;
	memset(&rec, 0, sizeof rec);
	rec.tool = t.name;
	rec.case_name = s.random ? "random" : "sequential";
	rec.params = params;
	rec.nparams = 2;
	rec.metric = "latency";
	rec.unit = "us";
	rec.scale = 1e-3;
	rec.value = r.per_op_ns.median / 1000.0;
	rec.result = &r;
	tool_aggregate(&t, &rec);
	snprintf(line, sizeof line, "%.6f %.2f\n", (double)s.size / 1e6,
	    rec.value);
	tool_report(&t, &rec, line);
	bm_result_free(&r);
	return tool_finish(&t);
}
