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
# Usage: scripts/bench/bench-history.sh BUILDDIR DIR...
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: bench-history.sh BUILDDIR DIR..."
case ${1:-} in
-*)	echo "bench-history.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
esac
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$1
shift
command -v jq >/dev/null 2>&1 || { echo "bench-history.sh: SKIP: no jq" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-history.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
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
