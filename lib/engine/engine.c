/* engine.c: the parent side of the engine: fork workers, drive them, merge. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* What the parent has heard from a worker. */
enum {
	W_INIT = 1u << 0,
	W_READY = 1u << 1,
	W_DONE = 1u << 2,
	W_RESULT = 1u << 3,
	W_REAPED = 1u << 4,
	W_CLEAN = 1u << 5,
	/* Reaped by another waiter: the exit status is unknown. */
	W_LOST = 1u << 6
};

/* Bounds on waits that do not depend on the benchmark. */
/*
 * initialize may allocate and touch gigabytes: it gets a minute, and
 * another while every worker it waits for has used CPU time during the
 * last one (touching 4.2 GB took over a minute at a load of 300), up to
 * BM__ENGINE_INIT_BOUNDS minutes in all, the ten that benchmp(3)
 * promises.  A worker blocked in initialize uses none and is given up on
 * after the first minute.
 */
#define ENGINE_INIT_TIMEOUT_NS (60ull * 1000000000u)
/* The first bound on initialize (a variable so that tests can shorten it). */
uint64_t bm__engine_init_timeout_ns = ENGINE_INIT_TIMEOUT_NS;
#define ENGINE_BASE_TIMEOUT_NS (10ull * 1000000000u)
/*
 * How long a worker that sent its record and cleaned up may take to exit:
 * a hang guard.  Unmapping a large buffer on a 2-CPU machine at a load of
 * 20 took over 5 s (tlb: "worker 0 did not exit").
 */
#define ENGINE_REAP_TIMEOUT_NS (30ull * 1000000000u)
#define ENGINE_MAX_TIMEOUT_US (7ull * 24 * 3600 * 1000000u)
/*
 * The derived bound on a phase is ENGINE_BASE_TIMEOUT_NS plus this many
 * times the planned intervals: twice the plan covers a machine loaded to
 * half speed, and a hung worker is given up on within that, not after
 * twenty times the plan (770 s with ENOUGH=2000000).
 */
#define ENGINE_PLAN_MARGIN 2.0
/* The shortest interval when workers outnumber CPUs: 20 ms. */
#define ENGINE_SHARED_ENOUGH_US 20000u
/* A served figure's warmup before each visit after a worker set's first. */
#define ENGINE_SERVE_WARMUP_US 2000u
/*
 * The same for a figure that warms up fully before every round (across
 * CPUs: the other CPU must leave its idle state): 10 ms.
 */
#define ENGINE_SERVE_FULL_WARMUP_US 10000u
/* A visit may last this many visit lengths before it has fewer intervals. */
#define ENGINE_SERVE_LONG 3u
/* The fewest intervals a served figure's worker keeps in one visit. */
#define ENGINE_SERVE_MIN_REPS 3u

/* One worker as the parent sees it. */
struct engine_worker {
	pid_t pid;
	int ctl;		/* parent writes commands */
	int resp;		/* parent reads events and the record */
	unsigned seen;		/* W_* */
	int wstatus;		/* from waitpid once reaped */
	uint64_t cpu_ns;	/* CPU time at the last look (engine_working) */
};

/* One run of bm_run(). */
struct engine {
	bm_ctx *ctx;
	const bm_options *o;	/* the caller's; NULL until checked */
	struct bm__plan plan;	/* what the workers do: see engine_plan */
	bm_result *res;
	unsigned nw;		/* workers forked so far */
	struct engine_worker *w;
	struct pollfd *pfd;
	unsigned *pidx;		/* pfd slot to worker */
	unsigned children;	/* bm__signals_children() at the last look */
	uint64_t phase_timeout_ns;
	unsigned round;		/* which round of fresh workers runs */
	uint64_t t0;		/* when the rounds started */
	uint64_t t1;		/* when the second round started, or 0 */
	int serving;		/* a scheduler asks for visits (serve.c) */
	/*
	 * A group served (bm_run_group): its benchmarks, their results and
	 * visits so far; res and round are those of figure cur, the one
	 * visited, and bench in the plan is its benchmark.
	 */
	const bm_bench *group;
	unsigned ngroup, cur;
	bm_result *results;
	unsigned *rounds;
	unsigned char *on_set;	/* each has been visited on these workers */
	unsigned char *ended;	/* each has been ended by the scheduler */
	unsigned last;		/* the benchmark the workers ran last */
	unsigned group_visits;	/* visits of all the group's figures */
};

static uint64_t engine_phase_timeout(const struct bm__plan *p,
    uint64_t enough_us);

/*
 * Name a byte a worker sent in a message: itself when it is printable
 * ASCII, else escaped, so that no control byte reaches a terminal.
 */
static const char *
engine_byte(unsigned char c, char *buf, size_t len)
{
	if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
		(void)snprintf(buf, len, "'%c'", c);
	else
		(void)snprintf(buf, len, "'\\x%02x'", c);
	return buf;
}

/*
 * Describe how a reaped worker ended.  Its exit status is its own: the
 * engine's failures come on the pipe, and the two statuses a worker
 * exits with when the pipe is gone are named as such.  A status another
 * waiter took is said to be unknown, never made up.
 */
