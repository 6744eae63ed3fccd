/* file.c: checking, cloning and reading the files the file tools are given. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

/* The copy buffer of file_clone(). */
#define FILE_CHUNK (1u << 16)

/* Check the file, or exit 1 naming it. */
uint64_t
file_check(struct tool *t, const char *path, uint64_t min)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		tool_fail(t, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		close(fd);
		tool_fail(t, "cannot stat %s: %s", path, strerror(errno));
	}
	close(fd);
	if (!S_ISREG(st.st_mode))
		tool_fail(t, "%s is not a regular file", path);
	if ((uint64_t)st.st_size < min)
		tool_fail(t, "%s holds %jd bytes, fewer than the %ju asked for",
		    path, (intmax_t)st.st_size, (uintmax_t)min);
	return (uint64_t)st.st_size;
}

/* Copy the first size bytes of src for one worker. */
int
file_clone(const char *src, const char *dir, unsigned worker, uint64_t size,
    char *out, size_t outlen)
{
	char *buf;
	ssize_t got;
	size_t want;
	int in, fd, rc = 0;

	if ((size_t)snprintf(out, outlen, "%s/clone.%u", dir, worker) >= outlen)
		return -ENAMETOOLONG;
	if ((buf = malloc(FILE_CHUNK)) == NULL)
		return -ENOMEM;
	if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0) {
		free(buf);
		return -errno;
	}
	if ((fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) < 0) {
		rc = -errno;
		close(in);
		free(buf);
		return rc;
	}
	while (size > 0) {
		want = size < FILE_CHUNK ? (size_t)size : FILE_CHUNK;
		if ((got = read(in, buf, want)) <= 0) {
			rc = got == 0 ? -ENODATA : -errno;
			break;
		}
		if (write(fd, buf, (size_t)got) != got) {
			rc = -errno;
			break;
		}
		size -= (uint64_t)got;
	}
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	close(in);
	free(buf);
	if (rc != 0)
		(void)unlink(out);
	return rc;
}

/* Sum the words of a buffer (and its tail bytes). */
uint64_t
file_sum(const void *buf, size_t size)
{
	const uint64_t *w = buf;
	const unsigned char *b;
	uint64_t sum = 0;
	size_t i, n = size / sizeof *w;

	for (i = 0; i < n; i++)
		sum += w[i];
	b = (const unsigned char *)(w + n);
	for (i = 0; i < size % sizeof *w; i++)
		sum += b[i];
	return sum;
}

/*
 * Bound the waits of a run whose one operation passes over bytes of a
 * file: the engine gives a first pass 10 s plus twenty expected intervals,
 * which a pass over gigabytes outlasts on a loaded machine (bw_file_rd
 * 4200m under stress-ng gave up after 10.4 s).  From 1 GB on, each wait
 * may last 10 s plus twenty passes at 100 MB/s instead (15 minutes for
 * 4.4 GB): still a bound, never a hang.  An explicit timeout stays.
 */
void
file_pass_bound(struct tool *t, uint64_t bytes)
{
	uint64_t pass_us = bytes / 100;		/* 100 MB/s: 100 bytes per us */

	if (t->opts.timeout_us != 0 || bytes < FILE_BIG_PASS)
		return;
	t->opts.timeout_us = 10000000u + 20 * pass_us;
}
