/* opts.c: the options every subcommand of benchmp shares: -h, -V, a value missing, an option unknown. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "opts.h"

/* The status after printing to stdout: 0, or 1 when stdout failed. */
int
opts_printed(const char *prog)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "%s: writing to standard output failed\n", prog);
	return 1;
}

/* The exit status of -h, -V, a missing value or an unknown option. */
int
opts_common(int c, const struct opts_cmd *cmd, char **argv)
{
	switch (c) {
	case 'h':
		cmd->usage(stdout, cmd->prog);
		return opts_printed(cmd->prog);
	case 'V':
		printf("%s %s\n", cmd->prog, PACKAGE_VERSION);
		return opts_printed(cmd->prog);
	case ':':
		return cmd->bad(cmd->prog, "an option needs a value:",
		    argv[optind - 1]);
	default:
		return cmd->bad(cmd->prog, "unknown option", argv[optind - 1]);
	}
}
