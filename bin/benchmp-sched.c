/* benchmp-sched.c: a suite (or an A/B) as one experiment: tools kept as measurement servers, their figures visited in short slices across the whole budget. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchmp.h"
#include "cmd/ab.h"
#include "cmd/sched.h"


static struct sched *sched_self;

/*
 * stderr line-buffered in a static buffer: glibc formats a message to an
 * unbuffered stream through 8 KB of stack, and a tool's --served runs
 * here under whatever stack limit its user set (sched_progress flushes
 * its lines ended by \r).
 */
static void
sched_stderr_buffer(void)
{
	static char buf[BUFSIZ];

	(void)setvbuf(stderr, buf, _IOLBF, sizeof(buf));
}

/*
 * SIGCHLD at its default, whatever the caller left: ignored (inherited
 * through exec), the kernel reaps the children, and a tool's exit
 * status, a crash's signal, would be lost.  0, or -1 with errno.
 */
static int
sched_sigchld_default(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	(void)sigemptyset(&sa.sa_mask);
	return sigaction(SIGCHLD, &sa, NULL);
}

/* Print the usage line to f. */
static void
sched_usage_line(FILE *f)
{
	fprintf(f, "usage: %s [--budget S] [--visit MS] [--fresh-every N] "
	    "[--max-visits N]\n       [--memory MB] [--pool MB] [--precision P] "
	    "[--seed N]\n       [--timeout S] [--progress|--quiet] [--stats FILE] "
	    "[--outdir DIR]\n"
	    "       [--a PREFIX --b PREFIX [--threshold P] [--json] "
	    "[--allow-undecided]]\n       [PLAN | - | -- TOOL ARGS...]\n",
	    SCHED_NAME);
}

/* A usage error: one line, the usage, exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2)))
sched_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sched_vsay(fmt, ap);
	va_end(ap);
	sched_usage_line(stderr);
	exit(SCHED_EXIT_USAGE);
}

/* Parse a number option within [lo, hi], or exit 2 naming it. */
static double
sched_number(const char *name, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v >= lo && v <= hi))
		sched_usage_error("%s: '%.40s' is not a number from %g to %g",
		    name, s, lo, hi);
	return v;
}

/*
 * Parse a whole-number option within [lo, hi], or exit 2 naming it: a
 * fraction cut to its whole part would run another mode than asked
 * (--fresh-every 0.5 is 0, never fresh).
 */
static unsigned long
sched_whole(const char *name, const char *s, double lo, double hi)
{
	double v = sched_number(name, s, lo, hi);

	if (v != floor(v))
		sched_usage_error("%s: '%.40s' is not a whole number from %g "
		    "to %g", name, s, lo, hi);
	return (unsigned long)v;
}

/* The help text. */
static void __attribute__((noreturn))
sched_help(void)
{
	sched_usage_line(stdout);
	printf("\nRun the plan's tools as measurement servers and visit each "
	    "figure in short\nslices, in a random order renewed every sweep, "
	    "until the budget ends; then\nprint each tool's output in plan "
	    "order.  With --a and --b, run each tool in\nboth arms and pair "
	    "their visits in time: a verdict per figure.  After --, one "
	    "command is the\nplan.\n\n"
	    "  --budget S        the time to spread the visits over (default "
	    "90)\n"
	    "  --visit MS        the timed length of one visit (default 20)\n"
	    "  --fresh-every N   fresh workers every N visits (default 10, "
	    "16 in an A/B,\n                    four calls, 4 of one line; 0 never)\n"
	    "  --max-visits N    end a figure after N visits (default 400)\n"
	    "  --memory MB       the figures held set up hold at most MB, "
	    "the least\n                    recently visited let go first "
	    "(default: half of\n                    MemAvailable; 0 no "
	    "bound)\n"
	    "  --pool MB         set MB aside at the start, every page "
	    "allocated, for the\n                    tools' bandwidth "
	    "buffers (bw_mem's), out of the budget\n"
	    "  --precision P     end a figure once its interval is within "
	    "+-P%%\n"
	    "  --seed N          the order's seed (default: the time)\n"
	    "  --timeout S       no wait longer than S seconds (1 to 86400): "
	    "a tool's\n                    start (default 300), a visit (600 "
	    "the first, 30-120\n                    later), an end (60); a "
	    "line run once, S past the\n                    budget (default "
	    "600)\n"
	    "  --stats FILE      the run's times and visits as JSON\n"
	    "  --outdir DIR      each line's output, messages and exit status "
	    "in\n                    DIR/N.out, N.err, N.rc (N the line)\n"
	    "  --threshold P     A/B: the change that matters (0.1 to 50, "
	    "default 2%%)\n"
	    "  --json            A/B: one JSON object per figure\n"
	    "  --allow-undecided A/B: exit 0 when a figure is undecided\n");
	exit(0);
}

