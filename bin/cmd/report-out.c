/* report-out.c: benchmp report's page written whole: through a device or FIFO, else a new file renamed over the output. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/* The name of the copy beside the output, mkstemp's X's last. */
#define OUT_PART	"/.benchmp-report.XXXXXX"

/* The folder of path (".", or path up to its last slash) into buf; 0, or -1 when too long. */
static int
out_dir(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash == NULL || slash == path ? 1 :
	    (size_t)(slash - path);

	if (n + sizeof OUT_PART > size)
		return -1;
	memcpy(buf, slash == NULL ? "." : path, n);
	buf[n] = '\0';
	return 0;
}

/*
 * Check that the output can be written, before anything is drawn: a
 * character device (/dev/stdout, /dev/null) or a FIFO is written
 * through (renaming over it would replace the node, and as root
 * /dev/null itself); a missing file, a regular file or a link to one is
 * replaced, in a folder that must be writable; anything else is refused.
 */
int
report_out_check(const struct report *r, int *through)
{
	char dir[PATH_MAX];
	struct stat st;

	*through = 0;
	if (stat(r->output, &st) == 0) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			*through = 1;
			return 0;
		}
		if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, "%s: cannot write %s: not a regular "
			    "file, a character device or a FIFO\n", r->prog,
			    r->output);
			return -1;
		}
	}
	if (out_dir(r->output, dir, sizeof dir) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", r->prog,
		    r->output, strerror(ENAMETOOLONG));
		return -1;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    access(dir, W_OK) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s is not a writable "
		    "directory\n", r->prog, r->output, dir);
		return -1;
	}
	return 0;
}

/* Write n bytes of p to fd; 0, or -1 with errno. */
static int
out_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Write the page through a device or FIFO; 0, or -1 with errno. */
static int
out_through(const char *path, const char *page, size_t size)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	if (out_all(fd, page, size) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/*
 * Write the page to a new file beside path (mkstemp: created
 * exclusively, so no link planted at a guessable name is followed), with
 * the mode a new file gets, and rename it over path; 0, or -1 with errno
 * and nothing left behind.
 */
static int
out_replace(const char *path, const char *page, size_t size)
{
	char part[PATH_MAX];
	mode_t mask = umask(0);
	int fd, e;

	umask(mask);
	if (out_dir(path, part, sizeof part) != 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcat(part, OUT_PART);
	if ((fd = mkstemp(part)) < 0)
		return -1;
	if (fchmod(fd, 0666 & ~mask) != 0 || out_all(fd, page, size) != 0) {
		e = errno;
		close(fd);
		errno = e;
	} else if (close(fd) == 0 && rename(part, path) == 0) {
		return 0;
	}
	e = errno;
	unlink(part);
	errno = e;
	return -1;
}

/* Write the page to the output, whole or not at all. */
int
report_out_write(const struct report *r, int through, const char *page,
    size_t size)
{
	sigset_t block, old;
	int rc, e;

	if (through) {
		rc = out_through(r->output, page, size);
		e = errno;
	} else {
		/* A signal between mkstemp and rename would leave the copy. */
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigaddset(&block, SIGQUIT);
		sigprocmask(SIG_BLOCK, &block, &old);
		rc = out_replace(r->output, page, size);
		e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (rc != 0)
		fprintf(stderr, "%s: cannot write %s: %s\n", r->prog, r->output,
		    strerror(e));
	return rc;
}
