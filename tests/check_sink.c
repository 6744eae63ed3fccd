/*
 * check_sink.c: record sinks: files, sockets, ZeroMQ, bad specs (a full
 * disk in check_sink_full.c, IPv6 in check_sink_ipv6.c: each may be
 * missing here, and is then its own program's skip).
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef BM_HAVE_ZMQ
#include <zmq.h>
#endif

#include "check_run.h"
#include "check_stream.h"
#include "internal.h"

START_TEST(test_file_shared)
{
	char path[] = "/tmp/check_sink.XXXXXX", spec[64], *line = NULL;
	static char seen[WRITERS][RECORDS];
	unsigned w, i, n = 0;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	pid_t pid;
	int fd, st;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(spec, sizeof spec, "file:%s", path);
	/* Eight processes append at once through their own sinks. */
	for (w = 0; w < WRITERS; w++) {
		if ((pid = fork()) == 0)
			stream_writer(spec, w);
		ck_assert_int_gt(pid, 0);
	}
	for (w = 0; w < WRITERS; w++) {
		ck_assert_int_gt(wait(&st), 0);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	/* Every record arrived once, whole, on its own line. */
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	memset(seen, 0, sizeof seen);
	while ((len = getline(&line, &cap, f)) > 0) {
		char expect[8192];

		ck_assert_int_eq(sscanf(line, "{\"w\":%u,\"i\":%u,", &w, &i), 2);
		ck_assert(w < WRITERS && i < RECORDS);
		ck_assert_int_eq((size_t)len, stream_record(expect,
		    sizeof expect, w, i));
		ck_assert(memcmp(line, expect, (size_t)len) == 0);
		ck_assert_int_eq(seen[w][i]++, 0);
		n++;
	}
	free(line);
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(n, WRITERS * RECORDS);
}
END_TEST

START_TEST(test_stdout_sink)
{
	bm_sink *s;
	bm_ctx *ctx;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, "-", &s), 0);
	ck_assert_int_eq(bm_sink_is_stdout(s), 1);
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	ck_assert_int_eq(bm_sink_is_stdout(NULL), 0);
	bm_ctx_free(ctx);
}
END_TEST

/*
 * A record written to the stdout sink comes after what the program
 * printf()ed before it, though stdio held that in its buffer (stdout a
 * file here, fully buffered, as a pipe is).
 */
START_TEST(test_stdout_order)
{
	static const char rec[] = "{\"record\":1}\n";
	char path[] = "/tmp/bm-sink-order.XXXXXX", buf[128];
	bm_sink *s;
	bm_ctx *ctx;
	ssize_t got;
	int fd, saved;

	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_int_eq(unlink(path), 0);
	fflush(stdout);
	ck_assert_int_ge(saved = dup(1), 0);
	ck_assert_int_eq(dup2(fd, 1), 1);
	ck_assert_int_eq(setvbuf(stdout, NULL, _IOFBF, 4096), 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, "-", &s), 0);
	printf("the program's line\n");
	ck_assert_int_eq(bm_sink_write(ctx, s, rec, strlen(rec)), 0);
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	fflush(stdout);
	ck_assert_int_eq(dup2(saved, 1), 1);
	got = pread(fd, buf, sizeof(buf) - 1, 0);
	ck_assert_int_gt(got, 0);
	buf[got] = '\0';
	ck_assert_str_eq(buf, "the program's line\n{\"record\":1}\n");
	close(fd);
	close(saved);
	bm_ctx_free(ctx);
}
END_TEST

struct bad_sink {
	const char *spec;
	int rc;
	const char *says;
};

