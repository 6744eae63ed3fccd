/* check_procfs.c: /proc and /sys files read under a root, within bounds. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_common.h"
#include "internal.h"

/* A root at a fresh tree. */
static struct bm__procfs
procfs_at(void)
{
	struct bm__procfs p;

	memset(&p, 0, sizeof p);
	p.root = check_tree_new("check_procfs");
	return p;
}

/* A whole file is read; a missing one is an error, not a refusal. */
START_TEST(test_read)
{
	struct bm__procfs p = procfs_at();
	char *text;

	check_tree_write("proc/stat", "cpu 1 2\nintr 3\n");
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/stat", &text), 0);
	ck_assert_str_eq(text, "cpu 1 2\nintr 3\n");
	free(text);
	check_tree_write("proc/empty", "%s", "");
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/empty", &text), 0);
	ck_assert_str_eq(text, "");
	free(text);
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/none", &text), -ENOENT);
	ck_assert_ptr_null(text);
	ck_assert_str_eq(p.refused, "");
	check_tree_free();
}
END_TEST

/*
 * /dev/zero as a file and a line of 2 MB are refused, naming the file and
 * the line, and then nothing more is read under the root; a line of 1 MB
 * is not refused.
 */
START_TEST(test_refused)
{
	struct bm__procfs p = procfs_at();
	char *text, *line;

	check_tree_write("proc/x", "%s", "");
	check_tree_link("proc/x", "/dev/zero");
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/x", &text), -EFBIG);
	ck_assert_ptr_null(text);
	ck_assert_ptr_nonnull(strstr(p.refused, "/proc/x: larger than 16 MB"));
	check_tree_write("proc/stat", "cpu 1 2\n");
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/stat", &text), -EFBIG);
	p.refused[0] = '\0';
	ck_assert_ptr_nonnull(line = malloc(2 * BM__PROCFS_MAX_LINE + 1));
	memset(line, 'x', 2 * BM__PROCFS_MAX_LINE);
	line[2 * BM__PROCFS_MAX_LINE] = '\0';
	check_tree_write("proc/long", "short\n%s\n", line);
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/long", &text), -EFBIG);
	ck_assert_ptr_nonnull(strstr(p.refused,
	    "/proc/long: line 2 is longer than 1 MB"));
	p.refused[0] = '\0';
	line[BM__PROCFS_MAX_LINE] = '\0';
	check_tree_write("proc/long", "short\n%s", line);
	ck_assert_int_eq(bm__procfs_read(&p, "/proc/long", &text), 0);
	ck_assert_uint_eq(strlen(text), 6 + BM__PROCFS_MAX_LINE);
	free(text);
	free(line);
	check_tree_free();
}
END_TEST

/* The first line, cut to the buffer. */
START_TEST(test_line)
{
	struct bm__procfs p = procfs_at();
	char buf[8];

	check_tree_write("proc/loadavg", "0.05 0.10 0.20 1/100 1234\nmore\n");
	ck_assert_int_eq(bm__procfs_line(&p, "/proc/loadavg", buf,
	    sizeof buf), 0);
	ck_assert_str_eq(buf, "0.05 0.");
	check_tree_write("proc/one", "1");
	ck_assert_int_eq(bm__procfs_line(&p, "/proc/one", buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "1");
	ck_assert_int_eq(bm__procfs_line(&p, "/proc/none", buf, sizeof buf),
	    -ENOENT);
	ck_assert_str_eq(buf, "");
	check_tree_free();
}
END_TEST

/*
 * A sysfs value ends at its newline or its first NUL: /dev/zero is no
 * value; a first line that fills what is read is refused.
 */
START_TEST(test_value)
{
	struct bm__procfs p = procfs_at();
	char buf[64], *line;

	check_tree_write("sys/gov", "performance\n");
	ck_assert_int_eq(bm__procfs_value(&p, "/sys/gov", buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "performance");
	check_tree_link("sys/gov", "/dev/zero");
	ck_assert_int_eq(bm__procfs_value(&p, "/sys/gov", buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_ptr_nonnull(line = malloc(BM__PROCFS_MAX_VALUE + 1));
	memset(line, 'x', BM__PROCFS_MAX_VALUE);
	line[BM__PROCFS_MAX_VALUE] = '\0';
	check_tree_write("sys/big", "%s", line);
	ck_assert_int_eq(bm__procfs_value(&p, "/sys/big", buf, sizeof buf),
	    -EFBIG);
	ck_assert_ptr_nonnull(strstr(p.refused,
	    "/sys/big: a first line of 64 KB or more"));
	p.refused[0] = '\0';
	line[BM__PROCFS_MAX_VALUE - 2] = '\0';
	check_tree_write("sys/big", "%s\n", line);
	ck_assert_int_eq(bm__procfs_value(&p, "/sys/big", buf, sizeof buf), 0);
	ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
	free(line);
	check_tree_free();
}
END_TEST

/* A FIFO without a writer reads as empty at once (the suite's timeout). */
START_TEST(test_fifo)
{
	struct bm__procfs p = procfs_at();
	char path[PATH_MAX], buf[16], *text;

	(void)snprintf(path, sizeof path, "%s/fifo", p.root);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(bm__procfs_read(&p, "/fifo", &text), 0);
	ck_assert_str_eq(text, "");
	free(text);
	ck_assert_int_eq(bm__procfs_value(&p, "/fifo", buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "");
	check_tree_free();
}
END_TEST

/* Run the suite. */
int
main(void)
{
	const TTest *const tests[] = {
		test_read, test_refused, test_line, test_value, test_fifo
	};

	return check_suite_main("procfs", 30, tests,
	    sizeof(tests) / sizeof(tests[0]));
}
