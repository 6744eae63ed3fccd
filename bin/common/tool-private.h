/*
 * tool-private.h: what the parts of the tools' frame (tool.c, tool-exit.c,
 * tool-report.c, tool-cluster.c, tool-served.c) call in one another;
 * programs use tool.h.
 */
#ifndef BM_TOOL_PRIVATE_H
#define BM_TOOL_PRIVATE_H

#include <stdio.h>

#include "tool.h"

/* Print the one-line usage to f (tool.c). */
void tool_usage_line(const struct tool *t, FILE *f);

/*
 * Exit 0 once stdout is out, or say why it is not and exit 1
 * (tool-exit.c).
 */
void tool_exit_printed(const struct tool *t) __attribute__((noreturn));

/*
 * Run the tool's cleanup hook and remove its private directory, in the
 * process that made it alone (tool-exit.c).
 */
void tool_exit_cleanup(const struct tool *t);

/*
 * Under MPI, take the job's records of rec into *json (aggregating rec if
 * tool_cluster_aggregate has not); 1 on rank 0, which prints them, 0 elsewhere
 * (tool-cluster.c).
 */
int tool_cluster_records(struct tool *t, const bm_record *rec, char **json);

/*
 * Run the tool again under benchmp-sched for --served (tool-served.c):
 * argc words of argv as given, the run's figures and parts (struct
 * tool's served_figures); never returns.
 */
void tool_served_exec(struct tool *t, int argc, char **argv,
    unsigned figures, unsigned parts)
    __attribute__((noreturn));

#endif /* BM_TOOL_PRIVATE_H */
