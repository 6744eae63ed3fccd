#!/bin/sh
# mem-output.sh: lat_mem_rd, stream, tlb, line, cache, par_mem and memsize:
# their formats, the memory levels lat_mem_rd must show, the load, the
# topology in --json, bad input.
. "$top_srcdir/tests/lib.sh"

num='[0-9]+\.[0-9]+'

# check_all FILE REGEX WHAT: every line of FILE matches REGEX, and there is one.
check_all() {
	[ -s "$1" ] || fail "$3 printed nothing"
	bad=$(grep -Evc -- "$2" "$1")
	[ "$bad" -eq 0 ] ||
		fail "$3: $bad line(s) not matching '$2':" \
		    "$(grep -Ev -- "$2" "$1" | head -n 2 | tr '\n' '|')"
}

# lat_mem_rd's classic output: per stride a header, "MB ns" lines, a blank.
run "$bin/lat_mem_rd" 1 64 256
if [ "$rc" -ne 0 ]; then
	fail "lat_mem_rd 1 64 256 exited $rc: $(head -n 2 "$tmp/err")"
else
	check_all "$tmp/out" "^(\"stride=(64|256)|$num $num|)\$" lat_mem_rd
	[ "$(grep -c '^"stride=' "$tmp/out")" -eq 2 ] ||
		fail "lat_mem_rd: not two stride headers"
	[ "$(grep -c '^$' "$tmp/out")" -eq 2 ] ||
		fail "lat_mem_rd: not one blank line per stride"
	# 512 bytes to 1 MB in steps of 1.5 and 2: 23 sizes for each stride.
	n=$(grep -Ec "^$num $num\$" "$tmp/out")
	[ "$n" -eq 46 ] || fail "lat_mem_rd 1 64 256: $n points, not 46"
	awk '/^[0-9]/ && !($2 > 0) { exit 1 }' "$tmp/out" ||
		fail "lat_mem_rd: a latency not above 0"
fi

# The record says which sizes lat_mem_rd chose from the topology.  That
# a load at four times the last-level cache costs well over one at half
# the first-level cache is a measurement: make bench has it.
if have_jq; then
	run "$bin/lat_mem_rd" -r --json
	if [ "$rc" -ne 0 ]; then
		fail "lat_mem_rd -r --json exited $rc: $(head -n 2 "$tmp/err")"
	else
		jq -se 'length > 10 and all(.[]; .tool == "lat_mem_rd" and
		    .case == "random" and .unit == "ns" and .value > 0 and
		    .params.l1d > 0 and .params.llc >= .params.l1d and
		    (.params.len == 4 * .params.llc or .params.len == 8388608 or
		    .params.len == 1073741824) and
		    (.params.topology | test("^(sysfs|sysconf|default)$")))' \
		    "$tmp/out" >/dev/null ||
			fail "lat_mem_rd --json: $(head -c 400 "$tmp/out")"
	fi

	# Loaded latency: the load's bandwidth in every record and at the end.
	run "$bin/lat_mem_rd" -t --load 1 --json 2
	if [ "$rc" -ne 0 ]; then
		fail "lat_mem_rd --load 1 exited $rc: $(head -n 2 "$tmp/err")"
	else
		jq -se 'length > 5 and all(.[]; .case == "page" and
		    .params.load == 1 and .params.load_mbps > 0)' \
		    "$tmp/out" >/dev/null ||
			fail "lat_mem_rd --load --json: $(head -c 300 "$tmp/out")"
	fi
fi
run "$bin/lat_mem_rd" --load 2 1 1k
if [ "$rc" -ne 0 ]; then
	fail "lat_mem_rd --load 2 exited $rc: $(head -n 2 "$tmp/err")"
else
	tail -n 1 "$tmp/out" | grep -Eq "^load: 2 workers $num MB/sec\$" ||
		fail "lat_mem_rd --load: last line '$(tail -n 1 "$tmp/out")'"
fi

