/* ab-plan.c: benchmp-ab's plan: prefixes split into words, commands, the programs they name. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchmp.h"
#include "ab.h"

/*
 * Split s into words as a shell splits a simple command without
 * expansions: blanks separate words, single quotes keep everything,
 * double quotes keep all but a backslash before " or \, a backslash
 * outside quotes keeps the next character.  One allocation holds the
 * NULL-terminated array and the words (free() it).  NULL with *err on an
 * unterminated quote or no memory.
 */
char **
ab_split_words(const char *s, const char **err)
{
	size_t len = strlen(s), words = 0;
	char **argv, *out;
	const char *p = s;

	if (len > AB_LINE_MAX) {
		*err = "longer than 4096 characters";
		return NULL;
	}
	/* At most len / 2 + 1 words; their text takes at most len + words. */
	argv = malloc((len / 2 + 2) * sizeof *argv + 2 * len + 2);
	if (argv == NULL) {
		*err = "out of memory";
		return NULL;
	}
	out = (char *)(argv + len / 2 + 2);
	for (;;) {
		char q = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		argv[words++] = out;
		for (; *p != '\0'; p++) {
			if (q == '\'') {
				if (*p == '\'')
					q = 0;
				else
					*out++ = *p;
			} else if (q == '"') {
				if (*p == '"')
					q = 0;
				else if (*p == '\\' && (p[1] == '"' ||
				    p[1] == '\\'))
					*out++ = *++p;
				else
					*out++ = *p;
			} else if (*p == '\'' || *p == '"') {
				q = *p;
			} else if (*p == '\\' && p[1] != '\0') {
				*out++ = *++p;
			} else if (*p == ' ' || *p == '\t' || *p == '\n') {
				break;
			} else {
				*out++ = *p;
			}
		}
		if (q != 0) {
			free(argv);
			*err = "a quote is not closed";
			return NULL;
		}
		*out++ = '\0';
	}
	argv[words] = NULL;
	return argv;
}

/* Add a command (copied) to the plan.  0 or -1 (no memory, too many). */
int
ab_plan_add(struct ab_plan *p, char *const *argv, size_t argc)
{
	struct ab_cmd *c, *grown;
	size_t i, len = 0;

	if (argc == 0 || p->n >= AB_PLAN_MAX)
		return -1;
	grown = realloc(p->cmd, (p->n + 1) * sizeof *grown);
	if (grown == NULL)
		return -1;
	p->cmd = grown;
	c = &p->cmd[p->n];
	memset(c, 0, sizeof *c);
	if ((c->argv = calloc(argc + 1, sizeof *c->argv)) == NULL)
		return -1;
	for (i = 0; i < argc; i++) {
		if ((c->argv[i] = strdup(argv[i])) == NULL)
			goto fail;
		len += strlen(argv[i]) + 1;
	}
	c->argc = argc;
	if ((c->text = malloc(len + 1)) == NULL)
		goto fail;
	c->text[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i > 0)
			strcat(c->text, " ");
		strcat(c->text, argv[i]);
	}
	p->n++;
	return 0;
fail:
	for (i = 0; i < argc; i++)
		free(c->argv[i]);
	free(c->argv);
	return -1;
}

/*
 * A plan line's leading threshold=P word (P in percent, an optional %)
 * into *fraction: 1 when the word is one, 0 when not, -1 when its value
 * is out of range.
 */
int
ab_plan_threshold(const char *word, double *fraction)
{
	char num[64];
	size_t len;
	double v;

	if (strncmp(word, "threshold=", 10) != 0)
		return 0;
	word += 10;
	len = strlen(word);
	if (len > 0 && word[len - 1] == '%')
		len--;
	if (len == 0 || len >= sizeof num)
		return -1;
	memcpy(num, word, len);
	num[len] = '\0';
	if (bm_parse_double(num, AB_THRESHOLD_MIN, AB_THRESHOLD_MAX, &v) != 0)
		return -1;
	*fraction = v / 100;
	return 1;
}

/*
 * Add one plan line (NUL-terminated, its CRLF's CR gone) to the plan:
 * blank and '#' lines skipped, a leading threshold=P word taken as its
 * figures' threshold.  0, or -1 with msg.
 */
