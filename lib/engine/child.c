/* child.c: the worker side of the engine, a state machine driven over pipes. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "internal.h"

/* The phases a worker goes through, in order. */
enum child_phase {
	CHILD_WARMUP,		/* untimed batches until the start byte */
	CHILD_TIMING,		/* timed intervals until repetitions are kept */
	CHILD_COOLDOWN		/* untimed batches until asked for the record */
};

/*
 * Accept an interval that reached this fraction of enough.  The next
 * count aims a little past enough (CHILD_AIM) so that ordinary jitter does
 * not push intervals below the floor and waste them.
 */
#define CHILD_ACCEPT 0.8
#define CHILD_AIM 1.1
/* Grow n this much at most per interval while the interval is short. */
#define CHILD_GROW 8.0
/* No count beyond this: an empty benchmark must still terminate. */
#define CHILD_MAX_N ((bm_iter_t)1 << 62)
/*
 * A worker waits for its parent's next command (the go after initialize,
 * the exit byte after cleanup, a kept worker's next visit) as long as the
 * parent may take to send it (bm__engine_init_bound_ns,
 * bm__engine_reply_bound_ns: the parent kills the workers when it gives
 * up) and this much more, so that the bound only ends a worker whose
 * parent is wedged, never one of a healthy run whose other workers are
 * slow: a worker that left early would fail the run.  A parent that dies
 * ends the wait at once (the pipe's end of file).
 */
#define CHILD_WAIT_MARGIN_NS (60ull * 1000000000u)
/*
 * A kept worker alone whose timed calls all lasted this long in its last
 * visit (a 256 MB copy: 20-50 ms) waits for its next visit's start at
 * once: such a call is
 * five times the later visits' warmup (ENGINE_SERVE_WARMUP_US) and warms
 * up in its first part as well as a call more would, which would take
 * half of the visit's wall time.
 */
#define CHILD_OWN_WARMUP_NS 10000000u
/*
 * A kept worker's later warmup runs calls of about this share of it when
 * its calls are longer than twice that: the start then waits for the
 * call in flight for a fraction of the warmup, not for a whole call.
 */
#define CHILD_WARM_CALL_SHARE 0.25

/* What a kept worker of a group remembers of each of its benchmarks. */
struct child_member {
	bm_iter_t n;		/* the count it left with, or 0 */
	uint64_t short_ns;	/* its last visit's shortest call, or 0 */
};

/* Everything one worker knows; lives on the worker's stack. */
struct bm_state {
	const struct bm__plan *plan;	/* the engine's, shared by all */
	bm_ctx *ctx;			/* plan->ctx */
	const bm_bench *bench;		/* plan->bench, or the group's current */
	unsigned gi;			/* a group's: bench's index */
	struct child_member *group;	/* a group's: each one's last visit */
	unsigned worker;
	int ctl_fd;
	int resp_fd;
	int phase;
	int inflight;		/* a benchmark call is being timed */
	int ready_sent;
	int initialized;	/* initialize succeeded: cleanup is due */
	uint64_t cmd_at;	/* bm__deadline_now() at the last go or visit */
	uint64_t pass_us;	/* the longest from one of them to the start */
	bm_iter_t n;		/* count for a timed call */
	bm_iter_t warm_n;	/* a later warmup's shorter count, or 0 */
	bm_iter_t call_n;	/* count for the call in flight */
	uint64_t enough_ns;	/* plan->enough_us in ns */
	uint64_t t0;		/* clock at the start of the call */
	uint64_t warm0;		/* clock when the warmup started */
	uint64_t warm_ns;	/* how long it lasts (the parent's plan) */
	uint64_t short_ns;	/* the visit's shortest timed call */
	uint64_t c0;		/* cycles at the start of the call */
	int cycles;		/* the cycle subtimer reports counts */
	unsigned count;		/* samples kept */
	struct bm__wire *samples;
	bm__counters counters;	/* perf events, when asked for */
	double ev0[BM_MAX_EVENTS];	/* counts at the start of the call */
	unsigned nops;		/* single operations timed */
	double *ops;
	double *ops_cy;		/* their cycles, with a cycle subtimer */
	/* Interference accounting (plan->interference and readable). */
	int account;
	struct bm__interfere in;
	struct bm__ireading r0;	/* read right before t0 */
	/*
	 * stop() called inside the benchmark (the compat layer): the call
	 * in flight ended at t_stop, with these cycles and counts.
	 */
	int ended;
	uint64_t t_stop;
	uint64_t c_stop;
	double ev_stop[BM_MAX_EVENTS];
	struct bm__ireading r_stop;	/* read right after t_stop */
	struct bm__ibase base;
	uint32_t disturbed;	/* timed intervals judged disturbed */
	uint32_t discarded;	/* of them run again */
	uint32_t bound_hit;
	uint32_t stopped;	/* timed intervals that spanned a stop */
	double discarded_ns;
	unsigned cont0;		/* SIGCONTs seen when the call started */
};

