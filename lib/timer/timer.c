/* timer.c: the registry of subtimers and the timer config string. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Every subtimer benchmp knows, in order of preference within a kind. */
static const struct timer_entry {
	const char *name;
	int kind;
	const bm__subtimer_ops *ops;	/* NULL: not built here */
} timer_registry[] = {
	{ "posix-monotonic", BM_SUBTIMER_CLOCK, &bm__clock_posix_monotonic },
#ifdef BM_HAVE_MONOTONIC_RAW
	{ "posix-monotonic-raw", BM_SUBTIMER_CLOCK,
	    &bm__clock_posix_monotonic_raw },
#else
	{ "posix-monotonic-raw", BM_SUBTIMER_CLOCK, NULL },
#endif
#ifdef BM_HAVE_THREAD_CPUTIME
	{ "posix-thread-cputime", BM_SUBTIMER_CLOCK,
	    &bm__clock_posix_thread_cputime },
#else
	{ "posix-thread-cputime", BM_SUBTIMER_CLOCK, NULL },
#endif
	{ "stdc-clock", BM_SUBTIMER_CLOCK, &bm__clock_stdc_clock },
#ifdef BM_HAVE_X86
	{ "x86-rdtscp", BM_SUBTIMER_CYCLE, &bm__cycle_x86_rdtscp },
	{ "x86-rdtsc", BM_SUBTIMER_CYCLE, &bm__cycle_x86_rdtsc },
#else
	{ "x86-rdtscp", BM_SUBTIMER_CYCLE, NULL },
	{ "x86-rdtsc", BM_SUBTIMER_CYCLE, NULL },
#endif
#ifdef BM_HAVE_PERF_EVENT
	{ "linux-perf-event", BM_SUBTIMER_CYCLE,
	    &bm__cycle_linux_perf_event },
#else
	{ "linux-perf-event", BM_SUBTIMER_CYCLE, NULL },
#endif
	{ "null", BM_SUBTIMER_CYCLE, &bm__cycle_null },
};
#define TIMER_NBUILTIN (sizeof timer_registry / sizeof timer_registry[0])

/*
 * Subtimers a program added with bm_timer_register().  The registry is
 * the one piece of process-wide state here, as mLib's and libuv's
 * backends are: a subtimer is a property of the process (its clock, its
 * counters), not of one context, and a forked worker inherits it.
 */
static struct timer_entry timer_added[BM_MAX_REGISTERED_TIMERS];
static bm__subtimer_ops timer_added_ops[BM_MAX_REGISTERED_TIMERS];
static char timer_added_names[BM_MAX_REGISTERED_TIMERS][BM_TIMER_NAME_MAX];
static size_t timer_nadded;

/* The i-th entry of the registry: the built-in ones, then those added. */
static const struct timer_entry *
timer_entry_at(size_t i)
{
	if (i < TIMER_NBUILTIN)
		return &timer_registry[i];
	if (i - TIMER_NBUILTIN < timer_nadded)
		return &timer_added[i - TIMER_NBUILTIN];
	return NULL;
}

static const char *const timer_kind_names[] = { "clock", "cycle counter" };

/* What separates the words of a config string. */
#define TIMER_BLANKS " \t\n\r\v\f"

/* Check that a POSIX clock works here and describe it. */
int
bm__posix_clock_init(clockid_t id, const char *name, char *detail,
    size_t len)
{
	struct timespec res, now;
	int e;

	if (clock_getres(id, &res) != 0 || clock_gettime(id, &now) != 0) {
		e = errno;
		snprintf(detail, len, "%s: %s", name, strerror(e));
		return -e;
	}
	snprintf(detail, len, "%s, resolution %ld ns", name,
	    (long)res.tv_sec * 1000000000L + res.tv_nsec);
	return 0;
}

/* Find a registry entry by name (len bytes of name), or NULL. */
static const struct timer_entry *
timer_find(const char *name, size_t len)
{
	const struct timer_entry *e;
	size_t i;

	for (i = 0; (e = timer_entry_at(i)) != NULL; i++) {
		if (strlen(e->name) == len && strncmp(e->name, name, len) == 0)
			return e;
	}
	return NULL;
}

