/* check_throttle.c: CPU quota throttling read from fake cgroup trees. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_common.h"
#include "internal.h"

/* The fake tree's root, made fresh by every test. */
static char tree[PATH_MAX];

/* Make the directory tree/rel and its parents. */
static void
tree_mkdir(const char *rel)
{
	char path[PATH_MAX], *p;

	ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s", tree, rel),
	    (int)sizeof path);
	for (p = path + strlen(tree) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		ck_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
		*p = '/';
	}
	ck_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
}

/* Write the file tree/rel (its directory made first) from a format. */
static void
tree_write(const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	va_list ap;
	FILE *f;

	(void)snprintf(dir, sizeof dir, "%s", rel);
	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		tree_mkdir(dir);
	}
	(void)snprintf(path, sizeof path, "%s/%s", tree, rel);
	ck_assert((f = fopen(path, "w")) != NULL);
	va_start(ap, fmt);
	(void)vfprintf(f, fmt, ap);
	va_end(ap);
	ck_assert_int_eq(fclose(f), 0);
}

/* A fresh, empty tree under $TMPDIR (removed by the test's process end). */
static void
tree_new(void)
{
	const char *tmp = getenv("TMPDIR");

	(void)snprintf(tree, sizeof tree, "%s/check_throttle.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	ck_assert(mkdtemp(tree) != NULL);
}

/* Remove the tree (rm -r: the test made every file in it). */
static void
tree_free(void)
{
	char cmd[PATH_MAX + 16];

	(void)snprintf(cmd, sizeof cmd, "rm -rf '%s'", tree);
	ck_assert_int_eq(system(cmd), 0);
}

/* The mountinfo line of a cgroup2 mount at mnt, and of a v1 one. */
#define MI_V2(mnt) "30 25 0:26 / " mnt " rw,nosuid - cgroup2 cgroup2 rw\n"
#define MI_V1(mnt, opts) \
	"31 25 0:27 / " mnt " rw,nosuid - cgroup cgroup rw," opts "\n"
#define MI_OTHER "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"

/*
 * cgroup v2: a quota on the parent, throttling counted at the leaf and
 * its ancestors, summed; the tightest quota wins.
 */
START_TEST(test_v2_nested)
{
	struct bm__throttle t;

	tree_new();
	tree_write("proc/self/cgroup", "0::/a/b\n");
	tree_write("proc/self/mountinfo", MI_OTHER MI_V2("/sys/fs/cgroup"));
	tree_write("sys/fs/cgroup/cpu.stat", "usage_usec 9\nnr_periods 1\n"
	    "nr_throttled 1\nthrottled_usec 10\n");
	tree_write("sys/fs/cgroup/a/cpu.stat", "usage_usec 5\nnr_periods 7\n"
	    "nr_throttled 6\nthrottled_usec 354000\nnr_bursts 0\n");
	tree_write("sys/fs/cgroup/a/cpu.max", "10000 100000\n");
	tree_write("sys/fs/cgroup/a/b/cpu.stat", "usage_usec 5\n"
	    "nr_throttled 2\nthrottled_usec 1000\n");
	tree_write("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 9);
	ck_assert_uint_eq(t.throttled_ns, 355010000u);
	ck_assert_double_eq_tol(t.quota_cpus, 0.1, 1e-12);
	tree_free();
}
END_TEST

/*
 * cgroup v1 (a hybrid host): the cpu controller's line and mount win over
 * the unified hierarchy, throttled_time is in ns, and the mount point has
 * an escaped space and is shared with cpuacct.
 */
START_TEST(test_v1_hybrid)
{
	struct bm__throttle t;

	tree_new();
	tree_write("proc/self/cgroup", "9:name=systemd:/\n"
	    "4:memory:/x\n2:cpu,cpuacct:/job\n0::/\n");
	tree_write("proc/self/mountinfo", MI_OTHER
	    MI_V1("/sys/fs/cgroup/memory", "memory")
	    MI_V1("/sys/fs/cgroup/cpu\\040acct", "cpu,cpuacct")
	    MI_V2("/sys/fs/cgroup/unified"));
	tree_write("sys/fs/cgroup/unified/cpu.stat", "usage_usec 1\n"
	    "nr_throttled 100\nthrottled_usec 100\n");
	tree_write("sys/fs/cgroup/cpu acct/cpu.stat", "nr_periods 0\n"
	    "nr_throttled 0\nthrottled_time 0\n");
	tree_write("sys/fs/cgroup/cpu acct/job/cpu.stat", "nr_periods 9\n"
	    "nr_throttled 4\nthrottled_time 2500\n");
	tree_write("sys/fs/cgroup/cpu acct/job/cpu.cfs_quota_us", "50000\n");
	tree_write("sys/fs/cgroup/cpu acct/job/cpu.cfs_period_us", "100000\n");
	tree_write("sys/fs/cgroup/cpu acct/cpu.cfs_quota_us", "-1\n");
	tree_write("sys/fs/cgroup/cpu acct/cpu.cfs_period_us", "100000\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 4);
	ck_assert_uint_eq(t.throttled_ns, 2500);
	ck_assert_double_eq_tol(t.quota_cpus, 0.5, 1e-12);
	tree_free();
}
END_TEST

/*
 * A cgroup namespace: the mount's root is the process's cgroup, whose
 * path /proc/self/cgroup gives in full; the mount point is its directory.
 */
START_TEST(test_v2_namespace)
{
	struct bm__throttle t;

	tree_new();
	tree_write("proc/self/cgroup", "0::/ns/leaf\n");
	tree_write("proc/self/mountinfo",
	    "30 25 0:26 /ns /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	tree_write("sys/fs/cgroup/leaf/cpu.stat", "nr_throttled 3\n"
	    "throttled_usec 7\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 3);
	ck_assert_uint_eq(t.throttled_ns, 7000);
	ck_assert(t.quota_cpus == 0);
	tree_free();
}
END_TEST

/*
 * Without the cpu controller (a cpu.stat with usage only) nothing is
 * known; without a cgroup file or a mount the read fails; a path with
 * ".." is refused.
 */
START_TEST(test_unknown)
{
	struct bm__throttle t;

	tree_new();
	ck_assert_int_eq(bm__throttle_read(tree, &t), -ENOENT);
	ck_assert_int_eq(t.known, 0);
	tree_write("proc/self/cgroup", "0::/a\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), -ENOENT);
	tree_write("proc/self/mountinfo", MI_OTHER MI_V1("/sys/fs/cgroup/cpu",
	    "cpu"));
	ck_assert_int_eq(bm__throttle_read(tree, &t), -ENOENT);
	tree_write("proc/self/mountinfo", MI_OTHER MI_V2("/sys/fs/cgroup"));
	tree_write("sys/fs/cgroup/a/cpu.stat", "usage_usec 5\n"
	    "user_usec 3\nsystem_usec 2\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 0);
	ck_assert_uint_eq(t.nr_throttled, 0);
	tree_write("proc/self/cgroup", "0::/a/../../x\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), -EINVAL);
	tree_free();
}
END_TEST

/* Run the suite. */
int
main(void)
{
	const TTest *const tests[] = {
		test_v2_nested, test_v1_hybrid, test_v2_namespace,
		test_unknown
	};

	return check_suite_main("throttle", 30, tests,
	    sizeof(tests) / sizeof(tests[0]));
}
