/*
 * lm_mem_chain: memory load latency written as lmbench's lat_mem_rd is,
 * on <benchmp/lmbench.h> alone: a pointer chain laid by the helpers'
 * initialisers (stride_initialize, or thrash_initialize with -t), timed
 * by benchmp() through mem_benchmark_0; -L also finds the cache line
 * (line_find) and -T times tlb_initialize's one-pointer-a-page chain.
 */
#include <benchmp/lmbench.h>

/* Print "MB ns" for one size, as lat_mem_rd's lines are. */
static void
loads(benchmp_f init, benchmp_f cleanup, size_t len, int parallel,
    int warmup, int repetitions, struct mem_state *state)
{
	double ns;

	state->len = state->maxlen = len;
	benchmp(init, mem_benchmark_0, cleanup, 0, parallel, warmup,
	    repetitions, state);
	if (gettime() == 0) {
		fprintf(stderr, "lm_mem_chain: %s\n", bm_compat_errmsg());
		exit(1);
	}
	/* 100 loads per iteration: nanoseconds per load. */
	ns = 1000. * (double)gettime() / (100. * (double)get_n());
	fprintf(stderr, "%.5f %.3f\n", (double)len / (1000. * 1000.), ns);
}

int
main(int ac, char **av)
{
	struct mem_state state;
	int c, parallel = 1, warmup = 0, repetitions = TRIES;
	int thrash = 0, find_line = 0, tlb = 0;
	size_t len, line;
	char *usage = "[-P <parallelism>] [-W <warmup>] [-N <repetitions>] "
	    "[-t] [-L] [-T] <size> <stride>\n";

	memset(&state, 0, sizeof(state));
	while ((c = getopt(ac, av, "P:W:N:tLT")) != EOF) {
		switch (c) {
		case 'P':
			parallel = atoi(optarg);
			if (parallel <= 0)
				lmbench_usage(ac, av, usage);
			break;
		case 'W':
			warmup = atoi(optarg);
			break;
		case 'N':
			repetitions = atoi(optarg);
			break;
		case 't':
			thrash = 1;
			break;
		case 'L':
			find_line = 1;
			break;
		case 'T':
			tlb = 1;
			break;
		default:
			lmbench_usage(ac, av, usage);
		}
	}
	if (optind + 2 != ac)
		lmbench_usage(ac, av, usage);
	len = (size_t)bytes(av[optind]);
	state.line = (size_t)bytes(av[optind + 1]);
	state.pagesize = (size_t)getpagesize();
	if (len < state.line || state.line < sizeof(char *))
		lmbench_usage(ac, av, usage);
	state.width = 1;
	loads(thrash ? thrash_initialize : stride_initialize, mem_cleanup, len,
	    parallel, warmup, repetitions, &state);
	if (tlb) {
		state.width = 1;
		loads(tlb_initialize, tlb_cleanup, 16 * state.pagesize, parallel,
		    warmup, repetitions, &state);
	}
	if (find_line) {
		line = line_find(len, warmup, repetitions, &state);
		fprintf(stderr, "cache line: %zu bytes\n", line);
	}
	return 0;
}
