#!/bin/sh
# ops-output.sh: lat_ops, par_ops and mhz.
. "$top_srcdir/tests/lib.sh"

ops='(integer|int64|float|double) (bit|add|mul|div|mod)'

# check_lines FILE REGEX WHAT: FILE has 16 lines, each matching REGEX, and
# the figure before the last field (or the last field) is above 0.
check_lines() {
	n=$(wc -l <"$1")
	[ "$n" -eq 16 ] || fail "$3 printed $n lines, not 16"
	bad=$(grep -Evc -- "$2" "$1")
	[ "$bad" -eq 0 ] ||
		fail "$3: $bad line(s) not matching '$2': $(grep -Ev -- "$2" \
		    "$1" | head -n 2)"
	awk -F': ' '{ split($2, f, " ") }
	    !(f[1] + 0 > 0) { bad = bad $0 "; " }
	    END { if (bad != "") { print bad; exit 1 } }' "$1" >"$tmp/bad" ||
		fail "$3: figures not above 0: $(cat "$tmp/bad")"
}

# The value of the "integer add" record in lat_ops --json output FILE.
json_add() {
	sed -n 's/.*"case":"integer add".*"value":\([0-9.eE+-]*\),.*/\1/p' "$1"
}

# near A B C: A is within 5% of B or C, or between them.
near() {
	awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN {
	    if (a + 0 <= 0 || b + 0 <= 0 || c + 0 <= 0) exit 1
	    lo = b < c ? b : c; hi = b < c ? c : b
	    exit !(a > lo * 0.95 && a < hi * 1.05) }'
}

# lat_ops: 16 lines, real latencies, division slower than addition.
run "$bin/lat_ops"
if [ "$rc" -ne 0 ]; then
	fail "lat_ops exited $rc: $(head -n 2 "$tmp/err")"
else
	cp "$tmp/out" "$tmp/lat"
	check_lines "$tmp/lat" "^$ops: [0-9]+\.[0-9]{2} nanoseconds\$" lat_ops
	awk -F': ' '$1 == "integer add" { add = $2 + 0 }
	    $1 == "integer div" { div = $2 + 0 }
	    END { exit !(add > 0 && div > add) }' "$tmp/lat" ||
		fail "lat_ops: integer div is not slower than integer add:" \
		    "$(grep -E '^integer (add|div)' "$tmp/lat" | tr '\n' ' ')"
fi

# par_ops: 16 lines, figures above 0.
run "$bin/par_ops" -N 5
if [ "$rc" -ne 0 ]; then
	fail "par_ops exited $rc: $(head -n 2 "$tmp/err")"
else
	check_lines "$tmp/out" "^$ops parallelism: [0-9]+\.[0-9]{2}\$" par_ops
fi

# mhz: the lmbench line, -c and -d.
clock='[0-9]+ MHz, [0-9]+\.[0-9]{4} nanosec clock'
expect_line "^$clock\$" "$bin/mhz"
expect_line '^[0-9]+\.[0-9]{4}$' "$bin/mhz" -c
# Intervals below mhz's floor of 1000 us are raised to it; longer ones
# are kept.
if have_jq; then
	expect_json '.calibration.enough_us == 1000' env ENOUGH=1 \
	    "$bin/mhz" --json
	expect_json '.calibration.enough_us == 3000' env ENOUGH=3000 \
	    "$bin/mhz" --json
fi
run env ENOUGH=1 "$bin/mhz" -d
grep -q '^ENOUGH=1 is below mhz.s floor: intervals of 1000 us$' "$tmp/out" ||
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

# mhz's clock is lat_ops' integer add, within 5%.  Both time the thread's
# CPU time, so other processes taking turns on the CPU do not count; and
# as the clock itself moves with the machine's load, mhz runs before and
# after lat_ops.  One retry for a noisy shared machine.
try=0
while [ "$try" -lt 2 ]; do
	try=$((try + 1))
	"$bin/mhz" -c >"$tmp/mhz1" 2>"$tmp/err" ||
		{ fail "mhz -c: $(head -n 2 "$tmp/err")"; break; }
	"$bin/lat_ops" --json --timer=clock=posix-thread-cputime \
	    >"$tmp/json" 2>"$tmp/err" ||
		{ fail "lat_ops --json: $(head -n 2 "$tmp/err")"; break; }
	"$bin/mhz" -c >"$tmp/mhz2" 2>"$tmp/err" ||
		{ fail "mhz -c: $(head -n 2 "$tmp/err")"; break; }
	add=$(json_add "$tmp/json")
	near "$add" "$(cat "$tmp/mhz1")" "$(cat "$tmp/mhz2")" && break
	[ "$try" -lt 2 ] ||
		fail "lat_ops integer add $add ns is not within 5% of mhz" \
		    "clocks $(cat "$tmp/mhz1") and $(cat "$tmp/mhz2") ns"
done
if have_jq && [ -s "$tmp/json" ]; then
	jq -se 'length == 16 and all(.[]; .tool == "lat_ops" and
	    .unit == "ns" and .metric == "latency" and .value > 0) and
	    (map(.case) | unique | length == 16)' "$tmp/json" >/dev/null ||
		fail "lat_ops --json: $(head -c 300 "$tmp/json")"
	expect_json '.tool == "mhz" and .unit == "MHz" and .value > 0' \
	    "$bin/mhz" --json
	# shellcheck disable=SC2016 # (sh -c's script, with its arguments)
	expect_json '.tool == "par_ops" and .case == "integer bit" and
	    .value > 0 and .measured.chains >= 1 and .better == "higher"' sh -c \
	    '"$1" --json -N 3 | head -n 1' sh "$bin/par_ops"
fi

# mhz without ENOUGH gives up calibrating in bounded time: it answers
# within a second on a quiet machine (make bench quotes it); 10 s here is
# a hang guard for a loaded or sanitized build, not a speed target.
start=$(date +%s%N)
(unset ENOUGH; "$bin/mhz") >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
[ "$rc" -eq 0 ] || fail "mhz without ENOUGH exited $rc: $(head -n 2 "$tmp/err")"
grep -Eq "^$clock\$" "$tmp/out" || fail "mhz printed '$(cat "$tmp/out")'"
[ "$ms" -le 10000 ] || fail "mhz took $ms ms without ENOUGH"

expect_exit 2 "unexpected argument 'extra'" "$bin/lat_ops" extra
expect_exit 2 "unexpected argument 'extra'" "$bin/par_ops" extra
expect_exit 2 "unknown option or missing value: -x" "$bin/mhz" -x
expect_exit 2 "unexpected argument 'extra'" "$bin/mhz" extra
no_children
finish