static void
engine_describe(const struct engine_worker *w, char *buf, size_t len)
{
	int st = w->wstatus;

	if (w->seen & W_LOST)
		(void)snprintf(buf, len, "ended, and another wait of the "
		    "application took its exit status");
	else if (WIFSIGNALED(st))
		(void)snprintf(buf, len, "killed by signal %d (%s)",
		    WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == BM__EXIT_PARENT)
		(void)snprintf(buf, len, "exited with status %d (the "
		    "engine's, for a worker that lost its pipes to the "
		    "parent)", WEXITSTATUS(st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == BM__EXIT_FAIL)
		(void)snprintf(buf, len, "exited with status %d (the "
		    "engine's, for a worker that failed)", WEXITSTATUS(st));
	else if (WIFEXITED(st))
		(void)snprintf(buf, len, "exited with status %d",
		    WEXITSTATUS(st));
	else
		(void)snprintf(buf, len, "ended (wait status %#x)", st);
}

/*
 * Reap one worker, waiting at most timeout_ns: 0 once reaped, BM_ETIMEDOUT
 * if it is still running.  A worker already reaped by someone else counts
 * as reaped, with its status unknown (W_LOST): bm__signals_install() puts
 * the engine's SIGCHLD handler in place of the application's, so only a
 * wait for any child outside a handler (another thread's) can take it.
 */
static int
engine_reap(struct engine_worker *w, uint64_t timeout_ns)
{
	uint64_t deadline = bm__deadline_now() + timeout_ns;
	struct timespec pause = { 0, 1000000 };
	pid_t got;

	if (w->seen & W_REAPED)
		return 0;
	for (;;) {
		got = waitpid(w->pid, &w->wstatus, WNOHANG);
		if (got == w->pid || (got < 0 && errno == ECHILD)) {
			w->seen |= W_REAPED | (got < 0 ? W_LOST : 0);
			return 0;
		}
		if (got < 0 && errno != EINTR)
			return -errno;
		if (bm__deadline_now() >= deadline)
			return BM_ETIMEDOUT;
		(void)nanosleep(&pause, NULL);
	}
}

/* Kill and reap every worker still running: no zombie, no orphan. */
static void
engine_kill_all(struct engine *e)
{
	unsigned i;

	for (i = 0; i < e->nw; i++)
		if (!(e->w[i].seen & W_REAPED))
			(void)kill(e->w[i].pid, SIGKILL);
	for (i = 0; i < e->nw; i++)
		(void)engine_reap(&e->w[i], ENGINE_REAP_TIMEOUT_NS);
}

/* Close the parent's ends of every worker's pipes. */
static void
engine_close_all(struct engine *e)
{
	unsigned i;

	for (i = 0; i < e->nw; i++) {
		if (e->w[i].ctl >= 0)
			(void)close(e->w[i].ctl);
		if (e->w[i].resp >= 0)
			(void)close(e->w[i].resp);
		e->w[i].ctl = e->w[i].resp = -1;
	}
}

/* The run was interrupted by a signal. */
static int
engine_interrupted(struct engine *e)
{
	e->ctx->last_signal = bm__signals_caught();
	return bm__fail(e->ctx, BM_EINTR, "interrupted by signal %d (%s)",
	    (int)bm__signals_caught(), strsignal(bm__signals_caught()));
}

/* A worker closed its pipe: find out how it ended. */
static int
engine_died(struct engine *e, unsigned i)
{
	struct engine_worker *w = &e->w[i];
	char how[96];

	if (engine_reap(w, ENGINE_REAP_TIMEOUT_NS) != 0)
		return bm__fail(e->ctx, BM_EPROTO,
		    "worker %u (pid %ld) closed its pipe but kept running",
		    i, (long)w->pid);
	if (bm__signals_caught())
		return engine_interrupted(e);
	engine_describe(w, how, sizeof(how));
	return bm__fail(e->ctx, BM_ECHILD, "worker %u (pid %ld) %s", i,
	    (long)w->pid, how);
}

/* Read a worker's record header and check it. */
static int
engine_read_hdr(struct engine *e, unsigned i, struct bm__record_hdr *h)
{
	int rc;

	rc = bm__pipeio_read(e->w[i].resp, h, sizeof(*h),
	    (int)(e->phase_timeout_ns / 1000000u));
	if (rc == BM_EPROTO)
		return engine_died(e, i);
	if (rc != 0)
		return bm__fail(e->ctx, rc, "worker %u: reading its record: %s",
		    i, bm_strerror(rc));
	if (h->magic != BM__RECORD_MAGIC || h->worker != i)
		return bm__fail(e->ctx, BM_EPROTO,
		    "worker %u sent a malformed record", i);
	return 0;
}

/* A worker reported that a callback (cleanup, after its record) failed. */
static int
engine_callback_failed(struct engine *e, unsigned i, unsigned char want)
{
	struct bm__record_hdr h;
	int rc;

	if ((rc = engine_read_hdr(e, i, &h)) != 0)
		return rc;
	/*
	 * After its record only cleanup is left to fail, whatever the parent
	 * was waiting for when the byte came (its record and the failure may
	 * arrive in one read of the pipe).
	 */
	return bm__fail(e->ctx, BM_EBENCH, "worker %u: %s failed: %s", i,
	    want == BM__MSG_CLEAN || (e->w[i].seen & W_RESULT) ? "cleanup" :
	    "benchmark", bm_strerror(h.status));
}

/*
 * Append a worker's single-operation times to the result, and their
 * cycles when a cycle subtimer counts.
 */
static int
engine_read_ops(struct engine *e, unsigned i, uint32_t nops)
{
	bm_result *r = e->res;
	double *grown;
	int ms = (int)(e->phase_timeout_ns / 1000000u);

	grown = realloc(r->op_ns, (r->nop + nops) * sizeof(*grown));
	if (grown == NULL)
		return bm__fail(e->ctx, -ENOMEM, "no memory for operation times");
	r->op_ns = grown;
	if (bm__timer_has_cycles(&e->ctx->timer)) {
		grown = realloc(r->op_cycles, (r->nop + nops) * sizeof(*grown));
		if (grown == NULL)
			return bm__fail(e->ctx, -ENOMEM,
			    "no memory for operation cycles");
		r->op_cycles = grown;
	}
	if (bm__pipeio_read(e->w[i].resp, r->op_ns + r->nop,
	    nops * sizeof(*grown), ms) != 0 || (r->op_cycles != NULL &&
	    bm__pipeio_read(e->w[i].resp, r->op_cycles + r->nop,
	    nops * sizeof(*grown), ms) != 0))
		return BM_EPROTO;
	r->nop += nops;
	return 0;
}

/* Add what a worker's accounting saw to the result's. */
static void
engine_account(struct engine *e, const struct bm__record_hdr *h,
    const struct bm__wire *wire)
{
	bm_interference *in = &e->res->interference;
	unsigned k;

	in->stopped += h->stopped;
	if (!h->accounted)
		return;
	in->accounted = 1;
	in->intervals += h->count + h->discarded + h->stopped;
	in->disturbed += h->disturbed;
	in->discarded += h->discarded;
	in->bound_hit += h->bound_hit ? 1 : 0;
	in->discarded_s += h->discarded_ns / 1e9;
	for (k = 0; k < h->count; k++) {
		in->wait_s += wire[k].wait_ns / 1e9;
		in->lost_s += wire[k].lost_ns / 1e9;
		in->ivcsw += wire[k].ivcsw;
		in->migrated += (wire[k].flags & BM_SAMPLE_MIGRATED) ? 1 : 0;
	}
}

/* Read a worker's samples into the result. */
static int
engine_read_record(struct engine *e, unsigned i)
{
	struct bm__record_hdr h;
	struct bm__wire *wire;
	bm_sample *out;
	unsigned k;
	int rc;

	if ((rc = engine_read_hdr(e, i, &h)) != 0)
		return rc;
	if (h.count != e->plan.repetitions)
		return bm__fail(e->ctx, BM_EPROTO,
		    "worker %u sent %u samples, not %u", i, h.count,
		    e->plan.repetitions);
	if (h.nops > e->plan.percentiles)
		return bm__fail(e->ctx, BM_EPROTO,
		    "worker %u sent %u operation times, not at most %u", i,
		    h.nops, e->plan.percentiles);
	wire = calloc(h.count, sizeof(*wire));
	if (wire == NULL)
		return bm__fail(e->ctx, -ENOMEM, "no memory for samples");
	rc = bm__pipeio_read(e->w[i].resp, wire, h.count * sizeof(*wire),
	    (int)(e->phase_timeout_ns / 1000000u));
	if (rc == 0) {
		out = &e->res->samples[((size_t)e->round * e->plan.parallel +
		    i) * e->plan.repetitions];
		for (k = 0; k < h.count; k++) {
			out[k].ns = wire[k].ns;
			out[k].n = wire[k].n;
			out[k].cycles = wire[k].cycles;
			out[k].worker = i;
			out[k].process = e->round;
			memcpy(out[k].events, wire[k].events,
			    sizeof(out[k].events));
			out[k].wait_ns = wire[k].wait_ns;
			out[k].lost_ns = wire[k].lost_ns;
			out[k].ivcsw = wire[k].ivcsw;
			out[k].flags = wire[k].flags;
		}
		engine_account(e, &h, wire);
	}
	free(wire);
	if (rc == 0 && h.nops > 0)
		rc = engine_read_ops(e, i, h.nops);
	if (rc == BM_EPROTO)
		return engine_died(e, i);
	if (rc != 0)
		return bm__fail(e->ctx, rc, "worker %u: reading samples: %s", i,
		    bm_strerror(rc));
	return 0;
}

/* Handle one byte (or end of file) from worker i while waiting for want. */
static int
engine_event(struct engine *e, unsigned i, unsigned char want,
    unsigned flag)
{
	unsigned char msg;
	char got_s[8], want_s[8];
	ssize_t got;

	got = read(e->w[i].resp, &msg, 1);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 0 :
		    bm__fail(e->ctx, -errno, "worker %u: read: %s", i,
		    strerror(errno));
	if (got == 0)
		return engine_died(e, i);
	if (msg == BM__MSG_FAIL)
		return engine_callback_failed(e, i, want);
	if (msg != want || want == 0)
		return bm__fail(e->ctx, BM_EPROTO,
		    "worker %u sent %s while the parent waited for %s", i,
		    engine_byte(msg, got_s, sizeof(got_s)), want == 0 ?
		    "nothing" : engine_byte(want, want_s, sizeof(want_s)));
	e->w[i].seen |= flag;
	if (flag == W_RESULT)
		return engine_read_record(e, i);
	return 0;
}

/*
 * Whether every worker that has not sent flag yet has used CPU time since
 * the last look (each one's time is kept for the next): 1 if so, 0 if one
 * has not, -1 when a worker's CPU clock cannot be read.  The first look
 * (first 1) only records the times.
 */
static int
engine_working(struct engine *e, unsigned flag, int first)
{
	struct timespec ts;
	clockid_t clk;
	uint64_t ns;
	unsigned i;
	int all = 1;

	for (i = 0; i < e->nw; i++) {
		if (e->w[i].seen & flag)
			continue;
		if (clock_getcpuclockid(e->w[i].pid, &clk) != 0 ||
		    clock_gettime(clk, &ts) != 0)
			return -1;
		ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		if (!first && ns <= e->w[i].cpu_ns)
			all = 0;
		e->w[i].cpu_ns = ns;
	}
	return all;
}

/*
 * Whether worker w has ended, looked at without reaping it (WNOWAIT), so
 * that engine_reap() still gets its status; one reaped by another waiter
 * has ended too.
 */
static int
engine_gone(const struct engine_worker *w)
{
	siginfo_t si;

	if (w->seen & W_REAPED)
		return 0;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return errno == ECHILD;
	return si.si_pid == w->pid;
}

/*
 * Worker i has ended while the parent waits for want: what it wrote
 * before is read first (the byte waited for, or a failure it reported),
 * and then it is a death, also when a process it forked still holds its
 * pipe open, so that no end of file would come.
 */
static int
engine_ended(struct engine *e, unsigned i, unsigned char want,
    unsigned flag)
{
	struct pollfd pfd;
	int rc;

	for (;;) {
		/*
		 * A kept worker exits right after its cleanup's byte: no
		 * death (its status is checked when it is reaped), and its
		 * pipe's end of file is no news.
		 */
		if (want == BM__MSG_CLEAN && (e->w[i].seen & flag))
			return 0;
		pfd.fd = e->w[i].resp;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, 0) != 1)
			break;
		if ((rc = engine_event(e, i, want, flag)) != 0)
			return rc;
	}
	return engine_died(e, i);
}