static int
plan_line(struct ab_plan *p, char *line, unsigned long lineno, char *msg,
    size_t size)
{
	size_t argc = 0, skip = 0;
	double threshold = 0;
	const char *err;
	char **argv, *hash;
	int t;

	if ((hash = strchr(line, '#')) != NULL &&
	    strspn(line, " \t") == (size_t)(hash - line))
		return 0;
	if ((argv = ab_split_words(line, &err)) == NULL) {
		snprintf(msg, size, "line %lu: %s", lineno, err);
		return -1;
	}
	while (argv[argc] != NULL)
		argc++;
	if (argc > 0 && (t = ab_plan_threshold(argv[0], &threshold)) != 0) {
		if (t < 0 || argc == 1) {
			snprintf(msg, size, "line %lu: %s", lineno, t < 0 ?
			    "threshold= takes a percent from 0.1 to 50" :
			    "threshold= and no command");
			free(argv);
			return -1;
		}
		skip = 1;
	}
	if (argc > skip && ab_plan_add(p, argv + skip, argc - skip) != 0) {
		free(argv);
		snprintf(msg, size, "line %lu: %s", lineno, p->n >= AB_PLAN_MAX ?
		    "over 1000 commands" : "out of memory");
		return -1;
	}
	if (argc > skip)
		p->cmd[p->n - 1].threshold = threshold;
	free(argv);
	return 0;
}

/*
 * Read a plan file: one TOOL ARGS a line, CRLF as LF.  Byte by byte, so
 * that a NUL byte, a line over AB_LINE_MAX and a file past AB_PLAN_BYTES
 * (/dev/zero, an endless pipe) are refused with their line's number,
 * never read for ever or cut into commands of their own.  0, or -1 and
 * *err.
 */
int
ab_plan_read(struct ab_plan *p, const char *path, const char **err)
{
	static char msg[160];
	/* Static, as sched_plan_read's: each line is copied. */
	static char line[AB_LINE_MAX + 2];
	unsigned long lineno = 1, total = 0;
	size_t len = 0;
	FILE *f;
	int c;

	if ((f = fopen(path, "r")) == NULL) {
		*err = strerror(errno);
		return -1;
	}
	while ((c = getc(f)) != EOF || len > 0) {
		if (c != EOF && ++total > AB_PLAN_BYTES) {
			snprintf(msg, sizeof msg, "line %lu: the plan passes "
			    "%u bytes", lineno, AB_PLAN_BYTES);
			goto fail;
		}
		if (c == '\0') {
			snprintf(msg, sizeof msg, "line %lu: a NUL byte",
			    lineno);
			goto fail;
		}
		if (c != '\n' && c != EOF) {
			if (len >= AB_LINE_MAX + 1) {
				snprintf(msg, sizeof msg, "line %lu: longer "
				    "than %d characters", lineno, AB_LINE_MAX);
				goto fail;
			}
			line[len++] = (char)c;
			continue;
		}
		/* CRLF: the CR is the line's end, not its last argument's. */
		if (len > 0 && line[len - 1] == '\r')
			len--;
		line[len] = '\0';
		if (len > AB_LINE_MAX) {
			snprintf(msg, sizeof msg, "line %lu: longer than %d "
			    "characters", lineno, AB_LINE_MAX);
			goto fail;
		}
		if (plan_line(p, line, lineno, msg, sizeof msg) != 0)
			goto fail;
		len = 0;
		lineno++;
		if (c == EOF)
			break;
	}
	if (ferror(f)) {
		snprintf(msg, sizeof msg, "cannot read: %s", strerror(errno));
		goto fail;
	}
	fclose(f);
	if (p->n == 0) {
		*err = "no command in it";
		return -1;
	}
	return 0;
fail:
	fclose(f);
	*err = msg;
	return -1;
}

/* Release a plan. */
void
ab_plan_free(struct ab_plan *p)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		for (j = 0; j < p->cmd[i].argc; j++)
			free(p->cmd[i].argv[j]);
		free(p->cmd[i].argv);
		free(p->cmd[i].text);
	}
	free(p->cmd);
	memset(p, 0, sizeof *p);
}

/* The number of words of a NULL-terminated prefix. */
static size_t
plan_count(char **prefix)
{
	size_t n = 0;

	while (prefix != NULL && prefix[n] != NULL)
		n++;
	return n;
}

/* 1 when a prefix's last word is a directory the tool is taken from. */
int
ab_dir_prefix(char **prefix, size_t n)
{
	return prefix != NULL && n > 0 && prefix[n - 1][0] != '\0' &&
	    prefix[n - 1][strlen(prefix[n - 1]) - 1] == '/';
}

/*
 * PREFIX TOOL ARGS [TAIL]: the prefix's words, the tool (joined to the
 * last word when that is a directory), the nargs words of args and tail
 * when it is not NULL.  One allocation, free() it; NULL without memory.
 */
