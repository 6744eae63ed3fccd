/* lmbench-mem.c: the pointer chains of lmbench's memory benchmarks (lmbench.h). */
#include "config.h"

#include "benchmp/lmbench.h"

/*
 * A chain is a cycle of pointers stored in the buffer itself: each load
 * gives the address of the next, so the loads cannot overlap and their
 * time is the memory's latency.  The initialisers lay it out (with n 0
 * only, as benchmp() also calls them before every interval with its n);
 * mem_benchmark_N follows N + 1 chains at once, 100 loads of each per
 * iteration, and goes on where the last call stopped.
 */
#define MEM_STEP(N) p##N = (char **)*p##N;
#define MEM_STEP10(N) MEM_STEP(N) MEM_STEP(N) MEM_STEP(N) MEM_STEP(N) \
	MEM_STEP(N) MEM_STEP(N) MEM_STEP(N) MEM_STEP(N) MEM_STEP(N) MEM_STEP(N)
#define MEM_DECL(N) char **p##N;
#define MEM_LOAD(N) p##N = (char **)(resume ? state->resume[N] : state->p[N]);
#define MEM_KEEP(N) state->resume[N] = (char *)p##N;
#define MEM_LOOP(N) MEM_STEP10(N) MEM_STEP10(N) MEM_STEP10(N) MEM_STEP10(N) \
	MEM_STEP10(N) MEM_STEP10(N) MEM_STEP10(N) MEM_STEP10(N) MEM_STEP10(N) \
	MEM_STEP10(N)
#define MEM_FN(N, REP)							\
void									\
mem_benchmark_##N(iter_t iterations, void *cookie)			\
{									\
	struct mem_state *state = cookie;				\
	int resume = state->resume_addr != NULL &&			\
	    state->resume_addr == state->addr;				\
	REP(MEM_DECL)							\
	REP(MEM_LOAD)							\
	while (iterations-- > 0) {					\
		REP(MEM_LOOP)						\
	}								\
	REP(MEM_KEEP)							\
	state->resume_addr = state->addr;				\
}

MEM_FN(0, REPEAT_0)
MEM_FN(1, REPEAT_1)
MEM_FN(2, REPEAT_2)
MEM_FN(3, REPEAT_3)
MEM_FN(4, REPEAT_4)
MEM_FN(5, REPEAT_5)
MEM_FN(6, REPEAT_6)
MEM_FN(7, REPEAT_7)
MEM_FN(8, REPEAT_8)
MEM_FN(9, REPEAT_9)
MEM_FN(10, REPEAT_10)
MEM_FN(11, REPEAT_11)
MEM_FN(12, REPEAT_12)
MEM_FN(13, REPEAT_13)
MEM_FN(14, REPEAT_14)
MEM_FN(15, REPEAT_15)

#define MEM_FN_NAME(N) mem_benchmark_##N,
benchmp_f mem_benchmarks[] = { REPEAT_15(MEM_FN_NAME) };

/* The next call of mem_benchmark_N starts from state->p again. */
static void
mem_restart(struct mem_state *state)
{
	state->resume_addr = NULL;
}

/*
 * 0..max-1 in bit-reversed order (those of the reversed values that are
 * under max), times scale: neighbours in the order are far apart, which
 * defeats a prefetcher and spreads a line's words.
 */
size_t *
words_initialize(size_t max, int scale)
{
	size_t *w, i, r, b, nbits = 0, k = 0;

	if (max == 0 || (w = malloc(max * sizeof(*w))) == NULL)
		return NULL;
	while (((size_t)1 << nbits) < max)
		nbits++;
	for (i = 0; k < max; i++) {
		for (r = 0, b = 0; b < nbits; b++)
			if (i & ((size_t)1 << b))
				r |= (size_t)1 << (nbits - 1 - b);
		if (r < max)
			w[k++] = r * (size_t)scale;
	}
	return w;
}

/*
 * Allocate maxlen bytes (page-aligned base) and the page order: the
 * common part of the initialisers.  initialized says whether it worked.
 */
