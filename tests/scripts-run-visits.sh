#!/bin/sh
# scripts-run-visits.sh: benchmp-run's suite as one experiment: every figure through benchmp-sched, its records, the share measuring, and the suite's A/B.
. "$top_srcdir/tests/lib.sh"
unset BENCHMP_PROCESSES

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
PATH=$(cd "$bin" && pwd):$PATH
export PATH

# least DIR: into $l, the visits every figure of the run kept in DIR got
# (5, or 3 or 4 where a slow machine's budget held no more; the summary
# then says so), from its visits.json.
least() {
	l=$(jq -r '.least_visits' "$1"/*/*.visits.json) || l=0
	case $l in
	3 | 4) grep -q "^visits: $l a figure at least, not 5" "$tmp/out" ||
		fail "least visits $l, unsaid: $(head -n 3 "$tmp/out")" ;;
	5) ;;
	*) fail "least_visits in $1: $l"; l=5 ;;
	esac
}

# --precision: a percentage from 0.1 to 100, for a run, not an A/B.
expect_exit 2 'precision' "$brun" --installed --no-check --precision 0
expect_exit 2 'precision' "$brun" --installed --no-check --precision 5x
expect_exit 2 'not for --a' "$brun" --installed --no-check --precision 5 \
    --a '' --b ''

# --timeout: seconds from 1 to 86400 (with --classic:
# scripts-run-timeout.sh).
expect_exit 2 "--timeout: '0' is not" "$brun" --installed --no-check \
    --timeout 0
expect_exit 2 "--timeout: '1e3' is not" "$brun" --installed --no-check \
    --timeout 1e3

# The memory sweeps: each point served in a burst of 3 visits, its
# record of 3 rounds and marked so (suite.burst); the points the summary
# takes (L1, L2 where the machine states one, main and rand mem) served
# apart (--role), 5 visits at least, in place of the sweeps' own.
run "$brun" --installed --quick --only memlat --budget 8 --no-check \
    --results "$tmp/res-ml"
[ "$rc" -eq 0 ] || fail "benchmp-run --only memlat: exit $rc: $(tail -n 3 "$tmp/err")"
least "$tmp/res-ml"
set -- "$tmp"/res-ml/*/*.jsonl
[ -f "$1" ] && jq -e -s --argjson l "$l" 'length >= 4 and
    all(.tool == "lat_mem_rd") and
    ([.[] | select(.suite.role)] | length >= 3 and length <= 4 and
    all(.processes >= $l and .measured.role != null and
    (.suite | has("burst") | not))) and
    all(.[] | select(.suite.role == null); .processes == 3 and
    .suite.burst == true and .suite.curve == true) and
    (map([.case, .params]) | unique | length) == length' "$1" >/dev/null ||
	fail "the sweeps' points: $(jq -c '[.tool, .processes, .suite.role]' "$1" | head -n 5)"
for role in 'L1' 'main mem' 'rand mem'; do
	grep -Eq "^  lat_mem_rd .*\\[$role " "$tmp/out" ||
		fail "no $role row: $(cat "$tmp/out")"
done

# bw_mem's modes at the memory size served as one group, one line of
# the plan, and stream's four kernels as another: each mode's record
# taken in once, as its own run's, with its visits.
run "$brun" --installed --quick --only memory --budget 10 --no-check \
    --results "$tmp/res-mem"
[ "$rc" -eq 0 ] ||
	fail "benchmp-run --only memory: exit $rc: $(tail -n 3 "$tmp/err")"
least "$tmp/res-mem"
set -- "$tmp"/res-mem/*/*.visits.json
modes='rd wr cp frd fwr fcp bzero'
[ -f "$1" ] && jq -e --arg m "$modes" '[.plan[] |
    select(test("(^|/)bw_mem --json +[0-9]+[km] " + $m + "$"))] |
    length == 1' "$1" >/dev/null && jq -e '[.plan[] |
    select(test("(^|/)stream --json +$"))] | length == 1' "$1" >/dev/null ||
	fail "no group line: $(jq -c .plan "$1")"
set -- "$tmp"/res-mem/*/*.jsonl
[ -f "$1" ] && jq -e -s --argjson l "$l" '
    [.[] | select(.tool == "bw_mem")] | (map(.params.size) | max) as $m |
    [.[] | select(.params.size == $m)] |
    (map(.case) | sort) == ["bzero", "cp", "fcp", "frd", "fwr", "rd", "wr"]
    and all(.processes >= $l and .suite.group == "memory")' "$1" \
    >/dev/null && jq -e -s --argjson l "$l" '[.[] | select(.tool ==
    "stream")] | length == 8 and all(.processes >= $l)' "$1" >/dev/null ||
	fail "the group's records: $(jq -c '[.tool, .case, .processes]' "$1")"

# par_mem's largest size, "mem par", served apart (--role=top) in place
# of its sweep's own point: one record of that size, a served figure
# (--timeout passed to benchmp-sched, which would refuse a bad one).
run "$brun" --installed --quick --only basic --budget 8 --no-check \
    --timeout 300 --results "$tmp/res-b"
[ "$rc" -eq 0 ] || fail "benchmp-run --only basic: exit $rc: $(tail -n 3 "$tmp/err")"
set -- "$tmp"/res-b/*/*.jsonl
[ -f "$1" ] && jq -e -s '[.[] | select(.tool == "par_mem")] |
    (map(.params.size) | max) as $top |
    [.[] | select(.params.size == $top)] | length == 1 and
    .[0].suite.role == "mem par" and .[0].measured.role == "top" and
    (.[0].served == true or .[0].value == 1) and
    (.[0].suite | has("burst") | not)' \
    "$1" >/dev/null ||
	fail "par_mem's largest size: $(jq -c 'select(.tool == "par_mem") | [.params.size, .served, .suite.role]' "$1")"
grep -Eq '^  par_mem .*\[mem par ' "$tmp/out" ||
	fail "no mem par row: $(cat "$tmp/out")"

# The processor group: every figure served, each visited at least five
# times (its rounds), the run's share measuring above the summary.
run "$brun" --installed --quick --only processor --budget 8 --no-check \
    --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run: exit $rc: $(tail -n 3 "$tmp/err")"
grep -Eq '^benchmp-run: 14 lines as one experiment \(benchmp-sched\)' \
    "$tmp/err" || fail "not one experiment: $(head -n 5 "$tmp/err")"
grep -Eq '^measuring: [0-9.]+ s of [0-9.]+ s \([0-9]+%\), [0-9]+ visits of [0-9]+ figures in [0-9.]+ s$' \
    "$tmp/out" || fail "no share measuring: $(head -n 2 "$tmp/out")"
set -- "$tmp"/res/*/*.visits.json
[ -f "$1" ] && jq -e '(.plan | length) == 14 and .visits > 0 and
    all(.figures[]; .line >= 1 and .line <= 14)' "$1" >/dev/null ||
	fail "where the time went: $(head -c 300 "$1")"
least "$tmp/res"
set -- "$tmp"/res/*/*.jsonl
[ -f "$1" ] || fail "no results file"
[ "$(jq -s 'length' "$1")" -ge 14 ] || fail "fewer than 14 records in $1"
jq -e -s --argjson l "$l" 'all(.processes >= $l and
    (.process_values | length) == .processes and .suite.group == "processor" and
    (.suite | has("burst") | not))' "$1" >/dev/null ||
	fail "a figure with fewer than $l visits: $(jq -c '[.tool, .case, .processes]' "$1")"
for c in null read write stat fstat open; do
	grep -Eq "^  lat_syscall $c +[0-9.]+ us " "$tmp/out" ||
		fail "no lat_syscall $c row: $(cat "$tmp/out")"
done
# The records of the runs are taken in together after the visits: a tool
# that fails is named with its status and its message, one whose record
# was cut off (not JSON) is named so, and the run exits 1; every other
# run's records are kept, each run its own batch, in the plan's order, a
# file named by its size, never its path.  (benchmp-sched runs a tool from
# beside itself first: a copy of it goes beside the failing tools, the
# program itself rather than libtool's wrapper script.)
mkdir "$tmp/failbin" || fail "cannot make $tmp/failbin"
olib=${LD_LIBRARY_PATH-}
if [ -f "$bin/.libs/benchmp-sched" ]; then
	cp "$bin/.libs/benchmp-sched" "$tmp/failbin/" ||
		fail "cannot copy benchmp-sched"
	LD_LIBRARY_PATH=$top_builddir/lib/.libs${olib:+:$olib}
	export LD_LIBRARY_PATH
else
	cp "$bin/benchmp-sched" "$tmp/failbin/" ||
		fail "cannot copy benchmp-sched"
fi
cat >"$tmp/failbin/bw_pipe" <<'EOS' || fail "cannot write a failing bw_pipe"
#!/bin/sh
echo "bw_pipe: cannot make a pipe: a broken build" >&2
exit 1
EOS
cat >"$tmp/failbin/bw_unix" <<'EOS' || fail "cannot write a cut bw_unix"
#!/bin/sh
printf '{"tool":"bw_unix","case":"unix","val\n'
EOS
chmod +x "$tmp/failbin/bw_pipe" "$tmp/failbin/bw_unix" ||
	fail "cannot make the failing tools executable"
opath=$PATH
PATH=$tmp/failbin:$PATH
run "$brun" --installed --quick --only bandwidth --budget 8 --no-check \
    --results "$tmp/res-bw"
PATH=$opath
LD_LIBRARY_PATH=$olib
[ "$rc" -eq 1 ] && grep -q '^  bw_pipe: exit 1: bw_pipe: cannot make a pipe: a broken build$' \
    "$tmp/err" && grep -q '^  bw_unix: records that are not JSON$' "$tmp/err" ||
	fail "tools that fail: exit $rc: $(tail -n 4 "$tmp/err")"
set -- "$tmp"/res-bw/*/*.jsonl
[ -f "$1" ] && jq -e -s '(map(.tool) | unique ==
    ["bw_file_rd", "bw_mem", "bw_mmap_rd", "bw_tcp"]) and
    (map(.suite.batch) | . == sort) and
    ([.[] | select(.tool == "bw_file_rd" or .tool == "bw_mmap_rd") |
      .suite.figure | test(" 8m [a-z_]+ \\(8 MB file\\)$")] | all) and
    all(.[]; .suite.group == "bandwidth" and
      (.suite.figure | contains("benchmp-run.") | not))' "$1" >/dev/null ||
	fail "the records beside a tool that failed: $(jq -c '[.suite.figure, .suite.batch]' "$1")"
[ "$(jq -s 'map(.suite.batch) | unique | length' "$1")" -eq \
    "$(jq -s 'map(.tool) | unique | length' "$1")" ] ||
	fail "a batch a run: $(jq -c '[.tool, .suite.batch]' "$1")"

# lat_ops and par_ops: an operation a line (par_ops's one chain a part),
# each record under the name the whole run gives it.
run "$brun" --installed --quick --only ops --budget 8 --no-check \
    --results "$tmp/res-ops"
[ "$rc" -eq 0 ] || fail "benchmp-run --only ops: exit $rc: $(tail -n 3 "$tmp/err")"
set -- "$tmp"/res-ops/*/*.visits.json
if [ "$(nproc)" -ge 2 ]; then
	jq -e '(.plan | length) == 34 and
	    ([.plan[] | select(test("^visit=5 .*lat_ops --json +[a-z0-9]+-[a-z]+$"))] |
	    length == 18) and
	    ([.plan[] | select(test("^figures=2 parts=1 visit=10 .*par_ops --json +[a-z0-9]+-[a-z]+$"))] |
	    length == 16)' "$1" >/dev/null ||
		fail "an operation a line: $(jq -c '.plan' "$1")"
else
	jq -e '(.plan | length) == 2' "$1" >/dev/null ||
		fail "lat_ops and par_ops on one CPU: $(jq -c '.plan' "$1")"
fi
set -- "$tmp"/res-ops/*/*.jsonl
[ -f "$1" ] && jq -e -s 'length == 34 and
    (map(.suite.figure) | unique | length) == 34 and
    ([.[] | select(.tool == "par_ops")] | length == 16 and
    all(.suite.figure | test("^par_ops \\[[a-z0-9]+ [a-z]+\\]$"))) and
    (map(.suite.batch) | unique | length) == 2' "$1" >/dev/null ||
	fail "the operations' records: $(jq -c '[.suite.figure, .suite.batch]' "$1" | head -n 5)"

# A run whose figures the tool can measure one by one is served in one
# process a figure (lat_ctx's rings one by one, each after its overhead),
# so that each figure's visits spread over the whole run; its records are
# taken in as one run's, under the names the whole run gives them.
run "$brun" --installed --quick --only context --budget 6 --no-check \
    --results "$tmp/res-cs"
run_ok_or_unmeasurable ||
	fail "benchmp-run --only context: exit $rc: $(tail -n 3 "$tmp/err")"
ctx_rc=$rc
# (With one CPU a run is served whole: two lines.)
set -- "$tmp"/res-cs/*/*.visits.json
if [ "$(nproc)" -ge 2 ]; then
	jq -e '(.plan | length) == 5 and all(.plan[];
	    test("^figures=2 parts=1 .*lat_ctx --json +-s (0|64) [0-9]+$"))' \
	    "$1" >/dev/null || fail "lat_ctx's rings apart: $(jq -c '.plan' "$1")"
else
	jq -e '(.plan | length) == 2' "$1" >/dev/null ||
		fail "lat_ctx on one CPU: $(jq -c '.plan' "$1")"
fi
least "$tmp/res-cs"
set -- "$tmp"/res-cs/*/*.jsonl
# (A ring not measurable has no record; the others keep theirs.)
[ -f "$1" ] && jq -e -s --argjson l "$l" --argjson whole "$((ctx_rc == 0))" \
    '["lat_ctx -s 0 2 8 16 [2 procs]", "lat_ctx -s 0 2 8 16 [8 procs]",
    "lat_ctx -s 0 2 8 16 [16 procs]", "lat_ctx -s 64 2 8 [2 procs]",
    "lat_ctx -s 64 2 8 [8 procs]"] as $all |
    (if $whole == 1 then map(.suite.figure) == $all and
        (map(.suite.batch) | unique | length) == 2
     else length >= 1 and (map(.suite.figure) - $all) == [] end) and
    all(.[]; .processes >= $l)' "$1" >/dev/null ||
	fail "lat_ctx's records: $(jq -c '[.suite.figure, .processes, .suite.batch]' "$1")"