static const struct bad_sink bad_sinks[] = {
	{ "", BM_EPARSE, "empty sink" },
	{ "bogus", BM_ECONFIG, "unknown sink 'bogus'" },
	{ "FILE:/tmp/x", BM_ECONFIG, "unknown sink" },
	{ "file:", BM_EPARSE, "no path" },
	{ "file:/nonexistent/dir/x", -ENOENT, "/nonexistent/dir/x" },
	{ "zmq:", BM_EPARSE, "" },
	{ "tcp:", BM_EPARSE, "no HOST:PORT" },
	{ "TCP:localhost:80", BM_ECONFIG, "unknown sink" },
	{ "tcp:localhost", BM_EPARSE, "no port" },
	{ "tcp:localhost:", BM_EPARSE, "no port" },
	{ "tcp::80", BM_EPARSE, "no host" },
	{ "tcp:127.0.0.1:0", BM_ERANGE, "out of range (1 to 65535)" },
	{ "tcp:127.0.0.1:65536", BM_ERANGE, "out of range" },
	{ "tcp:127.0.0.1:000099999999999999999999", BM_ERANGE, "out of range" },
	{ "tcp:127.0.0.1:-1", BM_EPARSE, "not a number" },
	{ "tcp:127.0.0.1:+80", BM_EPARSE, "not a number" },
	{ "tcp:127.0.0.1:80x", BM_EPARSE, "not a number" },
	{ "tcp:::1:80", BM_EPARSE, "in brackets" },
	{ "tcp:[::1", BM_EPARSE, "no ']'" },
	{ "tcp:[::1]80", BM_EPARSE, "no port" },
	{ "tcp:[::1]:", BM_EPARSE, "no port" },
	{ "tcp:[]:80", BM_EPARSE, "no host" },
	{ "tcp:a]b:80", BM_EPARSE, "not a name" },
	{ "unix:", BM_EPARSE, "no path" },
	{ "unix:/tmp/a-path-longer-than-the-108-bytes-of-sun_path-is-refused"
	    "-before-anything-is-connected-0123456789abcdef-0123456789abcdef",
	    BM_ERANGE,
	    "longer than a socket's" },
#ifdef BM_HAVE_ZMQ
	{ "zmq:bogus", BM_EPARSE, "zmq:bogus" },
	{ "zmq:tcp://", BM_EPARSE, "zmq:tcp://" },
#else
	{ "zmq:tcp://127.0.0.1:5555", BM_ENOTSUP, "without libzmq" },
#endif
};

START_TEST(test_bad_spec)
{
	const struct bad_sink *b = &bad_sinks[_i];
	bm_sink *s = (bm_sink *)&s;
	bm_ctx *ctx;
	int rc;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	rc = bm_sink_open(ctx, b->spec, &s);
	ck_assert_msg(rc == b->rc, "'%s': %d (%s)", b->spec, rc,
	    bm_ctx_errmsg(ctx));
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(bm_ctx_errmsg(ctx), b->says) != NULL,
	    "'%s': '%s'", b->spec, bm_ctx_errmsg(ctx));
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_fifo)
{
	char dir[] = "/tmp/check_sink.XXXXXX", path[64], spec[80], buf[16];
	bm_sink *s = NULL;
	bm_ctx *ctx;
	int rd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/fifo", dir);
	snprintf(spec, sizeof spec, "file:%s", path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	/* No reader: refused at once (a blocking open would never return). */
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), -ENXIO);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "no reader"));
	/* With a reader the record goes through whole. */
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), 0);
	ck_assert_int_eq(bm_sink_write(ctx, s, "{\"a\":1}\n", 8), 0);
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	memset(buf, 0, sizeof buf);
	ck_assert_int_eq(read(rd, buf, sizeof buf - 1), 8);
	ck_assert_str_eq(buf, "{\"a\":1}\n");
	close(rd);
	/* A directory is no sink either. */
	snprintf(spec, sizeof spec, "file:%s", dir);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), -EISDIR);
	bm_ctx_free(ctx);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * A FIFO whose reader opened it and reads nothing: once the pipe is full
 * a record waits 5 s for room and fails, rather than block the tool for
 * ever, and every record the FIFO took is whole (each fits PIPE_BUF).
 */
