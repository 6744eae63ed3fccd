/* placement.c: which CPUs a worker and its partners run on (--placement). */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "placement.h"

const struct option placement_long[] = {
	{ "placement", required_argument, NULL, PLACEMENT_OPT },
	{ NULL, 0, NULL, 0 }
};

const char placement_usage[] =
    "  --placement=WHERE  cross: the worker and its partner on two CPUs "
    "(default),\n"
    "                     same: on one CPU; both: measure each, two "
    "figures\n";

/*
 * A cross run's shortest interval and its intervals per worker: a cross-CPU
 * round trip's cost wanders over milliseconds under a hypervisor, and
 * intervals of one or two round trips scatter (doc/measurements.md,
 * "Cross-CPU round trips: the interval").  A same run keeps the tool's.
 */
#define PLACEMENT_CROSS_ENOUGH_US 5000
#define PLACEMENT_CROSS_REPS 5

/* What a freshly forked partner runs: note its CPU, then its job. */
struct placement_call {
	struct placement *p;
	unsigned proc;
	int (*fn)(void *);
	void *arg;
};

/* The mode's name. */
const char *
placement_name(int mode)
{
	return mode == PLACEMENT_SAME ? "same" : mode == PLACEMENT_BOTH ?
	    "both" : "cross";
}

/* Parse cross, same or both. */
void
placement_option(struct placement *p, struct tool *t, const char *arg)
{
	if (strcmp(arg, "cross") == 0)
		p->asked = PLACEMENT_CROSS;
	else if (strcmp(arg, "same") == 0)
		p->asked = PLACEMENT_SAME;
	else if (strcmp(arg, "both") == 0)
		p->asked = PLACEMENT_BOTH;
	else
		tool_exit_usage(t, "--placement: '%s' is not cross, same or "
		    "both", arg);
	p->given = 1;
	/* Two figures a run's one under --served (tool_parse). */
	t->placements = p->asked == PLACEMENT_BOTH ? 2 : 1;
}

/* Read the allowed CPUs, map the shared record, warn if cross cannot be. */
void
placement_setup(struct placement *p, struct tool *t, unsigned max_group)
{
	unsigned parallel = t->opts.parallel;
	void *m;
	int c;

	if (sched_getaffinity(0, sizeof p->allowed, &p->allowed) != 0)
		tool_exit_fail(t,
		    "cannot read the CPUs this process may use: %s",
		    strerror(errno));
	p->ncpus = 0;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &p->allowed))
			p->cpus[p->ncpus++] = (unsigned short)c;
	}
	if (p->ncpus == 0)
		tool_exit_fail(t, "this process may run on no CPU");
	p->fallback = p->asked != PLACEMENT_SAME && p->ncpus < 2;
	if (p->fallback)
		fprintf(stderr, "%s: cross placement needs two CPUs, but this "
		    "process may only use CPU %u: measuring with worker and "
		    "partner on that one CPU (placement same)\n", t->name,
		    p->cpus[0]);
	p->nslots = parallel < PLACEMENT_SLOTS ? parallel : PLACEMENT_SLOTS;
	p->seen_bytes = (size_t)p->nslots * (max_group > 0 ? max_group : 1) *
	    sizeof *p->seen;
	m = mmap(NULL, p->seen_bytes, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		tool_exit_fail(t, "cannot map %zu bytes: %s", p->seen_bytes,
		    strerror(errno));
	p->seen = m;
	p->slot = -1;
	p->tool = t;
	p->enough_us = t->opts.enough_us;
	p->repetitions = t->opts.repetitions;
}

/* Two figures for both (where cross is possible), else one. */
unsigned
placement_runs(const struct placement *p)
{
	return p->asked == PLACEMENT_BOTH && !p->fallback ? 2 : 1;
}

