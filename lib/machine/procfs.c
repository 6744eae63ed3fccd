/* procfs.c: /proc and /sys files read under a root, within bounds. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/*
 * Under a test's root a file may be anything: /dev/zero, a sparse file of
 * gigabytes, a log, a FIFO.  So every read is bounded: at most
 * BM__PROCFS_MAX bytes of a file and BM__PROCFS_MAX_LINE of a line (the
 * largest files the kernel writes here, /proc/cpuinfo or the mountinfo of
 * a host of many containers, stay within a few MB), and a sysfs value
 * within BM__PROCFS_MAX_VALUE.  A file is opened non-blocking, so that a
 * FIFO without a writer or a terminal never waits: what is not there at
 * once is not read.
 */

/* Set p's refusal of root/path, and return -EFBIG. */
static int
procfs_refuse(struct bm__procfs *p, const char *path, const char *why)
{
	(void)snprintf(p->refused, sizeof p->refused, "%s%s: %s", p->root,
	    path, why);
	return -EFBIG;
}

/*
 * Read at most max + 1 bytes of root/path into *text (allocated, with a
 * NUL after them) and their count into *len: 0, or -errno; -EFBIG once a
 * file under p's root was refused (the tree is not what the kernel
 * writes: nothing more is read from it).
 */
static int
procfs_slurp(const struct bm__procfs *p, const char *path, size_t max,
    char **text, size_t *len)
{
	char *full, *buf = NULL, *n;
	size_t have = 0, cap = 0;
	ssize_t got;
	int fd, rc = 0;

	*text = NULL;
	*len = 0;
	if (p->refused[0] != '\0')
		return -EFBIG;
	/* (The path on the heap: a tool's stack may be 32 KB.) */
	if ((full = malloc(strlen(p->root) + strlen(path) + 1)) == NULL)
		return -ENOMEM;
	(void)sprintf(full, "%s%s", p->root, path);
	fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	rc = fd < 0 ? -errno : 0;
	free(full);
	if (rc != 0)
		return rc;
	for (;;) {
		if (cap - have < 2) {
			cap = cap == 0 ? 4096 : cap * 2;
			if (cap > max + 2)
				cap = max + 2;
			if ((n = realloc(buf, cap)) == NULL) {
				rc = -ENOMEM;
				break;
			}
			buf = n;
		}
		if (have > max)
			break;
		got = read(fd, buf + have, cap - 1 - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			break;
		}
		if (got == 0)
			break;
		have += (size_t)got;
	}
	(void)close(fd);
	if (rc != 0) {
		free(buf);
		return rc;
	}
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return -ENOMEM;
	buf[have] = '\0';
	*text = buf;
	*len = have;
	return 0;
}

/*
 * Read root/path whole into *text (allocated, NUL-terminated; the caller
 * frees it): 0, -errno when it cannot be read, or -EFBIG when it is
 * refused (larger than BM__PROCFS_MAX, or a line longer than
 * BM__PROCFS_MAX_LINE), with p->refused saying so.
 */
int
bm__procfs_read(struct bm__procfs *p, const char *path, char **text)
{
	char why[64];
	size_t len, line = 1, i, start = 0;
	int rc;

	if ((rc = procfs_slurp(p, path, BM__PROCFS_MAX, text, &len)) != 0)
		return rc;
	if (len > BM__PROCFS_MAX)
		rc = procfs_refuse(p, path, "larger than 16 MB");
	for (i = 0; rc == 0 && i <= len; i++) {
		if (i < len && (*text)[i] != '\n')
			continue;
		if (i - start > BM__PROCFS_MAX_LINE) {
			(void)snprintf(why, sizeof why, "line %zu is longer "
			    "than 1 MB", line);
			rc = procfs_refuse(p, path, why);
		}
		start = i + 1;
		line++;
	}
	if (rc != 0) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/*
 * The first line of root/path (read as bm__procfs_read does) into buf,
 * cut to size - 1 bytes: 0, or as bm__procfs_read.
 */
int
bm__procfs_line(struct bm__procfs *p, const char *path, char *buf,
    size_t size)
{
	char *text;
	int rc;

	buf[0] = '\0';
	if ((rc = bm__procfs_read(p, path, &text)) != 0)
		return rc;
	(void)snprintf(buf, size, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
	return 0;
}

/*
 * A sysfs value: the first line of the first BM__PROCFS_MAX_VALUE bytes of
 * root/path, to its newline or its first NUL, into buf (cut to size - 1
 * bytes): 0, -errno, or -EFBIG (with p->refused) when that line is as
 * long as the bytes read.
 */
int
bm__procfs_value(struct bm__procfs *p, const char *path, char *buf,
    size_t size)
{
	char *text;
	size_t len, n;
	int rc;

	buf[0] = '\0';
	if ((rc = procfs_slurp(p, path, BM__PROCFS_MAX_VALUE - 1, &text,
	    &len)) != 0)
		return rc;
	n = strcspn(text, "\n");
	if (n >= BM__PROCFS_MAX_VALUE - 1)
		rc = procfs_refuse(p, path, "a first line of 64 KB or more");
	else
		(void)snprintf(buf, size, "%.*s", (int)n, text);
	free(text);
	return rc;
}
