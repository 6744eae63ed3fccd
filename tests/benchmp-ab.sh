#!/bin/sh
# benchmp-ab.sh: benchmp-ab's verdicts, stopping rule, exit codes, JSON and bad input, on a stand-in tool with a known effect.
. "$top_srcdir/tests/lib.sh"

ab=$bin/benchmp-ab
fake=$top_srcdir/tests/ab-fake.sh
AB_FAKE_STATE=$tmp/state
export AB_FAKE_STATE
# The stand-in needs no calibration (the real tool's test below has it),
# and no budget: on a loaded machine a few of its runs may take seconds,
# and the verdicts tested here need their rounds.
ab_q() {
	"$ab" --no-calibrate --budget 86400 "$@"
}

# verdict WANT_EXIT WANT_VERDICT ARGS...: benchmp-ab --json with ARGS on
# the stand-in exits WANT_EXIT and calls its figure WANT_VERDICT.
verdict() {
	want_rc=$1
	want=$2
	shift 2
	run ab_q --json "$@"
	if [ "$rc" -ne "$want_rc" ]; then
		fail "benchmp-ab $* exited $rc, expected $want_rc: $(head -n 2 "$tmp/err")"
		return
	fi
	if have_jq && ! jq -e --arg v "$want" '.verdict == $v' "$tmp/out" >/dev/null; then
		fail "benchmp-ab $*: verdict $(jq -r .verdict "$tmp/out" 2>/dev/null), expected $want"
	fi
}

# A 10% regression on a 1% noise: worse, exit 1, settled before the last round.
verdict 1 worse --a 'env AB_FAKE_EFFECT=0' --b 'env AB_FAKE_EFFECT=0.10' "$fake"
if have_jq; then
	jq -e '.tool == "fake" and .case == "x" and .params == {} and
	    .metric == "latency" and .unit == "us" and .better == "lower" and
	    .ratio > 1.08 and .ratio < 1.12 and .ci_lo > 1.05 and
	    .ci_hi < 1.15 and .ci_level >= 0.95 and .rounds >= 6 and
	    .rounds < 200 and .settled_early and .mode == "interleaved" and
	    .control == false and .threshold == 0.02 and .test == "sign"' \
	    "$tmp/out" >/dev/null ||
		fail "the worse figure's JSON: $(cat "$tmp/out")"
fi
# The signed-rank test decides the same regression, and says so.
verdict 1 worse --test signed-rank --a '' --b 'env AB_FAKE_EFFECT=0.10' "$fake"
if have_jq; then
	jq -e '.test == "signed-rank" and .ci_lo > 1.05 and .ci_hi < 1.15' \
	    "$tmp/out" >/dev/null ||
		fail "the signed-rank figure's JSON: $(cat "$tmp/out")"
fi
# 10% faster: better, exit 0; for a bandwidth, 10% less is worse.
verdict 0 better --a '' --b 'env AB_FAKE_EFFECT=-0.10' -- "$fake"
verdict 1 worse --a 'env AB_FAKE_BETTER=higher' \
    --b 'env AB_FAKE_BETTER=higher AB_FAKE_EFFECT=-0.10' "$fake"
# No change and little noise: same, inside +-2%.
verdict 0 same --a '' --b '' "$fake"
if have_jq; then
	jq -e '.ci_lo >= 1 / 1.02 and .ci_hi <= 1.02' "$tmp/out" >/dev/null ||
		fail "same, but its interval is not inside +-2%: $(cat "$tmp/out")"
fi
# 2.5% on a 10% noise in six rounds: undecided, exit 3 (--strict, kept
# for old scripts, the same), or 0 with --allow-undecided; the time more
# that would decide it, in the JSON and on the line.
verdict 3 undecided --max-rounds 6 --a '' --b 'env AB_FAKE_EFFECT=0.025 AB_FAKE_NOISE=0.1' \
    "$fake"
if have_jq && ! jq -e '.more_s > 0' "$tmp/out" >/dev/null; then
	fail "undecided, but no time that would decide it: $(cat "$tmp/out")"
fi
verdict 3 undecided --strict --max-rounds 6 --a '' \
    --b 'env AB_FAKE_EFFECT=0.025 AB_FAKE_NOISE=0.1' "$fake"
verdict 0 undecided --allow-undecided --max-rounds 6 --a '' \
    --b 'env AB_FAKE_EFFECT=0.025 AB_FAKE_NOISE=0.1' "$fake"
run ab_q --max-rounds 6 --a '' --b 'env AB_FAKE_EFFECT=0.025 AB_FAKE_NOISE=0.1' \
    "$fake"
if [ "$rc" -ne 3 ] ||
    ! grep -Eq ' undecided .*\(about [0-9]+ s more would decide it\)$' "$tmp/out"; then
	fail "an undecided line ($rc): $(cat "$tmp/out")"
