#!/bin/sh
# port-timing.sh: the lmbench-style programs of tests/port, built by make
# check with only #include "timing.h" and -Wall -Werror (as a ported
# benchmark is), run here; their lines are checked against lmbench's
# formats and units, and their figures against each other and against
# lat_syscall's in ranges any load allows.
. "$top_srcdir/tests/lib.sh"
port=$top_builddir/tests/port
ENOUGH=5000
export ENOUGH

for p in lat_getppid lat_setup_start lat_sig_interval report_all; do
	[ -x "$port/$p" ] || { fail "$port/$p was not built"; exit 1; }
done
us='[0-9][0-9]*\.[0-9][0-9][0-9][0-9]'

# value FILE SED: the first value the sed expression extracts.
value() {
	sed -n "$2" "$1" | head -n 1
}

# A system call in lmbench's line, for the figures below.
run "$bin/lat_syscall" null
sys=$(value "$tmp/out" "s/^Simple syscall: \($us\) microseconds\$/\1/p")
[ -n "$sys" ] || fail "lat_syscall null printed '$(cat "$tmp/out")'"

# ported NAME LABEL: run the port; its stderr is lmbench's one line
# "LABEL: T microseconds" with T within a factor 50 of lat_syscall's.
ported() {
	run "$port/$1"
	if [ "$rc" -ne 0 ]; then
		fail "$1 exited $rc: $(head -n 2 "$tmp/err")"
		return 1
	fi
	cp "$tmp/out" "$tmp/$1.out"
	v=$(value "$tmp/err" "s/^$2: \($us\) microseconds\$/\1/p")
	if [ -z "$v" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		fail "$1: stderr is not one '$2: T microseconds' line:" \
		    "$(cat "$tmp/err")"
		return 1
	fi
	echo "$1: $v us"
}

if ported lat_getppid "Simple syscall" && [ -n "$sys" ] &&
    ! awk -v a="$v" -v b="$sys" 'BEGIN { exit !(a > 0 && a <= 50 * b &&
    b <= 50 * a) }'; then
	fail "lat_getppid: $v us, lat_syscall null $sys us (beyond x50)"
fi

# start()/stop() inside the benchmark: the 100 ms of sleep around the
# timed loop are not in the figure (timed, they make it 100000 us or more).
if ported lat_setup_start "Simple syscall"; then
	[ -n "$sys" ] && ! awk -v a="$v" -v b="$sys" 'BEGIN {
	    exit !(a > 0 && a <= 50 * b && a < 1000) }' &&
		fail "lat_setup_start: $v us for a system call" \
		    "(lat_syscall null $sys us): the setup was timed"
	# The kept interval is scaled by a power of ten (timing(3)): its
	# time per call, not its length, shows whether the sleeps are in it.
	k=$(value "$tmp/lat_setup_start.out" \
	    's/^kept interval: \([0-9]* microseconds for [0-9]*\) calls$/\1/p')
	if [ -z "$k" ] || ! echo "$k" | awk '{ exit !($4 > 0 &&
	    $1 / $4 < 1000) }'; then
		fail "lat_setup_start: kept interval '$k' calls holds the sleeps"
	fi
fi

# A benchmark that drives benchmp_interval() itself (lmbench's lat_sig).
ported lat_sig_interval "Signal handler overhead" &&
	! awk -v a="$v" 'BEGIN { exit !(a > 0 && a < 100000) }' &&
	fail "lat_sig_interval: $v us per signal"

# Every reporting helper: exact lines on intervals set by hand, to
# standard error (standard output stays empty), then a measured 2 ms
# operation of 10^6 bytes whose lines must agree with each other.
run "$port/report_all"
if [ "$rc" -ne 0 ]; then
	fail "report_all exited $rc: $(head -n 3 "$tmp/err")"
else
	[ -s "$tmp/out" ] && fail "report_all: the helpers wrote to stdout:" \
	    "$(cat "$tmp/out")"
	sed '/^--- measured$/,$d' "$tmp/err" >"$tmp/fixed"
	cat >"$tmp/want" <<'END'
op: 2500000.0000 microseconds
op: 2500 milliseconds
op: 2500000000.00 nanoseconds
0.40 MB/sec
400 KB/sec
short: 2 milliseconds
END
	cmp -s "$tmp/fixed" "$tmp/want" ||
		fail "report_all: fixed lines differ from lmbench's:" \
		    "$(diff "$tmp/want" "$tmp/fixed")"
	sed '1,/^--- measured$/d' "$tmp/err" >"$tmp/measured"
	if ! awk '
	    /^op: [0-9]+\.[0-9][0-9][0-9][0-9] microseconds$/ { u = $2; nu++ }
	    /^op: [0-9]+ milliseconds$/ { m = $2; nm++ }
	    /^op: [0-9]+\.[0-9][0-9] nanoseconds$/ { n = $2; nn++ }
	    /^[0-9]+\.[0-9][0-9] MB\/sec$/ { mb = $1; nmb++ }
	    /^[0-9]+ KB\/sec$/ { kb = $1; nkb++ }
	    END {
		if (NR != 5 || nu != 1 || nm != 1 || nn != 1 || nmb != 1 ||
		    nkb != 1) { print "not the five lines"; exit 1 }
		# A 2 ms sleep lasts 2 ms or more on any machine.
		if (u < 1990) { print "micro " u " < 2000"; exit 1 }
		if (n < u * 1000 - 0.06 || n > u * 1000 + 0.06) {
			print "nano " n " != 1000 x micro " u; exit 1 }
		if (m != int(u / 1000)) {
			print "milli " m " != whole ms of " u; exit 1 }
		# 10^6 bytes per operation: MB/s x us = 10^6 with MB = 10^6
		# bytes (953674 with MB = 2^20).
		if (mb * u < 0.99e6 || mb * u > 1.01e6) {
			print "mb " mb " x micro " u " is not 10^6"; exit 1 }
		if (kb < mb * 1000 - 6 || kb > mb * 1000 + 6) {
			print "kb " kb " != 1000 x mb " mb; exit 1 }
	    }' "$tmp/measured" >"$tmp/why"; then
		fail "report_all: measured lines: $(cat "$tmp/why"):" \
		    "$(cat "$tmp/measured")"
	fi
fi

no_children
finish
