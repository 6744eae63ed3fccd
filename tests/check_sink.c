/* check_sink.c: record sinks: shared files, ZeroMQ, bad specs, full disks. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef BM_HAVE_ZMQ
#include <zmq.h>
#endif

#include "check_run.h"
#include "internal.h"

#define WRITERS 8
#define RECORDS 200

/* Make a record of writer w, number i, padded to a length that varies. */
static size_t
make_record(char *buf, size_t cap, unsigned w, unsigned i)
{
	size_t pad = (size_t)((w * 7919u + i * 104729u) % 6000u), n;

	n = (size_t)snprintf(buf, cap, "{\"w\":%u,\"i\":%u,\"pad\":\"", w, i);
	memset(buf + n, 'a' + (char)(w % 26), pad);
	n += pad;
	n += (size_t)snprintf(buf + n, cap - n, "\"}\n");
	return n;
}

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
		if ((pid = fork()) == 0) {
			char buf[8192];
			bm_sink *s;
			bm_ctx *ctx;

			if (bm_ctx_new(&ctx) != 0 ||
			    bm_sink_open(ctx, spec, &s) != 0)
				_exit(2);
			for (i = 0; i < RECORDS; i++) {
				size_t m = make_record(buf, sizeof buf, w, i);

				if (bm_sink_write(ctx, s, buf, m) != 0)
					_exit(3);
			}
			_exit(bm_sink_close(ctx, s) == 0 ? 0 : 4);
		}
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
		ck_assert_int_eq((size_t)len, make_record(expect,
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

START_TEST(test_full_disk)
{
	bm_sink *s;
	bm_ctx *ctx;

	/* /dev/full fails every write with ENOSPC, like a full disk. */
	if (access("/dev/full", W_OK) != 0)
		return;
	ck_assert_int_eq(bm_ctx_new(&ctx), 0);
	ck_assert_int_eq(bm_sink_open(ctx, "file:/dev/full", &s), 0);
	ck_assert_int_eq(bm_sink_write(ctx, s, "{}\n", 3), -ENOSPC);
	ck_assert_ptr_nonnull(strstr(bm_ctx_errmsg(ctx), "/dev/full"));
	ck_assert_int_eq(bm_sink_close(ctx, s), 0);
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
	tcase_add_loop_test(tc, test_bad_spec, 0,
	    (int)(sizeof bad_sinks / sizeof bad_sinks[0]));
	tcase_add_test(tc, test_full_disk);
	tcase_add_test(tc, test_fifo);
#ifdef BM_HAVE_ZMQ
	tcase_add_test(tc, test_zmq_roundtrip);
	tcase_add_test(tc, test_zmq_no_receiver);
	tcase_add_test(tc, test_zmq_no_library);
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