[ "$ctx_rc" -ne 0 ] ||
    grep -Eq '^  lat_ctx -s 64 2 8 \[8 procs\] +[0-9.]+ us ' "$tmp/out" ||
	fail "no lat_ctx -s 64 row: $(cat "$tmp/out")"

# --classic runs the passes of fresh processes as before.
run "$brun" --installed --quick --only processor --budget 8 --no-check \
    --classic --results "$tmp/res-c"
[ "$rc" -eq 0 ] && grep -q '(pass 3 of 3)' "$tmp/err" &&
    ! grep -q 'benchmp-sched' "$tmp/err" ||
	fail "--classic: exit $rc: $(tail -n 3 "$tmp/err")"

# The suite's A/B through benchmp-sched: a line a figure with a verdict
# (any: the machine decides), the counts, the verdicts kept; 0, 1 or 3.
# On a loaded machine lat_sig's parts, timed apart, can come out as dear
# as the whole in one arm: that line is then undecided, its arm named.
run "$brun" --installed --quick --only processor --a '' --b 'env' \
    --budget 10 --no-check --results "$tmp/res-ab"
nofig='lat_sig: the parts measured apart .* took as long as the whole .*: no figure$'
case $rc in
0 | 1 | 3) ;;
*) fail "benchmp-run --a --b: exit $rc: $(tail -n 3 "$tmp/err")" ;;
esac
if grep -Eq -- "$nofig" "$tmp/err"; then
	echo "$me: the A/B: $(grep -E -- "$nofig" "$tmp/err" | head -n 1)" >&2
	grep -Eq "^lat_sig .* undecided \(arm [AB]'s tool gave no figure\)\$" \
	    "$tmp/out" || fail "lat_sig without a figure: $(cat "$tmp/out")"
