/* benchmp-ab.c: interleaved, paired comparison of two arms running the same tools. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchmp.h"
#include "internal.h"
#include "cmd/ab.h"
#include "cmd/sched.h"

#define AB_NAME			"benchmp-ab"
/*
 * The exit status a gate reads (benchmp-compare's too): a worse figure
 * 1, a usage error 2, an undecided figure and none worse 3, a failure
 * of an arm or of benchmp-ab 4, a signal 128 + its number.
 */
#define AB_EXIT_WORSE		1
#define AB_EXIT_USAGE		2
#define AB_EXIT_UNDECIDED	3
#define AB_EXIT_FAIL		4
/* The longest message benchmp-ab prints, before its escapes. */
#define AB_MSG_MAX		2048
/*
 * Each run is one process after a 5 ms warmup unless the environment or
 * the tool's arguments say otherwise: a pair then takes a third of the
 * time of the tools' defaults (5 processes, 50 ms), so three times the
 * rounds fit a budget, and its ratios spread no wider.  On lat_syscall
 * null, 60 A/A rounds each way: 68 ms a round, robust spread of the log
 * ratios 3.9%, against 228 ms and 5.9% with the defaults ("Decisions:
 * benchmp-ab" in doc/measurements.md).
 */
#define AB_RUN_PROCESSES	"1"
#define AB_RUN_WARMUP_US	"5000"
/* No figure settles before this many rounds. */
#define AB_MIN_ROUNDS		6

/* What the command line asks for. */
struct ab_opts {
	char **a;		/* arm A's prefix words, NULL-terminated */
	char **b;
	const char *a_text;	/* as typed, for messages */
	const char *b_text;
	double threshold;	/* a fraction: 0.02 for 2% */
	enum bm__paired_test test;	/* of the paired log ratios */
	double budget;		/* seconds, 0 for the default */
	unsigned max_rounds;
	unsigned min_rounds;
	double timeout;		/* seconds an arm's run may take */
	int json;
	int allow_undecided;	/* an undecided figure exits 0, not 3 */
	int control;
	int random;		/* a random order instead of Thue-Morse's */
	unsigned long seed;
	int calibrate;
	int tool_defaults;	/* runs as the tools' defaults, not short */
	const char *records_path;	/* --records: every run's records */
	FILE *records;
	struct ab_plan plan;
	int served;		/* benchmp-sched's visits, not rounds of runs */
	size_t nserved;		/* the lines of a plan for benchmp-sched */
	struct sched_plan splan;	/* that plan's, until its arms are checked */
	const char *plan_path;	/* --plan */
	char **tool;		/* TOOL ARGS... on the command line, or NULL */
};

/* The terminating signal caught (SIGINT, SIGTERM, SIGHUP), or 0. */
static volatile sig_atomic_t ab_stop;

/*
 * Print "benchmp-ab: message" to stderr, its control bytes escaped (\r,
 * \t, \xHH): a plan's CR or an arm's output must not reach a terminal
 * raw.
 */
static void __attribute__((format(printf, 1, 0)))
ab_vsay(const char *fmt, va_list ap)
{
	char msg[AB_MSG_MAX];
	const char *p;

	vsnprintf(msg, sizeof msg, fmt, ap);
	fprintf(stderr, "%s: ", AB_NAME);
	for (p = msg; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\r')
			fputs("\\r", stderr);
		else if (c == '\t')
			fputs("\\t", stderr);
		else if (c < 0x20 || c == 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fputc('\n', stderr);
}

/* Print a message to stderr and exit with status code. */
static void __attribute__((noreturn, format(printf, 2, 3)))
ab_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ab_vsay(fmt, ap);
	va_end(ap);
	exit(code);
}

/* Print a message to stderr. */
static void __attribute__((format(printf, 1, 2)))
ab_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ab_vsay(fmt, ap);
	va_end(ap);
}

/* Print the usage line to f. */
static void
ab_usage_line(FILE *f)
{
	fprintf(f, "usage: %s [options] --a PREFIX --b PREFIX [--] TOOL "
	    "[ARGS...]\n       %s [options] --a PREFIX --b PREFIX --plan FILE\n",
	    AB_NAME, AB_NAME);
}

