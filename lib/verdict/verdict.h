/* verdict.h: stored records read back (jparse.c, reader*.c, keymap.c) and judged (verdict.c); internal. */
#ifndef BM_VERDICT_H
#define BM_VERDICT_H

#include <stddef.h>
#include <stdint.h>

/*
 * How deep a JSON value may nest, how long one record line and how large
 * a file of records may be: the scripts' bounds (bm_max_line and
 * bm_max_bytes in benchmp-lib.sh); a run of the whole suite is a few MB.
 */
#define BM__JSON_DEPTH		64
#define BM__JSON_LINE_MAX	(1u << 20)
#define BM__READER_FILE_MAX	(64u << 20)

/* The kinds of a JSON value. */
enum bm__jtype {
	BM__J_NULL,
	BM__J_FALSE,
	BM__J_TRUE,
	BM__J_NUMBER,
	BM__J_STRING,
	BM__J_ARRAY,
	BM__J_OBJECT
};

/*
 * A parsed JSON value: a number in num, a string in str (NUL-terminated,
 * len bytes, which may hold a NUL), the n members of an array or object
 * in item (an object's names in key, in their order).
 */
struct bm__jval {
	enum bm__jtype type;
	double num;
	char *str;
	size_t len;
	size_t n;
	struct bm__jval *item;
	char **key;
};

/*
 * Parse the JSON text s[0..len) (jparse.c), strictly (RFC 8259: no NaN,
 * no trailing commas, nothing after the value), nesting at most
 * BM__JSON_DEPTH.  0 and *out (free with bm__jval_free), or BM_EPARSE
 * with the byte offset of the fault in *at and a reason in *why, or
 * -ENOMEM.
 */
int bm__jparse(const char *s, size_t len, struct bm__jval **out, size_t *at,
    const char **why);
/* Free a value from bm__jparse (NULL is fine). */
void bm__jval_free(struct bm__jval *v);
/* Free what a value (a member or item of another) holds; it is null after. */
void bm__jval_clear(struct bm__jval *v);
/* An object's member named name, or NULL. */
const struct bm__jval *bm__jget(const struct bm__jval *obj, const char *name);
/* An object's number member, or NAN when it is missing or not a number. */
double bm__jnum(const struct bm__jval *obj, const char *name);
/* An object's string member, or NULL. */
const char *bm__jstr(const struct bm__jval *obj, const char *name);
/* Whether an object's member is true. */
int bm__jtrue(const struct bm__jval *obj, const char *name);
/* Write v as compact JSON into a malloc'd string (*out); 0 or -ENOMEM. */
int bm__jwrite(const struct bm__jval *v, char **out);

/* Which way a figure is better. */
enum bm__better {
	BM__BETTER_NONE,
	BM__BETTER_LOWER,
	BM__BETTER_HIGHER
};

/* One mode of a figure: its centre and its share of the processes. */
struct bm__fig_mode {
	double centre;
	double share;
};

/*
 * One figure of a stored record (reader.c): its key (tool, case, the
 * parameters with private temporary paths as <tmp>, metric, parallel,
 * placement), the name a user is shown, the value and its interval (NAN
 * when absent) from samples values, the independent processes' values, its flags and modes.
 * bad says why the record cannot be judged (NULL when it can), unsteady
 * why the machine moves it between runs (NULL: nothing said), and
 * value_text is its value as written.  The parts of the key are kept
 * apart too: an lmbench import pairs by the parameters it has
 * (pname[i] = pval[i], each value compact JSON).
 */
struct bm__fig {
	char *key;
	char *name;
	char *unit;
	enum bm__better better;
	double value;
	double median;
	double ci_lo;
	double ci_hi;
	double ci_level;
	double samples;
	double *procs;
	size_t nprocs;
	int noisy;
	int bimodal;
	int curve;
	double past_median;	/* history.past_median: its past runs', or NAN */
	int burst;
	int served;
	struct bm__fig_mode *modes;
	size_t nmodes;
	char *bad;
	char *unsteady;
	char *value_text;
	size_t line;
	/* What pairs an lmbench import or an unpinned figure with a record. */
	int imported;
	char *tool;
	char *kase;
	char *placement;
	double parallel;
	char **pname;
	char **pval;
	size_t nparams;
};

/*
 * An index of the entries of an array by a string key (keymap.c), so
 * that a file of many records finds a key's entry at once, not by
 * comparing with every entry before it.  Open addressing with linear
 * probing: a slot holds a key's 64-bit hash (FNV-1a) and 1 + its entry's
 * place (0: a free slot); at most half the slots are used, their number
 * doubled when more would be.  The keys stay in the caller's array and
 * are read back through a bm__keymap_key, so that the array may move
 * (realloc) and an entry be replaced by one of the same key.  A zeroed
 * struct is an empty map.
 */
