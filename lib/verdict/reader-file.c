/* reader-file.c: a file of stored records read, one figure a key, the last record of a figure counting. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/* The key of the figure at place at of a set (a bm__keymap_key). */
static const char *
reader_file_key(const void *arg, size_t at)
{
	const struct bm__figset *set = arg;

	return set->fig[at].key;
}

/* Add f to set, in place of its key's figure if there is one (the last record counts); its place in *at. */
int
bm__reader_add(struct bm__figset *set, struct bm__fig *f, size_t *at)
{
	struct bm__fig *grown;
	uint64_t hash = bm__keymap_hash(f->key);
	size_t i, cap;

	if (bm__keymap_find_hash(&set->map, hash, f->key, reader_file_key,
	    set, &i)) {
		bm__reader_fig_free(&set->fig[i]);
		set->fig[i] = *f;
		*at = i;
		return 0;
	}
	if (set->n == set->cap) {
		cap = set->cap > 0 ? 2 * set->cap : 64;
		if (cap > SIZE_MAX / sizeof *grown ||
		    (grown = realloc(set->fig, cap * sizeof *grown)) == NULL)
			return -ENOMEM;
		set->fig = grown;
		set->cap = cap;
	}
	if (bm__keymap_add_hash(&set->map, hash, set->n) != 0)
		return -ENOMEM;
	*at = set->n;
	set->fig[set->n++] = *f;
	return 0;
}

/* The figure of set with key, or NULL. */
const struct bm__fig *
bm__reader_find(const struct bm__figset *set, const char *key)
{
	size_t i;

	return bm__keymap_find(&set->map, key, reader_file_key, set, &i) ?
	    &set->fig[i] : NULL;
}

/* Make the figure of one record and add it to a set (the bm__reader_lines callback of bm__reader_buf). */
static int
reader_file_figure(void *arg, struct bm__jval *rec, size_t line, char *why,
    size_t whysize)
{
	struct bm__figset *set = arg;
	struct bm__fig f;
	size_t at;
	int rc = bm__reader_figure(rec, &f);

	bm__jval_free(rec);
	if (rc != 0) {
		snprintf(why, whysize, "line %zu: out of memory", line);
		return rc;
	}
	f.line = line;
	if ((rc = bm__reader_add(set, &f, &at)) != 0) {
		bm__reader_fig_free(&f);
		snprintf(why, whysize, "line %zu: out of memory", line);
	}
	return rc;
}

/*
 * Parse one line (number line), check that it is a record of the right
 * shape and hand it to each; a blank line is skipped.
 */
static int
reader_file_line(const char *p, size_t len, size_t line,
    bm__reader_each each, void *arg, char *why, size_t whysize)
{
	struct bm__jval *rec;
	const struct bm__jval *tool;
	const char *msg = NULL;
	char shape[160];
	size_t at = 0, i;
	int rc;

	for (i = 0; i < len && strchr(" \t\r", p[i]) != NULL; i++)
		;
	if (i == len)
		return 0;
	if (len > BM__JSON_LINE_MAX) {
		snprintf(why, whysize, "line %zu is longer than %u MB", line,
		    BM__JSON_LINE_MAX >> 20);
		return BM_ERANGE;
	}
	if ((rc = bm__jparse(p, len, &rec, &at, &msg)) != 0) {
		snprintf(why, whysize, "line %zu: invalid JSON at byte %zu: %s",
		    line, at + 1, msg != NULL ? msg : "out of memory");
		return rc;
	}
	tool = bm__jget(rec, "tool");
	if ((rc = bm__reader_shape(rec, shape, sizeof shape)) != 0) {
		snprintf(why, whysize, "line %zu: %s", line, shape);
	} else if (tool == NULL || tool->type != BM__J_STRING) {
		snprintf(why, whysize, "line %zu: not a record (a JSON object "
		    "with a \"tool\" string)", line);
		rc = BM_EPARSE;
	} else {
		return each(arg, rec, line, why, whysize);
	}
	bm__jval_free(rec);
	return rc;
}

/* Hand every line of buf that is not blank, parsed and checked, to each. */
int
bm__reader_lines(const char *buf, size_t len, bm__reader_each each, void *arg,
    char *why, size_t whysize)
{
	size_t at = 0, line = 0;
	int rc;

	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl != NULL ? (size_t)(nl - buf) : len;

		line++;
		if ((rc = reader_file_line(buf + at, end - at, line, each, arg,
		    why, whysize)) != 0)
			return rc;
		at = end + 1;
	}
	return 0;
}

/* Read records from a buffer, one a line. */
int
bm__reader_buf(const char *buf, size_t len, struct bm__figset *set,
    char *why, size_t whysize)
{
	int rc;

	memset(set, 0, sizeof *set);
	if ((rc = bm__reader_lines(buf, len, reader_file_figure, set, why,
	    whysize)) != 0)
		bm__reader_free(set);
	return rc;
}

/* Read a whole file, within BM__READER_FILE_MAX, into a malloc'd buffer. */
int
bm__reader_slurp(const char *path, char **out, size_t *outlen, char *why,
    size_t whysize)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0, got;
	int rc = 0;

	*out = NULL;
	*outlen = 0;
	if (fp == NULL) {
		rc = -errno;
		snprintf(why, whysize, "cannot read: %s", strerror(errno));
		return rc;
	}
	errno = 0;
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1u << 20;
			if ((grown = realloc(buf, cap)) == NULL) {
				rc = -ENOMEM;
				snprintf(why, whysize, "out of memory");
				goto out;
			}
			buf = grown;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
		if (len > BM__READER_FILE_MAX) {
			rc = BM_ERANGE;
			snprintf(why, whysize, "larger than %u MB",
			    BM__READER_FILE_MAX >> 20);
			goto out;
		}
	} while (got > 0);
	if (ferror(fp)) {
		rc = errno != 0 ? -errno : -EIO;
		snprintf(why, whysize, "cannot read: %s", strerror(-rc));
		goto out;
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	buf = NULL;
out:
	free(buf);
	fclose(fp);
	return rc;
}

/* Hand each record of a file, one a line, to each. */
int
bm__reader_records(const char *path, bm__reader_each each, void *arg,
    char *why, size_t whysize)
{
	char *buf;
	size_t len;
	int rc;

	if ((rc = bm__reader_slurp(path, &buf, &len, why, whysize)) != 0)
		return rc;
	rc = bm__reader_lines(buf, len, each, arg, why, whysize);
	free(buf);
	return rc;
}

/* Read a file of records. */
int
bm__reader_file(const char *path, struct bm__figset *set, char *why,
    size_t whysize)
{
	int rc;

	memset(set, 0, sizeof *set);
	if ((rc = bm__reader_records(path, reader_file_figure, set, why,
	    whysize)) != 0)
		bm__reader_free(set);
	return rc;
}
