/* whole.h: an output written whole, through a device or renamed over the file (whole.c). */
#ifndef BM_WHOLE_H
#define BM_WHOLE_H

#include <stddef.h>

/*
 * Check before anything is made that path can be written: *through is 1
 * for a character device or FIFO (written through), 0 for a file that a
 * copy is renamed over; 0, or -1 with a message naming prog.
 */
int whole_check(const char *prog, const char *path, int *through);
/*
 * Write size bytes of buf to path whole or not at all: through it, or
 * to a copy beside it named by part ("/.NAME.XXXXXX") renamed over it;
 * 0, or -1 with a message naming prog.
 */
int whole_write(const char *prog, const char *path, const char *part,
    int through, const char *buf, size_t size);

#endif /* BM_WHOLE_H */