/* A registered constant-rate counter: the program vouches for its rate. */
static int
timer_declared_rate(char *detail, size_t len)
{
	snprintf(detail, len, "constant rate (registered with "
	    "BM_SUBTIMER_CONSTANT_RATE)");
	return 1;
}

/*
 * Add a program's own subtimer to the registry, after the built-in ones
 * of its kind: a config string names it like any other.  The name must
 * be new and usable in a config string (letters, digits, '-', '_', '.').
 */
int
bm_timer_register(const bm_subtimer_class *c)
{
	bm__subtimer_ops *ops;
	struct timer_entry *e;
	size_t len, i;

	if (c == NULL || c->name == NULL || c->init == NULL || c->now == NULL)
		return -EINVAL;
	if (c->kind != BM_SUBTIMER_CLOCK && c->kind != BM_SUBTIMER_CYCLE)
		return BM_ERANGE;
	if ((c->flags & ~(unsigned)BM_SUBTIMER_CONSTANT_RATE) != 0 ||
	    (c->flags != 0 && c->kind != BM_SUBTIMER_CYCLE))
		return -EINVAL;
	len = strlen(c->name);
	if (len == 0 || len >= BM_TIMER_NAME_MAX)
		return BM_ERANGE;
	for (i = 0; i < len; i++)
		if (!((c->name[i] >= 'a' && c->name[i] <= 'z') ||
		    (c->name[i] >= 'A' && c->name[i] <= 'Z') ||
		    (c->name[i] >= '0' && c->name[i] <= '9') ||
		    c->name[i] == '-' || c->name[i] == '_' ||
		    c->name[i] == '.'))
			return BM_EPARSE;
	if (len == 4 && strcmp(c->name, "list") == 0)
		return BM_ECONFIG;
	if (timer_find(c->name, len) != NULL)
		return -EEXIST;
	if (timer_nadded == BM_MAX_REGISTERED_TIMERS)
		return -ENOSPC;
	memcpy(timer_added_names[timer_nadded], c->name, len + 1);
	ops = &timer_added_ops[timer_nadded];
	ops->name = timer_added_names[timer_nadded];
	ops->kind = c->kind;
	ops->flags = 0;
	ops->what = ops->name;
	ops->init = c->init;
	ops->now = c->now;
	ops->after_fork = c->after_fork;
	ops->fini = c->fini;
	ops->constant_rate = c->flags & BM_SUBTIMER_CONSTANT_RATE ?
	    timer_declared_rate : NULL;
	e = &timer_added[timer_nadded];
	e->name = ops->name;
	e->kind = c->kind;
	e->ops = ops;
	timer_nadded++;
	return 0;
}

/*
 * Check a comma-separated list of names of one kind without initialising
 * anything, so that a typo late in a list is reported even when an earlier
 * name would have won.
 */