/* Print the full help to stdout and exit 0. */
static void __attribute__((noreturn))
ab_help(void)
{
	ab_usage_line(stdout);
	printf("\n"
	    "Runs PREFIX TOOL ARGS --json for arm A and for arm B in rounds, in "
	    "Thue-Morse\norder (AB BA BA AB ...), pairs each round's A and B "
	    "and decides, per figure,\nfrom the paired ratios B/A: worse, "
	    "better, same (the interval inside\n+-threshold) or undecided "
	    "(the budget ran out first).\n\n"
	    "  --a PREFIX       arm A's command prefix, split into words "
	    "like env(1)'s\n"
	    "                   arguments; a last word ending in / is a "
	    "directory the\n"
	    "                   tool is taken from; '' runs the tool as it is\n"
	    "  --b PREFIX       arm B's\n"
	    "  --control        run A against A (no --b): the noise floor\n"
	    "  --plan FILE      one TOOL ARGS per line, all in each round "
	    "('#' comments)\n"
	    "  --threshold P    the change that matters, percent (0.1 to 50, "
	    "default 2)\n"
	    "  --test TEST      sign (the default) or signed-rank: the test "
	    "of the paired\n"
	    "                   ratios and its interval\n"
	    "  --budget S       wall-time budget in seconds (1 to 86400; "
	    "default 10 a\n"
	    "                   command)\n"
	    "  --max-rounds N   at most N rounds (6 to %d, default 200)\n"
	    "  --min-rounds N   no verdict before N rounds (6 to max, default "
	    "6)\n"
	    "  --timeout S      an arm's run may take S seconds (1 to 3600, "
	    "default 120)\n"
	    "  --random[=SEED]  a random order of A and B in each round\n"
	    "  --tool-defaults  run the tools with their own processes and "
	    "warmup, not\n"
	    "                   one process after 5 ms (BENCHMP_PROCESSES=1, "
	    "BENCHMP_WARMUP=5000)\n"
	    "  --no-calibrate   leave ENOUGH, TIMING_O and LOOP_O to each "
	    "run\n"
	    "  --records FILE   append every run's records to FILE, each "
	    "with its arm\n"
	    "                   and round (ab_arm, ab_round)\n"
	    "  --served         the default: keep each arm's tools as "
	    "measurement servers\n"
	    "                   and pair their visits (benchmp-sched's A/B), "
	    "the way to\n"
	    "                   judge changes of about 1%%; the tools must be "
	    "benchmp's\n"
	    "  --rounds         rounds of fresh runs of each arm instead, for "
	    "any program\n"
	    "                   that prints records; --test, --max-rounds, "
	    "--min-rounds,\n"
	    "                   --timeout, --tool-defaults, --no-calibrate "
	    "and --records\n"
	    "                   are the rounds' options and select them\n"
	    "  --json           one JSON object per figure\n"
	    "  --allow-undecided  exit 0, not 3, when a figure is undecided\n"
	    "  --strict         accepted for compatibility: undecided exits 3 "
	    "already\n"
	    "  -h, --help       print this help\n"
	    "  -V, --version    print the version\n\n"
	    "A plan line may start with threshold=P (percent): its figures' "
	    "own threshold.\n\n"
	    "Exit status: 0 no figure worse or undecided, 1 a figure worse, "
	    "2 usage error,\n3 a figure undecided and none worse, 4 a "
	    "failure (an arm's, named), 128 + N\nafter signal N (the "
	    "verdicts so far printed, marked interrupted).\n",
	    BM__PAIRED_MAX);
	exit(0);
}

/* Report a usage error and exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2)))
ab_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ab_vsay(fmt, ap);
	va_end(ap);
	ab_usage_line(stderr);
	exit(AB_EXIT_USAGE);
}

/* Parse a number in [lo, hi] for option name, or exit 2. */
static double
ab_number(const char *name, const char *s, double lo, double hi)
{
	double v;

	if (bm_parse_double(s, lo, hi, &v) != 0)
		ab_usage_error("%s: '%s' is not a number from %g to %g", name,
		    s, lo, hi);
	return v;
}

/* Seconds on the monotonic clock. */
static double
ab_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Note a terminating signal: the rounds stop, the children are killed. */
static void
ab_on_signal(int sig)
{
	if (ab_stop == 0)
		ab_stop = sig;
}

