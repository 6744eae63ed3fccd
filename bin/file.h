/* file.h: what the file-reading tools share: checking and cloning their file. */
#ifndef BM_FILE_H
#define BM_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "tool.h"

/*
 * Check that path is a regular file we can read, holding at least min
 * bytes; exit 1 naming it otherwise.  Returns its size.  The file is only
 * ever opened read-only.
 */
uint64_t file_check(struct tool *t, const char *path, uint64_t min);

/*
 * -C: copy the first size bytes of src to dir/clone.N for worker N, so
 * parallel workers do not share one file's pages; the copy's path goes to
 * out.  0 or -errno.
 */
int file_clone(const char *src, const char *dir, unsigned worker,
    uint64_t size, char *out, size_t outlen);

/* Sum size bytes as words, so every byte is really read; returns the sum. */
uint64_t file_sum(const void *buf, size_t size);

/* From this size of a pass on, file_pass_bound() bounds the waits. */
#define FILE_BIG_PASS ((uint64_t)1000 * 1000 * 1000)

/* Bound the waits of a run whose operation passes over bytes of a file. */
void file_pass_bound(struct tool *t, uint64_t bytes);

#endif /* BM_FILE_H */
