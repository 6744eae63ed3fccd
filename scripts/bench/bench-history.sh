#!/bin/sh
# bench-history.sh: what the machine's past runs (benchmp history) and
# the flag of an expected move did to recorded sets of the suite.  For
# each set (a benchmp-repeat --keep DIR whose runs kept their past runs
# in a store), bench-flags.sh's line "as recorded" three times:
#
#   written   the records as benchmp-run wrote them;
#   own       each run's own interval and flag (history.run_ci_lo,
#             run_ci_hi and run_noisy, where the record has them);
#   reach     each run's own interval, a served or derived figure
#             flagged as before the flag of an expected move: noisy when
#             its interval reaches past the precision (3%) on either
#             side, or for a reason of its judgement (noisy_why's others);
#   move      the same, flagged by the expected move instead: its
#             interval over 1.514 (a served figure's level, 0.87) or
#             1.103 (a derived one's, 0.73) past 3%, as the library
#             flags it now (record-decide.c, bm__decide_move_z).
#
# With --replay, the sets are read again in the order given through one
# new store, by BUILDDIR's benchmp history, each run's own interval and
# flag restored first (as "own" does, and the reasons of the history
# that wrote it dropped), and three lines over all the sets' figure runs
# (a sweep's points apart) give the share flagged, the precision and the
# recall against a move of more than 3% within a set (its runs' range
# over their mean, as bench-flags.sh counts it):
#
#   own       the runs' own flags;
#   moves     with the history's flags of a figure's moves and jumps;
#   history   with every flag of the history, that of a value that lies
#             past the precision from its past runs' median too.
#
# Two more lines say how the intervals held: how often the next run's
# value of a figure fell inside a run's interval within a set (a sweep's
# points apart), and how far every record's interval reached (its wider
# side as a ratio to its value, less one: the median, the 90th and 99th
# percentiles, the widest, and how many reached past a factor of two),
# first the runs' own, then the history's.
#
# Usage: scripts/bench/bench-history.sh [--replay] BUILDDIR DIR...
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: bench-history.sh [--replay] BUILDDIR DIR..."
replay=0
[ "${1:-}" != --replay ] || { replay=1; shift; }
case ${1:-} in
-*)	echo "bench-history.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
esac
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$1
shift
command -v jq >/dev/null 2>&1 || { echo "bench-history.sh: SKIP: no jq" >&2; exit 77; }
prog=bench-history.sh
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
bm_tmpdir bench-history
# The run's own interval and flag where history widened them.
own='if (.history.run_ci_lo | type) == "number" then
    .ci_lo = .history.run_ci_lo | .ci_hi = .history.run_ci_hi |
    .noisy = .history.run_noisy else . end'
# rule Z: the run's own interval flagged when it reaches past Z times 3%
# (the reasons of its judgement kept), for the figures whose interval is
# the next run's (the medians of visits and of processes, Z its served
# and derived factors); the others keep their flag.
rule() {
	# shellcheck disable=SC2016 # (jq's program)
	printf '%s' "$own"' | if (.stat == "median of visits" or
	    .stat == "median of processes") and (.value | type) == "number" and
	    .value != 0 and (.ci_lo | type) == "number" then
	    (((.noisy_why // []) | map(select(startswith("its interval reaches") or
	        startswith("its runs on this machine") | not)) | length > 0) or
	     (([.value - .ci_lo, .ci_hi - .value] | max) / (.value | fabs) >
	      0.03 * (if .stat == "median of visits" then '"$1"' else '"$2"' end)))
	    as $n | .noisy = $n else . end'
}
reach=$(rule 1 1)
move=$(rule 1.514 1.103)

# The runs' own flags and intervals, the history's reasons dropped.
restore="$own"' | if .noisy_why then .noisy_why = [.noisy_why[] |
    select(startswith("its runs on this machine") or
    startswith("it lies ") | not)] |
    if (.noisy_why | length) == 0 then del(.noisy_why) else . end
    else . end | del(.history)'
# The history's flags but the median's: noisy as the run was, or for a
# move or a jump.
moves='if .noisy_why then .noisy_why = [.noisy_why[] |
    select(startswith("it lies ") | not)] else . end |
    if (.history.run_noisy | type) == "boolean" then .noisy =
    (.history.run_noisy or ((.noisy_why // []) |
    any(startswith("its runs on this machine")))) else . end'
# A set's figure runs, one line each: 1 when its figure moved by more
# than 3% within the set, then 1 when the run flagged it.
# shellcheck disable=SC2016 # (jq's program)
pairs='.figures[] | select(.curve | not) |
    (((.values | max) - (.values | min)) / ((.values | add) / (.values |
    length))) as $r | ($r > 0.03) as $m | .flagged[] |
    "\(if $m then 1 else 0 end) \(if . then 1 else 0 end)"'
# A set's figures (a sweep's points apart): how many next values fell
# inside the previous run's interval, of how many pairs.
nexts='.figures[] | select(.curve | not) | "\(.next) \(.next_pairs)"'
# Each record's reach: its interval's wider side as a ratio to its value,
# less one (the greater of ci_hi / value and value / ci_lo: -50% reaches
# as far as +100%; every record with a positive value and an interval
# above zero, a sweep's points too).
# shellcheck disable=SC2016 # (jq's program)
reach='select((.value | type) == "number" and .value > 0 and
    (.ci_lo | type) == "number" and .ci_lo > 0 and
    (.ci_hi | type) == "number") |
    [(.ci_hi / .value), (.value / .ci_lo)] | max - 1'
