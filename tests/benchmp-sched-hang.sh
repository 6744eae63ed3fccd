#!/bin/sh
# benchmp-sched-hang.sh: a served tool that stops answering after its
# first visits is killed once it has taken twenty times its longest
# visit, at least 30 s (not the 120 s that bounds every later visit);
# the run exits 4 with the line and the wait named, and nothing is left
# running.  Slow: it waits the 30 s out.
. "$top_srcdir/tests/lib.sh"

sched=$bin/benchmp-sched
spin=$top_builddir/tests/serve-spin
unset BENCHMP_PROCESSES

# No end by the count of visits: the figure is visited until the stop.
"$sched" --budget 300 --max-visits 1000000 --progress -- "$spin" 1 \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
running "$pid" benchmp-sched || { kill "$pid"; finish; }
# Its tool, once the progress line counts a visit: the figure's first
# visit (which may take 600 s) is over.
n=0
while ! tr '\r' '\n' <"$tmp/err" | grep -Eq ' [1-9][0-9]* visits' &&
    [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
tool=$(pgrep -P "$pid")
if [ -z "$tool" ] || ! running "$tool" serve-spin; then
	kill "$pid"
	fail "no tool with a visit within $hang_s s: $(tr '\r' '\n' <"$tmp/err")"
	finish
fi
kill -s STOP "$tool"
# 240 s: a hang guard, past the 120 s the scheduler waited before.
wait_gone "$pid" 240
[ "$rc" -eq 4 ] || fail "exit $rc, not 4: $(tr '\r' '\n' <"$tmp/err")"
guard=$(sed -n 's/^benchmp-sched: line 1: .*serve-spin: killed by signal 9: no answer within \([0-9]*\) s$/\1/p' \
    "$tmp/err")
if [ -z "$guard" ]; then
	fail "no line naming the wait: $(tr '\r' '\n' <"$tmp/err")"
elif [ "$guard" -lt 30 ] || [ "$guard" -ge 120 ]; then
	fail "waited $guard s, not 30 s to under 120"
fi
left=$(left_running serve-spin)
[ -z "$left" ] || fail "left running: $left"

finish
