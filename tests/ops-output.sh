#!/bin/sh
# ops-output.sh: lat_ops, par_ops and mhz.
. "$top_srcdir/tests/lib.sh"

ops='(integer|int64|float|double) (bit|add|mul|div|mod)'
flops='(float|double) bogomflops'

# check_lines FILE REGEX WHAT N: FILE has N lines, each matching REGEX,
# and the figure before the last field (or the last field) is above 0.
check_lines() {
	n=$(wc -l <"$1")
	[ "$n" -eq "$4" ] || fail "$3 printed $n lines, not $4"
	bad=$(grep -Evc -- "$2" "$1")
	[ "$bad" -eq 0 ] ||
		fail "$3: $bad line(s) not matching '$2': $(grep -Ev -- "$2" \
		    "$1" | head -n 2)"
	awk -F': ' '{ split($2, f, " ") }
	    !(f[1] + 0 > 0) { bad = bad $0 "; " }
	    END { if (bad != "") { print bad; exit 1 } }' "$1" >"$tmp/bad" ||
		fail "$3: figures not above 0: $(cat "$tmp/bad")"
}

# lat_ops: 16 lines of real latencies, then lmbench's two bogomflops
# lines, last and in its order (that division is slower than addition is
# a measurement: make bench has it).
run "$bin/lat_ops"
if [ "$rc" -ne 0 ]; then
	fail "lat_ops exited $rc: $(head -n 2 "$tmp/err")"
else
	check_lines "$tmp/out" \
	    "^($ops|$flops): [0-9]+\.[0-9]{2} nanoseconds\$" lat_ops 18
	tail -n 2 "$tmp/out" | cut -d: -f1 | tr '\n' , |
	    grep -qx 'float bogomflops,double bogomflops,' ||
		fail "lat_ops: the last two lines are not the bogomflops:" \
		    "$(tail -n 2 "$tmp/out")"
fi

# lat_ops OP...: the operations named, in its order, bogomflops too.
run "$bin/lat_ops" double-bogomflops "int64 mul" integer-bit
if [ "$rc" -ne 0 ]; then
	fail "lat_ops OP... exited $rc: $(head -n 2 "$tmp/err")"
else
	check_lines "$tmp/out" \
	    "^($ops|$flops): [0-9]+\.[0-9]{2} nanoseconds\$" "lat_ops OP..." 3
	cut -d: -f1 "$tmp/out" | tr '\n' , |
	    grep -qx 'integer bit,int64 mul,double bogomflops,' ||
		fail "lat_ops OP...: $(tr '\n' ' ' <"$tmp/out")"
fi

# par_ops: 16 lines, figures above 0.
run "$bin/par_ops" -N 5
if [ "$rc" -ne 0 ]; then
	fail "par_ops exited $rc: $(head -n 2 "$tmp/err")"
else
	check_lines "$tmp/out" "^$ops parallelism: [0-9]+\.[0-9]{2}\$" par_ops \
	    16
fi

# par_ops OP...: the operations named, in its order, either spelling.
run "$bin/par_ops" -N 3 "float mul" int64-add
if [ "$rc" -ne 0 ]; then
	fail "par_ops float-mul int64-add exited $rc: $(head -n 2 "$tmp/err")"
else
	check_lines "$tmp/out" "^$ops parallelism: [0-9]+\.[0-9]{2}\$" \
	    "par_ops float-mul int64-add" 2
	cut -d: -f1 "$tmp/out" | tr '\n' , |
	    grep -qx 'int64 add parallelism,float mul parallelism,' ||
		fail "par_ops float-mul int64-add: $(tr '\n' ' ' <"$tmp/out")"
fi

# mhz: the lmbench line, -c and -d.
clock='[0-9]+ MHz, [0-9]+\.[0-9]{4} nanosec clock'
expect_line "^$clock\$" "$bin/mhz"
expect_line '^[0-9]+\.[0-9]{4}$' "$bin/mhz" -c
# A line that is one number is what scripts read: flagged noisy, it stays
# one number and the warning goes to stderr.  A precision of 0.1% flags
# every figure of three processes (the robust figure's interval reaches
# 1% of it at the least).
run env BENCHMP_PROCESSES=3 BENCHMP_PRECISION=0.1 "$bin/mhz" -c
if [ "$rc" -ne 0 ]; then
	fail "mhz -c at a precision of 0.1% exited $rc: $(head -n 2 "$tmp/err")"
elif ! grep -Eq '^[0-9]+\.[0-9]{4}$' "$tmp/out.raw" ||
    [ "$(wc -l <"$tmp/out.raw")" -ne 1 ]; then
	fail "mhz -c flagged noisy printed '$(cat "$tmp/out.raw")', not one number"
elif ! grep -Eq '^mhz: noisy( \+-[0-9]+%)?$' "$tmp/err"; then
	fail "mhz -c flagged noisy: no warning on stderr: $(head -n 2 "$tmp/err")"
