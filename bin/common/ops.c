/* ops.c: dependent chains of basic operations, for lat_ops, par_ops and mhz. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "ops.h"

/* Where each chain's result goes, so the chain is never dead code. */
static volatile double ops_sink;

/*
 * Define a benchmark: n blocks of OPS_PAIRS times the steps A then B on
 * x, with x, y and z of type T loaded from the cookie.
 */
#define OPS_KERNEL(fn, T, KEEP, X, Y, Z, A, B)				\
static int								\
fn(bm_iter_t n, void *cookie)						\
{									\
	const struct ops_state *s = cookie;				\
	T x = s->X, y = s->Y, z = s->Z;					\
									\
	(void)z;							\
	while (n-- > 0) {						\
		REP50(A; KEEP(x); B; KEEP(x);)				\
	}								\
	ops_sink = (double)x;						\
	return 0;							\
}

/*
 * Define an integer family's five chains, P_bit, P_add, P_mul, P_div and
 * P_mod: x ^= y, x ^= z; x += y, x += z; x *= y, x *= z (odd factors, so x
 * never reaches 0) on the unsigned type U with operands UX, UY, UZ; then,
 * on the signed type S with the operands SX (small), SK (large) and SM,
 * x = k / x, where the chain runs through the divisor, and x = x % m + k,
 * where it runs through the dividend: the remainder by a fixed modulus,
 * kept large by the add.  The two paths do not cost the same (on Golden
 * Cove the dividend's is two cycles longer, sign extension included), and
 * these are the ones lmbench's figures show: its div agrees with a
 * divisor chain, its mod with a dividend chain (lat_ops(8)).
 */
