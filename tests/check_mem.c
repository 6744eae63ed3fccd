/*
 * check_mem.c: the memory tools' rules on synthetic sweeps (bin/common/
 * mem-rules.c) and their topology read from a fake sysfs tree.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchmp/figures.h"
#include "check_run.h"
#include "common/mem.h"

/* The strides of line: 8 to 512 bytes. */
#define NS 7

/*
 * A stride sweep of a machine with a line of line bytes: each load of a
 * group hits (hit ns) but one per line, which misses (miss ns).
 */
static void
sweep(double *lat, size_t line, double hit, double miss)
{
	size_t i, s;

	for (i = 0, s = 8; i < NS; i++, s *= 2) {
		double share = s >= line ? 1 : (double)s / (double)line;

		lat[i] = hit + (miss - hit) * share;
	}
}

/* The knee of a clean sweep is the line, for every line it can show. */
START_TEST(test_knee_clean)
{
	static const size_t lines[] = { 16, 32, 64, 128, 256 };
	double lat[NS], cost;
	size_t i, k;

	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		sweep(lat, lines[i], 1.5, 120);
		ck_assert_int_eq(mem_rules_line_knee(lat, NS, &k, &cost), 1);
		ck_assert_uint_eq((size_t)8 << k, lines[i]);
		ck_assert(cost >= 0 && cost < log(2) / 2);
	}
}
END_TEST

/*
 * The sweeps this machine gave under load (2 CPUs, load average 56): the
 * old rule (the largest rise) read 16 and 32 from the first two; the knee
 * reads 64 from all three.  The third rises again at 256 (as much as at
 * 64), which a knee that wanted every later step flat could not read (no
 * answer), while lmbench's rule (the first flat step after a rise) reads
 * 64, as sysfs states.
 */
START_TEST(test_knee_loaded)
{
	const double a[NS] = { 20.03, 49.51, 92.31, 185.01, 140.75, 147.62,
	    120.02 };
	const double b[NS] = { 23.11, 42.71, 135.99, 204.16, 131.02, 132.28,
	    161.75 };
	const double c[NS] = { 20.43, 54.13, 68.44, 127.70, 127.46, 239.83,
	    272.59 };
	double cost;
	size_t k;

	ck_assert_int_eq(mem_rules_line_knee(a, NS, &k, &cost), 1);
	ck_assert_uint_eq((size_t)8 << k, 64);
	ck_assert_int_eq(mem_rules_line_knee(b, NS, &k, &cost), 1);
	ck_assert_uint_eq((size_t)8 << k, 64);
	ck_assert_int_eq(mem_rules_line_knee(c, NS, &k, &cost), 1);
	ck_assert_uint_eq((size_t)8 << k, 64);
}
END_TEST

/*
 * A 2-CPU AMD EPYC guest's sweeps (2026-11-30), sysfs stating 64: the
 * step from 16 to 32 bytes rises 1.1 to 1.26, so 16 and 64 are both
 * plausible knees, and the cheapest of the two was 16 in the first.  The
 * last plausible one is 64 in both.
 */
START_TEST(test_knee_weak_step)
{
	const double a[NS] = { 19.95, 26.31, 32.22, 62.24, 54.54, 71.70,
	    141.27 };
	const double b[NS] = { 19.96, 27.15, 29.86, 64.88, 55.71, 73.65,
	    138.99 };
	double cost;
	size_t k;

	ck_assert_int_eq(mem_rules_line_knee(a, NS, &k, &cost), 1);
	ck_assert_uint_eq((size_t)8 << k, 64);
	ck_assert(cost > 0 && cost < log(2) / 4);
	ck_assert_int_eq(mem_rules_line_knee(b, NS, &k, &cost), 1);
	ck_assert_uint_eq((size_t)8 << k, 64);
}
END_TEST

