#!/bin/sh
# bench-weights.sh: what each line of benchmp-run's plan costs, measured:
# the weights of the plan are these figures.
#
# Usage: scripts/bench/bench-weights.sh BUILDDIR [K]
#
# Runs the standard suite K times (default 1) with a budget it cannot
# reach (--budget 86400), so that no figure is cut, and times every run of
# a plan line from its progress line on stderr to the next one.  Prints,
# per plan line in the plan's order, the median over the K suites of its
# time per run (the sum over its passes divided by the passes) in tenths
# of a second, as the plan's weight column reads it, then the plan line
# as benchmp-run names it and its total in seconds; last the sum.  Run it
# on a quiet machine: a loaded one weighs the figures by its load.  Part
# of make bench-weights (not of make bench: it takes two minutes).
set -eu
prog=bench-weights.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

[ $# -ge 1 ] && [ $# -le 2 ] ||
	{ echo "usage: bench-weights.sh BUILDDIR [K]" >&2; exit 2; }
build=$1
k=${2:-1}
bm_in_range "$k" 1 10 ||
	{ echo "bench-weights.sh: K '$k' is not a count from 1 to 10" >&2; exit 2; }
[ -d "$build/bin" ] ||
	{ echo "bench-weights.sh: $build: not a build directory (no bin/)" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-weights.sh: SKIP: no jq" >&2; exit 77; }
bm_tmpdir bench-weights

i=1
while [ "$i" -le "$k" ]; do
	echo "bench-weights.sh: suite $i of $k (about two minutes)" >&2
	# Each progress line with the time it was read (ms since the epoch).
	"$(dirname "$0")/../benchmp-run" --build "$build" --budget 86400 \
	    --results "$tmp/res$i" 2>&1 >/dev/null |
	    while IFS= read -r line; do
		printf '%s %s\n' "$(date +%s%3N)" "$line"
	    done >"$tmp/err$i"
	grep -q ' benchmp-run: [0-9]* records in ' "$tmp/err$i" || {
		tail -n 3 "$tmp/err$i" >&2
		echo "bench-weights.sh: suite $i failed" >&2
		exit 1
	}
	# plan line (its private paths as <tmp>), passes, ms: a run's time is
	# from its progress line to the next line, the last run's to the
	# line that ends the suite.
	awk '
	function close_run(t) { if (cur != "") ms[cur] += t - t0; cur = "" }
	$2 ~ /^\[[0-9]+\/[0-9]+\]$/ {
		close_run($1)
		t0 = $1
		s = $0
		sub(/^[^ ]+ [^ ]+ /, "", s)
		sub(/: [0-9]+ s left$/, "", s)
		n = 1
		if (match(s, / \(pass [0-9]+ of [0-9]+\)$/)) {
			p = substr(s, RSTART + 1, RLENGTH - 2)
			split(p, w, " ")
			n = w[4]
			s = substr(s, 1, RSTART - 1)
		}
		gsub(/\/[^ ]*\/benchmp-run\.[A-Za-z0-9]+\//, "<tmp>/", s)
		if (!(s in ms)) { order[++no] = s; passes[s] = n }
		cur = s
		next
	}
	/ benchmp-run: [0-9]+ records in / { close_run($1) }
	END {
		for (j = 1; j <= no; j++)
			printf "%s\t%d\t%d\n", order[j], passes[order[j]], ms[order[j]]
	}' "$tmp/err$i" >"$tmp/t$i"
	i=$((i + 1))
done

# The median over the suites (bench_median), per plan line, in the first
# suite's order; a line a suite did not run counts 0 there.
printf '%-7s %-50s %s\n' weight "plan line" "total s"
sum=0
while IFS='	' read -r name passes _; do
	m=$(i=1
	while [ "$i" -le "$k" ]; do
		awk -F'\t' -v n="$name" '$1 == n { v = $3 } END { print v + 0 }' \
		    "$tmp/t$i"
		i=$((i + 1))
	done | bench_median)
	awk -v m="$m" -v p="$passes" -v n="$name" 'BEGIN {
		w = int(m / p / 100 + 0.5)
		printf "%-7d %-50s %.2f\n", w < 1 ? 1 : w, n, m / 1000
	}'
	sum=$(awk -v s="$sum" -v m="$m" 'BEGIN { print s + m }')
done <"$tmp/t1"
awk -v s="$sum" 'BEGIN { printf "%-7s %-50s %.2f\n", "", "sum", s / 1000 }'