/* Thue-Morse's sequence: 0 when round r runs A first, 1 when B first. */
static int
ab_thue_morse(unsigned r)
{
	return __builtin_popcount(r) & 1;
}

/*
 * --served: run the comparison as benchmp-sched's A/B (beside this
 * program, else on PATH): both arms' tools kept as measurement servers,
 * A's and B's visits of each figure in turns (A B B A A B B A).
 * Never returns.
 */
static void __attribute__((noreturn))
ab_served_exec(const struct ab_opts *o)
{
	/* Static: the exec's path, off a stack its user may bound. */
	static char sched[4096];
	char budget[32], threshold[32], seed[32];
	char *argv[24 + 1];
	size_t n = 0, k, ntool = 0;
	char **all;

	if (ab_beside_self("benchmp-sched", sched, sizeof sched) != 0)
		snprintf(sched, sizeof sched, "benchmp-sched");
	snprintf(budget, sizeof budget, "%g", o->budget);
	snprintf(threshold, sizeof threshold, "%g", o->threshold * 100);
	snprintf(seed, sizeof seed, "%lu", o->seed);
	argv[n++] = sched;
	argv[n++] = "--a";
	argv[n++] = (char *)o->a_text;
	argv[n++] = "--b";
	argv[n++] = (char *)o->b_text;
	argv[n++] = "--budget";
	argv[n++] = budget;
	argv[n++] = "--threshold";
	argv[n++] = threshold;
	if (o->random) {
		argv[n++] = "--seed";
		argv[n++] = seed;
	}
	if (o->json)
		argv[n++] = "--json";
	if (o->allow_undecided)
		argv[n++] = "--allow-undecided";
	if (o->plan_path != NULL) {
		argv[n++] = (char *)o->plan_path;
		argv[n] = NULL;
		all = argv;
	} else {
		while (o->tool[ntool] != NULL)
			ntool++;
		argv[n++] = "--";
		if ((all = calloc(n + ntool + 1, sizeof *all)) == NULL)
			ab_die(AB_EXIT_FAIL, "out of memory");
		memcpy(all, argv, n * sizeof *all);
		for (k = 0; k < ntool; k++)
			all[n + k] = o->tool[k];
	}
	(void)fflush(NULL);
	execvp(all[0], all);
	ab_die(AB_EXIT_FAIL, "cannot run %s: %s", all[0], strerror(errno));
}

