/* partner.h: a peer process for the ping-pong and streaming tools. */
#ifndef BM_PARTNER_H
#define BM_PARTNER_H

#include <stddef.h>
#include <sys/types.h>

#include "benchmp.h"

/* A partner process forked by a worker. */
struct partner {
	pid_t pid;
};

/*
 * Fork a partner that runs fn(arg) and exits with its result; it dies
 * with the worker that forked it (no orphans).  0 or -errno.
 */
int partner_start(struct partner *p, int (*fn)(void *), void *arg);

/*
 * Kill and reap the partner; 0 or -errno.  One never started (pid 0) or
 * already stopped is left alone (0), so a cleanup may call it always.
 */
int partner_stop(struct partner *p);

/*
 * 1 once the partner has ended (it is reaped then, and partner_stop leaves
 * it alone), else 0: a wait for the partner to open its end of a channel
 * asks it, so that a partner that died first is a dead partner, not a
 * timeout.
 */
int partner_gone(struct partner *p);

/*
 * Read or write exactly len bytes, surviving short transfers and EINTR.
 * End of file (the peer closed or died) is -EPIPE, so a dead partner is
 * an error, never a hang.
 */
int partner_read(int fd, void *buf, size_t len);
int partner_write(int fd, const void *buf, size_t len);

/*
 * The timed loops of the ping-pong and streaming tools (ipc.c, net.c), a
 * bm_fn's whole body: n round trips of msg bytes of buf, written to wr
 * and read back from rd; or n transfers, each a request byte written to
 * wr and then total bytes read from rd in pieces of at most msg into buf.
 * 0 or the first failure of partner_read()/partner_write().
 */
int partner_round_trips(int wr, int rd, void *buf, size_t msg, bm_iter_t n);
int partner_transfers(int wr, int rd, void *buf, size_t msg, size_t total,
    bm_iter_t n);

#endif /* BM_PARTNER_H */
