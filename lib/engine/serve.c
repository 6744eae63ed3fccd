/*
 * serve.c: the channel of a figure served to a scheduler.  A scheduler
 * (benchmp-sched) starts a tool with BENCHMP_SERVE=IN,OUT[,VISIT_US] and
 * two pipes; each bm_run() of the tool then keeps its workers set up and
 * measures one short visit per command instead of rounds of fresh
 * processes, so that the scheduler can spread a figure's visits over a
 * whole run.  The lines, one per message, are plain ASCII:
 *
 *   tool to scheduler   figure SEQ PARALLEL REPETITIONS ENOUGH_US
 *                         [figures=N parts=K]   (the first, bm_serve_figures)
 *                       visit SEQ VISIT MEDIAN_NS TIMED_NS WALL_NS
 *                       released SEQ
 *   scheduler to tool   visit | fresh | release | end
 *
 * "release" lets the figure's workers go (their memory with them); its
 * next visit starts fresh ones.  The scheduler so keeps the working set
 * of the figures it holds within the machine.
 *
 * A group (bm_run_group) announces its N figures together, "group FIRST
 * N" and then each one's "figure" line; the scheduler's commands then
 * name the figure ("visit SEQ", "fresh SEQ", "end SEQ"; "release" lets
 * the group's one set of workers go, answered "released FIRST"), and
 * each end but the last is answered "ended SEQ".  In an A/B's arm
 * (BENCHMP_SERVE_ARM set) the scheduler pairs figures one by one: a group's
 * figures are then served one after another, each announced alone.
 * MEDIAN_NS is the visit's median time per operation; TIMED_NS the time
 * inside its timed intervals and WALL_NS the visit's wall time.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* The timed length a visit aims at unless the variable says: 20 ms. */
#define SERVE_VISIT_US 20000u
/* A descriptor number the variable may name. */
#define SERVE_MAX_FD 1048576u

/* Parse "IN,OUT[,VISIT_US]" into the channel; 0 or BM_EPARSE. */
static int
serve_parse(const char *v, struct bm__serve *sv)
{
	char buf[64], *f[3], *save = NULL, *tok;
	uint64_t in, out, visit = SERVE_VISIT_US;
	unsigned n = 0;

	if (strlen(v) >= sizeof(buf))
		return BM_EPARSE;
	memcpy(buf, v, strlen(v) + 1);
	for (tok = strtok_r(buf, ",", &save); tok != NULL && n < 3;
	    tok = strtok_r(NULL, ",", &save))
		f[n++] = tok;
	if (n < 2 || tok != NULL)
		return BM_EPARSE;
	if (bm_parse_uint(f[0], 0, SERVE_MAX_FD, &in) != 0 ||
	    bm_parse_uint(f[1], 0, SERVE_MAX_FD, &out) != 0 ||
	    (n == 3 && bm_parse_uint(f[2], 100, 10000000u, &visit) != 0))
		return BM_EPARSE;
	sv->in = (int)in;
	sv->out = (int)out;
	sv->visit_us = visit;
	return 0;
}

/*
 * Read BENCHMP_SERVE once per context: 1 when a scheduler serves this
 * process, 0 when the variable is unset, or an error naming it (a
 * malformed value, or descriptors that are not open the right way).  The
 * descriptors are marked close-on-exec, so that a program a benchmark
 * runs (lat_proc's) does not hold the scheduler's pipes.
 */
int
bm__serve_open(bm_ctx *ctx)
{
	struct bm__serve *sv = &ctx->serve;
	const char *v;
	int fl_in, fl_out;

	if (sv->opened)
		return sv->opened == 2;
	sv->in = sv->out = -1;
	v = getenv("BENCHMP_SERVE");
	if (v == NULL || *v == '\0') {
		sv->opened = 1;
		return 0;
	}
	if (serve_parse(v, sv) != 0)
		return bm__fail(ctx, BM_EPARSE, "BENCHMP_SERVE: '%.40s' is not "
		    "IN,OUT[,VISIT_US] (descriptors, a visit of 100 us to "
		    "10 s)", v);
	fl_in = fcntl(sv->in, F_GETFL);
	fl_out = fcntl(sv->out, F_GETFL);
	if (fl_in < 0 || fl_out < 0 || (fl_in & O_ACCMODE) == O_WRONLY ||
	    (fl_out & O_ACCMODE) == O_RDONLY)
		return bm__fail(ctx, -EBADF, "BENCHMP_SERVE: descriptors %d "
		    "and %d are not open for reading and writing", sv->in,
		    sv->out);
	(void)fcntl(sv->in, F_SETFD, FD_CLOEXEC);
	(void)fcntl(sv->out, F_SETFD, FD_CLOEXEC);
	v = getenv("BENCHMP_SERVE_ARM");
	sv->arm = v != NULL && *v != '\0';
	sv->opened = 2;
	return 1;
}