/*
 * The worker's state for bm_state_current(): a benchmark that leaves its
 * body through a signal handler has no other way to reach it.  It is set
 * only in a forked worker, which runs one benchmark and exits.
 */
static bm_state *child_current;

/* The running worker's state, or NULL outside a worker. */
bm_state *
bm_state_current(void)
{
	return child_current;
}

/* The index of the running worker. */
unsigned
bm_worker_index(const bm_state *s)
{
	return s != NULL ? s->worker : 0;
}

/* Count a partner's run-queue wait as the worker's. */
int
bm_state_watch(bm_state *s, long pid)
{
	if (s == NULL || !s->account || pid <= 0)
		return -EINVAL;
	return bm__interfere_watch(&s->in, pid);
}

/* Where the worker is in the protocol (the BM__STATE_* values). */
int
bm__state_phase(const bm_state *s)
{
	if (s == NULL)
		return -1;
	switch (s->phase) {
	case CHILD_WARMUP:
		return s->ready_sent ? BM__STATE_WARMUP : BM__STATE_FIRST_PASS;
	case CHILD_TIMING:
		return BM__STATE_TIMING;
	default:
		return BM__STATE_COOLDOWN;
	}
}

/* Send one event byte, leaving quietly if the parent has gone. */
static void
child_send(bm_state *s, unsigned char msg)
{
	if (bm__pipeio_write(s->resp_fd, &msg, 1) != 0)
		_exit(BM__EXIT_PARENT);
}

/*
 * Send the record: an event byte, the header and the samples in a single
 * buffer, so the parent sees them together.
 */
static void
child_send_record(bm_state *s, unsigned char msg, int status)
{
	struct bm__record_hdr hdr;
	size_t body = (size_t)s->count * sizeof(struct bm__wire);
	/* The operations' times, then their cycles with a cycle subtimer. */
	size_t opsz = (size_t)s->nops * sizeof(double) *
	    (s->ops_cy != NULL ? 2 : 1);
	unsigned char *buf;

	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = BM__RECORD_MAGIC;
	hdr.status = status;
	hdr.worker = s->worker;
	hdr.count = s->count;
	hdr.nops = s->nops;
	hdr.disturbed = s->disturbed;
	hdr.discarded = s->discarded;
	hdr.bound_hit = s->bound_hit;
	hdr.stopped = s->stopped;
	hdr.accounted = (uint32_t)s->account;
	hdr.discarded_ns = s->discarded_ns;
	buf = malloc(1 + sizeof(hdr) + body + opsz);
	if (buf == NULL) {
		/* Say so on the pipe: the header alone fits on the stack. */
		unsigned char fail[1 + sizeof(hdr)];

		hdr.status = -ENOMEM;
		hdr.count = hdr.nops = 0;
		fail[0] = BM__MSG_FAIL;
		memcpy(fail + 1, &hdr, sizeof(hdr));
		_exit(bm__pipeio_write(s->resp_fd, fail, sizeof(fail)) == 0 ?
		    BM__EXIT_FAIL : BM__EXIT_PARENT);
	}
	buf[0] = msg;
	memcpy(buf + 1, &hdr, sizeof(hdr));
	if (body > 0)
		memcpy(buf + 1 + sizeof(hdr), s->samples, body);
	if (s->nops > 0)
		memcpy(buf + 1 + sizeof(hdr) + body, s->ops,
		    s->nops * sizeof(double));
	if (s->nops > 0 && s->ops_cy != NULL)
		memcpy(buf + 1 + sizeof(hdr) + body + s->nops * sizeof(double),
		    s->ops_cy, s->nops * sizeof(double));
	if (bm__pipeio_write(s->resp_fd, buf,
	    1 + sizeof(hdr) + body + opsz) != 0)
		_exit(BM__EXIT_PARENT);
	free(buf);
}

