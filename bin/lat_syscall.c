/* lat_syscall.c: the latency of simple system calls, as lmbench's lat_syscall. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/tool.h"

/* One worker's state: the file and, once initialised, its descriptor. */
struct syscall_state {
	const char *file;
	int write;		/* open for writing (the write mode) */
	int fd;
};

/* getppid(): the cheapest call that always enters the kernel. */
static int
syscall_null(bm_iter_t n, void *cookie)
{
	(void)cookie;
	while (n-- > 0)
		(void)getppid();
	return 0;
}

/* Read one byte from /dev/zero. */
static int
syscall_read(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;
	char c;

	while (n-- > 0) {
		if (read(s->fd, &c, 1) != 1)
			return -errno;
	}
	return 0;
}

/* Write one byte to /dev/null. */
static int
syscall_write(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;
	char c = 0;

	while (n-- > 0) {
		if (write(s->fd, &c, 1) != 1)
			return -errno;
	}
	return 0;
}

/* stat() the file by name. */
static int
syscall_stat(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;
	struct stat st;

	while (n-- > 0) {
		if (stat(s->file, &st) != 0)
			return -errno;
	}
	return 0;
}

/* fstat() the open file. */
static int
syscall_fstat(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;
	struct stat st;

	while (n-- > 0) {
		if (fstat(s->fd, &st) != 0)
			return -errno;
	}
	return 0;
}

/* open() and close() the file. */
static int
syscall_open(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;
	int fd;

	/*
	 * O_NONBLOCK, which regular files and /dev/null ignore: a FIFO put
	 * in the file's place after the check must not block the open.
	 */
	while (n-- > 0) {
		if ((fd = open(s->file, O_RDONLY | O_NONBLOCK)) < 0)
			return -errno;
		close(fd);
	}
	return 0;
}

/* Open the worker's descriptor (each worker is its own process). */
static int
syscall_init(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;

	(void)n;
	if ((s->fd = open(s->file, (s->write ? O_WRONLY : O_RDONLY) |
	    O_NONBLOCK)) < 0)
		return -errno;
	return 0;
}

/*
 * Check the file that open and fstat use, without blocking: a regular
 * file, or a character device such as /dev/null (the default).  A FIFO
 * would block open() until a writer came; anything else is refused too.
 */
static void
syscall_check(struct tool *t, const struct syscall_state *s)
{
	struct stat st;
	int fd, err;

	if ((fd = open(s->file, (s->write ? O_WRONLY : O_RDONLY) |
	    O_NONBLOCK | O_CLOEXEC)) < 0)
		tool_exit_fail(t, "cannot open %s: %s", s->file,
		    strerror(errno));
	if (fstat(fd, &st) != 0) {
		err = errno;
		close(fd);
		tool_exit_fail(t, "cannot stat %s: %s", s->file, strerror(err));
	}
	close(fd);
	if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
		tool_exit_fail(t, "%s is not a regular file (nor a character "
		    "device)", s->file);
}

/* Close the worker's descriptor. */
static int
syscall_cleanup(bm_iter_t n, void *cookie)
{
	struct syscall_state *s = cookie;

	(void)n;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	return 0;
}

static const struct syscall_mode {
	const char *name;
	const char *label;
	bm_fn fn;
	int needs_fd;		/* open the file in each worker */
	const char *fixed_file;	/* the file this mode always uses */
} syscall_modes[] = {
	{ "null", "Simple syscall", syscall_null, 0, NULL },
	{ "read", "Simple read", syscall_read, 1, "/dev/zero" },
	{ "write", "Simple write", syscall_write, 1, "/dev/null" },
	{ "stat", "Simple stat", syscall_stat, 0, NULL },
	{ "fstat", "Simple fstat", syscall_fstat, 1, NULL },
	{ "open", "Simple open/close", syscall_open, 0, NULL },
};

/* Measure one system call and print its latency. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_syscall",
		.args = "null|read|write|stat|fstat|open [file]",
		.extra_usage = "\nThe file (default /dev/null) is used by "
		    "stat, fstat and open.\n"
	};
	struct syscall_state s = { "/dev/null", 0, -1 };
	const struct syscall_mode *m = NULL;
	struct stat st;
	bm_bench b;
	bm_result r;
	bm_param param;
	int first;

	m = tool_parse_mode(&t, argc, argv, &first, 2, "system call",
	    "missing the system call to measure", TOOL_TABLE(syscall_modes));
	if (first + 1 < argc) {
		if (m->fixed_file != NULL || m->fn == syscall_null)
			tool_exit_usage(&t, "%s takes no file", m->name);
		s.file = argv[first + 1];
	}
	if (m->fixed_file != NULL)
		s.file = m->fixed_file;
	s.write = m->fn == syscall_write;
	tool_setup(&t);

	/* Refuse a file we cannot use before any worker starts. */
	if (m->fn == syscall_stat && stat(s.file, &st) != 0)
		tool_exit_fail(&t, "cannot stat %s: %s", s.file,
		    strerror(errno));
	if (m->needs_fd || m->fn == syscall_open)
		syscall_check(&t, &s);

	b.initialize = m->needs_fd ? syscall_init : NULL;
	b.benchmark = m->fn;
	b.cleanup = m->needs_fd ? syscall_cleanup : NULL;
	b.cookie = &s;
	tool_run(&t, &b, &r);

	param = tool_record_param("file", s.file, 0);
	tool_report_us(&t, m->name, &param, m->fn == syscall_null ? 0 : 1, &r,
	    m->label);
	bm_result_free(&r);
	return tool_finish(&t);
}
