/* sched-proc.c: benchmp-sched's processes: started with the serve pipes, their lines read, reaped. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "ab.h"
#include "sched.h"

/* The most a process may print on stdout: 64 MB. */
#define PROC_TEXT_MAX (64u << 20)
/* A pump's longest poll while a process that closed its pipes is not reaped. */
#define PROC_EXIT_POLL_MS 5
/* The descriptors a served tool reads and writes its channel on. */
#define PROC_SERVE_IN 3
#define PROC_SERVE_OUT 4
/* Where a tool finds the scheduler's pool (BENCHMP_POOL). */
#define PROC_POOL 5

/* Close a descriptor held in *fd, if open. */
static void
proc_close(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

/*
 * In the child of parent: put the serve pipe's ends at PROC_SERVE_IN and
 * PROC_SERVE_OUT, stdout on its pipe, and exec.  Never returns.
 */
static void __attribute__((noreturn))
proc_exec(struct sched_proc *p, int in, int out, int text, uint64_t visit_us,
    const char *outdir, int pool, pid_t parent)
{
	/* Static: the child's own copy, off a stack its user may bound. */
	static char path[SCHED_PATH_MAX];
	char env[64];
	int fd;

	(void)setpgid(0, 0);
	if (outdir != NULL) {
		/* Its messages apart, where the caller reads them with its output. */
		snprintf(path, sizeof(path), "%s/%u%s.err", outdir, p->line,
		    p->arm == 'A' ? "-A" : p->arm == 'B' ? "-B" : "");
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
	}
#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
	/*
	 * The tool dies with the scheduler, whatever kills the scheduler.
	 * One that died before the prctl sends no signal: the parent is then
	 * another process already, and the tool must not run orphaned.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(127);
#else
	(void)parent;
#endif
	if (dup2(text, STDOUT_FILENO) < 0)
		_exit(127);
	if (!p->once || p->burst > 0) {
		/*
		 * Moved out of the way first: dup2 onto 3 may close 4's
		 * source.  The copies are close-on-exec, so that the tool
		 * holds the pipes at 3 and 4 alone: a copy it kept open would
		 * outlive the tool's own close-on-exec of 3 and 4 in what it
		 * runs (lat_proc's programs) and hold the pipe's end open.
		 */
		int i2 = fcntl(in, F_DUPFD_CLOEXEC, 10);
		int o2 = fcntl(out, F_DUPFD_CLOEXEC, 10);

		if (i2 < 0 || o2 < 0 || dup2(i2, PROC_SERVE_IN) < 0 ||
		    dup2(o2, PROC_SERVE_OUT) < 0)
			_exit(127);
		snprintf(env, sizeof(env), "%d,%d,%llu", PROC_SERVE_IN,
		    PROC_SERVE_OUT, (unsigned long long)(p->visit_us > 0 ?
		    p->visit_us : visit_us));
		if (setenv("BENCHMP_SERVE", env, 1) != 0)
			_exit(127);
	} else {
		(void)unsetenv("BENCHMP_SERVE");
	}
	/* The pool (at 10 or above: untouched by the moves above), or none. */
	if (pool >= 0) {
		snprintf(env, sizeof(env), "%d", PROC_POOL);
		if (dup2(pool, PROC_POOL) < 0 ||
		    setenv("BENCHMP_POOL", env, 1) != 0)
			_exit(127);
	} else {
		(void)unsetenv("BENCHMP_POOL");
	}
	if (p->cpus[0] != '\0' && setenv("BENCHMP_SCHED", p->cpus, 1) != 0)
		_exit(127);
	/*
	 * An A/B's arms: their records, which name the figures, on stdout;
	 * the arm named, so that a tool serves its figures one by one, not
	 * as a group (which an A/B does not pair).
	 */
	if (p->arm != 0) {
		env[0] = (char)p->arm;
		env[1] = '\0';
		if (setenv("BENCHMP_OUTPUT", "-", 1) != 0 ||
		    setenv("BENCHMP_SERVE_ARM", env, 1) != 0)
			_exit(127);
	} else {
		(void)unsetenv("BENCHMP_SERVE_ARM");
	}
	execvp(p->argv[0], p->argv);
	fprintf(stderr, "benchmp-sched: %s: %s\n", p->argv[0], strerror(errno));
	_exit(127);
}

/*
 * Start process p (served unless once without burst) with its pipes and
 * the pool (a descriptor, or -1: none); 0 or -errno.  Its ends of the
 * pipes are close-on-exec in the scheduler, so that no other tool holds
 * them.
 */