fi
# Its record says why, in words: the interval against the precision
# (and, on a busy machine, maybe more).
if have_jq; then
	expect_json '.noisy == true and any(.noisy_why[];
	    test("^its interval reaches \\+-[0-9]+% of it, " +
	    "past the precision of \\+-0\\.1%$"))' \
	    env BENCHMP_PROCESSES=3 BENCHMP_PRECISION=0.1 "$bin/mhz" --json
fi
# Intervals below mhz's floor of 1000 us are raised to it (the record's
# enough_us, while its calibration says what ENOUGH was); longer ones are
# kept.  Its own default, 2000 us, is not ENOUGH's, and an empty ENOUGH is
# unset, to mhz as to the library.
if have_jq; then
	expect_json '.enough_us == 1000 and .calibration.enough_us == 1 and
	    .calibration.from_env.enough' env ENOUGH=1 "$bin/mhz" --json
	expect_json '.enough_us == 3000 and .calibration.enough_us == 3000' \
	    env ENOUGH=3000 "$bin/mhz" --json
	for e in unset empty; do
		if [ "$e" = unset ]; then
			set -- env -u ENOUGH
		else
			set -- env ENOUGH=
		fi
		expect_json '.enough_us == 2000 and
		    .calibration.from_env.enough == false' "$@" "$bin/mhz" \
		    --json
	done
fi
run env ENOUGH=1 "$bin/mhz" -d
grep -q '^intervals of at least 1000 us, whatever ENOUGH says$' "$tmp/out" ||
	fail "mhz -d with ENOUGH=1: $(head -n 1 "$tmp/out")"
run "$bin/mhz" -d
if [ "$rc" -ne 0 ]; then
	fail "mhz -d exited $rc: $(head -n 2 "$tmp/err")"
else
	grep -Eq '^integer add chain: [0-9]+\.[0-9]{4} nanoseconds per add' \
	    "$tmp/out" || fail "mhz -d: no chain line: $(head -n 1 "$tmp/out")"
	tail -n 1 "$tmp/out" | grep -Eq "^$clock\$" ||
		fail "mhz -d: last line '$(tail -n 1 "$tmp/out")'"
fi

# That mhz's clock is lat_ops' integer add within 5% is a measurement:
# make bench has it.
if have_jq; then
	"$bin/lat_ops" --json >"$tmp/json" 2>"$tmp/err" ||
		fail "lat_ops --json: $(head -n 2 "$tmp/err")"
	jq -se 'length == 18 and all(.[]; .tool == "lat_ops" and
	    .unit == "ns" and .metric == "latency" and .value > 0) and
	    (map(.case) | unique | length == 18) and
	    (map(.case) | index("float bogomflops") == 16 and
	    index("double bogomflops") == 17)' "$tmp/json" >/dev/null ||
		fail "lat_ops --json: $(head -c 300 "$tmp/json")"
	expect_json '.tool == "mhz" and .unit == "MHz" and .value > 0' \
	    "$bin/mhz" --json
	# shellcheck disable=SC2016 # (sh -c's script, with its arguments)
	expect_json '.tool == "par_ops" and .case == "integer bit" and
	    .value > 0 and .measured.chains >= 1 and .better == "higher"' sh -c \
	    '"$1" --json -N 3 | head -n 1' sh "$bin/par_ops"
fi

# mhz without ENOUGH gives up calibrating in bounded time: it answers
# within a second on a quiet machine (make bench quotes it); 300 s here is
# a hang guard for a loaded or sanitized build, not a speed target.
# TIMING_O and LOOP_O go too, as in a first run by hand (mhz sets
# lib.sh's aside anyway: they are posix-monotonic's, and it reads its
# thread's CPU clock).
start=$(date +%s%N)
(unset ENOUGH TIMING_O LOOP_O; "$bin/mhz") >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
[ "$rc" -eq 0 ] || fail "mhz without ENOUGH exited $rc: $(head -n 2 "$tmp/err")"
# The line carries " (noisy ...)" when the figure is flagged (a loaded
# machine): right too, so the format is checked without it.
unwarned "$tmp/out" | grep -Eq "^$clock\$" ||
	fail "mhz printed '$(cat "$tmp/out")'"
[ "$ms" -le 300000 ] || fail "mhz took $ms ms without ENOUGH"

expect_exit 2 "unknown operation 'extra'" "$bin/lat_ops" extra
# Refused before a scheduler is started for --served.
expect_exit 2 "unknown operation 'extra'" "$bin/lat_ops" --served=1 extra
expect_exit 2 "unknown operation 'extra'" "$bin/par_ops" --served=1 \
    int64-add extra
expect_exit 2 "unknown operation 'extra'" "$bin/par_ops" extra
expect_exit 2 "unknown operation 'int64-'" "$bin/par_ops" int64-
expect_exit 2 "unknown operation 'float bogomflops'" "$bin/par_ops" \
    "float bogomflops"
expect_exit 2 "unknown option or missing value: -x" "$bin/mhz" -x
expect_exit 2 "unexpected argument 'extra'" "$bin/mhz" extra
no_children
finish
