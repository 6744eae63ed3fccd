#!/bin/sh
# bench-estimators.sh: which statistic of a figure's intervals repeats best
# from one run of the suite to the next, per kind of figure.
#
# Usage: scripts/bench/bench-estimators.sh [RUN.jsonl RUN.jsonl ...]
#
# Reads two or more runs of the suite (benchmp-run's records; default: the
# three suites of a 2-vCPU Intel Xeon KVM guest kept in tests/data) and, for every
# figure found in all of them, computes each candidate estimator from the
# record's intervals in every run: the median of the rounds' medians (the
# record's "median"), the best process (the best of the rounds' medians,
# the record's "robust" figure), the best interval (the least time, the
# most bandwidth), the 10th and 25th percentiles of the intervals on the
# good side (interpolated between ranks, as bm_percentile does), and the
# medians of the rounds' best intervals and of their 25th percentiles.
# Every statistic is computed by benchmp-stats.  For each kind
# of figure it prints, per estimator, the median run-to-run spread (max -
# min over the mean, in %), the median run-to-run CV and how many figures
# were within 3% CV.  scripts/bench/bench-flags.sh judges the intervals and
# flags.  Part of make bench.
set -eu
# The statistics are benchmp-stats' (bm_stats), found in the build.
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
LC_ALL=C
export LC_ALL

top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$top/tests/data/suite-vm-1.jsonl" \
    "$top/tests/data/suite-vm-2.jsonl" "$top/tests/data/suite-vm-3.jsonl"