int
sched_proc_start(struct sched_proc *p, uint64_t visit_us, const char *outdir,
    int pool)
{
	int c[2] = { -1, -1 }, r[2] = { -1, -1 }, t[2] = { -1, -1 }, err;
	pid_t pid, self = getpid();

	if (pipe2(t, O_CLOEXEC) != 0 || ((!p->once || p->burst > 0) &&
	    (pipe2(c, O_CLOEXEC) != 0 || pipe2(r, O_CLOEXEC) != 0))) {
		err = -errno;
		goto fail;
	}
	(void)fflush(NULL);
	if ((pid = ab_fork_tool()) < 0) {
		err = -errno;
		goto fail;
	}
	if (pid == 0)
		proc_exec(p, c[0], r[1], t[1], visit_us, outdir, pool, self);
	(void)setpgid(pid, pid);
	proc_close(&c[0]);
	proc_close(&r[1]);
	proc_close(&t[1]);
	p->pid = pid;
	p->cmd = c[1];
	p->resp = r[0];
	p->out = t[0];
	/*
	 * A restart's pipe is read from its first byte: what the last
	 * process left of a line, or of a group it announced, is not this
	 * one's.
	 */
	p->rlen = 0;
	p->gwant = 0;
	p->state = p->once && p->burst == 0 ? SCHED_P_VISIT : SCHED_P_START;
	return 0;
fail:
	proc_close(&c[0]);
	proc_close(&c[1]);
	proc_close(&r[0]);
	proc_close(&r[1]);
	proc_close(&t[0]);
	proc_close(&t[1]);
	return err;
}

/*
 * Send a command line to a served process: 0, or -1 when it cannot be
 * told.  A process whose pipe breaks (it exited between two visits) is
 * failed, why said, its pipe closed and sent SIGTERM, as proc_bad does:
 * left idle with its pipe open, it would be visited again and again
 * without a wait, and nothing would reap it.
 */
int
sched_proc_send(struct sched_proc *p, const char *cmd)
{
	size_t len = strlen(cmd), done = 0;
	ssize_t w;

	while (p->cmd >= 0 && done < len) {
		w = write(p->cmd, cmd + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (p->why[0] == '\0')
				snprintf(p->why, sizeof(p->why), "cannot send it "
				    "a command: %s", strerror(w < 0 ? errno :
				    EPIPE));
			proc_close(&p->cmd);
			sched_proc_kill(p, SIGTERM);
			return -1;
		}
		done += (size_t)w;
	}
	return p->cmd >= 0 ? 0 : -1;
}

/* Record a protocol failure of p (the first) and stop listening to it. */
static void
proc_bad(struct sched_proc *p, const char *what)
{
	if (p->why[0] == '\0')
		snprintf(p->why, sizeof(p->why), "%s", what);
	proc_close(&p->resp);
	proc_close(&p->cmd);
	sched_proc_kill(p, SIGTERM);
}

/*
 * Take ended figure f out of p's group; cur becomes the first left (or
 * NULL, the group over).
 */
void
sched_proc_drop(struct sched_proc *p, const struct sched_fig *f)
{
	unsigned i, k = 0;

	for (i = 0; i < p->ngrp; i++)
		if (p->grp[i] != f)
			p->grp[k++] = p->grp[i];
	p->ngrp = k;
	p->cur = k > 0 ? p->grp[0] : NULL;
}

/*
 * A tool's first figure may say how many figures it serves one after
 * another and how many of them are parts ("figures=N parts=K" after its
 * numbers, bm_serve_figures): taken where the plan line said neither, so
 * that "benchmp-sched -- lat_sig catch" and benchmp-ab judge the figure,
 * not the part.  0, or -1 when they are out of range (p is failed).
 */
static int
proc_told(struct sched_proc *p, const char *line)
{
	const char *w = strstr(line, " figures=");
	unsigned n, k;

	if (w == NULL || p->counted || p->told)
		return 0;
	if (sscanf(w, " figures=%u parts=%u", &n, &k) != 2 || n < 1 ||
	    n > SCHED_MAX_FIGURES || k >= n) {
		proc_bad(p, "figures= and parts= out of range on the serve "
		    "pipe");
		return -1;
	}
	p->figures = n;
	p->parts = k;
	p->told = 1;
	return 0;
}

