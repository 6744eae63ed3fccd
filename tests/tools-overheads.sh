#!/bin/sh
# tools-overheads.sh: TIMING_O and LOOP_O given far from what this
# machine measures are warned of once and flag the records; none given,
# no warning.
. "$top_srcdir/tests/lib.sh"

# The probe's warning names the variable, the value given and the one
# measured: a loop iteration or a clock reading is nanoseconds, so 999 us
# (LOOP_O) and 30 us (TIMING_O) are a thousand times or more what any
# machine measures, under any load.
probe_warned() {
	grep -Eq "^$1: warning: $2=$3 us from the environment, but this machine measures [0-9.]+ us now" \
	    "$tmp/err" || fail "$1 with $2=$3: no probe warning: $(head -n 2 "$tmp/err")"
	[ "$(grep -c "warning: $2=" "$tmp/err")" -eq 1 ] ||
		fail "$1 with $2=$3: the probe warned $(grep -c "warning: $2=" "$tmp/err") times"
}

# LOOP_O=999 with bw_pipe: the warning, and the record is flagged with
# the contradiction; an operation faster than twice the overhead given
# (10 MB through a pipe in under 2 ms) is refused instead, which is
# right too.
LOOP_O=999 run "$bin/bw_pipe" -N 3 --json
probe_warned bw_pipe LOOP_O 999
if [ "$rc" -eq 0 ]; then
	if have_jq; then
		jq -e '.noisy == true and .calibration.from_env.loop_o == true
		    and ([.contradicts[] | select(.what == "LOOP_O" and
		      .measured == 999 and .machine < 333)] | length == 1)' \
		    "$tmp/out" >/dev/null ||
			fail "bw_pipe with LOOP_O=999: record not flagged: $(cut -c1-300 "$tmp/out")"
	fi
elif [ "$rc" -ne 1 ] || ! grep -q 'overheads swallow' "$tmp/err"; then
	fail "bw_pipe with LOOP_O=999 exited $rc: $(head -n 2 "$tmp/err")"
fi
# The classic line says noisy too.
LOOP_O=999 run "$bin/bw_pipe" -N 3
[ "$rc" -ne 0 ] || grep -q '(noisy' "$tmp/out.raw" ||
	fail "bw_pipe with LOOP_O=999: line not flagged: $(cat "$tmp/out.raw")"

# TIMING_O=30 with bw_mem: 30 us off an interval of 2 ms or more.
TIMING_O=30 run "$bin/bw_mem" -N 3 --json 1m rd
[ "$rc" -eq 0 ] || fail "bw_mem with TIMING_O=30 exited $rc: $(head -n 2 "$tmp/err")"
probe_warned bw_mem TIMING_O 30
if have_jq && [ "$rc" -eq 0 ]; then
	jq -e '.noisy == true and ([.contradicts[] |
	    select(.what == "TIMING_O" and .measured == 30)] | length == 1)' \
	    "$tmp/out" >/dev/null ||
		fail "bw_mem with TIMING_O=30: record not flagged: $(cut -c1-300 "$tmp/out")"
fi

# The share of the intervals the given overheads take: flagged and
# warned of once above a quarter, not below; where it lands
# depends on the machine (the intervals last about ENOUGH, 100 us here,
# of which TIMING_O takes 35 us), so each outcome is checked for what it
# must say.
if have_jq; then
	ENOUGH=100 TIMING_O=35 run "$bin/lat_syscall" -N 3 --json null
	if [ "$rc" -eq 0 ]; then
		n=$(grep -c 'warning: the overheads given TIMING_O=35 us .*make' "$tmp/err")
		jq -s -e 'all(.[]; ((.overhead_share > 0.25) ==
		    .overhead_flagged) and ((.overhead_flagged | not) or
		    .noisy))' "$tmp/out" \
		    >/dev/null || fail "lat_syscall with TIMING_O=35: $(cut -c1-300 "$tmp/out")"
		if jq -s -e 'any(.[]; .overhead_flagged)' "$tmp/out" >/dev/null; then
			[ "$n" -eq 1 ] || fail "lat_syscall with TIMING_O=35: warned $n times"
		else
			[ "$n" -eq 0 ] || fail "lat_syscall with TIMING_O=35: warned unflagged"
		fi
	elif [ "$rc" -ne 1 ] || ! grep -q 'overheads swallow' "$tmp/err"; then
		fail "lat_syscall with TIMING_O=35 exited $rc: $(head -n 2 "$tmp/err")"
	fi
fi