/* No knee: a flat curve, a curve that doubles throughout, bad numbers. */
START_TEST(test_knee_none)
{
	const double flat[NS] = { 100, 101, 99, 100, 102, 100, 99 };
	const double ramp[NS] = { 1, 2, 4, 8, 16, 32, 64 };
	double bad[NS] = { 1, 2, 4, 8, 8, 8, 8 }, cost;
	size_t k;

	ck_assert_int_eq(mem_rules_line_knee(flat, NS, &k, &cost), 0);
	ck_assert_int_eq(mem_rules_line_knee(ramp, NS, &k, &cost), 0);
	ck_assert_int_eq(mem_rules_line_knee(bad, NS, &k, &cost), 1);
	ck_assert_uint_eq((size_t)8 << k, 64);
	bad[2] = NAN;
	ck_assert_int_eq(mem_rules_line_knee(bad, NS, &k, &cost), 0);
	ck_assert_uint_eq(k, 0);
	bad[2] = 0;
	ck_assert_int_eq(mem_rules_line_knee(bad, NS, &k, &cost), 0);
	ck_assert_int_eq(mem_rules_line_knee(ramp, 2, &k, &cost), 0);
}
END_TEST

/*
 * The agreement rule on processes' sweeps: each process's curve read
 * apart; three clean curves of a 64-byte line agree; one process whose
 * curve shows 32 (a noisy point) or nothing makes the figure disagree,
 * with the spread.
 */
START_TEST(test_line_agreement)
{
	double curve[3][NS], ans[3], lo, hi, cost;
	size_t p, k;

	for (p = 0; p < 3; p++)
		sweep(curve[p], 64, 1.5 + 0.1 * (double)p, 110 + 5 * (double)p);
	for (p = 0; p < 3; p++)
		ans[p] = mem_rules_line_knee(curve[p], NS, &k, &cost) ?
		    (double)((size_t)8 << k) : NAN;
	ck_assert_int_eq(bm_agree(ans, 3, 0, &lo, &hi), 1);
	ck_assert(lo == 64 && hi == 64);

	/* Process 1's stride-64 point is half what it should be. */
	curve[1][3] /= 2.2;
	ans[1] = mem_rules_line_knee(curve[1], NS, &k, &cost) ?
	    (double)((size_t)8 << k) : NAN;
	ck_assert_int_eq(bm_agree(ans, 3, 0, &lo, &hi), 0);
	ck_assert(lo < 64 || isnan(ans[1]));
	ck_assert(hi == 64);
}
END_TEST

/* Write text to root/rel, making the directories. */
static void
put(const char *root, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(path, 0700);
		*p = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * The topology read from a fake sysfs tree of n cache directories, each
 * given as "LEVEL TYPE SIZE LINE" ("1 Data 48K 64"), made under $TMPDIR
 * or /tmp and removed after.
 */
static void
fake_topology(struct mem_topo *tp, const char *const *idx, size_t n)
{
	static const char *const names[4] = { "level", "type", "size",
	    "coherency_line_size" };
	const char *tmp = getenv("TMPDIR");
	char root[1024], rel[256], f[4][16], cmd[1100];
	size_t i, k;

	snprintf(root, sizeof root, "%s/check_mem.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(sscanf(idx[i], "%15s %15s %15s %15s", f[0],
		    f[1], f[2], f[3]), 4);
		for (k = 0; k < 4; k++) {
			snprintf(rel, sizeof rel, "sys/devices/system/cpu/"
			    "cpu0/cache/index%zu/%s", i, names[k]);
			strcat(f[k], "\n");
			put(root, rel, f[k]);
		}
	}
	mem_topo_detect_at(tp, root);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * The topology from a fake sysfs: the data and unified levels in order,
 * the instruction cache left out, the line of the first level; a line
 * measured against it contradicts it, with both numbers and the source.
 */
START_TEST(test_topology_fake_sysfs)
{
	static const char *const idx[] = { "1 Data 48K 128",
	    "1 Instruction 32K 64", "2 Unified 2048K 128", "3 Unified 8M 128" };
	struct mem_topo tp;
	bm_contradiction c;

	fake_topology(&tp, idx, 4);
	ck_assert_str_eq(tp.source, "sysfs");
	ck_assert_str_eq(mem_rules_topo_stated(&tp), "sysfs");
	ck_assert_uint_eq(tp.n, 3);
	ck_assert_uint_eq(tp.lv[0].size, 48 << 10);
	ck_assert_uint_eq(tp.lv[1].size, 2048 << 10);
	ck_assert_uint_eq(tp.lv[2].size, 8 << 20);
	ck_assert_uint_eq(tp.l1d, 48 << 10);
	ck_assert_uint_eq(tp.line, 128);
	ck_assert_int_eq(bm_contradiction_check(&c, "line size", 64,
	    (double)tp.line, 1, 1, "sysfs coherency_line_size", "bytes"), 1);
	ck_assert(c.measured == 64 && c.machine == 128);
	ck_assert_int_eq(bm_contradiction_check(&c, "line size", 128,
	    (double)tp.line, 1, 1, "sysfs coherency_line_size", "bytes"), 0);
}
END_TEST

