#!/bin/sh
# bench-sched.sh: the suite as one experiment, measured: how much of a
# standard suite's wall time is spent measuring, and how the suite's A/B
# through benchmp-sched decides an unchanged arm (A/A) and a known change
# on lat_syscall null (an LD_PRELOAD shim runs a chain of dependent
# multiplications before getppid(), the call it times:
# tests/bench/ab-shim.c).
#
# Usage: scripts/bench/bench-sched.sh [--pairs N] [--target F | --iters [a]K]
#                               [--budget S] [--stress] [--no-suite]
#                               [--keep DIR] BUILDDIR
#
# Prints one line a suite run ("measuring: ..." from benchmp-run's
# summary, its wall time), then for each of N A/A and N A/B suite pairs
# (default 2 each, interleaved; --budget S seconds each, default 240)
# its wall time and verdict counts, the verdict and ratio of lat_syscall
# null, the figures called worse and better (their B/A), and why a
# process failed, if one did; at the end, how many A/As found
# no figure worse or better and how many A/Bs found lat_syscall null
# worse and no other figure worse.  The shim's chain is searched before
# the pairs for an effect of F (default 0.05, +5%) by bench-ab.sh
# --search-only (long benchmp-ab runs, as its own trials are calibrated):
# a link's cost moves with the machine and its load (on a 2-vCPU AMD EPYC
# KVM guest, 2026-11-30, 8 links gave +4.7% quiet and 6 links +5.5%
# beside stress-ng --cpu 1), so the chain is searched, not fixed.
# --iters K takes K links (1 or more) instead, aK K links of additions
# (a cycle each).  With --stress, stress-ng --cpu 1 runs beside everything; --no-suite leaves the suite run out; --keep DIR keeps each
# run's verdicts there (aa-N.ab.json, ab-N.ab.json: benchmp-sched's
# JSON lines, each figure's pairs and clusters) and where its time went
# (aa-N.visits.json, ab-N.visits.json).  Part of make bench.
set -eu
LC_ALL=C
export LC_ALL

usage="usage: bench-sched.sh [--pairs N] [--target F | --iters [a]K] [--budget S] [--stress] [--no-suite] [--keep DIR] BUILDDIR"
pairs=2
iters=
target=0.05
budget=240
stress=0
suite=1
keep=
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=${2:?$usage}; shift 2 ;;
	--iters) iters=${2:?$usage}; shift 2 ;;
	--target) target=${2:?$usage}; shift 2 ;;
	--budget) budget=${2:?$usage}; shift 2 ;;
	--stress) stress=1; shift ;;
	--no-suite) suite=0; shift ;;
	--keep) keep=${2:?$usage}; shift 2 ;;
	-*) echo "bench-sched.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
for v in "$pairs" "$budget"; do
	case $v in ''|*[!0-9]*) echo "bench-sched.sh: '$v' is not a count" >&2; exit 2 ;; esac
done
links=${iters:-0}
links=${links#a}
case $links in ''|*[!0-9]*) echo "bench-sched.sh: --iters: '$iters' is neither K nor aK" >&2; exit 2 ;; esac
[ -z "$iters" ] || [ "$links" -gt 0 ] || { echo "bench-sched.sh: --iters: a chain of 0 links is no change" >&2; exit 2; }
awk -v t="$target" 'BEGIN { exit !(t + 0 > 0 && t + 0 < 1) }' ||
	{ echo "bench-sched.sh: --target: '$target' is not a fraction" >&2; exit 2; }
