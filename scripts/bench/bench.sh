#!/bin/sh
# bench.sh: speed and precision figures of benchmp (make bench), measured in one run.
#
# Usage: sh scripts/bench/bench.sh BUILDDIR
#
# Every figure is a median over several runs made now, beside its target;
# the peer (Google Benchmark timing getppid()) runs right after benchmp's
# so that the comparison shares the machine's mood.  Exit status 0
# whatever the figures (a MISS is information, not a build failure), 1
# when a program fails to run.
set -u
prog=bench.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

b=${1:?usage: bench.sh BUILDDIR}
# Time the real programs, as installed, not libtool's wrapper scripts.
bm_programs "$b/bin" lat_syscall
bin=$bm_bin
gbench=$b/tests/bench/gbench_getppid
empty=$b/tests/bench/empty
regions=$b/tests/bench/regions
bm_tmpdir benchmp-bench

# Print the time in seconds with nanoseconds.
now() {
	date +%s.%N
}

# Print "mean cv%" of the numbers on stdin, the library's.
mean_cv() {
	bm_stats --print=mean,cv | awk '{ printf "%.6g %.2f\n", $1, 100 * $2 }'
}

# spread NAME LABEL FIGURES WALLS: print the rows of a harness's median
# (labelled LABEL), run-to-run CV and mean wall time per run from the files
# FIGURES and WALLS (one number a line), and keep the CV in cv, the wall
# time in wall.
spread() {
	# shellcheck disable=SC2046 # (the mean and the CV, split on purpose)
	cv=$(set -- $(mean_cv <"$3"); echo "$2")
	# shellcheck disable=SC2046 # (the mean and the CV, split on purpose)
	wall=$(set -- $(mean_cv <"$4"); echo "$1")
	row "$2" "$(bench_median <"$3" | awk '{ printf "%.6g", $1 }')" "" ""
	row "$1 run-to-run CV %" "$cv" "" ""
	row "$1 wall s per run (mean)" "$wall" "" ""
}

# Run a command N times; its wall seconds go to $tmp/wall, the last
# field of its last output line to $tmp/fig.  Returns 1 if a run fails.
repeat() {
	n=$1
	shift
	: >"$tmp/wall"
	: >"$tmp/fig"
	k=0
	while [ "$k" -lt "$n" ]; do
		t0=$(now)
		if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
			echo "bench.sh: '$*' failed: $(head -n 1 "$tmp/err")" >&2
			return 1
		fi
		t1=$(now)
		echo "$t1 $t0" | awk '{ printf "%.6f\n", $1 - $2 }' >>"$tmp/wall"
		tail -n 1 "$tmp/out" >>"$tmp/fig"
		k=$((k + 1))
	done
}

# The figure of $tmp/fig (a "NAME: T microseconds" line) in nanoseconds.
fig_ns() {
	bench_figure "$tmp/fig" | awk '{ print $1 * 1000 }'
}

# Print one row of the table: figure, value, target, verdict.
row() {
	printf '%-46s %12s  %-16s %s\n' "$1" "$2" "$3" "$4"
}

# PASS when awk finds the expression true, else MISS.
verdict() {
	if awk "BEGIN { exit !($1) }"; then echo PASS; else echo MISS; fi
}

unset ENOUGH TIMING_O LOOP_O BENCHMP_TIMER BENCHMP_SCHED LMBENCH_SCHED
echo "benchmp make bench on $(uname -n), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
row figure value target verdict

# Cold: every run calibrates.
repeat 5 "$bin/lat_syscall" null || exit 1
cold=$(bench_median <"$tmp/wall")
# (The target: a cold figure within half a second.)
row "cold lat_syscall null, wall s (median of 5)" "$cold" "<= 0.5" \
    "$(verdict "$cold <= 0.5")"

# mhz calibrates too and must answer within a second (ops-output.sh only
# guards against a hang, with a 10 s bound).
repeat 5 "$bin/mhz" || exit 1
mhz=$(bench_median <"$tmp/wall")
row "cold mhz, wall s (median of 5)" "$mhz" "< 1" "$(verdict "$mhz < 1")"

# Calibration alone: enough --all.
repeat 5 "$bin/enough" --all || exit 1
cal=$(bench_median <"$tmp/wall")
row "calibration (enough --all), wall s" "$cal" "<= 0.25" \
    "$(verdict "$cal <= 0.25")"