/*
 * cache's sizes against a fake sysfs: the first level within 0.8 to 1.5
 * times (24576 against 32 KiB is flagged), later levels half
 * to twice (1 MB against 1.25 MB stands), a last level the topology does
 * not believe (260 MB) and a level it does not have are not checked.
 */
START_TEST(test_level_sizes)
{
	static const char *const idx[] = { "1 Data 32K 64",
	    "2 Unified 1280K 64", "3 Unified 266240K 64" };
	char what[32];
	struct mem_topo tp;
	bm_contradiction c;

	fake_topology(&tp, idx, 3);
	ck_assert_uint_eq(tp.n, 3);
	ck_assert_int_eq(tp.llc_plausible, 0);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 1, 24576, &c, what,
	    sizeof what), 1);
	ck_assert_str_eq(c.what, "L1 size");
	ck_assert(c.measured == 24576 && c.machine == 32768);
	ck_assert_str_eq(c.source, "sysfs size");
	ck_assert_str_eq(c.unit, "bytes");
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 1, 32768, &c, what,
	    sizeof what), 0);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 1, 49152, &c, what,
	    sizeof what), 0);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 1, 65536, &c, what,
	    sizeof what), 1);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 2, 1 << 20, &c, what,
	    sizeof what), 0);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 2, 512 << 10, &c, what,
	    sizeof what), 1);
	ck_assert_str_eq(c.what, "L2 size");
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 2, 4 << 20, &c, what,
	    sizeof what), 1);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 3, 8 << 20, &c, what,
	    sizeof what), 0);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 4, 8 << 20, &c, what,
	    sizeof what), 0);
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 0, 8 << 20, &c, what,
	    sizeof what), 0);
	/* A default topology states nothing. */
	tp.source = "default";
	ck_assert_int_eq(mem_rules_level_size_check(&tp, 1, 512, &c, what,
	    sizeof what), 0);
}
END_TEST

/*
 * tlb's reading of synthetic sweeps, and the agreement of processes: a
 * reach of 64 pages (the jump at 96, confirmed at 128) in each of three
 * processes agrees; one process slowed at a single point (noise, not a
 * jump: the next point is back) still reads 64; one whose jump comes a
 * point early reads 48 and the figure disagrees; a curve without a
 * confirmed jump reads nothing.
 */
START_TEST(test_tlb_agreement)
{
	/* 8, 12, 16, 24, 32, 48, 64, 96, 128 pages. */
	const size_t pages[9] = { 8, 12, 16, 24, 32, 48, 64, 96, 128 };
	const double packed[9] = { 5, 5, 5, 5, 5, 5, 5, 5, 5 };
	double spread[3][9], ans[3], cost, lo, hi;
	size_t i, p, reach;

	for (p = 0; p < 3; p++)
		for (i = 0; i < 9; i++)
			spread[p][i] = i >= 7 ? 12 : 5.2;
	for (p = 0; p < 3; p++)
		ans[p] = mem_rules_tlb_read(spread[p], packed, 9, &reach,
		    &cost) ?
		    (double)pages[reach] : NAN;
	ck_assert_int_eq(bm_agree(ans, 3, 0, &lo, &hi), 1);
	ck_assert(lo == 64);
	ck_assert(fabs(cost - 7) < 1e-9);

	spread[1][3] = 20;
	ck_assert_int_eq(mem_rules_tlb_read(spread[1], packed, 9, &reach,
	    &cost),
	    1);
	ck_assert_uint_eq(pages[reach], 64);

	spread[2][6] = 12;
	ans[2] = mem_rules_tlb_read(spread[2], packed, 9, &reach, &cost) ?
	    (double)pages[reach] : NAN;
	ck_assert(ans[2] == 48);
	ck_assert_int_eq(bm_agree(ans, 3, 0, &lo, &hi), 0);
	ck_assert(lo == 48 && hi == 64);

	ck_assert_int_eq(mem_rules_tlb_read(spread[0], packed, 8, &reach,
	    &cost),
	    0);
}
END_TEST