/*
 * After a SIGCHLD: the first worker whose end is news, as engine_ended()
 * reports it, or 0 when none is (the child was another of the
 * application's, or a kept worker that exited after its cleanup's byte).
 * Every worker is looked at: one that exited as it should, and stays
 * unreaped until engine_finish() reaps it, must not hide another that
 * died after it.  The count is read before the look, so that a SIGCHLD
 * during it is looked at again.
 */
static int
engine_look(struct engine *e, unsigned char want, unsigned flag)
{
	unsigned i, now = bm__signals_children();
	int rc;

	if (now == e->children)
		return 0;
	e->children = now;
	for (i = 0; i < e->nw; i++)
		if (engine_gone(&e->w[i]) &&
		    (rc = engine_ended(e, i, want, flag)) != 0)
			return rc;
	return 0;
}

/*
 * Wait until every worker has sent want (flag marks it), or until the
 * deadline when want is 0 (the parent's warmup sleep, which still notices
 * a worker that dies).  Any other event is a failure, and so is a worker
 * that ends (a SIGCHLD wakes the wait: a worker's pipe gives no end of
 * file while a process its benchmark forked holds it).  The wait for
 * initialize is extended while its workers work, up to
 * BM__ENGINE_INIT_BOUNDS bounds in all.
 */
static int
engine_wait(struct engine *e, unsigned char want, unsigned flag,
    uint64_t timeout_ns, const char *doing)
{
	uint64_t deadline = bm__deadline_now() + timeout_ns, now;
	uint64_t waited = 0;
	unsigned i, k, cont = bm__signals_continued();
	int rc, ms, extend = 0;

	if (flag == W_INIT && e->o->timeout_us == 0)
		extend = engine_working(e, flag, 1) == 1;

	for (;;) {
		/*
		 * The signal pipe is emptied first and the signals' counts
		 * read after: a signal that comes later leaves a byte that
		 * wakes the poll below.
		 */
		bm__signals_drain();
		if (bm__signals_caught())
			return engine_interrupted(e);
		if (bm__signals_continued() != cont) {
			/*
			 * The process group was stopped and continued: the
			 * workers were stopped too, so the wait starts again
			 * (their intervals that spanned the stop are judged
			 * disturbed by the interference accounting).
			 */
			cont = bm__signals_continued();
			if (want != 0)
				deadline = bm__deadline_now() + timeout_ns;
		}
		if ((rc = engine_look(e, want, flag)) != 0)
			return rc;
		k = 0;
		e->pfd[k].fd = bm__signals_fd();
		e->pfd[k++].events = POLLIN;
		for (i = 0; i < e->nw; i++) {
			if (want != 0 && (e->w[i].seen & flag))
				continue;
			e->pfd[k].fd = e->w[i].resp;
			e->pfd[k].events = POLLIN;
			e->pidx[k++] = i;
		}
		if (k == 1 && want != 0)
			return 0;
		now = bm__deadline_now();
		if (now >= deadline && extend &&
		    waited + timeout_ns < BM__ENGINE_INIT_BOUNDS * timeout_ns &&
		    engine_working(e, flag, 0) == 1) {
			/* Still working (using CPU time): another bound. */
			waited += timeout_ns;
			deadline = now + timeout_ns;
		}
		if (now >= deadline) {
			if (want == 0)
				return 0;
			return bm__fail(e->ctx, BM_ETIMEDOUT,
			    "worker %u (pid %ld) did not %s within %.1f s",
			    e->pidx[1], (long)e->w[e->pidx[1]].pid, doing,
			    (double)(waited + timeout_ns) / 1e9);
		}
		ms = (int)((deadline - now + 999999) / 1000000u);
		rc = poll(e->pfd, k, ms);
		if (rc < 0 && errno != EINTR)
			return bm__fail(e->ctx, -errno, "poll: %s",
			    strerror(errno));
		if (rc <= 0)
			continue;
		for (i = 1; i < k; i++) {
			if (e->pfd[i].revents == 0)
				continue;
			if (bm__signals_caught())
				return engine_interrupted(e);
			if ((rc = engine_event(e, e->pidx[i], want, flag)) != 0)
				return rc;
		}
	}
}

/* Send a command (its byte, and any payload) to every worker. */
static int
engine_send_all_buf(struct engine *e, const void *buf, size_t len)
{
	unsigned i;
	int rc;

	for (i = 0; i < e->nw; i++) {
		rc = bm__pipeio_write(e->w[i].ctl, buf, len);
		if (rc == -EPIPE)
			return engine_died(e, i);
		if (rc != 0)
			return bm__fail(e->ctx, rc, "worker %u: write: %s", i,
			    bm_strerror(rc));
	}
	return 0;
}

/* Send one command byte to every worker. */
static int
engine_send_all(struct engine *e, unsigned char cmd)
{
	return engine_send_all_buf(e, &cmd, 1);
}

/*
 * The descriptors open in this process: /proc/self/fd's entries but the
 * directory's own; without /proc, the valid ones below the soft limit (at
 * most 65536 probed).  When not even the directory can be opened, the
 * limit is reached: limit.
 */
static rlim_t
engine_fds_open(rlim_t limit)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *ent;
	rlim_t n = 0, fd, top;

	if (d == NULL && errno == EMFILE)
		return limit;
	if (d == NULL) {
		top = limit == RLIM_INFINITY || limit > 65536 ? 65536 : limit;
		for (fd = 0; fd < top; fd++)
			if (fcntl((int)fd, F_GETFD) != -1)
				n++;
		return n;
	}
	while ((ent = readdir(d)) != NULL)
		if (ent->d_name[0] != '.')
			n++;
	(void)closedir(d);
	return n > 0 ? n - 1 : 0;
}

/*
 * Make room for what the run opens, counted, not guessed: the parent holds
 * two descriptors per worker, two more while it forks one, and the signal
 * pipe; a worker its two, the interference accounting's (its own and its
 * partners'), one per counted event and two for a cycle counter, besides
 * what both inherit (open now).  A benchmark's own descriptors are its
 * own: it reports EMFILE when it opens one too many.  Raise the soft limit
 * up to the hard one when a large -P needs it.
 */
static int
engine_fd_room(bm_ctx *ctx, unsigned parallel)
{
	struct rlimit rl;
	rlim_t need, worker, open;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return bm__fail(ctx, -errno, "getrlimit: %s", strerror(errno));
	open = engine_fds_open(rl.rlim_cur);
	need = open + (rlim_t)parallel * 2 + 4;
	worker = open + 2 + 1 + BM__INTERFERE_PARTNERS + ctx->events.n + 2;
	if (worker > need)
		need = worker;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
			return bm__fail(ctx, -EMFILE,
			    "%u workers need %lu descriptors; the limit is %lu",
			    parallel, (unsigned long)need,
			    (unsigned long)rl.rlim_max);
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			return bm__fail(ctx, -errno, "setrlimit: %s",
			    strerror(errno));
	}
	return 0;
}

