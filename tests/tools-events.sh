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
expect_exit 2 '^lat_cmd: --later-warmup does not apply to a command$' \
    "$bin/lat_cmd" --later-warmup=5000 true
expect_exit 1 'cannot run /nonexistent: No such file' "$bin/lat_cmd" \
    /nonexistent
expect_exit 1 'did not finish within 1 s: killed' "$bin/lat_cmd" \
    --timeout=1 -N 1 sleep 30

# Nothing the command starts outlives lat_cmd: a background job of the
# shell, a double fork, a setsid daemon; a timeout kills them all too.
# Each sleep has a length of its own, so that only ours are looked for.
z=$((100000 + $$))
# left_sleeps WHAT: no "sleep $z" process is left.
left_sleeps() {
	if pgrep -x -f "sleep $z" >/dev/null; then
		fail "$1: left running: $(pgrep -a -x -f "sleep $z" | tr '\n' ' ')"
		pkill -KILL -x -f "sleep $z"
	fi
}
expect_exit 1 'sh did not finish within 2 s: killed' "$bin/lat_cmd" \
    --timeout=2 -N 1 sh -c "sleep $z & sleep $z"
left_sleeps "--timeout with a background job"
expect_line '^lat_cmd: [0-9]+\.[0-9]{4} microseconds$' "$bin/lat_cmd" -N 3 \
    sh -c "sleep $z &"
left_sleeps "a background job"
if command -v setsid >/dev/null 2>&1; then
	expect_line '^lat_cmd: [0-9]+\.[0-9]{4} microseconds$' "$bin/lat_cmd" \
	    -N 2 sh -c "setsid sh -c 'sleep $z & sleep $z' &
	    (sh -c 'sleep $z &' &)"
	left_sleeps "a setsid daemon and a double fork"
fi

# The command's output never mixes with the results: /dev/null, or our
# stderr with --keep-output.
if have_jq; then
	expect_json '.tool == "lat_cmd" and .samples == 3' "$bin/lat_cmd" \
	    --json -N 3 echo hi
fi
expect_line '^lat_cmd: [0-9]+\.[0-9]{4} microseconds$' "$bin/lat_cmd" \
    --keep-output -N 2 echo hi
[ "$(grep -c '^hi$' "$tmp/err")" -eq 2 ] ||
	fail "--keep-output: stderr '$(cat "$tmp/err")'"

# --interval: readings during a run, like perf stat -I.  The command waits
# until the first periodic reading has reached the sink, so that there is
# one however the machine is loaded; with the last one, at the command's
# exit, the readings add up to the run: the same page faults, the same
# time but for the clock overhead taken off the run (TIMING_O, 0.03 us).
if have_jq; then
	r=$tmp/readings.jsonl
	run "$bin/lat_cmd" --json -N 1 --interval=10 --timeout=60 \
	    --events=page-faults --output="file:$r" \
	    sh -c "while [ ! -s '$r' ]; do sleep 0.01; done"
	[ "$rc" -eq 0 ] || fail "--interval: exit $rc: $(cat "$tmp/err")"
	cmp -s "$r" "$tmp/out" || fail "--interval: the sink and stdout differ"
	jq -se 'def abs: if . < 0 then -. else . end;
	    map(select(.metric == "reading")) as $rd |
	    map(select(.metric == "latency")) as $runs |
	    ($runs | length) == 1 and $runs[0].case == "sh" and
	    ($rd | length) >= 2 and
	    [$rd[].params.reading] == [range(1; ($rd | length) + 1)] and
	    [$rd[].params.last] == [range(1; $rd | length) | 0] + [1] and
	    ([$rd[].params.since_s] | . == sort and (unique | length) ==
	    length) and
	    all($rd[]; .params.run == 1 and .params.interval_ms == 10 and
	    .case == "sh" and .better == "none" and .value >= 0) and
	    ([$rd[].events."page-faults".per_op] | add) ==
	    $runs[0].events."page-faults".per_op and
	    (([$rd[].value] | add) - $runs[0].value | abs) < 1 and
	    ($rd[-1].params.since_s * 1e6 - ([$rd[].value] | add) | abs) < 1
	    ' "$r" >/dev/null || fail "--interval: records $(cut -c1-300 "$r")"