START_TEST(test_fifo_reader_stalls)
{
	char dir[] = "/tmp/check_sink.XXXXXX", path[64], spec[80];
	char rec[1000], buf[sizeof(rec)];
	bm_sink *s = NULL;
	bm_ctx *ctx;
	unsigned i, put = 0, got = 0;
	ssize_t n;
	int rd, rc = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/fifo", dir);
	snprintf(spec, sizeof spec, "file:%s", path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), 0);
	memset(rec, 'x', sizeof(rec));
	rec[sizeof(rec) - 1] = '\n';
	/* 10 MB at most: more than any pipe holds. */
	for (i = 0; i < 10000 && rc == 0; i++)
		if ((rc = bm_sink_write(ctx, s, rec, sizeof(rec))) == 0)
			put++;
	ck_assert_msg(rc == BM_ETIMEDOUT, "%d: %s", rc, bm_ctx_errmsg(ctx));
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "took no data "
	    "for 5 s"));
	ck_assert_uint_gt(put, 0);
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	while ((n = read(rd, buf, sizeof(buf))) == (ssize_t)sizeof(buf)) {
		ck_assert(memcmp(buf, rec, sizeof(rec)) == 0);
		got++;
	}
	ck_assert_int_eq(n, 0);
	ck_assert_uint_eq(got, put);
	close(rd);
	bm_ctx_free(ctx);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * A FIFO whose reader has gone: the write fails with -EPIPE and the
 * process lives, though SIGPIPE has its default, fatal, disposition (as
 * in the tools).  The signal is neither left pending nor blocked after,
 * and one pending before the write is the program's: it stays.
 */
START_TEST(test_fifo_reader_gone)
{
	char dir[] = "/tmp/check_sink.XXXXXX", path[64], spec[80];
	sigset_t pipe_only, set;
	bm_sink *s = NULL;
	bm_ctx *ctx;
	int rd, sig;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/fifo", dir);
	snprintf(spec, sizeof spec, "file:%s", path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), 0);
	close(rd);
	signal(SIGPIPE, SIG_DFL);
	ck_assert_int_eq(bm_sink_write(ctx, s, "{\"a\":1}\n", 8), -EPIPE);
	ck_assert_int_eq(sigpending(&set), 0);
	ck_assert(!sigismember(&set, SIGPIPE));
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &set), 0);
	ck_assert(!sigismember(&set, SIGPIPE));
	/* A SIGPIPE pending before the write stays pending. */
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, &pipe_only, NULL), 0);
	ck_assert_int_eq(raise(SIGPIPE), 0);
	ck_assert_int_eq(bm_sink_write(ctx, s, "{\"a\":2}\n", 8), -EPIPE);
	ck_assert_int_eq(sigpending(&set), 0);
	ck_assert(sigismember(&set, SIGPIPE));
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &set), 0);
	ck_assert(sigismember(&set, SIGPIPE));
	ck_assert_int_eq(sigwait(&pipe_only, &sig), 0);
	ck_assert_int_eq(sig, SIGPIPE);
	ck_assert_int_eq(sigprocmask(SIG_UNBLOCK, &pipe_only, NULL), 0);
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	bm_ctx_free(ctx);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * The child of test_stdout_file_cut: standard output is fd, a file of
 * 12 bytes, limited to 100; a record of len bytes goes out in part and
 * must fail, and the next must follow the last whole record.  Its exit
 * status says which step went wrong.
 */
static int
stdout_cut_child(int fd, const char *rec, size_t len)
{
	struct rlimit rl;
	bm_sink *s;
	bm_ctx *ctx;

	/* Past the limit write() fails with EFBIG instead of a signal. */
	signal(SIGXFSZ, SIG_IGN);
	if (dup2(fd, STDOUT_FILENO) != STDOUT_FILENO ||
	    getrlimit(RLIMIT_FSIZE, &rl) != 0)
		return 10;
	rl.rlim_cur = 100;
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
		return 11;
	if (bm_ctx_new(&ctx) != 0 || bm_sink_open(ctx, "-", &s) != 0)
		return 12;
	if (bm_sink_write(ctx, s, rec, len) != -ENOSPC)
		return 13;
	if (bm_sink_write(ctx, s, "{\"b\":2}\n", 8) != 0)
		return 14;
	return 0;
}

