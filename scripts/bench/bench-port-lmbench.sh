#!/bin/sh
# bench-port-lmbench.sh: lmbench 3's own benchmarks built on <benchmp/lmbench.h> (make bench).
#
# Usage: LMBENCH_SRC=DIR [LMBENCH=BINDIR] sh scripts/bench/bench-port-lmbench.sh BUILDDIR
#
# LMBENCH_SRC is a source tree of lmbench 3 (the directory holding src/,
# as github intel/lmbench has it).  Every program of its src/Makefile
# (EXES and OPT_EXES) is copied with its one line #include "bench.h"
# changed to #include <benchmp/lmbench.h> and nothing else, built
# against BUILDDIR's libbenchmp-lmbench and libbenchmp, and, when it
# built, run once with the arguments below; LMBENCH (a built lmbench's
# directory of programs) runs lmbench's own binary beside it with the
# same arguments.  Per program: built or not (with the missing symbols,
# or the first compiler error), its last line of output beside
# lmbench's, and both wall times.  Both run with ENOUGH=5000 TIMING_O=0
# LOOP_O=0 (LM_ENV; PORT_ENV for the ports, LM_ENV unless set): lmbench's
# calibration alone takes tens of seconds, and the same interval and
# overheads make the figures comparable.  Each run is bounded, in a
# process group of its own that is killed afterwards, so that a partner
# a program leaves behind does not outlive it (lmbench's lat_fifo left
# one writing errors into the log for ever).  ONLY="a b" limits the
# programs; TIMEOUT (default 300) bounds each run; CC and PORT_CFLAGS
# (default -O, as lmbench's build) compile.  Exit 77 without
# LMBENCH_SRC, 1 when a program that should build does not.
set -u
prog=bench-port-lmbench.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

b=${1:?usage: bench-port-lmbench.sh BUILDDIR}
if [ -z "${LMBENCH_SRC:-}" ]; then
	echo "$prog: skipped: LMBENCH_SRC is not set (an lmbench 3 source tree)"
	exit 77
fi
src=$LMBENCH_SRC
[ -f "$src/src/bench.h" ] && src=$src/src
if [ ! -f "$src/bench.h" ] || [ ! -f "$src/Makefile" ]; then
	echo "$prog: skipped: no bench.h and Makefile in '$LMBENCH_SRC'"
	exit 77
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$(cd "$b" && pwd)
libs=$b/lib/.libs
if [ ! -f "$libs/libbenchmp-lmbench.so" ] && [ ! -f "$libs/libbenchmp-lmbench.a" ]; then
	echo "$prog: $b has no libbenchmp-lmbench (make builds it)" >&2
	exit 1
fi
lm=
if [ -n "${LMBENCH:-}" ]; then
	lm=$LMBENCH
	if [ ! -x "$lm/lat_syscall" ]; then
		for d in "$lm"/bin/*; do
			[ -x "$d/lat_syscall" ] && lm=$d && break
		done
	fi
	[ -x "$lm/lat_syscall" ] || { echo "$prog: no lat_syscall in '$LMBENCH';" \
	    "running the ports alone"; lm=; }
fi
timeout=${TIMEOUT:-300}
lm_env=${LM_ENV:-ENOUGH=5000 TIMING_O=0 LOOP_O=0}
port_env=${PORT_ENV:-$lm_env}
: "${CC:=cc}"
# lmbench's own build compiles with -O: the same code, the same flags.
port_cflags=${PORT_CFLAGS:--O -DRUSAGE -DHAVE_uint=1 -DHAVE_int64_t=1 -DHAVE_DRAND48 -DHAVE_SCHED_SETAFFINITY=1}
bm_tmpdir benchmp-port-lmbench
unset ENOUGH TIMING_O LOOP_O BENCHMP_TIMER BENCHMP_SCHED LMBENCH_SCHED

# Stop the servers a run may have left behind (both builds), at exit.
bm_at_exit() {
	[ -f "$tmp/servers" ] || return 0
	while read -r stop; do
		# shellcheck disable=SC2086 # the stop command's words are meant
		timeout 10 $stop >/dev/null 2>&1 </dev/null
	done <"$tmp/servers"
}

# The programs lmbench's Makefile builds ($O is make's, not ours).
# shellcheck disable=SC2016
progs=$(sed -n '/^EXES/,/^LIBOBJS/p;/^OPT_EXES/,/^LIBOBJS/p' "$src/Makefile" |
    grep -o '\$O/[A-Za-z_0-9]*' | sed 's|\$O/||' | grep -v '^lib_\|^getopt$' |
    sort -u)
[ -n "${ONLY:-}" ] && progs=$ONLY

# Flags some programs need: lat_rpc Sun RPC (libtirpc), flushdisk its
# main (lmbench's Makefile builds it with -DMAIN).
rpc_cflags=$(pkg-config --cflags libtirpc 2>/dev/null)
rpc_libs=$(pkg-config --libs libtirpc 2>/dev/null)

# A file and a directory for the file-system benchmarks.
dd if=/dev/zero of="$tmp/file" bs=1024 count=8192 2>/dev/null
mkdir "$tmp/dir"

# args NAME: the arguments of one short run ('-' not run: needs a device,
# a portmapper or a web server; '@' a server started with -s, stopped
# with -S).
args() {
	case $1 in
	bw_file_rd) echo "1m io_only $tmp/file" ;;
	bw_mmap_rd) echo "1m mmap_only $tmp/file" ;;
	bw_mem) echo "1m rd" ;;
	lat_mmap) echo "1m $tmp/file" ;;
	lat_pagefault) echo "$tmp/file" ;;
	lat_fs) echo "$tmp/dir" ;;
	lat_syscall) echo "null" ;;
	lat_proc) echo "fork" ;;
	lat_sig) echo "catch" ;;
	lat_select) echo "-n 10 file" ;;
	lat_ctx) echo "-s 0 2" ;;
	lat_mem_rd) echo "-N 3 1 4096" ;;
	lat_usleep) echo "-u usleep 100" ;;
	lat_pmake) echo "2 100" ;;
	memsize) echo "64" ;;
	msleep) echo "10" ;;
	lmdd) echo "if=internal of=internal count=1000 bs=8k" ;;
	cache | par_mem | line | tlb | stream | lat_dram_page) echo "-M 1m" ;;
	lat_tcp | lat_udp | bw_tcp | lat_connect) echo "@ 127.0.0.1" ;;
	lat_unix_connect) echo "@" ;;
	# lat_cmd: lmbench 3's child never execs (it tests the pid against
	# the character '0') and forks on, doubling, until killed.
	lat_rpc | lat_http | lmhttp | disk | flushdisk | lat_cmd) echo "-" ;;
	*) echo "" ;;
	esac
}

# build NAME: the port of NAME in $tmp/port/NAME; 0 when it built, else
# the missing symbols or the first error in $tmp/why.
mkdir "$tmp/port"
build() {
	c=$tmp/port/$1.c
	sed 's|^#include[ 	]*"bench.h"|#include <benchmp/lmbench.h>|' \
	    "$src/$1.c" >"$c"
	extra=
	case $1 in
	lat_rpc) extra="$rpc_cflags" ;;
	flushdisk) extra=-DMAIN ;;
	esac
	# shellcheck disable=SC2086 # word splitting of the flags is meant
	if $CC $port_cflags -w $extra -iquote "$src" -I"$top/lib" -I"$b/lib" \
	    -o "$tmp/port/$1" "$c" -L"$libs" -Wl,-rpath,"$libs" \
	    -lbenchmp-lmbench -lbenchmp -lm ${extra:+$rpc_libs} \
	    >"$tmp/port/$1.log" 2>&1; then
		return 0
	fi
	miss=$(sed -n "s/.*undefined reference to \`\([^']*\)'.*/\1/p" \
	    "$tmp/port/$1.log" | sort -u | tr '\n' ' ')
	if [ -n "$miss" ]; then
		echo "missing: $miss" >"$tmp/why"
	else
		grep -m 1 'error' "$tmp/port/$1.log" | sed 's|.*/||' >"$tmp/why"
	fi
	return 1
}