/* The most points of a synthetic tlb sweep: its steps and the bisection. */
#define TLB_PTS 64

/*
 * A synthetic TLB as tlb's chases see it: packed costs 1.7 ns a load
 * everywhere; spread costs as much plus partial_ns from partial_from
 * pages on and full_ns from full_from on (jitter added to every spread
 * point, a process's own).
 */
struct tlb_fake {
	size_t partial_from, full_from;
	double partial_ns, full_ns, jitter;
};

/* A synthetic sweep measured as tlb measures it. */
struct tlb_run {
	size_t n, pages[TLB_PTS], reach, first;
	double spread[TLB_PTS], packed[TLB_PTS], cost, first_ns, full_ns;
	int found, partial, steps_reach;
};

/* Measure npages of the fake TLB and keep the point in page order. */
static void
tlb_fake_point(const struct tlb_fake *f, struct tlb_run *r, size_t npages)
{
	size_t i;

	for (i = r->n; i > 0 && r->pages[i - 1] > npages; i--) {
		r->pages[i] = r->pages[i - 1];
		r->spread[i] = r->spread[i - 1];
		r->packed[i] = r->packed[i - 1];
	}
	r->pages[i] = npages;
	r->packed[i] = 1.7;
	r->spread[i] = 1.7 + f->jitter + (npages >= f->full_from ? f->full_ns :
	    npages >= f->partial_from ? f->partial_ns : 0);
	r->n++;
}

/*
 * tlb's procedure on a fake TLB: the sweep's steps up to the confirmed
 * jump (the reach they alone give in steps_reach, the old answer), the
 * first miss judged, then the bisection of the knee.
 */
static void
tlb_fake_run(const struct tlb_fake *f, struct tlb_run *r)
{
	size_t n, mid, planned;
	double c;

	memset(r, 0, sizeof *r);
	for (n = 8; n <= 4096 && !r->found; n = mem_topo_next_size(n)) {
		tlb_fake_point(f, r, n);
		r->found = mem_rules_tlb_read(r->spread, r->packed, r->n,
		    &r->reach, &r->cost);
	}
	if (!r->found)
		return;
	r->steps_reach = (int)r->pages[r->reach];
	r->partial = mem_rules_tlb_partial(r->spread, r->packed, r->n,
	    r->reach + 1, &r->first_ns, &r->full_ns);
	planned = mem_rules_tlb_bisect_points(r->pages[r->reach],
	    r->pages[r->reach + 1]);
	n = 0;
	while ((mid = mem_rules_tlb_bisect(r->pages, r->spread, r->packed,
	    r->n)) != 0) {
		ck_assert_uint_lt(n++, planned);
		ck_assert(mid > r->pages[0] && mid < r->pages[r->n - 1]);
		tlb_fake_point(f, r, mid);
	}
	ck_assert_int_eq(mem_rules_tlb_read(r->spread, r->packed, r->n,
	    &r->reach, &c), 1);
	r->first = r->pages[r->reach + 1];
	r->reach = r->pages[r->reach];
}

/*
 * A clean knee at 64 and at 96 pages (every load misses from the next
 * page on, 2.3 ns more): the answer is the knee itself, unflagged.  A
 * knee between two steps is found to a sixteenth: the answer fits, the
 * first miss is past the knee and at most a sixteenth of the answer
 * beyond it; a TLB of 72 entries answers 72 where the steps alone gave
 * 64.
 */