/*
 * Standard output redirected to a file that takes part of a record (a
 * file-size limit here, a full disk elsewhere), as `tool >file`: not
 * O_APPEND.  The part is cut off again and the next record follows the
 * last whole one, with no fragment and no hole of zeros.  In a child: the
 * limit would hold Check's own messages too.
 */
START_TEST(test_stdout_file_cut)
{
	static const char first[] = "{\"first\":1}\n";
	char path[] = "/tmp/check_sink.XXXXXX", rec[300], buf[512];
	ssize_t got;
	pid_t pid;
	int fd, st;

	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(write(fd, first, sizeof first - 1),
	    (ssize_t)sizeof first - 1);
	memset(rec, 'x', sizeof rec);
	rec[sizeof rec - 1] = '\n';
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0)
		_exit(stdout_cut_child(fd, rec, sizeof rec));
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: status "
	    "%#x", st);
	got = pread(fd, buf, sizeof buf - 1, 0);
	ck_assert_int_ge(got, 0);
	buf[got] = '\0';
	ck_assert_str_eq(buf, "{\"first\":1}\n{\"b\":2}\n");
	close(fd);
}
END_TEST

/* The child of test_stdout_pipe_part: two records to standard output. */
static int
stdout_pipe_child(const char *rec, size_t len)
{
	bm_sink *s;
	bm_ctx *ctx;
	int rc;

	if (bm_ctx_new(&ctx) != 0 || bm_sink_open(ctx, "-", &s) != 0)
		return 10;
	if ((rc = bm_sink_write(ctx, s, rec, len)) == BM_ETIMEDOUT)
		return 3;
	if (rc != 0)
		return 11;
	if (bm_sink_write(ctx, s, "{\"b\":2}\n", 8) != 0)
		return 12;
	return 0;
}

/*
 * Standard output a non-blocking pipe with room for part of a record: the
 * sink finishes the record as the reader makes room, and the next follows
 * it.  A lone write() would leave the part for the next record to be
 * glued on.  The pipe is full of filler but for two pages; the reader
 * waits until the child has filled them with the record's start, then
 * reads everything.  Should the reader be late by the sink's 5 s (a
 * machine loaded beyond reason), the case says so and passes.
 */
START_TEST(test_stdout_pipe_part)
{
	static char rec[20000], got[sizeof rec + 16];
	char chunk[4096];
	size_t fill = 0, drained = 0, have = 0, k;
	ssize_t n;
	pid_t pid;
	int p[2], st, avail = 0, ended = 0;

	memset(rec, 'r', sizeof rec);
	rec[0] = '{';
	rec[sizeof rec - 1] = '\n';
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
	memset(chunk, 'f', sizeof chunk);
	while ((n = write(p[1], chunk, sizeof chunk)) > 0)
		fill += (size_t)n;
	ck_assert(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
	ck_assert_uint_ge(fill, 3 * sizeof chunk);
	for (k = 0; k < 2; k++)
		ck_assert_int_eq(read(p[0], chunk, sizeof chunk), sizeof chunk);
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) != STDOUT_FILENO)
			_exit(9);
		_exit(stdout_pipe_child(rec, sizeof rec));
	}
	close(p[1]);
	while (ioctl(p[0], FIONREAD, &avail) == 0 && (size_t)avail < fill &&
	    (ended = waitpid(pid, &st, WNOHANG)) == 0)
		usleep(1000);
	/* The filler first, then the records whole. */
	for (drained = 2 * sizeof chunk; drained < fill; drained += (size_t)n) {
		n = read(p[0], chunk, fill - drained < sizeof chunk ?
		    fill - drained : sizeof chunk);
		ck_assert_int_gt(n, 0);
		for (k = 0; k < (size_t)n; k++)
			ck_assert_int_eq(chunk[k], 'f');
	}
	while ((n = read(p[0], got + have, sizeof got - have)) > 0)
		have += (size_t)n;
	ck_assert_int_eq(n, 0);
	close(p[0]);
	if (ended != pid)
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	if (WEXITSTATUS(st) == 3) {
		fprintf(stderr, "check_sink: the reader was 5 s late: the stdout "
		    "pipe case is skipped\n");
		return;
	}
	ck_assert_msg(WEXITSTATUS(st) == 0, "child: exit %d", WEXITSTATUS(st));
	ck_assert_uint_eq(have, sizeof rec + 8);
	ck_assert(memcmp(got, rec, sizeof rec) == 0);
	ck_assert(memcmp(got + sizeof rec, "{\"b\":2}\n", 8) == 0);
}
END_TEST