fi
grep -Eq '^lat_syscall null .* (worse|better|same|undecided( \(about [0-9]+ s more\))?)$' "$tmp/out" &&
    grep -Eq '^[0-9]+ worse, [0-9]+ better, [0-9]+ same, [0-9]+ undecided(; about [0-9]+ s more would decide the slowest of them)?$' \
    "$tmp/out" || fail "benchmp-run --a --b printed: $(head -c 600 "$tmp/out")"
set -- "$tmp"/res-ab/*/*.ab.json
[ -f "$1" ] && jq -e -s 'length >= 14 and all(.pairs >= 5) and
    all(.clusters >= 1 and .clusters <= .pairs)' "$1" \
    >/dev/null || fail "the A/B's verdicts: $(head -c 400 "$1")"
# Where its time went, as a suite's: both arms' figures, the plan's lines.
set -- "$tmp"/res-ab/*/*.visits.json
[ -f "$1" ] && jq -e '(.plan | length) as $n | $n >= 1 and
    ([.figures[].arm] | unique) == ["A", "B"] and
    all(.figures[]; .line >= 1 and .line <= $n)' \
    "$1" >/dev/null || fail "the A/B's visits: $(head -c 400 "$1")"

# A line of several figures that the tool can measure one by one is one
# line a figure in the A/B (each then started afresh from time to time):
# lat_ctx's rings one by one, each after its overhead (a part, paired a
# few times and not judged).
run "$brun" --installed --quick --only context --a '' --b 'env' \
    --budget 6 --no-check --results "$tmp/res-ctx"