# timed CMD...: run CMD (bounded) with its output in a file of its own,
# $out; the wall seconds in $secs and the exit status in $rc.  timeout(1)
# leads a process group of its own; what is left in it afterwards is
# killed (dash's kill takes no "--").
nrun=0
timed() {
	nrun=$((nrun + 1))
	out=$tmp/run.$nrun.out
	t0=$(date +%s.%N)
	timeout -k 5 "$timeout" "$@" >"$out" 2>&1 </dev/null &
	tpid=$!
	wait "$tpid"
	rc=$?
	kill -KILL "-$tpid" 2>/dev/null
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
}

# runone BIN NAME ENV: run one program as args NAME says; "figure|secs"
# in $res.
runone() {
	bin=$1
	a=$(args "$2")
	# shellcheck disable=SC2086 # ENV's words are meant
	set -- env $3 "$bin"
	case $a in
	-) res="not run|-"; return ;;
	@*)
		host=${a#@}
		host=${host# }
		timeout 30 "$@" -s >/dev/null 2>&1 </dev/null
		echo "$* -S $host" >>"$tmp/servers"
		sleep 1
		# shellcheck disable=SC2086 # the words are meant
		timed "$@" $host
		# shellcheck disable=SC2086
		timeout 30 "$@" -S $host >/dev/null 2>&1 </dev/null
		;;
	*)
		# shellcheck disable=SC2086
		timed "$@" $a
		;;
	esac
	# The last line with a number that is not a perror() line (lmbench's
	# partners print "(w) read/write on pipe: Invalid argument" when
	# they are killed), else the last line.
	fig=$(awk '/[0-9]/ && !/: [A-Z][a-z]+( [a-z]+)*$/ { f = $0 }
	    NF { l = $0 } END { print f != "" ? f : l }' "$out" | cut -c1-44)
	[ "$rc" -eq 124 ] && fig="timed out after ${timeout}s"
	[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && fig="exit $rc: $fig"
	res="${fig:-no output}|$secs"
}

total=0
built=0
failed=0
printf '%-17s %-5s %-44s %7s  %-44s %7s\n' program built "port's last line" \
    secs "lmbench's last line" secs
for p in $progs; do
	[ -f "$src/$p.c" ] || continue
	total=$((total + 1))
	if ! build "$p"; then
		failed=$((failed + 1))
		printf '%-17s %-5s %s\n' "$p" no "$(cat "$tmp/why")"
		continue
	fi
	built=$((built + 1))
	runone "$tmp/port/$p" "$p" "$port_env"
	mine=$res
	res="-|-"
	if [ -n "$lm" ] && [ -x "$lm/$p" ]; then
		runone "$lm/$p" "$p" "$lm_env"
	fi
	theirs=$res
	printf '%-17s %-5s %-44s %7s  %-44s %7s\n' "$p" yes "${mine%|*}" \
	    "${mine##*|}" "${theirs%|*}" "${theirs##*|}"
done
echo "$built of $total of lmbench's programs built on <benchmp/lmbench.h>" \
    "with only their include changed ($src)"
[ "$failed" -eq 0 ]
