/* benchmp/figures.h: judging, joining and bounding a record's figure. */
#ifndef BENCHMP_FIGURES_H
#define BENCHMP_FIGURES_H

#include <benchmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether independent processes gave a derived figure one answer. */
typedef enum bm_agreement {
	BM_AGREEMENT_NONE = 0,	/* not judged */
	BM_AGREEMENT_AGREE,
	BM_AGREEMENT_DISAGREE	/* and noisy */
} bm_agreement;

/* A figure against what the machine states (benchmp/figures.h). */
typedef struct bm_contradiction {
	const char *what;	/* "line size", "L2 latency" */
	double measured, machine;	/* the figure; what the machine says */
	const char *source, *unit;	/* "sysfs coherency_line_size", "bytes" */
	uint64_t reserved[2];
} bm_contradiction;

/*
 * A latency of one of ops parts of an operation, less offset_ns (a cost
 * per operation measured apart): (median - offset_ns) / ops in unit.
 */
BM_EXTERN int bm_record_latency_per(bm_record *rec, const char *tool,
    const char *case_name, const char *unit, const bm_result *r, double ops,
    double offset_ns);
/*
 * The agreement rule of a derived figure: n answers (one per independent
 * process; NAN for a process that could not tell) agree when all are
 * finite and max - min is at most tolerance times the median's magnitude
 * (0: all equal).  1 when they agree, 0 when not, BM_ERANGE for n 0,
 * -EINVAL for a NULL pointer or a tolerance below 0 or not finite; lo
 * and hi (each may be NULL) get the smallest and largest finite answer
 * (NAN when none is).
 */
BM_EXTERN int bm_agree(const double *answers, size_t n, double tolerance,
    double *lo, double *hi);
/*
 * Judge a record's figure by its processes' answers (bm_agree): sets
 * agreement and keeps answers (not copied: they must outlive the
 * record's use).  1 agree, 0 disagree, or bm_agree()'s error (then rec
 * is unchanged).
 */
BM_EXTERN int bm_record_agreement(bm_record *rec, const double *answers,
    size_t n, double tolerance);
/*
 * The contradiction rule: measured stands against machine (what the
 * machine states, or a reference figure) when it lies within
 * [machine * lo, machine * hi] (hi may be INFINITY: "not below").  When
 * it does not, c is filled (what, measured, machine, source, unit; the
 * strings not copied) and 1 is returned; 0 when it stands or machine is
 * unknown (not finite or not above 0); -EINVAL for a NULL c or what, a
 * measured value not finite, or not 0 < lo <= hi.
 */
BM_EXTERN int bm_contradiction_check(bm_contradiction *c, const char *what,
    double measured, double machine, double lo, double hi,
    const char *source, const char *unit);
/*
 * Attach n contradictions (not copied) to a record: "contradicts" in its
 * JSON, and the record is noisy when n > 0.  0, or -EINVAL for a NULL
 * rec, or c NULL with n > 0.
 */
BM_EXTERN int bm_record_contradicts(bm_record *rec,
    const bm_contradiction *c, size_t n);
/*
 * Say why a record's figure moves from run to run whatever a run does,
 * in plain words (not copied: it must outlive rec), or NULL: a state of
 * the machine that no run sees all of, such as a file system that makes
 * a creation's cost depend on the files deleted in the last minute.
 * The record is then noisy for that reason (BM_NOISY_UNSTEADY),
 * "unsteady" in its JSON, and a comparison of two stored runs leaves the
 * figure undecided.  0, or -EINVAL for a NULL rec.
 */
BM_EXTERN int bm_record_unsteady(bm_record *rec, const char *why);
/* What bm_record_unsteady() said of rec, or NULL. */
BM_EXTERN const char *bm_record_unsteady_why(const bm_record *rec);

/*
 * Make rec, the record of one job's figure, the record of the same figure
 * measured at the same time by n jobs (the ranks of an MPI job), whose
 * results are parts: their samples are joined into all (free it with
 * bm_result_free) and rec's value is the joined figure's median, as its
 * JSON shows it.  A bandwidth or a rate adds up: the jobs' workers are
 * joined round for round, as one run's would be with -P, so that each
 * round's figure is the sum of every worker's rate (the parts need equal
 * rounds and repetitions, else BM_ERANGE).  Any other figure does not:
 * each job's rounds are rounds of their own, the figure is the median
 * over all of them, and parallel the most workers of one job.  0,
 * -EINVAL, BM_ERANGE or -ENOMEM.
 */
BM_EXTERN int bm_record_join(bm_record *rec, bm_result *all,
    const bm_result *parts, size_t n);
/*
 * The interval a record's JSON shows around its value (the next run's,
 * for a figure shown as its best process; the median's otherwise) and
 * whether it is noisy, as bm_record_json() writes them.  A figure
 * without an interval gets NAN bounds.  0 or an error.
 */
BM_EXTERN int bm_record_interval(const bm_ctx *ctx, const bm_record *rec,
    double *lo, double *hi, int *noisy);

/*
 * A record decided: its figure's statistics, interval, noisy flag with
 * its reasons, modes, overhead flag and direction, computed once by
 * bm_record_decide() from the record as it is then; the functions below
 * only read them.  It points to the record and the context it was made
 * from, which must outlive it and not change.
 */
typedef struct bm_decision bm_decision;
/* Why a decided figure is noisy (bm_decision_reasons): none, not noisy. */
enum {
	BM_NOISY_WIDE = 1u << 0,	/* its interval is wide */
	BM_NOISY_FEW = 1u << 1,		/* too few rounds to settle one */
	BM_NOISY_DISAGREE = 1u << 2,	/* its processes disagreed */
	BM_NOISY_CONTRADICTS = 1u << 3,	/* it contradicts the machine */
	BM_NOISY_DISTURBED = 1u << 4,	/* many intervals were disturbed */
	BM_NOISY_OVERHEAD = 1u << 5,	/* given overheads make much of it */
	BM_NOISY_UNSTEADY = 1u << 6	/* the machine moves it between runs */
};
/*
 * Decide a record (ctx may be NULL: no context) into *out; free it with
 * bm_decision_free().  0, -EINVAL or -ENOMEM.
 */
BM_EXTERN int bm_record_decide(const bm_ctx *ctx, const bm_record *rec,
    bm_decision **out);
/* The decided record as bm_record_json() formats it; free() the string. */
BM_EXTERN int bm_decision_json(const bm_decision *d, char **out);
/* The decided interval and noisy flag, as bm_record_interval() gives. */
BM_EXTERN int bm_decision_interval(const bm_decision *d, double *lo,
    double *hi, int *noisy);
/*
 * 1 when overheads given by TIMING_O or LOOP_O make more than a quarter
 * of the figure's median raw interval ("overhead_flagged"), else 0;
 * share (may be NULL) gets that share ("overhead_share", NAN unknown).
 */
BM_EXTERN int bm_decision_overhead(const bm_decision *d, double *share);
/* Why the decided figure is noisy: a set of BM_NOISY_*, 0 when it is not. */
BM_EXTERN unsigned bm_decision_reasons(const bm_decision *d);
/* Release a decision (NULL is fine). */
BM_EXTERN void bm_decision_free(bm_decision *d);

#ifdef __cplusplus
}
#endif

#endif /* BENCHMP_FIGURES_H */