struct bm__keymap_slot {
	uint64_t hash;
	size_t at;
};
struct bm__keymap {
	struct bm__keymap_slot *slot;
	size_t cap;		/* slots: 0 or a power of two */
	size_t n;		/* entries */
};
/* The key of the entry at place at of the caller's array arg. */
typedef const char *(*bm__keymap_key)(const void *arg, size_t at);
/* The FNV-1a hash of key. */
uint64_t bm__keymap_hash(const char *key);
/*
 * The place of key's entry into *at: 1, or 0 when the map has none.  An
 * entry of key's hash is key's when get(arg, its place) equals key
 * (strcmp); with get NULL the hash alone is the key (a map of numbers).
 */
int bm__keymap_find(const struct bm__keymap *m, const char *key,
    bm__keymap_key get, const void *arg, size_t *at);
/* The same with key's hash given (bm__keymap_hash, or a number's own). */
int bm__keymap_find_hash(const struct bm__keymap *m, uint64_t hash,
    const char *key, bm__keymap_key get, const void *arg, size_t *at);
/* Add the entry of key, which the map must not have, at place at; 0 or -ENOMEM. */
int bm__keymap_add(struct bm__keymap *m, const char *key, size_t at);
/* The same with key's hash given. */
int bm__keymap_add_hash(struct bm__keymap *m, uint64_t hash, size_t at);
/* Free a map's slots; it is empty after. */
void bm__keymap_free(struct bm__keymap *m);

/*
 * The figures of one file of records, in the order first seen, room for
 * cap of them, and their index by key.
 */
struct bm__figset {
	struct bm__fig *fig;
	size_t n;
	size_t cap;
	struct bm__keymap map;
};

/*
 * The figure of one record (a parsed JSON object).  0, BM_EPARSE (not
 * an object with a string "tool") or -ENOMEM.  A record whose value is
 * missing, not a number, zero or negative is read, with bad saying so.
 */
int bm__reader_figure(const struct bm__jval *rec, struct bm__fig *f);
/* Which way the figure of rec is better: its "better", else its metric and unit. */
enum bm__better bm__reader_better(const struct bm__jval *rec);
/* Free what a figure holds. */
void bm__reader_fig_free(struct bm__fig *f);
/*
 * Check the types of a record's members (reader-shape.c), as the
 * scripts' bm_jq_odd does; 0, or BM_EPARSE with the first odd one in why
 * ("params is an array, not an object").
 */
int bm__reader_shape(const struct bm__jval *rec, char *why, size_t size);
/*
 * Read a file of JSON Lines records into set (empty lines skipped; a
 * figure recorded twice: the last record counts).  0, or an error with
 * why (naming the line): BM_EPARSE (invalid JSON or not a record),
 * BM_ERANGE (too large), -errno or -ENOMEM.
 */
int bm__reader_file(const char *path, struct bm__figset *set, char *why,
    size_t whysize);
/*
 * What bm__reader_lines hands each record to (a JSON object with a
 * "tool" string, its members of the right types, see bm__reader_shape):
 * the parsed line (the callee's to free), its number, and why to fill on
 * an error.  0 to go on, or an error that ends the reading.
 */
typedef int (*bm__reader_each)(void *arg, struct bm__jval *rec, size_t line,
    char *why, size_t whysize);
/*
 * Read a whole file (a regular file, a FIFO, a device: it is read once)
 * into *buf (malloc'd, NUL-terminated) and its length: 0, or BM_ERANGE
 * when it is larger than BM__READER_FILE_MAX, -errno or -ENOMEM, with why.
 */
int bm__reader_slurp(const char *path, char **buf, size_t *len, char *why,
    size_t whysize);
/*
 * Parse each line of buf that is not blank (a line at most
 * BM__JSON_LINE_MAX long, JSON, of the shape bm__reader_shape checks) and
 * hand it to each, in order.  0, or the first error with why (naming
 * the line).
 */
int bm__reader_lines(const char *buf, size_t len, bm__reader_each each,
    void *arg, char *why, size_t whysize);
/*
 * Hand each record of a file of JSON Lines to each, as bm__reader_lines
 * does a buffer's, within the bounds above: 0, or the first error with
 * why (naming the line): BM_EPARSE (invalid JSON or not a record),
 * BM_ERANGE (too large), -errno, -ENOMEM, or each's.
 */
