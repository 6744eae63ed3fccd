#!/bin/sh
# scripts-repeat.sh: benchmp-repeat's report, from runs of a stand-in
# benchmp-run that writes the A/A fixtures (no suite is run here), and a
# SIGTERM passed on to a run that goes on.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
# The scripts side by side, as installed, with benchmp-stats, which
# computes their statistics, and a benchmp-run that writes the records
# named by $FAKE_RUNS (one file per run, in turn) and exits with
# $FAKE_EXIT.
mkdir "$tmp/bin"
cp "$top_srcdir/scripts/benchmp-repeat" "$top_srcdir/scripts/benchmp-compare" \
    "$top_srcdir/scripts/benchmp-summary" "$top_srcdir/scripts/benchmp-lib.sh" \
    "$bin/benchmp-stats" "$tmp/bin/" || fail "cannot copy the scripts"
cat >"$tmp/bin/benchmp-run" <<'EOS'
#!/bin/sh
# A stand-in for benchmp-run: --results DIR, then any options.  With
# $FAKE_HANG it writes its pid there and waits for a signal (a run that
# takes long), ending its own child on SIGTERM as benchmp-run does.
[ "$1" = --results ] || exit 2
if [ -n "$FAKE_HANG" ]; then
	trap 'kill "$child" 2>/dev/null; exit 143' TERM
	sleep 615 &
	child=$!
	echo "$$" >"$FAKE_HANG"
	wait "$child"
	exit 1