static void
mem_base(struct mem_state *state)
{
	size_t nmpages;

	state->initialized = 0;
	state->addr = NULL;
	state->pages = state->lines = state->words = NULL;
	mem_restart(state);
	if (state->pagesize == 0)
		state->pagesize = (size_t)getpagesize();
	if (state->line == 0 || state->line > state->pagesize)
		state->line = sizeof(char *);
	state->nwords = state->line / sizeof(char *);
	state->nlines = state->pagesize / state->line;
	state->npages = (state->len + state->pagesize - 1) / state->pagesize;
	nmpages = (state->maxlen + state->pagesize - 1) / state->pagesize;
	if (nmpages < state->npages)
		nmpages = state->npages;
	srand((unsigned)getpid());
	state->pages = permutation((int)nmpages, (int)state->pagesize);
	state->addr = malloc(nmpages * state->pagesize + 2 * state->pagesize);
	if (state->addr == NULL || state->pages == NULL) {
		(void)fprintf(stderr, "cannot allocate %zu bytes for the "
		    "memory benchmark\n", state->maxlen);
		free(state->addr);
		free(state->pages);
		state->addr = NULL;
		state->pages = NULL;
		return;
	}
	state->base = state->addr + (state->pagesize -
	    (uintptr_t)state->addr % state->pagesize) % state->pagesize;
	state->initialized = 1;
}

/* A chain through len bytes with one pointer every line bytes, in order. */
void
stride_initialize(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;
	size_t i, stride;
	char *a;

	if (iterations != 0)
		return;
	mem_base(state);
	if (!state->initialized)
		return;
	a = state->base;
	stride = state->line;
	for (i = stride; i < state->len; i += stride)
		*(char **)&a[i - stride] = &a[i];
	*(char **)&a[i - stride] = a;
	state->p[0] = a;
}

/*
 * A chain that visits a different page at every load: the pages in a
 * random order, and on each pass over them another line of each page;
 * under a page, the lines alone in bit-reversed order.
 */
void
thrash_initialize(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;
	size_t i, j, nw, total, t;
	char *a, *prev = NULL, *first = NULL, *cur;

	if (iterations != 0)
		return;
	mem_base(state);
	if (!state->initialized)
		return;
	a = state->base;
	if (state->len < state->pagesize || state->len % state->pagesize) {
		nw = state->len / state->line;
		if (nw == 0)
			nw = 1;
		state->words = words_initialize(nw, (int)state->line);
		total = nw;
	} else {
		nw = state->pagesize / state->line;
		state->words = words_initialize(nw, (int)state->line);
		total = nw * state->npages;
	}
	if (state->words == NULL) {
		state->initialized = 0;
		return;
	}
	state->nwords = nw;
	for (t = 0; t < total; t++) {
		if (total == nw)
			cur = a + state->words[t];
		else {
			j = t / state->npages;	/* the pass */
			i = t % state->npages;	/* the page */
			cur = a + state->pages[i] + state->words[(i + j) % nw];
		}
		if (prev != NULL)
			*(char **)prev = cur;
		else
			first = cur;
		prev = cur;
	}
	*(char **)prev = first;
	state->p[0] = first;
}

/*
 * The chain of mem_initialize: the pages in a random order, the lines of
 * a page in bit-reversed order, len / line lines in all, once for each
 * word of a line (again in bit-reversed order), all joined in one cycle;
 * width pointers spread evenly along it.
 */
void
mem_initialize(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;
	size_t nptr, total, t, l, w, k;
	char *a, *prev = NULL, *first = NULL, *cur;

	if (iterations != 0)
		return;
	mem_base(state);
	if (!state->initialized)
		return;
	state->initialized = 0;
	state->words = words_initialize(state->nwords, sizeof(char *));
	state->lines = words_initialize(state->nlines, (int)state->line);
	nptr = state->len / state->line;
	if (state->words == NULL || state->lines == NULL || nptr == 0)
		return;
	if (state->width < 1)
		state->width = 1;
	if (state->width > MAX_MEM_PARALLELISM)
		state->width = MAX_MEM_PARALLELISM;
	a = state->base;
	total = state->nwords * nptr;
	for (t = 0; t < total; t++) {
		w = t / nptr;
		l = t % nptr;
		cur = a + state->pages[l / state->nlines] +
		    state->lines[l % state->nlines] + state->words[w];
		if (prev != NULL)
			*(char **)prev = cur;
		else
			first = cur;
		prev = cur;
		for (k = 0; k < (size_t)state->width; k++)
			if (t == k * (total / (size_t)state->width))
				state->p[k] = cur;
	}
	*(char **)prev = first;
	/* Once through, so that the first timed pass does not fault pages. */
	mem_benchmarks[state->width - 1]((total + 100) / 100, state);
	mem_restart(state);
	state->initialized = 1;
}

/*
 * A chain through the first word of every line of every page: the lines
 * of a page in bit-reversed order, then the next page (pages in a random
 * order).
 */
