/* check_throttle.c: CPU quota throttling read from fake cgroup trees. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "internal.h"

/* The fake tree of the test (check_tree_new). */
static const char *tree;

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

	tree = check_tree_new("check_throttle");
	check_tree_write("proc/self/cgroup", "0::/a/b\n");
	check_tree_write("proc/self/mountinfo",
	    MI_OTHER MI_V2("/sys/fs/cgroup"));
	check_tree_write("sys/fs/cgroup/cpu.stat", "usage_usec 9\n"
	    "nr_periods 1\nnr_throttled 1\nthrottled_usec 10\n");
	check_tree_write("sys/fs/cgroup/a/cpu.stat", "usage_usec 5\n"
	    "nr_periods 7\nnr_throttled 6\nthrottled_usec 354000\n"
	    "nr_bursts 0\n");
	check_tree_write("sys/fs/cgroup/a/cpu.max", "10000 100000\n");
	check_tree_write("sys/fs/cgroup/a/b/cpu.stat", "usage_usec 5\n"
	    "nr_throttled 2\nthrottled_usec 1000\n");
	check_tree_write("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 9);
	ck_assert_uint_eq(t.throttled_ns, 355010000u);
	ck_assert_double_eq_tol(t.quota_cpus, 0.1, 1e-12);
	check_tree_free();
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

	tree = check_tree_new("check_throttle");
	check_tree_write("proc/self/cgroup", "9:name=systemd:/\n"
	    "4:memory:/x\n2:cpu,cpuacct:/job\n0::/\n");
	check_tree_write("proc/self/mountinfo", MI_OTHER
	    MI_V1("/sys/fs/cgroup/memory", "memory")
	    MI_V1("/sys/fs/cgroup/cpu\\040acct", "cpu,cpuacct")
	    MI_V2("/sys/fs/cgroup/unified"));
	check_tree_write("sys/fs/cgroup/unified/cpu.stat", "usage_usec 1\n"
	    "nr_throttled 100\nthrottled_usec 100\n");
	check_tree_write("sys/fs/cgroup/cpu acct/cpu.stat", "nr_periods 0\n"
	    "nr_throttled 0\nthrottled_time 0\n");
	check_tree_write("sys/fs/cgroup/cpu acct/job/cpu.stat", "nr_periods 9\n"
	    "nr_throttled 4\nthrottled_time 2500\n");
	check_tree_write("sys/fs/cgroup/cpu acct/job/cpu.cfs_quota_us",
	    "50000\n");
	check_tree_write("sys/fs/cgroup/cpu acct/job/cpu.cfs_period_us",
	    "100000\n");
	check_tree_write("sys/fs/cgroup/cpu acct/cpu.cfs_quota_us", "-1\n");
	check_tree_write("sys/fs/cgroup/cpu acct/cpu.cfs_period_us",
	    "100000\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 4);
	ck_assert_uint_eq(t.throttled_ns, 2500);
	ck_assert_double_eq_tol(t.quota_cpus, 0.5, 1e-12);
	check_tree_free();
}
END_TEST

/*
 * A cgroup namespace: the mount's root is the process's cgroup, whose
 * path /proc/self/cgroup gives in full; the mount point is its directory.
 */
START_TEST(test_v2_namespace)
{
	struct bm__throttle t;

	tree = check_tree_new("check_throttle");
	check_tree_write("proc/self/cgroup", "0::/ns/leaf\n");
	check_tree_write("proc/self/mountinfo",
	    "30 25 0:26 /ns /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	check_tree_write("sys/fs/cgroup/leaf/cpu.stat", "nr_throttled 3\n"
	    "throttled_usec 7\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 3);
	ck_assert_uint_eq(t.throttled_ns, 7000);
	ck_assert(t.quota_cpus == 0);
	check_tree_free();
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

	tree = check_tree_new("check_throttle");
	ck_assert_int_eq(bm__throttle_read(tree, &t), -ENOENT);
	ck_assert_int_eq(t.known, 0);
	check_tree_write("proc/self/cgroup", "0::/a\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), -ENOENT);
	check_tree_write("proc/self/mountinfo",
	    MI_OTHER MI_V1("/sys/fs/cgroup/cpu", "cpu"));
	ck_assert_int_eq(bm__throttle_read(tree, &t), -ENOENT);
	check_tree_write("proc/self/mountinfo",
	    MI_OTHER MI_V2("/sys/fs/cgroup"));
	check_tree_write("sys/fs/cgroup/a/cpu.stat", "usage_usec 5\n"
	    "user_usec 3\nsystem_usec 2\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), 0);
	ck_assert_int_eq(t.known, 0);
	ck_assert_uint_eq(t.nr_throttled, 0);
	check_tree_write("proc/self/cgroup", "0::/a/../../x\n");
	ck_assert_int_eq(bm__throttle_read(tree, &t), -EINVAL);
	check_tree_free();
}
END_TEST

/*
 * The two steps: the cgroup and its tightest quota found once (the quota's
 * folder a prefix of the cgroup's), the counts read under another root
 * (a later reading of the same files) with the same cgroup.
 */
START_TEST(test_find_count)
{
	struct bm__procfs p = { .root = "" };
	struct bm__cgroup cg;
	struct bm__throttle t;
	char later[PATH_MAX];

	tree = check_tree_new("check_throttle");
	p.root = tree;
	check_tree_write("proc/self/cgroup", "0::/a/b/c\n");
	check_tree_write("proc/self/mountinfo",
	    MI_OTHER MI_V2("/sys/fs/cgroup"));
	check_tree_write("sys/fs/cgroup/a/cpu.max", "150000 100000\n");
	check_tree_write("sys/fs/cgroup/a/b/cpu.max", "50000 100000\n");
	check_tree_write("sys/fs/cgroup/a/b/c/cpu.max", "max 100000\n");
	check_tree_write("sys/fs/cgroup/a/b/cpu.stat", "nr_throttled 7\n");
	check_tree_write("later/sys/fs/cgroup/a/b/cpu.stat",
	    "nr_throttled 9\n");
	check_tree_write("later/sys/fs/cgroup/a/cpu.stat", "nr_throttled 1\n");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), 0);
	ck_assert_int_eq(cg.version, 2);
	ck_assert_str_eq(cg.dir, "/sys/fs/cgroup/a/b/c");
	ck_assert_uint_eq(cg.top, strlen("/sys/fs/cgroup"));
	ck_assert_uint_eq(cg.quota_len, strlen("/sys/fs/cgroup/a/b"));
	ck_assert_uint_eq(cg.quota_us, 50000);
	ck_assert_uint_eq(cg.period_us, 100000);
	ck_assert_int_eq(bm__throttle_count(&p, &cg, &t), 0);
	ck_assert_int_eq(t.known, 1);
	ck_assert_uint_eq(t.nr_throttled, 7);
	ck_assert_double_eq_tol(t.quota_cpus, 0.5, 1e-12);
	(void)snprintf(later, sizeof later, "%s/later", tree);
	p.root = later;
	ck_assert_int_eq(bm__throttle_count(&p, &cg, &t), 0);
	ck_assert_uint_eq(t.nr_throttled, 10);
	check_tree_free();
}
END_TEST

/*
 * Without a mount in mountinfo (or without mountinfo) the hierarchy is
 * where it is usually mounted: v1's cpu at /sys/fs/cgroup/cpu, v2 at
 * /sys/fs/cgroup when it holds cgroup.controllers, else beside v1 at
 * /sys/fs/cgroup/unified; a cgroup outside the mount's root is none.
 */
START_TEST(test_usual_mounts)
{
	struct bm__procfs p = { .root = "" };
	struct bm__cgroup cg;

	tree = check_tree_new("check_throttle");
	p.root = tree;
	check_tree_write("proc/self/cgroup", "3:cpu:/batch\n0::/\n");
	check_tree_write("sys/fs/cgroup/cpu/batch/cpu.cfs_quota_us",
	    "20000\n");
	check_tree_write("sys/fs/cgroup/cpu/batch/cpu.cfs_period_us",
	    "100000\n");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), 0);
	ck_assert_int_eq(cg.version, 1);
	ck_assert_str_eq(cg.dir, "/sys/fs/cgroup/cpu/batch");
	ck_assert_uint_eq(cg.quota_us, 20000);
	check_tree_write("proc/self/cgroup", "0::/job\n");
	check_tree_write("sys/fs/cgroup/unified/job/cpu.max", "max 100000\n");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), 0);
	ck_assert_str_eq(cg.dir, "/sys/fs/cgroup/unified/job");
	ck_assert_uint_eq(cg.quota_us, 0);
	ck_assert_uint_eq(cg.quota_len, strlen(cg.dir));
	check_tree_write("sys/fs/cgroup/cgroup.controllers", "cpu io\n");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), -ENOENT);
	check_tree_write("sys/fs/cgroup/job/cpu.max", "max 100000\n");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), 0);
	ck_assert_str_eq(cg.dir, "/sys/fs/cgroup/job");
	check_tree_write("proc/self/mountinfo",
	    "30 25 0:26 /other /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), -ENOENT);
	check_tree_free();
}
END_TEST

/* A file beyond the bounds refuses the search, naming it. */
START_TEST(test_refused)
{
	struct bm__procfs p = { .root = "" };
	struct bm__cgroup cg;

	tree = check_tree_new("check_throttle");
	p.root = tree;
	check_tree_write("proc/self/cgroup", "0::/\n");
	check_tree_link("proc/self/mountinfo", "/dev/zero");
	ck_assert_int_eq(bm__throttle_find(&p, &cg), -EFBIG);
	ck_assert_ptr_nonnull(strstr(p.refused, "/proc/self/mountinfo: "
	    "larger than 16 MB"));
	check_tree_free();
}
END_TEST

/* Run the suite. */
int
main(void)
{
	const TTest *const tests[] = {
		test_v2_nested, test_v1_hybrid, test_v2_namespace,
		test_unknown, test_find_count, test_usual_mounts, test_refused
	};

	return check_suite_main("throttle", 30, tests,
	    sizeof(tests) / sizeof(tests[0]));
}