/* Handle one complete line from a served process. */
static void
proc_line(struct sched_proc *p, char *line,
    struct sched_fig *(*newfig)(void *, struct sched_proc *, unsigned),
    void *arg)
{
	unsigned seq, visit, size;
	double med, timed, wall;

	if (sscanf(line, "group %u %u", &seq, &size) == 2 &&
	    (p->state == SCHED_P_START || p->state == SCHED_P_END) &&
	    p->gwant == 0) {
		if (p->arm != 0) {
			proc_bad(p, "a group of figures, which an A/B does not "
			    "pair");
			return;
		}
		if (size < 1 || size > SCHED_MAX_GROUP) {
			proc_bad(p, "a group's size out of range on the serve "
			    "pipe");
			return;
		}
		free(p->grp);
		p->ngrp = 0;
		if ((p->grp = calloc(size, sizeof(*p->grp))) == NULL) {
			proc_bad(p, "out of memory");
			return;
		}
		p->gwant = p->gsize = size;
		return;
	}
	if (sscanf(line, "figure %u", &seq) == 1 &&
	    (p->state == SCHED_P_START || p->state == SCHED_P_END)) {
		if (seq == 1 && proc_told(p, line) != 0)
			return;
		if ((p->cur = newfig(arg, p, seq)) == NULL) {
			proc_bad(p, "out of memory");
			return;
		}
		/* A group's figures: all announced before the first visit. */
		if (p->gwant > 0) {
			p->grp[p->ngrp++] = p->cur;
			if (--p->gwant > 0)
				return;
			p->cur = p->grp[0];
		}
		p->state = SCHED_P_IDLE;
		return;
	}
	if (sscanf(line, "ended %u", &seq) == 1 &&
	    p->state == SCHED_P_END && p->ngrp > 1 && p->cur != NULL &&
	    seq == p->cur->seq) {
		sched_proc_drop(p, p->cur);
		p->state = SCHED_P_IDLE;
		return;
	}
	if (sscanf(line, "visit %u %u %lf %lf %lf", &seq, &visit, &med,
	    &timed, &wall) == 5 && p->state == SCHED_P_VISIT &&
	    p->cur != NULL && seq == p->cur->seq &&
	    visit + p->cur->vbase == p->cur->visits) {
		struct sched_fig *f = p->cur;
		double *grown;

		/* A time is a finite count of nanoseconds, never below 0. */
		if (!(med >= 0 && med < 1e18 && timed >= 0 && timed < 1e18 &&
		    wall >= 0 && wall < 1e18)) {
			proc_bad(p, "a visit's time out of range on the serve "
			    "pipe");
			return;
		}
		grown = realloc(f->med, (f->visits + 1) * sizeof(*grown));
		if (grown == NULL) {
			proc_bad(p, "out of memory");
			return;
		}
		f->med = grown;
		f->med[f->visits++] = med;
		f->timed_ns += timed;
		f->wall_ns += wall;
		p->state = SCHED_P_IDLE;
		return;
	}
	if (sscanf(line, "released %u", &seq) == 1 &&
	    p->state == SCHED_P_RELEASE && p->cur != NULL &&
	    (seq == p->cur->seq || p->ngrp > 0)) {
		p->state = SCHED_P_IDLE;
		return;
	}
	proc_bad(p, "an unexpected line on the serve pipe");
}

/* Read what process p has on its serve pipe. */
static void
proc_read_resp(struct sched_proc *p,
    struct sched_fig *(*newfig)(void *, struct sched_proc *, unsigned),
    void *arg)
{
	ssize_t got;
	char *nl;

	got = read(p->resp, p->rbuf + p->rlen, sizeof(p->rbuf) - 1 - p->rlen);
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (got <= 0) {
		proc_close(&p->resp);
		return;
	}
	p->rlen += (size_t)got;
	while (p->resp >= 0 &&
	    (nl = memchr(p->rbuf, '\n', p->rlen)) != NULL) {
		size_t used = (size_t)(nl - p->rbuf) + 1;

		*nl = '\0';
		proc_line(p, p->rbuf, newfig, arg);
		memmove(p->rbuf, p->rbuf + used, p->rlen - used);
		p->rlen -= used;
	}
	if (p->resp >= 0 && p->rlen == sizeof(p->rbuf) - 1)
		proc_bad(p, "an overlong line on the serve pipe");
}