if [ "$replay" = 1 ]; then
	bm=$build/bin/benchmp
	[ -x "$bm" ] || { echo "bench-history.sh: no $bm" >&2; exit 2; }
	n=0
	for dir; do
		n=$((n + 1))
		set -- "$dir"/run*/*/*.jsonl
		[ -r "$1" ] || { echo "bench-history.sh: $dir: no runs kept there" >&2; exit 2; }
		own_f=
		moves_f=
		hist_f=
		i=0
		for f; do
			case $f in *.visits.jsonl) continue ;; esac
			i=$((i + 1))
			b=$tmp/$n.$i
			jq -c "$restore" "$f" >"$b.own.jsonl" ||
				{ echo "bench-history.sh: $f: not records" >&2; exit 1; }
			"$bm" history --store "$tmp/store" --stamp "$n.$i" \
			    -o "$b.history.jsonl" "$b.own.jsonl" 2>/dev/null ||
				{ echo "bench-history.sh: $f: benchmp history failed" >&2; exit 1; }
			jq -c "$moves" "$b.history.jsonl" >"$b.moves.jsonl"
			own_f="$own_f $b.own.jsonl"
			moves_f="$moves_f $b.moves.jsonl"
			hist_f="$hist_f $b.history.jsonl"
		done
		# shellcheck disable=SC2086 # (the files, without blanks)
		{ "$bm" spread --json $own_f >"$tmp/own.spread"
		  "$bm" spread --json $moves_f >"$tmp/moves.spread"
		  "$bm" spread --json $hist_f >"$tmp/history.spread"
		} || { echo "bench-history.sh: $dir: benchmp spread failed" >&2; exit 1; }
		for kind in own moves history; do
			jq -r "$pairs" "$tmp/$kind.spread" >>"$tmp/$kind"
		done
		for kind in own history; do
			jq -r "$nexts" "$tmp/$kind.spread" >>"$tmp/$kind.next"
		done
		# shellcheck disable=SC2086 # (the files, without blanks)
		jq -r "$reach" $own_f >>"$tmp/own.reach"
		# shellcheck disable=SC2086 # (the files, without blanks)
		jq -r "$reach" $hist_f >>"$tmp/history.reach"
	done
	for kind in own moves history; do
		awk -v k="$kind" '{ n++; f += $2; tp += $1 && $2; m += $1 }
		    END { printf "%-8s %d figure runs: flagged %.1f%%, " \
		        "precision %.1f%%, recall %.1f%%\n", k, n, 100 * f / n,
		        f ? 100 * tp / f : 0, m ? 100 * tp / m : 0 }' \
		    "$tmp/$kind"
	done
	for kind in own history; do
		sort -g "$tmp/$kind.reach" >"$tmp/$kind.sorted"
		awk -v k="$kind" '{ n += $1; p += $2 }
		    END { printf "%-8s %d pairs of a run and the next: the next " \
		        "value inside %.1f%%;", k, p, p ? 100 * n / p : 0 }' \
		    "$tmp/$kind.next"
		awk '{ w[NR] = $1; big += $1 > 1 }
		    function at(q) { return 100 * w[int(q * (NR - 1)) + 1] }
		    END { if (NR == 0) { print " no intervals"; exit }
		        printf " reach median %.1f%%, 90th %.0f%%, 99th %.0f%%, " \
		        "widest %.0f%%; %d of %d past a factor of two\n", at(0.5),
		        at(0.9), at(0.99), 100 * w[NR], big, NR }' \
		    "$tmp/$kind.sorted"
	done
	exit 0
fi
for dir; do
	set -- "$dir"/run*/*/*.jsonl
	[ -r "$1" ] || { echo "bench-history.sh: $dir: no runs kept there" >&2; exit 2; }
	for kind in written own reach move; do
		i=0
		files=
		for f; do
			case $f in *.visits.jsonl) continue ;; esac
			i=$((i + 1))
			case $kind in
			written) cp "$f" "$tmp/$i.jsonl" ;;
			own) jq -c "$own" "$f" >"$tmp/$i.jsonl" ;;
			reach) jq -c "$reach" "$f" >"$tmp/$i.jsonl" ;;
			move) jq -c "$move" "$f" >"$tmp/$i.jsonl" ;;
			esac || { echo "bench-history.sh: $f: not records" >&2; exit 1; }
			files="$files $tmp/$i.jsonl"
		done
		# shellcheck disable=SC2086 # (the files, without blanks)
		printf '%s %-8s ' "$dir" "$kind"
		# shellcheck disable=SC2086
		"$top/scripts/bench/bench-flags.sh" "$build" $files |
		    sed -n 's/^as recorded (median): *//p'
	done
done
