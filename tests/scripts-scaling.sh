#!/bin/sh
# scripts-scaling.sh: benchmp-scaling finds the tools of its build without
# PATH, its table gives each throughput's interval and a bandwidth in MB/s,
# and its chart has whole worker counts on the x axis.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
bindir=$(cd "$bin" && pwd) || exit 99
# No benchmp tool on PATH: only the system's programs.
PATH=/usr/local/bin:/usr/bin:/bin
export PATH
command -v bw_mem >/dev/null 2>&1 && {
	echo "$me: a bw_mem is installed on PATH: the lookup cannot be told apart: skipped" >&2
	exit 77
}

# The copy make writes beside the tools, and scripts/ of the source tree
# when the build is the tree's build/ (or the tree itself).
set -- "$bindir/benchmp-scaling"
src=$(cd "$top_srcdir" && pwd) || exit 99
if [ "$bindir" = "$src/build/bin" ] || [ "$bindir" = "$src/bin" ]; then
	set -- "$@" "$src/scripts/benchmp-scaling"
else
	echo "$me: the build is not build/ of the source tree: scripts/benchmp-scaling not tried from it" >&2
fi
for scal; do
	run "$scal" --max 2 --no-plot bw_mem -N 3 64k rd
	[ "$rc" -eq 0 ] || { fail "$scal: exit $rc: $(head -n 2 "$tmp/err")"; continue; }
	grep -q "^benchmp-scaling: .*/bin/bw_mem -P 2 -N 3 64k rd\$" "$tmp/err" ||
		fail "$scal: not the build's bw_mem: $(cat "$tmp/err")"
	# workers throughput interval unit speed-up efficiency figure unit
	awk '
	    NR == 1 { ok = $1 == "workers" && $3 == "interval" && $4 == "unit" &&
		$NF == "note"; next }
	    # The footnote of rows with more workers than CPUs.
	    /^\* more workers than the [0-9]+ CPUs/ { next }
	    {
		# A note (noisy +-N%, slow spells...) follows the unit.
		sub(/  (noisy( \+-[0-9]+%)?|slow spells|cut by budget)$/, "")
		split($3, ci, "-")
		if ($4 != "MB/s" || ci[1] + 0 > $2 + 0 || ci[2] + 0 < $2 + 0 ||
		    $NF != "MB/s")
			ok = 0
		n++
	    }
	    END { exit !(ok && n == 2) }' "$tmp/out" ||
		fail "$scal: the table: $(cat "$tmp/out")"
	# Its records file: in a private directory named on stderr.
	rec=$(sed -n 's/^benchmp-scaling: records in //p' "$tmp/err")
	[ -s "$rec" ] && rm -r "$(dirname "$rec")" ||
		fail "$scal: no records file: '$rec'"
done
# A latency's throughput is in operations per second, with its interval.
run "$bindir/benchmp-scaling" --max 1 --no-plot --output "$tmp/l.jsonl" \
    lat_syscall -N 3 null
[ "$rc" -eq 0 ] && awk 'NR == 2 { split($3, ci, "-")
    exit !($4 == "ops/s" && ci[1] + 0 <= $2 + 0 && ci[2] + 0 >= $2 + 0) }' \
    "$tmp/out" || fail "latency: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# The chart: the worker counts measured as ticks, none fractional (in
# the SVG, the x axis's labels are the numbers anchored in the middle).
if command -v gnuplot >/dev/null 2>&1; then
	run "$top_srcdir/scripts/benchmp-plot" scaling --output "$tmp/sc" \
	    "$top_srcdir/tests/data/scaling.jsonl"
	[ "$rc" -eq 0 ] || fail "plot: exit $rc: $(head -n 2 "$tmp/err")"
	awk '/text-anchor="middle">/ { getline; gsub(/<[^>]*>|[ \t]/, "")
	    if ($0 ~ /^[0-9.]+$/) print }' "$tmp/sc.svg" | paste -sd' ' - \
	    >"$tmp/ticks"
	[ "$(cat "$tmp/ticks")" = "1 2 4" ] ||
		fail "plot: x ticks '$(cat "$tmp/ticks")', not '1 2 4'"
	# The key says what the bars are: the records' interval, its level
	# and the processes of a point (scaling.jsonl: the median's 95%, its
	# processes not recorded, written before the next run's interval).
	grep -q 'speed-up (median interval 95%)' "$tmp/sc.svg" ||
		fail "plot: no interval in the key"
else
	echo "$me: gnuplot not found: the chart not tried" >&2
fi
exit $((failures > 0))