fi
# The lines: each run's readings (at least the last), then the median.
run "$bin/lat_cmd" -N 2 --interval=10 true
[ "$rc" -eq 0 ] || fail "--interval lines: exit $rc: $(cat "$tmp/err")"
sed '$d' "$tmp/out" | grep -Evq '^lat_cmd: run [12] reading [0-9]+ at [0-9]+\.[0-9]{4} s: [0-9]+\.[0-9]{4} microseconds$' &&
	fail "--interval: a reading line is '$(cat "$tmp/out")'"
[ "$(grep -c '^lat_cmd: run 1 reading' "$tmp/out")" -ge 1 ] &&
    [ "$(grep -c '^lat_cmd: run 2 reading' "$tmp/out")" -ge 1 ] &&
    tail -n 1 "$tmp/out" | grep -Eq '^lat_cmd: [0-9]+\.[0-9]{4} microseconds$' ||
	fail "--interval: printed '$(cat "$tmp/out")'"

# Interrupted, lat_cmd says so, kills the command and what it started,
# and dies of the signal.
if interrupt lat_cmd 1 "$bin/lat_cmd" -N 100 sh -c "sleep $z & sleep $z"; then
	[ "$rc" -eq 130 ] || fail "lat_cmd: SIGINT: exit $rc"
	grep -q '^lat_cmd: interrupted by SIGINT$' "$tmp/err" ||
		fail "lat_cmd: SIGINT: message '$(cat "$tmp/err")'"
	left_sleeps "SIGINT"
fi
# The signal's default action is restored first: a signal ignored when a
# tool starts stays ignored (nohup), and make check may run under nohup.
for sig in TERM HUP; do
	env --default-signal="$sig" "$bin/lat_cmd" -N 100 \
	    sh -c "sleep $z & sleep $z" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	running "$pid" lat_cmd
	sleep 0.5
	kill -s "$sig" "$pid"
	wait_gone "$pid" "$hang_s"
	case $sig in
	TERM) want=143 ;;
	HUP) want=129 ;;
	esac
	[ "$rc" -eq "$want" ] || fail "lat_cmd: SIG$sig: exit $rc"
	grep -q "^lat_cmd: interrupted by SIG$sig\$" "$tmp/err" ||
		fail "lat_cmd: SIG$sig: message '$(cat "$tmp/err")'"
	left_sleeps "SIG$sig"
done

# A CPU-time clock does not count the time spent waiting: refused.
expect_exit 2 '^lat_cmd: BENCHMP_TIMER: the clock stdc-clock counts CPU time' \
    env BENCHMP_TIMER=clock=stdc-clock "$bin/lat_cmd" true
expect_exit 2 '^lat_cmd: --timer: the clock posix-thread-cputime counts CPU time' \
    "$bin/lat_cmd" --timer=clock=posix-thread-cputime true
for cmd in "lat_usleep 1000" "lat_proc fork" "lat_ctx 2" lat_pipe lat_unix \
    lat_fifo bw_pipe bw_unix lat_sem lat_fcntl "lat_tcp localhost" \
    "lat_udp localhost" "lat_connect localhost" "bw_tcp localhost" \
    lat_unix_connect; do
	# shellcheck disable=SC2086
	set -- $cmd
	name=$1
	shift
	expect_exit 2 "^$name: BENCHMP_TIMER: the clock stdc-clock counts CPU time" \
	    env BENCHMP_TIMER=clock=stdc-clock "$bin/$name" "$@"
	expect_exit 2 "^$name: --timer: the clock posix-thread-cputime counts" \
	    "$bin/$name" --timer=clock=posix-thread-cputime "$@"
done
# A list that falls back to an elapsed-time clock is fine.
expect_line '^Pipe latency: ' "$bin/lat_pipe" -N 3 \
    --timer=clock=posix-monotonic-raw,posix-monotonic
expect_exit 2 'missing the command' "$bin/lat_cmd"
expect_exit 2 '-P does not apply' "$bin/lat_cmd" -P 2 true
expect_exit 2 "--timeout: 'x' is not a number" "$bin/lat_cmd" --timeout=x true
expect_exit 2 '--interval: 9 is out of range' "$bin/lat_cmd" --interval=9 true
expect_exit 2 '--interval: 3600001 is out of range' "$bin/lat_cmd" \
    --interval=3600001 true
expect_exit 2 "unknown event 'bogus'" "$ls" --events=bogus null
expect_exit 2 "^lat_syscall: BENCHMP_EVENTS: unknown event 'nope'" \
    env BENCHMP_EVENTS=nope "$ls" null
expect_exit 2 '--percentiles: 0 is out of range' "$ls" --percentiles=0 null
no_children
finish