/* Parse the command line into o; exit 2 on a usage error. */
static void
ab_options(int argc, char **argv, struct ab_opts *o)
{
	enum { OPT_A = 256, OPT_B, OPT_PLAN, OPT_THRESHOLD, OPT_BUDGET,
	    OPT_MAX, OPT_MIN, OPT_TIMEOUT, OPT_RANDOM, OPT_NOCAL,
	    OPT_JSON, OPT_STRICT, OPT_CONTROL, OPT_RECORDS, OPT_TEST,
	    OPT_TOOLDEF, OPT_ALLOW, OPT_SERVED, OPT_ROUNDS };
	static const struct option longopts[] = {
		{ "a", required_argument, NULL, OPT_A },
		{ "b", required_argument, NULL, OPT_B },
		{ "plan", required_argument, NULL, OPT_PLAN },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "max-rounds", required_argument, NULL, OPT_MAX },
		{ "min-rounds", required_argument, NULL, OPT_MIN },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "random", optional_argument, NULL, OPT_RANDOM },
		{ "no-calibrate", no_argument, NULL, OPT_NOCAL },
		{ "tool-defaults", no_argument, NULL, OPT_TOOLDEF },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "allow-undecided", no_argument, NULL, OPT_ALLOW },
		{ "control", no_argument, NULL, OPT_CONTROL },
		{ "records", required_argument, NULL, OPT_RECORDS },
		{ "served", no_argument, NULL, OPT_SERVED },
		{ "rounds", no_argument, NULL, OPT_ROUNDS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *plan = NULL, *err, *rounds_opt = NULL;
	int c, li, min_set = 0, served = -1;

	memset(o, 0, sizeof *o);
	o->threshold = 0.02;
	o->test = BM__PAIRED_SIGN;
	o->max_rounds = 200;
	o->min_rounds = AB_MIN_ROUNDS;
	o->timeout = 120;
	o->calibrate = 1;
	/* '+': the options end at TOOL, whose own options follow it. */
	opterr = 0;	/* ab_usage_error says it, its control bytes escaped */
	while ((c = getopt_long(argc, argv, "+hV", longopts, &li)) != -1) {
		/* The options of the rounds: they select them. */
		if (rounds_opt == NULL && (c == OPT_TEST || c == OPT_MAX ||
		    c == OPT_MIN || c == OPT_TIMEOUT || c == OPT_NOCAL ||
		    c == OPT_TOOLDEF || c == OPT_RECORDS))
			rounds_opt = longopts[li].name;
		switch (c) {
		case OPT_A:
			o->a_text = optarg;
			break;
		case OPT_B:
			o->b_text = optarg;
			break;
		case OPT_PLAN:
			plan = optarg;
			break;
		case OPT_THRESHOLD:
			o->threshold = ab_number("--threshold", optarg,
			    AB_THRESHOLD_MIN, AB_THRESHOLD_MAX) / 100;
			break;
		case OPT_TEST:
			if (strcmp(optarg, "sign") == 0)
				o->test = BM__PAIRED_SIGN;
			else if (strcmp(optarg, "signed-rank") == 0)
				o->test = BM__PAIRED_SIGNED_RANK;
			else
				ab_usage_error("--test: '%s' is not sign or "
				    "signed-rank", optarg);
			break;
		case OPT_BUDGET:
			o->budget = ab_number("--budget", optarg, 1, 86400);
			break;
		case OPT_MAX:
			o->max_rounds = (unsigned)ab_number("--max-rounds",
			    optarg, AB_MIN_ROUNDS, BM__PAIRED_MAX);
			if (o->max_rounds != ab_number("--max-rounds", optarg,
			    AB_MIN_ROUNDS, BM__PAIRED_MAX))
				ab_usage_error("--max-rounds: '%s' is not a "
				    "whole number", optarg);
			break;
		case OPT_MIN:
			o->min_rounds = (unsigned)ab_number("--min-rounds",
			    optarg, AB_MIN_ROUNDS, BM__PAIRED_MAX);
			if (o->min_rounds != ab_number("--min-rounds", optarg,
			    AB_MIN_ROUNDS, BM__PAIRED_MAX))
				ab_usage_error("--min-rounds: '%s' is not a "
				    "whole number", optarg);
			min_set = 1;
			break;
		case OPT_TIMEOUT:
			o->timeout = ab_number("--timeout", optarg, 1, 3600);
			break;
		case OPT_RANDOM:
			o->random = 1;
			o->seed = optarg == NULL ? (unsigned long)time(NULL) ^
			    (unsigned long)getpid() :
			    (unsigned long)ab_number("--random", optarg, 0,
			    4294967295.0);
			break;
		case OPT_NOCAL:
			o->calibrate = 0;
			break;
		case OPT_TOOLDEF:
			o->tool_defaults = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_STRICT:
			/* Undecided exits 3 by default now: kept for scripts. */
			break;
		case OPT_ALLOW:
			o->allow_undecided = 1;
			break;
		case OPT_CONTROL:
			o->control = 1;
			break;
		case OPT_RECORDS:
			o->records_path = optarg;
			break;
		case OPT_SERVED:
		case OPT_ROUNDS:
			if (served == (c == OPT_ROUNDS))
				ab_usage_error("--served and --rounds: give "
				    "one");
			served = c == OPT_SERVED;
			break;
		case 'h':
			ab_help();
		case 'V':
			printf("%s (benchmp) %s\n", AB_NAME, bm_version());
			exit(0);
		default:
			if (optopt != 0 && optopt != '?' && optopt < 256)
				ab_usage_error("unknown option '-%c'", optopt);
			if (optopt == 0)
				ab_usage_error("unknown option '%s'",
				    argv[optind - 1]);
			ab_usage_error("%s %s", argv[optind - 1],
			    strchr(argv[optind - 1], '=') != NULL ?
			    "takes no value" : "needs a value");
		}
	}
	if (o->a_text == NULL)
		ab_usage_error("--a PREFIX is required (use '' for none)");
	if (o->control) {
		if (o->b_text != NULL)
			ab_usage_error("--control runs A against A: no --b");
		o->b_text = o->a_text;
	} else if (o->b_text == NULL) {
		ab_usage_error("--b PREFIX is required (or --control)");
	}
	if (o->min_rounds > o->max_rounds) {
		if (min_set)
			ab_usage_error("--min-rounds %u is over --max-rounds "
			    "%u", o->min_rounds, o->max_rounds);
		o->min_rounds = o->max_rounds;
	}
	if ((o->a = ab_split_words(o->a_text, &err)) == NULL)
		ab_usage_error("--a: %s", err);
	if ((o->b = ab_split_words(o->b_text, &err)) == NULL)
		ab_usage_error("--b: %s", err);
	if (plan != NULL && optind < argc)
		ab_usage_error("--plan and a TOOL on the command line: give "
		    "one");
	o->plan_path = plan;
	o->tool = optind < argc ? argv + optind : NULL;
	if (served == 1 && rounds_opt != NULL)
		ab_usage_error("--%s is an option of the rounds: not with "
		    "--served", rounds_opt);
	o->served = served == 1 || (served == -1 && rounds_opt == NULL);
	if (o->served && plan != NULL) {
		/*
		 * benchmp-sched's plan (its words may precede a line's tool),
		 * checked and counted here; one on standard input is left to
		 * benchmp-sched to read, and counts as one line.
		 */
		char why[256];

		o->nserved = 1;
		if (strcmp(plan, "-") != 0) {
			if (sched_plan_read(plan, &o->splan, why,
			    sizeof why) != 0)
				ab_die(AB_EXIT_USAGE, "%s: %s", plan, why);
			o->nserved = o->splan.n;
		}
	} else if (plan != NULL) {
		if (ab_plan_read(&o->plan, plan, &err) != 0)
			ab_die(AB_EXIT_USAGE, "%s: %s", plan, err);
	} else if (optind < argc) {
		if (ab_plan_add(&o->plan, argv + optind,
		    (size_t)(argc - optind)) != 0)
			ab_die(AB_EXIT_FAIL, "out of memory");
	} else {
		ab_usage_error("no TOOL to run");
	}
	if (o->budget == 0)
		o->budget = 10.0 * (double)(o->plan.n + o->nserved);
	if (o->budget > 86400)
		o->budget = 86400;
}

