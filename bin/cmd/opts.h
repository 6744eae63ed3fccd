/* opts.h: the options every subcommand of benchmp shares, -h, -V and the usage errors (opts.c). */
#ifndef BM_OPTS_H
#define BM_OPTS_H

#include <stdio.h>

/*
 * A subcommand as its options see it: its name for messages, its usage
 * text, and how it says a usage error (returning its usage status).
 */
struct opts_cmd {
	const char *prog;
	void (*usage)(FILE *f, const char *prog);
	int (*bad)(const char *prog, const char *what, const char *arg);
};

/*
 * The exit status of what getopt_long returned (c) that is not the
 * subcommand's own option: -h prints the usage to stdout, -V the
 * version (0, or 1 when stdout fails); ':' (a value missing) and
 * anything else (an option unknown) are usage errors named by argv.
 */
int opts_common(int c, const struct opts_cmd *cmd, char **argv);
/* The status after printing to stdout: 0, or 1 with a message naming prog. */
int opts_printed(const char *prog);

#endif /* BM_OPTS_H */