START_TEST(test_tcp_roundtrip)
{
	stream_roundtrip(AF_INET);
}
END_TEST

START_TEST(test_unix_roundtrip)
{
	stream_roundtrip(AF_UNIX);
}
END_TEST

#define BIG_RECORDS 4
#define BIG_SIZE (600 * 1024)

/*
 * Records larger than a socket holds leave in pieces: one writer sends
 * four of 600 KiB, read only after a pause, and each arrives whole.
 */
static void
stream_big(int family)
{
	struct timespec pause = { 0, 300000000 };
	struct pollfd p;
	struct stream_listener l;
	size_t have = 0, cap = BIG_RECORDS * BIG_SIZE + 1, i, k;
	char *buf;
	ssize_t got;
	pid_t pid;
	int fd, st;

	ck_assert_int_eq(stream_listen(&l, family), 0);
	ck_assert_ptr_nonnull(buf = malloc(cap));
	if ((pid = fork()) == 0) {
		bm_sink *s = NULL;
		bm_ctx *ctx = NULL;
		int rc = 0;

		/* The writer frees what it holds: valgrind checks children. */
		signal(SIGPIPE, SIG_DFL);
		if (bm_ctx_new(&ctx) != 0 ||
		    bm_sink_open(ctx, l.spec, &s) != 0)
			rc = 2;
		for (i = 0; rc == 0 && i < BIG_RECORDS; i++) {
			memset(buf, 'a' + (int)i, BIG_SIZE - 1);
			buf[BIG_SIZE - 1] = '\n';
			if (bm_sink_write(ctx, s, buf, BIG_SIZE) != 0)
				rc = 3;
		}
		if (s != NULL && bm_sink_close(ctx, s) != 0 && rc == 0)
			rc = 4;
		bm_ctx_free(ctx);
		free(buf);
		_exit(rc);
	}
	ck_assert_int_gt(pid, 0);
	fd = accept(l.fd, NULL, NULL);
	ck_assert_int_ge(fd, 0);
	nanosleep(&pause, NULL);
	for (;;) {
		p.fd = fd;
		p.events = POLLIN;
		ck_assert_int_eq(poll(&p, 1, 20000), 1);
		got = read(fd, buf + have, cap - have);
		ck_assert_int_ge(got, 0);
		if (got == 0)
			break;
		have += (size_t)got;
	}
	ck_assert_uint_eq(have, BIG_RECORDS * BIG_SIZE);
	for (i = 0; i < BIG_RECORDS; i++) {
		for (k = 0; k < BIG_SIZE - 1; k++)
			if (buf[i * BIG_SIZE + k] != 'a' + (int)i)
				break;
		ck_assert_uint_eq(k, BIG_SIZE - 1);
		ck_assert_int_eq(buf[i * BIG_SIZE + k], '\n');
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fd);
	free(buf);
	stream_unlisten(&l);
}

START_TEST(test_tcp_big)
{
	stream_big(AF_INET);
}
END_TEST