/* Report a failed callback to the parent, clean up and exit. */
static void __attribute__((noreturn))
child_fail(bm_state *s, int status)
{
	s->count = 0;
	s->nops = 0;
	child_send_record(s, BM__MSG_FAIL, status);
	if (s->initialized && s->bench->cleanup != NULL)
		(void)s->bench->cleanup(0, s->bench->cookie);
	_exit(BM__EXIT_FAIL);
}

/*
 * Look for a command from the parent without waiting; return it, 0 when
 * there is none.  End of file means the parent is gone: leave.
 */
static int
child_poll_cmd(bm_state *s)
{
	struct pollfd pfd = { .fd = s->ctl_fd, .events = POLLIN };
	unsigned char cmd;
	ssize_t got;

	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	got = read(s->ctl_fd, &cmd, 1);
	if (got == 0)
		_exit(BM__EXIT_PARENT);
	if (got < 0)
		return 0;
	return cmd;
}

/*
 * The bound in ms on a wait of ns for the parent, with the margin; -1 (no
 * bound but the parent's end) beyond what an int holds, 24 days.
 */
static int
child_wait_ms(uint64_t ns)
{
	uint64_t ms = (ns + CHILD_WAIT_MARGIN_NS) / 1000000u;

	return ms > INT_MAX ? -1 : (int)ms;
}

/*
 * The bound on a wait for the parent's next command: what the parent may
 * take (bm__engine_reply_bound_ns) with the untimed pass it may have
 * seen, which is at most the time from the go or visit to the start (the
 * parent starts when every worker has passed), or to now before the start.
 */
static int
child_reply_ms(const bm_state *s)
{
	uint64_t pass_us = s->pass_us, since;

	if (s->phase == CHILD_WARMUP && s->cmd_at != 0) {
		since = (bm__deadline_now() - s->cmd_at) / 1000u;
		if (since > pass_us)
			pass_us = since;
	}
	return child_wait_ms(bm__engine_reply_bound_ns(s->plan, pass_us));
}

/* Note a go or a visit's command: the worker's untimed pass starts. */
static void
child_commanded(bm_state *s)
{
	s->cmd_at = bm__deadline_now();
}

/* The start came: time the intervals, noting how long the pass took. */
static void
child_started(bm_state *s)
{
	uint64_t pass_us = (bm__deadline_now() - s->cmd_at) / 1000u;

	if (pass_us > s->pass_us)
		s->pass_us = pass_us;
	s->phase = CHILD_TIMING;
}

/* Run cleanup and say how it went: BM__MSG_CLEAN, or its failure and exit. */
static void
child_cleanup(bm_state *s)
{
	int rc;

	if (s->bench->cleanup != NULL &&
	    (rc = s->bench->cleanup(0, s->bench->cookie)) < 0) {
		s->count = 0;
		s->nops = 0;
		child_send_record(s, BM__MSG_FAIL, rc);
		_exit(BM__EXIT_FAIL);
	}
	child_send(s, BM__MSG_CLEAN);
}

/*
 * Send the record, clean up, say how cleanup went, and exit when the
 * parent says so.  A failed cleanup is reported on the pipe as any
 * callback's failure is, so that no exit status has to carry it.
 */
static void __attribute__((noreturn))
child_finish(bm_state *s)
{
	unsigned char cmd = 0;
	int rc;

	child_send_record(s, BM__MSG_RESULT, 0);
	child_cleanup(s);
	rc = bm__pipeio_read(s->ctl_fd, &cmd, 1, child_reply_ms(s));
	_exit(rc == 0 && cmd == BM__CMD_EXIT ? BM__EXIT_OK :
	    BM__EXIT_PARENT);
}

/*
 * Whether the worker is a kept one with no other: nobody needs it to
 * keep the machine busy while it waits for the parent (cooldown), and
 * once warm it can wait for the start without running on.
 */
static int
child_alone(const bm_state *s)
{
	return s->plan->keep && s->plan->parallel == 1;
}

/* Wait for the parent's next command (its end ends the worker). */
static int
child_wait_cmd(bm_state *s)
{
	unsigned char cmd = 0;

	if (bm__pipeio_read(s->ctl_fd, &cmd, 1, child_reply_ms(s)) != 0)
		_exit(BM__EXIT_PARENT);
	return cmd;
}