int bm__reader_records(const char *path, bm__reader_each each, void *arg,
    char *why, size_t whysize);
/* Read records from a buffer, as bm__reader_file does its file. */
int bm__reader_buf(const char *buf, size_t len, struct bm__figset *set,
    char *why, size_t whysize);
/*
 * Add f (taken over: the set frees it) to set, in place of the figure of
 * its key where there is one (the last record of a figure counts; its
 * first keeps the place); its place in *at.  0 or -ENOMEM (f is then the
 * caller's).
 */
int bm__reader_add(struct bm__figset *set, struct bm__fig *f, size_t *at);
/* Free a set's figures. */
void bm__reader_free(struct bm__figset *set);
/* The figure of set with key, or NULL. */
const struct bm__fig *bm__reader_find(const struct bm__figset *set,
    const char *key);

/*
 * The aggregate throughput of a stored record over all its workers
 * (throughput.c), as benchmp scaling shows it: a bandwidth (metric
 * "bandwidth", rate 1) in its own unit, its value; any other figure in
 * operations per second, its ops_per_s.  Its interval [lo, hi] is the
 * record's interval scaled to it, in proportion where higher is better
 * and turned over for a time.  NAN where the record lacks a number.
 */
struct bm__throughput {
	int rate;
	double value;
	double lo;
	double hi;
};
void bm__throughput(const struct bm__jval *rec, struct bm__throughput *tp);

/* The verdicts on a figure of two runs. */
enum bm__verdict {
	BM__V_SAME,
	BM__V_BETTER,
	BM__V_WORSE,
	BM__V_CHANGED,
	BM__V_UNDECIDED,
	BM__V_FAILED
};

/* What decided: the processes' ranks, the records' intervals, the values. */
enum bm__evidence {
	BM__EV_NONE,
	BM__EV_RANKS,
	BM__EV_INTERVALS,
	BM__EV_VALUES
};

/* How the false alarms over all the figures are held. */
enum bm__correction {
	BM__CORR_BH,
	BM__CORR_HOLM,
	BM__CORR_NONE
};

/*
 * The judgement of one figure (verdict.c): the ratio B/A of the values
 * (B in A's unit), the interval of B/A at level (NAN when none), the p
 * value of no change (rank test; NAN when none), the threshold used (a
 * fraction), which way is better (A's), whether the records' own
 * intervals separate, whether the change is significant after the
 * correction (or by separate intervals), whether either record is
 * unsteady (then undecided, why says so), whether both figures are
 * served ones (drift: a change then needs their intervals apart too), and when
 * undecided, how many times the processes would decide (need).
 */
struct bm__judgement {
	enum bm__verdict verdict;
	enum bm__evidence evidence;
	enum bm__better better;
	double ratio;
	double estimate;
	double lo;
	double hi;
	double level;
	double p;
	double threshold;
	int separate;
	int telling;
	int significant;
	int unsteady;
	int drift;
	double need;
	char why[200];
};

/*
 * The factor that turns a value in unit from into unit to (ns/us/ms/s;
 * B/KB/MB/GB; MB/s, GB/s), 1 for equal units.  0, or BM_ERANGE when the
 * units are of different kinds (or unknown and unequal).
 */
int bm__verdict_unit_factor(const char *from, const char *to, double *f);
/*
 * The evidence on figure a against b at threshold (a fraction) and
 * alpha: the ratio, its interval and the rank test's p value; a failure
 * (a bad record, units of different kinds) is verdict FAILED with why.
 * The verdict is final only after bm__verdict_decide.
 */
void bm__verdict_judge(const struct bm__fig *a, const struct bm__fig *b,
    double threshold, double alpha, struct bm__judgement *j);
/*
 * The verdicts of n judged figures: the rank tests' p values corrected
 * over all of them (Benjamini-Hochberg or Holm at alpha), then each
 * figure's rule.  0 or -ENOMEM.
 */
int bm__verdict_decide(struct bm__judgement *j, size_t n, double alpha,
    enum bm__correction corr);
/*
 * The verdict of paired rounds (an A/B) from an interval [lo, hi] of
 * log(B/A) around shift: worse or better (changed, better neither way)
 * when it leaves no change out and the estimate is past the threshold,
 * same when it lies within +-threshold, else undecided.
 */
enum bm__verdict bm__verdict_paired(double lo, double hi, double shift,
    double threshold, enum bm__better better);
/* The word of a verdict: "same", "worse", ... */
const char *bm__verdict_word(enum bm__verdict v);

#endif /* BM_VERDICT_H */
