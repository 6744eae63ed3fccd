/* lat_sig.c: signal handler installation, signal delivery and protection faults. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchmp/figures.h"
#include "common/file.h"
#include "common/tool.h"

/* One worker's state for the prot mode: a page it may only read. */
struct sig_state {
	const char *file;	/* mapped read-only, or NULL: anonymous */
	char *page;
	size_t len;
};

static volatile sig_atomic_t sig_caught;
static volatile bm_iter_t sig_faults_left;
static sigjmp_buf sig_jump;

/* The handler of the catch mode: count. */
static void
sig_count(int sig)
{
	(void)sig;
	sig_caught++;
}

/*
 * The handler of the prot mode, as lmbench's: return, so that the write
 * runs again and faults again, until the call's n faults are done; then
 * leave the write by siglongjmp() (once per call, restoring the mask).
 */
static void
sig_refault(int sig)
{
	(void)sig;
	if (--sig_faults_left == 0)
		siglongjmp(sig_jump, 1);
}

/* n installations of a handler for SIGUSR1. */
static int
sig_install(bm_iter_t n, void *cookie)
{
	struct sigaction sa, old;

	(void)cookie;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = sig_count;
	sigemptyset(&sa.sa_mask);
	while (n-- > 0) {
		if (sigaction(SIGUSR1, &sa, &old) != 0)
			return -errno;
	}
	return 0;
}

/*
 * n kill(self, 0) calls: the cost of kill() without a signal, which
 * lmbench takes off the catch figure.
 */
static int
sig_kill0(bm_iter_t n, void *cookie)
{
	pid_t me = getpid();

	(void)cookie;
	while (n-- > 0) {
		if (kill(me, 0) != 0)
			return -errno;
	}
	return 0;
}

/* Install the counting handler (catch mode, each worker). */
static int
sig_catch_init(bm_iter_t n, void *cookie)
{
	(void)n;
	(void)cookie;
	return tool_catch_signal(SIGUSR1, sig_count, 0);
}

/* n signals sent to ourselves and caught. */
static int
sig_catch(bm_iter_t n, void *cookie)
{
	pid_t me = getpid();
	sig_atomic_t before = sig_caught;
	bm_iter_t i;

	(void)cookie;
	for (i = 0; i < n; i++) {
		if (kill(me, SIGUSR1) != 0)
			return -errno;
	}
	/* A signal to oneself is delivered before kill() returns. */
	return (bm_iter_t)(sig_atomic_t)(sig_caught - before) ==
	    (bm_iter_t)(sig_atomic_t)n ? 0 : -EPROTO;
}

/* Map the page to fault on and install the SIGSEGV handler (prot mode). */
static int
sig_prot_init(bm_iter_t n, void *cookie)
{
	struct sig_state *s = cookie;
	int fd = -1, rc;
	void *m;

	(void)n;
	s->len = (size_t)sysconf(_SC_PAGESIZE);
	if (s->file != NULL && (rc = file_open(s->file, O_RDONLY, &fd,
	    NULL)) != 0)
		return rc;
	m = mmap(NULL, s->len, PROT_READ, fd >= 0 ? MAP_SHARED :
	    MAP_PRIVATE | MAP_ANONYMOUS, fd, 0);
	if (fd >= 0)
		close(fd);
	if (m == MAP_FAILED)
		return -errno;
	s->page = m;
	if ((rc = tool_catch_signal(SIGSEGV, sig_refault, 0)) != 0)
		return rc;
	return tool_catch_signal(SIGBUS, sig_refault, 0);
}

/*
 * n protection faults: one write to the read-only page, which the handler
 * lets fault again n times (sig_refault).  Each fault costs the trap, the
 * signal's delivery, the handler and its sigreturn, as in lmbench.
 */
static int
sig_prot(bm_iter_t n, void *cookie)
{
	struct sig_state *s = cookie;

	if (n == 0)
		return 0;
	sig_faults_left = n;
	/* Save the mask: SIGSEGV is blocked in the handler that leaves. */
	if (sigsetjmp(sig_jump, 1) == 0) {
		*(volatile char *)s->page = 1;
		/* Reached only if the write did not fault. */
		return -EPROTO;
	}
	return 0;
}

/* Unmap the page and restore SIGSEGV (prot mode). */
static int
sig_prot_cleanup(bm_iter_t n, void *cookie)
{
	struct sig_state *s = cookie;

	(void)n;
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	if (s->page != NULL)
		munmap(s->page, s->len);
	s->page = NULL;
	return 0;
}