/* Parse the command line into s->o. */
static void
sched_options(struct sched *s, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "budget", required_argument, NULL, 'B' },
		{ "visit", required_argument, NULL, 'v' },
		{ "fresh-every", required_argument, NULL, 'f' },
		{ "max-visits", required_argument, NULL, 'm' },
		{ "memory", required_argument, NULL, 'M' },
		{ "pool", required_argument, NULL, 'L' },
		{ "precision", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", required_argument, NULL, 'S' },
		{ "outdir", required_argument, NULL, 'O' },
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "threshold", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "allow-undecided", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct sched_opts *o = &s->o;
	int c, memory_set = 0;

	o->budget = 90;
	o->visit_us = 20000;
	o->fresh_every = SCHED_FRESH_EVERY;
	o->max_visits = SCHED_MAX_VISITS;
	o->threshold = 0.02;
	o->seed = (unsigned long)time(NULL);
	o->progress = -1;
	while ((c = getopt_long(argc, argv, "hV", lo, NULL)) != -1) {
		switch (c) {
		case 'B':
			o->budget = sched_number("--budget", optarg,
			    SCHED_MIN_BUDGET_S, 86400);
			break;
		case 'v':
			o->visit_us = (uint64_t)(sched_number("--visit", optarg,
			    1, 10000) * 1000);
			break;
		case 'f':
			o->fresh_every = (unsigned)sched_whole("--fresh-every",
			    optarg, 0, 100000);
			o->fresh_given = 1;
			break;
		case 'm':
			o->max_visits = (unsigned)sched_whole("--max-visits",
			    optarg, SCHED_MIN_VISITS, 1000000);
			break;
		case 'M':
			o->memory_kb = sched_number("--memory", optarg, 0,
			    1e9) * 1024;
			memory_set = 1;
			break;
		case 'L':
			o->pool_mb = sched_number("--pool", optarg, 0,
			    SCHED_MAX_POOL_MB);
			break;
		case 'p':
			o->precision = sched_number("--precision", optarg,
			    0.01, 100) / 100;
			break;
		case 's':
			o->seed = sched_whole("--seed", optarg, 0, 4294967295.0);
			break;
		case 'T':
			o->timeout = sched_number("--timeout", optarg, 1,
			    86400);
			break;
		case 'P':
			o->progress = 1;
			break;
		case 'q':
			o->progress = 0;
			break;
		case 'S':
			o->stats = optarg;
			break;
		case 'O':
			/* Room for each line's files' names under it. */
			if (strlen(optarg) + sizeof(SCHED_OUTDIR_FILE) >
			    SCHED_PATH_MAX)
				sched_usage_error("--outdir: '%.40s...' is longer "
				    "than %zu characters", optarg,
				    SCHED_PATH_MAX - sizeof(SCHED_OUTDIR_FILE));
			o->outdir = optarg;
			break;
		case 'a':
			o->a = optarg;
			break;
		case 'b':
			o->b = optarg;
			break;
		case 't':
			o->threshold = sched_number("--threshold", optarg,
			    AB_THRESHOLD_MIN, AB_THRESHOLD_MAX) / 100;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'u':
			o->allow_undecided = 1;
			break;
		case 'h':
			sched_help();
		case 'V':
			printf("%s %s\n", SCHED_NAME, bm_version());
			exit(0);
		default:
			sched_usage_line(stderr);
			exit(SCHED_EXIT_USAGE);
		}
	}
	if ((o->a == NULL) != (o->b == NULL))
		sched_usage_error("--a and --b go together");
	if (optind > 1 && strcmp(argv[optind - 1], "--") == 0) {
		/* -- TOOL ARGS: a plan of that one command. */
		if (optind == argc)
			sched_usage_error("no command after --");
		o->command = argv + optind;
		o->ncommand = (size_t)(argc - optind);
	} else if (argc - optind > 1) {
		sched_usage_error("one plan at most");
	}
	o->plan = optind < argc ? argv[optind] : "-";
	if (o->progress < 0)
		o->progress = isatty(STDERR_FILENO);
	/* Half of what the machine has free now, unless told. */
	if (!memory_set)
		o->memory_kb = sched_mem_available_kb() / 2;
}

