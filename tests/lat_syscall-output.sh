#!/bin/sh
# lat_syscall-output.sh: lat_syscall prints lmbench's lines and valid JSON.
. "$top_srcdir/tests/lib.sh"
# The rounds of fresh workers are among what this test checks.
unset BENCHMP_PROCESSES

for m in "null:Simple syscall" "read:Simple read" "write:Simple write" \
    "stat:Simple stat" "fstat:Simple fstat" "open:Simple open/close"; do
	expect_line "^${m#*:}: [0-9]+\\.[0-9]{4} microseconds\$" \
	    "$bin/lat_syscall" -N 3 "${m%%:*}"
	# The figure is a real, positive time.
	awk '{ exit !($(NF - 1) > 0) }' "$tmp/out" ||
		fail "lat_syscall ${m%%:*}: figure not positive: $(cat "$tmp/out")"
done
expect_line '^Simple stat: [0-9.]+ microseconds$' \
    "$bin/lat_syscall" -N 3 stat "$top_srcdir/configure.ac"
expect_line '^Simple syscall: [0-9.]+ microseconds$' \
    "$bin/lat_syscall" -P 2 -N 3 -W 1000 null

if have_jq; then
	expect_json '.tool == "lat_syscall" and .case == "null" and
	    .unit == "us" and .value > 0 and .samples == 25 and
	    .processes == 5 and (.process_values | length) == 5 and
	    (.values | length) == 25 and .min <= .median and
	    .stat == "best process" and .value == .robust.value and
	    .value == .min and .ci_level == 0.9 and .ci_kind == "next run" and
	    .ci_lo > 0 and .ci_lo <= .value and .value <= .ci_hi and
	    .median_ci_level == 0.9375 and .median <= .ci_hi and
	    .within.ci_lo <= .within.ci_hi and .median <= .max and
	    .calibration.from_env.enough == true and
	    .calibration.enough_us == 2000 and .timer.clock == "posix-monotonic"
	    and (.version | length) > 0 and (.noisy | type) == "boolean"' \
	    "$bin/lat_syscall" --json -N 5 null
	# Rounds of fresh workers: --processes wins over BENCHMP_PROCESSES,
	# which wins over the default.
	expect_json '.processes == 2 and .samples == 6 and
	    (.process_values | length) == 2 and .ci_level == 0.5' \
	    env BENCHMP_PROCESSES=4 "$bin/lat_syscall" --json --processes=2 \
	    -N 3 null
	expect_json '.processes == 4 and .samples == 12' \
	    env BENCHMP_PROCESSES=4 "$bin/lat_syscall" --json -N 3 null
	expect_json '.parallel == 2 and .samples == 30 and
	    .params.file == "/dev/null"' \
	    "$bin/lat_syscall" --json -P 2 -N 3 fstat
	# A file name that needs escaping stays valid JSON.
	odd="$tmp/we\"ird	name"
	: >"$odd"
	run "$bin/lat_syscall" --json -N 3 stat "$odd"
	[ "$rc" -eq 0 ] && [ "$(jq -r .params.file "$tmp/out")" = "$odd" ] ||
		fail "file name '$odd' did not round-trip: $(cat "$tmp/out")"
	expect_json '.timer.clock == "posix-monotonic-raw"' \
	    "$bin/lat_syscall" --json --timer=clock=posix-monotonic-raw -N 3 null
else
	echo "$me: jq not found: JSON checks skipped" >&2
fi
# The line warns when its figure is flagged, after lmbench's fields: one
# process has no interval to hold it to, so its figure is always noisy.
run "$bin/lat_syscall" -N 3 --processes=1 null
if [ "$rc" -ne 0 ] || ! grep -Eq '^Simple syscall: [0-9]+\.[0-9]{4} microseconds \(noisy( \+-[0-9]+%)?\)$' "$tmp/out.raw"; then
	fail "lat_syscall --processes=1: no warning: $(cat "$tmp/out.raw")"
fi
# A figure of three processes or more says how far its interval reaches.
run "$bin/lat_syscall" -N 3 --processes=3 --precision=0.1 null
if [ "$rc" -ne 0 ] || ! grep -Eq '^Simple syscall: [0-9]+\.[0-9]{4} microseconds \(noisy \+-[0-9]+%\)$' "$tmp/out.raw"; then
	fail "lat_syscall --precision=0.1: $(cat "$tmp/out.raw")"
fi
for p in 0 0.05 101 abc 3%; do
	expect_exit 2 "precision.*$p" "$bin/lat_syscall" --precision="$p" null
done
expect_exit 2 'BENCHMP_PRECISION' env BENCHMP_PRECISION=x "$bin/lat_syscall" null

# --served=S: the same line, measured in visits under benchmp-sched (which
# says so on stderr); the record says served and counts the visits (5,
# or 3 at least where the budget held no more on a loaded machine).
run "$bin/lat_syscall" --served=1 null
[ "$rc" -eq 0 ] &&
    grep -Eq '^Simple syscall: [0-9]+\.[0-9]{4} microseconds( \(noisy \+-[0-9]+%\))?$' "$tmp/out.raw" &&
    grep -q '^benchmp-sched: 1 figure, [0-9]* visits' "$tmp/err" ||
	fail "lat_syscall --served: exit $rc: $(cat "$tmp/out.raw" "$tmp/err")"
if have_jq; then
	expect_json '.served == true and .processes >= 3 and
	    .stat == "median of visits" and .ci_kind == "next run" and
	    .ci_lo <= .value and .value <= .ci_hi' \
	    "$bin/lat_syscall" --served=0.2 --json null
fi
for s in x 0 0.1 86401; do
	expect_exit 2 "served: '$s' is not a number of seconds" \
	    "$bin/lat_syscall" --served="$s" null
done
expect_exit 2 'takes the place of --processes' "$bin/lat_syscall" \
    --served=1 --processes=3 null
expect_exit 2 'does not apply' "$bin/enough" --served=1
no_children
finish