void
line_initialize(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;
	size_t i, j;
	char *a;

	if (iterations != 0)
		return;
	mem_base(state);
	if (!state->initialized)
		return;
	state->initialized = 0;
	state->width = 1;
	state->lines = words_initialize(state->nlines, (int)state->line);
	if (state->lines == NULL || state->npages == 0)
		return;
	a = state->base;
	for (i = 0; i < state->npages; i++) {
		for (j = 0; j + 1 < state->nlines; j++)
			*(char **)(a + state->pages[i] + state->lines[j]) =
			    a + state->pages[i] + state->lines[j + 1];
		*(char **)(a + state->pages[i] + state->lines[j]) = a +
		    state->pages[i + 1 < state->npages ? i + 1 : 0] +
		    state->lines[0];
	}
	state->p[0] = a + state->pages[0] + state->lines[0];
	mem_benchmark_0((state->nlines * state->npages + 100) / 100, state);
	mem_restart(state);
	state->initialized = 1;
}

/*
 * A chain with one pointer in each of len / pagesize pages, each page
 * allocated apart and visited in a random order (the first first), the
 * pointer at another word of each page: a TLB miss per load once there
 * are more pages than the TLB maps, while the words stay in the cache.
 * addr holds the pages' allocations, pages their page-aligned starts.
 */
void
tlb_initialize(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;
	size_t i, j, ps, np, nl, t;
	char **alloc, **pg, *x;

	if (iterations != 0)
		return;
	state->initialized = 0;
	mem_restart(state);
	if (state->pagesize == 0)
		state->pagesize = (size_t)getpagesize();
	ps = state->pagesize;
	np = state->len / ps;
	nl = ps / sizeof(char *);
	state->nwords = 1;
	state->nlines = nl;
	state->npages = np;
	state->words = NULL;
	state->lines = words_initialize(nl, sizeof(char *));
	alloc = calloc(np ? np : 1, sizeof(*alloc));
	pg = calloc(np ? np : 1, sizeof(*pg));
	state->addr = (char *)alloc;
	state->pages = (size_t *)pg;
	if (alloc == NULL || pg == NULL || state->lines == NULL || np == 0)
		return;
	for (i = 0; i < np; i++) {
		if (posix_memalign((void **)&alloc[i], ps, ps) != 0) {
			alloc[i] = NULL;
			return;
		}
		pg[i] = alloc[i];
	}
	srand((unsigned)getpid() ^ ((unsigned)getppid() << 7));
	for (i = np - 1; i > 1; i--) {
		j = 1 + (size_t)rand() % i;
		x = pg[i];
		pg[i] = pg[j];
		pg[j] = x;
	}
	for (t = 0; t + 1 < np; t++)
		*(char **)(pg[t] + state->lines[t % nl]) =
		    pg[t + 1] + state->lines[(t + 1) % nl];
	*(char **)(pg[t] + state->lines[t % nl]) = pg[0] + state->lines[0];
	state->p[0] = pg[0] + state->lines[0];
	mem_benchmark_0((np + 100) / 100, state);
	mem_restart(state);
	state->initialized = 1;
}

/* Free what the initialisers allocated (n 0 only). */
void
mem_cleanup(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;

	if (iterations != 0)
		return;
	free(state->addr);
	free(state->lines);
	free(state->pages);
	free(state->words);
	state->addr = NULL;
	state->lines = NULL;
	state->pages = NULL;
	state->words = NULL;
	mem_restart(state);
}

/* Free tlb_initialize's pages (n 0 only). */
void
tlb_cleanup(iter_t iterations, void *cookie)
{
	struct mem_state *state = cookie;
	char **alloc = (char **)state->addr;
	size_t i;

	if (iterations != 0)
		return;
	if (alloc != NULL)
		for (i = 0; i < state->npages; i++)
			free(alloc[i]);
	free(alloc);
	free(state->pages);
	free(state->lines);
	state->addr = NULL;
	state->pages = NULL;
	state->lines = NULL;
	mem_restart(state);
}

/* Link the last of the first k lines of each page to the next page. */
static void
mem_relink(struct mem_state *state, size_t k, size_t next)
{
	size_t i;
	char *a = state->base;

	for (i = 0; i < state->npages; i++)
		*(char **)(a + state->pages[i] + state->lines[k - 1]) = a +
		    state->pages[next ? i : (i + 1 < state->npages ? i + 1 :
		    0)] + state->lines[next ? k : 0];
}

