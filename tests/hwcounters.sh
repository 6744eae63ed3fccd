#!/bin/sh
# hwcounters.sh: on a machine with hardware counters, the cycles and
# instructions per operation of a known loop (tests/hwloop.c) are within
# 10% of what it must cost; skipped, saying why, where there are none.
. "$top_srcdir/tests/lib.sh"

if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed, so cannot tell whether this machine counts cycles"
	exit 77
fi
# perf stat exits 0 even when the event is "<not supported>": the count
# itself says whether the machine counts cycles.
count=$(perf stat -x, -e cycles true 2>&1 >/dev/null | sed -n 's/^\([0-9][0-9]*\),.*cycles.*/\1/p')
if [ -z "$count" ]; then
	echo "SKIP: 'perf stat -e cycles true' counts no cycles here (no hardware counters, or perf_event_paranoid): $(perf stat -x, -e cycles true 2>&1 >/dev/null | tr '\n' ' ')"
	exit 77
fi
run "$top_builddir/tests/hwloop"
cat "$tmp/out"
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "the known loop's counts are off (exit $rc): $(cat "$tmp/out" "$tmp/err")"
finish