/* The signal handler: note the first signal and wake the loop. */
static void
sched_on_signal(int sig)
{
	int saved = errno;
	char b = 0;

	if (sched_self->caught == 0)
		sched_self->caught = sig;
	(void)write(sched_self->sigpipe[1], &b, 1);
	errno = saved;
}

/*
 * Catch the signals that end the run, so that no tool outlives it.  A
 * SIGHUP ignored at the start (nohup) stays ignored, by the tools too:
 * the run goes on after a logout, as nohup promises.
 */
static void
sched_signals(struct sched *s)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
	    SIGUSR2, SIGALRM };
	struct sigaction sa, old;
	size_t i;

	if (pipe2(s->sigpipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		sched_say("pipe: %s", strerror(errno));
		exit(SCHED_EXIT_FAIL);
	}
	sched_self = s;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sched_on_signal;
	(void)sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigs[i] != SIGHUP || sigaction(SIGHUP, NULL, &old) != 0 ||
		    old.sa_handler != SIG_IGN)
			(void)sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, NULL);
}

/* Build the processes of the plan: one a line, or two (A and B). */
static void
sched_build(struct sched *s)
{
	char **pre[2] = { NULL, NULL };
	size_t i, k, arms = s->o.a != NULL ? 2 : 1, npre[2] = { 0, 0 };
	const char *err = NULL;


	for (k = 0; k < arms && arms == 2; k++) {
		pre[k] = ab_split_words(k == 0 ? s->o.a : s->o.b, &err);
		if (pre[k] == NULL)
			sched_usage_error("--%c: %s", k == 0 ? 'a' : 'b', err);
		while (pre[k][npre[k]] != NULL)
			npre[k]++;
	}
	s->np = s->plan.n * arms;
	s->procs = calloc(s->np, sizeof(*s->procs));
	s->live = calloc(s->np, sizeof(*s->live));
	if (s->procs == NULL || s->live == NULL) {
		sched_say("out of memory");
		exit(SCHED_EXIT_FAIL);
	}
	for (i = 0; i < s->plan.n; i++) {
		const struct sched_line *l = &s->plan.line[i];

		for (k = 0; k < arms; k++) {
			struct sched_proc *p = &s->procs[i * arms + k];
			const char *tool = l->argv[0];

			/*
			 * A prefix ending in a directory takes the tool from
			 * it, by the name the plan gave (before it was found
			 * beside this program).
			 */
			if (l->path != NULL && ab_dir_prefix(pre[k], npre[k]))
				tool = strrchr(l->path, '/') + 1;
			p->argv = ab_prefix_argv(pre[k], tool, l->argv + 1,
			    l->argc - 1, NULL);
			if (p->argv == NULL) {
				sched_say("out of memory");
				exit(SCHED_EXIT_FAIL);
			}
			p->line = (unsigned)i + 1;
			p->arm = arms == 2 ? (char)('A' + k) : 0;
			p->once = l->once;
			p->burst = l->burst;
			p->restart = l->restart;
			p->visit_us = arms == 2 ? sched_ab_visit_us(l,
			    s->o.visit_us) : l->visit_us;
			p->figures = l->figures;
			p->parts = l->parts;
			p->counted = l->counted;
			p->cmd = p->resp = p->out = -1;
		}
	}
	/* The words stay referenced by the processes' argv: freed last. */
	s->prefix[0] = pre[0];
	s->prefix[1] = pre[1];
}

/*
 * An A/B pairs visits of two processes: what is fixed for one set of
 * workers (its pages, its layout) would otherwise count as many pairs.
 * Fresh workers every SCHED_AB_FRESH calls (SCHED_AB_ALT visits each),
 * every SCHED_AB_FRESH_ONE where one line has the budget, unless told.
 */
static void
sched_ab_fresh(struct sched *s)
{
	if (s->o.a != NULL && !s->o.fresh_given)
		s->o.fresh_every = (s->plan.n == 1 ? SCHED_AB_FRESH_ONE :
		    SCHED_AB_FRESH) * SCHED_AB_ALT;
}

