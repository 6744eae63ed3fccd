#!/bin/sh
# run.sh: build the lmbench-style programs of tests/port against the
# INSTALLED timing.h and libbenchmp (found through pkg-config), run them,
# check that they print lmbench's formats, and compare their values with
# the installed tools' (sane ranges and the same order of magnitude: a
# factor of 50 either way, since both run on a shared, loaded machine;
# speeds are make bench's to judge, not this test's).
#
# Usage: run.sh SRCDIR BINDIR   (environment: CC, PKG_CONFIG, PORT_CFLAGS,
# PKG_CONFIG_PATH).  Exit 0 when everything holds, 1 otherwise.
set -u
srcdir=${1:?usage: run.sh SRCDIR BINDIR}
bindir=${2:?usage: run.sh SRCDIR BINDIR}
: "${CC:=cc}"
: "${PKG_CONFIG:=pkg-config}"
: "${PORT_CFLAGS:=-O2}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bm-port.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# Report a failed check and remember it.
bad() {
	echo "FAIL: $*" >&2
	fail=1
}

if ! cflags=$($PKG_CONFIG --cflags benchmp) ||
    ! libs=$($PKG_CONFIG --libs benchmp) ||
    ! libdir=$($PKG_CONFIG --variable=libdir benchmp); then
	echo "FAIL: pkg-config does not find the installed benchmp" >&2
	exit 1
fi
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Short runs: these are functional checks.
ENOUGH=5000
BENCHMP_PROCESSES=3
export LD_LIBRARY_PATH ENOUGH BENCHMP_PROCESSES

progs="lat_getppid lat_pipe_port bw_mem_rd lat_sig_interval lat_startstop
    lat_setup_start report_all"
for p in $progs; do
	# shellcheck disable=SC2086 # word splitting of the flags is meant
	if ! $CC $PORT_CFLAGS $cflags -o "$tmp/$p" "$srcdir/$p.c" $libs; then
		bad "$p does not build against the installed timing.h"
	fi
done
[ "$fail" -eq 0 ] || exit 1

# run NAME [ARGS]: run the port (or tool) with a timeout, output in $tmp.
# A tool's line may end with " (noisy +-N%)" on a busy machine: dropped.
run() {
	name=$1
	shift
	if ! timeout 120 "$@" >"$tmp/$name.raw" 2>&1; then
		bad "$name exited non-zero:"
		cat "$tmp/$name.raw" >&2
	fi
	sed -E 's/ \(noisy( \+-[0-9]+%)?\)$//' "$tmp/$name.raw" >"$tmp/$name.out"
}

# field NAME SED: the first value the sed expression extracts, or nothing.
field() {
	sed -n "$2" "$tmp/$1.out" | head -n 1
}

# near WHAT A B LO HI: A and B in [LO, HI] and within a factor 50.
near() {
	if ! awk -v a="$2" -v b="$3" -v lo="$4" -v hi="$5" 'BEGIN {
	    if (a == "" || b == "") exit 1
	    a += 0; b += 0
	    exit !(a >= lo && a <= hi && b >= lo && b <= hi &&
	        a <= 50 * b && b <= 50 * a) }'; then
		bad "$1: port '$2', tool '$3' (expected both in [$4, $5], within x50)"
	else
		echo "ok: $1: port $2, tool $3"
	fi
}

us='[0-9][0-9]*\.[0-9][0-9][0-9][0-9]'

run lat_getppid "$tmp/lat_getppid"
run lat_syscall "$bindir/lat_syscall" null
a=$(field lat_getppid "s/^Simple syscall: \($us\) microseconds\$/\1/p")
b=$(field lat_syscall "s/^Simple syscall: \($us\) microseconds\$/\1/p")
near "getppid latency (us)" "$a" "$b" 0.001 1000

# Both ends on one CPU, as lat_pipe --placement=same.
run lat_pipe_port env LMBENCH_SCHED=SINGLE "$tmp/lat_pipe_port"
run lat_pipe "$bindir/lat_pipe" --placement=same
a=$(field lat_pipe_port "s/^Pipe latency: \($us\) microseconds\$/\1/p")
b=$(field lat_pipe "s/^Pipe latency: \($us\) microseconds (same)\$/\1/p")
near "pipe latency (us)" "$a" "$b" 0.1 100000

run bw_mem_rd "$tmp/bw_mem_rd" 1048576
run bw_mem "$bindir/bw_mem" 1m rd
# lmbench's mb() and bw_mem's "MB/s" both count MB of 10^6 bytes.
a=$(field bw_mem_rd 's/^\([0-9][0-9]*\.[0-9][0-9]\) MB\/sec$/\1/p')
b=$(field bw_mem 's/^[0-9.][0-9.]* \([0-9][0-9]*\.[0-9][0-9]\)$/\1/p')
near "memory read bandwidth (10^6 B/s)" "$a" "$b" 10 10000000

run lat_sig_interval "$tmp/lat_sig_interval"
run lat_sig "$bindir/lat_sig" catch
a=$(field lat_sig_interval \
    "s/^Signal handler overhead: \($us\) microseconds\$/\1/p")
b=$(field lat_sig "s/^Signal handler overhead: \($us\) microseconds\$/\1/p")
near "signal handler overhead (us)" "$a" "$b" 0.01 10000

run lat_startstop "$tmp/lat_startstop"
a=$(field lat_startstop "s/^Simple syscall: \($us\) microseconds\$/\1/p")
b=$(field lat_syscall "s/^Simple syscall: \($us\) microseconds\$/\1/p")
near "getppid latency by start/stop (us)" "$a" "$b" 0.001 1000
# 10 ms before start() and 5 ms after: at least 15000 us from begin.
a=$(field lat_startstop \
    's/^start\/stop from begin: \([0-9][0-9]*\) microseconds$/\1/p')
if [ -z "$a" ] || [ "$a" -lt 15000 ] || [ "$a" -gt 5015000 ]; then
	bad "stop(&begin, &end) gave '$a' us for 15 ms or more"
else
	echo "ok: stop(&begin, &end): $a us for 10 + 5 ms of sleep"
fi
a=$(field lat_startstop \
    's/^sleep 10+5 ms: \([0-9][0-9]*\) milliseconds$/\1/p')
if [ -z "$a" ] || ! awk -v a="$a" 'BEGIN { exit !(a >= 15) }'; then
	bad "milli() printed '$a' ms for 15 ms or more"
else
	echo "ok: milli(): $a ms"
fi

# start()/stop() inside the benchmark: the figure is a system call's.
run lat_setup_start "$tmp/lat_setup_start"
a=$(field lat_setup_start "s/^Simple syscall: \($us\) microseconds\$/\1/p")
b=$(field lat_syscall "s/^Simple syscall: \($us\) microseconds\$/\1/p")
near "getppid latency, setup outside start/stop (us)" "$a" "$b" 0.001 1000

# Every reporting helper: its fixed lines in lmbench's formats and units.
run report_all "$tmp/report_all"
for l in 'op: 2500000.0000 microseconds' 'op: 2500 milliseconds' \
    'op: 2500000000.00 nanoseconds' '0.40 MB/sec' '400 KB/sec' \
    'short: 2 milliseconds'; do
	grep -qxF "$l" "$tmp/report_all.out" ||
		bad "report_all did not print '$l'"
done

exit "$fail"
