#!/bin/sh
# benchmp-ab-input.sh: benchmp-ab on what arms and plans give it: units, values that are no measurement, figures with no better direction, invalid JSON, many records, bad plan files.
. "$top_srcdir/tests/lib.sh"

ab=$bin/benchmp-ab
fake=$top_srcdir/tests/ab-fake.sh
AB_FAKE_STATE=$tmp/state
export AB_FAKE_STATE
cr=$(printf '\r')

# The stand-in needs no calibration and no budget (see benchmp-ab.sh).
# shellcheck disable=SC2317 # (called through run and expect_exit)
ab_q() {
	"$ab" --no-calibrate --budget 86400 "$@"
}

# json_ok: every line of $tmp/out is valid JSON (where jq is here).
json_ok() {
	if have_jq && ! jq -e . "$tmp/out" >/dev/null 2>&1; then
		fail "$1: the output is not JSON: $(head -c 300 "$tmp/out")"
	fi
}

# Units: 1 us in A and 1000 ns in B are one time, paired in A's unit:
# same, not a thousand times worse; the medians in one unit.
run ab_q --json --a '' --b 'env AB_FAKE_UNIT=ns AB_FAKE_SCALE=1000' "$fake"
if [ "$rc" -ne 0 ]; then
	fail "us against ns: exit $rc: $(head -n 2 "$tmp/err") $(cat "$tmp/out")"
elif have_jq && ! jq -e '.verdict == "same" and .unit == "us" and
    .ratio > 0.98 and .ratio < 1.02 and .a_median > 90 and
    .a_median < 110 and .b_median > 90 and .b_median < 110' \
    "$tmp/out" >/dev/null; then
	fail "us against ns: $(cat "$tmp/out")"
fi
# Bandwidths: MB/s against GB/s.
run ab_q --json --a 'env AB_FAKE_BETTER=higher' \
    --b 'env AB_FAKE_BETTER=higher AB_FAKE_UNIT=GB/s AB_FAKE_SCALE=0.001' \
    "$fake"