static const struct sig_mode {
	const char *name;
	const char *label;
	bm_fn init, fn, cleanup;
} sig_modes[] = {
	{ "install", "Signal handler installation", NULL, sig_install, NULL },
	{ "catch", "Signal handler overhead", sig_catch_init, sig_catch,
	    NULL },
	{ "prot", "Protection fault", sig_prot_init, sig_prot,
	    sig_prot_cleanup },
};

/* The warmup of the runs after the first (lmbench's parts are short). */
#define SIG_NEXT_WARMUP_US 10000
/* How many times catch and prot measure all when a part is too dear. */
#define SIG_TRIES 3

/*
 * Run one part of the figure measured apart: its best process's median
 * in ns.  Load only ever adds time, so the least of the processes is the
 * part's cost with the least load in it: taken off the whole's median, a
 * burst of load in the part's run cannot swallow the figure (with the
 * parts' medians it did, about once a run at a load average of 20-50).
 */
static double
sig_part_ns(struct tool *t, bm_fn init, bm_fn fn, void *cookie)
{
	bm_bench b;
	bm_result r;
	double ns;

	b.initialize = init;
	b.benchmark = fn;
	b.cleanup = NULL;
	b.cookie = cookie;
	tool_run(t, &b, &r);
	tool_later_warmup(t, SIG_NEXT_WARMUP_US);
	ns = r.per_op_ns.min;
	bm_result_free(&r);
	return ns;
}

/*
 * What the mode takes off its whole: kill(self, 0) for catch, the
 * handler (catch less kill_ns) for prot, nothing for install.
 */
static double
sig_offset_ns(const struct sig_mode *m, double kill_ns, double handler_ns)
{
	return m->fn == sig_catch ? kill_ns : m->fn == sig_prot ?
	    handler_ns : 0;
}

/*
 * Print the mode's figure less its parts measured apart (kill_ns:
 * kill(self, 0); handler_ns: catch less kill_ns), which the record
 * carries beside the whole.
 */
static void
sig_report(struct tool *t, const struct sig_mode *m, const char *file,
    const bm_result *r, double kill_ns, double handler_ns)
{
	double offset_ns = sig_offset_ns(m, kill_ns, handler_ns);
	bm_param params[4];
	size_t np = 0, nm = 0;
	bm_record rec;
	char prefix[256];
	int rc;

	/* On a loaded machine the parts can come out dearer than the whole. */
	if (m->fn != sig_install && r->per_op_ns.median <= offset_ns)
		tool_exit_fail(t, "the parts measured apart (%.4f us) took as "
		    "long as the whole (%.4f us): no figure", offset_ns / 1000,
		    r->per_op_ns.median / 1000);
	if ((rc = bm_record_latency_per(&rec, t->name, m->name, "us", r, 1,
	    offset_ns)) != 0)
		tool_exit_lib(t, rc, "building the record");
	if (file != NULL)
		params[np++] = tool_record_param("file", file, 0);
	if (m->fn != sig_install) {
		params[np + nm++] = tool_record_param("whole_us", NULL,
		    r->per_op_ns.median / 1000);
		params[np + nm++] = tool_record_param("kill0_us", NULL,
		    kill_ns / 1000);
	}
	if (m->fn == sig_prot)
		params[np + nm++] = tool_record_param("handler_us", NULL,
		    handler_ns / 1000);
	rec.params = params;
	rec.nparams = np;
	rec.measured = params + np;
	rec.nmeasured = nm;
	snprintf(prefix, sizeof prefix, "%s: ", m->label);
	tool_report_value(t, &rec, prefix, 4, " microseconds");
}

/*
 * Served, the mode's parts and its whole as one group (tool_run_group; in
 * an A/B's arm the library serves them one after another, as a group is
 * not paired): each sweep visits all of them, so that the parts taken
 * off the whole are measured across the same stretch of the run.
 * One after another, as a run by hand measures them, the parts took the
 * first visits of a suite and the whole the rest: in the suite on a
 * 2-vCPU Intel Xeon KVM guest (2026-12-06) catch got 7-10 visits and prot
 * 5-7, where a figure alone got 15-21, and the two moved by up to 41% and
 * 90% from run to run (doc/measurements.md, section "2026-12-06, from
 * 10:45 UTC: a figure and its parts visited together").
 */
static void
sig_measure_group(struct tool *t, const struct sig_mode *m, bm_bench *whole,
    struct sig_state *s, bm_result *r, double *kill_ns, double *handler_ns)
{
	bm_bench g[3];
	/* Static, off a stack that a user may limit to 32 KB. */
	static bm_result gr[3];
	size_t i, n = 0;

