/* check.c: benchmp check: options, the files read, the checks in order and their report. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "benchmp.h"
#include "internal.h"
#include "check.h"

/* The words of the statuses. */
static const char *const check_words[] = { "ok", "warn", "info", "unknown" };

/* Print check's usage text to f. */
void
check_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [--json] [--probe SECONDS] [--root DIR]\n"
"\n"
"Check this machine for the conditions known to distort benchmark figures\n"
"and print each with what was found and one line of advice: the frequency\n"
"governor and boost, SMT siblings among the CPUs this process may use, the\n"
"load average and the other runnable tasks, hypervisor steal since boot and\n"
"during a probe, the run-queue wait of a busy loop during the probe,\n"
"virtualisation, the cpuidle driver, transparent huge pages, ASLR,\n"
"perf_event_paranoid, the clocksource and a CPU quota (cgroup v1 or v2).\n"
"A check's status is ok, warn (figures may suffer: see the advice), info\n"
"(worth knowing when reading figures) or unknown (what it reads is not\n"
"there).\n"
"\n"
"  --json           print one JSON object, {\"checks\": [{\"name\", \"status\",\n"
"                   \"found\", \"advice\"}, ...], \"warnings\": N}, instead of\n"
"                   the table\n"
"  --probe SECONDS  measure for SECONDS (0 to 60, default 1): a busy loop\n"
"                   runs while its run-queue wait, the CPUs' steal and the\n"
"                   cgroup's throttling are counted; 0 leaves the probe out\n"
"  --root DIR       read every /proc and /sys file under DIR instead of /\n"
"                   (for tests); the probe then runs nothing and reads its\n"
"                   end from the same files under DIR/probe-end\n"
"  -h, --help       print this help and exit\n"
"  -V, --version    print the version and exit\n"
"\n"
"Exit status: 0 when the checks were printed, warnings or not; 1 when the\n"
"output cannot be written or a file read is refused (larger than 16 MB, or\n"
"a line longer than 1 MB: no file the kernel writes is); 2 on a usage\n"
"error.\n", prog);
}

/* Say what was wrong with the arguments, and the usage line; 2. */
static int __attribute__((format(printf, 2, 3)))
check_bad(const struct check *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s [--json] [--probe SECONDS] [--root DIR]\n",
	    c->prog);
	return 2;
}

/* The status after printing help or the version: 0, or 1 with a message. */
static int
check_printed(const struct check *c)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "%s: writing to standard output failed\n", c->prog);
	return 1;
}

/*
 * --probe's seconds: digits without a leading zero, 0 to 60; 0, or -1.
 * --root's folder: a directory, its trailing slashes dropped ("/" is this
 * machine).
 */
static int
check_set(struct check *c, int opt, const char *arg)
{
	uint64_t v;
	struct stat st;
	size_t n;

	if (opt == 'p') {
		if ((arg[0] == '0' && arg[1] != '\0') ||
		    bm_parse_uint(arg, 0, 60, &v) != 0)
			return -1;
		c->probe = (unsigned)v;
		return 0;
	}
	if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    (n = strlen(arg)) >= sizeof c->root)
		return -1;
	memcpy(c->root, arg, n + 1);
	while (n > 0 && c->root[n - 1] == '/')
		c->root[--n] = '\0';
	c->fake = n > 0;
	return 0;
}

