#!/bin/sh
# bench-compare.sh: how stored runs decide: benchmp compare on pairs of
# single stored runs of lat_syscall null, one a real, known regression and
# one unchanged (A/A), and optionally on two stored standard suites, one
# with glibc's string functions limited (a change that moves bw_mem's
# bcopy and bzero).
#
# Usage: scripts/bench/bench-compare.sh [--pairs N] [--iters K]
#                                 [--served S] [--suites] [--keep DIR]
#                                 BUILDDIR
#
# The regression is real: an LD_PRELOAD library (tests/bench/ab-shim.c)
# runs a dependent chain of K multiplications (default 18) before
# getppid(), the call lat_syscall null times.  Its effect is measured
# first by a long paired comparison (benchmp-ab --served, 30 s) and
# printed.  Then N pairs (default 10) of each condition, interleaved,
# each pair two runs of lat_syscall null --json in a random order, judged
# by benchmp compare: its verdict and exit status counted.  With --served
# S each stored run is lat_syscall --served=S (its visits over S seconds
# the evidence compare weighs) instead of a cold one.  With --suites,
# two default suites (benchmp-run, 90 s each), the second with
# GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-AVX_Fast_Unaligned_Load,-ERMS,-AVX512F,
# and the figures benchmp compare calls worse or better.  --pairs 0 with
# --suites compares the suites alone; --keep DIR keeps their records and
# the comparison (a.jsonl, b.jsonl, compare.json) in DIR.
set -eu
LC_ALL=C
export LC_ALL

usage="usage: bench-compare.sh [--pairs N] [--iters K] [--served S] [--suites] [--keep DIR] BUILDDIR"
pairs=10
iters=18
served=
suites=0
keep=
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=${2:?$usage}; shift 2 ;;
	--iters) iters=${2:?$usage}; shift 2 ;;
	--served) served=${2:?$usage}; shift 2 ;;
	--suites) suites=1; shift ;;
	--keep) keep=${2:?$usage}; shift 2 ;;
	-*) echo "bench-compare.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
[ "$pairs:$suites" != 0:1 ] || pairs=none
for n in "$iters" ${served:+"$served"} $([ "$pairs" = none ] || echo "$pairs"); do
	case $n in ''|*[!0-9]*|0) echo "bench-compare.sh: '$n' is not a count" >&2; exit 2 ;; esac
done
build=$(cd "$1" && pwd)
bin=$build/bin
shim=$build/tests/bench/ab-shim.so
top=$(cd "$(dirname "$0")/../.." && pwd)
for f in "$bin/benchmp" "$bin/benchmp-ab" "$bin/lat_syscall" "$shim"; do
	[ -e "$f" ] || { echo "bench-compare.sh: $f: not built (make bench-compare builds it)" >&2; exit 2; }
done
command -v jq >/dev/null 2>&1 || { echo "bench-compare.sh: SKIP: no jq" >&2; exit 77; }
prog=bench-compare.sh
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
bm_tmpdir bench-compare
PATH=$bin:$PATH
export PATH

echo "bench-compare.sh: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(date -u +%Y-%m-%d), pairs $pairs, chain $iters${served:+, runs served $served s}"
# One calibration for every run, as benchmp-run does.
eval "$("$bin/enough" --export --all 2>/dev/null)"
export ENOUGH TIMING_O LOOP_O

# run PREFIX OUT: one stored run of lat_syscall null.
run() {
	# shellcheck disable=SC2086 # the prefix's words
	$1 "$bin/lat_syscall" ${served:+--served="$served"} --json null \
	    >"$2" 2>/dev/null </dev/null ||
		{ echo "bench-compare.sh: lat_syscall failed" >&2; exit 1; }
}