/*
 * A kept worker of a group told to measure another of its benchmarks
 * (BM__CMD_BENCH and its payload): the count found for the one it leaves
 * is kept for its next visit, and the other starts from its own (1 the
 * first time, grown in the warmup the payload gives).  Where the two do
 * not share their set-up, the one left is cleaned up and the other
 * initialized first, untimed (a sweep's points: each its own chain over
 * one buffer the worker keeps).  Returns that warmup.
 */
static uint64_t
child_switch(bm_state *s)
{
	struct bm__cmd_bench c;
	const bm_bench *to;
	int rc;

	/* (The payload came in the command's write.) */
	if (bm__pipeio_read(s->ctl_fd, &c, sizeof(c), child_reply_ms(s)) != 0)
		_exit(BM__EXIT_PARENT);
	if (s->group == NULL || c.index >= s->plan->ngroup)
		child_fail(s, -EPROTO);
	to = &s->plan->group[c.index];
	s->group[s->gi].n = s->n;
	s->group[s->gi].short_ns = s->short_ns;
	if (!bm__bench_shares(s->bench, to)) {
		/* Set up afresh: its last visit says nothing of its calls. */
		s->group[c.index].short_ns = 0;
		s->initialized = 0;
		if (s->bench->cleanup != NULL &&
		    (rc = s->bench->cleanup(0, s->bench->cookie)) < 0)
			child_fail(s, rc);
		if (to->initialize != NULL &&
		    (rc = to->initialize(0, to->cookie)) < 0)
			child_fail(s, rc);
		s->initialized = 1;
	}
	s->gi = c.index;
	s->bench = to;
	s->n = s->group[c.index].n > 0 ? s->group[c.index].n : 1;
	/*
	 * Its last visit's shortest call decides whether it warms up, as a
	 * lone figure's does (child_visit_end): a 256 MB copy left for a
	 * read of the same buffers is its own warmup as much as after
	 * itself.  Unknown (0), it warms up as the parent says.
	 */
	s->short_ns = s->group[c.index].short_ns;
	return c.warmup_us;
}

/*
 * The count of a later warmup's calls: s->n scaled to
 * CHILD_WARM_CALL_SHARE of the warmup, when the last visit's calls
 * (their shortest, s->short_ns) were longer than twice that; else 0, the
 * calls as timed.  A 5 ms chase after a 2 ms warmup otherwise held the
 * start for the rest of its call (on a 2-vCPU AMD EPYC KVM guest,
 * 2026-12-04: 5.5 ms of warmup for every 17 ms timed in par_mem's
 * sweep).  The figures read the same either way, those across CPUs too,
 * whose full warmup decides their state (lat_pipe, lat_udp and bw_pipe
 * across CPUs, eight served runs of each library alternating).
 */
static bm_iter_t
child_warm_n(const bm_state *s)
{
	double part = CHILD_WARM_CALL_SHARE * (double)s->warm_ns, n;

	if (s->short_ns == 0 || (double)s->short_ns <= 2 * part)
		return 0;
	n = floor((double)s->n * part / (double)s->short_ns);
	return n < 1 ? 1 : (bm_iter_t)n;
}

/*
 * A kept worker's end of a visit: send the record, then wait for the
 * parent.  On BM__CMD_AGAIN the worker forgets the visit and warms up
 * again (the buffers, files and partners that initialize set up stay),
 * unless its calls are their own warmup (CHILD_OWN_WARMUP_NS); on
 * BM__CMD_QUIT it cleans up and exits as child_finish() does.
 */
static void
child_visit_end(bm_state *s)
{
	uint64_t warm_us;
	int cmd;

	child_send_record(s, BM__MSG_RESULT, 0);
	cmd = child_wait_cmd(s);
	if (cmd == BM__CMD_QUIT) {
		child_cleanup(s);
		_exit(BM__EXIT_OK);
	}
	child_commanded(s);
	warm_us = s->plan->later_warmup_us;
	if (cmd == BM__CMD_BENCH)
		warm_us = child_switch(s);
	else if (cmd != BM__CMD_AGAIN)
		child_fail(s, -EPROTO);
	s->phase = CHILD_WARMUP;
	s->warm0 = bm__clock_now(&s->ctx->timer);
	s->warm_ns = warm_us * 1000u;
	s->ready_sent = 0;
	s->count = 0;
	s->nops = 0;
	s->disturbed = s->discarded = s->bound_hit = s->stopped = 0;
	s->discarded_ns = 0;
	s->warm_n = child_warm_n(s);
	if (child_alone(s) && s->short_ns >= CHILD_OWN_WARMUP_NS &&
	    s->short_ns >= s->warm_ns) {
		child_send(s, BM__MSG_READY);
		s->ready_sent = 1;
		if (child_wait_cmd(s) == BM__CMD_START)
			child_started(s);
	}
}

