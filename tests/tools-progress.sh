#!/bin/sh
# tools-progress.sh: the progress line of long runs (BENCHMP_PROGRESS): on
# stderr only, never in stdout or --json, absent when stderr is not a
# terminal unless asked for, cleared before the tool ends.
. "$top_srcdir/tests/lib.sh"

esc=$(printf '\033')
cr=$(printf '\r')
unset BENCHMP_PROGRESS

# Whether FILE holds progress text: a carriage return, an escape, "run
# i/n" or a sweep's "(i/n)".  A warning a loaded machine may cause (a
# figure flagged noisy) is not progress, so "no progress" is judged by
# this, never by an empty stderr.
has_progress() {
	grep -Eq "$esc|$cr|run [0-9]+/[0-9]+|\\([0-9]+/[0-9]+\\)" "$1"
}

# lat_cmd under "always": each run lasts at least 0.4 s, so a reading
# (every 0.25 s) falls in the first run whatever the load.
BENCHMP_PROGRESS=always run "$bin/lat_cmd" -N 3 sleep 0.4
if [ "$rc" -ne 0 ]; then
	fail "lat_cmd with progress exited $rc: $(head -n 2 "$tmp/err")"
else
	cp "$tmp/out" "$tmp/out-always"
	grep -q "run 1/3" "$tmp/err" ||
		fail "lat_cmd: no 'run 1/3' on stderr: $(tr '\r\033' '|~' <"$tmp/err" | cut -c1-200)"
	grep -Eq "run [23]/3, mean [0-9.]+ ms, about .* left" "$tmp/err" ||
		fail "lat_cmd: no mean and time left on stderr"
	# The line is erased at the end: stderr ends with "\r ESC [K".
	[ "$(tail -c 4 "$tmp/err" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
		fail "lat_cmd: stderr does not end by clearing the line"
	grep -q "$esc\|$cr" "$tmp/out-always" &&
		fail "lat_cmd: progress text on stdout"
	grep -Eq '^lat_cmd: [0-9]+\.[0-9]+ microseconds$' "$tmp/out-always" ||
		fail "lat_cmd: stdout is not the result line: $(cat "$tmp/out-always")"
fi

# The same run without the override, stderr a file: no progress at all,
# and stdout the same (bytes but the figure).
run "$bin/lat_cmd" -N 3 sleep 0.4
if [ "$rc" -ne 0 ]; then
	fail "lat_cmd exited $rc: $(head -n 2 "$tmp/err")"
else
	has_progress "$tmp/err" &&
		fail "lat_cmd: stderr not a terminal, yet: $(tr '\r\033' '|~' <"$tmp/err" | cut -c1-200)"
	sed 's/[0-9.]*//g' "$tmp/out" >"$tmp/a"
	sed 's/[0-9.]*//g' "$tmp/out-always" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" ||
		fail "lat_cmd: stdout differs with progress on"
fi

# never wins over a terminal-less stderr too, and "always" leaves --json
# one valid record with nothing else on stdout.
BENCHMP_PROGRESS=never run "$bin/lat_cmd" -N 3 sleep 0.4
[ "$rc" -eq 0 ] && ! has_progress "$tmp/err" ||
	fail "lat_cmd under never: exit $rc, stderr '$(head -c 200 "$tmp/err")'"
if have_jq; then
	BENCHMP_PROGRESS=always expect_json \
	    '.tool == "lat_cmd" and .samples == 3' \
	    "$bin/lat_cmd" --json -N 3 sleep 0.4
	grep -q "run 1/3" "$tmp/err" || fail "lat_cmd --json: no progress"
fi

# --interval: the readings on stdout are whole lines, the progress never
# inside them.
BENCHMP_PROGRESS=always run "$bin/lat_cmd" -N 2 --interval=100 sleep 0.3
if [ "$rc" -ne 0 ]; then
	fail "lat_cmd --interval exited $rc: $(head -n 2 "$tmp/err")"
else
	grep -q "$esc\|$cr" "$tmp/out" &&
		fail "lat_cmd --interval: progress text on stdout"
	bad=$(grep -Evc '^lat_cmd: (run [12] reading [0-9]+ at [0-9.]+ s: )?[0-9.]+ microseconds' "$tmp/out")
	[ "$bad" -eq 0 ] || fail "lat_cmd --interval: $bad stray line(s) on stdout"
fi

# A bad value is refused, naming the variable, before anything runs.
BENCHMP_PROGRESS=sometimes expect_exit 2 'BENCHMP_PROGRESS=sometimes' \
    "$bin/lat_cmd" -N 1 true

# A sweep under "always": each size, i of n, on stderr; stdout as without.
BENCHMP_PROGRESS=always run "$bin/lat_mem_rd" -N 1 1 4096
if [ "$rc" -ne 0 ]; then
	fail "lat_mem_rd with progress exited $rc: $(head -n 2 "$tmp/err")"
else
	cp "$tmp/out" "$tmp/sweep-always"
	for s in "4 KB" "512 KB" "1 MB"; do
		grep -Eq "lat_mem_rd: $s, stride 4096 \([0-9]+/17\)" "$tmp/err" ||
			fail "lat_mem_rd: no '$s' on stderr"
	done
	grep -q "(17/17)" "$tmp/err" || fail "lat_mem_rd: not 17 of 17"
	grep -q "$esc\|$cr" "$tmp/sweep-always" &&
		fail "lat_mem_rd: progress text on stdout"
	run "$bin/lat_mem_rd" -N 1 1 4096
	has_progress "$tmp/err" &&
		fail "lat_mem_rd: progress on stderr without it: $(tr '\r\033' '|~' <"$tmp/err" | cut -c1-200)"
	cut -d' ' -f1 "$tmp/out" >"$tmp/a"
	cut -d' ' -f1 "$tmp/sweep-always" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" ||
		fail "lat_mem_rd: stdout's lines differ with progress on"
fi

# The other sweeps name what they measure.
BENCHMP_PROGRESS=always run "$bin/line" -M 64k
grep -q "line: stride 8 bytes (1/7)" "$tmp/err" || fail "line: no progress"
BENCHMP_PROGRESS=always run "$bin/lat_fs" -N 1 -n 20 -s 1k -s 4k
grep -q "lat_fs: 20 files of 4 KB (2/2)" "$tmp/err" ||
	fail "lat_fs: no progress: $(tr '\r\033' '|~' <"$tmp/err" | cut -c1-200)"

# auto on a real terminal (script(1) gives one): the line shows once a
# second of work is over (the third run's first reading is 1.05 s after
# the first run's start at the earliest) and is erased before the
# result; never draws nothing even there.
if ! script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
	echo "$me: SKIP the terminal part: script(1) from util-linux is missing or cannot make a terminal"
else
	TERM=xterm script -qec "'$bin/lat_cmd' -N 3 sleep 0.4" /dev/null \
	    </dev/null >"$tmp/tty" 2>&1
	grep -q "run 3/3" "$tmp/tty" ||
		fail "lat_cmd on a terminal: no progress after a second: $(tr '\r\033' '|~' <"$tmp/tty" | cut -c1-200)"
	grep -q "${esc}\[Klat_cmd: [0-9.]* microseconds" "$tmp/tty" ||
		fail "lat_cmd on a terminal: the result does not follow a cleared line"
	BENCHMP_PROGRESS=never TERM=xterm script -qec \
	    "'$bin/lat_cmd' -N 3 sleep 0.4" /dev/null </dev/null >"$tmp/tty" 2>&1
	grep -q "$esc" "$tmp/tty" &&
		fail "lat_cmd on a terminal under never: progress drawn"
	grep -Eq "lat_cmd: [0-9.]+ microseconds" "$tmp/tty" ||
		fail "lat_cmd on a terminal under never: no result"
fi

no_children
finish