/* Read the options into c; -1 to go on, else the exit status. */
static int
check_options(struct check *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "probe", required_argument, NULL, 'p' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int o;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, "+:hV", lo, NULL)) != -1) {
		switch (o) {
		case 'j':
			c->json = 1;
			break;
		case 'p':
		case 'r':
			/* "--probe=" has no value; "--probe ''" has an empty one. */
			if (optarg[0] == '\0' && (o == 'r' ||
			    optarg != argv[optind - 1]))
				return check_bad(c, "%s needs a value",
				    o == 'p' ? "--probe" : "--root");
			if (check_set(c, o, optarg) != 0)
				return check_bad(c, o == 'p' ? "--probe: '%s' "
				    "is not a number of seconds from 0 to 60" :
				    "--root: '%s' is not a directory", optarg);
			break;
		case 'h':
			check_usage(stdout, c->prog);
			return check_printed(c);
		case 'V':
			printf("%s %s\n", c->prog, PACKAGE_VERSION);
			return check_printed(c);
		case ':':
			return check_bad(c, "%s needs a value", argv[optind - 1]);
		default:
			return check_bad(c, "unknown argument '%s'",
			    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return check_bad(c, "unknown argument '%s'", argv[optind]);
	return -1;
}

/* Add a row: found from a format, advice as it is. */
void
check_emit(struct check *c, const char *name, enum check_status st,
    const char *advice, const char *fmt, ...)
{
	struct check_row *r;
	va_list ap;
	int n;

	if (c->nrow == CHECK_ROWS)
		return;
	r = &c->row[c->nrow++];
	r->name = name;
	r->status = st;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || (r->found = malloc((size_t)n + 1)) == NULL ||
	    (r->advice = strdup(advice)) == NULL) {
		c->failed = 1;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(r->found, (size_t)n + 1, fmt, ap);
	va_end(ap);
}

/* The first line of path into buf; 1 when it was read and is not empty. */
int
check_rd(struct check *c, const char *path, char *buf, size_t size)
{
	return bm__procfs_line(&c->fs, path, buf, size) == 0 &&
	    buf[0] != '\0';
}

/*
 * The second field of the first line of text whose first field is key
 * (fields separated by blanks) into buf; 1 when there is one.
 */
int
check_field(const char *text, const char *key, char *buf, size_t size)
{
	size_t k = strlen(key), n;
	const char *p;

	buf[0] = '\0';
	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		p += *p == '\n';
		p += strspn(p, " \t");
		if (strncmp(p, key, k) != 0 || (p[k] != ' ' && p[k] != '\t'))
			continue;
		p += k + strspn(p + k, " \t");
		n = strcspn(p, " \t\n");
		(void)snprintf(buf, size, "%.*s", (int)n, p);
		return n > 0;
	}
	return 0;
}

/* Show control and non-ASCII bytes as "?" (the JSON stays valid). */
static void
check_clean(char *s)
{
	unsigned char *p;

	for (p = (unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
}

/* Write the rows as a table or one JSON object; 0, or -1. */
static int
check_write(struct check *c)
{
	struct bm__json b = { NULL, 0, 0, 0 };
	struct check_row *r;
	unsigned i, k, w = 0;

	for (i = 0; i < c->nrow; i++) {
		check_clean(c->row[i].found);
		check_clean(c->row[i].advice);
		w += c->row[i].status == CHECK_WARN;
	}
	if (c->json)
		bm__json_printf(&b, "{\"checks\":[");
	else
		printf("%-15s %-8s %s\n", "check", "status", "found");
	for (i = 0; i < c->nrow; i++) {
		r = &c->row[i];
		if (c->json) {
			bm__json_printf(&b, "%s{\"name\":", i > 0 ? "," : "");
			bm__json_string(&b, r->name);
			bm__json_kstr(&b, "status", check_words[r->status]);
			bm__json_kstr(&b, "found", r->found);
			bm__json_kstr(&b, "advice", r->advice);
			bm__json_printf(&b, "}");
			continue;
		}
		printf("%-15s %-8s %s\n", r->name, check_words[r->status],
		    r->found);
		if (r->status != CHECK_OK)
			printf("%-15s %-8s advice: %s\n", "", "", r->advice);
	}
	if (c->json) {
		bm__json_printf(&b, "],\"warnings\":%u}", w);
		if (b.err == 0)
			printf("%s\n", b.s);
		free(b.s);
		if (b.err != 0)
			return -1;
	} else {
		printf("\n%u warning%s", w, w == 1 ? "" : "s");
		for (i = 0, k = 0; i < c->nrow; i++)
			if (c->row[i].status == CHECK_WARN)
				printf("%s%s", k++ > 0 ? ", " : ": ",
				    c->row[i].name);
		printf("\n");
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

/* The checks, in the order printed; the probe has run before them. */
static void (*const check_steps[])(struct check *) = {
	check_cpu_governor, check_cpu_boost, check_cpu_smt, check_probe_load,
	check_probe_steal, check_probe_rows, check_sys_virt, check_sys_cpuidle,
	check_sys_thp, check_sys_aslr, check_sys_perf, check_sys_clocksource,
	check_probe_quota
};

/* Run benchmp check. */
int
check_main(const char *prog, int argc, char **argv)
{
	struct check *c;
	size_t i;
	int rc;

	if ((c = calloc(1, sizeof(*c))) == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	c->prog = prog;
	c->probe = 1;
	if ((rc = check_options(c, argc, argv)) < 0) {
		c->fs.root = c->root;
		(void)snprintf(c->end_root, sizeof c->end_root, "%s/probe-end",
		    c->root);
		c->end.root = c->end_root;
		check_cpu_usable(c);
		check_probe_run(c);
		for (i = 0; i < sizeof check_steps / sizeof check_steps[0]; i++)
			check_steps[i](c);
		rc = 1;
		if (c->failed)
			fprintf(stderr, "%s: out of memory\n", prog);
		else if (c->fs.refused[0] != '\0' || c->end.refused[0] != '\0')
			fprintf(stderr, "%s: %s: refused\n", prog,
			    c->fs.refused[0] ? c->fs.refused : c->end.refused);
		else if (check_write(c) != 0)
			fprintf(stderr, "%s: writing to standard output "
			    "failed\n", prog);
		else
			rc = 0;
	}
	for (i = 0; i < c->nrow; i++) {
		free(c->row[i].found);
		free(c->row[i].advice);
	}
	free(c);
	return rc;
}
