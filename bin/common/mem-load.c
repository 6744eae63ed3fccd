/* mem-load.c: processes that stream memory while another is measured. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mem.h"

/* A load process adds to its counter after this many bytes. */
#define MEM_LOAD_CHUNK ((size_t)1 << 20)
/* Counters sit this far apart so that they do not share a cache line. */
#define MEM_COUNTER_GAP 16

/* The monotonic clock in seconds. */
double
mem_load_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How a load process that cannot start exits. */
#define MEM_LOAD_ORPHAN 3	/* its parent died before it started */
#define MEM_LOAD_NOMEM 4	/* it could not map and touch its buffer */

/*
 * Describe in why how load process i, which waitpid() reported with
 * status st, ended or stopped.
 */
static void
mem_load_describe(const struct mem_load *l, unsigned i, int st, char *why,
    size_t len)
{
	pid_t pid = l->pids[i];

	if (WIFSTOPPED(st))
		snprintf(why, len, "load process %u (pid %ld) was stopped by "
		    "signal %d (%s)", i, (long)pid, WSTOPSIG(st),
		    strsignal(WSTOPSIG(st)));
	else if (WIFSIGNALED(st))
		snprintf(why, len, "load process %u (pid %ld) was killed by "
		    "signal %d (%s)", i, (long)pid, WTERMSIG(st),
		    strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == MEM_LOAD_NOMEM)
		snprintf(why, len, "load process %u (pid %ld) cannot allocate "
		    "its %.0f MB", i, (long)pid, (double)l->size / 1e6);
	else
		snprintf(why, len, "load process %u (pid %ld) exited with "
		    "status %d", i, (long)pid, WIFEXITED(st) ?
		    WEXITSTATUS(st) : -1);
}

/*
 * Check that every load process still runs: one that died, or was
 * stopped (SIGSTOP, a debugger), makes the figures measured meanwhile
 * those of a lighter load, as a dead partner does.  0, or -1 with why
 * filled (the process is then reaped, or left stopped for mem_load_stop).
 */
int
mem_load_check(struct mem_load *l, char *why, size_t len)
{
	unsigned i;
	pid_t got;
	int st;

	for (i = 0; i < l->n && l->pids != NULL; i++) {
		if (l->pids[i] <= 0)
			continue;
		got = waitpid(l->pids[i], &st, WNOHANG | WUNTRACED);
		if (got == 0)
			continue;
		if (got < 0) {
			snprintf(why, len, "load process %u (pid %ld): %s", i,
			    (long)l->pids[i], strerror(errno));
			return -1;
		}
		mem_load_describe(l, i, st, why, len);
		if (!WIFSTOPPED(st))
			l->pids[i] = 0;
		return -1;
	}
	return 0;
}

/* A load process: read its buffer forever, counting bytes; never returns. */
static void
mem_load_child(struct mem_load *l, unsigned i, pid_t parent)
{
	struct mem_read s;
	size_t off;
	unsigned sum = 0;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(MEM_LOAD_ORPHAN);
	memset(&s, 0, sizeof s);
	s.size = l->size;
	if (mem_chase_read_init(0, &s) != 0)
		_exit(MEM_LOAD_NOMEM);
	for (;;) {
		for (off = 0; off + MEM_LOAD_CHUNK <= s.size;
		    off += MEM_LOAD_CHUNK) {
			sum += mem_chase_read_pass((const unsigned *)(void *)
			    (s.map + off), MEM_LOAD_CHUNK);
			__atomic_fetch_add(&l->bytes[i * MEM_COUNTER_GAP],
			    MEM_LOAD_CHUNK, __ATOMIC_RELAXED);
		}
		s.sink = sum;
	}
}

/*
 * Start n processes that stream memory over size bytes each, and wait
 * until every one is reading.  0, or -1 with why filled (none is left).
 */
int
mem_load_start(struct mem_load *l, unsigned n, size_t size, char *why,
    size_t len)
{
	struct timespec ms = { 0, 1000000 };
	pid_t parent = getpid();
	unsigned i, ready, tries;
	int status;

	memset(l, 0, sizeof *l);
	l->owner = parent;
	l->cap = n;
	l->size = size < MEM_LOAD_CHUNK ? MEM_LOAD_CHUNK : size;
	if ((l->pids = calloc(n, sizeof *l->pids)) == NULL) {
		snprintf(why, len, "no memory for %u load processes", n);
		return -1;
	}
	l->bytes = mmap(NULL, (size_t)n * MEM_COUNTER_GAP * sizeof *l->bytes,
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (l->bytes == MAP_FAILED) {
		snprintf(why, len, "cannot map the load counters: %s",
		    strerror(errno));
		l->bytes = NULL;
		free(l->pids);
		l->pids = NULL;
		return -1;
	}
	fflush(NULL);
	for (i = 0; i < n; i++) {
		if ((l->pids[i] = fork()) < 0) {
			snprintf(why, len, "cannot fork load process %u: %s",
			    i, strerror(errno));
			l->pids[i] = 0;
			mem_load_stop(l);
			return -1;
		}
		l->n = i + 1;
		if (l->pids[i] == 0)
			mem_load_child(l, i, parent);
	}
	for (tries = 0; tries < 30000; tries++) {
		for (i = 0, ready = 0; i < n; i++) {
			if (waitpid(l->pids[i], &status, WNOHANG | WUNTRACED) !=
			    0) {
				mem_load_describe(l, i, status, why, len);
				if (!WIFSTOPPED(status))
					l->pids[i] = 0;
				mem_load_stop(l);
				return -1;
			}
			if (__atomic_load_n(&l->bytes[i * MEM_COUNTER_GAP],
			    __ATOMIC_RELAXED) > 0)
				ready++;
		}
		if (ready == n)
			return 0;
		nanosleep(&ms, NULL);
	}
	snprintf(why, len, "the load processes did not start reading within "
	    "30 s");
	mem_load_stop(l);
	return -1;
}

/* The bytes the load processes have read so far. */
uint64_t
mem_load_bytes(const struct mem_load *l)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < l->n && l->bytes != NULL; i++)
		sum += __atomic_load_n(&l->bytes[i * MEM_COUNTER_GAP],
		    __ATOMIC_RELAXED);
	return sum;
}

/* Kill and reap the load processes (only in the process that started them). */
void
mem_load_stop(struct mem_load *l)
{
	unsigned i;

	if (l->owner != getpid())
		return;
	for (i = 0; i < l->n && l->pids != NULL; i++) {
		if (l->pids[i] > 0) {
			kill(l->pids[i], SIGKILL);
			while (waitpid(l->pids[i], NULL, 0) < 0 &&
			    errno == EINTR)
				;
		}
	}
	if (l->bytes != NULL)
		munmap(l->bytes, (size_t)l->cap * MEM_COUNTER_GAP *
		    sizeof *l->bytes);
	free(l->pids);
	l->pids = NULL;
	l->bytes = NULL;
	l->n = 0;
}
