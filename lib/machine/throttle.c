/* throttle.c: whether a CPU quota on the run's cgroup throttled it. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A CPU quota (cgroup v2 cpu.max, v1 cpu.cfs_quota_us) lets the processes
 * of a cgroup run for quota microseconds of every period and then takes
 * them off every CPU until the next period: an interval that spans a
 * throttled stretch is stretched by it, a run on a machine with a 10%
 * quota reads ten times too slow with a tight interval, and nothing in
 * the figures says why.  The kernel counts it in the cgroup's cpu.stat:
 * nr_throttled (periods in which the group was throttled) and
 * throttled_usec (v2) or throttled_time (v1, in ns).  A quota on an
 * ancestor throttles its descendants and counts in the ancestor's
 * cpu.stat, so every level from the process's cgroup up to the
 * hierarchy's root is read and the counts are summed.
 */

/* The longest path or line this file reads. */
#define THROTTLE_LINE 4096

/*
 * One hierarchy: its mount point, the mount's root, our cgroup's path and
 * the directory being read; on the heap (20 KB: a small stack limit must
 * not crash a tool here).
 */
struct throttle_hier {
	char mount[PATH_MAX];
	char mroot[PATH_MAX];
	char path[PATH_MAX];
	char dir[2 * PATH_MAX];
	char file[2 * PATH_MAX + 32];	/* a file in dir, or under root */
	char line[THROTTLE_LINE];
	int v2;
};

