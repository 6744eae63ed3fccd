/* ipc.c: round-trip latency and bandwidth between a worker and its partner. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "benchmp/worker.h"
#include "ipc.h"
#include "mem.h"
#include "partner.h"
#include "placement.h"
#include "tool.h"

/* The largest message or transfer a user may ask for: 1 GB. */
#define IPC_MAX_SIZE (1ull << 30)
/* How long a FIFO may take to find its reader. */
#define IPC_FIFO_OPEN_MS 10000
/* The slices of the wait for the partner's ready byte. */
#define IPC_FIFO_SLICE_MS 10

/* One worker's end of the channel and its partner. */
struct ipc_state {
	const struct ipc_tool *desc;
	size_t msg;		/* bytes per message */
	size_t total;		/* bytes per transfer (bandwidth) */
	int wr, rd;		/* the worker's ends */
	int pwr, prd;		/* the partner's ends (closed in the worker) */
	char *buf;
	struct partner partner;
	struct placement place;
	char in[600], out[600];	/* FIFO names: to and from the partner */
	const char *dir;	/* the FIFOs' directory (tool_exit_tmpdir) */
};

/* The partner of a latency tool: send every message straight back. */
static int
ipc_echo(void *arg)
{
	struct ipc_state *s = arg;

	for (;;) {
		if (partner_read(s->prd, s->buf, s->msg) != 0 ||
		    partner_write(s->pwr, s->buf, s->msg) != 0)
			return 0;
	}
}

/* The partner of a bandwidth tool: on each request byte, send total bytes. */
static int
ipc_source(void *arg)
{
	struct ipc_state *s = arg;
	size_t left, chunk;
	char req;

	for (;;) {
		if (partner_read(s->prd, &req, 1) != 0)
			return 0;
		for (left = s->total; left > 0; left -= chunk) {
			chunk = left < s->msg ? left : s->msg;
			if (partner_write(s->pwr, s->buf, chunk) != 0)
				return 0;
		}
	}
}

/*
 * Open a FIFO for writing once its reader is there, without blocking for
 * ever if the partner died before opening it: a partner gone is -EPIPE,
 * as a dead partner is later, and one that never opens -ETIMEDOUT.
 */
static int
ipc_open_writer(const char *path, struct partner *pt)
{
	struct timespec ms = { 0, 1000000 };
	int fd, i;

	for (i = 0; i < IPC_FIFO_OPEN_MS; i++) {
		if ((fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) >= 0) {
			if (fcntl(fd, F_SETFL, 0) != 0) {
				close(fd);
				return -errno;
			}
			return fd;
		}
		if (errno != ENXIO)
			return -errno;
		if (partner_gone(pt))
			return -EPIPE;
		nanosleep(&ms, NULL);
	}
	return -ETIMEDOUT;
}

/* The partner's side of the FIFOs: open them, then serve. */
static int
ipc_fifo_partner(void *arg)
{
	struct ipc_state *s = arg;

	char ready = 'r';

	if ((s->prd = open(s->in, O_RDONLY | O_CLOEXEC)) < 0 ||
	    (s->pwr = open(s->out, O_WRONLY | O_CLOEXEC)) < 0 ||
	    partner_write(s->pwr, &ready, 1) != 0)
		return 1;
	return s->desc->bandwidth ? ipc_source(s) : ipc_echo(s);
}

