/* pipeio.c: reads and writes on the engine's pipes that survive EINTR. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Monotonic time in nanoseconds, for deadlines rather than measurements. */
uint64_t
bm__deadline_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Wait until fd is readable or *deadline (0: none) passes.  A SIGCONT
 * moves the deadline to timeout_ns from now: the writer was stopped too
 * (job control), and a stopped run is not a hung one.
 */
static int
pipeio_wait(int fd, uint64_t *deadline, uint64_t timeout_ns, unsigned *cont)
{
	struct pollfd pfd;
	uint64_t now;
	int ms, rc;

	for (;;) {
		if (*cont != bm__signals_continued()) {
			*cont = bm__signals_continued();
			if (*deadline != 0)
				*deadline = bm__deadline_now() + timeout_ns;
		}
		ms = -1;
		if (*deadline != 0) {
			now = bm__deadline_now();
			if (now >= *deadline)
				return BM_ETIMEDOUT;
			ms = (int)((*deadline - now + 999999) / 1000000);
		}
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		rc = poll(&pfd, 1, ms);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -errno;
	}
}

/* Read exactly len bytes within timeout_ms (-1 for no bound). */
int
bm__pipeio_read(int fd, void *buf, size_t len, int timeout_ms)
{
	unsigned char *p = buf;
	uint64_t deadline = 0, timeout_ns = 0;
	unsigned cont = bm__signals_continued();
	ssize_t got;
	int rc;

	if (timeout_ms >= 0) {
		timeout_ns = (uint64_t)timeout_ms * 1000000u;
		deadline = bm__deadline_now() + timeout_ns;
	}
	while (len > 0) {
		if ((rc = pipeio_wait(fd, &deadline, timeout_ns, &cont)) != 0)
			return rc;
		got = read(fd, p, len);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (got == 0)
			return BM_EPROTO;
		p += got;
		len -= (size_t)got;
	}
	return 0;
}

/* Write exactly len bytes, retrying after EINTR and short writes. */
int
bm__pipeio_write(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	ssize_t put;

	while (len > 0) {
		put = write(fd, p, len);
		if (put < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += put;
		len -= (size_t)put;
	}
	return 0;
}