/* Set the mode of run i and forget the CPUs of the run before. */
void
placement_begin(struct placement *p, unsigned run, unsigned group)
{
	size_t i;

	if (p->fallback)
		p->mode = PLACEMENT_SAME;
	else if (p->asked == PLACEMENT_BOTH)
		p->mode = run == 0 ? PLACEMENT_CROSS : PLACEMENT_SAME;
	else
		p->mode = p->asked;
	p->group = group > 0 ? group : 1;
	for (i = 0; i < p->seen_bytes / sizeof *p->seen; i++)
		p->seen[i] = -1;
	p->tool->opts.enough_us = p->enough_us;
	p->tool->opts.repetitions = p->repetitions;
	p->tool->opts.later_warmup_us = p->tool->later_warmup_us;
	tool_served_warmup(p->tool, p->mode == PLACEMENT_CROSS);
	if (p->mode != PLACEMENT_CROSS)
		return;
	/* Every round of a cross figure warms up fully (tool.h). */
	p->tool->opts.later_warmup_us = 0;
	if (p->enough_us < PLACEMENT_CROSS_ENOUGH_US)
		p->tool->opts.enough_us = PLACEMENT_CROSS_ENOUGH_US;
	if (!p->tool->reps_given)
		p->tool->opts.repetitions = PLACEMENT_CROSS_REPS;
}

/* Pin the calling process to one CPU. */
static int
placement_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return -errno;
	return 0;
}

/* Note the CPU process proc of this worker's group runs on. */
static void
placement_note(struct placement *p, unsigned proc)
{
	if (p->slot >= 0 && proc < p->group)
		p->seen[(size_t)p->slot * p->group + proc] = sched_getcpu();
}

/*
 * Choose the worker's CPU and pin it there.  Without a policy, worker i's
 * group starts at CPU i (same) or i * group (cross) of the allowed list,
 * cycling, so that workers get their own CPUs while there are enough.
 * A BENCHMP_SCHED policy has already pinned the worker before initialize:
 * it keeps that CPU and its partners are placed relative to it.
 */
int
placement_worker(struct placement *p, unsigned worker)
{
	cpu_set_t now;
	unsigned k;
	int c, rc;

	if (sched_getaffinity(0, sizeof now, &now) != 0)
		return -errno;
	p->slot = worker < p->nslots ? (int)worker : -1;
	p->base = (p->mode == PLACEMENT_SAME ? worker : worker * p->group) %
	    p->ncpus;
	if (!CPU_EQUAL(&now, &p->allowed) && CPU_COUNT(&now) == 1) {
		for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &now); c++)
			;
		for (k = 0; k < p->ncpus; k++) {
			if (p->cpus[k] == c)
				p->base = k;
		}
	}
	if ((rc = placement_pin(placement_cpu(p, 0))) != 0)
		return rc;
	placement_note(p, 0);
	return 0;
}

/* The CPU of process proc of this worker's group. */
int
placement_cpu(const struct placement *p, unsigned proc)
{
	if (p->mode == PLACEMENT_SAME)
		return p->cpus[p->base];
	return p->cpus[(p->base + proc) % p->ncpus];
}

/* The partner's entry: note its CPU, then run its job. */
static int
placement_enter(void *arg)
{
	struct placement_call *call = arg;

	placement_note(call->p, call->proc);
	return call->fn(call->arg);
}

/*
 * Start a partner pinned: the worker moves to the partner's CPU, forks
 * (the child inherits the mask, so it never runs anywhere else) and moves
 * back.  A failure to pin is the worker's own error, with its errno.
 */
int
placement_start(struct placement *p, unsigned proc, struct partner *pt,
    int (*fn)(void *), void *arg)
{
	struct placement_call call = { p, proc, fn, arg };
	int rc, back;

	if ((rc = placement_pin(placement_cpu(p, proc))) != 0)
		return rc;
	rc = partner_start(pt, placement_enter, &call);
	back = placement_pin(placement_cpu(p, 0));
	return rc != 0 ? rc : back;
}