/* Fork worker i of the plan with its two pipes. */
static int
engine_fork(struct engine *e, unsigned i)
{
	int ctl[2], resp[2];
	unsigned j;
	pid_t pid;

	if (pipe2(ctl, O_CLOEXEC) != 0)
		return bm__fail(e->ctx, -errno, "pipe for worker %u: %s", i,
		    strerror(errno));
	if (pipe2(resp, O_CLOEXEC) != 0) {
		(void)close(ctl[0]);
		(void)close(ctl[1]);
		return bm__fail(e->ctx, -errno, "pipe for worker %u: %s", i,
		    strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		int err = errno;

		(void)close(ctl[0]);
		(void)close(ctl[1]);
		(void)close(resp[0]);
		(void)close(resp[1]);
		return bm__fail(e->ctx, -err, "fork worker %u: %s", i,
		    strerror(err));
	}
	if (pid == 0) {
		/* The worker keeps only its own two ends. */
		for (j = 0; j < e->nw; j++) {
			(void)close(e->w[j].ctl);
			(void)close(e->w[j].resp);
		}
		(void)close(ctl[1]);
		(void)close(resp[0]);
		bm__child_main(&e->plan, i, ctl[0], resp[1]);
	}
	(void)close(ctl[0]);
	(void)close(resp[1]);
	e->w[i].pid = pid;
	e->w[i].ctl = ctl[1];
	e->w[i].resp = resp[0];
	e->w[i].seen = 0;
	e->nw = i + 1;
	return 0;
}

/*
 * The longest a meeting waits for the others, with a phase bound of
 * phase_ns and a warmup of warmup_us: others that meet this run (MPI
 * ranks) may still be calibrating, initialising or warming up when this
 * one arrives, and the bound covers all of that.
 */
static uint64_t
engine_meet_bound(uint64_t phase_ns, uint64_t warmup_us)
{
	return BM__ENGINE_INIT_BOUNDS * bm__engine_init_timeout_ns +
	    2 * phase_ns + warmup_us * 1000u;
}

/*
 * Call the meeting hook, if any, at a phase of the run with its status (a
 * failure at BM__PHASE_FAILED, 0 before), and return the status to go on
 * with: 0, or the failure that ends the run (at FAILED, the one the hook
 * gives back: with MPI, the lowest failing rank's, on every rank).  more
 * is the ROUND phase's wish for another round, answered in place; the
 * other phases pass NULL.
 */
static int
engine_phase(struct engine *e, enum bm__phase phase, int status, int *more)
{
	struct bm__meeting m;
	int rc;

	if (e->ctx->meet == NULL)
		return status;
	memset(&m, 0, sizeof(m));
	m.phase = phase;
	m.status = status;
	m.more = more != NULL && *more;
	/*
	 * Until this run knows its intervals' bound (and its options are
	 * checked), the base bound stands for it.
	 */
	m.timeout_ns = engine_meet_bound(e->phase_timeout_ns != 0 ?
	    e->phase_timeout_ns : ENGINE_BASE_TIMEOUT_NS,
	    e->o != NULL ? e->plan.warmup_us : 0);
	rc = e->ctx->meet(e->ctx, &m);
	if (phase == BM__PHASE_FAILED && rc == 0)
		return status;
	if (rc == 0 && more != NULL)
		*more = m.more;
	return rc;
}

/*
 * Fork the workers and see them through initialize and their first pass;
 * *pass_us is how long that pass took.
 */
static int
engine_start(struct engine *e, uint64_t *pass_us)
{
	const struct bm__plan *p = &e->plan;
	uint64_t t0;
	unsigned i;
	int rc;

	*pass_us = 0;
	for (i = 0; i < p->parallel; i++) {
		if (bm__signals_caught())
			return engine_interrupted(e);
		if ((rc = engine_fork(e, i)) != 0)
			return rc;
	}
	rc = engine_wait(e, BM__MSG_INIT, W_INIT,
	    e->o->timeout_us ? e->phase_timeout_ns :
	    bm__engine_init_timeout_ns,
	    "initialise");
	t0 = bm__deadline_now();
	if (rc == 0)
		rc = engine_send_all(e, BM__CMD_GO);
	if (rc == 0)
		rc = engine_wait(e, BM__MSG_READY, W_READY,
		    e->phase_timeout_ns, "finish its first pass");
	/*
	 * The first pass is one call of one operation: when that alone
	 * outlasts enough (a page-fault pass over gigabytes), the intervals
	 * are as long as it, and so is the bound on waiting for them.
	 */
	*pass_us = (bm__deadline_now() - t0) / 1000u;
	if (rc == 0 && e->o->timeout_us == 0 && *pass_us > p->enough_us)
		e->phase_timeout_ns = engine_phase_timeout(p, *pass_us);
	return rc;
}

/*
 * Warm up, time the intervals and collect every worker's record.  The
 * hook's WARM phase is right before the start bytes, so that processes
 * meeting there (MPI ranks) leave warmup together, and TIMED when the
 * intervals are done, so that every worker keeps loading its machine
 * until the slowest of them has finished (lmbench's cooldown, across
 * machines).
 */
static int
engine_measure(struct engine *e, uint64_t pass_us)
{
	const struct bm__plan *p = &e->plan;
	uint64_t t1, steal0 = UINT64_MAX, steal1;
	int rc = 0;

	/*
	 * The first pass ran the benchmark untimed too: the warmup counts
	 * from its start, so a first pass over a gigabyte that outlasts it
	 * is not followed by another whole operation per round.
	 */
	if (p->warmup_us > pass_us)
		rc = engine_wait(e, 0, 0, (p->warmup_us - pass_us) * 1000u,
		    "warm up");
	if (rc == 0)
		rc = engine_phase(e, BM__PHASE_WARM, 0, NULL);
	if (rc == 0 && p->interference &&
	    bm__interfere_steal(&steal0) != 0)
		steal0 = UINT64_MAX;
	t1 = bm__deadline_now();
	if (rc == 0)
		rc = engine_send_all(e, BM__CMD_START);
	if (rc == 0)
		rc = engine_wait(e, BM__MSG_DONE, W_DONE, e->phase_timeout_ns,
		    "finish its intervals");
	if (rc == 0) {
		e->res->interference.timed_s +=
		    (double)(bm__deadline_now() - t1) / 1e9;
		if (p->interference && steal0 != UINT64_MAX &&
		    bm__interfere_steal(&steal1) == 0 && steal1 >= steal0)
			e->res->interference.steal_s +=
			    (double)(steal1 - steal0) / 1e9;
	}
	if (rc == 0)
		rc = engine_phase(e, BM__PHASE_TIMED, 0, NULL);
	if (rc == 0)
		rc = engine_send_all(e, BM__CMD_RESULT);
	if (rc == 0)
		rc = engine_wait(e, BM__MSG_RESULT, W_RESULT,
		    e->phase_timeout_ns, "send its record");
	return rc;
}

/*
 * See the workers through cleanup and reap them.  A worker of a round
 * cleans up right after its record and exits on BM__CMD_EXIT; a kept one
 * is told to clean up (BM__CMD_QUIT) and exits after.
 */
static int
engine_finish(struct engine *e, int kept)
{
	unsigned i;
	int rc = 0;

	if (kept)
		rc = engine_send_all(e, BM__CMD_QUIT);
	if (rc == 0)
		rc = engine_wait(e, BM__MSG_CLEAN, W_CLEAN,
		    e->phase_timeout_ns, "clean up");
	if (rc == 0 && !kept)
		rc = engine_send_all(e, BM__CMD_EXIT);
	/*
	 * A worker reaped by another waiter (W_LOST) sent its record and
	 * cleaned up: its unknown status is no failure.
	 */
	for (i = 0; rc == 0 && i < e->nw; i++) {
		if (engine_reap(&e->w[i], ENGINE_REAP_TIMEOUT_NS) != 0)
			rc = bm__fail(e->ctx, BM_ETIMEDOUT,
			    "worker %u (pid %ld) did not exit", i,
			    (long)e->w[i].pid);
		else if (!(e->w[i].seen & W_LOST) &&
		    (!WIFEXITED(e->w[i].wstatus) ||
		    WEXITSTATUS(e->w[i].wstatus) != BM__EXIT_OK))
			rc = engine_died(e, i);
	}
	return rc;
}

/* The protocol of one round of fresh workers, from forking to reaping. */
static int
engine_drive(struct engine *e)
{
	uint64_t pass_us;
	int rc;

	rc = engine_start(e, &pass_us);
	if (rc == 0)
		rc = engine_measure(e, pass_us);
	if (rc == 0)
		rc = engine_finish(e, 0);
	return rc;
}

/*
 * The number of CPUs this process may run on: its affinity mask, or the
 * CPUs online when the mask cannot be read; at least 1.
 */
unsigned
bm_cpus_allowed(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* Fill options with the defaults. */
void
bm_options_init(bm_options *o)
{
	memset(o, 0, sizeof(*o));
	o->parallel = 1;
	o->repetitions = BM_DEFAULT_REPETITIONS;
	o->processes = BM_DEFAULT_PROCESSES;
}

/* Check the options a caller passed. */
static int
engine_check(bm_ctx *ctx, const bm_bench *b, const bm_options *o)
{
	if (b == NULL || b->benchmark == NULL || o == NULL)
		return bm__fail(ctx, -EINVAL, "no benchmark or no options");
	if (o->parallel < 1 || o->parallel > BM_MAX_PARALLEL)
		return bm__fail(ctx, BM_ERANGE,
		    "parallel %u is out of range (1 to %u)", o->parallel,
		    BM_MAX_PARALLEL);
	if (o->repetitions < 1 || o->repetitions > BM_MAX_REPETITIONS)
		return bm__fail(ctx, BM_ERANGE,
		    "repetitions %u is out of range (1 to %u)",
		    o->repetitions, BM_MAX_REPETITIONS);
	if (o->enough_us > 60000000u || o->warmup_us > 3600000000u ||
	    o->later_warmup_us > 3600000000u)
		return bm__fail(ctx, BM_ERANGE,
		    "enough or warmup is out of range");
	if (o->percentiles > BM_MAX_PERCENTILE_OPS)
		return bm__fail(ctx, BM_ERANGE,
		    "percentiles %u is out of range (0 to %u operations)",
		    o->percentiles, BM_MAX_PERCENTILE_OPS);
	if (o->timeout_us > ENGINE_MAX_TIMEOUT_US)
		return bm__fail(ctx, BM_ERANGE,
		    "timeout is out of range (at most a week)");
	if (o->processes > BM_MAX_PROCESSES || (o->max_processes != 0 &&
	    (o->max_processes > BM_MAX_PROCESSES || o->max_processes <
	    (o->processes ? o->processes : BM_DEFAULT_PROCESSES))))
		return bm__fail(ctx, BM_ERANGE, "processes %u to %u is out of "
		    "range (1 to %u, the maximum not below the minimum)",
		    o->processes, o->max_processes, BM_MAX_PROCESSES);
	if (o->max_time_us > ENGINE_MAX_TIMEOUT_US)
		return bm__fail(ctx, BM_ERANGE,
		    "max time is out of range (at most a week)");
	if (!(o->precision >= 0 && o->precision <= 1))
		return bm__fail(ctx, BM_ERANGE, "precision %g is out of range "
		    "(0 to 1)", o->precision);
	return 0;
}

/*
 * The bound on each wait: the caller's, or 10 s plus twice the planned
 * intervals (enough times the repetitions and 8 more while the counts are
 * found; the first pass when one operation outlasts enough), times the
 * workers per CPU, so a benchmark that hangs is caught after that and not
 * later.  Workers that share CPUs each get a share of one, so their
 * intervals take that many times longer.  Computed in double and capped:
 * the product of the largest enough and repetitions overflows 64 bits of
 * nanoseconds.  Each round of fresh workers has its own bounds.
 */
static uint64_t
engine_phase_timeout(const struct bm__plan *p, uint64_t enough_us)
{
	double ns, share = (double)p->parallel / (p->cpus > 0 ? p->cpus : 1);

	if (p->timeout_us != 0)
		return p->timeout_us * 1000u;
	ns = (double)ENGINE_BASE_TIMEOUT_NS + ENGINE_PLAN_MARGIN *
	    (double)enough_us *
	    1000.0 * (p->repetitions + 8.0) * (share > 1 ? share : 1);
	return ns > ENGINE_MAX_TIMEOUT_US * 1000.0 ?
	    ENGINE_MAX_TIMEOUT_US * 1000u : (uint64_t)ns;
}

/*
 * The longest the parent waits for initialize: the caller's bound, or
 * BM__ENGINE_INIT_BOUNDS first bounds while the workers work.
 */
uint64_t
bm__engine_init_bound_ns(const struct bm__plan *p)
{
	if (p->timeout_us != 0)
		return engine_phase_timeout(p, p->enough_us);
	return BM__ENGINE_INIT_BOUNDS * bm__engine_init_timeout_ns;
}

/*
 * The longest the parent may take from a worker's message to its next
 * command: up to two phase bounds (the slowest worker's record, then its
 * cleanup), a meeting's bound with the warmup before it, and a kept
 * worker's wait for the scheduler, with the phase bound as the parent
 * raises it after a first pass of pass_us (engine_start, engine_visit).
 * A worker's view of the pass is no shorter than the parent's, short of
 * the moments the go took to reach it, which its margin covers.
 */
uint64_t
bm__engine_reply_bound_ns(const struct bm__plan *p, uint64_t pass_us)
{
	uint64_t phase, ns;

	phase = engine_phase_timeout(p, pass_us > p->enough_us ? pass_us :
	    p->enough_us);
	ns = 2 * phase + p->warmup_us * 1000u;
	if (p->ctx->meet != NULL)
		ns += engine_meet_bound(phase, p->warmup_us);
	if (p->keep)
		ns += BM__SERVE_IDLE_MS * 1000000ull;
	return ns;
}

/* The rounds and precision of a run: the context's, options' or defaults. */
static void
engine_rounds(const bm_ctx *ctx, const bm_options *o, unsigned *min,
    unsigned *max, double *precision)
{
	if (ctx->proc_min != 0) {
		*min = ctx->proc_min;
		*max = ctx->proc_max;
	} else {
		*min = o->processes != 0 ? o->processes : BM_DEFAULT_PROCESSES;
		*max = o->max_processes;
	}
	if (*max < *min)
		*max = *min;
	*precision = o->precision > 0 ? o->precision : BM_DEFAULT_PRECISION;
}

/*
 * After a round: 1 when another is due, that is below the minimum, or
 * below the maximum while the interval over the rounds so far is wider
 * than the precision asked for (half its width relative to the median)
 * or covers the median with less than BM__SETTLED_LEVEL: two rounds from
 * the same one of two clusters are close together, and their interval
 * (50%) says nothing about the other.  The statistics are the ones the
 * finished run will report.
 */
static int
engine_more(struct engine *e, unsigned min, unsigned max, double precision,
    int *more)
{
	const bm_stats *st = &e->res->per_op_ns;
	unsigned done = e->round + 1;
	double lo, hi;
	int rc;

	*more = 0;
	if (done < min) {
		*more = 1;
		return 0;
	}
	if (done >= max)
		return 0;
	if ((rc = bm__result_merge(e->ctx, e->res, e->plan.repetitions)) != 0)
		return rc;
	/* The interval the record will show, floor included. */
	bm__stats_interval(st, BM__CI_FLOOR, &lo, &hi);
	*more = !(hi - lo <= 2 * precision * fabs(st->median)) ||
	    st->ci_level < BM__SETTLED_LEVEL;
	return 0;
}

/* The warmup of round number round (0 the first), in microseconds. */
static uint64_t
engine_warmup_us(const bm_options *o, unsigned round)
{
	if (round > 0 && o->later_warmup_us != 0 &&
	    o->later_warmup_us < o->warmup_us)
		return o->later_warmup_us;
	return o->warmup_us;
}

/*
 * With a bound on the run's time: 1 when another round, as long as the
 * average round after the first so far, would end past it (and the run
 * is then marked budget_hit).  After the first round alone, the next is
 * taken to last as long less the warmup it does not repeat.
 */
static int
engine_over_budget(struct engine *e)
{
	uint64_t now = bm__deadline_now();
	double spent, per;

	if (e->o->max_time_us == 0)
		return 0;
	spent = (double)(now - e->t0) / 1e3;
	if (e->round == 0)
		per = spent - (double)(e->o->warmup_us - engine_warmup_us(e->o,
		    1));
	else
		per = (double)(now - e->t1) / 1e3 / (double)e->round;
	if (spent + per <= (double)e->o->max_time_us)
		return 0;
	e->res->budget_hit = 1;
	return 1;
}

/* Make room for the samples of one more round (or visit). */
static int
engine_grow(struct engine *e)
{
	size_t per = (size_t)e->o->parallel * e->plan.repetitions;
	bm_sample *grown;

	grown = realloc(e->res->samples, (e->round + 1) * per *
	    sizeof(*grown));
	if (grown == NULL)
		return bm__fail(e->ctx, -ENOMEM, "no memory for the samples of "
		    "round %u", e->round + 1);
	e->res->samples = grown;
	memset(grown + e->round * per, 0, per * sizeof(*grown));
	return 0;
}

/* Kill and reap what is left of the workers and forget them. */
static void
engine_forget(struct engine *e)
{
	engine_kill_all(e);
	engine_close_all(e);
	memset(e->w, 0, e->o->parallel * sizeof(*e->w));
	e->nw = 0;
}

/* Make room for the samples of one more round and forget the last workers. */
static int
engine_next_round(struct engine *e)
{
	memset(e->w, 0, e->o->parallel * sizeof(*e->w));
	e->nw = 0;
	return engine_grow(e);
}

/*
 * Run the rounds: each forks fresh workers and drives the whole protocol,
 * so what is fixed for a process (its CPUs, its partner's, the physical
 * pages behind its buffers) varies between the samples.  After each the
 * hook's ROUND phase hears this run's wish for another and answers it
 * (under MPI: another when any rank wants one, so every rank runs the
 * same rounds).
 */
static int
engine_rounds_run(struct engine *e)
{
	size_t per = (size_t)e->o->parallel * e->plan.repetitions;
	unsigned min, max, pct;
	double precision;
	int rc, more;

	engine_rounds(e->ctx, e->o, &min, &max, &precision);
	pct = e->o->percentiles;
	for (e->round = 0;; e->round++) {
		/*
		 * The single operations are shared out over the first min
		 * rounds, so that each worker slot times as many as asked
		 * in all, drawn from several processes.
		 */
		e->plan.percentiles = e->round >= min ? 0 : pct / min +
		    (e->round < pct % min ? 1 : 0);
		if (e->round == 1)
			e->t1 = bm__deadline_now();
		e->plan.warmup_us = engine_warmup_us(e->o, e->round);
		rc = engine_next_round(e);
		e->phase_timeout_ns = engine_phase_timeout(&e->plan,
		    e->plan.enough_us);
		if (rc == 0)
			rc = engine_drive(e);
		engine_kill_all(e);
		engine_close_all(e);
		if (rc == 0 && bm__signals_caught())
			rc = engine_interrupted(e);
		e->res->processes = e->round + 1;
		e->res->nsamples = (size_t)(e->round + 1) * per;
		if (rc == 0)
			rc = bm__result_check_overhead(e->ctx,
			    e->res->samples + e->round * per, per);
		more = 0;
		if (rc == 0)
			rc = engine_more(e, min, max, precision, &more);
		if (rc == 0 && more && engine_over_budget(e))
			more = 0;
		if (rc == 0)
			rc = engine_phase(e, BM__PHASE_ROUND, 0, &more);
		if (rc != 0 || !more)
			return rc;
	}
}

/* Order doubles for qsort. */
static int
engine_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The median time per operation of visit number e->round, across its
 * workers' intervals: what the scheduler pairs and judges precision on.
 */
static double
engine_visit_median(const struct engine *e)
{
	size_t per = (size_t)e->plan.parallel * e->plan.repetitions, i, n = 0;
	const bm_sample *x = e->res->samples + (size_t)e->round * per;
	double *v, med = NAN;

	if ((v = malloc(per * sizeof(*v))) == NULL)
		return NAN;
	for (i = 0; i < per; i++)
		if (x[i].n > 0)
			v[n++] = x[i].ns / (double)x[i].n;
	if (n > 0) {
		qsort(v, n, sizeof(*v), engine_cmp);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return med;
}

/*
 * A kept worker set's next visit: forget the flags of the last one and
 * ask each worker to warm up again, then wait for its first pass, whose
 * time is in *pass_us.
 */
static int
engine_again(struct engine *e, uint64_t *pass_us)
{
	unsigned char buf[1 + sizeof(struct bm__cmd_bench)];
	struct bm__cmd_bench c;
	uint64_t t0 = bm__deadline_now(), timeout = e->phase_timeout_ns;
	unsigned i;
	int rc;

	for (i = 0; i < e->nw; i++)
		e->w[i].seen &= ~(unsigned)(W_READY | W_DONE | W_RESULT);
	if (e->group != NULL && e->last != e->cur) {
		/*
		 * Another of the group's benchmarks, with its warmup (and
		 * its initialize first where it has its own: the bound on
		 * initialize, if longer).
		 */
		if (!bm__bench_shares(&e->group[e->last], &e->group[e->cur]) &&
		    timeout < bm__engine_init_timeout_ns)
			timeout = bm__engine_init_timeout_ns;
		memset(&c, 0, sizeof(c));
		c.index = e->cur;
		c.warmup_us = e->plan.warmup_us;
		buf[0] = BM__CMD_BENCH;
		memcpy(buf + 1, &c, sizeof(c));
		rc = engine_send_all_buf(e, buf, sizeof(buf));
	} else {
		rc = engine_send_all(e, BM__CMD_AGAIN);
	}
	if (rc == 0)
		rc = engine_wait(e, BM__MSG_READY, W_READY, timeout,
		    "finish its first pass");
	/* That pass warmed up too (engine_measure() counts it). */
	*pass_us = (bm__deadline_now() - t0) / 1000u;
	return rc;
}

/*
 * On the first visit, when one operation (the first pass) is so long
 * that the options' intervals would make a visit last more than
 * ENGINE_SERVE_LONG visits (a page-fault pass over megabytes), fewer
 * intervals a visit, ENGINE_SERVE_MIN_REPS at least: the workers are
 * started again with the plan that says so, once.
 */
static int
engine_visit_fit(struct engine *e, uint64_t *pass_us)
{
	uint64_t visit = e->ctx->serve.visit_us, reps;
	unsigned i;
	int rc;

	if (*pass_us * e->plan.repetitions <= ENGINE_SERVE_LONG * visit ||
	    e->plan.repetitions <= ENGINE_SERVE_MIN_REPS)
		return 0;
	reps = visit / (*pass_us > 0 ? *pass_us : 1);
	if (reps < ENGINE_SERVE_MIN_REPS)
		reps = ENGINE_SERVE_MIN_REPS;
	if (reps >= e->plan.repetitions)
		return 0;
	/*
	 * The workers are warming up, not waiting for a command: they are
	 * killed (their partners die with them; the tool's private directory
	 * holds what they made).
	 */
	engine_forget(e);
	e->plan.repetitions = (unsigned)reps;
	e->res->repetitions = (unsigned)reps;
	for (i = 0; i < e->ngroup; i++)
		e->results[i].repetitions = (unsigned)reps;
	if ((rc = engine_grow(e)) != 0)
		return rc;
	return engine_start(e, pass_us);
}

/*
 * One visit of a served figure: on the kept workers, or on fresh ones
 * when there are none or the scheduler asks (the previous set cleans up
 * and exits first).  The first visit of a set warms up as a round does,
 * the later ones ENGINE_SERVE_WARMUP_US at most: the set is warm, and the
 * other figures ran in between for only tens of milliseconds.
 */
static int
engine_visit(struct engine *e, int fresh)
{
	uint64_t pass_us = 0;
	int rc = 0;

	if (fresh && e->nw > 0) {
		rc = engine_finish(e, 1);
		engine_forget(e);
	}
	if (rc == 0)
		rc = engine_grow(e);
	if (rc != 0)
		return rc;
	e->plan.warmup_us = e->nw == 0 ? engine_warmup_us(e->o, e->round) :
	    e->plan.later_warmup_us;
	e->plan.percentiles = e->round == 0 ? e->o->percentiles : 0;
	if (e->group != NULL) {
		/*
		 * A group's figure warms up fully on its first visit to a
		 * worker set (its count grows from 1 there), and none of
		 * them times single operations.
		 */
		if (e->nw == 0)
			memset(e->on_set, 0, e->ngroup);
		else if (!e->on_set[e->cur])
			e->plan.warmup_us = engine_warmup_us(e->o, 0);
		e->plan.percentiles = 0;
	}
	if (e->nw == 0)
		rc = engine_start(e, &pass_us);
	else
		rc = engine_again(e, &pass_us);
	if (e->group != NULL) {
		uint64_t bound;

		e->on_set[e->cur] = 1;
		e->last = e->cur;
		/* A benchmark's pass longer than the first's: its bound. */
		bound = engine_phase_timeout(&e->plan, pass_us);
		if (rc == 0 && e->o->timeout_us == 0 &&
		    pass_us > e->plan.enough_us && bound > e->phase_timeout_ns)
			e->phase_timeout_ns = bound;
	}
	/* (A group's intervals a visit are fitted on its first visit.) */
	if (rc == 0 && e->round == 0 && (e->group == NULL ||
	    e->group_visits == 0))
		rc = engine_visit_fit(e, &pass_us);
	if (rc == 0)
		rc = engine_measure(e, pass_us);
	return rc;
}

/*
 * Visit the figure e->res is, e->round its visit, on fresh workers or
 * the kept ones, and answer the scheduler with the visit's median and
 * times (seq: the figure's number).
 */
static int
engine_serve_visit(struct engine *e, int fresh, unsigned seq)
{
	uint64_t t0 = bm__deadline_now();
	double timed0 = e->res->interference.timed_s, med;
	size_t per;
	int rc;

	rc = engine_visit(e, fresh);
	if (rc == 0 && bm__signals_caught())
		rc = engine_interrupted(e);
	if (rc != 0)
		return rc;
	e->group_visits++;
	/* (The first visit may have fitted the intervals a visit.) */
	per = (size_t)e->o->parallel * e->plan.repetitions;
	e->res->processes = e->round + 1;
	e->res->nsamples = (size_t)(e->round + 1) * per;
	rc = bm__result_check_overhead(e->ctx,
	    e->res->samples + e->round * per, per);
	med = engine_visit_median(e);
	if (rc == 0 && !(med >= 0))
		rc = bm__fail(e->ctx, -ENOMEM, "a visit without a median (no "
		    "sample, or no memory)");
	if (rc == 0)
		rc = bm__serve_say(e->ctx, "visit %u %u %.6g %.0f %llu", seq,
		    e->round, med, (e->res->interference.timed_s - timed0) *
		    1e9, (unsigned long long)(bm__deadline_now() - t0));
	return rc;
}

/* Let the workers go (their memory with them); 0 or the failure. */
static int
engine_release(struct engine *e)
{
	int rc = 0;

	if (e->nw > 0) {
		rc = engine_finish(e, 1);
		engine_forget(e);
	}
	return rc;
}

/*
 * Serve the figure to a scheduler: announce it, then one visit per
 * command until the scheduler ends it, each answered with its median and
 * times.  The visits are the figure's rounds: its value and interval come
 * from them as from rounds of fresh processes.
 */
static int
engine_serve(struct engine *e)
{
	unsigned seq = ++e->ctx->serve.figures;
	char said[48] = "";
	int rc, cmd;

	/* The first figure says what bm_serve_figures was told. */
	if (seq == 1 && e->ctx->serve.said_figures > 0)
		snprintf(said, sizeof(said), " figures=%u parts=%u",
		    e->ctx->serve.said_figures, e->ctx->serve.said_parts);
	rc = bm__serve_say(e->ctx, "figure %u %u %u %llu%s", seq,
	    e->plan.parallel, e->plan.repetitions,
	    (unsigned long long)e->plan.enough_us, said);
	for (e->round = 0; rc == 0; e->round++) {
		if ((rc = bm__serve_next(e->ctx, &cmd)) != 0 ||
		    cmd == BM__SERVE_END)
			break;
		while (cmd == BM__SERVE_RELEASE && rc == 0) {
			rc = engine_release(e);
			if (rc == 0)
				rc = bm__serve_say(e->ctx, "released %u", seq);
			if (rc == 0)
				rc = bm__serve_next(e->ctx, &cmd);
		}
		if (rc != 0 || cmd == BM__SERVE_END)
			break;
		rc = engine_serve_visit(e, cmd == BM__SERVE_FRESH, seq);
	}
	if (rc == 0 && e->nw > 0)
		rc = engine_finish(e, 1);
	engine_kill_all(e);
	engine_close_all(e);
	if (rc == 0 && e->round == 0)
		rc = bm__fail(e->ctx, BM_EPROTO, "the scheduler ended the "
		    "figure before its first visit");
	return rc;
}

/* Make figure k of a group the one visited: its result, visits, benchmark. */
static void
engine_group_pick(struct engine *e, unsigned k)
{
	e->rounds[e->cur] = e->round;
	e->cur = k;
	e->res = &e->results[k];
	e->round = e->rounds[k];
	e->plan.bench = &e->group[k];
}

/*
 * Serve a group to a scheduler: its figures announced together ("group
 * FIRST N", then each figure's line), then one visit of the figure each
 * command names, on one set of workers that switch between the group's
 * benchmarks, until the scheduler has ended every figure ("ended SEQ"
 * answers each end but the last).  The workers' buffers so serve every
 * figure: set up once, where a set each cost 0.6 s for every 256 MB on
 * a guest whose hypervisor fills its page tables page by page.
 */
static int
engine_serve_group(struct engine *e)
{
	unsigned first = e->ctx->serve.figures + 1, live = e->ngroup, k;
	unsigned seq;
	int rc, cmd;

	e->ctx->serve.figures += e->ngroup;
	rc = bm__serve_say(e->ctx, "group %u %u", first, e->ngroup);
	for (k = 0; rc == 0 && k < e->ngroup; k++)
		rc = bm__serve_say(e->ctx, "figure %u %u %u %llu", first + k,
		    e->plan.parallel, e->plan.repetitions,
		    (unsigned long long)e->plan.enough_us);
	while (rc == 0 && live > 0) {
		if ((rc = bm__serve_next_fig(e->ctx, &cmd, &seq)) != 0)
			break;
		if (cmd == BM__SERVE_RELEASE) {
			rc = engine_release(e);
			if (rc == 0)
				rc = bm__serve_say(e->ctx, "released %u",
				    first);
			continue;
		}
		if (seq < first || seq - first >= e->ngroup ||
		    e->ended[seq - first]) {
			rc = bm__fail(e->ctx, BM_EPROTO, "the scheduler named "
			    "figure %u, not one of the group's %u to %u it "
			    "still serves", seq, first, first + e->ngroup - 1);
			break;
		}
		engine_group_pick(e, seq - first);
		if (cmd != BM__SERVE_END) {
			rc = engine_serve_visit(e, cmd == BM__SERVE_FRESH, seq);
			e->round++;
			continue;
		}
		if (e->round == 0) {
			rc = bm__fail(e->ctx, BM_EPROTO, "the scheduler ended "
			    "figure %u before its first visit", seq);
			break;
		}
		e->ended[seq - first] = 1;
		if (--live > 0)
			rc = bm__serve_say(e->ctx, "ended %u", seq);
	}
	engine_group_pick(e, e->cur);
	if (rc == 0 && e->nw > 0)
		rc = engine_finish(e, 1);
	engine_kill_all(e);
	engine_close_all(e);
	return rc;
}

/*
 * Build the workers' plan once per run, after calibration: the interval
 * is the larger of the options' and the calibrated enough, and the
 * overheads are the calibration's, so that no worker reads ctx->cal.
 */
static void
engine_plan(struct engine *e, const bm_bench *b, const bm_options *o,
    const bm_calibration *cal)
{
	struct bm__plan *p = &e->plan;

	memset(p, 0, sizeof(*p));
	p->ctx = e->ctx;
	p->bench = b;
	p->parallel = o->parallel;
	p->repetitions = o->repetitions;
	p->percentiles = o->percentiles;
	p->warmup_us = o->warmup_us;
	p->timing_o_ns = cal->timing_o_us * 1000.0;
	p->loop_o_ns = cal->loop_o_us * 1000.0;
	p->cycle_o = cal->cycle_o;
	p->loop_o_cycles = cal->loop_o_cycles;
	p->enough_us = o->enough_us > cal->enough_us ? o->enough_us :
	    cal->enough_us;
	/* The workers bound their waits by these (bm__engine_*_bound_ns). */
	p->timeout_us = o->timeout_us;
	p->cpus = bm_cpus_allowed();
	p->parent = (long)getpid();
	/*
	 * With more workers than CPUs the kernel time-shares them in slices
	 * of milliseconds: an interval shorter than a few slices runs either
	 * undisturbed or not at all, and each worker would report the speed
	 * of a whole CPU.  Intervals of several slices show the sharing.
	 */
	p->interference = !e->ctx->interference_off;
	p->shared = o->parallel > p->cpus;
	if (p->shared && p->enough_us < ENGINE_SHARED_ENOUGH_US)
		p->enough_us = ENGINE_SHARED_ENOUGH_US;
	/*
	 * A served figure's visit is a round of kept workers that times
	 * about the scheduler's visit length: the options' intervals, each
	 * longer when theirs would be shorter.  (More intervals instead
	 * would make a visit of an operation longer than the interval, one
	 * interval each, last that many operations.)  Its single operations
	 * are all timed on the first visit.
	 */
	if (e->serving) {
		uint64_t visit = e->ctx->serve.visit_us, want;

		/*
		 * An enough longer than the visit's share keeps its intervals
		 * and gets fewer of them (ENGINE_SERVE_MIN_REPS at least), so
		 * that a visit lasts the scheduler's length whatever the
		 * calibration said (a loaded machine's calibration says up to
		 * 50 times more than a quiet one's).
		 */
		if (p->enough_us * p->repetitions > visit &&
		    p->repetitions > ENGINE_SERVE_MIN_REPS) {
			uint64_t reps = visit / (p->enough_us > 0 ?
			    p->enough_us : 1);

			p->repetitions = reps < ENGINE_SERVE_MIN_REPS ?
			    ENGINE_SERVE_MIN_REPS : reps < p->repetitions ?
			    (unsigned)reps : p->repetitions;
		}
		want = (visit + p->repetitions - 1) / p->repetitions;
		p->keep = 1;
		/* (The workers know it: alone, they wait once warm.) */
		p->later_warmup_us = engine_warmup_us(o, 1);
		if (p->later_warmup_us > ENGINE_SERVE_WARMUP_US &&
		    p->later_warmup_us < o->warmup_us)
			p->later_warmup_us = ENGINE_SERVE_WARMUP_US;
		else if (p->later_warmup_us > ENGINE_SERVE_FULL_WARMUP_US)
			p->later_warmup_us = ENGINE_SERVE_FULL_WARMUP_US;
		if (want > p->enough_us)
			p->enough_us = want;
	}
}

/*
 * Fill the result's throttle from the cgroup's counts before the run
 * (thr0) and now: a quota that throttled the run made its figures slow.
 */
static void
engine_throttle(const struct bm__throttle *thr0, bm_result *res)
{
	struct bm__throttle thr1;

	if (!thr0->known || bm__throttle_read("", &thr1) != 0 || !thr1.known)
		return;
	res->throttle.known = 1;
	res->throttle.quota_cpus = thr1.quota_cpus;
	if (thr1.nr_throttled > thr0->nr_throttled)
		res->throttle.nr_throttled = thr1.nr_throttled -
		    thr0->nr_throttled;
	if (thr1.throttled_ns > thr0->throttled_ns)
		res->throttle.throttled_s = (double)(thr1.throttled_ns -
		    thr0->throttled_ns) / 1e9;
}

/*
 * Put the application's signal dispositions back.  A signal the engine
 * caught but did not report (it came after the last look, or beside
 * another failure) is raised again once the application's disposition
 * is back, so that the application gets it as it would have a moment
 * later, and no Ctrl-C is lost.
 */
static void
engine_signals_close(const bm_ctx *ctx)
{
	int sig;

	bm__signals_close();
	sig = bm__signals_caught();
	if (sig != 0 && ctx->last_signal == 0)
		(void)raise(sig);
}

/*
 * Run n benchmarks (n > 1: a group served, engine_serve_group) in rounds
 * of parallel workers or in visits, and collect their samples into
 * res[0..n-1].  Every failure goes to out, the one way back: it tells
 * the meeting hook (BM__PHASE_FAILED), restores the signals, frees, and
 * forgets the partial results; the rounds reap their own workers.
 */
static int
engine_run(bm_ctx *ctx, const bm_bench *b, unsigned n, const bm_options *o,
    bm_result *res)
{
	struct engine e;
	bm_calibration cal;
	struct bm__throttle thr0;
	int signals = 0;
	uint64_t t0;
	unsigned i;
	int rc;

	memset(res, 0, n * sizeof(*res));
	memset(&e, 0, sizeof(e));
	e.ctx = ctx;
	ctx->err[0] = '\0';
	ctx->last_signal = 0;
	if ((rc = engine_phase(&e, BM__PHASE_BEGIN, 0, NULL)) != 0)
		goto out;
	for (i = 0; i < n; i++)
		if ((rc = engine_check(ctx, b == NULL ? NULL : &b[i], o)) != 0)
			goto out;
	(void)bm__throttle_read("", &thr0);
	if ((rc = bm_calibrate(ctx, &cal)) != 0)
		goto out;
	if ((rc = engine_fd_room(ctx, o->parallel)) != 0)
		goto out;
	if ((rc = bm__serve_open(ctx)) < 0)
		goto out;
	e.serving = rc;
	rc = 0;
	engine_plan(&e, b, o, &cal);
	if (n > 1) {
		e.group = e.plan.group = b;
		e.ngroup = e.plan.ngroup = n;
		e.results = res;
		e.rounds = calloc(n, sizeof(*e.rounds));
		e.on_set = calloc(n, 1);
		e.ended = calloc(n, 1);
		if (e.rounds == NULL || e.on_set == NULL || e.ended == NULL) {
			rc = bm__fail(ctx, -ENOMEM, "no memory for a group of "
			    "%u", n);
			goto out;
		}
	}

	e.o = o;
	e.res = res;
	e.phase_timeout_ns = engine_phase_timeout(&e.plan, e.plan.enough_us);
	e.w = calloc(o->parallel, sizeof(*e.w));
	e.pfd = calloc((size_t)o->parallel + 1, sizeof(*e.pfd));
	e.pidx = calloc((size_t)o->parallel + 1, sizeof(*e.pidx));
	if (e.w == NULL || e.pfd == NULL || e.pidx == NULL) {
		rc = bm__fail(ctx, -ENOMEM, "no memory for %u workers",
		    o->parallel);
		goto out;
	}
	for (i = 0; i < n; i++) {
		res[i].parallel = o->parallel;
		res[i].repetitions = e.plan.repetitions;
		res[i].warmup_us = o->warmup_us;
		res[i].later_warmup_us = engine_warmup_us(o, 1);
		res[i].enough_us = e.plan.enough_us;
		BM__RESULT_SERVED(&res[i]) = (uint64_t)e.serving;
		res[i].nevents = ctx->events.n;
		res[i].interference.off = ctx->interference_off;
		memcpy(res[i].events, ctx->events.info,
		    sizeof(res[i].events));
	}

	if ((rc = bm__signals_install()) != 0) {
		rc = bm__fail(ctx, rc, "signal pipe: %s", bm_strerror(rc));
		goto out;
	}
	signals = 1;
	t0 = bm__deadline_now();
	e.t0 = t0;
	rc = !e.serving ? engine_rounds_run(&e) : n > 1 ?
	    engine_serve_group(&e) : engine_serve(&e);
	for (i = 0; i < n; i++) {
		res[i].wall_s = (double)(bm__deadline_now() - t0) / 1e9;
		engine_throttle(&thr0, &res[i]);
		if (rc == 0)
			rc = bm__result_merge(ctx, &res[i],
			    e.plan.repetitions);
	}
	/*
	 * The handlers stay in place until the end: a signal that came
	 * after the workers' last wait (in the last merges, the hook)
	 * ends the run as any other does, before the others are met, so
	 * that they hear of it, and after that meeting too.
	 */
	if (rc == 0 && bm__signals_caught())
		rc = engine_interrupted(&e);
	if (rc == 0)
		rc = engine_phase(&e, BM__PHASE_MEASURED, 0, NULL);
	if (rc == 0 && bm__signals_caught())
		rc = engine_interrupted(&e);
out:
	if (rc != 0)
		rc = engine_phase(&e, BM__PHASE_FAILED, rc, NULL);
	if (signals)
		engine_signals_close(ctx);
	free(e.w);
	free(e.pfd);
	free(e.pidx);
	free(e.rounds);
	free(e.on_set);
	free(e.ended);
	if (rc != 0)
		for (i = 0; i < n; i++)
			bm_result_free(&res[i]);
	return rc;
}

/*
 * Run a benchmark in rounds of parallel workers and collect their samples.
 */
int
bm_run(bm_ctx *ctx, const bm_bench *b, const bm_options *o, bm_result *res)
{
	if (ctx == NULL || res == NULL)
		return -EINVAL;
	return engine_run(ctx, b, 1, o, res);
}

/*
 * Run n benchmarks one after another as bm_run() runs each, or, served by
 * a scheduler outside an A/B's arm, as one group on one set of workers
 * (switching between two that do not share their set-up through cleanup
 * and initialize).
 */
int
bm_run_group(bm_ctx *ctx, const bm_bench *b, size_t n, const bm_options *o,
    bm_result *res)
{
	size_t i;
	int rc;

	if (ctx == NULL || b == NULL || res == NULL || n == 0 ||
	    n > BM_MAX_GROUP)
		return -EINVAL;
	if ((rc = bm__serve_open(ctx)) < 0)
		return rc;
	if (rc == 1 && n > 1 && !ctx->serve.arm)
		return engine_run(ctx, b, (unsigned)n, o, res);
	for (i = 0; i < n; i++)
		if ((rc = engine_run(ctx, &b[i], 1, o, &res[i])) != 0) {
			while (i-- > 0)
				bm_result_free(&res[i]);
			return rc;
		}
	return 0;
}