/* Free all the scheduler holds, so that a leak checker sees none. */
static void
sched_free(struct sched *s)
{
	size_t i;

	for (i = 0; i < s->np; i++) {
		free(s->procs[i].argv);
		free(s->procs[i].text);
		free(s->procs[i].seg);
		free(s->procs[i].grp);
	}
	ab_table_free(&s->recs);
	free(s->procs);
	free(s->live);
	for (i = 0; i < s->nf; i++) {
		free(s->figs[i]->med);
		free(s->figs[i]);
	}
	free(s->figs);
	for (i = 0; i < s->npairs; i++) {
		free(s->pairs[i]->a);
		free(s->pairs[i]->b);
		free(s->pairs[i]->cl);
		free(s->pairs[i]->first);
		free(s->pairs[i]);
	}
	free(s->pairs);
	free(s->prefix[0]);
	free(s->prefix[1]);
	sched_plan_free(&s->plan);
	if (s->sigpipe[0] > 0) {
		(void)close(s->sigpipe[0]);
		(void)close(s->sigpipe[1]);
	}
	if (s->pool_fd > 0)
		(void)close(s->pool_fd);
}

/*
 * The exit status a process's caller sees: its own, 128 + a signal, 1
 * for a protocol failure or a status lost, or -1 when it never ran.
 */
static int
sched_status(const struct sched_proc *p)
{
	if (p->state == SCHED_P_NEW)
		return -1;
	if (p->state != SCHED_P_GONE || WIFSIGNALED(p->status))
		return p->state == SCHED_P_GONE ? 128 + WTERMSIG(p->status) :
		    137;
	if (!WIFEXITED(p->status))
		return 1;
	if (WEXITSTATUS(p->status) != 0)
		return WEXITSTATUS(p->status);
	return p->why[0] != '\0' ? 1 : 0;
}

/*
 * Close f, written: 0, or -1 with errno when a write failed, then or
 * before (a stream's error stays, but its buffer may be empty by then:
 * fclose alone says nothing of a write that failed earlier).
 */
static int
sched_close_written(FILE *f)
{
	int bad = ferror(f), err = errno;

	if (fclose(f) != 0)
		return -1;
	if (bad) {
		errno = err != 0 ? err : EIO;
		return -1;
	}
	return 0;
}

/*
 * Write each process's output and exit status to --outdir; 0, or -1
 * with the file that failed said.
 */
static int
sched_write_outdir(const struct sched *s)
{
	static char path[SCHED_PATH_MAX];
	size_t i;
	FILE *f;

	for (i = 0; i < s->np; i++) {
		const struct sched_proc *p = &s->procs[i];
		const char *ext[2] = { "out", "rc" };
		int k, bad;

		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/%u%s.%s", s->o.outdir,
			    p->line, p->arm == 'A' ? "-A" : p->arm == 'B' ?
			    "-B" : "", ext[k]);
			if ((f = fopen(path, "w")) == NULL)
				goto fail;
			errno = 0;
			bad = k == 0 && p->tlen > 0 &&
			    fwrite(p->text, 1, p->tlen, f) != p->tlen;
			if (k == 1)
				fprintf(f, "%d\n", sched_status(p));
			if (sched_close_written(f) != 0 || bad)
				goto fail;
		}
	}
	return 0;
fail:
	sched_say("%s: %s", path, strerror(errno != 0 ? errno : EIO));
	return -1;
}

/* Print what each process of the plan printed, in plan order. */
static int
sched_print_outputs(const struct sched *s)
{
	size_t i;

	for (i = 0; i < s->np; i++)
		if (s->procs[i].tlen > 0 &&
		    fwrite(s->procs[i].text, 1, s->procs[i].tlen, stdout) !=
		    s->procs[i].tlen)
			return -1;
	return 0;
}

/* Whether process p announced a figure. */
static int
sched_served_any(const struct sched *s, const struct sched_proc *p)
{
	size_t i;

	for (i = 0; i < s->nf; i++)
		if (s->figs[i]->p == p)
			return 1;
	return 0;
}

/*
 * Say which processes failed (exit status, signal, protocol, an A/B's
 * tool that served nothing) on stderr; return how many.  An A/B's tool
 * that ended without its figure (sched_arm_no_figure) is said, and
 * leaves its line undecided rather than the run failed.
 */