START_TEST(test_unix_big)
{
	stream_big(AF_UNIX);
}
END_TEST

START_TEST(test_stream_nobody_listens)
{
	char spec[200];
	struct stream_listener l;
	bm_sink *s = (bm_sink *)&s;
	bm_ctx *ctx;

	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	/* No socket at the path: nobody listens. */
	ck_assert_int_eq(stream_listen(&l, AF_UNIX), 0);
	snprintf(spec, sizeof spec, "unix:%s/none", l.dir);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), -ENOENT);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), spec));
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "nobody listens"));
	stream_unlisten(&l);
	/* A TCP port bound but not listening refuses too. */
	ck_assert_int_eq(stream_listen(&l, AF_INET), 0);
	close(l.fd);
	l.fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(l.fd, 0);
	{
		struct sockaddr_in sin;
		socklen_t len = sizeof sin;

		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		ck_assert_int_eq(bind(l.fd, (struct sockaddr *)&sin,
		    sizeof sin), 0);
		ck_assert_int_eq(getsockname(l.fd, (struct sockaddr *)&sin,
		    &len), 0);
		snprintf(spec, sizeof spec, "tcp:127.0.0.1:%u",
		    ntohs(sin.sin_port));
	}
	s = (bm_sink *)&s;
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), -ECONNREFUSED);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), spec));
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "nobody listens"));
	close(l.fd);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_stream_listener_gone)
{
	struct stream_listener l;
	bm_sink *s;
	bm_ctx *ctx;
	int fd, i, rc = 0;

	/* SIGPIPE as a tool has it: the sink must turn it into an error. */
	signal(SIGPIPE, SIG_DFL);
	ck_assert_int_eq(stream_listen(&l, AF_UNIX), 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, l.spec, &s), 0);
	fd = accept(l.fd, NULL, NULL);
	ck_assert_int_ge(fd, 0);
	close(fd);
	for (i = 0; i < 100 && rc == 0; i++)
		rc = bm_sink_write(ctx, s, "{}\n", 3);
	ck_assert_int_eq(rc, -EPIPE);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), l.spec));
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "the listener closed the connection"));
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	stream_unlisten(&l);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_stream_connect_timeout)
{
	struct sockaddr_un sun;
	struct stream_listener l;
	bm_sink *s = (bm_sink *)&s;
	bm_ctx *ctx;
	int fds[8], n, i;

	/*
	 * A Unix listener that never accepts, its backlog filled: a connect
	 * would wait for ever, the sink's gives up after its timeout.
	 */
	ck_assert_int_eq(stream_listen(&l, AF_UNIX), 0);
	ck_assert_int_eq(listen(l.fd, 0), 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", l.path);
	for (n = 0; n < 8; n++) {
		fds[n] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		ck_assert_int_ge(fds[n], 0);
		if (connect(fds[n], (struct sockaddr *)&sun, sizeof sun) != 0) {
			ck_assert_int_eq(errno, EAGAIN);
			break;
		}
	}
	ck_assert_int_lt(n, 8);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, l.spec, &s), BM_ETIMEDOUT);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "no connection "
	    "within 5 s"));
	for (i = 0; i <= n; i++)
		close(fds[i]);
	stream_unlisten(&l);
	bm_ctx_free(ctx);
}
END_TEST

START_TEST(test_stream_send_timeout)
{
	char buf[8192];
	struct stream_listener l;
	bm_sink *s;
	bm_ctx *ctx;
	int fd, i, rc = 0;
	size_t m;

	/* Accepted but never read: a record waits 5 s, then fails. */
	ck_assert_int_eq(stream_listen(&l, AF_UNIX), 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, l.spec, &s), 0);
	fd = accept(l.fd, NULL, NULL);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < 100000 && rc == 0; i++) {
		m = stream_record(buf, sizeof buf, 0, (unsigned)i);
		rc = bm_sink_write(ctx, s, buf, m);
	}
	ck_assert_int_eq(rc, BM_ETIMEDOUT);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "took no data "
	    "for 5 s"));
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	close(fd);
	stream_unlisten(&l);
	bm_ctx_free(ctx);
}
END_TEST