build=$(cd "$1" && pwd)
if [ -n "$keep" ]; then
	mkdir -p "$keep" && keep=$(cd "$keep" && pwd) ||
		{ echo "bench-sched.sh: --keep: cannot make $keep" >&2; exit 2; }
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
shim=$build/tests/bench/ab-shim.so
[ -e "$shim" ] || { echo "bench-sched.sh: $shim: not built (make bench-ab builds it)" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-sched.sh: SKIP: no jq" >&2; exit 77; }
if [ "$stress" = 1 ] && ! command -v stress-ng >/dev/null 2>&1; then
	echo "bench-sched.sh: SKIP: --stress needs stress-ng" >&2
	exit 77
fi
spid=
prog=bench-sched.sh
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
# stress-ng, where started, goes with the temporary directory.
bm_at_exit() {
	[ -z "$spid" ] || kill "$spid" 2>/dev/null || :
}
bm_tmpdir bench-sched
if [ "$stress" = 1 ]; then
	stress-ng --cpu 1 --timeout 86400 >/dev/null 2>&1 &
	spid=$!
fi
run="$top/scripts/benchmp-run --build $build --results $tmp/results --no-check"

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(date -u +%Y-%m-%d)$([ "$stress" = 1 ] && echo ', beside stress-ng --cpu 1')"
if [ "$suite" = 1 ]; then
	t0=$(date +%s)
	# shellcheck disable=SC2086 # $run is words
	$run >"$tmp/suite.out" 2>"$tmp/suite.err" || echo "suite: exit $?"
	echo "suite: $(grep -m 1 '^measuring:' "$tmp/suite.out"), wall $(($(date +%s) - t0)) s"
fi

if [ -z "$iters" ]; then
	# The chain for the target, searched as bench-ab.sh searches its costs
	# (stress-ng, if any, already runs beside it).
	"$top/scripts/bench/bench-ab.sh" --only lat_syscall --targets "$target" \
	    --search-only "$build" >"$tmp/search" 2>&1 ||
		{ echo "bench-sched.sh: the chain's search failed: $(tail -n 1 "$tmp/search")" >&2; exit 1; }
	sed -n 's/^bench-ab.sh: lat_syscall: /search: /p' "$tmp/search"
	iters=$(awk '$1 == "lat_syscall" && $3 ~ /^\+/ { c = $2 } END { print c }' "$tmp/search")
	# (Below 2% the search gives aN: N links of additions.)
	case ${iters#a} in ''|*[!0-9]*) echo "bench-sched.sh: the chain's search gave no chain" >&2; exit 1 ;; esac
	echo "chain: $iters links, searched for +$(awk -v t="$target" 'BEGIN { print t * 100 }')%"
else
	echo "chain: $iters links, given"
fi

a="env LD_PRELOAD=$shim AB_SHIM_ITERS=0"
: >"$tmp/tally"
i=1
while [ "$i" -le "$pairs" ]; do
	for kind in aa ab; do
		b=$a
		[ "$kind" = aa ] || b="env LD_PRELOAD=$shim AB_SHIM_ITERS=$iters"
		t0=$(date +%s)
		rc=0
		# shellcheck disable=SC2086 # $run is words
		$run --budget "$budget" --a "$a" --b "$b" >"$tmp/ab.out" \
		    2>"$tmp/ab.err" || rc=$?
		wall=$(($(date +%s) - t0))
		f=
		for g in "$tmp"/results/*/*.ab.json; do
			[ -e "$g" ] && f=$g
		done
		if [ -z "$f" ]; then
			echo "$kind $i: exit $rc, no verdicts: $(tail -n 1 "$tmp/ab.err")"
			echo "$kind none" >>"$tmp/tally"
			continue
		fi
		jq -s -r --arg k "$kind" --arg i "$i" --arg w "$wall" --arg rc "$rc" '
		    (map(select(.figure == "lat_syscall null"))[0] // {}) as $n |
		    "\($k) \($i): exit \($rc), \($w) s, " +
		    "\(map(select(.verdict == "worse")) | length) worse, " +
		    "\(map(select(.verdict == "better")) | length) better, " +
		    "\(map(select(.verdict == "same")) | length) same, " +
		    "\(map(select(.verdict == "undecided")) | length) undecided; " +
		    "lat_syscall null \($n.verdict // "-") \($n.ratio // "-") " +
		    "(\($n.pairs // 0) pairs, \($n.clusters // 0) clusters); worse: " +
		    ([.[] | select(.verdict == "worse") | "\(.figure) #\(.seq) \(.ratio)"] | join(", ")) +
		    "; better: " +
		    ([.[] | select(.verdict == "better") | "\(.figure) #\(.seq) \(.ratio)"] | join(", "))' \
		    "$f"
		# Why a process failed, if one did (benchmp-sched names it).
		tr '\r' '\n' <"$tmp/ab.err" | sed -n 's/^benchmp-sched: line /  failed: line /p'
		# The pair's outcome: "clean" when an A/A called nothing worse or
		# better, or an A/B called lat_syscall null worse and nothing
		# else worse.
		jq -s -r --arg k "$kind" '
		    [.[] | select(.verdict == "worse") | .figure] as $w |
		    [.[] | select(.verdict == "better") | .figure] as $b |
		    if $k == "aa" then
			(if ($w + $b | length) == 0 then "aa clean" else "aa alarm" end)
		    else
			(if $w == ["lat_syscall null"] then "ab clean" else "ab miss" end)
		    end' "$f" >>"$tmp/tally"
		v=${f%.ab.json}.visits.json
		if [ -n "$keep" ]; then
			mv "$f" "$keep/$kind-$i.ab.json" ||
				echo "bench-sched.sh: cannot keep $f in $keep" >&2
			[ ! -e "$v" ] || mv "$v" "$keep/$kind-$i.visits.json" ||
				echo "bench-sched.sh: cannot keep $v in $keep" >&2
		fi
		rm -f "$f" "$v"
	done
	i=$((i + 1))
done
awk -v n="$pairs" '{ v[$0]++ }
    END {
	printf "A/A: %d of %d found no figure worse or better\n", v["aa clean"], n
	printf "A/B: %d of %d found lat_syscall null worse and no other figure worse\n", v["ab clean"], n
    }' "$tmp/tally"