#define OPS_INT_FAMILY(P, U, UX, UY, UZ, S, SX, SK, SM)			\
OPS_KERNEL(P##_bit, U, KEEP_I, UX, UY, UZ, x ^= y, x ^= z)		\
OPS_KERNEL(P##_add, U, KEEP_I, UX, UY, UZ, x += y, x += z)		\
OPS_KERNEL(P##_mul, U, KEEP_I, UX, UY, UZ, x *= y, x *= z)		\
OPS_KERNEL(P##_div, S, KEEP_I, SX, SK, SM, x = y / x, x = y / x)	\
OPS_KERNEL(P##_mod, S, KEEP_I, SK, SM, SK, x = x % y + z, x = x % y + z)

/*
 * int: the add is the one mhz times as well; x = k / x swings between two
 * values of about 14 and 17 bits; x % m + k stays in [2^30, 2^30 + m).
 */
OPS_INT_FAMILY(ops_int, uint32_t, u_x, u_y, u_z, int32_t, i_x, i_k, i_m)
/* int64: x = k / x with 31-bit quotients; x % m + k in [2^62, 2^62 + m). */
OPS_INT_FAMILY(ops_i64, uint64_t, l_x, l_y, l_z, int64_t, q_x, q_k, q_m)
/* float: x += y, x += -y; x stays exact. */
OPS_KERNEL(ops_flt_add, float, KEEP_F, f_x, f_a, f_b, x += y, x += z)
/* float: x *= y, x *= 1/y with y near 1; x stays near 1. */
OPS_KERNEL(ops_flt_mul, float, KEEP_F, f_x, f_y, f_z, x *= y, x *= z)
/* float: x /= y, x /= 1/y. */
OPS_KERNEL(ops_flt_div, float, KEEP_F, f_x, f_y, f_z, x /= y, x /= z)
/* double: x += y, x += -y. */
OPS_KERNEL(ops_dbl_add, double, KEEP_F, d_x, d_a, d_b, x += y, x += z)
/* double: x *= y, x *= 1/y. */
OPS_KERNEL(ops_dbl_mul, double, KEEP_F, d_x, d_y, d_z, x *= y, x *= z)
/* double: x /= y, x /= 1/y. */
OPS_KERNEL(ops_dbl_div, double, KEEP_F, d_x, d_y, d_z, x /= y, x /= z)

/*
 * Define a bogomflops benchmark on the array V of type T: each element x
 * becomes (x - 1) * 7 / (x + 1), a subtraction, a multiplication, an
 * addition and a division.  The map draws every value above 1.6 to its
 * fixed point 3 + sqrt(2), so the values stay normal (no slow denormal
 * assists) with full mantissas, pass after pass.  The empty asm on each
 * result keeps the loop scalar, as lmbench's is: one element at a time.
 */
#define OPS_BOGO(fn, T, V, ONE, SEVEN)					\
static int								\
fn(bm_iter_t n, void *cookie)						\
{									\
	struct ops_state *s = cookie;					\
	T *v = s->V;							\
	const T one = s->ONE, seven = s->SEVEN;				\
	size_t i;							\
									\
	while (n-- > 0) {						\
		for (i = 0; i < OPS_FLOPS; i++) {			\
			T x = v[i];					\
			T y = (x - one) * seven / (x + one);		\
									\
			KEEP_F(y);					\
			v[i] = y;					\
		}							\
	}								\
	ops_sink = (double)v[0];					\
	return 0;							\
}

OPS_BOGO(ops_flt_bogo, float, f_v, f_one, f_seven)
OPS_BOGO(ops_dbl_bogo, double, d_v, d_one, d_seven)

const struct ops_case ops_cases[OPS_NCASES] = {
	{ "integer bit", ops_int_bit },
	{ "integer add", ops_int_add },
	{ "integer mul", ops_int_mul },
	{ "integer div", ops_int_div },
	{ "integer mod", ops_int_mod },
	{ "int64 bit", ops_i64_bit },
	{ "int64 add", ops_i64_add },
	{ "int64 mul", ops_i64_mul },
	{ "int64 div", ops_i64_div },
	{ "int64 mod", ops_i64_mod },
	{ "float add", ops_flt_add },
	{ "float mul", ops_flt_mul },
	{ "float div", ops_flt_div },
	{ "double add", ops_dbl_add },
	{ "double mul", ops_dbl_mul },
	{ "double div", ops_dbl_div },
};

const struct ops_case ops_flops[OPS_NFLOPS] = {
	{ "float bogomflops", ops_flt_bogo },
	{ "double bogomflops", ops_dbl_bogo },
};

/* The result of the last chain or bogomflops run in this process. */
double
ops_result(void)
{
	return ops_sink;
}

/* Fill the operands; volatile reads keep them unknown to the compiler. */
void
ops_state_init(struct ops_state *s)
{
	volatile uint64_t seed = 12345;
	volatile double one = 1.0;
	size_t i;

	s->u_x = (uint32_t)seed;
	s->u_y = 0x9e3779b9u;
	s->u_z = 0x7f4a7c15u;
	s->i_x = (int32_t)seed;
	s->i_k = INT32_C(1) << 30;
	s->i_m = (int32_t)seed;
	s->l_x = seed * 243402887u;
	s->l_y = UINT64_C(0x9e3779b97f4a7c15);
	s->l_z = UINT64_C(0xbf58476d1ce4e5b9);
	s->q_x = (int64_t)seed * 243019 + 4;	/* 3000000039 */
	s->q_k = INT64_C(1) << 62;
	s->q_m = s->q_x;
	s->f_x = (float)one;
	s->f_y = (float)(one * 1.0000001);
	s->f_z = 1.0f / s->f_y;
	s->d_x = one;
	s->d_y = one * 1.000000001;
	s->d_z = 1.0 / s->d_y;
	/* The additions alternate +0.5 and -0.5: exact, never drifting. */
	s->f_a = (float)(one / 2);
	s->f_b = -s->f_a;
	s->d_a = one / 2;
	s->d_b = -s->d_a;
	/* Start values in [2.5, 4.25), all in the map's basin. */
	s->f_one = (float)one;
	s->f_seven = (float)(one * 7);
	s->d_one = one;
	s->d_seven = one * 7;
	for (i = 0; i < OPS_FLOPS; i++) {
		s->d_v[i] = one * 2.5 + (double)(i % 7) * 0.25;
		s->f_v[i] = (float)s->d_v[i];
	}
}

/* The label of operation i of the first OPS_NALL. */
const char *
ops_label(size_t i)
{
	return i < OPS_NCASES ? ops_cases[i].label :
	    ops_flops[i - OPS_NCASES].label;
}

/* The operation among the first n a word names, '-' read as ' '; or n. */
size_t
ops_named(const char *word, size_t n)
{
	size_t i, j;

	for (i = 0; i < n && i < OPS_NALL; i++) {
		const char *l = ops_label(i);

		for (j = 0; l[j] != '\0' && (word[j] == l[j] ||
		    (word[j] == '-' && l[j] == ' ')); j++)
			;
		if (l[j] == '\0' && word[j] == '\0')
			return i;
	}
	return n;
}

/* The operation among the first n a tool's word names; else exit 2. */
static size_t
ops_word(const struct tool *t, const char *word, size_t n)
{
	size_t k = ops_named(word, n);

	if (k == n)
		tool_exit_usage(t, "unknown operation '%s' (a label such as "
		    "int64-add)", word);
	return k;
}

/* How many operations the words name, each once; n for none. */
size_t
ops_count(const struct tool *t, char *const *words, int nwords, size_t n)
{
	unsigned char seen[OPS_NALL] = { 0 };
	size_t k, count = 0;
	int i;

	for (i = 0; i < nwords; i++) {
		k = t != NULL ? ops_word(t, words[i], n) :
		    ops_named(words[i], n);
		if (k < n && !seen[k]) {
			seen[k] = 1;
			count++;
		}
	}
	return nwords > 0 ? count : n;
}

/* Parse the options and operands, set the tool up, fill the operands. */
size_t
ops_setup(struct tool *t, int argc, char **argv, uint64_t enough_us,
    struct ops_state *s, unsigned char *want, size_t nwant)
{
	int first = tool_parse(t, argc, argv, NULL, NULL, NULL, NULL), i;
	size_t n = 0;

	if (nwant == 0 && first != argc)
		tool_exit_usage(t, "unexpected argument '%s'", argv[first]);
	if (nwant > 0) {
		n = ops_count(t, argv + first, argc - first, nwant);
		memset(want, first == argc, nwant);
		for (i = first; i < argc; i++)
			want[ops_named(argv[i], nwant)] = 1;
	}
	t->default_enough_us = enough_us;
	tool_setup(t);
	ops_state_init(s);
	return n;
}
