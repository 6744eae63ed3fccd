#!/bin/sh
# settings.sh: each setting comes from the highest of built-in default <
# tool default < environment < command line, and the record says which.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# mhz's own ENOUGH and timer: the tool's, not the environment's.
expect_json '.sources.enough == "tool" and
    .calibration.from_env.enough == false and
    .calibration.enough_us == 2000 and .sources.timer == "tool" and
    .timer.clock == "posix-thread-cputime"' \
    env -u ENOUGH "$bin/mhz" --json
# An empty ENOUGH is unset: the tool's default still.
expect_json '.sources.enough == "tool" and .calibration.enough_us == 2000' \
    env ENOUGH= "$bin/mhz" --json
# The environment above the tool.
expect_json '.sources.enough == "env" and
    .calibration.from_env.enough == true and
    .calibration.enough_us == 3000 and .sources.timer == "env" and
    .timer.clock == "posix-monotonic-raw"' \
    env ENOUGH=3000 BENCHMP_TIMER=clock=posix-monotonic-raw "$bin/mhz" --json
# The command line above the tool.
expect_json '.sources.timer == "cmdline" and .timer.clock == "stdc-clock"' \
    env -u ENOUGH "$bin/mhz" --timer=clock=stdc-clock --json

# Tools whose interval depends on what they measure give it before the
# settings are resolved: the tool's (unset or empty ENOUGH), below the
# environment; every record of the run says so.
run env -u ENOUGH "$bin/par_mem" -M 8k --json
jq -se 'length == 2 and all(.[]; .sources.enough == "tool" and
    .calibration.enough_us == 5000 and .calibration.from_env.enough == false)' \
    "$tmp/out" >/dev/null || fail "par_mem without ENOUGH: $(cut -c1-300 "$tmp/out")"
run env ENOUGH= "$bin/par_mem" -M 8k --json
jq -se 'length == 2 and all(.[]; .sources.enough == "tool" and
    .calibration.enough_us == 5000)' \
    "$tmp/out" >/dev/null || fail "par_mem, ENOUGH empty: $(cut -c1-300 "$tmp/out")"
run env ENOUGH=3000 "$bin/lat_ops" --json
jq -se 'length > 1 and all(.[]; .sources.enough == "env" and
    .calibration.enough_us == 3000 and .calibration.from_env.enough == true)' \
    "$tmp/out" >/dev/null || fail "lat_ops with ENOUGH: $(cut -c1-300 "$tmp/out")"

# lat_syscall has no defaults of its own: built in, then the environment,
# then the command line.
expect_json '.sources.timer == "builtin" and
    .timer.clock == "posix-monotonic" and .sources.enough == "env" and
    .sources.output == "builtin" and .sources.events == "builtin"' \
    "$bin/lat_syscall" --json null
expect_json '.sources.timer == "env" and .timer.clock == "posix-monotonic-raw"' \
    env BENCHMP_TIMER=clock=posix-monotonic-raw "$bin/lat_syscall" --json null
expect_json '.sources.timer == "cmdline" and .timer.clock == "posix-monotonic"' \
    env BENCHMP_TIMER=clock=posix-monotonic-raw "$bin/lat_syscall" \
    --timer=clock=posix-monotonic --json null
# "list" exported is refused, unless the command line names the timer.
expect_exit 2 "^lat_syscall: BENCHMP_TIMER: 'list' is a command-line request" \
    env BENCHMP_TIMER=list "$bin/lat_syscall" null
expect_json '.sources.timer == "cmdline" and .timer.clock == "posix-monotonic-raw"' \
    env BENCHMP_TIMER=list "$bin/lat_syscall" \
    --timer=clock=posix-monotonic-raw --json null
# Events and rounds: the command line over the environment.
expect_json '.sources.events == "cmdline" and (.events | has("page-faults")) and
    (.events | has("task-clock") | not) and .sources.processes == "cmdline" and
    .processes == 1' \
    env BENCHMP_EVENTS=task-clock BENCHMP_PROCESSES=2 "$bin/lat_syscall" \
    --events=page-faults --processes=1 --json null
expect_json '.sources.events == "env" and (.events | has("task-clock")) and
    .sources.processes == "env" and .processes == 2' \
    env BENCHMP_EVENTS=task-clock BENCHMP_PROCESSES=2 "$bin/lat_syscall" \
    --json null