/*
 * Nanoseconds per load over line_initialize()'s chain cut to one pointer
 * every line bytes: with the lines in bit-reversed order, the first
 * pagesize / line of them are those line bytes apart.  The median of
 * repetitions timings; the chain is mended afterwards.
 */
double
line_test(size_t line, int warmup, int repetitions, struct mem_state *state)
{
	size_t k = state->pagesize / line;
	result_t *r, *saved = get_results();
	char *p;
	double t;
	int i;

	(void)warmup;
	if (k == 0 || state->lines == NULL || state->npages == 0)
		return 0;
	if (repetitions < 1)
		repetitions = 1;
	if (k < state->nlines)
		mem_relink(state, k, 0);
	if ((r = malloc((size_t)sizeof_result(repetitions))) == NULL)
		return 0;
	insertinit(r);
	p = state->base + state->pages[0] + state->lines[0];
	for (i = 0; i < repetitions; i++) {
		BENCH1({ int lt_j; for (lt_j = 0; lt_j < 100; lt_j++)
		    p = *(char **)p; }, 0);
		insertsort(gettime(), get_n(), r);
	}
	use_pointer(p);
	set_results(r);
	t = gettime() > 0 ? 10.0 * (double)gettime() / (double)get_n() : 0;
	set_results(saved);
	free(r);
	if (k < state->nlines)
		mem_relink(state, k, 1);
	return t;
}

/* line_initialize() over len bytes, halving len while it cannot allocate. */
static int
mem_alloc_chain(size_t *len, struct mem_state *state,
    void (*init)(iter_t, void *))
{
	for (state->addr = NULL; state->addr == NULL && *len > 0;) {
		state->len = state->maxlen = *len;
		init(0, state);
		if (state->addr == NULL)
			*len >>= 1;
	}
	return state->addr != NULL && state->initialized ? 0 : -1;
}

/*
 * The cache line: the smallest stride at which the time per load, after
 * growing by more than 30% over the last smaller stride, stops growing
 * (within 15%).  0 when no such stride is seen.
 */
size_t
line_find(size_t len, int warmup, int repetitions, struct mem_state *state)
{
	size_t i, line = 0, maxline = (size_t)getpagesize() / 16;
	double t, baseline = 0;
	int jump = 0;

	state->width = 1;
	state->line = sizeof(char *);
	if (mem_alloc_chain(&len, state, line_initialize) != 0)
		return 0;
	for (i = sizeof(char *); i <= maxline; i <<= 1) {
		t = line_test(i, warmup, repetitions, state);
		if (t == 0)
			break;
		if (i > sizeof(char *)) {
			if (t > 1.3 * baseline)
				jump = 1;
			else if (jump && t < 1.15 * baseline) {
				line = i >> 1;
				break;
			}
		}
		baseline = t;
	}
	mem_cleanup(0, state);
	return line;
}

/*
 * Memory parallelism: the time per load of one chain over that of i + 1
 * chains followed at once (each starting in its own part of the buffer),
 * the most over 1..MAX_MEM_PARALLELISM chains; -1 when nothing could be
 * allocated.
 */
double
par_mem(size_t len, int warmup, int repetitions, struct mem_state *state)
{
	double baseline = 0, par, max_par = 1;
	size_t nl, lpp, chunk, ln, wd;
	int i, j;

	(void)warmup;
	(void)repetitions;
	state->width = 1;
	if (mem_alloc_chain(&len, state, mem_initialize) != 0)
		return -1;
	nl = len / state->line;
	lpp = state->pagesize / state->line;
	for (i = 0; i < MAX_MEM_PARALLELISM; i++) {
		chunk = nl / (size_t)(i + 1);
		for (j = 0; j <= i; j++) {
			ln = (size_t)j * chunk;
			wd = ((size_t)j * state->nwords) / (size_t)(i + 1);
			state->p[j] = state->base + state->pages[ln / lpp] +
			    state->lines[ln % lpp] +
			    state->words[wd % state->nwords];
		}
		mem_restart(state);
		mem_benchmarks[i]((len / sizeof(char *) + 100) / 100, state);
		BENCH({ mem_benchmarks[i](1, state); }, 0);
		if (i == 0)
			baseline = (double)gettime() / (double)get_n();
		else if (gettime() > 0) {
			par = baseline / ((double)gettime() /
			    (double)((uint64)(i + 1) * get_n()));
			if (par > max_par)
				max_par = par;
		}
	}
	mem_cleanup(0, state);
	return max_par;
}
