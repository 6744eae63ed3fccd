/* reader-shape.c: a stored record's members of the wrong type, named before anything reads them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/* The JSON types a member may have (null always may). */
enum {
	SHAPE_OBJECT = 1, SHAPE_ARRAY = 2, SHAPE_STRING = 4, SHAPE_NUMBER = 8,
	SHAPE_BOOLEAN = 16
};

/* A member of a record (or of one of its objects, in) and its types. */
struct shape_rule {
	const char *in;
	const char *name;
	unsigned types;
};

/* The members the scripts and compare read, as bm_jq_odd in benchmp-lib.sh checks them. */
static const struct shape_rule shape_rules[] = {
	{ NULL, "tool", SHAPE_STRING },
	{ NULL, "case", SHAPE_STRING | SHAPE_NUMBER },
	{ NULL, "metric", SHAPE_STRING }, { NULL, "unit", SHAPE_STRING },
	{ NULL, "better", SHAPE_STRING }, { NULL, "host", SHAPE_STRING },
	{ NULL, "unsteady", SHAPE_STRING },
	{ NULL, "timestamp", SHAPE_STRING }, { NULL, "version", SHAPE_STRING },
	{ NULL, "placement", SHAPE_STRING },
	{ NULL, "imported", SHAPE_STRING | SHAPE_BOOLEAN },
	{ NULL, "value", SHAPE_NUMBER | SHAPE_STRING },
	{ NULL, "ci_level", SHAPE_NUMBER | SHAPE_STRING },
	{ NULL, "parallel", SHAPE_NUMBER }, { NULL, "rank", SHAPE_NUMBER },
	{ NULL, "samples", SHAPE_NUMBER }, { NULL, "processes", SHAPE_NUMBER },
	{ NULL, "repetitions", SHAPE_NUMBER }, { NULL, "median", SHAPE_NUMBER },
	{ NULL, "min", SHAPE_NUMBER }, { NULL, "max", SHAPE_NUMBER },
	{ NULL, "mean", SHAPE_NUMBER }, { NULL, "stddev", SHAPE_NUMBER },
	{ NULL, "cv", SHAPE_NUMBER }, { NULL, "ci_lo", SHAPE_NUMBER },
	{ NULL, "ci_hi", SHAPE_NUMBER }, { NULL, "ci_floor", SHAPE_NUMBER },
	{ NULL, "ci_stat_lo", SHAPE_NUMBER }, { NULL, "ci_stat_hi", SHAPE_NUMBER },
	{ NULL, "ops_per_s", SHAPE_NUMBER }, { NULL, "cycles_per_op", SHAPE_NUMBER },
	{ NULL, "cycle_ns_per_op", SHAPE_NUMBER }, { NULL, "wall_s", SHAPE_NUMBER },
	{ NULL, "warmup_us", SHAPE_NUMBER }, { NULL, "enough_us", SHAPE_NUMBER },
	{ NULL, "overhead_share", SHAPE_NUMBER },
	{ NULL, "noisy", SHAPE_BOOLEAN }, { NULL, "bimodal", SHAPE_BOOLEAN },
	{ NULL, "disagree", SHAPE_BOOLEAN }, { NULL, "budget_hit", SHAPE_BOOLEAN },
	{ NULL, "aggregate", SHAPE_BOOLEAN },
	{ NULL, "overhead_flagged", SHAPE_BOOLEAN },
	{ NULL, "params", SHAPE_OBJECT }, { NULL, "suite", SHAPE_OBJECT },
	{ NULL, "robust", SHAPE_OBJECT }, { NULL, "interference", SHAPE_OBJECT },
	{ NULL, "calibration", SHAPE_OBJECT }, { NULL, "within", SHAPE_OBJECT },
	{ NULL, "measured", SHAPE_OBJECT }, { NULL, "timer", SHAPE_OBJECT },
	{ NULL, "sources", SHAPE_OBJECT },
	{ NULL, "modes", SHAPE_ARRAY }, { NULL, "contradicts", SHAPE_ARRAY },
	{ NULL, "values", SHAPE_ARRAY }, { NULL, "process_values", SHAPE_ARRAY },
	{ NULL, "process_samples", SHAPE_ARRAY }, { NULL, "answers", SHAPE_ARRAY },
	{ "suite", "group", SHAPE_STRING }, { "suite", "figure", SHAPE_STRING },
	{ "suite", "role", SHAPE_STRING }, { "suite", "batch", SHAPE_NUMBER },
	{ "suite", "passes", SHAPE_NUMBER }, { "suite", "curve", SHAPE_BOOLEAN },
	{ "robust", "value", SHAPE_NUMBER }, { "robust", "ci_lo", SHAPE_NUMBER },
	{ "robust", "ci_hi", SHAPE_NUMBER }, { "robust", "noisy", SHAPE_BOOLEAN },
	{ "robust", "stat", SHAPE_STRING }, { "robust", "causes", SHAPE_ARRAY },
	{ "interference", "accounted", SHAPE_BOOLEAN },
	{ "interference", "disturbed", SHAPE_NUMBER },
	{ "interference", "intervals", SHAPE_NUMBER },
	{ "interference", "bound_hit", SHAPE_BOOLEAN },
	{ "interference", "discarded", SHAPE_NUMBER }
};

