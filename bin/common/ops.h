/* ops.h: the operation chains lat_ops, par_ops and mhz share. */
#ifndef BM_OPS_H
#define BM_OPS_H

#include <stdint.h>

#include "tool.h"

/*
 * One benchmark operation is a block of OPS_BLOCK dependent operations:
 * each uses the result of the one before, so the block takes OPS_BLOCK
 * latencies.  The operands come from the cookie at run time and an empty
 * asm after every step pins the value in a register, so the compiler can
 * neither fold, reassociate nor vectorise the chain.
 */
#define OPS_PAIRS 50
#define OPS_BLOCK (2 * OPS_PAIRS)


/* Hide an integer from the optimiser; no instruction is emitted. */
#define KEEP_I(v) __asm__ volatile("" : "+r"(v))

/* Hide a floating-point value from the optimiser, in its own register. */
#if defined(__x86_64__)
#define KEEP_F(v) __asm__ volatile("" : "+x"(v))
#elif defined(__aarch64__)
#define KEEP_F(v) __asm__ volatile("" : "+w"(v))
#else
#define KEEP_F(v) do { } while (0)
#endif

#define REP5(s) s s s s s
#define REP10(s) REP5(s) REP5(s)
#define REP50(s) REP10(REP5(s))

/*
 * A bogomflop, as lmbench's lat_ops counts it, is the update of one
 * element of an array with four floating-point operations, one of them a
 * division; the elements are independent of each other, so the figure is
 * the time per update of a stream of them (a throughput, set by the
 * divider on current cores), not a latency.  One benchmark operation
 * updates the OPS_FLOPS elements once.
 */
#define OPS_FLOPS 1000

/* The run-time operands of every chain. */
struct ops_state {
	uint32_t u_x, u_y, u_z;		/* bit, add, mul */
	int32_t i_x, i_k, i_m;		/* div, mod */
	uint64_t l_x, l_y, l_z;
	int64_t q_x, q_k, q_m;
	float f_x, f_y, f_z;		/* mul, div */
	float f_a, f_b;			/* add */
	double d_x, d_y, d_z;
	double d_a, d_b;
	float f_one, f_seven;		/* bogomflops */
	double d_one, d_seven;
	float f_v[OPS_FLOPS];		/* the arrays they update */
	double d_v[OPS_FLOPS];
};

/* One operation: its label and its chain of OPS_BLOCK latencies. */
struct ops_case {
	const char *label;
	bm_fn fn;
};

#define OPS_NCASES 16
/* The index of "integer add", the one-cycle chain mhz times. */
#define OPS_INT_ADD 1

extern const struct ops_case ops_cases[OPS_NCASES];

/* The bogomflops: "float bogomflops" and "double bogomflops". */
#define OPS_NFLOPS 2
extern const struct ops_case ops_flops[OPS_NFLOPS];

void ops_state_init(struct ops_state *s);

/* The result of the last chain or bogomflops run in this process. */
double ops_result(void);

/* Every operation a tool may name: ops_cases[], then ops_flops[]. */
#define OPS_NALL (OPS_NCASES + OPS_NFLOPS)

/*
 * Parse the tool, set it up with enough_us as its interval when ENOUGH is
 * not set, and fill the operands.  With nwant 0 the tool takes no
 * arguments of its own (a usage error for one); otherwise its operands
 * name operations among the first nwant (OPS_NCASES: ops_cases[] alone;
 * OPS_NALL: the bogomflops too), and want[i] says whether operation i is
 * measured, every one when none is named.  Returns how many are.
 */
size_t ops_setup(struct tool *t, int argc, char **argv, uint64_t enough_us,
    struct ops_state *s, unsigned char *want, size_t nwant);

/*
 * The operation among the first n (as ops_setup's nwant) that a word
 * names: its label, its words joined by '-' or given as one argument
 * ("int64-add" or "int64 add"); n for none.
 */
size_t ops_named(const char *word, size_t n);

/* The label of operation i of the first OPS_NALL. */
const char *ops_label(size_t i);

/*
 * How many operations among the first n the words name, each counted
 * once (a tool's --served figures); n when they are none.  A word that
 * names none is t's usage error (exit 2), or with t NULL not counted.
 */
size_t ops_count(const struct tool *t, char *const *words, int nwords,
    size_t n);

#endif /* BM_OPS_H */