if [ "$rc" -ne 0 ] || { have_jq && ! jq -e '.verdict == "same" and
    .unit == "MB/s"' "$tmp/out" >/dev/null; }; then
	fail "MB/s against GB/s: exit $rc: $(head -n 2 "$tmp/err") $(cat "$tmp/out")"
fi
# Units of two kinds are refused, the figure and both units named.
expect_exit 4 "fake x latency: arm A reports it in 'us', arm B in 'ops/s': not comparable" \
    ab_q --a '' --b 'env AB_FAKE_UNIT=ops/s' "$fake"

# A value that is no measurement is the arm's failure, named: exit 4.
for v in 0 -5 NaN Infinity null 1e999; do
	expect_exit 4 "arm B printed fake x latency = [^ ]+: no measurement" \
	    ab_q --a '' --b "env AB_FAKE_VALUE=$v" "$fake"
done
expect_exit 4 "arm A printed fake x latency = 0: no measurement" \
    ab_q --a 'env AB_FAKE_VALUE=0' --b '' "$fake"

# A figure with no better direction (a line size, 64 then 128 bytes):
# changed, exit 0, "better":"none" kept; the same when it does not move.
run ab_q --json --a 'env AB_FAKE_BETTER=none AB_FAKE_BASE=64 AB_FAKE_NOISE=0' \
    --b 'env AB_FAKE_BETTER=none AB_FAKE_BASE=128 AB_FAKE_NOISE=0' "$fake"
if [ "$rc" -ne 0 ]; then
	fail "64 to 128 bytes: exit $rc: $(head -n 2 "$tmp/err") $(cat "$tmp/out")"
elif have_jq && ! jq -e '.verdict == "changed" and .better == "none" and
    .ratio == 2' "$tmp/out" >/dev/null; then
	fail "64 to 128 bytes: $(cat "$tmp/out")"
fi
run ab_q --a 'env AB_FAKE_BETTER=none AB_FAKE_BASE=64 AB_FAKE_NOISE=0' \
    --b 'env AB_FAKE_BETTER=none AB_FAKE_BASE=128 AB_FAKE_NOISE=0' "$fake"
if [ "$rc" -ne 0 ] || ! grep -q ' changed ' "$tmp/out" ||
    ! grep -q '1 changed' "$tmp/out"; then
	fail "64 to 128 bytes, text ($rc): $(cat "$tmp/out")"
fi
run ab_q --json --a 'env AB_FAKE_BETTER=none' --b 'env AB_FAKE_BETTER=none' \
    "$fake"
if [ "$rc" -ne 0 ] || { have_jq && ! jq -e '.verdict == "same" and
    .better == "none"' "$tmp/out" >/dev/null; }; then
	fail "an unmoved figure with no better direction ($rc): $(cat "$tmp/out")"
fi

# A record that is not JSON is refused, the arm named; the output of
# every run above and below is JSON.
expect_exit 4 'arm A printed a record that is not valid JSON' \
    ab_q --json --a 'env AB_FAKE_PARAMS=abc' --b '' "$fake"
[ ! -s "$tmp/out" ] || fail "invalid params copied out: $(cat "$tmp/out")"
for bad in '{"a":}' '[1,]' '{"a":01}' '"x' '{"a":tru}' '{"a":1}}'; do
	expect_exit 4 'arm B printed a record that is not valid JSON' \
	    ab_q --json --a '' --b "env 'AB_FAKE_PARAMS=$bad'" "$fake"
done
nested='env '\''AB_FAKE_PARAMS={"s":[1,2.5e-3,true,null]}'\'
run ab_q --json --a "$nested" --b "$nested" "$fake"
[ "$rc" -eq 0 ] || fail "nested params: exit $rc: $(head -n 2 "$tmp/err")"
json_ok "nested params"

# Bytes that are not UTF-8 in a record's strings come out as U+FFFD.
latin=$(printf '{"s":"\377"}')
run ab_q --json --a "env 'AB_FAKE_PARAMS=$latin'" --b "env 'AB_FAKE_PARAMS=$latin'" \
    "$fake"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
	fail "a byte not UTF-8: exit $rc: $(head -n 2 "$tmp/err")"
elif have_jq && ! jq -e '.params.s == "\ufffd"' "$tmp/out" >/dev/null 2>&1; then
	fail "a byte not UTF-8: not valid JSON out: $(od -c "$tmp/out" | head -n 4)"
fi

# Many records: 60,000 figures a run pair in seconds, not minutes (the
# bound is generous for a loaded machine: pairing was quadratic, and
# 40,000 took 36 s on a quiet one).
run timeout 60 "$ab" --no-calibrate --budget 1 --json \
    --a 'env AB_FAKE_MANY=60000' --b 'env AB_FAKE_MANY=60000' "$fake"
if [ "$rc" -ne 3 ] && [ "$rc" -ne 0 ]; then
	fail "60,000 records: exit $rc (124: over 60 s): $(head -n 2 "$tmp/err")"
elif [ "$(wc -l <"$tmp/out")" -ne 60000 ]; then
	fail "60,000 records: $(wc -l <"$tmp/out") figures"
fi

# Plan files: a NUL byte, endless input, a line too long are refused with
# the line's number, in bounded time.
run timeout 60 "$ab" --no-calibrate --a '' --b '' --plan /dev/zero
[ "$rc" -eq 2 ] && grep -q '/dev/zero: line 1: a NUL byte' "$tmp/err" ||
	fail "--plan /dev/zero: exit $rc (124: it spun): $(head -n 2 "$tmp/err")"
{ printf '%s\n' "$fake" && printf '\0' && head -c 5000 /dev/zero |
    tr '\0' x && printf ' %s\n' "$fake"; } >"$tmp/nul.plan"
expect_exit 2 'nul.plan: line 2: a NUL byte' \
    "$ab" --no-calibrate --a '' --b '' --plan "$tmp/nul.plan"
{ head -c 5000 /dev/zero | tr '\0' x && echo; } >"$tmp/long.plan"
expect_exit 2 'line 1: longer than 4096 characters' \
    "$ab" --no-calibrate --a '' --b '' --plan "$tmp/long.plan"
yes '' 2>/dev/null | timeout 60 "$ab" --no-calibrate --a '' --b '' \
    --plan /dev/stdin >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -Eq 'line [0-9]+: the plan passes [0-9]+ bytes' "$tmp/err" ||
	fail "an endless plan: exit $rc (124: it spun): $(head -n 2 "$tmp/err")"

# CRLF plans: the CR is the line's end, not part of the last argument;
# a control byte in a message is escaped, never printed raw.
printf '%s x\r\n' "$fake" >"$tmp/crlf.plan"
run ab_q --a '' --b '' --plan "$tmp/crlf.plan"
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "a CRLF plan: exit $rc: $(head -n 2 "$tmp/err")"
printf 'no-such\rtool x\r\n' >"$tmp/crlf2.plan"
run ab_q --a '' --b '' --plan "$tmp/crlf2.plan"
if [ "$rc" -ne 2 ] || ! grep -qF "cannot find 'no-such\\rtool'" "$tmp/err"; then
	fail "a CR in a tool's name: exit $rc: $(head -n 2 "$tmp/err")"
elif grep -q "$cr" "$tmp/err"; then
	fail "a raw CR in a message: $(od -c "$tmp/err" | head -n 3)"
fi

run "$ab" "--x${cr}y" --a '' --b '' "$fake"
if [ "$rc" -ne 2 ] || ! grep -qF "unknown option '--x\\ry'" "$tmp/err" ||
    grep -q "$cr" "$tmp/err"; then
	fail "a CR in an option: exit $rc: $(od -c "$tmp/err" | head -n 3)"
fi
expect_exit 2 '--json=3 takes no value' "$ab" --json=3 --a '' --b '' "$fake"
expect_exit 2 '--a needs a value' "$ab" --a

# A plan line's own threshold: the 10% change is worse at the default
# 2%, same within 20%.
printf 'threshold=20%% %s\n%s two\n' "$fake" "$fake" >"$tmp/th.plan"
run ab_q --json --a '' --b 'env AB_FAKE_EFFECT=0.10' --plan "$tmp/th.plan"
if [ "$rc" -ne 1 ]; then
	fail "threshold= in a plan: exit $rc: $(head -n 2 "$tmp/err")"
elif have_jq && [ "$(jq -r '"\(.threshold) \(.verdict)"' "$tmp/out" | tr '\n' ' ')" != "0.2 same 0.02 worse " ]; then
	fail "threshold= in a plan: $(jq -c '[.threshold, .verdict]' "$tmp/out" | tr '\n' ' ')"
fi
printf 'threshold=60%% %s\n' "$fake" >"$tmp/th2.plan"
expect_exit 2 'line 1: threshold= takes a percent from 0.1 to 50' \
    "$ab" --rounds --a '' --b '' --plan "$tmp/th2.plan"
# The same rule where the plan is benchmp-sched's (the default).
expect_exit 2 'line 1: threshold= takes a percent from 0.1 to 50' \
    "$ab" --a '' --b '' --plan "$tmp/th2.plan"

finish
