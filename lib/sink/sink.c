/* sink.c: where records go: standard output, a file, a socket or ZeroMQ. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/*
 * The bound on writing a record to a FIFO or a character device (a
 * terminal) whose reader takes nothing: the same as the other sinks'.
 */
#define SINK_WRITE_MS 5000

struct bm_sink {
	int kind;		/* BM__SINK_* */
	int fd;			/* stdout, file, tcp and unix */
	int broken;		/* a stream or a FIFO lost part of a record */
	int waits;		/* a FIFO, a device or a socket: not a file */
	void *zmq;		/* zmq */
	char *what;		/* the spec, for messages */
};

/*
 * Take back the partial record of a short write to a regular file (a
 * file: sink, or standard output redirected to one): the file loses its
 * last part bytes, but only if they are still its end (our offset is the
 * file's size), so another process's record that came after them is never
 * cut.  The offset goes back too: standard output need not be O_APPEND,
 * and the next record would leave a hole of zeros where the part was.
 */
static void
sink_cut(bm_sink *s, off_t part)
{
	struct stat st;
	off_t end;

	if ((s->kind != BM__SINK_FILE && s->kind != BM__SINK_STDOUT) ||
	    part <= 0)
		return;
	end = lseek(s->fd, 0, SEEK_CUR);
	if (end < part || fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size != end)
		return;
	/* Best effort: the write error is reported either way. */
	if (ftruncate(s->fd, end - part) == 0)
		(void)lseek(s->fd, end - part, SEEK_SET);
}

/*
 * Open a file sink: appended, created if missing, never truncated.  The
 * open never blocks: opening a FIFO for writing waits for a reader, for
 * ever if none comes, so it is opened with O_NONBLOCK, which fails with
 * ENXIO when nobody reads.  A FIFO or a character device (/dev/null, a
 * terminal) stays non-blocking, so that a reader that stops reading
 * costs a write SINK_WRITE_MS and not the tool (sink_write_wait); a
 * regular file is made blocking again.  What is neither is refused: a
 * block device would be overwritten from its start, a socket cannot be
 * opened.
 */
static int
sink_open_file(bm_ctx *ctx, bm_sink *s, const char *path)
{
	struct stat st;
	int flags, err;

	s->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NONBLOCK, 0644);
	if (s->fd < 0) {
		err = errno;
		if (err == ENXIO && stat(path, &st) == 0)
			return bm__fail(ctx, -ENXIO, "sink file %s is %s", path,
			    S_ISFIFO(st.st_mode) ? "a FIFO with no reader" :
			    S_ISSOCK(st.st_mode) ? "a socket, not a file" :
			    "a device that is not there");
		return bm__fail(ctx, -err, "cannot open sink file %s: %s",
		    path, strerror(err));
	}
	if (fstat(s->fd, &st) != 0) {
		err = errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISCHR(st.st_mode)) {
		(void)close(s->fd);
		s->fd = -1;
		return bm__fail(ctx, -EINVAL, "sink file %s is not a regular "
		    "file, a FIFO or a character device", path);
	}
	s->waits = !S_ISREG(st.st_mode);
	if (!s->waits && ((flags = fcntl(s->fd, F_GETFL)) < 0 ||
	    fcntl(s->fd, F_SETFL, flags & ~O_NONBLOCK) != 0)) {
		err = errno;
		goto fail;
	}
	return 0;
fail:
	(void)close(s->fd);
	s->fd = -1;
	return bm__fail(ctx, -err, "cannot open sink file %s: %s", path,
	    strerror(err));
}

/*
 * Split a spec into its kind and its argument without opening anything, so
 * that every malformed spec fails the same way whatever the build has.
 */
int
bm__sink_parse(bm_ctx *ctx, const char *spec, int *kind, const char **arg)
{
	int rc;

	if (spec == NULL || *spec == '\0')
		return bm__fail(ctx, BM_EPARSE, "empty sink (expected -, "
		    "file:PATH, tcp:HOST:PORT, unix:PATH or zmq:ENDPOINT)");
	if (strcmp(spec, "-") == 0) {
		*kind = BM__SINK_STDOUT;
		*arg = spec + 1;
	} else if (strncmp(spec, "file:", 5) == 0) {
		if (spec[5] == '\0')
			return bm__fail(ctx, BM_EPARSE, "sink 'file:' has no "
			    "path");
		*kind = BM__SINK_FILE;
		*arg = spec + 5;
	} else if (strncmp(spec, "zmq:", 4) == 0) {
		if (spec[4] == '\0')
			return bm__fail(ctx, BM_EPARSE, "sink 'zmq:' has no "
			    "endpoint");
		*kind = BM__SINK_ZMQ;
		*arg = spec + 4;
	} else if (strncmp(spec, "tcp:", 4) == 0) {
		if (spec[4] == '\0')
			return bm__fail(ctx, BM_EPARSE, "sink 'tcp:' has no "
			    "HOST:PORT");
		*kind = BM__SINK_TCP;
		*arg = spec + 4;
	} else if (strncmp(spec, "unix:", 5) == 0) {
		*kind = BM__SINK_UNIX;
		*arg = spec + 5;
	} else
		return bm__fail(ctx, BM_ECONFIG, "unknown sink '%.64s' "
		    "(expected -, file:PATH, tcp:HOST:PORT, unix:PATH or "
		    "zmq:ENDPOINT)", spec);
	if ((*kind == BM__SINK_TCP || *kind == BM__SINK_UNIX) &&
	    (rc = bm__stream_check(ctx, *kind, *arg)) != 0) {
		*kind = -1;
		*arg = NULL;
		return rc;
	}
	return 0;
}

