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
# Values measured here are vouched for on this boot (where the machine
# let the calibration settle), values given are not.
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) || boot=
v=$(sed -n 's/^export BENCHMP_CALIBRATED=//p' "$tmp/out")
[ -z "$v" ] || [ "$v" = "$boot:$TIMING_O:$LOOP_O" ] ||
	fail "enough --all vouched for '$v'"
expect_line '^Simple syscall: ' "$bin/lat_syscall" -N 3 null

run env TIMING_O=0.05 "$bin/enough" --all
! grep -q BENCHMP_CALIBRATED "$tmp/out" ||
	fail "enough --all vouched for a TIMING_O given: $(cat "$tmp/out")"

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

# --store: the median of this machine's last five kept calibrations.  A
# run is kept only when it settled, so the file appears after the first
# run that did; a loaded machine may disturb every one of them, and then
# no file is written.  Either way the JSON names this machine's line.
unset ENOUGH TIMING_O LOOP_O
if have_jq; then
	store=$tmp/store
	i=0
	while [ ! -s "$store" ] && [ "$i" -lt 5 ]; do
		run "$bin/enough" --json --store "$store"
		[ "$rc" -eq 0 ] || fail "enough --store exited $rc"
		jq -e '(.stored.kept == .settled) and
		    (.stored.machine | type) == "string"' "$tmp/out" \
		    >/dev/null || fail "enough --store said: $(cat "$tmp/out")"
		if jq -e '.settled | not' "$tmp/out" >/dev/null; then
			[ ! -e "$store" ] ||
				fail "a disturbed run wrote the store"
		fi
		i=$((i + 1))
	done
	machine="machine $(jq -r '.stored.machine' "$tmp/out")"
	case $machine in
	"machine cpu="*";cpus="*";kernel="*";clock="*) ;;
	*) fail "the JSON's machine line: $machine" ;;
	esac
	if [ -s "$store" ]; then
		[ "$(sed -n 1p "$store")" = "benchmp-calibration 1" ] &&
		    [ "$(sed -n 2p "$store")" = "$machine" ] ||
			fail "store: $(cat "$store")"
	fi
	# Five stored runs longer than any measurement: the median is theirs
	# whatever this run measures, kept or not.
	{
		echo "benchmp-calibration 1"
		echo "$machine"
		for _ in 1 2 3 4 5; do echo "run 1 50000 0.500000 0.250000"; done
	} >"$store"
	# The median, measured here, is vouched for on this boot.
	run "$bin/enough" --store "$store"
	[ "$rc" -eq 0 ] && [ "$(sed -n 1,3p "$tmp/out")" = "export ENOUGH=50000
export TIMING_O=0.500000
export LOOP_O=0.250000" ] || fail "stored median: $(cat "$tmp/out" "$tmp/err")"
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) || boot=
	[ "$(sed -n 4p "$tmp/out")" = \
	    "${boot:+export BENCHMP_CALIBRATED=$boot:0.500000:0.250000}" ] ||
		fail "stored median's vouch: $(cat "$tmp/out")"
	n=$(grep -c '^run ' "$store")
	[ "$n" -ge 5 ] && [ "$n" -le 6 ] || fail "store has $n runs"
	# The environment's values are printed as given and nothing is kept.
	run env ENOUGH=1234 "$bin/enough" --store "$store"
	[ "$rc" -eq 0 ] && [ "$(sed -n 1p "$tmp/out")" = "export ENOUGH=1234" ] ||
		fail "ENOUGH given: $(cat "$tmp/out" "$tmp/err")"
	[ "$(grep -c '^run ' "$store")" -eq "$n" ] ||
		fail "a run with ENOUGH given was kept"
	# The last nine are kept.
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "run 1 50000 0.500000 0.250000"
	done >>"$store"
	run "$bin/enough" --json --store "$store"
	if jq -e '.stored.kept' "$tmp/out" >/dev/null; then
		[ "$(grep -c '^run ' "$store")" -eq 9 ] ||
			fail "store kept $(grep -c '^run ' "$store") runs"
		jq -e '.stored.runs == 9 and .stored.other_machine == false' \
		    "$tmp/out" >/dev/null || fail "stored: $(cat "$tmp/out")"
	fi
	# Another machine's file starts anew, said on stderr.
	sed 's/^machine .*/machine cpu=another/' "$store" >"$store.2"
	mv "$store.2" "$store"
	run "$bin/enough" --json --store "$store"
	[ "$rc" -eq 0 ] && grep -q "held another machine's calibrations" \
	    "$tmp/err" && jq -e '.stored.other_machine' "$tmp/out" >/dev/null ||
		fail "another machine: $(cat "$tmp/out" "$tmp/err")"
	if jq -e '.stored.kept' "$tmp/out" >/dev/null; then
		[ "$(sed -n 2p "$store")" = "$machine" ] &&
		    [ "$(grep -c '^run ' "$store")" -eq 1 ] ||
			fail "not started anew: $(cat "$store")"
	fi
fi
# A file that is not a store is an error and is left as it was.
echo "my notes" >"$tmp/notes"
expect_exit 1 "line 1 is not a calibration store's" "$bin/enough" \
    --store "$tmp/notes"
[ "$(cat "$tmp/notes")" = "my notes" ] || fail "a file not a store was changed"
expect_exit 1 'cannot write|No such file' "$bin/enough" \
    --store "$tmp/no/such/dir/store"
# The same where the calibration is not kept (ENOUGH given, or a machine
# that disturbed it): the store that cannot be written is said all the same.
expect_exit 1 'cannot write' env ENOUGH=100 "$bin/enough" \
    --store "$tmp/no/such/dir/store"
expect_exit 2 'needs a file' "$bin/enough" --store ''
[ -z "$(find "$tmp" -name '*.tmp')" ] || fail "a temporary file was left"

expect_exit 2 '^enough: ENOUGH: .12x. is not a number' env ENOUGH=12x \
    "$bin/enough"
expect_exit 2 '^timing_o: TIMING_O: .* out of range' env TIMING_O=1e7 \
    "$bin/timing_o"
expect_exit 2 "unexpected argument 'extra'" "$bin/loop_o" extra
no_children
finish