static unsigned
sched_failures(const struct sched *s)
{
	unsigned bad = 0;
	size_t i;

	for (i = 0; i < s->np; i++) {
		const struct sched_proc *p = &s->procs[i];
		char how[128] = "", arm[16] = "";

		if (p->state == SCHED_P_NEW)
			continue;
		if (sched_arm_no_figure(s, p)) {
			/* Its figures measured, its own end without one. */
			sched_say("line %u, arm %c: %s: exit status 1 after its "
			    "figures were measured: no figure, its line "
			    "undecided", p->line, p->arm, p->argv[0]);
			continue;
		}
		if (p->state != SCHED_P_GONE)
			snprintf(how, sizeof(how), "did not end");
		else if (WIFSIGNALED(p->status))
			snprintf(how, sizeof(how), "killed by signal %d",
			    WTERMSIG(p->status));
		else if (WIFEXITED(p->status) && WEXITSTATUS(p->status) != 0)
			snprintf(how, sizeof(how), "exit status %d",
			    WEXITSTATUS(p->status));
		else if (p->arm != 0 && !sched_served_any(s, p))
			/* An A/B of nothing must not pass as one of no change. */
			snprintf(how, sizeof(how), "served no figure: not a "
			    "benchmp tool? (benchmp-ab --rounds takes one)");
		if (how[0] == '\0' && p->why[0] == '\0')
			continue;
		bad++;
		if (p->arm != 0)
			snprintf(arm, sizeof(arm), ", arm %c", p->arm);
		sched_say("line %u%s: %s: %s%s%s", p->line, arm, p->argv[0],
		    how, how[0] && p->why[0] ? ": " : "", p->why);
	}
	return bad;
}

/* Write the run's times and each figure's visits as JSON to --stats. */
static int
sched_write_stats(const struct sched *s)
{
	FILE *f = fopen(s->o.stats, "w");
	size_t i;

	if (f == NULL)
		return -1;
	errno = 0;
	fprintf(f, "{\"wall_s\":%.3f,\"timed_s\":%.3f,\"visits\":%u,"
	    "\"budget_s\":%g,\"visit_us\":%llu,\"memory_mb\":%.0f,"
	    "\"releases\":%u,\"start_s\":%.3f,\"end_s\":%.3f,"
	    "\"once_s\":%.3f,\"pool_mb\":%.0f,\"pool_s\":%.3f,"
	    "\"least_visits\":%u,\"figures\":[", s->wall,
	    s->timed_ns / 1e9, s->visits, s->o.budget,
	    (unsigned long long)s->o.visit_us, s->o.memory_kb / 1024,
	    s->releases, s->start_s, s->end_s, s->once_s,
	    s->pool_fd >= 0 ? s->o.pool_mb : 0, s->pool_s, s->least);
	for (i = 0; i < s->nf; i++)
		fprintf(f, "%s{\"line\":%u,\"arm\":\"%c\",\"seq\":%u,"
		    "\"visits\":%u,\"sets\":%u,\"set_s\":%.4f,"
		    "\"timed_s\":%.4f,\"wall_s\":%.4f,\"precise\":%s,"
		    "\"longest_s\":%.4f}",
		    i ? "," : "", s->figs[i]->p->line,
		    s->figs[i]->p->arm ? s->figs[i]->p->arm : '-',
		    s->figs[i]->seq, s->figs[i]->visits, s->figs[i]->nset,
		    s->figs[i]->set_ns / 1e9, s->figs[i]->timed_ns / 1e9,
		    s->figs[i]->wall_ns / 1e9,
		    s->figs[i]->precise ? "true" : "false",
		    s->figs[i]->longest);
	fprintf(f, "]}\n");
	return sched_close_written(f);
}

/*
 * With --precision: how many served figures reached it, and which ended
 * at the budget (or --max-visits) before it, named by line and number.
 */
