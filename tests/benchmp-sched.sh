#!/bin/sh
# benchmp-sched.sh: benchmp-sched's plans, visits, outputs and exit codes, an A/B of a known change, and its signals.
. "$top_srcdir/tests/lib.sh"

sched=$bin/benchmp-sched
spin=$top_builddir/tests/serve-spin
# The figures' values do not matter here, only their visits: one round a
# visit is what the engine serves, whatever BENCHMP_PROCESSES says.
unset BENCHMP_PROCESSES

# Bad plans: each refused with exit 2 and a message naming the fault.
printf 'lat_syscall null\n' >"$tmp/ok"
expect_exit 2 'longer than|a NUL byte' "$sched" --budget 1 /dev/zero
printf 'lat_syscall\0 null\n' >"$tmp/nul"
expect_exit 2 'line 1: a NUL byte' "$sched" --budget 1 "$tmp/nul"
printf '# a comment\n\nlat_syscall \033null\n' >"$tmp/ctl"
expect_exit 2 'line 3: a control byte' "$sched" --budget 1 "$tmp/ctl"
printf 'figures=0 lat_syscall null\n' >"$tmp/fig0"
expect_exit 2 'line 1: figures= takes' "$sched" --budget 1 "$tmp/fig0"
printf 'threshold=5 lat_syscall null\n' >"$tmp/thr"
expect_exit 2 'line 1: threshold= takes' "$sched" --budget 1 "$tmp/thr"
printf '# nothing\n' >"$tmp/none"
expect_exit 2 'no command' "$sched" --budget 1 "$tmp/none"
expect_exit 2 'no such file|No such file' "$sched" --budget 1 "$tmp/missing"
expect_exit 2 'budget' "$sched" --budget 0 "$tmp/ok"
expect_exit 2 'go together' "$sched" --a '' "$tmp/ok"
expect_exit 2 'usage' "$sched" --no-such-option "$tmp/ok"

# A plan of two served figures (one a CRLF line), a figure served twice
# by one process, and a tool run once: every output in plan order, each
# served figure visited at least five times, the run's times as JSON.
printf '%s 1\r\n%s 2\nonce %s 1\n' "$spin" "$spin" "$spin" >"$tmp/plan"
printf 'figures=2 %s 2\n' "$spin" >>"$tmp/plan"
run env SPIN_NS=2000 "$sched" --budget 2 --stats "$tmp/st.json" "$tmp/plan"
if [ "$rc" -ne 0 ]; then
	fail "a plan of four lines exited $rc: $(head -n 3 "$tmp/err")"
elif [ "$(grep -c '^spin: ' "$tmp/out")" -ne 6 ]; then
	fail "six figures expected, got: $(cat "$tmp/out")"
fi
# The figure run once has one round; the served ones one per visit.
if [ "$(sed -n 4p "$tmp/out" | cut -d' ' -f4)" != 5 ] &&
    [ "$(sed -n 4p "$tmp/out" | cut -d' ' -f4)" != 1 ]; then
	fail "the line run once: $(sed -n 4p "$tmp/out")"
fi
awk '$1 == "spin:" && NR != 4 && $4 < 5 { bad = 1 } END { exit bad }' \
    "$tmp/out" || fail "a served figure with fewer than 5 visits: $(cat "$tmp/out")"
if have_jq; then
	jq -e '.visits >= 25 and .wall_s > 0 and .timed_s > 0 and
	    .timed_s <= .wall_s and (.figures | length) == 5 and
	    all(.figures[]; .visits >= 5)' "$tmp/st.json" >/dev/null ||
		fail "the stats: $(cat "$tmp/st.json")"
fi
grep -q 'of it measuring' "$tmp/err" ||
	fail "no timed share on stderr: $(tail -n 2 "$tmp/err")"

# --outdir: each line's output, messages and exit status apart.
mkdir "$tmp/od"
printf '%s\nno-such-tool-here\n' "$spin" >"$tmp/plan2"
run "$sched" --budget 1 --outdir "$tmp/od" "$tmp/plan2"
[ "$rc" -eq 4 ] || fail "a plan with a missing tool exited $rc, expected 4"
grep -q 'line 2 .*no-such-tool-here' "$tmp/err" ||
	fail "the missing tool is not named: $(cat "$tmp/err")"
[ "$(cat "$tmp/od/1.rc")" = 0 ] && grep -q '^spin: ' "$tmp/od/1.out" ||
	fail "line 1's outdir files: $(cat "$tmp/od/1.rc" "$tmp/od/1.out")"
[ "$(cat "$tmp/od/2.rc")" = 127 ] ||
	fail "line 2's exit status: $(cat "$tmp/od/2.rc")"
[ -s "$tmp/od/2.err" ] || fail "line 2's messages are not kept"

# An A/B of a known change: B spins twice as long, so it is worse (exit
# 1), or at worst undecided (exit 3) on a machine too busy to settle it,
# its ratio above 1 either way.  The same in both arms is never worse.
printf '%s\n' "$spin" >"$tmp/one"
run "$sched" --budget 30 --json --a 'env SPIN_NS=2000' \
    --b 'env SPIN_NS=4000' "$tmp/one"
case $rc in
1 | 3) ;;
*) fail "A/B of a doubled cost exited $rc: $(head -n 3 "$tmp/err")" ;;
esac
if have_jq; then
	jq -e '.ratio > 1.5 and .ratio < 2.7 and .pairs >= 5 and
	    (.verdict == "worse" or .verdict == "undecided")' "$tmp/out" \
	    >/dev/null || fail "the doubled cost's verdict: $(cat "$tmp/out")"
	[ "$rc" -ne 1 ] || jq -e '.verdict == "worse"' "$tmp/out" >/dev/null ||
		fail "exit 1 without a worse figure: $(cat "$tmp/out")"
fi
run "$sched" --budget 2 --a 'env SPIN_NS=2000' --b 'env SPIN_NS=2000' \
    "$tmp/one"
case $rc in
0 | 3) ;;
*) fail "an A/A exited $rc: $(cat "$tmp/out")" ;;
esac
grep -q ' 0 worse, 0 better' "$tmp/out" ||
	fail "an A/A found a change: $(cat "$tmp/out")"

# SIGTERM: the scheduler ends within seconds, its tools with it.
SPIN_NS=2000 "$sched" --budget 600 "$tmp/one" >"$tmp/sig.out" \
    2>"$tmp/sig.err" &
pid=$!
sleep 1
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	fail "benchmp-sched outlived SIGTERM by 30 s"
	kill -KILL "$pid"
fi
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM: exit $rc, expected 143"
# This run's tools alone: another build may run this test meanwhile.
left=$(left_running serve-spin)
if [ -n "$left" ]; then
	fail "a served tool outlived the scheduler: $left"
	for p in $(tagged serve-spin); do
		kill -s KILL "$p"
	done
fi
finish