fi
# A larger threshold turns the 10% regression into ... still worse at 5%,
# same at 20%.
verdict 1 worse --threshold 5 --a '' --b 'env AB_FAKE_EFFECT=0.10' "$fake"
verdict 0 same --threshold 20 --a '' --b 'env AB_FAKE_EFFECT=0.10' "$fake"

# Two figures a run: each decided, the unchanged one same.
run ab_q --json --a '' --b 'env AB_FAKE_EFFECT=0.1' "$fake" two
if [ "$rc" -ne 1 ]; then
	fail "two figures: exited $rc, expected 1: $(head -n 2 "$tmp/err")"
fi
run ab_q --json --a 'env AB_FAKE_TWO=1' \
    --b 'env AB_FAKE_TWO=1 AB_FAKE_EFFECT=0.1' "$fake"
if [ "$rc" -ne 1 ]; then
	fail "two figures: exited $rc, expected 1: $(head -n 2 "$tmp/err")"
elif have_jq && [ "$(jq -r '"\(.case) \(.verdict)"' "$tmp/out" | tr '\n' ' ')" != "x worse y same " ]; then
	fail "two figures: $(jq -c '[.case, .verdict]' "$tmp/out" | tr '\n' ' ')"
fi

# A private directory in the params, another each run: one figure.
verdict 1 worse --a 'env AB_FAKE_PRIVATE=1' \
    --b 'env AB_FAKE_PRIVATE=1 AB_FAKE_EFFECT=0.1' "$fake"
if have_jq && ! jq -e '.params.host == "<tmp>/s0"' "$tmp/out" >/dev/null; then
	fail "a private directory in the params: $(cat "$tmp/out")"
fi

# The text form: a header, one line a figure, the counts.
run ab_q --a '' --b 'env AB_FAKE_EFFECT=0.10' "$fake"
if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/out")" -ne 3 ] ||
    ! grep -Eq '^fake x latency +B/A 1\.[01][0-9]{3} \[[0-9.]+, [0-9.]+\] 9[5-9]% +worse ' "$tmp/out" ||
    ! grep -q '^benchmp-ab: 1 worse, 0 better, 0 same, 0 undecided$' "$tmp/out"; then
	fail "the text form ($rc): $(cat "$tmp/out")"
fi

# --control: A against A, the noise floor; no --b with it.
run ab_q --control --a '' "$fake"
if [ "$rc" -ne 0 ] || ! grep -Eq 'noise floor \+-[0-9.]+%' "$tmp/out"; then
	fail "--control ($rc): $(cat "$tmp/out") $(head -n 2 "$tmp/err")"
fi
expect_exit 2 'no --b' "$ab" --control --a '' --b '' "$fake"

# --records: every run's records, each with its arm and round.
run ab_q --records "$tmp/rec.jsonl" --max-rounds 6 --a '' --b '' "$fake"
if [ "$rc" -ne 0 ] || [ "$(wc -l <"$tmp/rec.jsonl")" -ne 12 ]; then
	fail "--records: exit $rc, $(wc -l <"$tmp/rec.jsonl") lines, expected 12"
elif have_jq && [ "$(jq -r '.ab_arm' "$tmp/rec.jsonl" | grep -c A)" -ne 6 ]; then
	fail "--records: arms $(jq -r .ab_arm "$tmp/rec.jsonl" | tr '\n' ' ')"
fi

# The order: Thue-Morse, AB BA BA AB BA AB ...
if have_jq && [ "$(jq -r '.ab_arm' "$tmp/rec.jsonl" | tr -d '\n')" != ABBABAABBAAB ]; then
	fail "the order is $(jq -r .ab_arm "$tmp/rec.jsonl" | tr -d '\n'), not Thue-Morse's"
fi

# The records' file is benchmp-ab's alone: no arm holds it open (it
# could write to it, or keep it busy), each arm's descriptors listed.
# shellcheck disable=SC2016 # (the prefix's own $$ and $@)
printf '%s\n' '#!/bin/sh' "ls -l /proc/\$\$/fd/ >>'$tmp/arm-fds'" \
    'exec "$@"' >"$tmp/fdarm"
chmod +x "$tmp/fdarm"
run env AB_FAKE_STATE="$tmp/fd.state" "$ab" --no-calibrate --budget 86400 \
    --records "$tmp/fd-records.jsonl" --max-rounds 6 --a "$tmp/fdarm" \
    --b "$tmp/fdarm" "$fake"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
	fail "an arm listing its descriptors: exit $rc: $(head -n 2 "$tmp/err")"
elif ! grep -q ' -> ' "$tmp/arm-fds"; then
	fail "an arm listing its descriptors: none listed"
elif grep -q 'fd-records\.jsonl' "$tmp/arm-fds"; then
	fail "an arm holds the records' file: $(grep -m 1 'fd-records' \
	    "$tmp/arm-fds")"