/* The type of a value as a mask, 0 for null. */
static unsigned
shape_of(const struct bm__jval *v)
{
	switch (v->type) {
	case BM__J_OBJECT: return SHAPE_OBJECT;
	case BM__J_ARRAY: return SHAPE_ARRAY;
	case BM__J_STRING: return SHAPE_STRING;
	case BM__J_NUMBER: return SHAPE_NUMBER;
	case BM__J_TRUE:
	case BM__J_FALSE: return SHAPE_BOOLEAN;
	default: return 0;
	}
}

/* A type's name with its article ("an array"). */
static const char *
shape_name(unsigned t)
{
	switch (t) {
	case SHAPE_OBJECT: return "an object";
	case SHAPE_ARRAY: return "an array";
	case SHAPE_STRING: return "a string";
	case SHAPE_NUMBER: return "a number";
	case SHAPE_BOOLEAN: return "a boolean";
	default: return "null";
	}
}

/* Say in why that member in.name of type got is not one of types ("a, b or c"). */
static int
shape_say(const char *in, const char *name, unsigned got, unsigned types,
    char *why, size_t size)
{
	unsigned t, k = 0, n = 0;
	size_t at;

	for (t = 1; t <= SHAPE_BOOLEAN; t <<= 1)
		n += (types & t) != 0;
	at = (size_t)snprintf(why, size, "%s%s%s is %s, not ", in ? in : "",
	    in ? "." : "", name, shape_name(got));
	for (t = 1; t <= SHAPE_BOOLEAN && at < size; t <<= 1) {
		if (!(types & t))
			continue;
		k++;
		at += (size_t)snprintf(why + at, size - at, "%s%s",
		    k == 1 ? "" : k == n ? " or " : ", ", shape_name(t));
	}
	return BM_EPARSE;
}

/* Check a record's members; 0, or BM_EPARSE with the first odd one in why. */
int
bm__reader_shape(const struct bm__jval *rec, char *why, size_t size)
{
	const struct bm__jval *params = bm__jget(rec, "params");
	size_t i;

	for (i = 0; i < sizeof shape_rules / sizeof shape_rules[0]; i++) {
		const struct shape_rule *r = &shape_rules[i];
		const struct bm__jval *o = r->in ? bm__jget(rec, r->in) : rec;
		const struct bm__jval *v;
		unsigned got;

		if (o == NULL || o->type != BM__J_OBJECT ||
		    (v = bm__jget(o, r->name)) == NULL)
			continue;
		got = shape_of(v);
		if (got != 0 && !(got & r->types))
			return shape_say(r->in, r->name, got, r->types, why,
			    size);
	}
	for (i = 0; params != NULL && params->type == BM__J_OBJECT &&
	    i < params->n; i++) {
		unsigned got = shape_of(&params->item[i]);
		unsigned ok = SHAPE_STRING | SHAPE_NUMBER | SHAPE_BOOLEAN;

		if (got != 0 && !(got & ok))
			return shape_say("params", params->key[i], got, ok, why,
			    size);
	}
	return 0;
}
