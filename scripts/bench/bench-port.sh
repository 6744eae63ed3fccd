#!/bin/sh
# bench-port.sh: ported lmbench-style programs beside the lmbench tools they mirror (make bench).
#
# Usage: LMBENCH=DIR sh scripts/bench/bench-port.sh BUILDDIR
#
# DIR is a built lmbench's directory of programs (the one holding
# lat_syscall and bw_mem, such as lmbench's bin/x86_64-linux-gnu; an
# lmbench tree whose bin/ has one such directory is accepted too).
# Without LMBENCH, or without those programs there, it says so and
# skips (exit 0).  Each pair runs ROUNDS times (default 5), interleaved
# so that both meet the same drifts of the machine, and the medians are
# printed side by side: tests/port/lat_getppid against lmbench's
# "lat_syscall null", tests/port/bw_mem_rd 1048576 against lmbench's
# "bw_mem 1m rd" (both MB = 10^6 bytes).  The figures are printed, not
# judged.  Exit 1 when a program fails to run.
set -u
prog=bench-port.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

b=${1:?usage: bench-port.sh BUILDDIR}
rounds=${ROUNDS:-5}
case $rounds in
'' | *[!0-9]*) echo "bench-port.sh: ROUNDS '$rounds' is not a count" >&2
	exit 2 ;;
esac
[ "$rounds" -ge 1 ] || { echo "bench-port.sh: ROUNDS must be 1 or more" >&2
	exit 2; }
if [ -z "${LMBENCH:-}" ]; then
	echo "bench-port.sh: skipped: LMBENCH is not set (a built lmbench's" \
	    "bin directory)"
	exit 0
fi
lm=$LMBENCH
if [ ! -x "$lm/lat_syscall" ]; then
	for d in "$lm"/bin/*; do
		[ -x "$d/lat_syscall" ] && lm=$d && break
	done
fi
if [ ! -x "$lm/lat_syscall" ] || [ ! -x "$lm/bw_mem" ]; then
	echo "bench-port.sh: skipped: no lat_syscall and bw_mem in '$LMBENCH'"
	exit 0
fi
port=$b/tests/port
for p in lat_getppid bw_mem_rd; do
	[ -x "$port/$p" ] || { echo "bench-port.sh: $port/$p is not built" \
	    "(make check builds it)" >&2; exit 1; }
done
bm_tmpdir benchmp-bench
unset ENOUGH TIMING_O LOOP_O BENCHMP_TIMER BENCHMP_SCHED LMBENCH_SCHED

# The figures: key, label, command (lmbench and the ports print to stderr).
cat >"$tmp/figs" <<END
pl|port lat_getppid (us)|$port/lat_getppid
ll|lmbench lat_syscall null (us)|$lm/lat_syscall null
pb|port bw_mem_rd 1 MB (MB/s)|$port/bw_mem_rd 1048576
lb|lmbench bw_mem 1m rd (MB/s)|$lm/bw_mem 1m rd
END

round=0
while [ "$round" -lt "$rounds" ]; do
	while IFS='|' read -r key label cmd; do
		# shellcheck disable=SC2086 # the command's words are meant
		if ! $cmd >"$tmp/out" 2>"$tmp/err"; then
			echo "bench-port.sh: $label: '$cmd' failed:" \
			    "$(head -n 1 "$tmp/err")" >&2
			exit 1
		fi
		cat "$tmp/out" >>"$tmp/err"
		bench_figure "$tmp/err" >>"$tmp/v.$key"
	done <"$tmp/figs"
	round=$((round + 1))
done

echo "ported programs beside lmbench ($lm), medians of $rounds interleaved runs"
while IFS='|' read -r key label cmd; do
	printf '%-34s %12s\n' "$label" "$(bench_median <"$tmp/v.$key")"
done <"$tmp/figs"
exit 0
