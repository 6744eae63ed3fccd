/* lat_sem.c: the round-trip latency of semaphores between two processes. */
#include "config.h"

#include <errno.h>
#include <semaphore.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "partner.h"
#include "tool.h"

/*
 * How long one wait may last before the partner is checked: a partner
 * that died never posts, and the worker must notice instead of hanging.
 */
#define SEM_SLICE_MS 200

/* The two semaphores, in memory both processes share. */
struct sem_pair {
	sem_t ping;		/* posted by the worker */
	sem_t pong;		/* posted by the partner */
};

/* One worker's semaphores and partner. */
struct sem_state {
	struct sem_pair *pair;
	struct partner partner;
};

/*
 * Wait for a semaphore in slices; between slices, check that the process
 * that should post it is still alive (pid 0: the worker, which the partner
 * outlives only until PR_SET_PDEATHSIG kills it).  -EPIPE if it died.
 */
static int
sem_wait_peer(sem_t *sem, pid_t peer)
{
	struct timespec until;

	for (;;) {
		if (sem_trywait(sem) == 0)
			return 0;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SEM_SLICE_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (sem_timedwait(sem, &until) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != ETIMEDOUT)
			return -errno;
		if (peer > 0 && waitpid(peer, NULL, WNOHANG) != 0)
			return -EPIPE;
	}
}

/* The partner: answer every ping with a pong. */
static int
sem_partner(void *arg)
{
	struct sem_pair *p = arg;

	for (;;) {
		if (sem_wait_peer(&p->ping, 0) != 0 || sem_post(&p->pong) != 0)
			return 1;
	}
}

/* Map the semaphores and start the partner. */
static int
sem_init_state(bm_iter_t n, void *cookie)
{
	struct sem_state *s = cookie;
	void *m;

	(void)n;
	m = mmap(NULL, sizeof *s->pair, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -errno;
	s->pair = m;
	if (sem_init(&s->pair->ping, 1, 0) != 0 ||
	    sem_init(&s->pair->pong, 1, 0) != 0)
		return -errno;
	return partner_start(&s->partner, sem_partner, s->pair);
}

/* n round trips: post ping, wait for pong. */
static int
sem_bench(bm_iter_t n, void *cookie)
{
	struct sem_state *s = cookie;
	int rc;

	while (n-- > 0) {
		if (sem_post(&s->pair->ping) != 0)
			return -errno;
		if ((rc = sem_wait_peer(&s->pair->pong, s->partner.pid)) != 0)
			return rc;
	}
	return 0;
}

/* Stop the partner and unmap the semaphores. */
static int
sem_cleanup(bm_iter_t n, void *cookie)
{
	struct sem_state *s = cookie;

	(void)n;
	if (s->partner.pid > 0)
		(void)partner_stop(&s->partner);
	if (s->pair != NULL)
		munmap(s->pair, sizeof *s->pair);
	s->pair = NULL;
	return 0;
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = { .name = "lat_sem", .args = "" };
	struct sem_state s;
	bm_bench b;
	bm_result r;

	memset(&s, 0, sizeof s);
	if (tool_parse(&t, argc, argv, NULL, NULL, NULL) != argc)
		tool_usage_error(&t, "unexpected argument '%s'", argv[optind]);
	tool_setup(&t);
	tool_wall_clock(&t);
	b.initialize = sem_init_state;
	b.benchmark = sem_bench;
	b.cleanup = sem_cleanup;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	tool_report_us(&t, "posix", NULL, 0, &r, "Semaphore latency");
	bm_result_free(&r);
	return tool_finish(&t);
}