# singles: the pairs of single stored runs, judged and counted.
singles() {
	a="env LD_PRELOAD=$shim AB_SHIM_ITERS=0"
	b="env LD_PRELOAD=$shim AB_SHIM_ITERS=$iters"
	# shellcheck disable=SC2086 # the prefixes' words
	effect=$(benchmp-ab --served --json --budget 30 --allow-undecided \
	    --threshold 0.5 --a "$a" --b "$b" lat_syscall null </dev/null 2>/dev/null |
	    jq -r '"\(.ratio) [\(.lo), \(.hi)], \(.pairs) pairs"')
	echo "bench-compare.sh: the chain of $iters: B/A $effect (benchmp-ab --served, 30 s)"

	i=1
	: >"$tmp/verdicts"
	while [ "$i" -le "$pairs" ]; do
		for cond in A/A +chain; do
			second=$a
			[ "$cond" = A/A ] || second=$b
			# A random order: which run goes first.
			if [ $(( $(od -An -N1 -tu1 /dev/urandom) % 2 )) -eq 0 ]; then
				run "$a" "$tmp/1.json"
				run "$second" "$tmp/2.json"
			else
				run "$second" "$tmp/2.json"
				run "$a" "$tmp/1.json"
			fi
			rc=0
			benchmp compare --json "$tmp/1.json" "$tmp/2.json" \
			    >"$tmp/cmp.json" 2>"$tmp/cmp.err" || rc=$?
			v=$(jq -r '.figures[0].verdict // empty' "$tmp/cmp.json")
			echo "$cond ${v:-none} $rc" >>"$tmp/verdicts"
		done
		i=$((i + 1))
	done
	printf '%-8s %6s %6s %6s %9s %6s  %s\n' cond worse better same undecided other exits
	for cond in A/A +chain; do
		awk -v c="$cond" '$1 == c { n++; v[$2]++; e[$3]++ }
		    END {
			o = n - v["worse"] - v["better"] - v["same"] - v["undecided"]
			ex = ""
			for (k in e) ex = ex sprintf("%s:%d ", k, e[k])
			printf "%-8s %3d/%-2d %3d/%-2d %3d/%-2d %6d/%-2d %3d/%-2d  %s\n", c,
			    v["worse"], n, v["better"], n, v["same"], n,
			    v["undecided"], n, o, n, ex
		    }' "$tmp/verdicts"
	done
}

[ "$pairs" = none ] || singles
[ "$suites" = 1 ] || exit 0
tun=glibc.cpu.hwcaps=-AVX2,-AVX_Fast_Unaligned_Load,-ERMS,-AVX512F
"$top/scripts/benchmp-run" --build "$build" --no-check \
    --results "$tmp/s1" >/dev/null 2>&1 </dev/null || :
GLIBC_TUNABLES=$tun "$top/scripts/benchmp-run" --build "$build" \
    --no-check --results "$tmp/s2" >/dev/null 2>&1 </dev/null || :
set -- "$tmp"/s1/*/*.jsonl
s1=$1
set -- "$tmp"/s2/*/*.jsonl
s2=$1
[ -f "$s1" ] && [ -f "$s2" ] ||
	{ echo "bench-compare.sh: a suite left no records" >&2; exit 1; }
rc=0
benchmp compare --json "$s1" "$s2" >"$tmp/suites.json" 2>/dev/null || rc=$?
if [ -n "$keep" ]; then
	mkdir -p "$keep" && cp "$s1" "$keep/a.jsonl" && cp "$s2" "$keep/b.jsonl" &&
	    cp "$tmp/suites.json" "$keep/compare.json" ||
		{ echo "bench-compare.sh: cannot keep the records in $keep" >&2; exit 1; }
fi
echo "bench-compare.sh: two suites, B with GLIBC_TUNABLES=$tun: exit $rc"
jq -r '.figures[] | select(.verdict == "worse" or .verdict == "better") |
    "  \(.verdict)\t\(.figure)\t\(.ratio // "-")"' "$tmp/suites.json"
jq -r '.counts | to_entries | map("\(.value) \(.key)") | join(", ")' \
    "$tmp/suites.json"