START_TEST(test_tlb_knee_clean)
{
	static const size_t knees[] = { 64, 96, 72, 12, 13, 1000 };
	struct tlb_fake f = { 0, 0, 0, 2.3, 0 };
	struct tlb_run r;
	size_t i;

	for (i = 0; i < sizeof knees / sizeof knees[0]; i++) {
		f.partial_from = f.full_from = knees[i] + 1;
		tlb_fake_run(&f, &r);
		ck_assert_int_eq(r.found, 1);
		ck_assert_uint_le(r.reach, knees[i]);
		ck_assert_uint_gt(r.first, knees[i]);
		ck_assert_uint_le(r.first - r.reach,
		    r.reach / 16 > 0 ? r.reach / 16 : 1);
		if (i < 4)
			ck_assert_uint_eq(r.reach, knees[i]);
		ck_assert_int_eq(r.partial, 0);
		ck_assert(fabs(r.first_ns - 2.3) < 1e-9);
	}
	/* The old answer, the steps' alone: 64 for 72 entries. */
	f.partial_from = f.full_from = 73;
	tlb_fake_run(&f, &r);
	ck_assert_int_eq(r.steps_reach, 64);
	ck_assert_uint_eq(r.reach, 72);
}
END_TEST

/*
 * A partial jump at 96 pages, as this project's VM showed it: a 96-entry
 * TLB that the chase's pages and the loop's own few overflow from 94
 * pages on, 1.0 ns a load there, the full 2.3 ns from 97.  The steps
 * alone answered 64, unflagged (the old rule); now the first miss is
 * flagged partial with both costs, and the knee is bisected to 92, the
 * largest count measured that still fits.
 */
START_TEST(test_tlb_knee_partial)
{
	struct tlb_fake f = { 94, 97, 1.0, 2.3, 0 };
	struct tlb_run r;

	tlb_fake_run(&f, &r);
	ck_assert_int_eq(r.found, 1);
	ck_assert_int_eq(r.steps_reach, 64);
	ck_assert_int_eq(r.partial, 1);
	ck_assert(fabs(r.first_ns - 1.0) < 1e-9);
	ck_assert(fabs(r.full_ns - 2.3) < 1e-9);
	ck_assert_uint_eq(r.reach, 92);
	ck_assert_uint_eq(r.first, 96);

	/* Most of the jump at once (0.9 of it) is a knee, not flagged. */
	f.partial_ns = 0.9 * 2.3;
	tlb_fake_run(&f, &r);
	ck_assert_int_eq(r.partial, 0);
	/* 0.77 of it (the most a partial one cost here) is flagged. */
	f.partial_ns = 0.77 * 2.3;
	tlb_fake_run(&f, &r);
	ck_assert_int_eq(r.partial, 1);
	f.partial_ns = 0.9 * 2.3;
	tlb_fake_run(&f, &r);
	ck_assert_int_eq(r.partial, 0);
	/* Nothing beyond the first miss: nothing to call it partial by. */
	ck_assert_int_eq(mem_rules_tlb_partial(r.spread, r.packed, 3, 2,
	    &r.first_ns, &r.full_ns), 0);
	ck_assert(isnan(r.full_ns));
}
END_TEST

/*
 * The processes' answers over the bisected points: three processes of
 * one clean 96-entry TLB, each with its own offset, agree on 96; one
 * whose first bisection point (112) was slowed reads an earlier knee and
 * the figure disagrees, with the spread.
 */
START_TEST(test_tlb_knee_agreement)
{
	struct tlb_fake f = { 97, 97, 2.3, 2.3, 0 };
	struct tlb_run r[3];
	double ans[3], lo, hi, c;
	size_t p, reach, i;

	for (p = 0; p < 3; p++) {
		f.jitter = 0.05 * (double)p;
		tlb_fake_run(&f, &r[p]);
		ans[p] = (double)r[p].reach;
	}
	ck_assert_int_eq(bm_agree(ans, 3, 0, &lo, &hi), 1);
	ck_assert(lo == 96);
	/* Process 2 read without its 112-page point's miss: 104 fits. */
	for (i = 0; i < r[2].n && r[2].pages[i] != 104; i++)
		;
	ck_assert_uint_lt(i, r[2].n);
	r[2].spread[i] = r[2].packed[i] + 0.05;
	ck_assert_int_eq(mem_rules_tlb_read(r[2].spread, r[2].packed, r[2].n,
	    &reach, &c), 1);
	ans[2] = (double)r[2].pages[reach];
	ck_assert(ans[2] == 104);
	ck_assert_int_eq(bm_agree(ans, 3, 0, &lo, &hi), 0);
	ck_assert(lo == 96 && hi == 104);
}
END_TEST