	memset(g, 0, sizeof g);
	g[n].benchmark = sig_kill0;
	g[n++].cookie = s;
	if (m->fn == sig_prot) {
		g[n].initialize = sig_catch_init;
		g[n].benchmark = sig_catch;
		g[n++].cookie = s;
	}
	g[n++] = *whole;
	tool_run_group(t, g, n, gr);
	/* Each part's least visit, as sig_part_ns takes its least process. */
	*kill_ns = gr[0].per_op_ns.min;
	if (m->fn == sig_prot)
		*handler_ns = gr[1].per_op_ns.min - *kill_ns;
	*r = gr[n - 1];
	for (i = 0; i + 1 < n; i++)
		bm_result_free(&gr[i]);
}

/*
 * Measure the mode into r and its parts (kill_ns, handler_ns; none for
 * install): the parts first, one after another, as lmbench does; served,
 * all as one group (sig_measure_group).
 */
static void
sig_measure(struct tool *t, const struct sig_mode *m, bm_bench *whole,
    struct sig_state *s, bm_result *r, double *kill_ns, double *handler_ns)
{
	if (m->fn != sig_install && tool_served_inside()) {
		sig_measure_group(t, m, whole, s, r, kill_ns, handler_ns);
		return;
	}
	if (m->fn != sig_install)
		*kill_ns = sig_part_ns(t, NULL, sig_kill0, s);
	if (m->fn == sig_prot)
		*handler_ns = sig_part_ns(t, sig_catch_init, sig_catch, s) -
		    *kill_ns;
	tool_run(t, whole, r);
}

/*
 * --served: catch measures kill(self, 0) first, a part; prot that and
 * catch's handler, two parts (ops: the mode and its file).  Served
 * outside an A/B they are one group with the figure, which the
 * scheduler visits together whatever these say.
 */
static unsigned
sig_served_figures(const struct tool *t, char *const *ops, int nops,
    const void *cookie, unsigned *parts)
{
	(void)t;
	(void)cookie;
	*parts = 0;
	if (nops > 0 && strcmp(ops[0], "catch") == 0)
		*parts = 1;
	else if (nops > 0 && strcmp(ops[0], "prot") == 0)
		*parts = 2;
	return 1 + *parts;
}

int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_sig",
		.served_figures = sig_served_figures,
		.args = "install|catch|prot [file]",
		.extra_usage = "\nprot maps the file (read-only, never written) "
		    "or, without one, an anonymous page.\n"
	};
	const struct sig_mode *m = NULL;
	struct sig_state s;
	bm_bench b;
	bm_result r;
	double kill_ns = 0, handler_ns = 0;
	int first, try;

	memset(&s, 0, sizeof s);
	m = tool_parse_mode(&t, argc, argv, &first, 2, NULL, NULL,
	    TOOL_TABLE(sig_modes));
	if (first + 1 < argc) {
		if (m->fn != sig_prot)
			tool_exit_usage(&t, "%s takes no file", m->name);
		s.file = argv[first + 1];
	}
	if (t.opts.percentiles > 0 && m->fn == sig_prot)
		tool_exit_usage(&t, "--percentiles does not apply to prot");
	tool_setup(&t);
	/*
	 * The page mapped is the file's first: a FIFO, a device or an empty
	 * file has none to fault on (and a FIFO would block the open).
	 */
	if (s.file != NULL && file_check(&t, s.file, O_RDONLY, 0) == 0)
		tool_exit_fail(&t, "%s is empty: nothing to map", s.file);
	/*
	 * lmbench's definitions, found from its behaviour: catch is the
	 * signal less a kill(self, 0); prot is the fault less catch's
	 * figure (the delivery, handler and return that both pay).  The
	 * parts run first, in lmbench's order.
	 */
	b.initialize = m->init;
	b.benchmark = m->fn;
	b.cleanup = m->cleanup;
	b.cookie = &s;
	/*
	 * A burst of load can make a part, timed apart, as dear as the
	 * whole: measure all again, up to SIG_TRIES times in all.  Not in
	 * an A/B's arm (tool_served_arm): a try more in one arm served a
	 * fourth figure, which the scheduler ended before its first visit,
	 * a failure.
	 */
	for (try = 1;; try++) {
		sig_measure(&t, m, &b, &s, &r, &kill_ns, &handler_ns);
		if (try == SIG_TRIES || tool_served_arm() ||
		    r.per_op_ns.median >
		    sig_offset_ns(m, kill_ns, handler_ns))
			break;
		bm_result_free(&r);
	}
	sig_report(&t, m, s.file, &r, kill_ns, handler_ns);
	bm_result_free(&r);
	return tool_finish(&t);
}
