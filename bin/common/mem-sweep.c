/* mem-sweep.c: the options of the memory tools that sweep sizes. */
#include "config.h"

#include "mem.h"

/*
 * Short points for tools that sweep many sizes: 5 repetitions, 2 ms of
 * warmup unless -N or -W were given, and 3 rounds of fresh workers per
 * point unless --processes or BENCHMP_PROCESSES say otherwise (a
 * sweep's points check each other; 5 rounds made cache take 20 s).  The
 * chase walks its whole chain once before timing.  Their 5 ms intervals
 * (MEM_ENOUGH_US, unless ENOUGH says otherwise) are the tool's default
 * given before tool_setup() (mem_sweep_parse()); call this after it.
 */
void
mem_sweep_options(struct tool *t)
{
	if (!t->reps_given)
		t->opts.repetitions = MEM_SWEEP_REPS;
	t->opts.processes = MEM_SWEEP_PROCESSES;
	if (!t->warmup_given)
		t->opts.warmup_us = MEM_SWEEP_WARMUP_US;
}

/* Parse -L: a line size, a multiple of a pointer, 8 bytes to 64 KB. */
uint64_t
mem_sweep_line_arg(const struct tool *t, const char *arg)
{
	uint64_t line = tool_size(t, "-L", arg, sizeof(void *), 65536);

	if (line % sizeof(void *) != 0)
		tool_exit_usage(t, "-L %s is not a multiple of %zu bytes",
		    arg, sizeof(void *));
	return line;
}

/* Take -c, -L and -M into a mem_sweep_opts cookie. */
void
mem_sweep_option(struct tool *t, int opt, const char *arg, void *cookie)
{
	struct mem_sweep_opts *o = cookie;

	switch (opt) {
	case 'c':
		break;
	case 'L':
		o->line = mem_sweep_line_arg(t, arg);
		break;
	case 'M':
		o->len = tool_size(t, "-M", arg, o->min_len, MEM_MAX_LEN);
		break;
	default:
		tool_exit_usage(t, "unexpected option");
	}
}

/* Parse a sweep's options, find the topology, default the line and the interval. */
void
mem_sweep_parse(struct tool *t, int argc, char **argv, const char *optstring,
    struct mem_sweep_opts *o, struct mem_topo *tp)
{
	mem_sweep_parse_long(t, argc, argv, optstring, NULL, mem_sweep_option,
	    o, o, tp);
}

/* The same with the tool's long options (see mem.h). */
void
mem_sweep_parse_long(struct tool *t, int argc, char **argv,
    const char *optstring, const struct option *longopts,
    tool_option_fn *extra, void *cookie, struct mem_sweep_opts *o,
    struct mem_topo *tp)
{
	int first;

	first = tool_parse(t, argc, argv, optstring, longopts, extra, cookie);
	if (first < argc)
		tool_exit_usage(t, "unexpected argument '%s'", argv[first]);
	mem_topo_detect(tp);
	if (o->line == 0)
		o->line = tp->line;
	t->default_enough_us = MEM_ENOUGH_US;
}

/* Refuse a line larger than a page. */
void
mem_sweep_line_fits(struct tool *t, const struct mem_sweep_opts *o,
    const struct mem_topo *tp)
{
	if (o->line > tp->page)
		tool_exit_usage(t, "-L %llu is larger than a page (%zu bytes)",
		    (unsigned long long)o->line, tp->page);
}