[ $# -ge 2 ] || { echo "bench-estimators.sh: give two runs or more" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-estimators.sh: SKIP: no jq" >&2; exit 77; }
for f; do
	[ -r "$f" ] || { echo "bench-estimators.sh: $f: cannot read it" >&2; exit 2; }
done

# Every statistic is the library's (benchmp-stats, through bm_stats):
# jq only takes the records apart, awk only picks and lays out.
prog=bench-estimators.sh
bm_tmpdir bench-estimators

# One R line per record of a figure found in every run (its number, kind,
# key and direction, and its median), a V line per value and a W line
# per value with its round.
jq -rn --argjson nruns $# '
  def kind:
    if (.tool | test("^(cache|tlb|line|lat_mem_rd|par_mem|par_ops)$"))
      then "sweep-derived"
    elif (.params.placement? // null) != null then "two-process"
    elif .metric == "bandwidth" then "bandwidth"
    elif .metric == "rate" then "rate"
    else "cpu-bound latency" end;
  # The round of each value, from process_samples (older records have
  # no process_samples: their rounds gave as many values each).
  def roundof: . as $r |
    ($r.process_samples // [range(0; $r.processes // 1)
        | ($r.values | length) / ($r.processes // 1) | floor]) as $c |
    [range(0; $c | length) as $i | range(0; $c[$i]) | $i];
  def key: (.suite.figure // (.tool + " " + (.case // "")))
      + " " + ((.params.placement? // "") | tostring);

  [inputs | select(type == "object" and (.values | type) == "array"
      and (.values | length) > 0 and .suite.curve != true)
   | {key: key, kind: kind, r: .}]
  | group_by(.key) | map(select(length == $nruns)) | flatten
  | to_entries[] | .key as $n | .value.r as $r | .value as $f |
  (["R", $n, $f.kind, $f.key, ($r.better // "lower"), $r.median] | @tsv),
  ($r.values[] | ["V", $n, .] | @tsv),
  (($r | roundof) as $ro | $r.values | to_entries[] |
   select(.key < ($ro | length)) |
   ["W", "\($n) \($ro[.key])", .value] | @tsv)
' "$@" >"$tmp/recs"

# Each record's extremes and quantiles, and each round's.
awk -F'\t' '$1 == "V" { print $2 "\t" $3 }' "$tmp/recs" |
    bm_stats --each --print=min,max,p10,p25,p75,p90 >"$tmp/rec"
awk -F'\t' '$1 == "W" { print $2 "\t" $3 }' "$tmp/recs" |
    bm_stats --each --print=median,min,max,p25,p75 >"$tmp/round"
# Per record: the best of its rounds' medians, the median of its rounds'
# best values and of their 25th percentiles on the good side.
awk -F'\t' '
	FNR == 1 { file++ }
	file == 1 { if ($1 == "R") hi[$2] = $5 == "higher"; next }
	{
		split($1, k, " ")
		print k[1] "\tprocess\t" $2
		print k[1] "\tbest\t" (hi[k[1]] ? $4 : $3)
		print k[1] "\tq25\t" (hi[k[1]] ? $5 : $6)
	}' "$tmp/recs" "$tmp/round" |
    bm_stats --each --print=median,min,max >"$tmp/rounds"
# Per figure and estimator, the value of every run; then their run-to-run
# mean, extremes and CV.
awk -F'\t' '
	FNR == 1 { file++ }
	file == 1 {
		if ($1 == "R") {
			n++; hi[$2] = $5 == "higher"; key[$2] = $4
			kind[$2] = $3; med[$2] = $6
		}
		next
	}
	file == 2 { rec[$1] = $0; next }
	{ rd[$1, $2] = $0 }
	END {
		for (r = 0; r < n; r++) {
			split(rec[r], q, "\t")
			split(rd[r, "process"], p, "\t")
			split(rd[r, "best"], b, "\t")
			split(rd[r, "q25"], w, "\t")
			f = kind[r] "\t" key[r] "\t"
			print f "1 median\t" med[r]
			print f "2 best process\t" (hi[r] ? p[5] : p[4])
			print f "3 best\t" (hi[r] ? q[3] : q[2])
			print f "4 q10\t" (hi[r] ? q[7] : q[4])
			print f "5 q25\t" (hi[r] ? q[6] : q[5])
			print f "6 median of round bests\t" b[3]
			print f "7 median of round q25\t" w[3]
		}
	}' "$tmp/recs" "$tmp/rec" "$tmp/rounds" >"$tmp/est"
bm_stats --each --print=mean,min,max,cv <"$tmp/est" >"$tmp/runs"
# Per kind and estimator: the spread (max - min over the mean, in %) and
# CV (in %) of each figure, their medians over the figures of the kind.
awk -F'\t' '{
	m = $4 < 0 ? -$4 : $4
	print $1 "\t" $3 "\ts\t" (m == 0 ? 0 : ($6 - $5) / m * 100)
	print $1 "\t" $3 "\tc\t" $7 * 100
}' "$tmp/runs" >"$tmp/spread"
# The kinds in the order of their names (benchmp-stats keeps the order
# in which the keys come).
LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 "$tmp/spread" |
    bm_stats --each --median >"$tmp/kinds"
awk -F'\t' '
	FNR == 1 { file++ }
	file == 1 {
		if ($3 == "c") { nf[$1, $2]++; within[$1, $2] += $4 <= 3 }
		next
	}
	{
		if (!($1 in seen)) { seen[$1] = 1; kinds[++nk] = $1 }
		if (!(($1, $2) in est)) { est[$1, $2] = 1; names[$1] = names[$1] "\t" $2 }
		v[$1, $2, $3] = int($4 * 100 + 0.5) / 100
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = kinds[i]
			ne = split(substr(names[k], 2), e, "\t")
			printf "%s (%d figures)\n", k, nf[k, e[1]]
			for (j = 1; j <= ne; j++)
				printf "  %-24s  median spread %s%%   median CV %s%%   CV within 3%%: %d of %d\n",
				    substr(e[j], 3), v[k, e[j], "s"], v[k, e[j], "c"],
				    within[k, e[j]], nf[k, e[j]]
		}
	}' "$tmp/spread" "$tmp/kinds"