static void
sched_precision_report(const struct sched *s)
{
	size_t i, n = 0, reached = 0;

	for (i = 0; i < s->nf; i++) {
		if (s->figs[i]->p->burst > 0)
			continue;
		n++;
		reached += s->figs[i]->precise ? 1 : 0;
	}
	sched_say("%zu of %zu figures reached +-%g%%; the others ended at "
	    "the budget or --max-visits first", reached, n,
	    s->o.precision * 100);
	for (i = 0; i < s->nf; i++) {
		const char *tool = s->figs[i]->p->argv[0], *slash;

		if (s->figs[i]->p->burst > 0 || s->figs[i]->precise)
			continue;
		if ((slash = strrchr(tool, '/')) != NULL)
			tool = slash + 1;
		sched_say("  not reached: line %u #%u (%s), %u visits",
		    s->figs[i]->p->line, s->figs[i]->seq, tool,
		    s->figs[i]->visits);
	}
}

/* Order doubles for qsort. */
static int
sched_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The words of plan line l as one string (for the A/B table), squeezed. */
static void
sched_line_text(const struct sched_line *l, char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < l->argc && len + 1 < size; i++) {
		const char *w = l->argv[i], *slash = strrchr(w, '/');

		/* The program by its name, not the build's path to it. */
		if (i == 0 && slash != NULL)
			w = slash + 1;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    i ? " " : "", w);
	}
}

/* The median of a pair's B/A ratios (for too few pairs to bound it). */
static double
sched_median_ratio(const struct sched_pair *pr)
{
	double *v = malloc(pr->n * sizeof(*v)), m;
	size_t i;

	if (v == NULL)
		return NAN;
	for (i = 0; i < pr->n; i++)
		v[i] = pr->b[i] / pr->a[i];
	qsort(v, pr->n, sizeof(*v), sched_cmp);
	m = pr->n % 2 ? v[pr->n / 2] : (v[pr->n / 2 - 1] + v[pr->n / 2]) / 2;
	free(v);
	return m;
}

/*
 * Pair pr's ratio B/A and its interval in its figure's terms: its
 * times' where a higher figure is worse, their inverses where higher is
 * better (a bandwidth); the times' where no record named the figure.
 */
static void
sched_pair_terms(const struct sched *s, const struct sched_pair *pr,
    double *r, double *lo, double *hi)
{
	const struct ab_figure *f = pr->rec ? &s->recs.fig[pr->rec - 1] : NULL;
	double t;

	if (pr->st_rc == 0) {
		*r = exp(pr->st.shift);
		*lo = exp(pr->st.lo);
		*hi = exp(pr->st.hi);
	} else {
		/* Too few pairs for an interval: the median ratio alone. */
		*r = pr->n > 0 ? sched_median_ratio(pr) : NAN;
		*lo = *hi = NAN;
	}
	if (f != NULL && f->better == AB_HIGHER) {
		*r = 1 / *r;
		t = *lo;
		*lo = 1 / *hi;
		*hi = 1 / t;
	}
}

/*
 * Print pair pr as one JSON object on a line: named by its line, name,
 * and by its records, f (or NULL); r, lo and hi from sched_pair_terms.
 */
