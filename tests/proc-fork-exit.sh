#!/bin/sh
# proc-fork-exit.sh: lat_proc fork's child leaves through exit(3), as
# lmbench's does (fork+exit, not fork+_exit: the stdio flush and the atexit
# handlers are part of the figure), and writes nothing of its own.
. "$top_srcdir/tests/lib.sh"

probe=$top_builddir/tests/.libs/atexit-probe.so
if [ "${BM_SANITIZERS:-no}" = yes ]; then
	echo "SKIP: $me: a sanitizer's runtime must be the first preloaded library"
	exit 77
fi
if [ ! -f "$probe" ]; then
	echo "SKIP: $me: no $probe (libtool built no shared module)"
	exit 77
fi

# Each process that calls exit adds a byte: the tool itself once, its
# workers leave by _exit, so more than one byte is the fork children.
BENCHMP_ATEXIT_FILE=$tmp/exits
BENCHMP_ATEXIT_NAME=lat_proc
export BENCHMP_ATEXIT_FILE BENCHMP_ATEXIT_NAME
: >"$BENCHMP_ATEXIT_FILE"
LD_PRELOAD=$probe "$bin/lat_proc" -N 3 fork >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "lat_proc fork exited $rc: $(head -n 2 "$tmp/err")"
n=$(wc -c <"$BENCHMP_ATEXIT_FILE")
# -N 3 times at least three forks, each child calling exit once.
[ "$n" -ge 4 ] ||
	fail "lat_proc fork: $n process(es) called exit(3); its children used _exit(2)"
# The children flush no stdio buffer of the worker's: one line, once.
[ "$(grep -c . "$tmp/out")" -eq 1 ] ||
	fail "lat_proc fork printed: $(cat "$tmp/out")"
finish