/* Check that each arm's program for tool exists; exit 2 if not. */
static void
ab_check_tool(const struct ab_opts *o, const char *tool)
{
	char *what;

	if ((what = ab_arm_missing(o->a, tool)) != NULL)
		ab_die(AB_EXIT_USAGE, "arm A (%s): cannot find '%s'",
		    o->a_text[0] ? o->a_text : "''", what);
	if ((what = ab_arm_missing(o->b, tool)) != NULL)
		ab_die(AB_EXIT_USAGE, "arm B (%s): cannot find '%s'",
		    o->b_text[0] ? o->b_text : "''", what);
}

/*
 * Check that each arm's program exists for each command, of the rounds'
 * plan or of benchmp-sched's (a tool found beside this program by the
 * name the plan gave, which a directory prefix takes it by); exit 2 if
 * not, before anything runs.
 */
static void
ab_check_arms(struct ab_opts *o)
{
	size_t i;

	for (i = 0; i < o->plan.n; i++)
		ab_check_tool(o, o->plan.cmd[i].argv[0]);
	for (i = 0; i < o->splan.n; i++) {
		const struct sched_line *l = &o->splan.line[i];

		ab_check_tool(o, l->path != NULL ? strrchr(l->path, '/') + 1 :
		    l->argv[0]);
	}
	sched_plan_free(&o->splan);
}

/*
 * Open the --records file, once the arguments are checked: a usage error
 * leaves no file behind.  Close-on-exec: the arms must not hold it (nor
 * write to it).
 */
static void
ab_records_open(struct ab_opts *o)
{
	if (o->records_path != NULL &&
	    (o->records = fopen(o->records_path, "ae")) == NULL)
		ab_die(AB_EXIT_FAIL, "%s: %s", o->records_path,
		    strerror(errno));
}

/*
 * Run command c of the plan once in each arm, one after the other in the
 * order first (0 for A first), and add the pair of each of its figures
 * to the table.  0, or 1 when a signal stopped it (the arms killed, the
 * round's half pair left out); exit 4 with the arm named when an arm
 * fails.
 *
 * (Both arms at once, one on each CPU and swapping every round, was
 * measured against this on a 2-vCPU AMD EPYC KVM guest: its A/A noise
 * floor was twice as wide, the host's slow phases being each vCPU's
 * own; doc/measurements.md, "Decisions: benchmp-ab".)
 */
