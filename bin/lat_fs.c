/* lat_fs.c: file creations and deletions per second, as lmbench's lat_fs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/settings.h"
#include "benchmp/stats.h"
#include "benchmp/worker.h"
#include "common/file.h"
#include "common/progress.h"
#include "common/tool.h"

/* Limits on what a user may ask for. */
#define FS_MAX_FILES 1000000u
#define FS_MAX_SIZE (1ull << 30)
#define FS_DEFAULT_FILES 1000u
/* Cycles each worker keeps per round (the latest ones). */
#define FS_CAP 64
/* Intervals (cycles) per worker and round unless -N is given. */
#define FS_REPETITIONS 3
/* Rounds of fresh workers the shared memory has room for. */
#define FS_ROUNDS BM_MAX_PROCESSES

/*
 * One operation of the engine is a cycle: create the files, then delete
 * them.  The engine cannot time the two halves apart, so the worker times
 * each half itself and leaves the times in memory the parent shares; the
 * figures are the medians of those halves.
 */
struct fs_cycle {
	double create_ns, delete_ns;
};

struct fs_shared {
	unsigned rounds;		/* workers started in this slot */
	unsigned count[FS_ROUNDS];	/* cycles done, of which FS_CAP kept */
	struct fs_cycle cycles[FS_ROUNDS][FS_CAP];
};

struct fs_state {
	const char *dir;	/* the private directory */
	char wdir[600];		/* this worker's directory */
	uint64_t size;
	unsigned files;
	char *buf;
	struct fs_shared *shared;	/* one per worker */
	unsigned worker;
	unsigned round;		/* which round of fresh workers this is */
	const char *unsteady[2];	/* why creations, deletions move between runs */
};

/* Nanoseconds now. */
static double
fs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The worker's directory and its data buffer. */
static int
fs_init(bm_iter_t n, void *cookie)
{
	struct fs_state *s = cookie;

	(void)n;
	s->worker = bm_worker_index(bm_state_current());
	/* Rounds run one after the other: this worker's slot is its own. */
	s->round = s->shared[s->worker].rounds++;
	if (s->round >= FS_ROUNDS)
		return -ERANGE;
	/*
	 * Named by the worker's process too (as file_clone's copies): served,
	 * the engine kills a worker set mid-warmup to start one with fewer
	 * intervals, whose cleanup never runs, and the next worker of that
	 * index found wN there and failed (EEXIST).  The private directory
	 * is removed with what it holds; a name reused with a pid is ours.
	 */
	snprintf(s->wdir, sizeof s->wdir, "%s/w%u.%ld", s->dir, s->worker,
	    (long)getpid());
	if (mkdir(s->wdir, 0700) != 0 && errno != EEXIST)
		return -errno;
	if ((s->buf = calloc(1, s->size > 0 ? (size_t)s->size : 1)) == NULL)
		return -ENOMEM;
	return 0;
}

/* Create (write size bytes) or delete file i of the worker. */
static int
fs_file(struct fs_state *s, unsigned i, int create)
{
	char path[700];
	int fd, rc;

	snprintf(path, sizeof path, "%s/%u", s->wdir, i);
	if (!create)
		return unlink(path) == 0 ? 0 : -errno;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) < 0)
		return -errno;
	if (s->size > 0 &&
	    (rc = file_write_full(fd, s->buf, (size_t)s->size)) != 0) {
		close(fd);
		return rc;
	}
	return close(fd) == 0 ? 0 : -errno;
}

/* n cycles of creating then deleting the files, each half timed. */
static int
fs_bench(bm_iter_t n, void *cookie)
{
	struct fs_state *s = cookie;
	struct fs_shared *sh = &s->shared[s->worker];
	struct fs_cycle *c;
	double t0, t1, t2;
	unsigned i;
	int rc;

	while (n-- > 0) {
		t0 = fs_now();
		for (i = 0; i < s->files; i++) {
			if ((rc = fs_file(s, i, 1)) != 0)
				return rc;
		}
		t1 = fs_now();
		for (i = 0; i < s->files; i++) {
			if ((rc = fs_file(s, i, 0)) != 0)
				return rc;
		}
		t2 = fs_now();
		c = &sh->cycles[s->round][sh->count[s->round] % FS_CAP];
		c->create_ns = t1 - t0;
		c->delete_ns = t2 - t1;
		sh->count[s->round]++;
	}
	return 0;
}

/* Remove what an interrupted cycle left, and the worker's directory. */
static int
fs_cleanup(bm_iter_t n, void *cookie)
{
	struct fs_state *s = cookie;
	unsigned i;

	(void)n;
	for (i = 0; i < s->files; i++)
		(void)fs_file(s, i, 0);
	(void)rmdir(s->wdir);
	free(s->buf);
	s->buf = NULL;
	return 0;
}