static int
timer_check_list(const char *list, size_t len, int kind, const char *word,
    int wlen, char *err, size_t errlen)
{
	const struct timer_entry *e;
	const char *p = list, *end = list + len, *comma;
	size_t n;

	if (len == 0) {
		snprintf(err, errlen, "empty list in timer config word "
		    "'%.*s'", wlen, word);
		return BM_EPARSE;
	}
	while (p <= end) {
		comma = memchr(p, ',', (size_t)(end - p));
		n = (size_t)((comma != NULL ? comma : end) - p);
		if (n == 0) {
			snprintf(err, errlen, "empty name in timer config word "
			    "'%.*s'", wlen, word);
			return BM_EPARSE;
		}
		if ((e = timer_find(p, n)) == NULL) {
			snprintf(err, errlen, "unknown %s '%.*s' in timer "
			    "config", timer_kind_names[kind], (int)n, p);
			return BM_ECONFIG;
		}
		if (e->kind != kind) {
			snprintf(err, errlen, "'%.*s' is a %s, not a %s",
			    (int)n, p, timer_kind_names[e->kind],
			    timer_kind_names[kind]);
			return BM_ECONFIG;
		}
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return 0;
}

/*
 * Initialise the first subtimer of a checked list that works; when none
 * does, say why each one failed.
 */
static int
timer_pick(const char *list, size_t len, int kind,
    const bm__subtimer_ops **ops, void **priv, char *err, size_t errlen)
{
	const struct timer_entry *e;
	const char *p = list, *end = list + len, *comma;
	char detail[128];
	size_t n, used;

	used = (size_t)snprintf(err, errlen, "no %s works:",
	    timer_kind_names[kind]);
	for (;;) {
		comma = memchr(p, ',', (size_t)(end - p));
		n = (size_t)((comma != NULL ? comma : end) - p);
		e = timer_find(p, n);
		detail[0] = '\0';
		if (e->ops == NULL)
			snprintf(detail, sizeof detail,
			    "not built for this platform");
		else if (e->ops->init(priv, detail, sizeof detail) == 0) {
			*ops = e->ops;
			err[0] = '\0';
			return 0;
		}
		if (used < errlen)
			used += (size_t)snprintf(err + used, errlen - used,
			    "%s %s: %s", p == list ? "" : ";", e->name, detail);
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return BM_ENOTIMER;
}

/* Find "key=" words of a config string; check everything else. */
static int
timer_split(const char *config, const char **clock, size_t *clen,
    const char **cycle, size_t *cylen, char *err, size_t errlen)
{
	const char *p = config, *w;
	size_t n;

	*clock = *cycle = NULL;
	while (p != NULL && *p != '\0') {
		p += strspn(p, TIMER_BLANKS);
		if (*p == '\0')
			break;
		w = p;
		n = strcspn(w, TIMER_BLANKS);
		p = w + n;
		if (n == 4 && strncmp(w, "list", 4) == 0)
			continue;
		if (n >= 6 && strncmp(w, "clock=", 6) == 0) {
			if (*clock != NULL)
				goto repeated;
			*clock = w + 6;
			*clen = n - 6;
		} else if (n >= 6 && strncmp(w, "cycle=", 6) == 0) {
			if (*cycle != NULL)
				goto repeated;
			*cycle = w + 6;
			*cylen = n - 6;
		} else {
			snprintf(err, errlen, "unknown word '%.*s' in timer "
			    "config (expected clock=NAMES, cycle=NAMES or "
			    "list)", (int)n, w);
			return BM_ECONFIG;
		}
		continue;
repeated:
		snprintf(err, errlen, "'%.*s' repeats a key in timer config",
		    (int)n, w);
		return BM_ECONFIG;
	}
	return 0;
}

/* Check a config string's words and names without initialising anything. */
int
bm__timer_check(const char *config, char *err, size_t errlen)
{
	const char *clock, *cycle;
	size_t clen = 0, cylen = 0;
	int rc;

	if ((rc = timer_split(config, &clock, &clen, &cycle, &cylen, err,
	    errlen)) != 0)
		return rc;
	if (clock != NULL && (rc = timer_check_list(clock, clen,
	    BM_SUBTIMER_CLOCK, clock - 6, (int)clen + 6, err, errlen)) != 0)
		return rc;
	if (cycle != NULL && (rc = timer_check_list(cycle, cylen,
	    BM_SUBTIMER_CYCLE, cycle - 6, (int)cylen + 6, err, errlen)) != 0)
		return rc;
	return 0;
}

/* Initialise a timer from a config string (NULL: the default). */
int
bm__timer_init(bm__timer *t, const char *config, char *err, size_t errlen)
{
	const char *clock, *cycle;
	size_t clen = 0, cylen = 0;
	int rc;

	memset(t, 0, sizeof *t);
	if ((rc = timer_split(config, &clock, &clen, &cycle, &cylen, err,
	    errlen)) != 0)
		return rc;
	if (clock == NULL) {
		clock = "posix-monotonic";
		clen = strlen(clock);
	}
	if (cycle == NULL) {
		cycle = "null";
		cylen = strlen(cycle);
	}
	if ((rc = timer_check_list(clock, clen, BM_SUBTIMER_CLOCK,
	    clock - 6, (int)clen + 6, err, errlen)) != 0 ||
	    (rc = timer_check_list(cycle, cylen, BM_SUBTIMER_CYCLE,
	    cycle - 6, (int)cylen + 6, err, errlen)) != 0)
		return rc;
	if ((rc = timer_pick(clock, clen, BM_SUBTIMER_CLOCK, &t->clock,
	    &t->clock_priv, err, errlen)) != 0)
		return rc;
	if ((rc = timer_pick(cycle, cylen, BM_SUBTIMER_CYCLE, &t->cycle,
	    &t->cycle_priv, err, errlen)) != 0) {
		bm__timer_fini(t);
		return rc;
	}
	return 0;
}

/* Release a timer's subtimers. */
void
bm__timer_fini(bm__timer *t)
{
	if (t->clock != NULL && t->clock->fini != NULL)
		t->clock->fini(t->clock_priv);
	if (t->cycle != NULL && t->cycle->fini != NULL)
		t->cycle->fini(t->cycle_priv);
	memset(t, 0, sizeof *t);
}

/* Reopen per-process resources in a freshly forked worker. */
int
bm__timer_after_fork(bm__timer *t)
{
	int rc;

	if (t->clock != NULL && t->clock->after_fork != NULL &&
	    (rc = t->clock->after_fork(t->clock_priv)) != 0)
		return rc;
	if (t->cycle != NULL && t->cycle->after_fork != NULL &&
	    (rc = t->cycle->after_fork(t->cycle_priv)) != 0)
		return rc;
	return 0;
}

/* Describe every subtimer and whether it initialises here. */
int
bm_timer_list(bm_subtimer_info *out, size_t max, size_t *count)
{
	const struct timer_entry *e;
	void *priv;
	size_t i;
	int rc;

	if (count != NULL)
		*count = TIMER_NBUILTIN + timer_nadded;
	for (i = 0; (e = timer_entry_at(i)) != NULL && i < max; i++) {
		out[i].name = e->name;
		out[i].kind = e->kind;
		out[i].detail[0] = '\0';
		if (e->ops == NULL) {
			out[i].status = BM_ENOTSUP;
			snprintf(out[i].detail, sizeof out[i].detail,
			    "not built for this platform");
			continue;
		}
		priv = NULL;
		rc = e->ops->init(&priv, out[i].detail, sizeof out[i].detail);
		out[i].status = rc;
		if (rc == 0 && e->ops->fini != NULL)
			e->ops->fini(priv);
	}
	return 0;
}

/*
 * Look at a config string's words: 1 when one is "list", and in *other
 * whether any word is something else.
 */
static int
timer_list_words(const char *config, int *other)
{
	const char *p = config;
	size_t n;
	int list = 0;

	*other = 0;
	while (p != NULL && *p != '\0') {
		p += strspn(p, TIMER_BLANKS);
		n = strcspn(p, TIMER_BLANKS);
		if (n == 4 && strncmp(p, "list", 4) == 0)
			list = 1;
		else if (n != 0)
			*other = 1;
		p += n;
	}
	return list;
}

/* Return 1 when a config string contains the word "list". */
int
bm_timer_config_wants_list(const char *config)
{
	int other;

	return timer_list_words(config, &other);
}

/*
 * Print every subtimer and whether it initialises here, to stdout; 0, or
 * -errno when stdout cannot take it.
 */
int
bm_timer_list_print(void)
{
	bm_subtimer_info info[TIMER_NBUILTIN + BM_MAX_REGISTERED_TIMERS];
	size_t n, i;

	if (bm_timer_list(info, sizeof info / sizeof *info, &n) != 0)
		return -EIO;
	for (i = 0; i < n && i < sizeof info / sizeof *info; i++)
		if (printf("%-6s %-22s %s: %s\n",
		    info[i].kind == BM_SUBTIMER_CLOCK ? "clock" : "cycle",
		    info[i].name, info[i].status == 0 ? "ok" : "unavailable",
		    info[i].detail) < 0)
			return errno != 0 ? -errno : -EIO;
	if (fflush(stdout) != 0)
		return errno != 0 ? -errno : -EIO;
	return 0;
}

/* Return 1 when a config string has no word but "list". */
int
bm__timer_config_only_list(const char *config)
{
	int other;

	(void)timer_list_words(config, &other);
	return !other;
}

/* Read the context's clock and cycle subtimers now. */
int
bm_timer_now(const bm_ctx *ctx, bm_time *t)
{
	if (ctx == NULL || t == NULL)
		return -EINVAL;
	t->flags = 0;
	t->cycles = 0;
	if (bm__timer_has_cycles(&ctx->timer)) {
		t->cycles = bm__cycle_now(&ctx->timer);
		t->flags |= BM_TIME_CYCLES_OK;
	}
	t->ns = bm__clock_now(&ctx->timer);
	t->flags |= BM_TIME_OK;
	return 0;
}
