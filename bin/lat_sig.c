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

#include "common/file.h"
#include "common/tool.h"

/* One worker's state for the prot mode: a page it may only read. */
struct sig_state {
	const char *file;	/* mapped read-only, or NULL: anonymous */
	char *page;
	size_t len;
};

static volatile sig_atomic_t sig_caught;
static sigjmp_buf sig_jump;

/* The handler of the catch mode: count. */
static void
sig_count(int sig)
{
	(void)sig;
	sig_caught++;
}

/* The handler of the prot mode: leave the faulting write. */
static void
sig_leave(int sig)
{
	(void)sig;
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
	/*
	 * SA_NODEFER: the handler leaves by siglongjmp() without restoring
	 * the mask (a sigprocmask call per fault would be measured too), so
	 * SIGSEGV must not stay blocked after the first fault.
	 */
	if ((rc = tool_catch_signal(SIGSEGV, sig_leave, SA_NODEFER)) != 0)
		return rc;
	return tool_catch_signal(SIGBUS, sig_leave, SA_NODEFER);
}

/* n writes to the read-only page, each a protection fault. */
static int
sig_prot(bm_iter_t n, void *cookie)
{
	struct sig_state *s = cookie;
	volatile bm_iter_t left = n;

	sigsetjmp(sig_jump, 0);
	while (left > 0) {
		left--;
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

/* Measure one mode and print. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_sig",
		.args = "install|catch|prot [file]",
		.extra_usage = "\nprot maps the file (read-only, never written) "
		    "or, without one, an anonymous page.\n"
	};
	const struct sig_mode *m = NULL;
	struct sig_state s;
	bm_param param;
	bm_bench b;
	bm_result r;
	int first;

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
	b.initialize = m->init;
	b.benchmark = m->fn;
	b.cleanup = m->cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	param = tool_record_param("file", s.file, 0);
	tool_report_us(&t, m->name, &param, s.file != NULL, &r, m->label);
	bm_result_free(&r);
	return tool_finish(&t);
}