/*
 * Choose the count for the next call from the last one: grow quickly while
 * the interval is far too short, then scale to aim just past enough.
 */
static bm_iter_t
child_next_n(const bm_state *s, uint64_t elapsed)
{
	double target = (double)s->enough_ns * CHILD_AIM;
	double next;

	if (elapsed == 0 || (double)elapsed * CHILD_GROW < target)
		next = (double)s->n * CHILD_GROW;
	else
		next = ceil((double)s->n * target / (double)elapsed);
	/*
	 * Workers sharing CPUs: an interval cut by a preemption lasts the
	 * whole time slice of the others, and scaling the count down by it
	 * lands on a count that runs inside one slice, too short to keep,
	 * and grows back to the same long interval: every kept interval then
	 * waits out dozens of slices (seconds with -P 256 on two CPUs).
	 * Halving and doubling at most (once timing) lets the count settle
	 * where intervals span a preemption or two, as the shared figure
	 * should.
	 */
	if (s->plan->shared && next < (double)s->n / 2)
		next = ceil((double)s->n / 2);
	if (s->plan->shared && s->phase != CHILD_WARMUP &&
	    next > (double)s->n * 2)
		next = (double)s->n * 2;
	if (next < 1)
		next = 1;
	if (next > (double)CHILD_MAX_N)
		next = (double)CHILD_MAX_N;
	return (bm_iter_t)next;
}

/* Keep one timed interval, minus the clock and loop overheads. */
static void
child_keep(bm_state *s, uint64_t elapsed, uint64_t cycles, const double *ev,
    const struct bm__idelta *d)
{
	struct bm__wire *w = &s->samples[s->count++];
	double ns;
	size_t i;

	w->wait_ns = d->wait_ns;
	w->lost_ns = d->lost_ns;
	w->ivcsw = (uint32_t)d->ivcsw;
	w->flags = (d->migrated ? BM_SAMPLE_MIGRATED : 0) |
	    (d->disturbed ? BM_SAMPLE_DISTURBED : 0);

	for (i = 0; i < BM_MAX_EVENTS; i++)
		w->events[i] = ev[i] - s->ev0[i];

	ns = (double)elapsed - s->plan->timing_o_ns -
	    (double)s->n * s->plan->loop_o_ns;
	/* Below the overheads the honest figure is zero, not negative. */
	w->ns = ns > 0 ? ns : 0;
	w->n = s->n;
	w->cycles = NAN;
	if (s->cycles) {
		/* The cycle counter's overheads, as the clock's above. */
		w->cycles = (double)cycles - s->plan->cycle_o -
		    (double)s->n * s->plan->loop_o_cycles;
		if (!(w->cycles > 0))
			w->cycles = 0;
	}
}

/*
 * Take the readings at the start of a call: the SIGCONTs seen so far
 * (a stop in the call discards it), the interference accounting,
 * the counters, the cycles, and the clock last, next to the call.
 */
static inline void
child_begin(bm_state *s)
{
	const bm__timer *t = &s->ctx->timer;

	s->cont0 = bm__signals_continued();
	if (s->account && s->phase != CHILD_COOLDOWN)
		bm__interfere_read(&s->in, &s->r0);
	if (bm__counters_read(&s->counters, &s->ctx->events, s->ev0) != 0)
		child_fail(s, -EIO);
	if (s->cycles)
		s->c0 = bm__cycle_now(t);
	s->t0 = bm__clock_now(t);
}

/*
 * End the call in flight (if any) and return the count for the next one,
 * starting its clock last.  This is the whole state machine: warmup, then
 * timing_interval, then cooldown, which ends in child_finish().
 */