#ifdef BM_HAVE_ZMQ
START_TEST(test_zmq_roundtrip)
{
	char endpoint[256], spec[300], buf[256];
	size_t elen = sizeof endpoint;
	void *zctx, *pull;
	int timeout = 20000, n, i, st, fds[2];
	pid_t pid;

	/*
	 * The writer is forked before any ZeroMQ context exists (a context
	 * does not survive fork) and learns the endpoint through a pipe.
	 */
	ck_assert_int_eq(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		bm_sink *s;
		bm_ctx *ctx;
		ssize_t got;

		close(fds[1]);
		memset(spec, 0, sizeof spec);
		got = read(fds[0], spec, sizeof spec - 1);
		if (got <= 0)
			_exit(5);
		if (bm_ctx_new(&ctx) != 0 || bm_sink_open(ctx, spec, &s) != 0)
			_exit(2);
		for (i = 0; i < 100; i++) {
			n = snprintf(buf, sizeof buf, "{\"i\":%d}\n", i);
			if (bm_sink_write(ctx, s, buf, (size_t)n) != 0)
				_exit(3);
		}
		_exit(bm_sink_close(ctx, s) == 0 ? 0 : 4);
	}
	ck_assert_int_gt(pid, 0);
	close(fds[0]);
	/* A real PULL socket on a free port receives every record. */
	zctx = zmq_ctx_new();
	ck_assert_ptr_nonnull(zctx);
	pull = zmq_socket(zctx, ZMQ_PULL);
	ck_assert_ptr_nonnull(pull);
	ck_assert_int_eq(zmq_setsockopt(pull, ZMQ_RCVTIMEO, &timeout,
	    sizeof timeout), 0);
	ck_assert_int_eq(zmq_bind(pull, "tcp://127.0.0.1:*"), 0);
	ck_assert_int_eq(zmq_getsockopt(pull, ZMQ_LAST_ENDPOINT, endpoint,
	    &elen), 0);
	n = snprintf(spec, sizeof spec, "zmq:%s", endpoint);
	ck_assert_int_eq(write(fds[1], spec, (size_t)n), n);
	close(fds[1]);
	for (i = 0; i < 100; i++) {
		n = zmq_recv(pull, buf, sizeof buf - 1, 0);
		if (n <= 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			ck_abort_msg("record %d: %s (writer exit %d)", i,
			    zmq_strerror(zmq_errno()), WIFEXITED(st) ?
			    WEXITSTATUS(st) : -1);
		}
		buf[n] = '\0';
		ck_assert_int_eq(atoi(buf + 5), i);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	zmq_close(pull);
	zmq_ctx_term(zctx);
}
END_TEST

START_TEST(test_zmq_no_receiver)
{
	bm_sink *s;
	bm_ctx *ctx;

	/* Nobody listens on port 1: the record is refused, not lost. */
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, "zmq:tcp://127.0.0.1:1", &s), 0);
	ck_assert_int_eq(bm_sink_write(ctx, s, "{}\n", 3), BM_ETIMEDOUT);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "no receiver"));
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	bm_ctx_free(ctx);
}
END_TEST

/* The threads of this process (/proc/self/task), or 0 without /proc. */
static unsigned
zmq_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *ent;
	unsigned n = 0;

	if (d == NULL)
		return 0;
	while ((ent = readdir(d)) != NULL)
		if (ent->d_name[0] != '.')
			n++;
	(void)closedir(d);
	return n;
}

static volatile sig_atomic_t zmq_alarms;

static void
zmq_on_alarm(int sig)
{
	(void)sig;
	zmq_alarms++;
}

