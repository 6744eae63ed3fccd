#!/bin/sh
# load.sh: under a CPU and memory load on every CPU (stress-ng), runs
# still finish in bounded time, and every figure whose confidence interval
# is wide is marked noisy in its record, never passed off as certain.
. "$top_srcdir/tests/lib.sh"

if ! command -v stress-ng >/dev/null 2>&1; then
	echo "$me: stress-ng is not installed (.ci/run deps installs it)" >&2
	exit 77
fi
if ! have_jq; then
	echo "$me: jq is not installed" >&2
	exit 77
fi

cpus=$(getconf _NPROCESSORS_ONLN)
stress-ng --cpu "$cpus" --vm 1 --vm-bytes 256m --timeout 300s \
    >"$tmp/stress.log" 2>&1 &
stress=$!
trap 'kill "$stress" 2>/dev/null; wait "$stress" 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1
kill -0 "$stress" 2>/dev/null || fail "stress-ng did not start: $(cat "$tmp/stress.log")"

# check_noisy WHAT: every record in $tmp/out agrees with its interval and
# its interference (benchmp(3)): a figure with a fifth or more of its
# intervals disturbed is noisy, and so is one of a single round of
# processes (the tests run one: BENCHMP_PROCESSES), which bounds nothing
# of the next; else a width over 10.5% of the median is flagged noisy,
# under 9.5% is not (the flag is decided on the time per operation; a
# bandwidth's interval is its inverse, so the edge is blurred by a
# little).
check_noisy() {
	jq -e -s 'length > 0 and all(.[];
	    (.ci_hi - .ci_lo) as $w | (.median | fabs) as $m |
	    (.interference.intervals // 0) as $n |
	    (if $n > 0 and (.interference.disturbed // 0) >= 0.2 * $n
	     then .noisy
	     elif .processes == 1 and .samples > 1 then .noisy
	     elif $w > 0.105 * $m then .noisy
	     elif $w < 0.095 * $m then (.noisy | not)
	     else true end))' "$tmp/out" >/dev/null ||
		fail "$1: a record's noisy flag disagrees with its interval: $(jq -c '{case, median, ci_lo, ci_hi, noisy, interference: (.interference | {intervals, disturbed})}' "$tmp/out" | head -n 3)"
}

for cmd in "lat_syscall null" "lat_pipe" "bw_mem 8m rd" "lat_ops" \
    "lat_ctx 2 4"; do
	# Calibrated for real, under the load (no ENOUGH from lib.sh).
	# shellcheck disable=SC2086
	set -- $cmd
	name=$1
	shift
	t0=$(date +%s)
	timeout 120 env -u ENOUGH -u TIMING_O -u LOOP_O "$bin/$name" --json \
	    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	took=$(($(date +%s) - t0))
	[ "$rc" -eq 0 ] || fail "$cmd under load: exit $rc: $(head -n 2 "$tmp/err")"
	[ "$took" -le 60 ] || fail "$cmd under load: took $took s"
	[ "$rc" -eq 0 ] && check_noisy "$cmd"
	noisy=$(jq -s '[.[] | select(.noisy)] | length' "$tmp/out")
	echo "$me: $cmd: $took s, $noisy of $(wc -l <"$tmp/out") figures noisy" >&2
done
kill -0 "$stress" 2>/dev/null || fail "stress-ng ended before the runs did"
no_children
finish