/* Forget the cycles of the last run (the counts; cycles are overwritten). */
static void
fs_reset(struct fs_state *s, unsigned parallel)
{
	unsigned w;

	for (w = 0; w < parallel; w++) {
		s->shared[w].rounds = 0;
		memset(s->shared[w].count, 0, sizeof s->shared[w].count);
	}
}

/*
 * Replace the engine's cycle samples with one half's, per file, each
 * tagged with its round, and report files per second for that half: the
 * statistics are the engine's, over the rounds of fresh workers.
 */
static double
fs_half(const struct fs_state *s, unsigned parallel, bm_result *r,
    int deletes)
{
	const struct fs_shared *sh;
	unsigned *round, w, i, p, kept, np = s->shared[0].rounds;
	double *x, *med;
	size_t k = 0, cap;
	int rc;

	if (np == 0 || np > FS_ROUNDS)
		return -1;
	cap = (size_t)np * parallel * FS_CAP;
	x = malloc(cap * sizeof *x);
	round = malloc(cap * sizeof *round);
	med = malloc(np * sizeof *med);
	r->samples = calloc(cap, sizeof *r->samples);
	if (x == NULL || round == NULL || med == NULL || r->samples == NULL) {
		free(x);
		free(round);
		free(med);
		return -1;
	}
	for (p = 0; p < np; p++) {
		for (w = 0; w < parallel; w++) {
			sh = &s->shared[w];
			kept = sh->count[p] < FS_CAP ? sh->count[p] : FS_CAP;
			for (i = 0; i < kept; i++, k++) {
				r->samples[k].ns = deletes ?
				    sh->cycles[p][i].delete_ns :
				    sh->cycles[p][i].create_ns;
				r->samples[k].n = s->files;
				r->samples[k].worker = w;
				r->samples[k].process = p;
				r->samples[k].cycles = r->cycles_per_op;
				x[k] = r->samples[k].ns / s->files;
				round[k] = p;
			}
		}
	}
	r->nsamples = k;
	r->processes = np;
	rc = k == 0 ? -1 : bm_stats_levels(x, round, k, np, &r->per_op_ns,
	    &r->within, med);
	free(x);
	free(round);
	free(med);
	if (rc != 0)
		return -1;
	r->ops_per_s = parallel * 1e9 / r->per_op_ns.median;
	return r->ops_per_s;
}

/* -s and -n. */
struct fs_opts {
	uint64_t sizes[16];	/* -s, in order */
	unsigned nsizes;
	unsigned files;		/* -n */
};

/* Take -s size and -n files into the fs_opts cookie. */
static void
fs_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct fs_opts *o = cookie;

	if (opt == 'n') {
		o->files = (unsigned)tool_uint(t, "-n", arg, 1, FS_MAX_FILES);
		return;
	}
	if (o->nsizes == sizeof o->sizes / sizeof o->sizes[0])
		tool_exit_usage(t, "too many -s sizes");
	o->sizes[o->nsizes++] = tool_size(t, "-s", arg, 0, FS_MAX_SIZE);
}

/* The sizes measured without -s, and how many. */
static const uint64_t fs_default_sizes[] = { 0, 1024, 4096, 10240 };
#define FS_NDEFAULT_SIZES \
	((unsigned)(sizeof fs_default_sizes / sizeof fs_default_sizes[0]))

/* --served: each size's creations and deletions, one size after another. */
static unsigned
fs_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	const struct fs_opts *o = cookie;

	(void)t;
	(void)ops;
	(void)nops;
	*parts = 0;
	return o->nsizes > 0 ? o->nsizes : FS_NDEFAULT_SIZES;
}

/* Parse and check the command line into o; the directory's index, or argc. */
static int
fs_parse(struct tool *t, int argc, char **argv, struct fs_opts *o)
{
	int first;

	first = tool_parse(t, argc, argv, "s:n:", NULL, fs_option, o);
	if (first + 1 < argc)
		tool_exit_usage(t, "too many arguments");
	if (o->nsizes == 0) {
		memcpy(o->sizes, fs_default_sizes, sizeof fs_default_sizes);
		o->nsizes = FS_NDEFAULT_SIZES;
	}
	if (t->opts.percentiles > 0)
		tool_exit_usage(t, "--percentiles does not apply to lat_fs");
	/*
	 * A cycle over 500 files takes a tenth of a second or more: three
	 * per round of fresh workers, unless -N says otherwise, keeps five
	 * rounds near the time eleven intervals of one process took.
	 */
	if (!t->reps_given)
		t->opts.repetitions = FS_REPETITIONS;
	return first;
}