int
bm_serve_figures(bm_ctx *ctx, unsigned figures, unsigned parts)
{
	if (ctx == NULL || figures < 1 || figures > BM_MAX_SERVED_FIGURES ||
	    parts >= figures || ctx->serve.figures > 0)
		return -EINVAL;
	ctx->serve.said_figures = figures;
	ctx->serve.said_parts = parts;
	return 0;
}

/* Write one line to the scheduler: 0 or a negative error. */
int
bm__serve_say(bm_ctx *ctx, const char *fmt, ...)
{
	char line[160];
	locale_t old;
	va_list ap;
	int len, rc;

	/* The scheduler reads C's numbers ("%.6g" is 1.5, never 1,5). */
	old = bm__numeric_enter();
	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	bm__numeric_leave(old);
	if (len < 0 || (size_t)len >= sizeof(line) - 1)
		return bm__fail(ctx, -EOVERFLOW, "a line to the scheduler is "
		    "too long");
	line[len++] = '\n';
	rc = bm__pipeio_write(ctx->serve.out, line, (size_t)len);
	if (rc != 0)
		return bm__fail(ctx, rc, "writing to the scheduler: %s",
		    bm_strerror(rc));
	return 0;
}

/*
 * The command a whole line names, or 0; *seq the figure it names ("visit
 * 3", a group's), 0 when it names none.
 */
static int
serve_word(const char *line, unsigned *seq)
{
	static const struct {
		const char *word;
		int cmd;
	} words[] = {
		{ "visit", BM__SERVE_VISIT },
		{ "fresh", BM__SERVE_FRESH },
		{ "release", BM__SERVE_RELEASE },
		{ "end", BM__SERVE_END },
	};
	uint64_t v;
	size_t i, len;

	*seq = 0;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		len = strlen(words[i].word);
		if (strncmp(line, words[i].word, len) != 0)
			continue;
		if (line[len] == '\0')
			return words[i].cmd;
		if (line[len] != ' ' || words[i].cmd == BM__SERVE_RELEASE ||
		    bm_parse_uint(line + len + 1, 1, UINT32_MAX, &v) != 0)
			return 0;
		*seq = (unsigned)v;
		return words[i].cmd;
	}
	return 0;
}

/*
 * Wait for the scheduler's next command, at most BM__SERVE_IDLE_MS, and
 * acting at once on a signal the engine catches (its pipe wakes the
 * poll).  End of file, an unknown or overlong line, are the scheduler's
 * failure and end the run.
 */
int
bm__serve_next_fig(bm_ctx *ctx, int *cmd, unsigned *seq)
{
	struct bm__serve *sv = &ctx->serve;
	struct pollfd pfd[2];
	char *nl;
	ssize_t got;
	int rc;

	for (;;) {
		nl = memchr(sv->buf, '\n', sv->len);
		if (nl != NULL) {
			size_t used = (size_t)(nl - sv->buf) + 1;

			*nl = '\0';
			*cmd = serve_word(sv->buf, seq);
			memmove(sv->buf, sv->buf + used, sv->len - used);
			sv->len -= used;
			if (*cmd == 0)
				return bm__fail(ctx, BM_EPROTO, "the scheduler "
				    "sent an unknown command");
			return 0;
		}
		if (sv->len == sizeof(sv->buf))
			return bm__fail(ctx, BM_EPROTO, "the scheduler sent "
			    "an overlong line");
		bm__signals_drain();
		if (bm__signals_caught()) {
			ctx->last_signal = bm__signals_caught();
			return bm__fail(ctx, BM_EINTR, "interrupted by signal "
			    "%d while waiting for the scheduler",
			    ctx->last_signal);
		}
		pfd[0].fd = sv->in;
		pfd[0].events = POLLIN;
		pfd[1].fd = bm__signals_fd();
		pfd[1].events = POLLIN;
		rc = poll(pfd, 2, BM__SERVE_IDLE_MS);
		if (rc < 0 && errno != EINTR)
			return bm__fail(ctx, -errno, "poll: %s",
			    strerror(errno));
		if (rc == 0)
			return bm__fail(ctx, BM_ETIMEDOUT, "the scheduler sent "
			    "nothing for %d s", BM__SERVE_IDLE_MS / 1000);
		if (rc < 0 || pfd[0].revents == 0)
			continue;
		got = read(sv->in, sv->buf + sv->len,
		    sizeof(sv->buf) - sv->len);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0)
			return bm__fail(ctx, -errno, "reading from the "
			    "scheduler: %s", strerror(errno));
		if (got == 0)
			return bm__fail(ctx, BM_EPROTO, "the scheduler closed "
			    "its pipe");
		sv->len += (size_t)got;
	}
}

/* The same for a figure alone: a command that names a figure is wrong. */
int
bm__serve_next(bm_ctx *ctx, int *cmd)
{
	unsigned seq;
	int rc;

	if ((rc = bm__serve_next_fig(ctx, cmd, &seq)) == 0 && seq != 0)
		return bm__fail(ctx, BM_EPROTO, "the scheduler named a figure "
		    "of a group where this run serves one figure");
	return rc;
}
