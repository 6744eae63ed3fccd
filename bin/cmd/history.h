/* history.h: benchmp history, intervals widened to a figure's past runs on the machine (history.c). */
#ifndef BM_HISTORY_H
#define BM_HISTORY_H

#include <stdio.h>

/* Run benchmp history with its arguments; the exit status. */
int history_main(const char *prog, int argc, char **argv);
/* Print the usage text to f. */
void history_usage(FILE *f, const char *prog);

#endif /* BM_HISTORY_H */