/* Append the record's parameters. */
void
placement_params(struct placement *p, bm_param *params, size_t *n)
{
	size_t len = 0, i, j;
	bm_param *m;
	int *row, w;

	p->text[0] = '\0';
	for (i = 0; i < p->nslots; i++) {
		row = p->seen + i * p->group;
		if (row[0] < 0)
			continue;
		for (j = 0; j < p->group; j++) {
			w = snprintf(p->text + len, sizeof p->text - len,
			    "%s%d",
			    j > 0 ? "," : len > 0 ? " " : "", row[j]);
			if (w < 0 || (size_t)w >= sizeof p->text - len - 4) {
				snprintf(p->text + len, sizeof p->text - len,
				    "...");
				goto done;
			}
			len += (size_t)w;
		}
	}
done:
	params[(*n)++] = tool_record_param("placement", placement_name(p->mode),
	    0);
	m = p->measured;
	p->nmeasured = 0;
	if (p->fallback) {
		m[p->nmeasured++] = tool_record_param("placement_asked",
		    placement_name(p->asked), 0);
	}
	m[p->nmeasured++] = tool_record_param("cpus", p->text, 0);
	if (p->nslots > 0 && p->seen[0] >= 0) {
		m[p->nmeasured++] = tool_record_param("worker_cpu", NULL,
		    p->seen[0]);
	}
	if (p->nslots > 0 && p->group > 1 && p->seen[1] >= 0) {
		m[p->nmeasured++] = tool_record_param("partner_cpu", NULL,
		    p->seen[1]);
	}
}

/* Point a record's measured values at those placement_params kept. */
void
placement_measured(const struct placement *p, bm_record *rec)
{
	rec->measured = p->measured;
	rec->nmeasured = p->nmeasured;
}

/*
 * The placement a line measured, for the end of it: lmbench's line says
 * nothing of it (its figure is wherever the scheduler put the partner),
 * and cross and same differ up to tenfold, so every line names its own
 * ("Pipe latency: 88.1 microseconds (cross)").  The word goes after the
 * unit, where lmbench's summary scripts do not look: they split the line
 * into fields and take the figure by its position.  Nothing when the
 * tool placed nothing (a remote host's server).
 */
const char *
placement_suffix(const struct placement *p)
{
	if (p->tool == NULL)
		return "";
	return p->mode == PLACEMENT_SAME ? " (same)" : " (cross)";
}

/* Report a latency in microseconds, its line labelled with its placement. */
void
placement_report_us(struct tool *t, const struct placement *p,
    const char *case_name, const bm_param *params, size_t nparams,
    const bm_result *r, const char *label)
{
	char prefix[256], line[64];
	bm_record rec;

	tool_record_us(&rec, t, case_name, params, nparams, r);
	placement_measured(p, &rec);
	snprintf(line, sizeof line, " microseconds%s", placement_suffix(p));
	snprintf(prefix, sizeof prefix, "%s: ", label);
	tool_report_value(t, &rec, prefix, 4, line);
}

/*
 * Run b once per placement (twice for both; once, placing nothing, when p
 * is NULL) and hand each result to report, then free it.
 */
void
placement_run(struct tool *t, struct placement *p, unsigned group,
    const bm_bench *b, placement_report_fn report, void *arg)
{
	bm_result r;
	unsigned run;

	for (run = 0; run < (p != NULL ? placement_runs(p) : 1); run++) {
		if (p != NULL)
			placement_begin(p, run, group);
		tool_run(t, b, &r);
		report(t, &r, arg);
		bm_result_free(&r);
	}
}

/* What placement_run_us hands its report: the placement and the names. */
struct placement_us {
	struct placement *p;
	const char *case_name;
	const char *label;
};

/* placement_run's report for placement_run_us: one latency line. */
static void
placement_report_run_us(struct tool *t, const bm_result *r, void *arg)
{
	struct placement_us *u = arg;
	bm_param params[PLACEMENT_NPARAMS];
	size_t np = 0;

	placement_params(u->p, params, &np);
	placement_report_us(t, u->p, u->case_name, params, np, r, u->label);
}

/*
 * Measure a two-process latency once per placement (twice for both) and
 * report each: placement_setup, then placement_run with
 * placement_report_us.
 */
void
placement_run_us(struct tool *t, struct placement *p, const bm_bench *b,
    const char *case_name, const char *label)
{
	struct placement_us u = { p, case_name, label };

	placement_setup(p, t, 2);
	placement_run(t, p, 2, b, placement_report_run_us, &u);
}
