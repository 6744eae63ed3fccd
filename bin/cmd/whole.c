/* whole.c: an output written whole: through a device or FIFO, else a new file renamed over it (benchmp report, merge). */
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

#include "whole.h"

/*
 * The folder of path (".", or path up to its last slash) into buf, with
 * room for part after it; 0, or -1 when too long.
 */
static int
whole_dir(const char *path, const char *part, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash == NULL || slash == path ? 1 :
	    (size_t)(slash - path);

	if (n + strlen(part) + 1 > size)
		return -1;
	memcpy(buf, slash == NULL ? "." : path, n);
	buf[n] = '\0';
	return 0;
}

/*
 * The descriptor path names of this process's own (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1.  Such a name is a link
 * into /proc: renamed over, the link itself would be replaced (as root,
 * /dev/stdout of the whole machine) where standard output redirected to
 * a file was meant, so it is written through the descriptor.
 */
static int
whole_own_fd(const char *path)
{
	static const char *const dir[] = { "/dev/fd/", "/proc/self/fd/" };
	size_t i, n;
	char *end;
	long fd;

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (i = 0; i < sizeof(dir) / sizeof(dir[0]); i++) {
		n = strlen(dir[i]);
		if (strncmp(path, dir[i], n) != 0 || path[n] < '0' ||
		    path[n] > '9')
			continue;
		errno = 0;
		fd = strtol(path + n, &end, 10);
		if (errno == 0 && *end == '\0' && fd <= INT_MAX &&
		    fcntl((int)fd, F_GETFD) != -1)
			return (int)fd;
	}
	return -1;
}

/*
 * Check that path can be written, before anything is made: one of this
 * process's descriptors (whole_own_fd) is written through, as is a
 * character device (/dev/stdout, /dev/null) or a FIFO is written
 * through (renaming over it would replace the node, and as root
 * /dev/null itself); a missing file, a regular file or a link to one is
 * replaced, in a folder that must be writable; anything else is refused.
 */
int
whole_check(const char *prog, const char *path, int *through)
{
	char dir[PATH_MAX];
	struct stat st;

	*through = 0;
	if (whole_own_fd(path) >= 0) {
		*through = 1;
		return 0;
	}
	if (stat(path, &st) == 0) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			*through = 1;
			return 0;
		}
		if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, "%s: cannot write %s: not a regular "
			    "file, a character device or a FIFO\n", prog,
			    path);
			return -1;
		}
	}
	if (whole_dir(path, "", dir, sizeof dir) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog,
		    path, strerror(ENAMETOOLONG));
		return -1;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    access(dir, W_OK) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s is not a writable "
		    "directory\n", prog, path, dir);
		return -1;
	}
	return 0;
}

/* Write n bytes of p to fd; 0, or -1 with errno. */
static int
whole_all(int fd, const char *p, size_t n)
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

/*
 * Write size bytes of buf through a device or FIFO, or to one of this
 * process's descriptors (at its offset, as the shell opened it); 0, or
 * -1 with errno.
 */
static int
whole_through(const char *path, const char *buf, size_t size)
{
	int fd = whole_own_fd(path), e;

	if (fd >= 0)
		return whole_all(fd, buf, size);
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (whole_all(fd, buf, size) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/*
 * Write size bytes of buf to a new file beside path, named by part
 * ("/.NAME.XXXXXX": mkstemp creates it exclusively, so no link planted
 * at a guessable name is followed), with the mode a new file gets, and
 * rename it over path; 0, or -1 with errno and nothing left behind.
 */
static int
whole_replace(const char *path, const char *part, const char *buf,
    size_t size)
{
	char tmp[PATH_MAX];
	mode_t mask = umask(0);
	int fd, e;

	umask(mask);
	if (whole_dir(path, part, tmp, sizeof tmp) != 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcat(tmp, part);
	if ((fd = mkstemp(tmp)) < 0)
		return -1;
	if (fchmod(fd, 0666 & ~mask) != 0 || whole_all(fd, buf, size) != 0) {
		e = errno;
		close(fd);
		errno = e;
	} else if (close(fd) == 0 && rename(tmp, path) == 0) {
		return 0;
	}
	e = errno;
	unlink(tmp);
	errno = e;
	return -1;
}

/* Write buf to path, whole or not at all. */
int
whole_write(const char *prog, const char *path, const char *part,
    int through, const char *buf, size_t size)
{
	sigset_t block, old;
	int rc, e;

	if (through) {
		rc = whole_through(path, buf, size);
		e = errno;
	} else {
		/* A signal between mkstemp and rename would leave the copy. */
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigaddset(&block, SIGQUIT);
		sigprocmask(SIG_BLOCK, &block, &old);
		rc = whole_replace(path, part, buf, size);
		e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (rc != 0)
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
		    strerror(e));
	return rc;
}