static int
ab_round_command(const struct ab_opts *o, struct ab_table *t, size_t c,
    unsigned round, int first)
{
	const struct ab_cmd *cmd = &o->plan.cmd[c];
	struct ab_run run[2];
	char **argv[2];
	const char *text[2] = { o->a_text, o->b_text };
	int arm, k, rc;
	char why[512];

	for (k = 0; k < 2; k++) {
		memset(&run[k], 0, sizeof run[k]);
		run[k].out_fd = run[k].err_fd = -1;
	}
	argv[0] = ab_arm_argv(o->a, cmd);
	argv[1] = ab_arm_argv(o->b, cmd);
	if (argv[0] == NULL || argv[1] == NULL)
		ab_die(AB_EXIT_FAIL, "out of memory");
	for (k = 0; k < 2 && !ab_stop; k++) {
		arm = k ^ first;
		if (ab_run_start(&run[arm], argv[arm]) != 0)
			ab_die(AB_EXIT_FAIL, "arm %c: %s", 'A' + arm,
			    run[arm].why);
		ab_run_wait(&run[arm], 1, o->timeout, &ab_stop);
	}
	rc = ab_stop ? 1 : 0;
	for (arm = 0; arm < 2 && rc == 0; arm++)
		if (ab_run_failed(&run[arm], why, sizeof why))
			ab_die(AB_EXIT_FAIL, "arm %c (%s) failed running %s: %s",
			    'A' + arm, text[arm][0] ? text[arm] : "''",
			    cmd->text, why);
	if (rc == 0) {
		k = ab_table_add(t, c, cmd->threshold > 0 ? cmd->threshold :
		    o->threshold, run[0].out, run[1].out, why, sizeof why,
		    &ab_stop);
		if (k == -1)
			ab_die(AB_EXIT_FAIL, "%s: %s", cmd->text, why);
		rc = k != 0;
	}
	/* Once read as records (and paired), in the order the arms ran. */
	for (k = 0; k < 2 && o->records != NULL && rc == 0; k++) {
		arm = k ^ first;
		if (ab_record_save(o->records, run[arm].out, 'A' + arm,
		    round) != 0)
			ab_die(AB_EXIT_FAIL, "%s: %s", o->records_path,
			    strerror(errno));
	}
	ab_run_free(&run[0]);
	ab_run_free(&run[1]);
	free(argv[0]);
	free(argv[1]);
	return rc;
}

/*
 * Run the rounds: each round runs every command with a figure not
 * settled, in both arms, until all are settled, the rounds reach
 * max_rounds, the next command's pair would pass the budget or a signal
 * comes (the round under way then left out).  spent[c] sums command c's
 * pairs' seconds.  The rounds run.
 */
static unsigned
ab_rounds(const struct ab_opts *o, struct ab_table *t, double t0,
    double *spent)
{
	double *last = calloc(o->plan.n, sizeof *last);
	unsigned r, ran = 0;
	size_t c;

	if (last == NULL)
		ab_die(AB_EXIT_FAIL, "out of memory");
	srand((unsigned)o->seed);
	for (r = 0; r < o->max_rounds && !ab_stop; r++) {
		int any = 0, first;

		first = o->random ? rand() & 1 : ab_thue_morse(r);
		for (c = 0; c < o->plan.n && !ab_stop; c++) {
			double s = ab_now();

			if (r > 0 && ab_table_settled(t, c))
				continue;
			if (r > 0 && s - t0 + last[c] > o->budget)
				continue;
			if (ab_round_command(o, t, c, r, first) != 0)
				break;
			last[c] = ab_now() - s;
			spent[c] += last[c];
			any = 1;
		}
		if (!any || ab_stop)
			break;
		ran = r + 1;
		ab_decide_look(t, o->min_rounds, o->test, &ab_stop);
	}
	free(last);
	return ran;
}

/* The name of a signal benchmp-ab stops on ("" for none). */
static const char *
ab_signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "";
	}
}

/*
 * Print the figures, as text or JSON, and return the exit status: 1 a
 * figure worse, 3 one undecided (unless allowed), 0 otherwise; after a
 * signal, marked interrupted, 128 + the signal.
 */
