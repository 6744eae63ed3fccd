/* throttle.c: whether a CPU quota on the run's cgroup throttled it. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * The strings of one search, on the heap (a small stack limit must not
 * crash a tool here): our cgroup's path, the mount's root and its mount
 * point, and a file's path.
 */
struct throttle_hier {
	char path[PATH_MAX];
	char mroot[PATH_MAX];
	char mount[PATH_MAX];
	char file[PATH_MAX + 32];
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

/* Cut the line at *at from the text after it; the line, or NULL at the end. */
static char *
throttle_line(char **at)
{
	char *line = *at, *nl;

	if (line == NULL || *line == '\0')
		return NULL;
	if ((nl = strchr(line, '\n')) != NULL)
		*nl++ = '\0';
	*at = nl;
	return line;
}

/*
 * Find our cgroup's path in /proc/self/cgroup: the cpu controller's (v1)
 * when it has one, else the unified hierarchy's (v2); 0 or -errno.
 */
static int
throttle_find_path(struct bm__procfs *p, struct throttle_hier *h,
    struct bm__cgroup *cg)
{
	char *text, *at, *line, *c1, *c2;
	int rc, v1 = 0, v2 = 0;

	if ((rc = bm__procfs_read(p, "/proc/self/cgroup", &text)) != 0)
		return rc;
	at = text;
	while ((line = throttle_line(&at)) != NULL) {
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
	free(text);
	if (!v1 && !v2)
		return -ENOENT;
	cg->version = v1 ? 1 : 2;
	return 0;
}

/*
 * Find the mount of the hierarchy in /proc/self/mountinfo (cgroup2, or a
 * cgroup mount with the cpu controller), else where it is usually
 * mounted: 0, or -EFBIG when mountinfo is refused.
 */
static int
throttle_find_mount(struct bm__procfs *p, struct throttle_hier *h, int v2)
{
	char *text = NULL, *at, *line, *f4, *f5, *dash, *type, *opts, *save;
	int i, found = 0;

	if (bm__procfs_read(p, "/proc/self/mountinfo", &text) == -EFBIG)
		return -EFBIG;
	at = text;
	while (!found && (line = throttle_line(&at)) != NULL) {
		if ((dash = strstr(line, " - ")) == NULL)
			continue;
		*dash = '\0';
		type = strtok_r(dash + 3, " ", &save);
		(void)strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " ", &save);
		if (type == NULL || (v2 ? strcmp(type, "cgroup2") != 0 :
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
		(void)snprintf(h->mount, sizeof h->mount, "%s", f5);
		found = 1;
	}
	free(text);
	if (found)
		return 0;
	/* No mountinfo: v2 alone at /sys/fs/cgroup, beside v1 at unified/. */
	(void)snprintf(h->file, sizeof h->file,
	    "%s/sys/fs/cgroup/cgroup.controllers", p->root);
	(void)snprintf(h->mroot, sizeof h->mroot, "/");
	(void)snprintf(h->mount, sizeof h->mount, "%s", !v2 ?
	    "/sys/fs/cgroup/cpu" : access(h->file, F_OK) == 0 ?
	    "/sys/fs/cgroup" : "/sys/fs/cgroup/unified");
	return 0;
}

/* The level above the one of len bytes of cg->dir; 0 above the top. */
static size_t
throttle_up(const struct bm__cgroup *cg, size_t len)
{
	if (len <= cg->top)
		return 0;
	while (len > cg->top && cg->dir[len - 1] != '/')
		len--;
	if (len > cg->top)
		len--;
	return len > cg->top ? len : cg->top;
}

/* A whole number above 0 read from a word of line (0 the first); 0 if none. */
static uint64_t
throttle_word(const char *line, int word)
{
	char w[2][64];
	uint64_t v;

	if (sscanf(line, "%63s %63s", w[0], w[1]) < word + 1 ||
	    bm_parse_uint(w[word], 1, UINT64_MAX, &v) != 0)
		return 0;
	return v;
}

/*
 * Read the quota of the level of len bytes of cg->dir (v2 cpu.max "QUOTA
 * PERIOD", v1 cpu.cfs_quota_us and cpu.cfs_period_us; "max" or -1 for
 * none) and keep it when it is the tightest share of a CPU so far: 0, or
 * -EFBIG when a file is refused.
 */
static int
throttle_quota(struct bm__procfs *p, struct throttle_hier *h,
    struct bm__cgroup *cg, size_t len)
{
	char line[128];
	uint64_t q, per;
	int rc;

	(void)snprintf(h->file, sizeof h->file, "%.*s/%s", (int)len, cg->dir,
	    cg->version == 2 ? "cpu.max" : "cpu.cfs_quota_us");
	if ((rc = bm__procfs_line(p, h->file, line, sizeof line)) == -EFBIG)
		return rc;
	q = rc == 0 ? throttle_word(line, 0) : 0;
	per = rc == 0 && cg->version == 2 ? throttle_word(line, 1) : 0;
	if (cg->version == 1 && q > 0) {
		(void)snprintf(h->file, sizeof h->file, "%.*s/%s", (int)len,
		    cg->dir, "cpu.cfs_period_us");
		if ((rc = bm__procfs_line(p, h->file, line, sizeof line)) ==
		    -EFBIG)
			return rc;
		per = rc == 0 ? throttle_word(line, 0) : 0;
	}
	if (q == 0 || per == 0 || (cg->quota_us > 0 && (double)q / (double)per
	    >= (double)cg->quota_us / (double)cg->period_us))
		return 0;
	cg->quota_us = q;
	cg->period_us = per;
	cg->quota_len = len;
	return 0;
}

/*
 * Find this process's cgroup of the CPU controller under p's root, and
 * the tightest quota from it up to its hierarchy's top: 0, -ENOENT when
 * there is none (no cgroup file, or a directory that is not there),
 * -EINVAL for a path with "..", or -EFBIG when a file is refused.
 */
int
bm__throttle_find(struct bm__procfs *p, struct bm__cgroup *cg)
{
	struct throttle_hier *h;
	struct stat st;
	const char *rel;
	size_t n, len;
	int rc;

	memset(cg, 0, sizeof(*cg));
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return -ENOMEM;
	if ((rc = throttle_find_path(p, h, cg)) != 0 ||
	    (rc = throttle_find_mount(p, h, cg->version == 2)) != 0)
		goto out;
	/* The path is relative to the mount's root (a cgroup namespace). */
	rel = h->path;
	n = strlen(h->mroot);
	rc = -ENOENT;
	if (strcmp(h->mroot, "/") != 0) {
		if (strncmp(rel, h->mroot, n) != 0 ||
		    (rel[n] != '/' && rel[n] != '\0'))
			goto out;
		rel += n;
	}
	rc = -EINVAL;
	if (strstr(rel, "/..") != NULL)
		goto out;
	rc = -ENAMETOOLONG;
	if (snprintf(cg->dir, sizeof cg->dir, "%s%s", h->mount, rel) >=
	    (int)sizeof cg->dir)
		goto out;
	cg->top = strlen(h->mount);
	len = strlen(cg->dir);
	while (len > cg->top && cg->dir[len - 1] == '/')
		cg->dir[--len] = '\0';
	rc = -ENOENT;
	if (snprintf(h->file, sizeof h->file, "%s%s", p->root, cg->dir) >=
	    (int)sizeof h->file || stat(h->file, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		goto out;
	cg->quota_len = len;
	rc = 0;
	for (; rc == 0 && len > 0; len = throttle_up(cg, len))
		rc = throttle_quota(p, h, cg, len);
out:
	free(h);
	return rc;
}

/*
 * Add the throttling counts of the cpu.stat of the level of len bytes of
 * cg->dir: 1 when it has them, 0 when not, or -EFBIG when it is refused.
 */
static int
throttle_add_stat(struct bm__procfs *p, const struct bm__cgroup *cg,
    size_t len, struct bm__throttle *t)
{
	char key[64], *file, *text, *at, *line;
	unsigned long long v;
	int got = 0, rc;

	/* (The path on the heap: a tool's stack may be 32 KB.) */
	if ((file = malloc(len + sizeof "/cpu.stat")) == NULL)
		return -ENOMEM;
	(void)sprintf(file, "%.*s/cpu.stat", (int)len, cg->dir);
	rc = bm__procfs_read(p, file, &text);
	free(file);
	if (rc != 0)
		return rc == -EFBIG ? rc : 0;
	at = text;
	while ((line = throttle_line(&at)) != NULL) {
		if (sscanf(line, "%63s %llu", key, &v) != 2)
			continue;
		if (strcmp(key, "nr_throttled") == 0) {
			t->nr_throttled += v;
			got = 1;
		} else if (cg->version == 2 &&
		    strcmp(key, "throttled_usec") == 0) {
			t->throttled_ns += v * 1000u;
		} else if (cg->version == 1 &&
		    strcmp(key, "throttled_time") == 0) {
			t->throttled_ns += v;
		}
	}
	free(text);
	return got;
}

/*
 * Sum the throttling of cg and its ancestors under p's root into t, and
 * give it cg's quota: 0 with t filled (t->known 0 when no cpu.stat has
 * the counts), -EFBIG when a file is refused, or -ENOMEM.
 */
int
bm__throttle_count(struct bm__procfs *p, const struct bm__cgroup *cg,
    struct bm__throttle *t)
{
	size_t len;
	int rc;

	memset(t, 0, sizeof(*t));
	if (cg->quota_us > 0)
		t->quota_cpus = (double)cg->quota_us / (double)cg->period_us;
	for (len = strlen(cg->dir); len > 0; len = throttle_up(cg, len)) {
		if ((rc = throttle_add_stat(p, cg, len, t)) < 0)
			return rc;
		t->known |= rc;
	}
	return 0;
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
	struct {
		struct bm__procfs p;
		struct bm__cgroup cg;
	} *r;
	int rc;

	memset(t, 0, sizeof(*t));
	/* On the heap (8 KB): a tool's stack may be 32 KB. */
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return -ENOMEM;
	r->p.root = root;
	if ((rc = bm__throttle_find(&r->p, &r->cg)) == 0)
		rc = bm__throttle_count(&r->p, &r->cg, t);
	free(r);
	return rc;
}
