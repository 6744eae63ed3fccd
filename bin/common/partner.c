/* partner.c: a peer process for the ping-pong and streaming tools. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "benchmp/worker.h"
#include "partner.h"

/* Fork the partner; it dies when the worker does. */
int
partner_start(struct partner *p, int (*fn)(void *), void *arg)
{
	pid_t parent = getpid();

	/* A partner's death shows as EPIPE on write, not as a signal. */
	signal(SIGPIPE, SIG_IGN);
	if ((p->pid = fork()) < 0)
		return -errno;
	if (p->pid == 0) {
#if defined(HAVE_PRCTL) && HAVE_DECL_PR_SET_PDEATHSIG
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		if (getppid() != parent)
			_exit(1);
		_exit(fn(arg) == 0 ? 0 : 1);
	}
	/*
	 * The figure waits for every wakeup of the partner: its run-queue
	 * wait is the worker's for the interference accounting (nothing
	 * to do outside a worker or with the accounting off).
	 */
	(void)bm_state_watch(bm_state_current(), (long)p->pid);
	return 0;
}

/* Kill and reap the partner. */
int
partner_stop(struct partner *p)
{
	int st;

	if (p->pid <= 0)
		return 0;
	kill(p->pid, SIGKILL);
	while (waitpid(p->pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	p->pid = 0;
	return 0;
}

/* Has the partner ended?  Reaped if so. */
int
partner_gone(struct partner *p)
{
	int st;

	if (p->pid <= 0)
		return 1;
	if (waitpid(p->pid, &st, WNOHANG) != p->pid)
		return 0;
	p->pid = 0;
	return 1;
}

/*
 * Move exactly len bytes: read into rbuf, or (rbuf NULL) write from wbuf.
 * A read's end of file is -EPIPE.
 */
static int
partner_xfer(int fd, char *rbuf, const char *wbuf, size_t len)
{
	ssize_t got;

	while (len > 0) {
		got = rbuf != NULL ? read(fd, rbuf, len) : write(fd, wbuf, len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0 && rbuf != NULL)
			return -EPIPE;
		if (rbuf != NULL)
			rbuf += got;
		else
			wbuf += got;
		len -= (size_t)got;
	}
	return 0;
}

/* Read exactly len bytes; end of file is -EPIPE. */
int
partner_read(int fd, void *buf, size_t len)
{
	return partner_xfer(fd, buf, NULL, len);
}

/* Write exactly len bytes. */
int
partner_write(int fd, const void *buf, size_t len)
{
	return partner_xfer(fd, NULL, buf, len);
}

/* n round trips of a message: write it to wr, read it back from rd. */
int
partner_round_trips(int wr, int rd, void *buf, size_t msg, bm_iter_t n)
{
	int rc;

	while (n-- > 0) {
		if ((rc = partner_write(wr, buf, msg)) != 0 ||
		    (rc = partner_read(rd, buf, msg)) != 0)
			return rc;
	}
	return 0;
}

/* n transfers: a request byte to wr, then total bytes from rd. */
int
partner_transfers(int wr, int rd, void *buf, size_t msg, size_t total,
    bm_iter_t n)
{
	size_t left, chunk;
	char req = 'r';
	int rc;

	while (n-- > 0) {
		if ((rc = partner_write(wr, &req, 1)) != 0)
			return rc;
		for (left = total; left > 0; left -= chunk) {
			chunk = left < msg ? left : msg;
			if ((rc = partner_read(rd, buf, chunk)) != 0)
				return rc;
		}
	}
	return 0;
}