/* 1 when word is one of the comma-separated words of list. */
static int
throttle_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void
throttle_unescape(char *s)
{
	char *w = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
			    (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/*
 * Find our cgroup's path in root/proc/self/cgroup: the cpu controller's
 * (v1) when it has one, else the unified hierarchy's (v2); 0 or -errno.
 */
static int
throttle_find_path(const char *root, struct throttle_hier *h)
{
	char *line = h->line, *c1, *c2, *nl;
	int v1 = 0, v2 = 0;
	FILE *f;

	(void)snprintf(h->file, sizeof h->file, "%s/proc/self/cgroup", root);
	if ((f = fopen(h->file, "re")) == NULL)
		return -errno;
	while (fgets(line, sizeof h->line, f) != NULL) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if ((c1 = strchr(line, ':')) == NULL ||
		    (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c2 = '\0';
		if (throttle_has_word(c1 + 1, "cpu") && !v1) {
			(void)snprintf(h->path, sizeof h->path, "%s", c2 + 1);
			v1 = 1;
		} else if (c1[1] == '\0' && strncmp(line, "0:", 2) == 0 &&
		    !v1 && !v2) {
			(void)snprintf(h->path, sizeof h->path, "%s", c2 + 1);
			v2 = 1;
		}
	}
	(void)fclose(f);
	if (!v1 && !v2)
		return -ENOENT;
	h->v2 = !v1;
	return 0;
}

/*
 * Find the mount of h's hierarchy in root/proc/self/mountinfo (cgroup2,
 * or a cgroup mount with the cpu controller): 0 or -errno.
 */
static int
throttle_find_mount(const char *root, struct throttle_hier *h)
{
	char *line = h->line, *f4, *f5, *dash, *type, *opts, *save;
	FILE *f;
	int i, found = 0;

	(void)snprintf(h->file, sizeof h->file, "%s/proc/self/mountinfo",
	    root);
	if ((f = fopen(h->file, "re")) == NULL)
		return -errno;
	while (!found && fgets(line, sizeof h->line, f) != NULL) {
		if ((dash = strstr(line, " - ")) == NULL)
			continue;
		*dash = '\0';
		type = strtok_r(dash + 3, " \n", &save);
		(void)strtok_r(NULL, " \n", &save);
		opts = strtok_r(NULL, " \n", &save);
		if (type == NULL || (h->v2 ? strcmp(type, "cgroup2") != 0 :
		    strcmp(type, "cgroup") != 0 || opts == NULL ||
		    !throttle_has_word(opts, "cpu")))
			continue;
		f4 = strtok_r(line, " ", &save);
		for (i = 0; i < 3 && f4 != NULL; i++)
			f4 = strtok_r(NULL, " ", &save);
		f5 = strtok_r(NULL, " ", &save);
		if (f4 == NULL || f5 == NULL)
			continue;
		throttle_unescape(f4);
		throttle_unescape(f5);
		(void)snprintf(h->mroot, sizeof h->mroot, "%s", f4);
		(void)snprintf(h->mount, sizeof h->mount, "%s%s", root, f5);
		found = 1;
	}
	(void)fclose(f);
	return found ? 0 : -ENOENT;
}

/* Add the throttling counts of h->dir's cpu.stat; 1 when it has them. */
static int
throttle_add_stat(struct throttle_hier *h, struct bm__throttle *t)
{
	char key[64];
	unsigned long long v;
	int got = 0, v2 = h->v2;
	FILE *f;

	if (snprintf(h->file, sizeof h->file, "%s/cpu.stat", h->dir) >=
	    (int)sizeof h->file || (f = fopen(h->file, "re")) == NULL)
		return 0;
	while (fscanf(f, "%63s %llu", key, &v) == 2) {
		if (strcmp(key, "nr_throttled") == 0) {
			t->nr_throttled += v;
			got = 1;
		} else if (v2 && strcmp(key, "throttled_usec") == 0) {
			t->throttled_ns += v * 1000u;
		} else if (!v2 && strcmp(key, "throttled_time") == 0) {
			t->throttled_ns += v;
		}
	}
	(void)fclose(f);
	return got;
}

/*
 * Read one number (or "max") from the start of h->dir's file name, and a
 * second one after it; -1 for none.
 */
static double
throttle_read_num(struct throttle_hier *h, const char *name, double *second)
{
	char buf[64];
	double a = -1, b = -1;
	FILE *f;

	if (snprintf(h->file, sizeof h->file, "%s/%s", h->dir, name) >=
	    (int)sizeof h->file || (f = fopen(h->file, "re")) == NULL)
		return -1;
	if (fgets(buf, sizeof buf, f) != NULL &&
	    sscanf(buf, "%lf %lf", &a, &b) < 1)
		a = -1;	/* "max": no quota */
	(void)fclose(f);
	if (second != NULL)
		*second = b;
	return a;
}

/* Lower t's quota to h->dir's, when it has one. */
static void
throttle_add_quota(struct throttle_hier *h, struct bm__throttle *t)
{
	double quota, period = -1, cpus;

	if (h->v2)
		quota = throttle_read_num(h, "cpu.max", &period);
	else {
		quota = throttle_read_num(h, "cpu.cfs_quota_us", NULL);
		period = throttle_read_num(h, "cpu.cfs_period_us", NULL);
	}
	if (!(quota > 0) || !(period > 0))
		return;
	cpus = quota / period;
	if (t->quota_cpus == 0 || cpus < t->quota_cpus)
		t->quota_cpus = cpus;
}

/*
 * Read the throttling of this process's cgroup and its ancestors under
 * root ("" for the real /proc and /sys; a test gives a fake tree): 0 with
 * t filled (t->known 0 when no cpu.stat has the counts), or -errno when
 * the cgroup cannot be found.
 */
int
bm__throttle_read(const char *root, struct bm__throttle *t)
{
	struct throttle_hier *h;
	char *dir, *rel, *slash;
	size_t n, mlen;
	int rc;

	memset(t, 0, sizeof(*t));
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return -ENOMEM;
	dir = h->dir;
	if ((rc = throttle_find_path(root, h)) != 0 ||
	    (rc = throttle_find_mount(root, h)) != 0)
		goto out;
	/* The path is relative to the mount's root (a cgroup namespace). */
	rel = h->path;
	n = strlen(h->mroot);
	if (strcmp(h->mroot, "/") != 0 && strncmp(rel, h->mroot, n) == 0 &&
	    (rel[n] == '/' || rel[n] == '\0'))
		rel += n;
	rc = -EINVAL;
	if (strstr(rel, "/..") != NULL)
		goto out;
	rc = -ENAMETOOLONG;
	if (snprintf(dir, sizeof h->dir, "%s%s", h->mount, rel) >=
	    (int)sizeof h->dir)
		goto out;
	mlen = strlen(h->mount);
	n = strlen(dir);
	while (n > mlen && dir[n - 1] == '/')
		dir[--n] = '\0';
	for (;;) {
		if (throttle_add_stat(h, t))
			t->known = 1;
		throttle_add_quota(h, t);
		if (strlen(dir) <= mlen || (slash = strrchr(dir, '/')) == NULL ||
		    (size_t)(slash - dir) < mlen)
			break;
		*slash = '\0';
	}
	rc = 0;
out:
	free(h);
	return rc;
}