/* Make the private directory in dir (or $TMPDIR) and the workers' shared counts. */
static size_t
fs_prepare(struct tool *t, struct fs_state *s, const char *dir)
{
	size_t shlen;
	void *m;

	/* The private directory goes in the directory to measure. */
	if (dir != NULL && setenv("TMPDIR", dir, 1) != 0)
		tool_exit_fail(t, "cannot use %s: %s", dir, strerror(errno));
	s->dir = tool_exit_tmpdir(t);
	shlen = (size_t)t->opts.parallel * sizeof *s->shared;
	m = mmap(NULL, shlen, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		tool_exit_fail(t, "cannot map %zu bytes: %s", shlen,
		    strerror(errno));
	s->shared = m;
	return shlen;
}

/* What lat_fs's line shows beside the delete rate. */
struct fs_shown {
	uint64_t size;
	unsigned files;
	double create;		/* the aggregated create rate */
};

/* No line: the create rate's record waits for the delete rate's. */
static void
fs_no_line(const bm_record *rec, const void *cookie, char *line, size_t len)
{
	(void)rec;
	(void)cookie;
	(void)len;
	line[0] = '\0';
}

/* Format lat_fs's line from the aggregated rates: size, files, create, delete. */
static void
fs_line(const bm_record *rec, const void *cookie, char *line, size_t len)
{
	const struct fs_shown *l = cookie;

	snprintf(line, len, "%juk\t%u\t%.0f\t%.0f\n",
	    (uintmax_t)(l->size / 1024), l->files, l->create, rec->value);
}

/* Report the create and delete rates of run r of s's size (dir: NULL if not named). */
static void
fs_report(struct tool *t, struct fs_state *s, bm_result *r, const char *dir,
    const char *dirarg)
{
	bm_param params[3];
	bm_record rec;
	struct fs_shown l = { s->size, s->files, 0 };
	double rate;
	unsigned half;
	int rc;

	params[0] = (bm_param){ .key = "size", .num = (double)s->size };
	params[1] = (bm_param){ .key = "files", .num = s->files };
	params[2] = (bm_param){ .key = "dir", .str = dirarg };
	for (half = 0; half < 2; half++) {
		free(r->samples);
		r->samples = NULL;
		if ((rate = fs_half(s, t->opts.parallel, r, (int)half)) < 0)
			tool_exit_fail(t, "cannot summarise the run");
		/* A sample is the time per file of one cycle. */
		if ((rc = bm_record_rate(&rec, t->name, half ? "delete" :
		    "create", "files/s", r, 1)) != 0)
			tool_exit_lib(t, rc, "building the record");
		/* The rate of all workers' files over their time. */
		rec.value = rate;
		rec.params = params;
		rec.nparams = dir != NULL ? 3 : 2;
		(void)bm_record_unsteady(&rec, s->unsteady[half]);
		/*
		 * The line shows both rates as aggregated across MPI ranks
		 * (their sum): it is printed with the delete rate's record.
		 */
		tool_report_line(t, &rec, half ? fs_line : fs_no_line, &l);
		l.create = rec.value;
	}
}

/* Measure each size and print one line for it. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_fs",
		.args = "[-s size]... [-n files] [dir]",
		.served_figures = fs_served_figures
	};
	struct fs_opts o = { .nsizes = 0, .files = FS_DEFAULT_FILES };
	struct fs_state state, *s = &state;
	bm_result r;
	bm_bench b;
	struct progress prog;
	const char *dir;
	char sz[32];
	size_t shlen;
	unsigned i;
	int first;

	first = fs_parse(&t, argc, argv, &o);
	dir = first < argc ? argv[first] : NULL;
	memset(&state, 0, sizeof state);
	s->files = o.files;
	tool_setup(&t);
	shlen = fs_prepare(&t, s, dir);
	s->unsteady[0] = file_unsteady(s->dir, 0);
	s->unsteady[1] = file_unsteady(s->dir, 1);
	b.initialize = fs_init;
	b.benchmark = fs_bench;
	b.cleanup = fs_cleanup;
	b.cookie = s;
	progress_start(&prog, &t);
	for (i = 0; i < o.nsizes; i++) {
		s->size = o.sizes[i];
		fs_reset(s, t.opts.parallel);
		progress_show(&prog, "%u files of %s (%u/%u)", s->files,
		    progress_size(sz, sizeof sz, (double)s->size), i + 1,
		    o.nsizes);
		tool_run(&t, &b, &r);
		progress_clear(&prog);
		fs_report(&t, s, &r, dir, argv[first < argc ? first : 0]);
		bm_result_free(&r);
	}
	munmap(s->shared, shlen);
	return tool_finish(&t);
}