# A reading's cost is its clock's: TIMING_O from the environment is
# posix-monotonic's (BENCHMP_OVERHEAD_CLOCK names another), so mhz, on
# its thread's CPU clock (0.52 us a reading where the monotonic clock
# costs 0.02 us), sets it aside and measures its own: no warning, no
# contradiction, and the record says so.  LOOP_O, the processor's, it
# takes.  A tool on the monotonic clock takes both; mhz takes TIMING_O
# when it is said to be its clock's.
if have_jq; then
	TIMING_O=0.02 LOOP_O=0.0003 run "$bin/mhz" --json
	[ "$rc" -eq 0 ] || fail "mhz with TIMING_O=0.02 exited $rc: $(head -n 2 "$tmp/err")"
	! grep -Eq 'TIMING_O|LOOP_O' "$tmp/err" ||
		fail "mhz warned of the monotonic clock's overheads: $(head -n 2 "$tmp/err")"
	jq -e 'if .timer.clock == "posix-monotonic" then
	    .calibration.from_env.timing_o and .calibration.env_other_clock == null
	    else (.calibration.from_env.timing_o | not) and
	    .calibration.from_env.loop_o and .calibration.loop_o_us == 0.0003
	    and .calibration.env_other_clock == {clock: "posix-monotonic",
	    timing_o: true} and .calibration.timing_o_us != 0.02 end and
	    ((.contradicts // []) | length == 0)' "$tmp/out" >/dev/null ||
		fail "mhz with the monotonic clock's TIMING_O: $(jq -c .calibration "$tmp/out")"
	TIMING_O=0.02 run "$bin/lat_syscall" -N 3 --json null
	jq -e '.timer.clock == "posix-monotonic" and
	    .calibration.from_env.timing_o and .calibration.timing_o_us == 0.02
	    and .calibration.env_other_clock == null' "$tmp/out" >/dev/null ||
		fail "lat_syscall with TIMING_O=0.02: $(jq -c .calibration "$tmp/out")"
	BENCHMP_OVERHEAD_CLOCK=posix-thread-cputime TIMING_O=0.4 run \
	    "$bin/mhz" --json
	jq -e '.timer.clock != "posix-thread-cputime" or
	    (.calibration.from_env.timing_o and .calibration.timing_o_us == 0.4)' \
	    "$tmp/out" >/dev/null ||
		fail "mhz with its own clock's TIMING_O: $(jq -c .calibration "$tmp/out")"
fi
expect_exit 2 "BENCHMP_OVERHEAD_CLOCK: 'no clock!' is not a clock's name" \
    env BENCHMP_OVERHEAD_CLOCK='no clock!' "$bin/lat_syscall" null

# BENCHMP_CALIBRATED vouches for the two values exactly as given on this
# boot (enough --all and benchmp-run export it): the probe is skipped,
# so even a wrong value is taken without a warning.  Another boot's
# line, or one naming other values, vouches for nothing.
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) || boot=
if [ -n "$boot" ]; then
	TIMING_O=0.02 LOOP_O=999 BENCHMP_CALIBRATED=$boot:0.02:999 run \
	    "$bin/bw_pipe" -N 3
	! grep -q 'warning: LOOP_O=' "$tmp/err" ||
		fail "bw_pipe with vouched LOOP_O=999 probed: $(head -n 2 "$tmp/err")"
	LOOP_O=999 BENCHMP_CALIBRATED=$boot:0.02:999 run "$bin/bw_pipe" -N 3
	probe_warned bw_pipe LOOP_O 999
	TIMING_O=0.02 LOOP_O=999 BENCHMP_CALIBRATED=$boot:0.02:0.001 run \
	    "$bin/bw_pipe" -N 3
	probe_warned bw_pipe LOOP_O 999
fi
TIMING_O=0.02 LOOP_O=999 \
    BENCHMP_CALIBRATED=00000000-0000-0000-0000-000000000000:0.02:999 run \
    "$bin/bw_pipe" -N 3
probe_warned bw_pipe LOOP_O 999

# None given: no probe, no warning, nothing flagged for overheads.
run env -u TIMING_O -u LOOP_O "$bin/lat_syscall" -N 3 --json null
[ "$rc" -eq 0 ] || fail "lat_syscall exited $rc: $(head -n 2 "$tmp/err")"
! grep -Eq 'TIMING_O|LOOP_O|overheads given' "$tmp/err" ||
	fail "lat_syscall warned with no overheads given: $(head -n 2 "$tmp/err")"
if have_jq; then
	jq -e '.overhead_flagged == false and
	    .calibration.from_env.timing_o == false and
	    .calibration.from_env.loop_o == false and
	    ((.contradicts // []) | length == 0)' "$tmp/out" >/dev/null ||
		fail "lat_syscall with no overheads given: $(cut -c1-300 "$tmp/out")"
fi
no_children
finish