/*
 * The bisection's plan: as many points as the worst way the points fall,
 * so that the time bound counts them before they run; none where the
 * two counts are already a sixteenth apart.
 */
START_TEST(test_tlb_bisect_points)
{
	size_t n;

	ck_assert_uint_eq(mem_rules_tlb_bisect_points(64, 96), 3);
	ck_assert_uint_eq(mem_rules_tlb_bisect_points(96, 128), 3);
	ck_assert_uint_eq(mem_rules_tlb_bisect_points(8, 12), 2);
	ck_assert_uint_eq(mem_rules_tlb_bisect_points(64, 68), 0);
	ck_assert_uint_eq(mem_rules_tlb_bisect_points(96, 96), 0);
	/* At most four between any two steps of the sweep (tlb(8)). */
	for (n = 8; n < (size_t)1 << 20; n = mem_topo_next_size(n))
		ck_assert_uint_le(mem_rules_tlb_bisect_points(n,
		    mem_topo_next_size(n)), 4);
}
END_TEST

/* A figure per process as a record's samples: NAN ones left out. */
START_TEST(test_answers_result)
{
	const double v[3] = { 64, NAN, 32 };
	bm_result r;

	ck_assert_int_eq(mem_rules_answers_result(v, 3, &r), 0);
	ck_assert_uint_eq(r.nsamples, 2);
	ck_assert_uint_eq(r.processes, 2);
	ck_assert(r.per_op_ns.min == 32 && r.per_op_ns.max == 64);
	bm_result_free(&r);
	/* No answer: an error that leaves nothing to free (line, tlb). */
	ck_assert_int_eq(mem_rules_answers_result(v + 1, 1, &r), BM_ERANGE);
	ck_assert_ptr_null(r.samples);
	ck_assert_uint_eq(r.nsamples, 0);
}
END_TEST

/* A result of n samples of ns each over 10 loads, round i of every one. */
static void
look_result(bm_result *r, const double *ns, size_t n, unsigned rounds)
{
	size_t i;

	memset(r, 0, sizeof *r);
	r->samples = calloc(n, sizeof *r->samples);
	ck_assert_ptr_nonnull(r->samples);
	for (i = 0; i < n; i++) {
		r->samples[i].ns = ns[i];
		r->samples[i].n = 10;
		r->samples[i].process = (unsigned)(i % rounds);
	}
	r->nsamples = n;
	r->processes = rounds;
}

/*
 * One chain's two looks: each sample the faster of its pair (sample j of
 * round p of each), the median over them, the second look freed; pairs
 * beyond the shorter look keep the first's.
 */
START_TEST(test_lower_look)
{
	const double a_ns[5] = { 100, 310, 90, 300, 500 };
	const double b_ns[4] = { 300, 100, 95, 60 };
	bm_result a, b;

	look_result(&a, a_ns, 5, 2);
	look_result(&b, b_ns, 4, 2);
	a.per_op_ns.median = 30;
	ck_assert_int_eq(mem_chase_lower_look(&a, &b), 0);
	ck_assert_ptr_null(b.samples);
	/* Round 0: a's 100, 90, 500 with b's 300, 95; round 1: 310, 300
	 * with 100, 60. */
	ck_assert(a.samples[0].ns == 100 && a.samples[2].ns == 90 &&
	    a.samples[4].ns == 500);
	ck_assert(a.samples[1].ns == 100 && a.samples[3].ns == 60);
	ck_assert_uint_eq(a.samples[3].process, 1);
	/* 10, 10, 9, 6 and 50 ns a load: the median 10. */
	ck_assert(a.per_op_ns.median == 10);
	bm_result_free(&a);
}
END_TEST

/* Lay out and initialise a stride chase of n units of 128 bytes. */
static void
stride_ring(struct mem_chase *c, size_t n)
{
	memset(c, 0, sizeof *c);
	c->size = n * 128;
	c->stride = 128;
	c->page = 4096;
	c->order = MEM_ORDER_STRIDE;
	c->k = 1;
	ck_assert_int_eq(mem_chase_init(1, c), 0);
}

/*
 * The stride chase walks forwards, as lmbench's lat_mem_rd does: each
 * unit points to the next one up and the last back to the first.
 */