bm_iter_t
bm_interval(bm_state *s)
{
	const bm__timer *t;
	uint64_t t1, c1 = 0, elapsed = 0;
	double ev1[BM_MAX_EVENTS];
	struct bm__ireading r1;
	struct bm__idelta d;
	int cmd, accepted, stopped, ended, again = 0;

	/* Outside a worker there is no interval to end: no count. */
	if (s == NULL || s->ctx == NULL)
		return 0;
	t = &s->ctx->timer;
	t1 = bm__clock_now(t);
	if (s->cycles)
		c1 = bm__cycle_now(t);
	stopped = bm__signals_continued() != s->cont0;
	if (bm__counters_read(&s->counters, &s->ctx->events, ev1) != 0)
		child_fail(s, -EIO);
	if ((ended = s->ended) != 0) {
		/* The benchmark ended its interval itself (stop()). */
		t1 = s->t_stop;
		c1 = s->c_stop;
		memcpy(ev1, s->ev_stop, sizeof(ev1));
		s->ended = 0;
	}
	memset(&d, 0, sizeof(d));
	if (s->inflight) {
		elapsed = t1 > s->t0 ? t1 - s->t0 : 0;
		accepted = (double)elapsed >= CHILD_ACCEPT * (double)s->enough_ns
		    || s->call_n >= CHILD_MAX_N;
		if (stopped && s->phase != CHILD_COOLDOWN) {
			/*
			 * The call spanned a stop (Ctrl-Z, SIGSTOP) and a
			 * SIGCONT: its time is the stop's, not the
			 * benchmark's, and says nothing about the machine
			 * either.  Run the same count again, in any case and
			 * without counting it against the bound on
			 * discarding (each stop is the user's doing).
			 */
			if (s->phase == CHILD_TIMING) {
				s->stopped++;
				s->discarded_ns += (double)elapsed;
			}
			accepted = 0;
			again = 1;
		} else if (s->account && s->phase != CHILD_COOLDOWN) {
			if (ended)
				r1 = s->r_stop;
			else
				bm__interfere_read(&s->in, &r1);
			(void)bm__interfere_judge(&s->base, &s->r0, &r1,
			    elapsed, s->call_n, accepted,
			    s->phase == CHILD_WARMUP,
			    &d);
		}
		if (s->phase == CHILD_TIMING && accepted && d.disturbed) {
			s->disturbed++;
			if (s->discarded < s->plan->repetitions) {
				/* Run it again: it is not a sample. */
				s->discarded++;
				s->discarded_ns += (double)elapsed;
				accepted = 0;
				again = 1;
				d.disturbed = 0;
			} else {
				s->bound_hit = 1;
			}
		}
		switch (s->phase) {
		case CHILD_WARMUP:
			if (!s->ready_sent) {
				child_send(s, BM__MSG_READY);
				s->ready_sent = 1;
			}
			/*
			 * Alone and warm (the warmup counts from the
			 * first pass's start, as the parent's does), wait
			 * for the start rather than run a pass more: one
			 * pass may be a whole 256 MB copy.
			 */
			if (child_alone(s) && t1 - s->warm0 >= s->warm_ns)
				cmd = child_wait_cmd(s);
			else
				cmd = child_poll_cmd(s);
			if (cmd == BM__CMD_START)
				child_started(s);
			break;
		case CHILD_TIMING:
			if (!accepted)
				break;
			if (s->count == 0 || elapsed < s->short_ns)
				s->short_ns = elapsed;
			child_keep(s, elapsed, c1 - s->c0, ev1, &d);
			if (s->count < s->plan->repetitions)
				break;
			child_send(s, BM__MSG_DONE);
			s->phase = CHILD_COOLDOWN;
			/*
			 * Alone, with no single operations left to time:
			 * no cooldown, the record at once.
			 */
			if (!child_alone(s) || (s->plan->percentiles > 0 &&
			    s->ops == NULL))
				break;
			if (child_wait_cmd(s) != BM__CMD_RESULT)
				child_fail(s, -EPROTO);
			child_visit_end(s);
			again = 1;
			break;
		case CHILD_COOLDOWN:
			if (child_poll_cmd(s) != BM__CMD_RESULT)
				break;
			if (!s->plan->keep)
				child_finish(s);
			child_visit_end(s);
			/* The count stays: the benchmark is warm at it. */
			again = 1;
			break;
		}
		/*
		 * A discarded interval's count was right; its time was
		 * stretched by the disturbance: run the same count again.
		 */
		/* (A shorter warmup call says nothing of the count.) */
		if (!again && s->call_n == s->n &&
		    (!accepted || elapsed > 2 * s->enough_ns))
			s->n = child_next_n(s, elapsed);
	}
	s->call_n = s->phase == CHILD_WARMUP && s->warm_n > 0 ? s->warm_n :
	    s->n;
	s->inflight = 1;
	child_begin(s);
	return s->call_n;
}