case $rc in
0 | 1 | 3) ;;
*) fail "benchmp-run --only context --a --b: exit $rc: $(tail -n 3 "$tmp/err")" ;;
esac
set -- "$tmp"/res-ctx/*/*.ab.json
[ -f "$1" ] && jq -e -s '(map(.figure) | unique ==
    ["lat_ctx -s 0 16", "lat_ctx -s 0 2", "lat_ctx -s 0 8",
     "lat_ctx -s 64 2", "lat_ctx -s 64 8"]) and all(.[]; .seq <= 2) and
    all(.[]; .part == (.seq == 1))' "$1" \
    >/dev/null 2>&1 ||
	fail "lat_ctx's rings in the A/B: $(jq -c '[.figure, .seq]' "$1" | head -c 400)"

# SIGTERM to the suite's A/B ends it within seconds, benchmp-sched and
# every tool with it, and keeps what it had decided; the tools' private
# directories (lat_select's) and the script's own go with them.  So does
# SIGHUP (its terminal closed), with its own status, unless this test runs
# with SIGHUP ignored (under nohup): a shell cannot trap a signal ignored
# when it started, and the run rightly goes on.
hup=HUP
case $(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null) in
*[13579bdfBDF])
	echo "$me: SIGHUP is ignored here (nohup): its check is not run" >&2
	hup= ;;
esac
for sig in TERM $hup; do
	case $sig in
	TERM) want=143 ;;
	HUP) want=129 ;;
	esac
	mkdir "$tmp/sigtmp$sig" || fail "cannot make $tmp/sigtmp$sig"
	TMPDIR=$tmp/sigtmp$sig "$brun" --installed --quick --only processor \
	    --a '' --b 'env' --budget 600 --no-check \
	    --results "$tmp/res-sig$sig" >"$tmp/sig.out" 2>"$tmp/sig.err" &
	pid=$!
	n=0
	while ! grep -q 'decided' "$tmp/sig.err" 2>/dev/null &&
	    [ "$n" -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	# On a loaded machine the run may still calibrate after 60 s: the
	# signal then ends it before anything was decided, rightly with no
	# verdicts.
	decided=0
	! grep -q 'decided' "$tmp/sig.err" 2>/dev/null || decided=1
	kill -s "$sig" "$pid"
	wait_gone "$pid" 30
	if [ "$rc" -eq 137 ]; then
		fail "SIG$sig: benchmp-run --a --b still runs after 30 s"
		# Its benchmp-sched would otherwise be taken for the next run's.
		for p in $(tagged benchmp-sched); do
			kill -s TERM "$p" 2>/dev/null
		done
	fi
	[ "$rc" -eq "$want" ] ||
		fail "SIG$sig: exit $rc, expected $want: $(tail -n 2 "$tmp/sig.err")"
	if [ "$decided" = 1 ]; then
		grep -Eq '^[0-9]+ worse, [0-9]+ better, [0-9]+ same, [0-9]+ undecided(; about [0-9]+ s more would decide the slowest of them)?$' \
		    "$tmp/sig.out" ||
			fail "SIG$sig: no verdicts kept: $(head -c 300 "$tmp/sig.out")"
	else
		echo "$me: SIG$sig: nothing was decided within 60 s (a loaded machine): the verdicts kept are not checked" >&2
	fi
	# This run's processes alone: other tests run the same tools meanwhile.
	left=$(left_running 'benchmp-sched|benchmp-ab|lat_')
	[ -z "$left" ] || fail "SIG$sig: left running: $left"
	left=$(ls -A "$tmp/sigtmp$sig")
	[ -z "$left" ] || fail "SIG$sig: left in TMPDIR: $left"
done

# A signal to the suite's benchmp-sched alone (the run's own script does
# not get it): the run ends with its status, keeps no records and leaves
# nothing in TMPDIR or the results.
mkdir "$tmp/schedtmp" || fail "cannot make $tmp/schedtmp"
TMPDIR=$tmp/schedtmp "$brun" --installed --quick --only processor \
    --budget 60 --no-check --results "$tmp/res-sched" \
    >"$tmp/sched.out" 2>"$tmp/sched.err" &
pid=$!
n=0
while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 1200 ]; do
	spid=$(tagged benchmp-sched | head -n 1)
	[ -z "$spid" ] || break
	sleep 0.1
	n=$((n + 1))
done
if [ -n "$spid" ]; then
	kill -s TERM "$spid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 143 ] ||
		fail "benchmp-sched's SIGTERM: exit $rc, expected 143: $(tail -n 2 "$tmp/sched.err")"
	grep -q 'benchmp-sched ended by signal 15: no records kept' \
	    "$tmp/sched.err" ||
		fail "benchmp-sched's SIGTERM, unsaid: $(tail -n 2 "$tmp/sched.err")"
	left=$(find "$tmp/res-sched" -name '*.jsonl' -o -name '*.visits.json' \
	    -o -name '*.machine.json' -o -name '*.html' 2>/dev/null)
	[ -z "$left" ] || fail "benchmp-sched's SIGTERM: results kept: $left"
	left=$(ls -A "$tmp/schedtmp")
	[ -z "$left" ] || fail "benchmp-sched's SIGTERM: left in TMPDIR: $left"
else
	kill -s TERM "$pid" 2>/dev/null
	wait "$pid"
	fail "benchmp-run --only processor: no benchmp-sched seen: $(tail -n 2 "$tmp/sched.err")"
fi
finish