/*
 * Closing a zmq sink with records still queued waits for them (the
 * linger), and signals that interrupt the wait (a handler without
 * SA_RESTART, every 50 ms) must not leave the sink's context and its I/O
 * threads running: the close ends the context anyway, and the process
 * has the threads it had before the sink.  The receiver takes one
 * message and reads nothing, so 32 MB stay queued.
 */
START_TEST(test_zmq_close_interrupted)
{
	static char rec[65536];
	struct itimerval every = { { 0, 50000 }, { 0, 50000 } }, off;
	char endpoint[256], spec[300];
	size_t elen = sizeof endpoint;
	struct sigaction sa;
	void *zctx, *pull;
	unsigned before, i;
	bm_sink *s;
	bm_ctx *ctx;
	int one = 1;

	zctx = zmq_ctx_new();
	ck_assert_ptr_nonnull(zctx);
	pull = zmq_socket(zctx, ZMQ_PULL);
	ck_assert_ptr_nonnull(pull);
	ck_assert_int_eq(zmq_setsockopt(pull, ZMQ_RCVHWM, &one, sizeof one),
	    0);
	ck_assert_int_eq(zmq_bind(pull, "tcp://127.0.0.1:*"), 0);
	ck_assert_int_eq(zmq_getsockopt(pull, ZMQ_LAST_ENDPOINT, endpoint,
	    &elen), 0);
	snprintf(spec, sizeof spec, "zmq:%s", endpoint);
	before = zmq_threads();
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, spec, &s), 0);
	memset(rec, 'x', sizeof rec);
	for (i = 0; i < 500; i++)
		ck_assert_int_eq(bm_sink_write(ctx, s, rec, sizeof rec), 0);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = zmq_on_alarm;
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
	memset(&off, 0, sizeof off);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &off, NULL), 0);
	if (before > 0)
		ck_assert_uint_eq(zmq_threads(), before);
	bm_ctx_free(ctx);
	zmq_close(pull);
	zmq_ctx_term(zctx);
}
END_TEST

START_TEST(test_zmq_no_library)
{
	bm_sink *s = NULL;
	bm_ctx *ctx;

	/* A libzmq that cannot be loaded fails the open, naming the file. */
	ck_assert_int_eq(setenv("BENCHMP_ZMQ_LIBRARY",
	    "/nonexistent/libzmq.so.5", 1), 0);
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, "zmq:tcp://127.0.0.1:1", &s),
	    BM_ENOTSUP);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx),
	    "zmq sink: cannot load /nonexistent/libzmq.so.5: "));
	bm_ctx_free(ctx);
}
END_TEST
#endif

/* Build the suite. */
static Suite *
sink_suite(void)
{
	Suite *s = suite_create("sink");
	TCase *tc = tcase_create("sink");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_file_shared);
	tcase_add_test(tc, test_stdout_sink);
	tcase_add_test(tc, test_stdout_order);
	tcase_add_loop_test(tc, test_bad_spec, 0,
	    (int)(sizeof bad_sinks / sizeof bad_sinks[0]));
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_fifo_reader_stalls);
	tcase_add_test(tc, test_fifo_reader_gone);
	tcase_add_test(tc, test_stdout_file_cut);
	tcase_add_test(tc, test_stdout_pipe_part);
	tcase_add_test(tc, test_tcp_roundtrip);
	tcase_add_test(tc, test_unix_roundtrip);
	tcase_add_test(tc, test_tcp_big);
	tcase_add_test(tc, test_unix_big);
	tcase_add_test(tc, test_stream_nobody_listens);
	tcase_add_test(tc, test_stream_listener_gone);
	tcase_add_test(tc, test_stream_connect_timeout);
	tcase_add_test(tc, test_stream_send_timeout);
#ifdef BM_HAVE_ZMQ
	tcase_add_test(tc, test_zmq_roundtrip);
	tcase_add_test(tc, test_zmq_no_receiver);
	tcase_add_test(tc, test_zmq_no_library);
	tcase_add_test(tc, test_zmq_close_interrupted);
#endif
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(sink_suite());
}