fi

# A caller that ignores SIGCHLD (inherited through exec): each arm's end
# and exit status are still seen, any verdict, never an arm failed.
if command -v perl >/dev/null 2>&1; then
	# shellcheck disable=SC2016 # (perl's variables)
	run env AB_FAKE_STATE="$tmp/chld.state" perl -e \
	    '$SIG{CHLD} = "IGNORE"; exec @ARGV or die' "$ab" --no-calibrate \
	    --budget 86400 --max-rounds 6 --a '' --b '' "$fake"
	case $rc in
	0 | 1 | 3) ;;
	*) fail "SIGCHLD ignored: exit $rc: $(head -n 2 "$tmp/err")" ;;
	esac
fi

# Usage errors: exit 2, a message naming what is wrong.
expect_exit 2 '--a PREFIX is required' "$ab" --b '' "$fake"
expect_exit 2 '--b PREFIX is required' "$ab" --a '' "$fake"
expect_exit 2 'no TOOL' "$ab" --a '' --b ''
expect_exit 2 'threshold' "$ab" --threshold 0 --a '' --b '' "$fake"
expect_exit 2 'threshold' "$ab" --threshold 2x --a '' --b '' "$fake"
expect_exit 2 "--test: 'ranks' is not sign or signed-rank" "$ab" --test ranks \
    --a '' --b '' "$fake"
expect_exit 2 'max-rounds' "$ab" --max-rounds 5 --a '' --b '' "$fake"
expect_exit 2 'max-rounds' "$ab" --max-rounds 7.5 --a '' --b '' "$fake"
expect_exit 2 'budget' "$ab" --budget -1 --a '' --b '' "$fake"
expect_exit 2 'quote' "$ab" --a "env 'X=1" --b '' "$fake"
expect_exit 2 "arm B .*cannot find 'no-such-prefix-cmd'" "$ab" --a '' \
    --b 'no-such-prefix-cmd -x' "$fake"
expect_exit 2 "arm A .*cannot find '$tmp/nodir/ab-fake.sh'" "$ab" \
    --a "$tmp/nodir/" --b '' ab-fake.sh
expect_exit 2 'unrecognized|unknown' "$ab" --bogus --a '' --b '' "$fake"
printf '# nothing\n\n' >"$tmp/empty.plan"
expect_exit 2 'no command' "$ab" --plan "$tmp/empty.plan" --a '' --b ''
expect_exit 2 'one' "$ab" --plan "$tmp/empty.plan" --a '' --b '' "$fake"

# An arm that fails: exit 4, the arm and its message named.
expect_exit 4 'arm B .*failed.*exit status 3: ab-fake: failing as asked' \
    ab_q --a '' --b 'env AB_FAKE_FAIL=1' "$fake"
expect_exit 4 'arm A .*failed.*exit status 127' \
    ab_q --a 'env' --b 'env' "$tmp/no-such-tool"
expect_exit 4 'arm B printed a record that is not valid JSON' \
    ab_q --a '' --b 'env AB_FAKE_GARBAGE=1' "$fake"
expect_exit 4 'arm A printed fake y' \
    ab_q --a 'env AB_FAKE_TWO=1' --b '' "$fake"

# A hung arm is killed at its timeout, and what an arm left running is
# killed with it: nothing is left behind.
expect_exit 4 'did not finish within its timeout' \
    ab_q --timeout 1 --a '' --b 'env AB_FAKE_HANG=1' "$fake"
run ab_q --max-rounds 6 --a "env AB_FAKE_SPAWN=$tmp/pid" --b '' "$fake"
if [ "$rc" -ne 0 ]; then
	fail "a spawning arm: exited $rc: $(head -n 2 "$tmp/err")"
elif [ -s "$tmp/pid" ] && [ -r "/proc/$(cat "$tmp/pid")/stat" ] &&
    ! awk '{ exit $3 == "Z" ? 0 : 1 }' "/proc/$(cat "$tmp/pid")/stat"; then
	# Killed but not reaped (an init that does not reap) is gone too.
	fail "a spawning arm left pid $(cat "$tmp/pid") running"
	kill "$(cat "$tmp/pid")" 2>/dev/null
fi

# A plan of two commands, and a real tool in it: any verdict, the fields.
printf '%s\n# a comment\n%s\n' "$fake" "lat_syscall null" >"$tmp/plan"
PATH=$bin:$PATH run "$ab" --json --max-rounds 6 --budget 86400 --a '' --b '' \
    --plan "$tmp/plan"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
	fail "a plan with lat_syscall: exited $rc: $(head -n 2 "$tmp/err")"
