/* lat_usleep.c: how long a request to sleep for a given time really takes. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/tool.h"

/* The longest sleep a user may ask for: 10 s. */
#define USLEEP_MAX_US 10000000u

/* What to sleep for, in microseconds and as each call takes it. */
struct usleep_state {
	unsigned long us;
	struct timespec ts;
	struct timeval tv;
};

/* n usleep() calls. */
static int
usleep_usleep(bm_iter_t n, void *cookie)
{
	const struct usleep_state *s = cookie;

	while (n-- > 0) {
		if (usleep((useconds_t)s->us) != 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

/* n nanosleep() calls. */
static int
usleep_nanosleep(bm_iter_t n, void *cookie)
{
	const struct usleep_state *s = cookie;

	while (n-- > 0) {
		if (nanosleep(&s->ts, NULL) != 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

/* n select() calls with no descriptors (each may change its timeval). */
static int
usleep_select(bm_iter_t n, void *cookie)
{
	const struct usleep_state *s = cookie;
	struct timeval tv;

	while (n-- > 0) {
		tv = s->tv;
		if (select(0, NULL, NULL, NULL, &tv) < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

/* n pselect() calls with no descriptors. */
static int
usleep_pselect(bm_iter_t n, void *cookie)
{
	const struct usleep_state *s = cookie;

	while (n-- > 0) {
		if (pselect(0, NULL, NULL, NULL, &s->ts, NULL) < 0 &&
		    errno != EINTR)
			return -errno;
	}
	return 0;
}

static volatile sig_atomic_t usleep_rang;

/* SIGALRM of the itimer mode. */
static void
usleep_alarm(int sig)
{
	(void)sig;
	usleep_rang = 1;
}

/* Install the SIGALRM handler, blocked until sigsuspend() waits for it. */
static int
usleep_itimer_init(bm_iter_t n, void *cookie)
{
	sigset_t block;
	int rc;

	(void)n;
	(void)cookie;
	if ((rc = tool_catch_signal(SIGALRM, usleep_alarm, 0)) != 0)
		return rc;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	return sigprocmask(SIG_BLOCK, &block, NULL) == 0 ? 0 : -errno;
}

/* n one-shot interval timers, each waited for with sigsuspend(). */
static int
usleep_itimer(bm_iter_t n, void *cookie)
{
	const struct usleep_state *s = cookie;
	struct itimerval it;
	sigset_t wait;

	sigemptyset(&wait);
	memset(&it, 0, sizeof it);
	it.it_value = s->tv;
	/* A zero it_value disarms the timer: ask for the shortest instead. */
	if (s->us == 0)
		it.it_value.tv_usec = 1;
	while (n-- > 0) {
		usleep_rang = 0;
		if (setitimer(ITIMER_REAL, &it, NULL) != 0)
			return -errno;
		while (!usleep_rang)
			sigsuspend(&wait);
	}
	return 0;
}

static const struct usleep_mode {
	const char *name;
	bm_fn init, fn;
} usleep_modes[] = {
	{ "usleep", NULL, usleep_usleep },
	{ "nanosleep", NULL, usleep_nanosleep },
	{ "select", NULL, usleep_select },
	{ "pselect", NULL, usleep_pselect },
	{ "itimer", usleep_itimer_init, usleep_itimer },
};
#define USLEEP_NMODES (sizeof usleep_modes / sizeof usleep_modes[0])

/* Take -u into the cookie, the chosen mode (const struct usleep_mode **). */
static void
usleep_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	const struct usleep_mode **mode = cookie;
	size_t i;

	(void)opt;
	for (i = 0; i < USLEEP_NMODES; i++) {
		if (strcmp(arg, usleep_modes[i].name) == 0) {
			*mode = &usleep_modes[i];
			return;
		}
	}
	tool_exit_usage(t, "-u: unknown method '%s'", arg);
}

/* Measure and print. */
int
main(int argc, char **argv)
{
	struct tool t = {
		.name = "lat_usleep",
		.args = "[-u usleep|nanosleep|select|pselect|itimer] usecs"
	};
	const struct usleep_mode *mode = &usleep_modes[0];
	struct usleep_state s;
	bm_param params[2];
	bm_bench b;
	bm_result r;
	char label[96];
	int first;

	first = tool_parse(&t, argc, argv, "u:", NULL, usleep_option, &mode);
	if (first >= argc)
		tool_exit_usage(&t, "missing the time to sleep");
	if (first + 1 < argc)
		tool_exit_usage(&t, "too many arguments");
	s.us = (unsigned long)tool_uint(&t, "usecs", argv[first], 0,
	    USLEEP_MAX_US);
	s.ts.tv_sec = (time_t)(s.us / 1000000);
	s.ts.tv_nsec = (long)(s.us % 1000000) * 1000;
	s.tv.tv_sec = (time_t)(s.us / 1000000);
	s.tv.tv_usec = (suseconds_t)(s.us % 1000000);
	tool_setup(&t);
	tool_wall_clock(&t);
	b.initialize = mode->init;
	b.benchmark = mode->fn;
	b.cleanup = NULL;
	b.cookie = &s;
	tool_run(&t, &b, &r);
	params[0] = tool_record_param("usecs", NULL, (double)s.us);
	params[1] = tool_record_param("method", mode->name, 0);
	snprintf(label, sizeof label, "%s %lu microseconds",
	    mode->name, s.us);
	tool_report_us(&t, mode->name, params, 2, &r, label);
	bm_result_free(&r);
	return tool_finish(&t);
}