static int
ab_report(const struct ab_opts *o, const struct ab_table *t, unsigned rounds,
    double wall)
{
	unsigned count[5] = { 0, 0, 0, 0, 0 };
	int sig = ab_stop;
	size_t i;

	if (!o->json)
		printf("%s: A: %s | B: %s | %s, %s test, threshold %g%%, "
		    "%u rounds, %.1f s%s%s\n", AB_NAME,
		    o->a_text[0] ? o->a_text : "''",
		    o->b_text[0] ? o->b_text : "''",
		    o->random ? "random order" : "Thue-Morse order",
		    o->test == BM__PAIRED_SIGN ? "sign" : "signed-rank",
		    o->threshold * 100, rounds, wall,
		    sig ? ", interrupted by " : "", ab_signal_name(sig));
	for (i = 0; i < t->n; i++) {
		const struct ab_figure *f = &t->fig[i];

		count[f->verdict]++;
		if (o->json)
			ab_print_json(stdout, f, o->control, "interleaved",
			    o->test == BM__PAIRED_SIGN ? "sign" :
			    "signed-rank", sig != 0);
		else
			ab_print_line(stdout, f, o->control);
	}
	if (!o->json) {
		printf("%s: %u worse, %u better, %u same, %u undecided",
		    AB_NAME, count[AB_WORSE], count[AB_BETTER],
		    count[AB_SAME], count[AB_UNDECIDED]);
		if (count[AB_CHANGED] > 0)
			printf(", %u changed (no better direction)",
			    count[AB_CHANGED]);
		printf("%s\n", sig ? " (interrupted)" : "");
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		ab_die(AB_EXIT_FAIL, "cannot write the results: %s",
		    strerror(errno));
	if (sig)
		return 128 + sig;
	if (count[AB_WORSE] > 0)
		return AB_EXIT_WORSE;
	if (!o->allow_undecided && count[AB_UNDECIDED] > 0)
		return AB_EXIT_UNDECIDED;
	return 0;
}

/*
 * Catch the signals that end a comparison early but keep its verdicts
 * (SIGINT, SIGTERM, SIGHUP unless ignored at the start), ignore SIGPIPE,
 * put SIGCHLD back to its default (the arms' exit statuses are read
 * here), and start the guard and the handlers that take the arm along on
 * every other fatal signal.
 */
static void
ab_signals(void)
{
	if (ab_run_signals(ab_on_signal) != 0)
		ab_die(AB_EXIT_FAIL, "cannot catch the signals or start the "
		    "guard of the arms: %s", strerror(errno));
}

int
main(int argc, char **argv)
{
	struct ab_opts o;
	struct ab_table t;
	unsigned rounds;
	double t0, *spent;
	int rc;
	char why[512];

	ab_options(argc, argv, &o);
	ab_check_arms(&o);
	if (o.served)
		ab_served_exec(&o);
	ab_records_open(&o);
	ab_signals();
	t0 = ab_now();
	if (o.calibrate && ab_run_calibrate(&ab_stop, why, sizeof why) != 0 &&
	    !ab_stop)
		ab_say("warning: no calibration (%s): each run calibrates "
		    "itself", why);
	/* Short runs, where nothing set the tools' own already. */
	if (!o.tool_defaults && (setenv("BENCHMP_PROCESSES", AB_RUN_PROCESSES,
	    0) != 0 || setenv("BENCHMP_WARMUP", AB_RUN_WARMUP_US, 0) != 0))
		ab_die(AB_EXIT_FAIL, "setenv: %s", strerror(errno));
	if ((spent = calloc(o.plan.n, sizeof *spent)) == NULL)
		ab_die(AB_EXIT_FAIL, "out of memory");
	ab_table_init(&t);
	rounds = ab_rounds(&o, &t, t0, spent);
	if (ab_decide_finish(&t, o.min_rounds, o.test, spent) != 0)
		ab_die(AB_EXIT_FAIL, "out of memory");
	rc = ab_report(&o, &t, rounds, ab_now() - t0);
	if (o.records != NULL && fclose(o.records) != 0)
		ab_die(AB_EXIT_FAIL, "%s: %s", o.records_path, strerror(errno));
	ab_table_free(&t);
	ab_plan_free(&o.plan);
	free(spent);
	free(o.a);
	free(o.b);
	return rc;
}
