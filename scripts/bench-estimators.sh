#!/bin/sh
# bench-estimators.sh: which statistic of a figure's intervals repeats best
# from one run of the suite to the next, per kind of figure.
#
# Usage: scripts/bench-estimators.sh [RUN.jsonl RUN.jsonl ...]
#
# Reads two or more runs of the suite (benchmp-run's records; default: the
# three suites of a 2-vCPU Intel Xeon KVM guest kept in tests/data) and, for every
# figure found in all of them, computes each candidate estimator from the
# record's intervals in every run: the median of the rounds' medians (the
# record's "median"), the best process (the best of the rounds' medians,
# the record's "robust" figure), the best interval (the least time, the
# most bandwidth), the 10th and 25th percentiles of the intervals on the
# good side, and the median of the rounds' best intervals.  For each kind
# of figure it prints, per estimator, the median run-to-run spread (max -
# min over the mean, in %), the median run-to-run CV and how many figures
# were within 3% CV.  scripts/bench-flags.sh judges the intervals and
# flags.  Part of make bench.
set -eu
LC_ALL=C
export LC_ALL

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$top/tests/data/suite-vm-1.jsonl" \
    "$top/tests/data/suite-vm-2.jsonl" "$top/tests/data/suite-vm-3.jsonl"
[ $# -ge 2 ] || { echo "bench-estimators.sh: give two runs or more" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-estimators.sh: SKIP: no jq" >&2; exit 77; }
for f; do
	[ -r "$f" ] || { echo "bench-estimators.sh: $f: cannot read it" >&2; exit 2; }
done

jq -rn --argjson nruns $# '
  def kind:
    if (.tool | test("^(cache|tlb|line|lat_mem_rd|par_mem|par_ops)$"))
      then "sweep-derived"
    elif (.params.placement? // null) != null then "two-process"
    elif .metric == "bandwidth" then "bandwidth"
    elif .metric == "rate" then "rate"
    else "cpu-bound latency" end;
  # The values on the good side first.
  def good($b): if $b == "higher" then sort | reverse else sort end;
  def q($p): . as $a | ((length - 1) * $p | floor) as $i | $a[$i];
  def med: sort | if length % 2 == 1 then .[length / 2 | floor]
      else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  # The rounds values of a record, from process_samples.
  # (older records have no process_samples: their rounds gave as many
  # values each).
  def rounds: . as $r |
    ($r.process_samples // [range(0; $r.processes // 1)
        | ($r.values | length) / ($r.processes // 1) | floor]) as $c |
    reduce range(0; $c | length) as $i ({at: 0, out: []};
        .out += [$r.values[.at:(.at + $c[$i])]] | .at += $c[$i]) |
    .out | map(select(length > 0));
  def key: (.suite.figure // (.tool + " " + (.case // "")))
      + " " + ((.params.placement? // "") | tostring);
  def estimators:
    .better as $b | (.values | good($b)) as $g |
    {median: .median,
     "best process": ([rounds[] | med] | good($b) | .[0]),
     best: $g[0],
     q10: ($g | q(0.10)),
     q25: ($g | q(0.25)),
     "median of round bests": ([rounds[] | good($b) | .[0]] | med),
     "median of round q25": ([rounds[] | good($b) | q(0.25)] | med)};
  def spread: (max - min) / ((add / length) | fabs) * 100;
  def cv: (add / length) as $m | if $m == 0 then 0 else
      ((map((. - $m) * (. - $m)) | add) / (length - 1) | sqrt) / ($m | fabs)
      * 100 end;

  [inputs | select(type == "object" and (.values | type) == "array"
      and (.values | length) > 0 and .suite.curve != true)
   | {key: key, kind: kind, run: input_filename, est: estimators}]
  | group_by(.key) | map(select(length == $nruns))
  | map(. as $runs | {kind: .[0].kind,
         s: ([(.[0].est | keys_unsorted)[] as $n
              | {($n): ([$runs[] | .est[$n]] | spread)}] | add),
         c: ([(.[0].est | keys_unsorted)[] as $n
              | {($n): ([$runs[] | .est[$n]] | cv)}] | add)})
  | group_by(.kind) | .[] |
  .[0].kind as $k | length as $nf |
  (.[0].s | keys_unsorted) as $names |
  "\($k) (\($nf) figures)",
  ($names[] as $n |
    [.[] | .s[$n]] as $sp | [.[] | .c[$n]] as $cv |
    "  \($n | . + (" " * (24 - length)))  median spread \($sp | med * 100 | round / 100)%   median CV \($cv | med * 100 | round / 100)%   CV within 3%: \([$cv[] | select(. <= 3)] | length) of \($nf)")
' "$@"
