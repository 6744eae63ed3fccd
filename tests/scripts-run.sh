#!/bin/sh
# scripts-run.sh: benchmp-run and benchmp-scaling on the built tools.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
scal=$top_srcdir/scripts/benchmp-scaling
# The tools as if installed: the build's bin/ first on PATH.
PATH=$(cd "$bin" && pwd):$PATH
export PATH

run "$brun" --installed --quick --only latency --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run: exit $rc: $(tail -n 3 "$tmp/err")"
grep -q '^Local communication latencies$' "$tmp/out" || fail "no group title"
for t in lat_pipe lat_unix lat_fifo lat_sem lat_fcntl lat_udp lat_tcp \
    lat_connect lat_unix_connect; do
	grep -Eq "^  $t +[0-9.]+ us " "$tmp/out" ||
		fail "no $t row: $(cat "$tmp/out")"
done
grep -q '^\[9/9\] lat_unix_connect$' "$tmp/err" || fail "no progress on stderr"
set -- "$tmp"/res/*/*.jsonl
[ -f "$1" ] || fail "no results file"
[ "$(jq -s 'length' "$1")" -eq 9 ] || fail "not 9 records in $1"
jq -e -s 'all(.calibration.from_env.enough == true)' "$1" >/dev/null ||
	fail "the tools did not get the exported calibration"
set -- "$tmp"/res/*/*.machine.json
jq -e '.cpus >= 1 and (.kernel | length) > 0 and .caches.last_level > 0' \
    "$1" >/dev/null || fail "machine description: $(cat "$1")"

# A budget re-measures the widest figures while the expected cost of a
# run (at least a second) fits in what is left.  How long that takes is
# the machine's: a re-run meets whatever load comes, so only a hang guard
# bounds the time, and what is checked is the decision: every re-run is
# announced with time left, and a budget of 1 s, spent by the first pass,
# re-measures nothing.
t0=$(date +%s)
run "$brun" --installed --quick --only latency --budget 8 \
    --results "$tmp/res2"
t1=$(date +%s)
[ "$rc" -eq 0 ] || fail "--budget: exit $rc: $(tail -n 3 "$tmp/err")"
[ $((t1 - t0)) -le 120 ] || fail "--budget 8 took $((t1 - t0)) s"
set -- "$tmp"/res2/*/*.jsonl
[ "$(jq -s 'length' "$1")" -ge 9 ] || fail "--budget: records lost"
! grep -E '^benchmp-run: budget: .* \((-[0-9]+|0) s left\)$' "$tmp/err" ||
	fail "--budget 8: a re-run with no time left"
run "$brun" --installed --quick --only latency --budget 1 \
    --results "$tmp/res3"
[ "$rc" -eq 0 ] || fail "--budget 1: exit $rc: $(tail -n 3 "$tmp/err")"
! grep -q '^benchmp-run: budget:' "$tmp/err" ||
	fail "--budget 1: re-measured: $(grep budget: "$tmp/err")"
set -- "$tmp"/res3/*/*.jsonl
[ "$(jq -s 'length' "$1")" -eq 9 ] || fail "--budget 1: not 9 records"

expect_exit 2 "unknown group 'cpu'" "$brun" --only cpu
expect_exit 2 "--budget: 'x' is not" "$brun" --budget x
expect_exit 2 'exclude each other' "$brun" --build "$tmp" --installed
expect_exit 2 "unknown argument '--bogus'" "$brun" --bogus

run "$scal" --max 2 --no-plot --output "$tmp/sc.jsonl" bw_mem -N 3 64k rd
[ "$rc" -eq 0 ] || fail "benchmp-scaling: exit $rc: $(cat "$tmp/err")"
[ "$(grep -Ec '^ +[12] ' "$tmp/out")" -eq 2 ] ||
	fail "not two points: $(cat "$tmp/out")"
grep -Eq '^ +1 .* 1\.00 +100% ' "$tmp/out" ||
	fail "one worker is not the baseline: $(cat "$tmp/out")"
[ "$(jq -s 'map(.parallel) == [1, 2]' "$tmp/sc.jsonl")" = true ] ||
	fail "records: $(jq -c .parallel "$tmp/sc.jsonl")"
if command -v gnuplot >/dev/null 2>&1; then
	run "$scal" --max 1 --output "$tmp/sc1.jsonl" bw_mem -N 3 64k rd
	[ "$rc" -eq 0 ] && [ -s "$tmp/sc1.png" ] && [ -s "$tmp/sc1.svg" ] ||
		fail "benchmp-scaling did not plot by default: $(cat "$tmp/err")"
fi
expect_exit 2 "--max: '0' is not" "$scal" --max 0 bw_mem 64k rd
expect_exit 2 'missing the tool' "$scal"
expect_exit 1 'no_such_tool: no such tool' "$scal" no_such_tool
no_children
finish