/*
 * start() inside the benchmark: the call in flight is timed from now, so
 * that the setup it did before is not (the readings in bm_interval()'s
 * order, the clock last).  Nothing outside a call in flight.
 */
void
bm__state_restart(bm_state *s)
{
	if (s == NULL || !s->inflight)
		return;
	s->ended = 0;
	child_begin(s);
}

/*
 * stop() inside the benchmark: the call in flight ends now (the clock
 * first); what the benchmark does until it returns is not timed.  1 with
 * the nanoseconds since the interval's start in *ns, or 0 outside a call
 * in flight.
 */
int
bm__state_stop(bm_state *s, uint64_t *ns)
{
	const bm__timer *t;

	if (s == NULL || !s->inflight)
		return 0;
	t = &s->ctx->timer;
	s->t_stop = bm__clock_now(t);
	s->c_stop = s->cycles ? bm__cycle_now(t) : 0;
	if (bm__counters_read(&s->counters, &s->ctx->events, s->ev_stop) != 0)
		child_fail(s, -EIO);
	if (s->account && s->phase != CHILD_COOLDOWN)
		bm__interfere_read(&s->in, &s->r_stop);
	s->ended = 1;
	*ns = s->t_stop > s->t0 ? s->t_stop - s->t0 : 0;
	return 1;
}

/* The worker's context (its timer is the one intervals are timed on). */
bm_ctx *
bm__state_ctx(const bm_state *s)
{
	return s != NULL ? s->ctx : NULL;
}

/* An empty operation, reached through a pointer as a benchmark is. */
static int
child_noop(bm_iter_t n, void *cookie)
{
	(void)n;
	(void)cookie;
	return 0;
}

static int (*volatile child_noop_fn)(bm_iter_t, void *) = child_noop;

/* Order the clock read with the code around it (seed 003's fences). */
static inline void
child_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("lfence" : : : "memory");
#else
	__asm__ volatile("" : : : "memory");
#endif
}

/*
 * Time one call of fn(1); the fences keep the call inside the reads.  With
 * cy not NULL the cycle counter is read too, inside the clock's reads, and
 * its count goes to *cy.
 */
static inline uint64_t
child_time_one(const bm__timer *t, bm_fn fn, void *cookie, int *rc,
    double *cy)
{
	uint64_t t0, t1, c0 = 0, c1 = 0;

	child_fence();
	t0 = bm__clock_now(t);
	if (cy != NULL)
		c0 = bm__cycle_now(t);
	child_fence();
	*rc = fn(1, cookie);
	child_fence();
	if (cy != NULL) {
		c1 = bm__cycle_now(t);
		*cy = c1 > c0 ? (double)(c1 - c0) : 0.0;
	}
	t1 = bm__clock_now(t);
	child_fence();
	return t1 > t0 ? t1 - t0 : 0;
}

/* Sort helper for doubles. */
static int
child_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Time single operations one by one, after the intervals: the cost of an
 * empty measurement (the median of 1001, through the same indirect call)
 * is subtracted from each, and at most CHILD_PCT_NS are spent.  With a
 * cycle subtimer each operation's cycles are kept too (s->ops_cy), minus
 * the empty measurement's median cycles.
 */
