#!/bin/sh
# bench-history.sh: scripts/bench/bench-history.sh --replay on two small
# sets of three runs whose moves, intervals and reach are known by hand,
# the history's interval brought in to the values shown; bad usage
# exits 2.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
if [ ! -x "$bm" ] || ! have_jq; then
	echo "$me: no $bm or no jq: skipped" >&2
	exit 77
fi
replay=$top_srcdir/scripts/bench/bench-history.sh

# rec FILE TOOL VALUE: a served figure of TOOL at VALUE, its interval
# +-1% at 0.87, its visits 0.99, 1 and 1.01 times VALUE, appended to
# FILE.
rec() {
	awk -v t="$2" -v v="$3" 'BEGIN {
	    printf "{\"tool\":\"%s\",\"case\":\"c\",\"params\":{},", t
	    printf "\"metric\":\"latency\",\"unit\":\"us\",\"better\":\"lower\","
	    printf "\"value\":%s,\"ci_lo\":%.10g,\"ci_hi\":%.10g,", v, v * 0.99,
		v * 1.01
	    printf "\"ci_level\":0.87,\"ci_kind\":\"next run\",\"noisy\":false,"
	    printf "\"stat\":\"median of visits\",\"samples\":3,"
	    printf "\"processes\":1,\"values\":[%.10g,%s,%.10g],", v * 0.99, v,
		v * 1.01
	    printf "\"parallel\":1,\"timestamp\":\"2026-01-02T03:04:05Z\"}\n"
	}' >>"$1"
}
# set DIR A1 A2 A3: a set of three runs, lat_a at A1, A2 and A3, bw_b at
# 100 in each.
set_of() {
	for i in 1 2 3; do
		mkdir -p "$1/run$i/vm" || exit 99
	done
	rec "$1/run1/vm/r.jsonl" lat_a "$2"
	rec "$1/run2/vm/r.jsonl" lat_a "$3"
	rec "$1/run3/vm/r.jsonl" lat_a "$4"
	for i in 1 2 3; do
		rec "$1/run$i/vm/r.jsonl" bw_b 100
	done
}

# The first set: lat_a moved by 5% (10, 10.5, 10); the second held
# still at 10.
set_of "$tmp/s1" 10 10.5 10
set_of "$tmp/s2" 10 10 10
run sh "$replay" --replay "$top_builddir" "$tmp/s1" "$tmp/s2"
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$tmp/err")"
line() {
	grep "^$1 .*pairs of a run and the next" "$tmp/out"
}
# The runs' own intervals (+-1%): lat_a's two pairs of the first set
# fall outside (10.5 beyond 10.1, 10 below 10.395), the six others
# inside; every one of the 12 records reaches 1.0101% (100 / 99 - 1).
[ "$(line own)" = "own      8 pairs of a run and the next: the next value inside 75.0%; reach median 1.0%, 90th 1%, 99th 1%, widest 1%; 0 of 12 past a factor of two" ] ||
	fail "the own intervals: $(line own)"
# The history: the second set's lat_a has three past runs (10, 10.5,
# 10) in its first run and four in its second, whose moves of 4.9%
# Student's t stretches past +20%; the interval stops 5% (log ratio)
# beyond 10.5, the farthest value shown: +10.4% of 10.  Its third run
# has five past runs, a median move of 2.4%: +5.1%, within that.  The
# next values fall where they did.
[ "$(line history)" = "history  8 pairs of a run and the next: the next value inside 75.0%; reach median 1.0%, 90th 5%, 99th 10%, widest 10%; 0 of 12 past a factor of two" ] ||
	fail "the history's intervals: $(line history)"
# Those three runs are flagged by their moves, in a set that did not
# move; the set that moved had no past runs.
grep -q '^history  12 figure runs: flagged 25.0%, precision 0.0%, recall 0.0%$' \
    "$tmp/out" || fail "the history's flags: $(cat "$tmp/out")"

# What it refuses.
run sh "$replay" --replay "$top_builddir"
[ "$rc" -eq 2 ] || fail "no set: exit $rc"
run sh "$replay" --replay "$top_builddir" "$tmp/none"
[ "$rc" -eq 2 ] || fail "a set with no runs: exit $rc"
run sh "$replay" --bogus "$top_builddir" "$tmp/s1"
[ "$rc" -eq 2 ] || fail "an unknown option: exit $rc"
finish