/* Make the FIFO channel: the worker reads out and writes in. */
static int
ipc_fifo_setup(struct ipc_state *s, unsigned worker)
{
	struct pollfd pfd;
	char ready;
	int rc, waited;

	if ((size_t)snprintf(s->in, sizeof s->in, "%s/%u.in", s->dir,
	    worker) >= sizeof s->in ||
	    (size_t)snprintf(s->out, sizeof s->out, "%s/%u.out", s->dir,
	    worker) >= sizeof s->out)
		return -ENAMETOOLONG;
	if (mkfifo(s->in, 0600) != 0 || mkfifo(s->out, 0600) != 0)
		return -errno;
	/* The read end first (it does not wait), then the partner. */
	if ((s->rd = open(s->out, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -errno;
	pfd.fd = s->rd;
	pfd.events = POLLIN;
	if ((rc = placement_start(&s->place, 1, &s->partner,
	    ipc_fifo_partner, s)) != 0)
		return rc;
	if ((s->wr = ipc_open_writer(s->in, &s->partner)) < 0)
		return s->wr;
	/*
	 * A FIFO read with no writer yet is end of file, not a wait: the
	 * partner's ready byte says it holds the write end.  Then reads can
	 * block, and end of file means the partner is gone.  A FIFO whose
	 * writer never opened it does not poll as hung up: the partner is
	 * asked between slices of the wait.
	 */
	for (waited = 0;; waited += IPC_FIFO_SLICE_MS) {
		if ((rc = poll(&pfd, 1, IPC_FIFO_SLICE_MS)) == 1)
			break;
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (partner_gone(&s->partner))
			return -EPIPE;
		if (waited >= IPC_FIFO_OPEN_MS)
			return -ETIMEDOUT;
	}
	if (fcntl(s->rd, F_SETFL, 0) != 0)
		return -errno;
	if ((rc = partner_read(s->rd, &ready, 1)) != 0)
		return rc;
	/*
	 * Both ends are open on both sides: the names can go, so that the
	 * next round's worker of this index makes its FIFOs afresh.
	 */
	if (unlink(s->in) != 0 || unlink(s->out) != 0)
		return -errno;
	return 0;
}

/* Make the worker's channel and start its partner. */
static int
ipc_init(bm_iter_t n, void *cookie)
{
	struct ipc_state *s = cookie;
	int p1[2], p2[2], sv[2], rc;

	(void)n;
	s->wr = s->rd = s->pwr = s->prd = -1;
	if ((rc = placement_worker(&s->place,
	    bm_worker_index(bm_state_current()))) != 0)
		return rc;
	if ((s->buf = malloc(s->msg)) == NULL)
		return -ENOMEM;
	memset(s->buf, 'b', s->msg);
	switch (s->desc->channel) {
	case IPC_PIPE:
		if (pipe2(p1, O_CLOEXEC) != 0)
			return -errno;
		if (pipe2(p2, O_CLOEXEC) != 0)
			return -errno;
		s->wr = p1[1];
		s->prd = p1[0];
		s->pwr = p2[1];
		s->rd = p2[0];
		break;
	case IPC_UNIX:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
			return -errno;
		s->wr = s->rd = sv[0];
		s->pwr = s->prd = sv[1];
		break;
	case IPC_FIFO:
		return ipc_fifo_setup(s, bm_worker_index(bm_state_current()));
	}
	rc = placement_start(&s->place, 1, &s->partner, s->desc->bandwidth ?
	    ipc_source : ipc_echo, s);
	/* The worker keeps only its ends, so a dead partner reads as EOF. */
	close(s->prd);
	if (s->pwr != s->prd)
		close(s->pwr);
	s->pwr = s->prd = -1;
	return rc;
}

/* n round trips of a message through the partner. */
static int
ipc_latency(bm_iter_t n, void *cookie)
{
	struct ipc_state *s = cookie;

	return partner_round_trips(s->wr, s->rd, s->buf, s->msg, n);
}

/* n transfers of total bytes from the partner. */
static int
ipc_bandwidth(bm_iter_t n, void *cookie)
{
	struct ipc_state *s = cookie;

	return partner_transfers(s->wr, s->rd, s->buf, s->msg, s->total, n);
}

/* Stop the partner and close the channel. */
static int
ipc_close(bm_iter_t n, void *cookie)
{
	struct ipc_state *s = cookie;

	(void)n;
	(void)partner_stop(&s->partner);
	/* --placement=both (and every later run) makes them again. */
	if (s->desc->channel == IPC_FIFO && s->in[0] != '\0') {
		(void)unlink(s->in);
		(void)unlink(s->out);
	}
	if (s->wr >= 0)
		close(s->wr);
	if (s->rd >= 0 && s->rd != s->wr)
		close(s->rd);
	free(s->buf);
	return 0;
}

/* Take -m, -M and --placement into the ipc_state cookie. */
static void
ipc_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct ipc_state *s = cookie;

	if (opt == PLACEMENT_OPT)
		placement_option(&s->place, t, arg);
	else if (opt == 'm')
		s->msg = (size_t)tool_size(t, "-m", arg, 1, IPC_MAX_SIZE);
	else if (opt == 'M')
		s->total = (size_t)tool_size(t, "-M", arg, 1, IPC_MAX_SIZE);
	else
		tool_exit_usage(t, "unexpected option");
}

/* Build the record of one figure and print it, with its line. */
static void
ipc_report(struct tool *t, const bm_result *r, void *cookie)
{
	struct ipc_state *s = cookie;
	const struct ipc_tool *desc = s->desc;
	bm_param params[2 + PLACEMENT_NPARAMS];
	const char *name;
	size_t np = 0;
	bm_record rec;
	char line[160], unit[64];

	params[np++] = tool_record_param("msgsize", NULL, (double)s->msg);
	if (desc->bandwidth) {
		params[np++] = tool_record_param("total", NULL,
		    (double)s->total);
	}
	placement_params(&s->place, params, &np);
	name = desc->channel == IPC_PIPE ? "pipe" :
	    desc->channel == IPC_UNIX ? "unix" : "fifo";
	if (desc->bandwidth)
		tool_record_bw(&rec, t, name, params, np, r, (double)s->total);
	else
		tool_record_us(&rec, t, name, params, np, r);
	placement_measured(&s->place, &rec);
	snprintf(line, sizeof line, "%s: ", desc->label);
	snprintf(unit, sizeof unit, " %s%s", desc->bandwidth ? "MB/sec" :
	    "microseconds", placement_suffix(&s->place));
	tool_report_value(t, &rec, line, desc->bandwidth ? 2 : 4, unit);
}

/* Measure and print one figure, or two for --placement=both. */
int
ipc_main(const struct ipc_tool *desc, int argc, char **argv)
{
	/*
	 * Static, as the program has one: its placement and FIFO names
	 * (5 KB) stay off a stack that a user may limit to 32 KB.
	 */
	static struct ipc_state s;
	struct tool t;
	bm_bench b;
	char args[64];

	memset(&s, 0, sizeof s);
	memset(&t, 0, sizeof t);
	t.name = desc->name;
	snprintf(args, sizeof args, "%s", !desc->options ? "" :
	    desc->bandwidth ? "[-m msgsize] [-M total]" : "[-m msgsize]");
	t.args = args;
	t.extra_usage = placement_usage;
	s.desc = desc;
	s.msg = desc->msg;
	s.total = desc->total;
	if (tool_parse(&t, argc, argv, !desc->options ? "" :
	    desc->bandwidth ? "m:M:" : "m:", placement_long, ipc_option,
	    &s) != argc)
		tool_exit_usage(&t, "unexpected argument '%s'", argv[optind]);
	tool_setup(&t);
	tool_wall_clock(&t);
	/*
	 * Each worker's message buffer and its partner's copy (the partner
	 * writes into it, or the worker does, and the pages are copied):
	 * lat_unix -m 1g -P 16 asked for 32 GB without a word, and the OOM
	 * killer answered.
	 */
	mem_topo_fits(&t, 2 * (uint64_t)s.msg, t.opts.parallel, 0, 0);
	if (desc->channel == IPC_FIFO)
		s.dir = tool_exit_tmpdir(&t);
	placement_setup(&s.place, &t, 2);
	b.initialize = ipc_init;
	b.benchmark = desc->bandwidth ? ipc_bandwidth : ipc_latency;
	b.cleanup = ipc_close;
	b.cookie = &s;
	placement_run(&t, &s.place, 2, &b, ipc_report, &s);
	return tool_finish(&t);
}

/*
 * The family's programs, a row each: bin/NAME.c calls ipc_main() with its
 * own, &ipc_tools[IPC_NAME].
 */
const struct ipc_tool ipc_tools[IPC_NTOOLS] = {
	[IPC_LAT_PIPE] = { .name = "lat_pipe", .channel = IPC_PIPE,
	    .label = "Pipe latency", .msg = 1 },
	[IPC_LAT_UNIX] = { .name = "lat_unix", .channel = IPC_UNIX,
	    .options = 1, .label = "AF_UNIX sock stream latency", .msg = 1 },
	[IPC_LAT_FIFO] = { .name = "lat_fifo", .channel = IPC_FIFO,
	    .label = "Fifo latency", .msg = 1 },
	[IPC_BW_PIPE] = { .name = "bw_pipe", .channel = IPC_PIPE,
	    .bandwidth = 1,
	    .options = 1, .label = "Pipe bandwidth",
	    .msg = 65536, .total = 10485760 },
	[IPC_BW_UNIX] = { .name = "bw_unix", .channel = IPC_UNIX,
	    .bandwidth = 1,
	    .options = 1, .label = "AF_UNIX sock stream bandwidth",
	    .msg = 65536, .total = 10485760 },
};