/* Read what process p printed on stdout, keeping at most PROC_TEXT_MAX. */
static void
proc_read_text(struct sched_proc *p)
{
	/* Static: 64 KB off a stack that a user may limit to 32 KB. */
	static char buf[65536];
	ssize_t got = read(p->out, buf, sizeof(buf));
	char *grown;

	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (got <= 0) {
		proc_close(&p->out);
		return;
	}
	if (p->tlen + (size_t)got > PROC_TEXT_MAX) {
		proc_bad(p, "more than 64 MB on standard output");
		return;
	}
	if (p->tlen + (size_t)got + 1 > p->tcap) {
		size_t cap = (p->tlen + (size_t)got + 1) * 2;

		if ((grown = realloc(p->text, cap)) == NULL) {
			proc_bad(p, "out of memory");
			return;
		}
		p->text = grown;
		p->tcap = cap;
	}
	memcpy(p->text + p->tlen, buf, (size_t)got);
	p->tlen += (size_t)got;
	p->text[p->tlen] = '\0';
}

/*
 * Wait up to ms (or until the signal descriptor wakes) for what the n
 * processes send, handle all of it, and reap the processes that ended.
 * newfig makes the figure a process announces.  A process whose pipes
 * closed on an earlier pump is reaped first, without waiting, and while
 * one has not exited yet the poll waits PROC_EXIT_POLL_MS at most: its
 * SIGCHLD may have come with another's, as one signal, and nothing else
 * would wake the poll (an A/B's every restart of two tools waited the
 * caller's whole 200 ms for the second).
 */
void
sched_proc_pump(struct sched_proc **ps, size_t n, int sigfd, int ms,
    struct sched_fig *(*newfig)(void *, struct sched_proc *, unsigned),
    void *arg)
{
	struct pollfd *pfd;
	size_t i, k = 0, gone = 0;

	for (i = 0; i < n; i++) {
		sched_proc_reap(ps[i]);
		gone += ps[i]->state == SCHED_P_GONE;
		if (ps[i]->state != SCHED_P_GONE && ps[i]->out < 0 &&
		    ms > PROC_EXIT_POLL_MS)
			ms = PROC_EXIT_POLL_MS;
	}
	if (gone > 0)
		return;
	if ((pfd = calloc(2 * n + 1, sizeof(*pfd))) == NULL) {
		(void)poll(NULL, 0, ms);
		return;
	}
	pfd[k].fd = sigfd;
	pfd[k++].events = POLLIN;
	for (i = 0; i < n; i++) {
		pfd[k].fd = ps[i]->resp;
		pfd[k++].events = POLLIN;
		pfd[k].fd = ps[i]->out;
		pfd[k++].events = POLLIN;
	}
	if (poll(pfd, k, ms) > 0) {
		for (i = 0; i < n; i++) {
			if (pfd[1 + 2 * i].revents != 0 && ps[i]->resp >= 0)
				proc_read_resp(ps[i], newfig, arg);
			if (pfd[2 + 2 * i].revents != 0 && ps[i]->out >= 0)
				proc_read_text(ps[i]);
		}
	}
	free(pfd);
	for (i = 0; i < n; i++)
		sched_proc_reap(ps[i]);
}

/* Send sig to p's process group (the tool, its workers and partners). */
void
sched_proc_kill(struct sched_proc *p, int sig)
{
	if (p->pid > 0 && p->state != SCHED_P_GONE)
		(void)kill(-p->pid, sig);
}

/*
 * Reap p if it has exited and all it printed was read; it is gone then.
 * A served process whose pipe closed cannot serve any more.  One reaped
 * by another (ECHILD: SIGCHLD ignored, which main prevents) is gone with
 * its status lost, a failure: a tool that crashed must not pass as one
 * that exited 0.
 */
void
sched_proc_reap(struct sched_proc *p)
{
	pid_t got;
	int lost;

	if (p->pid <= 0 || p->state == SCHED_P_GONE)
		return;
	if (p->out >= 0)
		return;
	got = waitpid(p->pid, &p->status, WNOHANG);
	lost = got < 0 && errno == ECHILD;
	if (lost) {
		p->status = SCHED_STATUS_LOST;
		if (p->why[0] == '\0')
			snprintf(p->why, sizeof(p->why), "its exit status was "
			    "lost (%s)", strerror(ECHILD));
	}
	/*
	 * A served figure ends when the scheduler ends it: a tool that
	 * exits 0 before (between two visits, in one) failed all the same.
	 */
	if (got == p->pid && (!p->once || p->burst > 0) &&
	    (p->state == SCHED_P_IDLE || p->state == SCHED_P_VISIT ||
	    p->state == SCHED_P_RELEASE) && WIFEXITED(p->status) &&
	    WEXITSTATUS(p->status) == 0 && p->why[0] == '\0')
		snprintf(p->why, sizeof(p->why), "exited before its figure "
		    "ended");
	if (got == p->pid || lost) {
		p->state = SCHED_P_GONE;
		proc_close(&p->resp);
		proc_close(&p->cmd);
	}
}