fi
n=$(cat "$FAKE_STATE" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$FAKE_STATE"
echo "$*" >>"$FAKE_STATE.args"
set -- $FAKE_RUNS "$2"
i=$n
while [ "$i" -gt 1 ]; do shift; i=$((i - 1)); done
eval "dir=\${$#}"
mkdir -p "$dir/host" && cp "$1" "$dir/host/run.jsonl"
echo "summary of run $n"
[ -z "$FAKE_MEASURED" ] ||
	echo "measuring: $FAKE_MEASURED s of 0.0 s (0%), 1 visits of 1 figures in 0.0 s"
exit "${FAKE_EXIT:-0}"
EOS
chmod +x "$tmp/bin/benchmp-run"
rep=$tmp/bin/benchmp-repeat
aa1=$top_srcdir/tests/data/aa-1.jsonl
aa2=$top_srcdir/tests/data/aa-2.jsonl
FAKE_STATE=$tmp/state
FAKE_MEASURED=0.0
FAKE_HANG=
export FAKE_STATE FAKE_RUNS FAKE_EXIT FAKE_MEASURED FAKE_HANG

# Three runs of the same records: every figure at 0% CV, each median in
# the other runs' intervals where it has one, every compare same.
FAKE_RUNS="$aa1 $aa1 $aa1"
rm -f "$FAKE_STATE"
run "$rep" --quick --only latency
[ "$rc" -eq 0 ] || fail "3 identical runs: exit $rc: $(cat "$tmp/err")"
[ "$(cat "$FAKE_STATE")" = 3 ] || fail "not 3 runs of benchmp-run"
grep -q -- '--quick --only latency$' "$FAKE_STATE.args" ||
	fail "options not passed to benchmp-run: $(cat "$FAKE_STATE.args")"
# The runs take one calibration store, their own directory's.
[ "$(sed -n 's/.* --calibration \([^ ]*\/calibration\) .*/\1/p' \
    "$FAKE_STATE.args" | sort -u | wc -l)" -eq 1 ] &&
    [ "$(grep -c -- ' --calibration ' "$FAKE_STATE.args")" -eq 3 ] ||
	fail "the runs do not share one calibration: $(cat "$FAKE_STATE.args")"
# And one store of past runs, beside it.
[ "$(sed -n 's/.*--history \([^ ]*\/history\) .*/\1/p' \
    "$FAKE_STATE.args" | sort -u | wc -l)" -eq 1 ] &&
    [ "$(grep -c -- '--history ' "$FAKE_STATE.args")" -eq 3 ] ||
	fail "the runs do not share one history: $(cat "$FAKE_STATE.args")"
grep -q '^figure  *cv  *in CI  verdicts 1-2 1-3 2-3$' "$tmp/out" ||
	fail "no header: $(cat "$tmp/out")"
grep -Eq '^lat_syscall null \(us\) +0\.0% +6/6  same same same$' "$tmp/out" ||
	fail "lat_syscall null row: $(cat "$tmp/out")"
n=$(jq -s 'map([.tool, .case, .params, .metric]) | unique | length' "$aa1")
grep -q "^figures in all 3 runs: $n " "$tmp/out" ||
	fail "not $n figures: $(grep '^figures' "$tmp/out")"
grep -Eq "^within 3% run-to-run CV: $n \(100%\) .* PASS$" "$tmp/out" ||
	fail "CV total: $(cat "$tmp/out")"
grep -Eq '^pairs whose compare exited 0: 3/3 .* PASS$' "$tmp/out" ||
	fail "compare total: $(cat "$tmp/out")"
grep -Eq '^  of them off by >10% in a run that did not flag it: 0 +0 +PASS$' "$tmp/out" ||
	fail "unflagged movers: $(cat "$tmp/out")"
# Each run's share of flagged figures, as its summary's first line.
share=$("$tmp/bin/benchmp-summary" "$aa1" | sed -n \
    '1s/^flagged: [0-9]* of [0-9]* (\([0-9]*%\)).*/\1/p')
[ -n "$share" ] || fail "no share of flagged figures in the summary of $aa1"
grep -Eq "^flagged figures per run: $share $share $share +<= 15% +(PASS|MISS)\$" \
    "$tmp/out" || fail "flagged share, not $share: $(grep '^flagged' "$tmp/out")"

# The field that repeats: medians that move by 30% a run, a robust figure
# (the best process) that does not: the robust figure is what is judged,
# as benchmp-summary shows it.
for i in 1 2 3; do
	jq -c --argjson i "$i" 'if .tool == "lat_syscall" and .case == "null"
	    then (.median * (1 + 0.3 * $i)) as $m | .value as $v |
	    . + {value: $m, median: $m, ci_lo: ($m * 0.99), ci_hi: ($m * 1.01),
	        robust: {stat: "best process", value: $v, ci_lo: ($v * 0.99),
	            ci_hi: ($v * 1.01), noisy: false, causes: []}}
	    else . end' "$aa1" >"$tmp/robust$i.jsonl" ||
		fail "cannot write $tmp/robust$i.jsonl"
done
FAKE_RUNS="$tmp/robust1.jsonl $tmp/robust2.jsonl $tmp/robust3.jsonl"
rm -f "$FAKE_STATE"
run "$rep" --quick --only latency
[ "$rc" -eq 0 ] || fail "3 runs with robust figures: exit $rc: $(cat "$tmp/err")"
grep -Eq '^lat_syscall null \(us\) +0\.0% +6/6 ' "$tmp/out" ||
	fail "the robust figure not judged: $(grep '^lat_syscall null' "$tmp/out")"

# The A/A pair and a run with a 10% regression: the regressed figure
# moves, its compare says worse and the pairs with it exit 1.
key=$(jq -r 'select(.tool == "lat_syscall" and .case == "null") | .case' "$aa1")
[ "$key" = null ] || fail "no lat_syscall null in $aa1"
jq -c 'if .tool == "lat_syscall" and .case == "null" then
    .value *= 2 | .median *= 2 | .ci_lo *= 2 | .ci_hi *= 2 |
    .noisy = false | .bimodal = false else . end' "$aa1" >"$tmp/worse.jsonl"
jq -c 'if .tool == "lat_syscall" and .case == "null" then
    .noisy = false | .bimodal = false | .ci_lo = .median * 0.99 |
    .ci_hi = .median * 1.01 else . end' "$aa1" >"$tmp/base.jsonl"
FAKE_RUNS="$tmp/base.jsonl $tmp/base.jsonl $tmp/worse.jsonl"
rm -f "$FAKE_STATE"
run "$rep" -k 3
[ "$rc" -eq 0 ] || fail "regressed run: exit $rc: $(cat "$tmp/err")"
grep -Eq '^lat_syscall null \(us\) +[0-9.]+% +2/6  same worse worse$' \
    "$tmp/out" || fail "regressed row: $(grep '^lat_syscall null' "$tmp/out")"
grep -Eq '^pairs whose compare exited 0: 1/3 \(not: 1-3 2-3\) .* MISS$' \
    "$tmp/out" || fail "compare total: $(cat "$tmp/out")"
grep -Eq '^next value in previous interval: [0-9]+/[0-9]+ \([0-9]+%\) +>= 90% ' \
    "$tmp/out" || fail "no next-in-previous total: $(cat "$tmp/out")"
# It moved by more than 10% and no run flagged it: a false assurance.
grep -Eq '^  of them off by >10% in a run that did not flag it: 1 +0 +MISS$' "$tmp/out" &&
    grep -q '^    (lat_syscall null (us))$' "$tmp/out" ||
	fail "the unflagged regression not named: $(cat "$tmp/out")"
# Flagged (noisy) in the run that was off (the worse one): no false
# assurance, whatever the runs at the median said.
jq -c 'if .tool == "lat_syscall" and .case == "null" then
    .noisy = true else . end' "$tmp/worse.jsonl" >"$tmp/worse-noisy.jsonl"
FAKE_RUNS="$tmp/base.jsonl $tmp/base.jsonl $tmp/worse-noisy.jsonl"
rm -f "$FAKE_STATE"
run "$rep" -k 3 --keep "$tmp/kept"
[ "$rc" -eq 0 ] && grep -Eq '^  of them off by >10% in a run that did not flag it: 0 ' \
    "$tmp/out" || fail "a flagged mover counted: $(cat "$tmp/out")"
[ "$(tail -n 3 "$FAKE_STATE.args" |
    grep -c -- " --calibration $tmp/kept/calibration\$")" -eq 3 ] ||
	fail "--keep: the calibration not kept there: $(tail -n 3 "$FAKE_STATE.args")"
[ "$(tail -n 3 "$FAKE_STATE.args" |
    grep -c -- "--history $tmp/kept/history ")" -eq 3 ] ||
	fail "--keep: the history not kept there: $(tail -n 3 "$FAKE_STATE.args")"
# The seconds measuring, from each run's summary, against its wall time
# (a run of no time at all has no share).
grep -Eq '^measuring per run:( (0%|-)){3} +>= 60% +(MISS|-)$' "$tmp/out" ||
	fail "measuring: $(grep '^measuring' "$tmp/out")"

# --from: the kept runs read again, with their wall times; nothing run.
cp "$tmp/out" "$tmp/kept.out"
rm -f "$FAKE_STATE"
run "$rep" --from "$tmp/kept"
[ "$rc" -eq 0 ] && [ ! -f "$FAKE_STATE" ] ||
	fail "--from: exit $rc, or benchmp-run was run: $(cat "$tmp/err")"
sed 1d "$tmp/kept.out" >"$tmp/kept.table"
sed 1d "$tmp/out" >"$tmp/from.table"
cmp -s "$tmp/kept.table" "$tmp/from.table" ||
	fail "--from: not the report of the kept runs: $(diff "$tmp/kept.table" "$tmp/from.table")"
grep -Eq '^wall time per run: [0-9.]+ s [0-9.]+ s [0-9.]+ s ' "$tmp/out" ||
	fail "--from: wall times not kept: $(grep '^wall' "$tmp/out")"
cut -f 3 "$tmp/kept/run1/repeat.tsv" | grep -qx '0\.0' ||
	fail "--keep: seconds measuring not kept: $(cat "$tmp/kept/run1/repeat.tsv")"
# Two of the three (-k 2); a run kept without its time shows "-".
rm "$tmp/kept/run2/repeat.tsv"
run "$rep" --from "$tmp/kept" -k 2
[ "$rc" -eq 0 ] && grep -q '^figure  *cv  *in CI  verdicts 1-2$' "$tmp/out" &&
    grep -Eq '^wall time per run: [0-9.]+ s - +<= 90 s +-$' "$tmp/out" &&
    grep -Eq '^measuring per run: (0%|-) - +>= 60% +-$' "$tmp/out" ||
	fail "--from -k 2: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# Two runs (-k 2) of the A/A fixtures.
FAKE_RUNS="$aa1 $aa2"
rm -f "$FAKE_STATE"
run "$rep" -k 2 --threshold 10
[ "$rc" -eq 0 ] && grep -q '^figure  *cv  *in CI  verdicts 1-2$' "$tmp/out" ||
	fail "-k 2: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# A run that fails with records: reported, exit 1 after the report; a
# run without records: exit 1 at once.
FAKE_RUNS="$aa1 $aa1"
FAKE_EXIT=1
rm -f "$FAKE_STATE"
run "$rep" -k 2
[ "$rc" -eq 1 ] && grep -q '^total' "$tmp/out" &&
    grep -q 'a run of benchmp-run failed' "$tmp/err" ||
	fail "failed run: exit $rc: $(cat "$tmp/err")"
FAKE_EXIT=0
FAKE_RUNS="/dev/null /dev/null"
rm -f "$FAKE_STATE"
expect_exit 1 'run 1 gave no records' "$rep" -k 2

# SIGTERM while a run goes on: passed on to benchmp-run at once, which
# ends; the script exits 143 and leaves nothing running.
FAKE_HANG=$tmp/hang.pid
"$rep" -k 2 </dev/null >"$tmp/out" 2>"$tmp/err" &
pid=$!
n=0
while [ ! -s "$FAKE_HANG" ] && [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
if [ ! -s "$FAKE_HANG" ]; then
	fail "SIGTERM: no run started within $hang_s s: $(cat "$tmp/err")"
	kill -s KILL "$pid" 2>/dev/null
	wait "$pid"
else
	kill -s TERM "$pid"
	wait_gone "$pid" "$hang_s"
	[ "$rc" -eq 143 ] ||
		fail "SIGTERM: exit $rc, not 143: $(cat "$tmp/err")"
	left=$(left_running 'sleep 615')
	run_pid=$(cat "$FAKE_HANG")
	if kill -0 "$run_pid" 2>/dev/null; then
		fail "SIGTERM: benchmp-run ($run_pid) left running"
		kill -s KILL "$run_pid"
	fi
	[ -z "$left" ] || fail "SIGTERM: left running: $left"
	for p in $(tagged 'sleep 615'); do kill -s KILL "$p"; done
fi
FAKE_HANG=

# Usage errors.
for k in 0 1 21 x ''; do
	expect_exit 2 "-k: '$k' is not a number of runs" "$rep" -k "$k"
done
expect_exit 2 "--threshold: 'abc' is not a percentage" "$rep" --threshold abc
expect_exit 2 'benchmp-repeat chooses where the runs go' "$rep" --results x
expect_exit 2 'is not supported' "$rep" --mpi
expect_exit 2 '-k needs a value' "$rep" -k
expect_exit 2 "--from: '$tmp/none' is not a directory" "$rep" --from "$tmp/none"
mkdir "$tmp/empty"
expect_exit 2 'holds no run1 and run2' "$rep" --from "$tmp/empty"
expect_exit 2 "--from: '--quick': nothing is run" "$rep" --from "$tmp/kept" --quick
expect_exit 2 '--from and --keep' "$rep" --from "$tmp/kept" --keep "$tmp/k2"
# Kept files are read within bounds: a repeat.tsv or a records file of
# gigabytes (sparse: no disk is used) is refused at once, naming it.
if truncate -s 2G "$tmp/kept/run2/repeat.tsv" 2>/dev/null; then
	expect_exit 1 'run2/repeat.tsv: larger than 256 bytes' \
	    timeout -s KILL 60 "$rep" --from "$tmp/kept"
	rm "$tmp/kept/run2/repeat.tsv"
fi
for g in "$tmp/kept/run1"/*/*.jsonl; do
	cp "$g" "$tmp/run1.jsonl"
	if truncate -s 2G "$g" 2>/dev/null; then
		expect_exit 1 'jsonl: larger than 64 MB: refused' \
		    timeout -s KILL 60 "$rep" --from "$tmp/kept"
	fi
	# One line longer than 1 MB.
	head -c 2000000 /dev/zero | tr '\0' ' ' >"$g"
	expect_exit 1 'jsonl: line 1 is longer than 1 MB: refused' \
	    timeout -s KILL 60 "$rep" --from "$tmp/kept"
	cp "$tmp/run1.jsonl" "$g"
done
rm -r "$tmp/kept/run1/host"
expect_exit 1 'run1: no records' "$rep" --from "$tmp/kept"
run "$rep" --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp-repeat' "$tmp/out" ||
	fail "--help: exit $rc"
# A store the caller names is the runs' one, and the only one.
FAKE_RUNS="$aa1 $aa1"
rm -f "$FAKE_STATE"
run "$rep" -k 2 --calibration "$tmp/mine"
[ "$rc" -eq 0 ] || fail "--calibration: exit $rc: $(cat "$tmp/err")"
[ "$(tail -n 2 "$FAKE_STATE.args" | grep -c -- '--calibration')" -eq 2 ] &&
    [ "$(tail -n 2 "$FAKE_STATE.args" |
    grep -c -- " --calibration $tmp/mine\$")" -eq 2 ] ||
	fail "--calibration not the runs' only one: $(tail -n 2 "$FAKE_STATE.args")"
# So is a store of past runs, and --no-history leaves them without one.
rm -f "$FAKE_STATE"
run "$rep" -k 2 --history "$tmp/hist"
[ "$rc" -eq 0 ] && [ "$(tail -n 2 "$FAKE_STATE.args" |
    grep -c -- '--history')" -eq 2 ] && [ "$(tail -n 2 "$FAKE_STATE.args" |
    grep -c -- "--history $tmp/hist")" -eq 2 ] ||
	fail "--history not the runs' only one: $(tail -n 2 "$FAKE_STATE.args")"
rm -f "$FAKE_STATE"
run "$rep" -k 2 --no-history
[ "$rc" -eq 0 ] && [ "$(tail -n 2 "$FAKE_STATE.args" |
    grep -c -- '--no-history')" -eq 2 ] && [ "$(tail -n 2 "$FAKE_STATE.args" |
    grep -c -- '--history ')" -eq 0 ] ||
	fail "--no-history: a store given: $(tail -n 2 "$FAKE_STATE.args")"

finish