# The sink: BENCHMP_OUTPUT, then --output over it.
run env BENCHMP_OUTPUT="file:$tmp/env.jsonl" "$bin/lat_syscall" --json null
if [ "$rc" -ne 0 ]; then
	fail "BENCHMP_OUTPUT=file: exited $rc: $(head -n 2 "$tmp/err")"
elif [ "$(wc -l <"$tmp/env.jsonl")" -ne 1 ]; then
	fail "BENCHMP_OUTPUT=file: wrote $(wc -l <"$tmp/env.jsonl") records"
else
	jq -e '.sources.output == "env"' "$tmp/env.jsonl" >/dev/null ||
		fail "BENCHMP_OUTPUT=file: sources $(jq -c .sources \
		    "$tmp/env.jsonl")"
fi
rm -f "$tmp/env.jsonl"
run env BENCHMP_OUTPUT="file:$tmp/env.jsonl" "$bin/lat_syscall" \
    --output="file:$tmp/cmd.jsonl" null
if [ "$rc" -ne 0 ]; then
	fail "--output over BENCHMP_OUTPUT exited $rc: $(head -n 2 "$tmp/err")"
elif [ -e "$tmp/env.jsonl" ]; then
	fail "--output over BENCHMP_OUTPUT: the environment's file was written"
elif ! jq -e '.sources.output == "cmdline"' "$tmp/cmd.jsonl" >/dev/null; then
	fail "--output over BENCHMP_OUTPUT: $(head -c 300 "$tmp/cmd.jsonl")"
fi
# A bad BENCHMP_OUTPUT is refused even under a good --output: every
# source is checked before anything is used.
expect_exit 2 '^lat_syscall: BENCHMP_OUTPUT: unknown sink' \
    env BENCHMP_OUTPUT=nowhere: "$bin/lat_syscall" \
    --output="file:$tmp/cmd2.jsonl" null
[ ! -e "$tmp/cmd2.jsonl" ] || fail "a bad BENCHMP_OUTPUT still wrote --output's"
# An unopenable sink is named by its source.
expect_exit 1 "^lat_syscall: BENCHMP_OUTPUT: cannot open sink file" \
    env BENCHMP_OUTPUT=file:/nonexistent/dir/x "$bin/lat_syscall" null

# The tools' own setting force: --force over BENCHMP_FORCE over the
# built-in "no", resolved once in tool_setup.  A forced crowd goes on to
# the engine, whose descriptor check under a limit of 30 refuses it
# before any worker starts (exit 1); an unforced one is refused (exit 2).
cpus=$(nproc)
crowd=$((64 * cpus + 1))
if [ "$crowd" -le 4096 ]; then
	expect_exit 1 "^lat_syscall: $crowd workers need [0-9]+ descriptors" \
	    env BENCHMP_FORCE=0 prlimit --nofile=30:30 "$bin/lat_syscall" \
	    --force -P "$crowd" null
	expect_exit 1 "^lat_syscall: $crowd workers need [0-9]+ descriptors" \
	    env BENCHMP_FORCE=1 prlimit --nofile=30:30 "$bin/lat_syscall" \
	    -P "$crowd" null
	expect_exit 2 "^lat_syscall: -P $crowd: .* anyway \(BENCHMP_FORCE=0 is set\)\$" \
	    env BENCHMP_FORCE=0 "$bin/lat_syscall" -P "$crowd" null
	# Empty is unset: refused, and not said to be set.
	expect_exit 2 "^lat_syscall: -P $crowd: .* to run it anyway\$" \
	    env BENCHMP_FORCE= "$bin/lat_syscall" -P "$crowd" null
fi
# A bad value is refused even under --force: every source is checked.
expect_exit 2 "^lat_syscall: BENCHMP_FORCE: '2' is not 0 or 1\$" \
    env BENCHMP_FORCE=2 "$bin/lat_syscall" --force null
grep -q '^usage: lat_syscall' "$tmp/err" ||
	fail "BENCHMP_FORCE=2: no usage line: $(head -n 2 "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "BENCHMP_FORCE=2: printed $(head -c 200 "$tmp/out")"

no_children
finish
