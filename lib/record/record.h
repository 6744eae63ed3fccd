/*
 * record.h: the JSON writer (json.c) and a record decided (record-decide.c)
 * and formatted (record.c).
 */
#ifndef BM_RECORD_RECORD_H
#define BM_RECORD_RECORD_H

#include <stddef.h>

#include "benchmp.h"
#include "benchmp/figures.h"
#include "stats/stats.h"

/* A growing string of JSON (json.c); after a failure it stays failed. */
struct bm__json {
	char *s;
	size_t len;
	size_t cap;
	int err;
};

/*
 * The JSON writer (json.c): formatted text; a string, escaped and made
 * valid UTF-8 (NULL is null); a number exactly (null where JSON has
 * none); ,"key":value members; ,"key":[numbers].
 */
void bm__json_printf(struct bm__json *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void bm__json_string(struct bm__json *b, const char *str);
void bm__json_number(struct bm__json *b, double v);
void bm__json_kstr(struct bm__json *b, const char *key, const char *v);
void bm__json_knum(struct bm__json *b, const char *key, double v);
void bm__json_list(struct bm__json *b, const char *key, const double *x,
    size_t n);
/*
 * The length of the valid UTF-8 character at p (at most left bytes), its
 * code point in *cp when cp is not NULL; 0 for bytes that are not one
 * (overlong, a surrogate, past U+10FFFF, cut short).
 */
size_t bm__json_utf8(const unsigned char *p, size_t left, unsigned *cp);

/*
 * Append a figure's statistics as the members of a record from ,"median"
 * to "process_samples" (record.c), with noisy, its decided flag
 * (bm__figure_noisy): the writer formats, it does not judge.  next, when
 * not NULL, is a served figure's decided interval (lo, hi).
 */
void bm__record_levels(struct bm__json *b, const struct bm__figure *f,
    int noisy, const struct bm__robust *rb, const double *next);

/* Append a robust figure as a JSON object (record.c). */
void bm__record_robust(struct bm__json *b, const bm__robust *rb);

/*
 * Whether a figure f (its robust figure rb, or NULL) is noisy, and why
 * (BM_NOISY_* into *reasons, which may be NULL), given flagged, the
 * record's judgement: 1 flags it (with its own reasons), -1 leaves it to
 * the agreement rule alone, 0 to the interval (record-decide.c).
 */
int bm__figure_noisy(const struct bm__figure *f, int flagged,
    const bm__robust *rb, unsigned *reasons);

/*
 * A record decided (record-decide.c): everything its JSON and its line
 * show beyond the record's own fields, computed once.  has_figure 0: no
 * samples (then f is empty, the interval NAN and the figure not noisy).
 */
struct bm_decision {
	const bm_ctx *ctx;
	const bm_record *rec;
	const char *better;	/* "lower", "higher" or "none" */
	int has_figure;
	struct bm__figure f;	/* its statistics in its unit */
	int has_robust;		/* 1: shown as rb, its best process */
	bm__robust rb;
	int served;		/* 1: shown as a served figure's next run */
	int derived;		/* 1: shown as a sweep's figure's next run */
	int unsteady;		/* 1: shown with no interval */
	int flagged;		/* the judgement, as bm__figure_noisy takes */
	int noisy;
	unsigned reasons;	/* BM_NOISY_* */
	double lo, hi;		/* the interval shown, NAN without one */
	int overhead_flagged;
	double overhead_share;
};
/*
 * Decide rec into d (record-decide.c); 0 or -ENOMEM.  Release d with
 * bm__decision_release either way.
 */
int bm__record_decide(struct bm_decision *d, const bm_ctx *ctx,
    const bm_record *rec);
void bm__decision_release(struct bm_decision *d);
/*
 * The standard deviations of the next run's move that a served (derived
 * 0) or derived (1) figure's interval reaches (record-decide.c).
 */
double bm__decide_move_z(int derived);
/* 0 when a record can be formatted, else -EINVAL (record.c). */
int bm__record_check(const bm_record *rec);

#endif /* BM_RECORD_RECORD_H */