# Warm: the calibration exported, as a series of runs would.
eval "$("$bin/enough" --all)" || exit 1
repeat 5 "$bin/lat_syscall" null || exit 1
warm=$(bench_median <"$tmp/wall")
row "warm lat_syscall null, wall s (median of 5)" "$warm" "< 0.3" \
    "$(verdict "$warm < 0.3")"

# Scatter: 10 warm runs of the figure, 10 cold ones (each calibrating
# itself, as a run by hand does) and 10 of the peer, interleaved so that
# all meet the same drifts of this machine (its system calls switch
# between two costs for seconds at a time).
: >"$tmp/bm"
: >"$tmp/bmwall"
: >"$tmp/cold"
: >"$tmp/coldwall"
: >"$tmp/gb"
: >"$tmp/gbwall"
: >"$tmp/srv"
: >"$tmp/srvwall"
round=0
while [ "$round" -lt 10 ]; do
	repeat 1 "$bin/lat_syscall" null || exit 1
	fig_ns >>"$tmp/bm"
	cat "$tmp/wall" >>"$tmp/bmwall"
	repeat 1 env -u ENOUGH -u TIMING_O -u LOOP_O "$bin/lat_syscall" null ||
		exit 1
	fig_ns >>"$tmp/cold"
	cat "$tmp/wall" >>"$tmp/coldwall"
	# Cold again, its figure from 0.2 s of visits (--served): as short a
	# run, spread over more of the machine's moments than five processes.
	repeat 1 env -u ENOUGH -u TIMING_O -u LOOP_O "$bin/lat_syscall" \
	    --served=0.2 null || exit 1
	fig_ns >>"$tmp/srv"
	cat "$tmp/wall" >>"$tmp/srvwall"
	if [ -x "$gbench" ]; then
		repeat 1 "$gbench" --benchmark_filter=BM_getppid \
		    --benchmark_format=csv || exit 1
		# CSV: name,iterations,real_time,cpu_time,time_unit,...
		awk -F, '{ print $3 }' "$tmp/fig" >>"$tmp/gb"
		cat "$tmp/wall" >>"$tmp/gbwall"
	fi
	round=$((round + 1))
done
spread benchmp "benchmp getppid ns (median of 10 runs)" "$tmp/bm" "$tmp/bmwall"
bm_cv=$cv
bm_wall=$wall
spread "benchmp cold" "benchmp cold getppid ns (median of 10)" "$tmp/cold" \
    "$tmp/coldwall"
cold_cv=$cv
cold_wall=$wall
row "benchmp cold wall s per run <= 0.3" "$cold_wall" "<= 0.3" \
    "$(verdict "$cold_wall <= 0.3")"
spread "served 0.2 s" "served 0.2 s getppid ns (median of 10)" \
    "$tmp/srv" "$tmp/srvwall"
srv_cv=$cv
srv_wall=$wall
row "served 0.2 s wall s per run <= 0.3" "$srv_wall" "<= 0.3" \
    "$(verdict "$srv_wall <= 0.3")"
if [ -x "$gbench" ]; then
	spread "Google Benchmark" "Google Benchmark getppid ns (median of 10)" \
	    "$tmp/gb" "$tmp/gbwall"
	gb_cv=$cv
	gb_wall=$wall
	row "CV benchmp / Google Benchmark" \
	    "$(awk "BEGIN { printf \"%.2f\", $bm_cv / $gb_cv }")" "<= 1" \
	    "$(verdict "$bm_cv <= $gb_cv")"
	row "wall benchmp / Google Benchmark" \
	    "$(awk "BEGIN { printf \"%.2f\", $bm_wall / $gb_wall }")" "<= 0.5" \
	    "$(verdict "$bm_wall <= 0.5 * $gb_wall")"
	row "CV benchmp cold / Google Benchmark" \
	    "$(awk "BEGIN { printf \"%.2f\", $cold_cv / $gb_cv }")" "<= 1" \
	    "$(verdict "$cold_cv <= $gb_cv")"
	row "CV served 0.2 s / Google Benchmark" \
	    "$(awk "BEGIN { printf \"%.2f\", $srv_cv / $gb_cv }")" "<= 1" \
	    "$(verdict "$srv_cv <= $gb_cv")"
else
	row "Google Benchmark" "absent" "" "(libbenchmark-dev not found)"
fi