static void
sched_pair_json(const struct sched *s, const struct sched_pair *pr,
    const struct ab_figure *f, const char *name, const char *verdict,
    double r, double lo, double hi)
{
	int ok = pr->st_rc == 0;
	size_t k;

	printf("{\"figure\":\"");
	for (const char *c = name; *c; c++)
		printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	printf("\",\"seq\":%u,\"verdict\":\"%s\",\"pairs\":%zu,"
	    "\"clusters\":%u,\"threshold\":%g", pr->fa->seq, verdict, pr->n,
	    pr->ncl, pr->threshold);
	if (pr->fa->p->parts > 0)
		printf(",\"parts\":%u,\"part\":%s", pr->fa->p->parts,
		    sched_pair_part(pr) ? "true" : "false");
	if (pr->out_of_reach)
		printf(",\"out_of_reach\":true,\"reach_s\":%.3f", pr->reach_s);
	if (pr->nofig != 0)
		printf(",\"no_figure\":\"%c\"", pr->nofig);
	if (ok)
		printf(",\"ratio\":%.6g,\"lo\":%.6g,\"hi\":%.6g,"
		    "\"level\":%.4f", r, lo, hi, pr->st.level);
	else if (pr->n > 0)
		printf(",\"ratio\":%.6g,\"lo\":null,\"hi\":null,"
		    "\"level\":null", r);
	/* The members benchmp-ab's rounds print, where they mean the same. */
	printf(",\"ratio_of\":\"%s\"", f != NULL ? "figure" :
	    "time per operation");
	if (f != NULL) {
		putchar(',');
		ab_json_ident(stdout, f);
		ab_json_number(stdout, "a_median", ab_median(f->a, f->n));
		ab_json_number(stdout, "b_median", ab_median(f->b, f->n));
	}
	ab_json_number(stdout, "ci_lo", lo);
	ab_json_number(stdout, "ci_hi", hi);
	ab_json_number(stdout, "ci_level", ok ? pr->st.level : NAN);
	ab_json_number(stdout, "p", ok ? pr->st.p : NAN);
	ab_json_number(stdout, "more_s", sched_pair_more_s(s, pr));
	printf(",\"rounds\":%zu,\"settled_early\":%s,\"control\":%s,"
	    "\"mode\":\"served\",\"test\":\"trimmed t over generations\"",
	    pr->n, pr->settled ? "true" : "false",
	    strcmp(s->o.a, s->o.b) == 0 ? "true" : "false");
	/* Each cluster's arm started first (a generation's), "-" for none. */
	printf(",\"blocked\":%s,\"started_first\":\"", ok && pr->blocked ?
	    "true" : "false");
	for (k = 0; k < pr->ncl; k++)
		putchar(pr->first[k] == SCHED_FIRST_A ? 'A' :
		    pr->first[k] == SCHED_FIRST_B ? 'B' : '-');
	putchar('"');
	/* Each pair as it was judged: A's and B's visit medians, its cluster. */
	printf(",\"pair_values\":[");
	for (k = 0; k < pr->n; k++)
		printf("%s[%.9g,%.9g,%u]", k > 0 ? "," : "", pr->a[k], pr->b[k],
		    pr->cl[k]);
	printf("]}\n");
}

