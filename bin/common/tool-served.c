/*
 * tool-served.c: a tool run by hand as one experiment.  With --served=S
 * the tool runs itself again under benchmp-sched (the program beside it,
 * else the one on PATH), which keeps its workers set up and visits its
 * figures in short slices spread over S seconds: the figures then rest on
 * the whole of S rather than on a few fresh processes.  The tool's lines
 * and records are the same; benchmp-sched(1) says how.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "tool.h"
#include "tool-private.h"

#define SERVED_SCHED "benchmp-sched"

/* Whether a scheduler serves this process already (BENCHMP_SERVE). */
int
tool_served_inside(void)
{
	const char *v = getenv("BENCHMP_SERVE");

	return v != NULL && *v != '\0';
}

/*
 * Whether this process serves an A/B's arm (BENCHMP_SERVE_ARM, read as
 * the engine reads it): its scheduler pairs the figures it was told of,
 * one by one, and expects no more.
 */
int
tool_served_arm(void)
{
	const char *v = getenv("BENCHMP_SERVE_ARM");

	return tool_served_inside() && v != NULL && *v != '\0';
}

/*
 * Exec benchmp-sched --budget S [--precision P] -- [figures=N [parts=K]]
 * SELF ARGS: the words the tool was given (argv, argc of them, as before
 * getopt moved them), --served with them, which the tool then served
 * ignores.  figures= and parts= tell benchmp-sched what the run measures
 * one after another: without them it took the first figure for the
 * whole run's, gave it most of the visits and the others their 5 after
 * the budget (lat_ctx -s 0 2 --served=0.67: its overhead 17 visits, the
 * ring 5, in 0.96 s; a 2-vCPU AMD EPYC guest, 2026-11-30).  Returns only
 * on failure, after saying why.
 */
void
tool_served_exec(struct tool *t, int argc, char **argv, unsigned figures,
    unsigned parts)
{
	/* Static: 8 KB off a stack that a user may limit to 32 KB. */
	static char self[4096], sched[4096 + sizeof(SERVED_SCHED)];
	char budget[32];
	char prec[32], nfig[32], npart[32], **av, *slash;
	ssize_t len;
	int i, n = 0;

	if (t->processes != NULL || t->max_time_s > 0)
		tool_exit_usage(t, "--served takes the place of --processes "
		    "and --max-time: give one or the other");
	if (cluster_active())
		tool_exit_usage(t, "--served is not for a run under MPI");
	/*
	 * Itself: as it was run when that names a path (a build tree's
	 * libtool wrapper), else what the kernel says; benchmp-sched beside
	 * it (or beside the directory a wrapper's program is in), else on
	 * PATH.
	 */
	if (strchr(argv[0], '/') != NULL)
		snprintf(self, sizeof(self), "%s", argv[0]);
	else if ((len = readlink("/proc/self/exe", self,
	    sizeof(self) - 1)) > 0)
		self[len] = '\0';
	else
		tool_exit_fail(t, "--served: cannot find this program: %s",
		    strerror(errno));
	snprintf(sched, sizeof(sched), "%s", self);
	if ((slash = strrchr(sched, '/')) != NULL) {
		snprintf(slash + 1, sizeof(sched) - (size_t)(slash + 1 - sched),
		    "%s", SERVED_SCHED);
		if (access(sched, X_OK) != 0 && slash - sched >= 6 &&
		    strncmp(slash - 6, "/.libs", 6) == 0)
			snprintf(slash - 6, sizeof(sched) - (size_t)(slash - 6 -
			    sched), "/%s", SERVED_SCHED);
	}
	if (slash == NULL || access(sched, X_OK) != 0)
		snprintf(sched, sizeof(sched), "%s", SERVED_SCHED);
	if ((av = calloc((size_t)argc + 10, sizeof(*av))) == NULL)
		tool_exit_fail(t, "--served: out of memory");
	snprintf(budget, sizeof(budget), "%g", t->served_s);
	av[n++] = sched;
	av[n++] = "--budget";
	av[n++] = budget;
	if (t->precision > 0) {
		snprintf(prec, sizeof(prec), "%g", t->precision * 100);
		av[n++] = "--precision";
		av[n++] = prec;
	}
	av[n++] = "--";
	if (figures > 1) {
		snprintf(nfig, sizeof(nfig), "figures=%u", figures);
		av[n++] = nfig;
		if (parts > 0 && parts < figures) {
			snprintf(npart, sizeof(npart), "parts=%u", parts);
			av[n++] = npart;
		}
	}
	av[n++] = self;
	for (i = 1; i < argc; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	fflush(NULL);
	execvp(sched, av);
	tool_exit_fail(t, "--served: cannot run %s: %s", sched,
	    strerror(errno));
}