# The harness's own error: an empty loop after overhead subtraction,
# the overheads measured by the run itself (given ones that make most of
# an interval are refused: benchmp(3)).
repeat 5 env -u TIMING_O -u LOOP_O "$empty" || exit 1
e=$(bench_median <"$tmp/fig")
row "empty benchmark, ns per iteration (median of 5)" "$e" "<= 0.5" \
    "$(verdict "$e <= 0.5 && $e >= -0.5")"

# A region start/stop pair switched off at run time (a NULL region, the
# test in line in benchmp/regions.h) must cost next to nothing; on, for scale.
repeat 5 "$regions" off || exit 1
e=$(bench_median <"$tmp/fig")
row "region pair, regions off, ns (median of 5)" "$e" "< 2" \
    "$(verdict "$e < 2")"
repeat 5 "$regions" on || exit 1
e=$(bench_median <"$tmp/fig")
row "region pair, regions on, ns (median of 5)" "$e" "" ""

# Measured properties that make check must not assert (a loaded machine
# breaks them): each is the median of three runs.  Short intervals keep
# them quick; the figures are relative.
ENOUGH=20000
export ENOUGH

# Four bw_mem workers on this machine against one: the aggregate is at
# most what the CPUs can do; with more workers than CPUs they share them.
ncpu=$(nproc)
repeat 3 "$bin/bw_mem" -N 3 -P 4 8m rd || exit 1
p4=$(awk '{ print $2 }' "$tmp/fig" | bench_median)
repeat 3 "$bin/bw_mem" -N 3 8m rd || exit 1
p1=$(awk '{ print $2 }' "$tmp/fig" | bench_median)
cpus4=$((ncpu < 4 ? ncpu : 4))
r=$(awk "BEGIN { printf \"%.2f\", $p4 / $p1 }")
row "bw_mem 8m rd: 4 workers / 1 ($ncpu CPUs)" "$r" "<= $cpus4 * 1.25" \
    "$(verdict "$r <= $cpus4 * 1.25")"

# lat_mem_rd -r: memory (four times the last-level cache) against half of
# the first-level cache.
if "$bin/lat_mem_rd" -r -N 3 >"$tmp/mem" 2>"$tmp/err"; then
	r=$(awk '/^[0-9]/ { s[++n] = $1; v[n] = $2 }
	    END { printf "%.2f", v[n] / v[1] }' "$tmp/mem")
	row "lat_mem_rd -r: memory / smallest size" "$r" "> 2" \
	    "$(verdict "$r > 2")"
else
	echo "bench.sh: lat_mem_rd -r failed: $(head -n 1 "$tmp/err")" >&2
	exit 1
fi

# lat_ops: integer division slower than addition; mhz's clock is the
# integer add chain of lat_ops, within 5% (both on the CPU-time clock, mhz
# before and after).
"$bin/mhz" -c >"$tmp/mhz1" 2>"$tmp/err" &&
"$bin/lat_ops" --timer=clock=posix-thread-cputime >"$tmp/lat" 2>"$tmp/err" &&
"$bin/mhz" -c >"$tmp/mhz2" 2>"$tmp/err" || {
	echo "bench.sh: lat_ops or mhz failed: $(head -n 1 "$tmp/err")" >&2
	exit 1
}
add=$(awk -F': ' '$1 == "integer add" { print $2 + 0 }' "$tmp/lat")
div=$(awk -F': ' '$1 == "integer div" { print $2 + 0 }' "$tmp/lat")
m1=$(cat "$tmp/mhz1")
m2=$(cat "$tmp/mhz2")
for v in "$add" "$div" "$m1" "$m2"; do
	case $v in
	'' | *[!0-9.]*)
		echo "bench.sh: lat_ops or mhz -c printed '$v', not a time" >&2
		exit 1
		;;
	esac
done
row "lat_ops integer div / integer add" \
    "$(awk "BEGIN { printf \"%.2f\", $div / $add }")" "> 1" \
    "$(verdict "$div > $add")"
row "lat_ops integer add / mhz clock" \
    "$(awk "BEGIN { printf \"%.3f\", 2 * $add / ($m1 + $m2) }")" \
    "0.95 .. 1.05" \
    "$(verdict "$add > 0.95 * ($m1 < $m2 ? $m1 : $m2) && $add < 1.05 * ($m1 > $m2 ? $m1 : $m2)")"
exit 0