START_TEST(test_stride_forward)
{
	struct mem_chase c;
	size_t u, n = 8;

	stride_ring(&c, n);
	for (u = 0; u < n; u++)
		ck_assert_ptr_eq(*(void **)(void *)(c.map + u * 128),
		    c.map + (u + 1) % n * 128);
	/* The walk is at its start again after a whole turn. */
	ck_assert_ptr_eq(c.p[0], c.map);
	ck_assert_int_eq(mem_chase_cleanup(1, &c), 0);
}
END_TEST

/*
 * The stride chase (unrolled 100 loads long, with tails of ten and of
 * one) takes exactly n steps for any n: after n it stands on unit n mod
 * the ring's length.
 */
START_TEST(test_stride_steps)
{
	static const bm_iter_t steps[] = { 0, 1, 9, 10, 11, 99, 100, 101,
	    253, 1000, 12345 };
	struct mem_chase c;
	size_t i, n = 7;

	stride_ring(&c, n);
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		c.p[0] = c.map;
		ck_assert_int_eq(mem_chase_run(steps[i], &c), 0);
		ck_assert_ptr_eq(c.p[0], c.map + steps[i] % n * 128);
	}
	ck_assert_int_eq(mem_chase_cleanup(1, &c), 0);
}
END_TEST

/*
 * The page and random chases link the same ring every run, whatever
 * builds it: 32 units of 128 bytes, 4 to a 512-byte page, followed from
 * unit 0 (the orders the chases have had since 2026-11-26; a record's
 * figure compared with an older one's is over the same ring).
 */
START_TEST(test_chase_orders)
{
	static const size_t ring[2][32] = {
		{ 0, 3, 2, 7, 4, 6, 5, 11, 8, 10, 9, 12, 14, 15, 13, 19, 17,
		  18, 16, 20, 23, 22, 21, 27, 26, 24, 25, 29, 31, 28, 30, 1 },
		{ 0, 23, 20, 21, 22, 12, 14, 15, 13, 4, 7, 5, 6, 25, 27, 24,
		  26, 18, 19, 16, 17, 29, 30, 31, 28, 11, 9, 10, 8, 3, 2, 1 },
	};
	struct mem_chase c;
	char *p;
	size_t i;
	int o;

	for (o = 0; o < 2; o++) {
		memset(&c, 0, sizeof c);
		c.size = 32 * 128;
		c.stride = 128;
		c.page = 512;
		c.order = o == 0 ? MEM_ORDER_PAGE : MEM_ORDER_RANDOM;
		c.k = 3;
		ck_assert_int_eq(mem_chase_init(1, &c), 0);
		p = c.map;
		for (i = 0; i < 32; i++) {
			ck_assert_uint_eq((size_t)(p - c.map) / 128, ring[o][i]);
			p = *(char **)(void *)p;
		}
		/* One ring: unit 0 again after 32 links. */
		ck_assert_ptr_eq(p, c.map);
		ck_assert_int_eq(mem_chase_cleanup(1, &c), 0);
	}
}
END_TEST

/* Build the suite. */
static Suite *
mem_suite(void)
{
	Suite *s = suite_create("mem");
	TCase *tc = tcase_create("mem");

	tcase_add_test(tc, test_knee_clean);
	tcase_add_test(tc, test_knee_loaded);
	tcase_add_test(tc, test_knee_weak_step);
	tcase_add_test(tc, test_knee_none);
	tcase_add_test(tc, test_line_agreement);
	tcase_add_test(tc, test_topology_fake_sysfs);
	tcase_add_test(tc, test_answers_result);
	tcase_add_test(tc, test_level_sizes);
	tcase_add_test(tc, test_tlb_agreement);
	tcase_add_test(tc, test_stride_forward);
	tcase_add_test(tc, test_stride_steps);
	tcase_add_test(tc, test_chase_orders);
	tcase_add_test(tc, test_lower_look);
	tcase_add_test(tc, test_tlb_knee_clean);
	tcase_add_test(tc, test_tlb_knee_partial);
	tcase_add_test(tc, test_tlb_knee_agreement);
	tcase_add_test(tc, test_tlb_bisect_points);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return check_run(mem_suite());
}