#define CHILD_PCT_NS 2000000000ull
#define CHILD_PCT_EMPTY 1001
static void
child_percentiles(bm_state *s)
{
	const bm__timer *t = &s->ctx->timer;
	uint64_t start;
	double *empty, *emptyc, v, c = 0, *cp;
	unsigned i;
	int rc;

	s->ops = calloc(s->plan->percentiles, sizeof(*s->ops));
	empty = calloc(2 * CHILD_PCT_EMPTY, sizeof(*empty));
	if (s->cycles)
		s->ops_cy = calloc(s->plan->percentiles, sizeof(*s->ops_cy));
	if (s->ops == NULL || empty == NULL ||
	    (s->cycles && s->ops_cy == NULL))
		child_fail(s, -ENOMEM);
	emptyc = empty + CHILD_PCT_EMPTY;
	cp = s->cycles ? &c : NULL;
	for (i = 0; i < CHILD_PCT_EMPTY; i++) {
		empty[i] = (double)child_time_one(t, child_noop_fn, NULL, &rc,
		    cp);
		emptyc[i] = c;
	}
	qsort(empty, CHILD_PCT_EMPTY, sizeof(empty[0]), child_cmp);
	qsort(emptyc, CHILD_PCT_EMPTY, sizeof(emptyc[0]), child_cmp);
	start = bm__clock_now(t);
	for (i = 0; i < s->plan->percentiles; i++) {
		v = (double)child_time_one(t, s->bench->benchmark,
		    s->bench->cookie, &rc, cp) - empty[CHILD_PCT_EMPTY / 2];
		if (rc < 0)
			child_fail(s, rc);
		if (s->cycles) {
			c -= emptyc[CHILD_PCT_EMPTY / 2];
			s->ops_cy[s->nops] = c > 0 ? c : 0;
		}
		s->ops[s->nops++] = v > 0 ? v : 0;
		if ((i & 63) == 0 && bm__clock_now(t) - start > CHILD_PCT_NS)
			break;
	}
	free(empty);
}

/* Run worker number worker of plan p to completion; never returns. */
void
bm__child_main(const struct bm__plan *p, unsigned worker, int ctl_fd,
    int resp_fd)
{
	bm_ctx *ctx = p->ctx;
	const bm_bench *b = p->bench;
	bm_state s;
	unsigned char go = 0;
	bm_iter_t n;
	int rc;

	bm__signals_restore_in_child();
#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
	/* No orphans: if the parent dies, so does the worker. */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	/*
	 * A parent that died between the fork and the line above sent no
	 * signal: the worker has another parent already, and leaves.
	 */
	if ((long)getppid() != p->parent)
		_exit(BM__EXIT_PARENT);
	memset(&s, 0, sizeof(s));
	s.plan = p;
	s.ctx = ctx;
	s.bench = b;
	s.worker = worker;
	s.ctl_fd = ctl_fd;
	s.resp_fd = resp_fd;
	s.phase = CHILD_WARMUP;
	s.n = 1;
	s.enough_ns = p->enough_us * 1000u;
	s.samples = calloc(p->repetitions, sizeof(*s.samples));
	if (s.samples == NULL)
		child_fail(&s, -ENOMEM);
	if (p->group != NULL) {
		s.gi = (unsigned)(b - p->group);
		if ((s.group = calloc(p->ngroup, sizeof(*s.group))) == NULL)
			child_fail(&s, -ENOMEM);
	}
	if ((rc = bm__timer_after_fork(&ctx->timer)) != 0)
		child_fail(&s, rc);
	s.cycles = bm__timer_has_cycles(&ctx->timer);
	s.in.fd = -1;
	if (p->interference && bm__interfere_open(&s.in) == 0)
		s.account = 1;
	if ((rc = bm__counters_open(&s.counters, &ctx->events)) != 0)
		child_fail(&s, rc);
	if ((rc = bm__sched_apply(&ctx->sched, worker)) != 0)
		child_fail(&s, rc);
	child_current = &s;
	if (b->initialize != NULL && (rc = b->initialize(0, b->cookie)) < 0)
		child_fail(&s, rc);
	s.initialized = 1;
	child_send(&s, BM__MSG_INIT);
	/*
	 * Wait until all are initialised: a worker that started its first
	 * pass at once would compete with the parent still forking the
	 * others (seconds with -P 256 on two CPUs), and would find its count
	 * on a machine less busy than the one it is timed on.
	 */
	rc = bm__pipeio_read(ctl_fd, &go, 1,
	    child_wait_ms(bm__engine_init_bound_ns(p)));
	if (rc != 0 || go != BM__CMD_GO)
		child_fail(&s, rc != 0 ? rc : -EPROTO);
	child_commanded(&s);
	s.warm0 = bm__clock_now(&ctx->timer);
	s.warm_ns = p->warmup_us * 1000u;
	for (;;) {
		/* (The count first: a group's visit may switch s.bench.) */
		n = bm_interval(&s);
		rc = s.bench->benchmark(n, s.bench->cookie);
		if (rc < 0)
			child_fail(&s, rc);
		if (s.phase == CHILD_COOLDOWN && s.plan->percentiles > 0 &&
		    s.ops == NULL)
			child_percentiles(&s);
	}
}
