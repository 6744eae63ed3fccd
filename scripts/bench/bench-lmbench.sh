#!/bin/sh
# bench-lmbench.sh: benchmp's figures for the tools whose definitions follow lmbench's, beside lmbench's (make bench).
#
# Usage: sh scripts/bench/bench-lmbench.sh BUILDDIR
#
# There is no lmbench binary here: its figures are the ranges measured on
# a 2-vCPU AMD EPYC KVM guest (2026-11-23), written below.  Each benchmp figure is the median of ROUNDS runs, the
# tools interleaved round by round so that they meet the same drifts of
# the machine; the file is 8 MB in a private temporary directory, and
# lat_sem and lat_fcntl run pinned to CPU 0 as lmbench's figures were.
# A figure passes when it lies within lmbench's range widened by 25% for
# the file tools (lmbench scatters that much itself) and 10% for the
# others.  The old definitions are measured beside, for the record.  Exit
# status 0 whatever the figures, 1 when a tool fails to run.
set -u
prog=bench-lmbench.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

b=${1:?usage: bench-lmbench.sh BUILDDIR}
rounds=${ROUNDS:-5}
bm_programs "$b/bin" lat_mmap
bin=$bm_bin
bm_tmpdir benchmp-bench
unset ENOUGH TIMING_O LOOP_O BENCHMP_TIMER BENCHMP_SCHED LMBENCH_SCHED

pin=
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	pin="taskset -c 0"
fi

# The file: 8 MB of random bytes, written to disk and in the page cache.
# lat_mmap and lat_pagefault depend on the file's state (how its pages
# came into the page cache, how often it was written through mappings)
# by a factor of two or three: a fresh file is what can be repeated.
file=$tmp/f8m
dd if=/dev/urandom of="$file" bs=1048576 count=8 conv=fsync 2>/dev/null ||
	exit 1
cat "$file" >/dev/null

# The figures: key, lmbench's low and high, slack, label, command.
cat >"$tmp/figs" <<EOF
mmap 22 89 0.25 lat_mmap 8m (us)|$bin/lat_mmap 8m $file
pf 0.05 0.32 0.25 lat_pagefault (us per page)|$bin/lat_pagefault $file
mrd 32800 53600 0.25 bw_mmap_rd 8m mmap_only (MB/s)|$bin/bw_mmap_rd 8m mmap_only $file
frd 16400 18600 0.25 bw_file_rd 8m io_only (MB/s)|$bin/bw_file_rd 8m io_only $file
sem 1.7 1.7 0.10 lat_sem, CPU 0 (us)|$pin $bin/lat_sem
fcntl 3.1 3.1 0.10 lat_fcntl, CPU 0 (us)|$pin $bin/lat_fcntl
old_mmap - - - lat_mmap --all-pages 8m (us)|$bin/lat_mmap --all-pages 8m $file
old_pf - - - lat_pagefault --per-fault (us per fault)|$bin/lat_pagefault --per-fault $file
old_sem - - - lat_sem --posix, CPU 0 (us)|$pin $bin/lat_sem --posix
EOF

round=0
while [ "$round" -lt "$rounds" ]; do
	while IFS='|' read -r head cmd; do
		# shellcheck disable=SC2086
		set -- $head
		# shellcheck disable=SC2086
		if ! $cmd >"$tmp/out" 2>"$tmp/err"; then
			echo "bench-lmbench.sh: '$cmd' failed:" \
			    "$(head -n 1 "$tmp/err")" >&2
			exit 1
		fi
		bench_figure "$tmp/out" >>"$tmp/v.$1"
	done <"$tmp/figs"
	round=$((round + 1))
done

echo "benchmp against lmbench's figures (a 2-vCPU AMD EPYC KVM guest, 2026-11-23), $rounds interleaved runs each"
printf '%-44s %12s  %-18s %s\n' figure benchmp "lmbench" verdict
while IFS='|' read -r head cmd; do
	# shellcheck disable=SC2086
	set -- $head
	key=$1 lo=$2 hi=$3 slack=$4
	shift 4
	label=$*
	med=$(bench_median <"$tmp/v.$key")
	if [ "$lo" = - ]; then
		printf '%-44s %12s  %-18s %s\n' "$label" "$med" "" "(old definition)"
		continue
	fi
	range=$lo
	[ "$lo" = "$hi" ] || range="$lo-$hi"
	if awk "BEGIN { exit !($med >= $lo * (1 - $slack) && \
	    $med <= $hi * (1 + $slack)) }"; then
		v=PASS
	else
		v=MISS
	fi
	printf '%-44s %12s  %-18s %s\n' "$label" "$med" "$range" "$v"
done <"$tmp/figs"
exit 0
