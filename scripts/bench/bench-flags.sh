#!/bin/sh
# bench-flags.sh: what the flag rules say about recorded runs of the
# suite, and whether it was so: the share of flagged figures, the figures
# that moved by more than 10% and were not flagged, and how often the next
# run's figure fell inside the previous run's interval, and the flags'
# precision and recall against a move of more than 3% between the runs.
#
# Usage: scripts/bench/bench-flags.sh [--rules] BUILDDIR [RUN.jsonl RUN.jsonl ...]
#
# Reads two or more runs of the suite (default: the three recorded suites
# in tests/data/suite-vm-*.jsonl) and reports them twice: as recorded
# (the flags and interval of the record's median, as the code of the run
# wrote them), and as the library's statistics make them now, computed
# again from each record's values by BUILDDIR/tests/bench/rederive (the
# median and, where the record has one, the robust figure that the
# summary shows, with their intervals and flags).  A figure counts as
# flagged as benchmp-summary counts it (noisy, bimodal for a median,
# disturbed, disagree, contradicts, bound, budget).  Part of make bench.
#
# With --rules, the "now" line is printed once for each rule of the robust
# figure's interval and wide flag that tests/bench/rederive.c knows
# (library: what bm__stats_robust does now; median, cluster, second, third,
# cluster3, five: see there), each followed by the robust figures alone:
# how many of their runs were flagged wide, and the median over them of
# the shown value's run-to-run CV (the value is the best process under
# every rule, so it does not change, but five gives figures of three or
# four processes no robust figure: they show their median).  This is the
# comparison doc/measurements.md gives ("benchmp(3): the robust figure's
# interval").
set -eu
LC_ALL=C
export LC_ALL

top=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: bench-flags.sh [--rules] BUILDDIR [RUN.jsonl...]"
rules=library
if [ "${1:-}" = --rules ]; then
	rules="library median cluster cluster3 clusterh second third third15 third2 third3 five"
	shift
