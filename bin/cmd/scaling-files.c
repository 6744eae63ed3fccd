/* scaling-files.c: where benchmp scaling's records and plots go, checked before any run; the records appended whole. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "scaling.h"

/* The folder of a records file the command makes, under $TMPDIR. */
#define FILES_TEMPLATE	"benchmp-scaling.XXXXXX"

/* A malloc'd copy of name, as ./name when it begins with a dash (a file, not an option); NULL when out of memory. */
static char *
files_name(const char *name)
{
	size_t n = strlen(name) + 3;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s%s", name[0] == '-' ? "./" : "", name);
	return p;
}

/* The folder of path as dirname(1) names it, into dir. */
static void
files_dir(const char *path, char *dir, size_t size)
{
	char *copy = strdup(path);

	snprintf(dir, size, "%s", copy != NULL ? dirname(copy) : ".");
	free(copy);
}

/* Say that f cannot go in its folder unless that is a writable directory; 0 or the exit status. */
static int
files_dir_check(const struct scaling *s, const char *f)
{
	char d[4096];
	struct stat st;

	files_dir(f, d, sizeof d);
	if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
		return scaling_fail(s, "%s: directory %s does not exist", f, d);
	if (access(d, W_OK) != 0)
		return scaling_fail(s, "%s: directory %s is not writable", f, d);
	return 0;
}

/*
 * Make sure that benchmp-plot can write the chart f, as the scripts'
 * bm_out_check does: a character device or a FIFO is written through;
 * otherwise f is missing or a regular file, in a writable directory.
 * 0 or the exit status.
 */
static int
files_out_check(const struct scaling *s, const char *base, const char *ext)
{
	char f[4096 + 8], d[4096];
	struct stat st;

	snprintf(f, sizeof f, "%s%s", base, ext);
	if (stat(f, &st) == 0) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return 0;
		if (!S_ISREG(st.st_mode))
			return scaling_fail(s, "cannot write %s: not a regular "
			    "file, a character device or a FIFO", f);
	}
	files_dir(f, d, sizeof d);
	if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode) || access(d, W_OK) != 0)
		return scaling_fail(s, "cannot write %s: %s is not a writable "
		    "directory", f, d);
	return 0;
}

/* Check both charts of the plot (BASE.png, BASE.svg), if there is one; 0 or the exit status. */
static int
files_plot_check(const struct scaling *s)
{
	int rc;

	if (s->base == NULL)
		return 0;
	if ((rc = files_out_check(s, s->base, ".png")) != 0)
		return rc;
	return files_out_check(s, s->base, ".svg");
}

/*
 * The default records file: TOOL.jsonl in a directory of its own that
 * mkdtemp makes under $TMPDIR (mode 700, a name nobody can guess or
 * plant a link at), kept and named on stderr; 0 or the exit status.
 */
static int
files_default(struct scaling *s)
{
	const char *tmp = getenv("TMPDIR"), *tool = strrchr(s->tool, '/');
	char dir[4096];
	size_t n;

	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	tool = tool != NULL ? tool + 1 : s->tool;
	if ((size_t)snprintf(dir, sizeof dir, "%s/" FILES_TEMPLATE, tmp) >=
	    sizeof dir || mkdtemp(dir) == NULL)
		return scaling_fail(s, "cannot create a directory for the "
		    "records%s%s", errno ? ": " : "", errno ? strerror(errno) :
		    "");
	n = strlen(dir) + strlen(tool) + 8;
	if ((s->records = malloc(n)) == NULL)
		return scaling_fail(s, "out of memory");
	snprintf(s->records, n, "%s/%s.jsonl", dir, tool);
	fprintf(stderr, "%s: records in %s\n", s->prog, s->records);
	return 0;
}

/*
 * The plot by default: BASE beside the records (their name without
 * .jsonl) when gnuplot is there, else none, said on stderr; none with
 * --no-plot, nor for records in a device (/dev/null: the plot reads
 * them back, and BASE.png would go beside the device).  0 or the exit
 * status.
 */
static int
files_default_plot(struct scaling *s)
{
	struct stat st;
	size_t n;

	if (s->noplot) {
		free(s->base);
		s->base = NULL;
		return 0;
	}
	if (s->base != NULL)
		return 0;
	if (fstat(s->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: records in a device: no plot\n", s->prog);
		return 0;
	}
	if (!ab_plan_found("gnuplot")) {
		fprintf(stderr, "%s: gnuplot not found (Debian package "
		    "gnuplot-nox): no plot\n", s->prog);
		return 0;
	}
	if ((s->base = strdup(s->records)) == NULL)
		return scaling_fail(s, "out of memory");
	n = strlen(s->base);
	if (n >= 6 && strcmp(s->base + n - 6, ".jsonl") == 0)
		s->base[n - 6] = '\0';
	return 0;
}

/*
 * Check where the records and the plots go, before anything runs: their
 * folders, a records file that is a regular file, a new one or a
 * character device (/dev/null; not a FIFO or a directory: it is read
 * again for the plot, and a failed append is cut back), never a link;
 * the charts as benchmp-plot writes them.  Then make the records file
 * (open for appending) and settle the plot.  0 or the exit status.
 */
int
scaling_files_prepare(struct scaling *s)
{
	struct stat st;
	int rc;

	if ((s->output != NULL && (s->records = files_name(s->output)) ==
	    NULL) || (s->plot != NULL && (s->base = files_name(s->plot)) ==
	    NULL))
		return scaling_fail(s, "out of memory");
	if ((s->records != NULL && (rc = files_dir_check(s, s->records)) != 0) ||
	    (s->base != NULL && (rc = files_dir_check(s, s->base)) != 0))
		return rc;
	if (s->records != NULL && stat(s->records, &st) == 0 &&
	    !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
		return scaling_fail(s, "%s: not a regular file: the records "
		    "are appended to one", s->records);
	if ((rc = files_plot_check(s)) != 0)
		return rc;
	errno = 0;
	if (s->records == NULL && (rc = files_default(s)) != 0)
		return rc;
	if (lstat(s->records, &st) == 0 && S_ISLNK(st.st_mode))
		return scaling_fail(s, "%s is a symbolic link: the records are "
		    "not written through it", s->records);
	s->fd = open(s->records, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0666);
	if (s->fd < 0)
		return scaling_fail(s, "cannot write %s: %s", s->records,
		    strerror(errno));
	if ((rc = files_default_plot(s)) != 0)
		return rc;
	return files_plot_check(s);
}

/*
 * Append one record and its newline in one write where it fits.  A
 * failed append (a full disk) is cut back to the file's old end, so
 * that the file never ends in a torn record.  0 or the exit status.
 */
int
scaling_files_append(struct scaling *s, const char *rec, size_t len)
{
	struct stat st;
	size_t done = 0;
	ssize_t n;
	char *line;

	if (fstat(s->fd, &st) != 0)
		return scaling_fail(s, "cannot read %s: %s", s->records,
		    strerror(errno));
	if ((line = malloc(len + 1)) == NULL)
		return scaling_fail(s, "out of memory");
	memcpy(line, rec, len);
	line[len] = '\n';
	while (done < len + 1) {
		n = write(s->fd, line + done, len + 1 - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	free(line);
	if (done == len + 1)
		return 0;
	if (S_ISREG(st.st_mode) && ftruncate(s->fd, st.st_size) != 0)
		return scaling_fail(s, "cannot write %s (disk full?), nor cut "
		    "it back to its last whole record: %s", s->records,
		    strerror(errno));
	return scaling_fail(s, "cannot write %s (disk full?)", s->records);
}