char **
ab_prefix_argv(char **prefix, const char *tool, char *const *args,
    size_t nargs, const char *tail)
{
	size_t np = plan_count(prefix), n, i, k = 0, extra;
	int dir = ab_dir_prefix(prefix, np);
	char **argv, *text;

	extra = (dir ? strlen(prefix[np - 1]) : 0) + strlen(tool) + 1;
	n = np + 1 + nargs + 2;
	if ((argv = malloc(n * sizeof *argv + extra)) == NULL)
		return NULL;
	text = (char *)(argv + n);
	for (i = 0; i < np - (size_t)dir; i++)
		argv[k++] = prefix[i];
	snprintf(text, extra, "%s%s", dir ? prefix[np - 1] : "", tool);
	argv[k++] = text;
	for (i = 0; i < nargs; i++)
		argv[k++] = args[i];
	if (tail != NULL)
		argv[k++] = (char *)tail;
	argv[k] = NULL;
	return argv;
}

/*
 * An arm's argv for a command: the prefix's words, the tool (found beside
 * this program when there is no prefix and it is not on PATH), the tool's
 * arguments and --json (ab_prefix_argv).
 */
char **
ab_arm_argv(char **prefix, const struct ab_cmd *cmd)
{
	/* Static: ab_prefix_argv copies it. */
	static char beside[PATH_MAX];
	const char *tool = cmd->argv[0];

	if (plan_count(prefix) == 0 && strchr(tool, '/') == NULL &&
	    ab_arm_missing(NULL, tool) != NULL &&
	    ab_beside_self(tool, beside, sizeof beside) == 0)
		tool = beside;
	return ab_prefix_argv(prefix, tool, cmd->argv + 1, cmd->argc - 1,
	    "--json");
}

/*
 * 1 when path names an executable regular file.  access(X_OK) alone
 * says yes to a directory (a prefix such as /opt/new/bin without its
 * slash), which exec then refuses.
 */
static int
plan_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

/* 1 when name is found as execvp() would find it. */
int
ab_plan_found(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	/* Static, as ab_arm_missing's: their chain stays off the stack. */
	static char buf[PATH_MAX];

	if (strchr(name, '/') != NULL)
		return plan_executable(name);
	if (path == NULL)
		path = "/bin:/usr/bin";
	for (p = path; ; p = end + 1) {
		size_t len;

		end = strchr(p, ':');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (snprintf(buf, sizeof buf, "%.*s%s%s", (int)len, p,
		    len > 0 ? "/" : "", name) < (int)sizeof buf &&
		    plan_executable(buf))
			return 1;
		if (end == NULL)
			return 0;
	}
}

/*
 * The program an arm runs that cannot be found, or NULL: the prefix's
 * first word (the tool too when the prefix is a directory, or when there
 * is no prefix and the tool is neither on PATH nor beside this program).
 * A wrapper's own arguments (env's tool) are its to find.
 */
char *
ab_arm_missing(char **prefix, const char *tool)
{
	static char name[PATH_MAX];
	size_t np = plan_count(prefix);
	int dir = ab_dir_prefix(prefix, np);
	static char beside[PATH_MAX];

	if (dir) {
		snprintf(name, sizeof name, "%s%s", prefix[np - 1], tool);
		if (np > 1 && !ab_plan_found(prefix[0])) {
			snprintf(name, sizeof name, "%s", prefix[0]);
			return name;
		}
		return plan_executable(name) ? NULL : name;
	}
	if (np > 0) {
		snprintf(name, sizeof name, "%s", prefix[0]);
		return ab_plan_found(name) ? NULL : name;
	}
	snprintf(name, sizeof name, "%s", tool);
	if (ab_plan_found(tool) || (prefix != NULL &&
	    ab_beside_self(tool, beside, sizeof beside) == 0))
		return NULL;
	return name;
}

/* The folder of this program, from what the kernel says it runs, into dir: 0 or -1. */
int
ab_self_dir(char *dir, size_t size)
{
	ssize_t len;
	char *slash;

	if (size < 2 || (len = readlink("/proc/self/exe", dir, size - 1)) <= 0 ||
	    (size_t)len >= size - 1)
		return -1;
	dir[len] = '\0';
	if ((slash = strrchr(dir, '/')) == NULL)
		return -1;
	*slash = '\0';
	return 0;
}

/*
 * The path of name beside this program, if it is there: 0 or -1.  Built
 * in path itself, no copy of PATH_MAX beside it: benchmp-sched reaches
 * here under a tool's --served, whose stack a user may bound (ulimit -s).
 */
int
ab_beside_self(const char *name, char *path, size_t size)
{
	size_t len;

	if (strchr(name, '/') != NULL || ab_self_dir(path, size) != 0)
		return -1;
	len = strlen(path);
	if (snprintf(path + len, size - len, "/%s", name) >= (int)(size - len))
		return -1;
	return plan_executable(path) ? 0 : -1;
}
