#!/bin/sh
# bench-interference.sh: what the interference accounting costs and catches (make bench).
#
# Usage: sh scripts/bench/bench-interference.sh BUILDDIR [K]
#
# 1. Cost: lat_syscall null and lat_pipe (same CPU and cross) with the
#    accounting on and off (BENCHMP_INTERFERENCE), K runs each (default
#    7), interleaved, calibration exported once: the medians, their ratio
#    and the median wall time of a run.
# 2. Catch: the same figures with `stress-ng --cpu 1` beside them for
#    20 s: the share of timed intervals judged disturbed and each figure's
#    distance from its quiet median, on and off; with LMBENCH=DIR (the bin
#    directory of a built lmbench), lmbench's lat_syscall null and lat_pipe
#    measured quiet and loaded the same way, for the same distance.
#    Skipped without stress-ng.
# Exit 0 whatever the figures; 1 when a program fails; 77 without jq.
set -u
prog=bench-interference.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
export LC_ALL=C

b=${1:?usage: bench-interference.sh BUILDDIR [K]}
k=${2:-7}
case $k in
'' | *[!0-9]*) echo "bench-interference.sh: K '$k' is not a count" >&2
	exit 2 ;;
esac
command -v jq >/dev/null 2>&1 || { echo "bench-interference.sh: SKIP: no jq"
	exit 77; }
bm_programs "$b/bin" lat_syscall
bin=$bm_bin
stress=
# A stress-ng still running is stopped at the exit.
# shellcheck disable=SC2317 # (called by the trap)
bm_at_exit() {
	[ -z "$stress" ] || kill "$stress" 2>/dev/null
}
bm_tmpdir benchmp-interf

now() {
	date +%s.%N
}

# run NAME SWITCH TOOL ARGS...: one run; value, disturbed share and wall
# seconds appended to $tmp/NAME.SWITCH.
run() {
	name=$1 sw=$2
	shift 2
	t0=$(now)
	if ! BENCHMP_INTERFERENCE=$sw "$@" --json >"$tmp/out" 2>"$tmp/err"; then
		echo "bench-interference.sh: '$*' failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	t1=$(now)
	jq -r --arg w "$(echo "$t1 $t0" | awk '{ printf "%.4f", $1 - $2 }')" \
	    '[.value, (if .interference.accounted then
		.interference.disturbed / .interference.intervals
		else 0 end), ($w | tonumber)] | @tsv' "$tmp/out" | head -n 1 \
	    >>"$tmp/$name.$sw"
}

# lmrun NAME CMD...: lmbench's figure (the number after the colon) to
# $tmp/NAME.lm.
lmrun() {
	name=$1
	shift
	"$@" 2>&1 | awk -F: 'NF > 1 { split($2, a, " "); print a[1]; exit }' \
	    >>"$tmp/$name.lm"
}

# col FILE N: the median of column N.
col() {
	cut -f "$2" "$1" | bench_median
}

figures='syscall pipe_same pipe_cross'
measure() {
	suffix=$1
	i=0
	while [ "$i" -lt "$k" ]; do
		for sw in on off; do
			run "syscall$suffix" "$sw" "$bin/lat_syscall" null
			run "pipe_same$suffix" "$sw" "$bin/lat_pipe" --placement=same
			run "pipe_cross$suffix" "$sw" "$bin/lat_pipe" --placement=cross
		done
		if [ -n "${LMBENCH:-}" ]; then
			lmrun "syscall$suffix" "$LMBENCH/lat_syscall" null
			lmrun "pipe$suffix" "$LMBENCH/lat_pipe"
		fi
		i=$((i + 1))
	done
}

unset ENOUGH TIMING_O LOOP_O BENCHMP_PROCESSES
eval "$("$bin/enough" --all)" || exit 1
echo "interference accounting on $(uname -n), $(nproc) CPUs," \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
    "$(date -u +%Y-%m-%dT%H:%M:%SZ), $k runs each, interleaved"
measure ""
printf '%-12s %12s %12s %8s %9s %9s\n' figure "on (us)" "off (us)" on/off \
    "wall on" "wall off"
for f in $figures; do
	on=$(col "$tmp/$f.on" 1)
	off=$(col "$tmp/$f.off" 1)
	printf '%-12s %12.4f %12.4f %8.4f %9.3f %9.3f\n' "$f" "$on" "$off" \
	    "$(awk -v a="$on" -v b="$off" 'BEGIN { print b > 0 ? a / b : 0 }')" \
	    "$(col "$tmp/$f.on" 3)" "$(col "$tmp/$f.off" 3)"
done

if ! command -v stress-ng >/dev/null 2>&1; then
	echo "loaded: SKIP (no stress-ng)"
	exit 0
fi
stress-ng --cpu 1 --timeout 20s >/dev/null 2>&1 &
stress=$!
sleep 1
kq=$k
k=3
measure .load
k=$kq
wait "$stress" 2>/dev/null
stress=
echo "beside stress-ng --cpu 1: share of intervals judged disturbed, and" \
    "the median's distance from the quiet median"
printf '%-12s %10s %12s %12s\n' figure disturbed "dist on" "dist off"
for f in $figures; do
	printf '%-12s %9.1f%% %11.1f%% %11.1f%%\n' "$f" \
	    "$(col "$tmp/$f.load.on" 2 | awk '{ print 100 * $1 }')" \
	    "$(awk -v a="$(col "$tmp/$f.load.on" 1)" -v q="$(col "$tmp/$f.on" 1)" \
		'BEGIN { print q > 0 ? 100 * (a - q) / q : 0 }')" \
	    "$(awk -v a="$(col "$tmp/$f.load.off" 1)" -v q="$(col "$tmp/$f.off" 1)" \
		'BEGIN { print q > 0 ? 100 * (a - q) / q : 0 }')"
done
if [ -n "${LMBENCH:-}" ]; then
	for f in syscall pipe; do
		printf 'lmbench %-8s quiet %.4f loaded %.4f distance %.1f%%\n' "$f" \
		    "$(bench_median <"$tmp/$f.lm")" "$(bench_median <"$tmp/$f.load.lm")" \
		    "$(awk -v a="$(bench_median <"$tmp/$f.load.lm")" \
			-v q="$(bench_median <"$tmp/$f.lm")" \
			'BEGIN { print q > 0 ? 100 * (a - q) / q : 0 }')"
	done
else
	echo "lmbench: not measured (set LMBENCH=DIR, its bin directory)"
fi