fi
case ${1:-} in
-*)	echo "bench-flags.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
esac
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
build=$1
shift
[ $# -gt 0 ] || set -- "$top/tests/data/suite-vm-1.jsonl" \
    "$top/tests/data/suite-vm-2.jsonl" "$top/tests/data/suite-vm-3.jsonl"
[ $# -ge 2 ] || { echo "bench-flags.sh: give two runs or more" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-flags.sh: SKIP: no jq" >&2; exit 77; }
rederive=$build/tests/bench/rederive
[ -x "$rederive" ] || { echo "bench-flags.sh: $rederive: not built (make bench builds it)" >&2; exit 2; }
[ -x "$build/bin/benchmp-stats" ] || { echo "bench-flags.sh: $build/bin/benchmp-stats: not built" >&2; exit 2; }
for f; do
	[ -r "$f" ] || { echo "bench-flags.sh: $f: cannot read it" >&2; exit 2; }
done
prog=bench-flags.sh
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
bm_tmpdir bench-flags
# The statistics are the library's: awk runs benchmp-stats, named here.
BENCH_STATS=$build/bin/benchmp-stats
BENCH_STATS_OUT=$tmp/stats
export BENCH_STATS BENCH_STATS_OUT

# Per run, one line a figure: run, name, then as recorded (value, ci_lo,
# ci_hi, flagged 0/1), then the other flags the summary counts (1 or 0).
run=0
for f; do
	run=$((run + 1))
	# shellcheck disable=SC2016 # (jq's $names)
	jq -r --arg run "$run" 'select(type == "object" and
	    (.values | type) == "array" and (.values | length) > 0 and
	    .suite.curve != true and .aggregate != false) |
	    (.suite.figure // (.tool + " " + (.case // ""))) as $name |
	    (if (.disagree == true or ((.contradicts // []) | length) > 0)
	      then 2 elif .disagree == false and .values == .answers then 1
	      elif .disagree == false then 3 else 0 end) as $judged |
	    [$name, (.better // "none"),
	     (.interference.intervals // 0), (.interference.disturbed // 0),
	     $judged,
	     ((.process_samples // [.values | length]) | map(tostring) | join(",")),
	     (.values | map(tostring) | join(","))] | join("\t")' "$f" \
	    >"$tmp/in.$run"
	for r in $rules; do
		"$rederive" -r "$r" <"$tmp/in.$run" >"$tmp/out.$r.$run"
	done
	# shellcheck disable=SC2016
	jq -r --arg run "$run" 'select(type == "object" and
	    (.values | type) == "array" and (.values | length) > 0 and
	    .suite.curve != true and .aggregate != false) |
	    [$run, (.suite.figure // (.tool + " " + (.case // ""))),
	     .value, .ci_lo, .ci_hi,
	     (if .noisy == true or .bimodal == true then 1 else 0 end),
	     (if .disagree == true or ((.contradicts // []) | length) > 0 or
	       .interference.bound_hit == true or .budget_hit == true
	      then 1 else 0 end)] | map(tostring) | join("\t")' "$f" \
	    >"$tmp/rec.$run"
	for r in $rules; do
		paste "$tmp/rec.$run" "$tmp/out.$r.$run" >>"$tmp/all.$r"
	done
done

# Columns: 1 run, 2 name, 3 value, 4 lo, 5 hi, 6 flagged as recorded,
# 7 other flags, 8 name again, 9 median, 10 lo, 11 hi, 12 noisy,
# 13 bimodal, 14 robust value or "-", 15 lo, 16 hi, 17 robust noisy.
first=1
for r in $rules; do
awk -F'\t' -v nruns="$run" -v rule="$r" -v first="$first" -v many="$rules" '
# stats(LINES, OPTS): run benchmp-stats OPTS (a literal of this program:
# the paths reach the shell through the environment) on LINES and leave
# its output lines in out[1..]; their count.
function stats(lines, opts,    cmd, n, l) {
	cmd = "\"$BENCH_STATS\" " opts " >\"$BENCH_STATS_OUT\""
	printf "%s", lines | cmd
	if (close(cmd) != 0) {
		print "bench-flags.sh: benchmp-stats " opts " failed" >"/dev/stderr"
		exit 1
	}
	n = 0
	while ((getline l <ENVIRON["BENCH_STATS_OUT"]) > 0)
		out[++n] = l
	close(ENVIRON["BENCH_STATS_OUT"])
	return n
}
function judge(tag, val, lo, hi, fl, only,    k, i, n, j, mean, mx, mn, cv, moved, pairs, inside, flagged, within3, movers, missed, cvs, med, lines, nk, key, f, moved3, hit3, runs3, prec, rec) {
	# The run-to-run mean, CV and range of each figure in every run,
	# from the library (benchmp-stats --each), keyed by number.
	lines = ""; nk = 0
	for (k in fig) {
		if (only && !(k in rob))
			continue
		n = 0
		for (i = 1; i <= nruns; i++) {
			if (!((i, k) in val)) { n = -1; break }
			n++
		}
		if (n < 2)
			continue
		key[++nk] = k
		for (i = 1; i <= n; i++)
			lines = lines nk "\t" val[i, k] "\n"
	}
	n = nk > 0 ? stats(lines, "--each --print=mean,cv,min,max") : 0
	cvs = ""
	for (j = 1; j <= n; j++) {
		split(out[j], f, "\t")
		k = key[f[1]]
		nf++
		mean = f[2] < 0 ? -f[2] : f[2] + 0
		cv = f[3] + 0; mn = f[4] + 0; mx = f[5] + 0
		moved = mean > 0 && (mx - mn) / mean > 0.10
		moved3 = mean > 0 && (mx - mn) / mean > 0.03
		within3 += cv <= 0.03
		cvs = cvs f[3] "\n"
		for (i = 1; i <= nruns; i++) {
			flagged += fl[i, k]
			if (moved) { movers++; missed += !fl[i, k] }
			if (moved3) { runs3++; hit3 += fl[i, k] }
			if (i < nruns) {
				pairs++
				inside += lo[i, k] <= val[i + 1, k] && val[i + 1, k] <= hi[i, k]
			}
		}
	}
	# The median run-to-run CV.
	med = cvs == "" ? 0 : (stats(cvs, "--median") ? out[1] : 0)
	# The flags against a move of more than 3% between the runs: the
	# share of flagged runs whose figure moved (precision), and of the
	# moving figures runs that were flagged (recall).
	prec = flagged > 0 ? 100 * hit3 / flagged : 0
	rec = runs3 > 0 ? 100 * hit3 / runs3 : 0
	if (only) {
		printf "  robust figures alone:      flagged %d of %d (%.0f%%), of them wide %d; median CV %.1f%%; moved >10%%: %d figures, unflagged in %d of their %d runs; next inside previous interval %d of %d (%.0f%%)\n",
		    flagged, nf * nruns, 100 * flagged / (nf * nruns), nwide,
		    100 * med, movers / nruns, missed, movers, inside, pairs,
		    100 * inside / pairs
	} else
		printf "%-28s flagged %d of %d (%.0f%%); within 3%% CV %d of %d; moved >10%%: %d figures, unflagged in %d of their %d runs; next inside previous interval %d of %d (%.0f%%); flags against a move >3%%: precision %.0f%%, recall %.0f%%\n",
		    tag, flagged, nf * nruns, 100 * flagged / (nf * nruns),
		    within3, nf, movers / nruns, missed, movers, inside, pairs,
		    100 * inside / pairs, prec, rec
	nf = 0
}
{
	fig[$2] = 1
	rv[$1, $2] = $3; rl[$1, $2] = $4; rh[$1, $2] = $5; rf[$1, $2] = $6
	if ($14 == "-") {
		nv[$1, $2] = $9; nl[$1, $2] = $10; nh[$1, $2] = $11
		nflag[$1, $2] = ($12 || $13 || $7) ? 1 : 0
	} else {
		rob[$2] = 1
		nv[$1, $2] = $14; nl[$1, $2] = $15; nh[$1, $2] = $16
		nflag[$1, $2] = ($17 != "0" || $7) ? 1 : 0
		nwide += $17 ~ /wide/
	}
	if ($12 == 1 && $13 == 0 && $14 == "-") mednoisy++
}
END {
	if (first)
		judge("as recorded (median):", rv, rl, rh, rf, 0)
	if (many == "library")
		judge("now (field shown):", nv, nl, nh, nflag, 0)
	else {
		judge(sprintf("rule %-8s (field shown):", rule), nv, nl, nh,
		    nflag, 0)
		judge("", nv, nl, nh, nflag, 1)
	}
}' "$tmp/all.$r"
first=0
done