/* Print an A/B's verdicts (text or JSON lines); return the exit status. */
static int
sched_report_ab(const struct sched *s)
{
	static const char *const word[] = { "undecided", "same", "worse",
	    "better" };
	unsigned count[4] = { 0, 0, 0, 0 };
	char name[256];
	size_t i;

	if (!s->o.json)
		printf("%s: A: %s | B: %s | trimmed t over generations, "
		    "threshold %g%%, %.1f s, %u visits\n", SCHED_NAME, s->o.a,
		    s->o.b, s->o.threshold * 100, s->wall, s->visits);
	for (i = 0; i < s->npairs; i++) {
		const struct sched_pair *pr = s->pairs[i];
		const struct sched_line *l = &s->plan.line[pr->fa->p->line - 1];
		const struct ab_figure *f = pr->rec ?
		    &s->recs.fig[pr->rec - 1] : NULL;
		double r, lo, hi, more;

		sched_pair_terms(s, pr, &r, &lo, &hi);
		if (!sched_pair_part(pr))
			count[pr->verdict]++;
		sched_line_text(l, name, sizeof(name));
		if (s->o.json) {
			sched_pair_json(s, pr, f, name, word[pr->verdict], r,
			    lo, hi);
			continue;
		}
		if (sched_pair_part(pr)) {
			printf("%-40s #%u  B/A %.4f (a part of #%u)  %zu pairs",
			    name, pr->fa->seq, r, pr->fa->p->figures, pr->n);
		} else if (pr->st_rc == 0) {
			printf("%-40s #%u  B/A %.4f [%.4f, %.4f] %2.0f%%  %-9s "
			    "%zu pairs, %u clusters", name, pr->fa->seq, r, lo,
			    hi, pr->st.level * 100, word[pr->verdict], pr->n,
			    pr->ncl);
		} else if (pr->n > 0) {
			printf("%-40s #%u  B/A %.4f (no interval)  %-9s %zu "
			    "pairs, %u clusters", name, pr->fa->seq, r,
			    word[pr->verdict], pr->n, pr->ncl);
		} else {
			printf("%-40s #%u  %-9s %zu pairs", name, pr->fa->seq,
			    word[pr->verdict], pr->n);
		}
		if (f != NULL && f->n > 0)
			printf(" (A %.4g, B %.4g %s)", ab_median(f->a, f->n),
			    ab_median(f->b, f->n), f->unit);
		else if (f == NULL && pr->n > 0)
			printf(" (of the time per operation)");
		if (pr->nofig != 0)
			printf(" (arm %c's tool gave no figure)", pr->nofig);
		else if (pr->out_of_reach)
			printf(" (out of reach: %u clusters would take %.1f s "
			    "more)", SCHED_MIN_CLUSTERS, pr->reach_s);
		else if (isfinite(more = sched_pair_more_s(s, pr)))
			printf("  (about %.0f s more would decide it%s)",
			    ceil(more), pr->fa->visits >= s->o.max_visits ?
			    "; its visits reached the most a figure gets" :
			    "");
		putchar('\n');
	}
	if (!s->o.json)
		printf("%s: %u worse, %u better, %u same, %u undecided\n",
		    SCHED_NAME, count[AB_WORSE], count[AB_BETTER],
		    count[AB_SAME], count[AB_UNDECIDED]);
	if (count[AB_WORSE] > 0)
		return SCHED_EXIT_WORSE;
	if (count[AB_UNDECIDED] > 0 && !s->o.allow_undecided)
		return SCHED_EXIT_UNDECIDED;
	return SCHED_EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct sched s;
	char why[256];
	int sig, rc = SCHED_EXIT_OK;
	unsigned bad;
	size_t i, nfig;

	sched_stderr_buffer();
	if (sched_sigchld_default() != 0) {
		sched_say("sigaction: %s", strerror(errno));
		return SCHED_EXIT_FAIL;
	}
	memset(&s, 0, sizeof(s));
	sched_options(&s, argc, argv);
	if (s.o.command != NULL) {
		if (sched_plan_command(s.o.command, s.o.ncommand, &s.plan, why,
		    sizeof(why)) != 0)
			sched_usage_error("%s", why);
	} else if (sched_plan_read(s.o.plan, &s.plan, why, sizeof(why)) != 0) {
		sched_usage_error("plan %s: %s", s.o.plan, why);
	}
	for (i = 0; i < s.plan.n; i++) {
		if (s.o.a != NULL && s.plan.line[i].once)
			sched_usage_error("plan line %zu: once and burst= lines "
			    "run alone, they cannot be paired in an A/B", i + 1);
		if (s.o.a == NULL && s.plan.line[i].restart)
			sched_usage_error("plan line %zu: restart is for an "
			    "A/B", i + 1);
	}
	sched_ab_fresh(&s);
	sched_build(&s);
	sched_signals(&s);
	sched_mem_pool(&s);
	/*
	 * An A/B's arms subtract the same overheads: one calibration for
	 * both (enough --export), unless the caller exported it.
	 */
	if (s.o.a != NULL && ab_run_calibrate(&s.caught, why,
	    sizeof(why)) != 0 && !s.caught)
		sched_say("warning: no calibration (%s): each arm's tools "
		    "calibrate themselves", why);
	sched_pin_init(&s);
	sig = sched_run(&s);
	bad = sched_failures(&s);
	if (s.o.a != NULL) {
		sched_pair_finish(&s);
		if (sched_pair_records(&s) != 0) {
			sched_say("out of memory");
			rc = SCHED_EXIT_FAIL;
		}
	}
	nfig = s.o.a != NULL ? s.npairs : s.nf;
	sched_say("%zu figure%s%s, %u visits in %.1f s, %.0f%% of it "
	    "measuring", nfig, nfig == 1 ? "" : "s", s.o.a != NULL ?
	    " in each arm" : "", s.visits, s.wall, s.wall > 0 ?
	    100 * s.timed_ns / 1e9 / s.wall : 0);
	if (s.o.precision > 0 && s.o.a == NULL)
		sched_precision_report(&s);
	if (s.o.stats != NULL && sched_write_stats(&s) != 0) {
		sched_say("%s: %s", s.o.stats, strerror(errno));
		rc = SCHED_EXIT_FAIL;
	}
	if (s.o.a != NULL) {
		int v = sched_report_ab(&s);

		if (rc == SCHED_EXIT_OK)
			rc = v;
	} else if (s.o.outdir != NULL) {
		if (sched_write_outdir(&s) != 0)
			rc = SCHED_EXIT_FAIL;
	} else if (sched_print_outputs(&s) != 0) {
		sched_say("cannot write the results: %s", strerror(errno));
		rc = SCHED_EXIT_FAIL;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = SCHED_EXIT_FAIL;
	if (bad > 0 && rc != SCHED_EXIT_WORSE)
		rc = SCHED_EXIT_FAIL;
	sched_free(&s);
	if (sig != 0) {
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return rc;
}
