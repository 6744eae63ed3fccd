#!/bin/sh
# scripts-compare.sh: benchmp-compare marks real changes and gates on them.
. "$top_srcdir/tests/lib.sh"

cmp=$top_srcdir/scripts/benchmp-compare
a=$top_srcdir/tests/data/run-a.jsonl
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# A run against itself: every figure the same, exit 0.
run "$cmp" "$a" "$a"
[ "$rc" -eq 0 ] || fail "A vs A exited $rc: $(cat "$tmp/err")"
[ "$(grep -c ' same$' "$tmp/out")" -eq 9 ] ||
	fail "A vs A: not 9 figures 'same': $(cat "$tmp/out")"
grep -q '^lat_syscall null (us) ' "$tmp/out" || fail "no lat_syscall null row"

# Latency 50% up and bandwidth 50% down, intervals apart: worse, exit 1.
jq -c 'if .tool == "lat_syscall" and .case == "null" then
	.value *= 1.5 | .ci_lo *= 1.5 | .ci_hi *= 1.5
    elif .tool == "bw_mem" and .case == "bcopy" then
	.value *= 0.5 | .ci_lo *= 0.5 | .ci_hi *= 0.5
    else . end' "$a" >"$tmp/worse.jsonl"
run "$cmp" "$a" "$tmp/worse.jsonl"
[ "$rc" -eq 1 ] || fail "regression: exit $rc, expected 1"
grep -Eq '^lat_syscall null \(us\) .* 1\.500  worse$' "$tmp/out" ||
	fail "latency regression not marked: $(cat "$tmp/out")"
grep -Eq '^bw_mem bcopy .* 0\.500  worse$' "$tmp/out" ||
	fail "bandwidth regression not marked: $(cat "$tmp/out")"
grep -q '2 figure(s) worse' "$tmp/err" || fail "no count on stderr"

# The other way round both are better: exit 0.
run "$cmp" "$tmp/worse.jsonl" "$a"
[ "$rc" -eq 0 ] || fail "improvement: exit $rc, expected 0"
[ "$(grep -c ' better$' "$tmp/out")" -eq 2 ] ||
	fail "improvements not marked: $(cat "$tmp/out")"

# A difference inside the noise (intervals overlap) is no change.
jq -c 'if .case == "open" then .value *= 1.01 else . end' "$a" \
    >"$tmp/noise.jsonl"
run "$cmp" "$a" "$tmp/noise.jsonl"
[ "$rc" -eq 0 ] && grep -Eq '^lat_syscall open .* same$' "$tmp/out" ||
	fail "1% inside the interval: exit $rc: $(cat "$tmp/out")"

# Figures in one file only are listed with --all.
head -n 2 "$a" >"$tmp/two.jsonl"
run "$cmp" --all "$tmp/two.jsonl" "$a"
[ "$rc" -eq 0 ] && [ "$(grep -c 'only in B$' "$tmp/out")" -eq 7 ] ||
	fail "--all: exit $rc: $(cat "$tmp/out")"

# Errors.
expect_exit 2 'need two files' "$cmp" "$a"
expect_exit 2 "unknown option '--bogus'" "$cmp" --bogus "$a" "$a"
expect_exit 1 'cannot read /nonexistent' "$cmp" "$a" /nonexistent
echo 'not json' >"$tmp/bad.jsonl"
expect_exit 1 'not JSON records' "$cmp" "$a" "$tmp/bad.jsonl"
: >"$tmp/empty.jsonl"
expect_exit 1 'holds no records' "$cmp" "$a" "$tmp/empty.jsonl"
mkdir "$tmp/nopath"
expect_exit 1 'install the Debian package jq' env PATH="$tmp/nopath" \
    /bin/sh "$cmp" "$a" "$a"
run "$cmp" --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp-compare' "$tmp/out" ||
	fail "--help: exit $rc"
finish