/* Open a sink from its spec. */
int
bm_sink_open(bm_ctx *ctx, const char *spec, bm_sink **out)
{
	const char *arg;
	struct stat st;
	bm_sink *s;
	int kind, rc;

	if (out == NULL)
		return -EINVAL;
	*out = NULL;
	if ((rc = bm__sink_parse(ctx, spec, &kind, &arg)) != 0)
		return rc;
	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (s->what = strdup(spec)) == NULL) {
		free(s);
		return bm__fail(ctx, -ENOMEM, "no memory for a sink");
	}
	s->kind = kind;
	s->fd = -1;
	switch (kind) {
	case BM__SINK_STDOUT:
		/*
		 * A regular file takes a record with one write, cut back
		 * when it is short, as a file: sink; anything else (a pipe,
		 * a terminal, a socket, perhaps non-blocking) is written as
		 * a file: sink writes a FIFO, the record finished within
		 * SINK_WRITE_MS, never left in part for the next to be glued
		 * on.  The program's SIGPIPE disposition holds, as for its
		 * printf().
		 */
		s->fd = STDOUT_FILENO;
		s->waits = fstat(s->fd, &st) == 0 && !S_ISREG(st.st_mode);
		break;
	case BM__SINK_FILE:
		rc = sink_open_file(ctx, s, arg);
		break;
	case BM__SINK_TCP:
	case BM__SINK_UNIX:
		rc = bm__stream_open(ctx, kind, arg, spec, &s->fd);
		break;
	case BM__SINK_ZMQ:
#ifdef BM_HAVE_ZMQ
		rc = bm__zmq_open(ctx, arg, &s->zmq);
#else
		rc = bm__fail(ctx, BM_ENOTSUP, "sink '%.64s': benchmp was "
		    "built without libzmq", spec);
#endif
		break;
	}
	if (rc != 0) {
		free(s->what);
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/*
 * Write a record to a regular file (a file: sink, or standard output
 * redirected to one) with one write(): on an O_APPEND descriptor the kernel
 * places each write at the end as a unit, so records of processes sharing
 * the file never interleave.  A short write (a full disk, a file-size
 * limit) is reported as an error, not retried, because a second write
 * could land after another process's record and split this one; and the
 * part that was written is cut off again when it is still the file's end,
 * so a reader never finds half a record.
 */
static int
sink_write_fd(bm_ctx *ctx, bm_sink *s, const char *rec, size_t len)
{
	ssize_t w;

	do
		w = write(s->fd, rec, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return bm__fail(ctx, -errno, "writing to sink %s: %s", s->what,
		    strerror(errno));
	if ((size_t)w != len) {
		sink_cut(s, (off_t)w);
		return bm__fail(ctx, -ENOSPC, "writing to sink %s: only %zd of "
		    "%zu bytes written", s->what, w, len);
	}
	return 0;
}

/*
 * Wait until fd takes data or the deadline passes: 1 ready, 0 timed out,
 * or a negative errno.
 */
static int
sink_poll_out(int fd, uint64_t deadline)
{
	struct pollfd p;
	uint64_t now;
	int n;

	for (;;) {
		now = bm__deadline_now();
		if (now >= deadline)
			return 0;
		p.fd = fd;
		p.events = POLLOUT;
		p.revents = 0;
		n = poll(&p, 1, (int)((deadline - now + 999999) / 1000000));
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/*
 * write() to a file: sink without SIGPIPE: a FIFO whose reader has gone
 * raises it, and a tool takes that for a fatal signal, where the sink
 * promises -EPIPE.  SIGPIPE is blocked around the write, and only one the
 * write raised is taken from the pending signals: one that was pending
 * already (sent by someone else) stays for the program.  The standard
 * output sink keeps the program's disposition.
 */
static ssize_t
sink_write_nosigpipe(bm_sink *s, const char *buf, size_t len)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t sigpipe, old, pending;
	ssize_t w;
	int had, err;

	if (s->kind != BM__SINK_FILE)
		return write(s->fd, buf, len);
	sigemptyset(&sigpipe);
	sigaddset(&sigpipe, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &sigpipe, &old) != 0)
		return write(s->fd, buf, len);
	had = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
	w = write(s->fd, buf, len);
	err = errno;
	if (w < 0 && err == EPIPE && !had)
		(void)sigtimedwait(&sigpipe, NULL, &zero);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return w;
}

/*
 * Write a record to a FIFO or a character device of a file: sink (opened
 * non-blocking), or to standard output that is no regular file: after a
 * short write the rest follows, waiting for room up to SINK_WRITE_MS in
 * all when the descriptor is non-blocking.  A record of PIPE_BUF bytes or
 * fewer goes into a FIFO as a unit or not at all, so writers sharing it
 * never interleave; a longer one goes in parts, as a blocking write would
 * put it.  A record cut by a failure leaves half a line: the sink then
 * refuses every later one, as a stream does.
 */
static int
sink_write_wait(bm_ctx *ctx, bm_sink *s, const char *rec, size_t len)
{
	uint64_t deadline = bm__deadline_now() + SINK_WRITE_MS * 1000000ull;
	size_t done = 0;
	ssize_t w;
	int rc = 0;

	if (s->broken)
		return bm__fail(ctx, -EPIPE, "writing to sink %s: an earlier "
		    "record went out in part", s->what);
	while (done < len) {
		w = sink_write_nosigpipe(s, rec + done, len - done);
		if (w > 0) {
			done += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			rc = bm__fail(ctx, -errno, "writing to sink %s: %s",
			    s->what, strerror(errno));
			break;
		}
		if ((rc = sink_poll_out(s->fd, deadline)) == 1)
			continue;
		if (rc < 0)
			rc = bm__fail(ctx, rc, "writing to sink %s: %s",
			    s->what, strerror(-rc));
		else
			rc = bm__fail(ctx, BM_ETIMEDOUT, "writing to sink %s: "
			    "the reader took no data for %d s", s->what,
			    SINK_WRITE_MS / 1000);
		break;
	}
	if (done == len)
		return 0;
	if (done > 0)
		s->broken = 1;
	return rc;
}

/*
 * Send a record on a stream socket.  A record cut by a failure (the
 * listener stopped reading, or went) leaves half a line in the stream: the
 * sink then refuses every later record, so that none is glued to the half
 * and read as one line; a reader sees the cut one as a last line without
 * its newline.
 */
static int
sink_write_stream(bm_ctx *ctx, bm_sink *s, const char *rec, size_t len)
{
	size_t sent;
	int rc;

	if (s->broken)
		return bm__fail(ctx, -EPIPE, "writing to sink %s: the "
		    "connection lost part of an earlier record", s->what);
	if ((rc = bm__stream_send(ctx, s->fd, rec, len, s->what, &sent)) != 0
	    && sent > 0)
		s->broken = 1;
	return rc;
}

/* Write one record to the sink. */
int
bm_sink_write(bm_ctx *ctx, bm_sink *s, const char *rec, size_t len)
{
	if (s == NULL || rec == NULL)
		return -EINVAL;
	if (s->kind == BM__SINK_TCP || s->kind == BM__SINK_UNIX)
		return sink_write_stream(ctx, s, rec, len);
	if (s->kind == BM__SINK_ZMQ) {
#ifdef BM_HAVE_ZMQ
		return bm__zmq_send(ctx, s->zmq, rec, len);
#else
		return BM_ENOTSUP;
#endif
	}
	/*
	 * The program's own lines printed to stdout before this record sit
	 * in stdio's buffer (a pipe or a file is fully buffered): they go
	 * first, so that the output keeps the order it was produced in.
	 */
	if (s->kind == BM__SINK_STDOUT)
		(void)fflush(stdout);
	if (s->waits)
		return sink_write_wait(ctx, s, rec, len);
	return sink_write_fd(ctx, s, rec, len);
}

/* Return 1 for the standard output sink. */
int
bm_sink_is_stdout(const bm_sink *s)
{
	return s != NULL && s->kind == BM__SINK_STDOUT;
}

/* Close a sink; a file's close error (NFS, quota) is reported. */
int
bm_sink_close(bm_ctx *ctx, bm_sink *s)
{
	int rc = 0;

	if (s == NULL)
		return 0;
	if ((s->kind == BM__SINK_FILE || s->kind == BM__SINK_TCP ||
	    s->kind == BM__SINK_UNIX) && close(s->fd) != 0)
		rc = bm__fail(ctx, -errno, "closing sink %s: %s", s->what,
		    strerror(errno));
#ifdef BM_HAVE_ZMQ
	if (s->kind == BM__SINK_ZMQ)
		rc = bm__zmq_close(ctx, s->zmq);
#endif
	free(s->what);
	free(s);
	return rc;
}