elif have_jq && ! jq -se 'length == 2 and .[1].tool == "lat_syscall" and
    .[1].case == "null" and .[1].unit == "us" and .[1].rounds == 6 and
    (.[1].verdict | IN("same", "worse", "better", "undecided")) and
    .[1].ratio > 0' "$tmp/out" >/dev/null; then
	fail "a plan with lat_syscall: $(cat "$tmp/out")"
fi

# Runs are one process after 5 ms unless the environment says otherwise,
# and --tool-defaults leaves them to the tool (5 processes).
for how in short defaults; do
	opt=
	[ "$how" = short ] || opt=--tool-defaults
	rm -f "$tmp/runs.jsonl"
	# shellcheck disable=SC2086 # $opt is empty or one word
	run env -u BENCHMP_PROCESSES -u BENCHMP_WARMUP "$ab" --no-calibrate \
	    --max-rounds 6 --budget 86400 --records "$tmp/runs.jsonl" $opt \
	    --a '' --b '' "$bin/lat_syscall" null
	want=1
	[ "$how" = short ] || want=5
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
		fail "$how runs: exited $rc: $(head -n 2 "$tmp/err")"
	elif have_jq && ! jq -se --argjson p "$want" 'length == 12 and
	    all(.processes == $p)' "$tmp/runs.jsonl" >/dev/null; then
		fail "$how runs: not $want processes each: $(jq -c .processes "$tmp/runs.jsonl" | tr '\n' ' ')"
	fi
done

# A prefix that is a directory without its slash names no program: a
# usage error before anything runs (it was found, then failed, exit 4).
mkdir "$tmp/armdir" || exit 99
expect_exit 2 "arm B .*cannot find '$tmp/armdir'" ab_q --a '' \
    --b "$tmp/armdir" "$fake"
# So is a tool that cannot be found on a line of benchmp-sched's plan
# (--served), its words before the tool aside, in either arm.
printf 'visit=5 %s\nno-such-ab-tool x\n' "$fake" >"$tmp/missing.plan"
expect_exit 2 "arm A .*cannot find 'no-such-ab-tool'" "$ab" --served \
    --a '' --b '' --plan "$tmp/missing.plan"
printf 'lat_syscall null\n' >"$tmp/dir.plan"
expect_exit 2 "arm B .*cannot find '$tmp/armdir/lat_syscall'" "$ab" \
    --served --a '' --b "$tmp/armdir/" --plan "$tmp/dir.plan"

# --records: a usage error leaves no file; an arm's line that is no
# record (invalid JSON) never lands in it, however the round ends.
expect_exit 2 "arm B .*cannot find 'no-such-prefix-cmd'" "$ab" --records \
    "$tmp/usage.jsonl" --a '' --b 'no-such-prefix-cmd' "$fake"
[ ! -e "$tmp/usage.jsonl" ] || fail "--records: a usage error left the file"
expect_exit 4 'arm B printed a record that is not valid JSON' \
    ab_q --records "$tmp/garbage.jsonl" --a '' --b 'env AB_FAKE_GARBAGE=1' \
    "$fake"
if [ -e "$tmp/garbage.jsonl" ] && grep -qv '}$' "$tmp/garbage.jsonl"; then
	fail "--records: a line that is no record saved: $(grep -v '}$' "$tmp/garbage.jsonl")"
fi

# The calibration reaches both arms whole: on a clock other than the one
# the tools assume, with the clock its TIMING_O was measured on.
printf '%s\n' '#!/bin/sh' \
    "echo \"clock=\${BENCHMP_OVERHEAD_CLOCK-unset}\" >>'$tmp/clock-env'" \
    'exec "$@"' >"$tmp/clockarm" && chmod +x "$tmp/clockarm" || exit 99
run env -u ENOUGH -u TIMING_O -u LOOP_O -u BENCHMP_OVERHEAD_CLOCK \
    BENCHMP_TIMER=clock=posix-monotonic-raw AB_FAKE_STATE="$tmp/clock.state" \
    "$ab" --rounds --budget 86400 --a "$tmp/clockarm" --b "$tmp/clockarm" \
    "$fake"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
	fail "a calibration on posix-monotonic-raw: exit $rc: $(head -n 2 "$tmp/err")"
elif grep -q 'no calibration' "$tmp/err"; then
	echo "$me: enough did not calibrate on posix-monotonic-raw: its clock not checked: $(head -n 1 "$tmp/err")" >&2
elif [ "$(sort -u "$tmp/clock-env")" != clock=posix-monotonic-raw ]; then
	fail "the arms' BENCHMP_OVERHEAD_CLOCK: $(sort -u "$tmp/clock-env" | tr '\n' ' ')"
fi

run "$ab" --help
if [ "$rc" -ne 0 ] || ! grep -q '^usage: benchmp-ab' "$tmp/out"; then
	fail "--help: exit $rc"
fi

[ "$failures" -eq 0 ]
