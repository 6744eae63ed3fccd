#!/bin/sh
# calibration-tools.sh: enough, timing_o and loop_o print usable values.
. "$top_srcdir/tests/lib.sh"

unset ENOUGH TIMING_O LOOP_O
expect_line '^[0-9]+$' "$bin/enough"
expect_line '^[0-9]+\.[0-9]{6}$' "$bin/timing_o"
expect_line '^[0-9]+\.[0-9]{6}$' "$bin/loop_o"
expect_line '^export ENOUGH=[0-9]+$' "$bin/enough" --export

# --all exports all three, and every tool accepts them as they are.
run "$bin/enough" --all
[ "$rc" -eq 0 ] || fail "enough --all exited $rc"
[ "$(grep -Ec '^export (ENOUGH=[0-9]+|TIMING_O=[0-9.]+|LOOP_O=[0-9.]+)$' \
    "$tmp/out")" -eq 3 ] || fail "enough --all printed '$(cat "$tmp/out")'"
eval "$(cat "$tmp/out")"
[ -n "${ENOUGH:-}" ] && [ -n "${TIMING_O:-}" ] && [ -n "${LOOP_O:-}" ] ||
	fail "eval of enough --all did not set the variables"
expect_line '^Simple syscall: ' "$bin/lat_syscall" -N 3 null

# A value from the environment is printed as given, without measuring.
expect_line '^1234$' env ENOUGH=1234 "$bin/enough"
expect_line '^0\.050000$' env TIMING_O=0.05 "$bin/timing_o"
expect_line '^0\.000300$' env LOOP_O=0.0003 "$bin/loop_o"
if have_jq; then
	expect_json '.calibration.from_env.enough == true and
	    .calibration.enough_us == 1234' \
	    env ENOUGH=1234 "$bin/lat_syscall" --json -N 3 null
fi

# A calibration the machine did not let settle answers the shortest
# interval the clock allows (its overhead and resolution, at most about
# twice the overhead, under 0.1% of it), never a longer one it could not
# prove.  Two busy loops beside it make an unsettled answer likely here;
# a settled one may be any length, so every timing passes.
if have_jq; then
	sh -c 'while :; do :; done' &
	busy1=$!
	sh -c 'while :; do :; done' &
	busy2=$!
	for _ in 1 2 3; do
		# shellcheck disable=SC2016 # ($r is jq's)
		expect_json '. as $r | .settled or
		    ([100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
		      100000] | map(select(. * 1000 * 0.001 >=
		      2 * $r.timing_o_us * 1000)) | (.[0] // 100000)) >=
		    $r.enough_us' "$bin/enough" --json
	done
	kill "$busy1" "$busy2"
	wait "$busy1" "$busy2" 2>/dev/null
fi

expect_exit 2 '^enough: ENOUGH: .12x. is not a number' env ENOUGH=12x \
    "$bin/enough"
expect_exit 2 '^timing_o: TIMING_O: .* out of range' env TIMING_O=1e7 \
    "$bin/timing_o"
expect_exit 2 "unexpected argument 'extra'" "$bin/loop_o" extra
no_children
finish
