#!/bin/sh
# tools-events.sh: --events, --percentiles and lat_cmd from the command line.
. "$top_srcdir/tests/lib.sh"

ls=$bin/lat_syscall
# Whether this machine counts hardware events (a VM often does not).
hw=0
if [ -r /proc/sys/kernel/perf_event_paranoid ] &&
    grep -q . /sys/bus/event_source/devices/cpu/events/cpu-cycles 2>/dev/null; then
	hw=1
fi

run "$ls" -N 3 --events=page-faults,task-clock,cycles null
[ "$rc" -eq 0 ] || fail "--events: exit $rc: $(cat "$tmp/err")"
grep -Eq '^Simple syscall: [0-9.]+ microseconds$' "$tmp/out" ||
	fail "--events lost the classic line"
grep -Eq '^page-faults: [0-9.]+ per operation$' "$tmp/out" ||
	fail "no page-faults line: $(cat "$tmp/out")"
grep -Eq '^task-clock: [0-9.]+ per operation$' "$tmp/out" ||
	fail "no task-clock line"
if [ "$hw" = 0 ]; then
	grep -Eq '^cycles: not supported here' "$tmp/out" ||
		fail "cycles should be reported as not supported here"
fi
# Without --events, only the classic line.
expect_line '^Simple syscall: ' "$ls" -N 3 null

if have_jq; then
	expect_json '.events."page-faults".supported == true and
	    .events."task-clock".per_op > 0 and
	    (.events.cycles.supported == true or
	     (.events.cycles.detail | test("not supported")))' \
	    env BENCHMP_EVENTS=page-faults,task-clock,cycles "$ls" --json -N 3 null
	expect_json '.percentiles.count == 500 and .percentiles.p50 > 0 and
	    .percentiles.p50 <= .percentiles.p99 and
	    (.percentiles.histogram | map(.count) | add) == 500' \
	    "$ls" --json -N 3 --percentiles=500 null
	# With a cycle subtimer the record says cycles per operation and
	# which counter they come from.
	run "$ls" --json -N 3 --timer=cycle=x86-rdtscp,x86-rdtsc,linux-perf-event,null null
	case $(jq -r .timer.cycle "$tmp/out") in
	null) jq -e '.cycles_per_op == null and .timer.cycle_counts == null' \
	    "$tmp/out" >/dev/null || fail "null cycle timer: $(cat "$tmp/out")" ;;
	x86-*) jq -e '.cycles_per_op > 0 and
	    .timer.cycle_counts == "TSC reference cycles"' "$tmp/out" \
	    >/dev/null || fail "TSC cycles: $(cut -c1-300 "$tmp/out")" ;;
	*) jq -e '.cycles_per_op > 0 and .timer.cycle_counts == "core cycles"' \
	    "$tmp/out" >/dev/null || fail "core cycles: $(cut -c1-300 "$tmp/out")" ;;
	esac
	expect_json '.tool == "lat_cmd" and .case == "sh" and .samples == 3 and
	    .value > 0 and .events."page-faults".per_op > 0' \
	    "$bin/lat_cmd" --json -N 3 --events=page-faults sh -c 'exit 0'
fi
run "$ls" -N 3 --percentiles=300 null
grep -Eq '^percentiles: min [0-9.]+ p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ p99\.9 [0-9.]+ max [0-9.]+ nanoseconds \(300 operations\)$' \
    "$tmp/out" || fail "no percentile line: $(cat "$tmp/out")"

expect_line '^lat_cmd: [0-9]+\.[0-9]{4} microseconds$' "$bin/lat_cmd" -N 3 true
expect_exit 1 '^lat_cmd: false exited with status 1$' "$bin/lat_cmd" false
expect_exit 1 'cannot run /nonexistent: No such file' "$bin/lat_cmd" \
    /nonexistent
expect_exit 1 'did not finish within 1 s: killed' "$bin/lat_cmd" \
    --timeout=1 -N 1 sleep 30
expect_exit 2 'missing the command' "$bin/lat_cmd"
expect_exit 2 '-P does not apply' "$bin/lat_cmd" -P 2 true
expect_exit 2 "--timeout: 'x' is not a number" "$bin/lat_cmd" --timeout=x true
expect_exit 2 "unknown event 'bogus'" "$ls" --events=bogus null
expect_exit 2 "^lat_syscall: BENCHMP_EVENTS: unknown event 'nope'" \
    env BENCHMP_EVENTS=nope "$ls" null
expect_exit 2 '--percentiles: 0 is out of range' "$ls" --percentiles=0 null
no_children
finish