# stream: the four kernels (v1) or STREAM2's four, latency and bandwidth.
run "$bin/stream" -M 1m
[ "$rc" -eq 0 ] || fail "stream exited $rc: $(head -n 2 "$tmp/err")"
check_all "$tmp/out" "^STREAM (copy|scale|add|triad) (latency: $num nanoseconds|bandwidth: $num MB/sec)\$" stream
[ "$(wc -l <"$tmp/out")" -eq 8 ] || fail "stream: not 8 lines"
run "$bin/stream" -v 2 -M 1m
[ "$rc" -eq 0 ] || fail "stream -v 2 exited $rc: $(head -n 2 "$tmp/err")"
check_all "$tmp/out" "^STREAM2 (fill|copy|daxpy|sum) (latency: $num nanoseconds|bandwidth: $num MB/sec)\$" "stream -v 2"
[ "$(wc -l <"$tmp/out")" -eq 8 ] || fail "stream -v 2: not 8 lines"

# tlb: the reach and the cost of a miss.
expect_line "^tlb: [0-9]+ pages $num nanoseconds\$" "$bin/tlb"
expect_exit 1 "no TLB limit within 16 pages" "$bin/tlb" -M 64k

# line: a power of two from 16 to 512 bytes.
run "$bin/line" -M 8m
if [ "$rc" -ne 0 ]; then
	fail "line exited $rc: $(head -n 2 "$tmp/err")"
else
	grep -Eqx '16|32|64|128|256|512' "$tmp/out" ||
		fail "line printed '$(cat "$tmp/out")'"
fi

# cache: at least the first level, every line in lmbench's format.
run "$bin/cache" -M 4m
if [ "$rc" -ne 0 ]; then
	fail "cache exited $rc: $(head -n 2 "$tmp/err")"
else
	check_all "$tmp/out" "^(L[1-4] cache: [0-9]+ bytes $num nanoseconds [0-9]+ linesize $num parallelism|Memory latency: $num nanoseconds $num parallelism)\$" cache
	grep -q '^L1 cache: ' "$tmp/out" || fail "cache: no L1 line"
fi

# par_mem: one "MB parallelism" line per size, 4k to 64k.
run "$bin/par_mem" -M 64k
if [ "$rc" -ne 0 ]; then
	fail "par_mem exited $rc: $(head -n 2 "$tmp/err")"
else
	check_all "$tmp/out" "^$num $num\$" par_mem
	[ "$(wc -l <"$tmp/out")" -eq 5 ] || fail "par_mem -M 64k: not 5 lines"
	awk '!($2 >= 1) { exit 1 }' "$tmp/out" ||
		fail "par_mem: a parallelism below 1"
fi

# memsize: what is available, and a probe that gets what it asks.
expect_line '^[0-9]+$' "$bin/memsize"
expect_line '^16$' "$bin/memsize" 16

# Bad input exits 2 with a message.
expect_exit 2 "len_MB: 0 is out of range" "$bin/lat_mem_rd" 0
expect_exit 2 "stride 12 is not a multiple of 8 bytes" "$bin/lat_mem_rd" 1 12
expect_exit 2 "--load: 0 is out of range" "$bin/lat_mem_rd" --load 0 1
expect_exit 2 "stride: 'x' is not a size" "$bin/lat_mem_rd" 1 64 x
expect_exit 2 "len_MB: 99999999999 is out of range" "$bin/lat_mem_rd" 99999999999
expect_exit 2 "-v: 3 is out of range" "$bin/stream" -v 3
expect_exit 2 "-M: 0 is out of range" "$bin/stream" -M 0
expect_exit 2 "-L: 7 is out of range" "$bin/tlb" -L 7
expect_exit 2 "unexpected argument 'extra'" "$bin/line" extra
expect_exit 2 "-M: 'garbage' is not a size" "$bin/cache" -M garbage
expect_exit 2 "-L: 4 is out of range" "$bin/par_mem" -L 4
expect_exit 2 "MB: 'abc' is not a number" "$bin/memsize" abc
expect_exit 2 "MB: 99999999999999 is out of range" "$bin/memsize" 99999999999999
no_children
finish
