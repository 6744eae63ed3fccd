#!/bin/sh
# bw_mem-output.sh: bw_mem prints lmbench's "MB MB/s" line for every mode.
. "$top_srcdir/tests/lib.sh"

for mode in rd wr rdwr cp frd fwr fcp bzero bcopy; do
	expect_line '^0\.07 [0-9]+\.[0-9]{2}$' "$bin/bw_mem" -N 3 64k "$mode"
	awk '{ exit !($2 > 0) }' "$tmp/out" ||
		fail "bw_mem $mode: bandwidth not positive: $(cat "$tmp/out")"
done
# MB is 10^6 bytes of the size rounded down to 512 bytes: 1000 -> 512.
expect_line '^0\.00 [0-9]+\.[0-9]{2}$' "$bin/bw_mem" -N 3 1000 rd
expect_line '^1\.05 [0-9]+\.[0-9]{2}$' "$bin/bw_mem" -N 3 1m cp conflict
expect_line '^0\.07 [0-9]+\.[0-9]{2}$' "$bin/bw_mem" -P 2 -N 3 64k fwr

if have_jq; then
	expect_json '.tool == "bw_mem" and .case == "rd" and
	    .unit == "MB/s" and .metric == "bandwidth" and
	    .params.size == 65536 and .params.conflict == "no" and
	    .value > 0 and .min <= .median and .median <= .max' \
	    "$bin/bw_mem" --json -N 5 64k rd
	# With -P the figure is the aggregate of the workers, the statistics
	# describe one worker's intervals; workers that outnumber the CPUs
	# share them, and a calibrated interval spans scheduler slices.  How
	# the aggregate compares with one worker's figure is a measurement:
	# make bench has it (scripts/bench/bench.sh).
	# More workers than CPUs: the interval is at least 20 ms.
	cpus=$(nproc)
	expect_json ".parallel == 4 and .samples == .processes * 12 and .value > 0 and
	    ($cpus >= 4 or .enough_us >= 20000)" \
	    "$bin/bw_mem" --json -P 4 -N 3 8m rd
else
	echo "$me: jq not found: JSON checks skipped" >&2
fi

# Several modes: one line each, in the order given, as each alone
# would print it; a mode given twice, or "conflict" anywhere but last,
# is refused.  (tools-usage.sh has the other words refused.)
run "$bin/bw_mem" -N 3 64k rd fcp bcopy conflict
lines=$(grep -Ec '^0\.07 [0-9]+\.[0-9]{2}$' "$tmp/out")
[ "$rc" -eq 0 ] && [ "$lines" -eq 3 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] ||
	fail "bw_mem 64k rd fcp bcopy conflict: exit $rc: $(cat "$tmp/out" "$tmp/err")"
if have_jq; then
	run "$bin/bw_mem" --json -N 3 64k wr cp
	[ "$rc" -eq 0 ] && [ "$(jq -r .case "$tmp/out" | paste -sd, -)" = wr,cp ] ||
		fail "bw_mem --json 64k wr cp: exit $rc: $(cut -c1-200 "$tmp/out")"
fi
expect_exit 2 "mode 'rd' given twice" "$bin/bw_mem" 64k rd wr rd
expect_exit 2 'too many arguments' "$bin/bw_mem" 64k rd conflict wr

# Runtime refusal: a size no machine has.
expect_exit 1 '^bw_mem: cannot allocate [0-9]+ MB: ' "$bin/bw_mem" 1000000g rd
no_children
finish
