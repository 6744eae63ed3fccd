#!/bin/sh
# scripts-run.sh: benchmp-run and benchmp-scaling on the built tools.
. "$top_srcdir/tests/lib.sh"
# The passes give each figure its rounds: the defaults are checked.
unset BENCHMP_PROCESSES

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
scal=$top_srcdir/scripts/benchmp-scaling
# The tools as if installed: the build's bin/ first on PATH.
PATH=$(cd "$bin" && pwd):$PATH
export PATH

# (A budget no loaded machine reaches: the rounds are what is checked.)
# The passes of fresh processes (--classic); the visits of benchmp-sched
# are scripts-run-visits.sh's.
run "$brun" --installed --quick --only latency --budget 3600 --classic \
    --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run: exit $rc: $(tail -n 3 "$tmp/err")"
grep -q '^Local communication latencies$' "$tmp/out" || fail "no group title"
for t in lat_pipe lat_unix lat_fifo lat_sem lat_fcntl lat_udp lat_tcp \
    lat_connect lat_unix_connect; do
	# --placement=both: a row for each placement.
	for p in cross same; do
		grep -Eq "^  $t \\($p\\) +[0-9.]+ us " "$tmp/out" ||
			fail "no $t ($p) row: $(cat "$tmp/out")"
	done
done
# Three passes of the nine figures, two rounds of fresh processes each.
grep -Eq '^\[27/27\] lat_unix_connect --placement=both \(pass 3 of 3\): [0-9]+ s left$' \
    "$tmp/err" || fail "no progress on stderr: $(tail -n 2 "$tmp/err")"
set -- "$tmp"/res/*/*.jsonl
[ -f "$1" ] || fail "no results file"
[ "$(jq -s 'length' "$1")" -eq 18 ] || fail "not 18 records in $1"
# Each figure's passes merged into one record: its statistics are
# benchmp-stats' over the rounds of the three passes (the values listed a
# round after another), its value their best round (its robust figure).
jq -e -s 'all(.suite.passes == 3 and .processes == 6 and
    (.process_values | length) == 6 and .samples == (.values | length) and
    .value == .robust.value)' "$1" >/dev/null ||
	fail "passes not merged: $(jq -c '[.suite, .processes, .samples]' "$1" | head -n 2)"
# The merged record's robust figure is over all six rounds: the best
# round's median (no pass alone, of two rounds, has one).
jq -e -s 'all(.robust.stat == "best process" and
    .robust.value == (.process_values | min) and
    .robust.ci_lo <= .robust.value and .robust.value <= .robust.ci_hi)' \
    "$1" >/dev/null ||
	fail "no robust figure over the passes: $(jq -c '[.suite.figure, .robust]' "$1" | head -n 2)"
jq -r 'select(.suite.figure == "lat_pipe (same)") | (.samples / .processes)
    as $per | .values | to_entries[] | "\(.key / $per | floor) \(.value)"' \
    "$1" >"$tmp/pipe-values"
"$bin/benchmp-stats" --better=lower <"$tmp/pipe-values" >"$tmp/pipe-stats" ||
	fail "benchmp-stats on a merged record's values: $(cat "$tmp/pipe-stats")"
jq -e -s --slurpfile s "$tmp/pipe-stats" '.[] |
    select(.suite.figure == "lat_pipe (same)") | . as $r |
    all(("value", "median", "ci_lo", "ci_hi", "ci_level", "noisy",
    "bimodal", "process_values", "process_samples", "within",
    "median_ci_lo", "median_ci_hi"); $r[.] == $s[0][.])' \
    "$1" >/dev/null ||
	fail "a merged record is not benchmp-stats over its rounds"
jq -e -s 'all(.calibration.from_env.enough == true)' "$1" >/dev/null ||
	fail "the tools did not get the exported calibration"
# The summary printed again from the file is the run's table.
jq -e -s 'all(.suite.group == "latency" and (.suite.figure | length) > 0)' \
    "$1" >/dev/null || fail "records without their group and figure"
# (Below the machine check's line, which heads benchmp-run's table.)
"$top_srcdir/scripts/benchmp-summary" "$1" >"$tmp/again" 2>"$tmp/err" &&
    sed '/^measuring: /d; 1{/^machine check: /d;}' "$tmp/out" |
    cmp -s - "$tmp/again" ||
	fail "benchmp-summary differs from benchmp-run's table: $(diff "$tmp/out" "$tmp/again" | head -n 5) $(cat "$tmp/err")"
# The report beside the records: one HTML file naming every figure.
set -- "$tmp"/res/*/*.html
[ -s "$1" ] || fail "no HTML report beside the records"
jq -r '.suite.figure' "$tmp"/res/*/*.jsonl | while IFS= read -r f; do
	grep -qF "$f" "$1" || echo "$f"
done >"$tmp/missing"
[ ! -s "$tmp/missing" ] ||
	fail "figures not in the report: $(head -n 3 "$tmp/missing")"
set -- "$tmp"/res/*/*.machine.json
jq -e '.cpus >= 1 and (.kernel | length) > 0 and .caches.last_level > 0' \
    "$1" >/dev/null || fail "machine description: $(cat "$1")"
# What shapes figures beside the hardware: the CPUs this process may use
# (as the test runs it) and their count, the load at the start, the
# governor where sysfs shows one; installed tools say nothing of their
# build.
aff=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)
if [ -n "$aff" ]; then
	jq -e --arg a "$aff" --argjson n "$(nproc)" '.affinity == $a and
	    .cpus_usable == $n and (.load_start | length) == 3 and
	    .build == null and has("governor")' "$1" >/dev/null ||
		fail "machine description: affinity $aff, $(nproc) CPUs: $(jq -c 'del(.check)' "$1")"
fi
# The machine check (benchmp-check) in the description, its warnings
# named on the table's first line.
head -n 1 "$tmp/out" >"$tmp/head"
jq -r '.check | "machine check: \(.warnings) warning" +
    (if .warnings == 1 then "" else "s" end) + ([.checks[] |
    select(.status == "warn") | .name] | if length > 0 then ": " +
    join(", ") else "" end)' "$1" 2>/dev/null | cmp -s - "$tmp/head" &&
    jq -e '.check.checks | length > 10' "$1" >/dev/null ||
	fail "machine check: '$(cat "$tmp/head")', $(jq -c .check "$1")"
# A machine check that fails is a warning: the run goes on without it.
mkdir "$tmp/broken" && cp "$brun" "$tmp/broken/benchmp-run" &&
    cp "$top_srcdir/scripts/benchmp-lib.sh" "$tmp/broken/" &&
    printf '#!/bin/sh\necho "benchmp-check: broken" >&2\nexit 1\n' \
    >"$tmp/broken/benchmp-check" &&
    chmod +x "$tmp/broken/benchmp-run" "$tmp/broken/benchmp-check" || exit 99
run "$tmp/broken/benchmp-run" --installed --quick --only ops --passes 1 \
    --results "$tmp/res-broken"
[ "$rc" -eq 0 ] &&
    grep -q '^benchmp-run: warning: the machine check failed: benchmp-check: broken$' \
    "$tmp/err" && ! grep -q '^machine check' "$tmp/out" &&
    jq -e 'has("check") | not' "$tmp"/res-broken/*/*.machine.json >/dev/null ||
	fail "a failed machine check: exit $rc: $(head -n 3 "$tmp/err")"

# Under a one-CPU affinity mask (taskset -c 0) the --placement=both
# figures can only be "same" and keep their "(same)" label, so that
# benchmp-compare pairs them with a run on more CPUs; the machine file
# says which CPUs were usable, and compare says so first.
if ! command -v taskset >/dev/null 2>&1; then
	echo "$me: taskset not found: the one-CPU run is skipped" >&2
elif ! taskset -c 0 true 2>/dev/null; then
	echo "$me: CPU 0 not usable here: the one-CPU run is skipped" >&2
else
	run taskset -c 0 "$brun" --installed --quick --only latency --passes 1 \
	    --no-check --budget 3600 --results "$tmp/res1"
	[ "$rc" -eq 0 ] || fail "taskset -c 0: exit $rc: $(tail -n 3 "$tmp/err")"
	[ "$(grep -c '^  lat_[a-z_]* (same) ' "$tmp/out")" -eq 9 ] ||
		fail "taskset -c 0: not nine (same) rows: $(cat "$tmp/out")"
	set -- "$tmp"/res1/*/*.machine.json
	jq -e '.affinity == "0" and .cpus_usable == 1' "$1" >/dev/null ||
		fail "taskset -c 0: machine: $(jq -c 'del(.check)' "$1")"
	set -- "$tmp"/res/*/*.jsonl "$tmp"/res1/*/*.jsonl
	run "$top_srcdir/scripts/benchmp-compare" "$1" "$2"
	{ [ "$rc" -le 1 ] || [ "$rc" -eq 3 ]; } &&
	    sed '/^figure /q' "$tmp/out" | grep -q '^  affinity: .* | 0$' ||
		fail "compare with taskset -c 0: exit $rc: $(head -n 5 "$tmp/out")"
	[ "$(grep ' same (us) ' "$tmp/out" | grep -vc ' only in [AB]$')" -eq 9 ] ||
		fail "compare with taskset -c 0: the same figures not paired: $(cat "$tmp/out")"
fi

# lmbench's Basic system parameters (--only basic) and Memory latencies
# (--only memlat), one pass each on --quick sizes: the sweeps' points the
# summary shows carry their role in the label and record, the others are
# marked "curve", left out of the table and counted under it, and every
# figure is in the report.  No figure names a temporary path.
# (The caches as benchmp-run reads them.)
l1=$(getconf LEVEL1_DCACHE_SIZE 2>/dev/null)
case $l1 in '' | 0 | *[!0-9]*) l1=32768 ;; esac
l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null)
for g in basic memlat; do
	run "$brun" --installed --quick --only $g --passes 1 --no-check \
	    --budget 3600 --results "$tmp/res-$g"
	cp "$tmp/err" "$tmp/err-$g"
	[ "$rc" -eq 0 ] || fail "--only $g: exit $rc: $(tail -n 3 "$tmp/err")"
	set -- "$tmp/res-$g"/*/*.jsonl
	[ -f "$1" ] || { fail "--only $g: no results file"; continue; }
	jq -e -s --arg g "$g" 'length > 0 and all(.suite.group == $g and
	    (.suite.figure | length) > 0 and (.suite.figure | test("/") | not))' \
	    "$1" >/dev/null || fail "--only $g: records outside the group or named by a path"
	# --no-check: no machine check, in the table or the description.
	! grep -q '^machine check' "$tmp/out" &&
	    jq -e 'has("check") | not' "$tmp/res-$g"/*/*.machine.json >/dev/null ||
		fail "--only $g --no-check: a machine check"
	# (A figure with no answer, line's curves with no knee under load,
	# has no record: the run's line that says so is its own, and so is
	# the blank line before it, at the end.)
	"$top_srcdir/scripts/benchmp-summary" "$1" >"$tmp/again" 2>&1 &&
	    sed -e '/^measuring: /d' -e '/^Budget .* (no answer)$/d' \
	    "$tmp/out" | awk 'NF { for (; b > 0; b--) print ""; print; next }
	    { b++ }' | cmp -s - "$tmp/again" ||
		fail "--only $g: benchmp-summary differs from the run's table: $(diff "$tmp/out" "$tmp/again" | head -n 5)"
	ncurve=$(jq -s 'map(select(.suite.curve == true)) | length' "$1")
	[ "$ncurve" -gt 0 ] &&
	    grep -q "^$ncurve more points of the size sweeps" "$tmp/out" ||
		fail "--only $g: $ncurve curve points not counted: $(tail -n 2 "$tmp/out")"
	# A curve point has no row; a role is a row.
	jq -r 'select(.suite.curve == true) | .suite.figure' "$1" |
	while IFS= read -r f; do
		! grep -qF "  $f " "$tmp/out" || echo "$f"
	done >"$tmp/curve-rows"
	[ ! -s "$tmp/curve-rows" ] ||
		fail "--only $g: curve points in the table: $(head -n 2 "$tmp/curve-rows")"
	set -- "$tmp/res-$g"/*/*.html
	jq -r '.suite.figure' "$tmp/res-$g"/*/*.jsonl | while IFS= read -r f; do
		grep -qF "$f" "$1" || echo "$f"
	done >"$tmp/missing"
	[ ! -s "$tmp/missing" ] ||
		fail "--only $g: figures not in the report: $(head -n 3 "$tmp/missing")"
done
set -- "$tmp"/res-basic/*/*.jsonl
# The chases' largest size, in MB, as the run chose it (par_mem -M SIZEm).
lat=$(jq -r 'select(.tool == "par_mem") | .suite.figure |
    capture("-M (?<m>[0-9]+)m").m' "$1" | head -n 1)
"$top_srcdir/scripts/benchmp-summary" "$1" >"$tmp/basic" 2>&1
grep -q '^Basic system parameters$' "$tmp/basic" || fail "basic: no title"
for row in 'mhz' 'tlb' "line -M ${lat}m" "par_mem -M ${lat}m \\[mem par [0-9]+[km]?\\]" \
    'scal load'; do
	grep -Eq "^  $row +[0-9.]+ " "$tmp/basic" && continue
	# line's curves may show no knee: no figure, said as no answer.
	case $row in
	line*) grep -q '^benchmp-run: line -M [0-9]*m: no answer: line: the line size was not found: ' \
	    "$tmp/err-basic" && continue ;;
	esac
	fail "basic: no $row row: $(cat "$tmp/basic")"
done
# Every figure ran -P 1: lmbench's scal load is 1.
grep -Eq '^  scal load +1 procs ' "$tmp/basic" || fail "basic: scal load not 1"
jq -e -s '[.[] | select(.suite.role != null) | .suite.role] == ["mem par"]' \
    "$1" >/dev/null || fail "basic: par_mem's role is not its largest size"
set -- "$tmp"/res-memlat/*/*.jsonl
"$top_srcdir/scripts/benchmp-summary" "$1" >"$tmp/memlat" 2>&1
grep -q '^Memory latencies$' "$tmp/memlat" || fail "memlat: no title"
# The roles at the sizes the caches give (steps of 1.5 and 2 from 512).
want='"L1" "main mem" "rand mem"'
case $l2 in '' | 0 | *[!0-9]*) ;; *) want='"L1" "L2" "main mem" "rand mem"' ;; esac
[ "$(jq -s -r '[.[] | .suite.role // empty | @json] | sort | join(" ")' "$1")" = "$want" ] ||
	fail "memlat: roles $(jq -s -c '[.[] | .suite.role // empty]' "$1"), want $want"
jq -e -s --argjson l1 "$l1" '
    [.[] | select(.case == "stride") | .params.size] as $s |
    ([$s[] | select(. <= $l1 / 2)] | max) as $s1 |
    (.[] | select(.suite.role == "L1") | .params.size == $s1) and
    (.[] | select(.suite.role == "main mem") | .params.size == ($s | max)) and
    (.[] | select(.suite.role == "rand mem") | .case == "page" and
        .params.size == ($s | max))' "$1" >/dev/null ||
	fail "memlat: a role at the wrong size: $(jq -c 'select(.suite.role) | [.suite.role, .params.size]' "$1" | tr '\n' ' ')"
for row in "lat_mem_rd $lat 128 \\[L1 [0-9]+k\\]" \
    "lat_mem_rd $lat 128 \\[main mem [0-9]+[km]?\\]" \
    "lat_mem_rd -t $lat 128 \\[rand mem [0-9]+[km]?\\]"; do
	grep -Eq "^  $row +[0-9.]+ ns " "$tmp/memlat" ||
		fail "memlat: no $row row: $(cat "$tmp/memlat")"
done

# The budget is kept on a loaded machine: two busy processes of this test
# beside whatever else runs, --budget 10 for lmbench's basic parameters
# (mhz in three passes, the tlb, line and par_mem sweeps).  What is
# asserted holds under any load: a run starts only with time left, and
# once a run finds the budget spent no later run starts.  How long the
# last run started took is the machine's (a round of mhz took 34 s on a
# 2-vCPU guest with a hundred runnable processes), so no wall time is.
#
# budget_order FILE: the progress lines in FILE never start a run after
# one found the budget spent.
budget_order() {
	awk '/^\[[0-9]+\/[0-9]+\] .*: not run, the budget is spent$/ { spent = 1 }
	    /^\[[0-9]+\/[0-9]+\] .*: [0-9]+ s left$/ { if (spent) bad = 1 }
	    END { exit bad }' "$1"
}
: >"$tmp/load.pids"
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	echo "$!" >>"$tmp/load.pids"
done
run "$brun" --installed --quick --only basic --budget 10 --no-check \
    --classic --results "$tmp/res2"
while read -r pid; do
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
done <"$tmp/load.pids"
[ "$rc" -eq 0 ] || fail "--budget 10: exit $rc: $(tail -n 3 "$tmp/err")"
budget_order "$tmp/err" ||
	fail "--budget 10: a run started after the budget was spent: $(cat "$tmp/err")"
grep -q '^benchmp-run: budget 10 s (--budget) for 6 runs, ' "$tmp/err" ||
	fail "--budget 10: no budget line: $(head -n 3 "$tmp/err")"
# Every run started says the time left, or that none was left.
[ "$(grep -Ec '^\[[1-6]/6\] .*: ([0-9]+ s left|not run, the budget is spent)$' \
    "$tmp/err")" -eq 6 ] || fail "--budget 10: progress: $(grep '^\[' "$tmp/err")"
grep -q ' s of a budget of 10 s$' "$tmp/err" ||
	fail "--budget 10: no time against the budget: $(tail -n 1 "$tmp/err")"
# What was cut short says so in its records and the summary, and what was
# not run is listed: each figure of the plan is measured in full, cut
# short or not run (or, for a sweep, had no answer in its share).
set -- "$tmp"/res2/*/*.jsonl
if [ -f "$1" ]; then
	jq -r 'select(.budget_hit == true) | .tool' "$1" | sort -u >"$tmp/hit"
else
	: >"$tmp/hit"
fi
cutline=$(grep '^Budget 10 s: cut short (budget_hit): ' "$tmp/out")
while read -r t; do
	case "; ${cutline#*: cut short (budget_hit): }" in
	*"; $t"*) ;;
	*) fail "--budget 10: $t's records say budget_hit, the summary does not list it: $(cat "$tmp/out")" ;;
	esac
done <"$tmp/hit"
notrun=$(grep '^Budget 10 s: not run (no time left): ' "$tmp/out")
for t in tlb line par_mem; do
	# (-s: jq 1.6's -e answers for the last record only.)
	[ -f "$1" ] && jq -s -e --arg t "$t" 'any(.[]; .tool == $t)' "$1" \
	    >/dev/null && continue
	case "$cutline $notrun" in
	*"$t"*) ;;
	*) fail "--budget 10: $t neither measured nor listed: $(cat "$tmp/out") $(cat "$tmp/err")" ;;
	esac
done
# A sweep cut by its share says which of its points are missing.
if [ -f "$1" ]; then
	jq -e -s 'all(.[] | select(.measured.missing_from != null);
	    .budget_hit == true and .measured.points < .measured.points_planned)' \
	    "$1" >/dev/null || fail "--budget 10: a cut sweep's record: $(jq -c 'select(.measured.missing_from != null) | [.tool, .budget_hit, .measured]' "$1")"
fi

# Without --budget, the default is scaled to what is run and kept the same
# way (one pass of the two context figures).
run "$brun" --installed --quick --only context --passes 1 --no-check \
    --results "$tmp/res4"
run_ok_or_unmeasurable || fail "default budget: exit $rc: $(tail -n 3 "$tmp/err")"
b=$(sed -n 's/^benchmp-run: budget \([0-9]*\) s (default) for 2 runs, .*/\1/p' \
    "$tmp/err")
if [ -z "$b" ] || [ "$b" -lt 1 ] || [ "$b" -gt 90 ]; then
	fail "default budget: '$b': $(head -n 3 "$tmp/err")"
else
	budget_order "$tmp/err" ||
		fail "default budget of $b s: a run started after it was spent"
fi

# Two runs in the same second with one --results: the second takes the
# next free name, created exclusively, and never truncates the first's.
# The names of the coming minute are taken here first, as a run started
# at the same moment would have them.
host=$(uname -n)
mkdir -p "$tmp/res3/$host"
now=$(date -u +%s)
i=0
while [ "$i" -le 60 ]; do
	st=$(date -u -d "@$((now + i))" +%Y%m%dT%H%M%SZ)
	echo taken >"$tmp/res3/$host/$st.jsonl"
	echo taken >"$tmp/res3/$host/$st.machine.json"
	i=$((i + 1))
done
run "$brun" --installed --quick --only context --passes 1 --budget 3600 \
    --results "$tmp/res3"
run_ok_or_unmeasurable || fail "a second run: exit $rc: $(tail -n 3 "$tmp/err")"
# One pass: the plan's two runs, nothing merged.
grep -Eq '^\[2/2\] lat_ctx -s 64 2 8: [0-9]+ s left$' "$tmp/err" ||
	fail "--passes 1: progress $(tail -n 1 "$tmp/err")"
[ "$(cat "$tmp/res3/$host"/*Z.jsonl "$tmp/res3/$host"/*Z.machine.json |
    sort -u)" = taken ] || fail "a second run wrote into the first's files"
set -- "$tmp/res3/$host"/*Z-2.jsonl
# shellcheck disable=SC2012 # (names of the test's own making, no blanks)
[ -f "$1" ] && jq -e -s 'length > 0 and all(.suite.passes == null)' "$1" \
    >/dev/null ||
	fail "a second run: no records under the next name: $(ls "$tmp/res3/$host" | tail -n 2)"

# A ring of lat_ctx not measurable (a host phase can make the overhead
# measured apart dearer than a hop): a lat_ctx before the built one on
# PATH says so of its 2-process ring at 64 KB, as the tool does, and
# measures the others.  The run fails, exit 1, naming it; the other rings'
# records are kept under their own names, served (visits) and in passes
# alike.
mkdir "$tmp/nm" || fail "cannot make $tmp/nm"
cat >"$tmp/nm/lat_ctx" <<'EOF'
#!/bin/sh
case " $* " in
*" -s 64 2 "*) ;;
*) exec "$REAL_LAT_CTX" "$@" ;;
esac
# The ring of 2 dropped from the rings asked for.
n=$#
s=
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	[ "$s" = 64 ] && [ "$a" = 2 ] && continue
	[ "$a" != 64 ] || s=64
	set -- "$@" "$a"
done
echo "lat_ctx: 2 processes (cross): the switch is not measurable: a hop" \
    "took 11.49 microseconds, no more than the 12.84 of summing the 64k" \
    "working set alone" >&2
case " $* " in
*" 64 "[0-9]*) "$REAL_LAT_CTX" "$@" || exit ;;
esac
exit 1
EOF
chmod +x "$tmp/nm/lat_ctx" || fail "cannot make $tmp/nm/lat_ctx"
# (benchmp-sched starts the tools found beside it: a copy beside the shim.)
cp "$bin/benchmp-sched" "$tmp/nm/" || fail "cannot copy benchmp-sched"
REAL_LAT_CTX=$(cd "$bin" && pwd)/lat_ctx
export REAL_LAT_CTX
for how in visits passes; do
	# (Passes under a budget no loaded machine reaches: both rings run.)
	if [ "$how" = visits ]; then
		set -- --budget 6
	else
		set -- --passes 1 --budget 3600
	fi
	PATH=$tmp/nm:$PATH run "$brun" --installed --quick --only context \
	    --no-check --results "$tmp/res-nm-$how" "$@"
	[ "$rc" -eq 1 ] && grep -q '^  lat_ctx -s 64 2 8: exit 1: lat_ctx: 2 processes (cross): the switch is not measurable' \
	    "$tmp/err" ||
		fail "$how: a ring not measurable: exit $rc: $(tail -n 3 "$tmp/err")"
	# (The 8-process ring itself may be not measurable under load.)
	grep -q ': 8 processes.*: the switch is not measurable' \
	    "$tmp/err" && continue
	set -- "$tmp/res-nm-$how"/*/*.jsonl
	[ -f "$1" ] && jq -e -s 'map(.suite.figure) |
	    index("lat_ctx -s 64 2 8 [8 procs]") != null and
	    all(.[]; . != "lat_ctx -s 64 2 8 [2 procs]" and
	        . != "lat_ctx -s 64 2 8")' "$1" >/dev/null ||
		fail "$how: the measurable ring's record: $(jq -c '.suite.figure' "$1")"
done

# A full results disk (a 12 KB tmpfs in a mount namespace of its own,
# where this user may make one): the run fails, exit 1, saying so, and the
# file keeps whole records only (9 records of about 1 KB do not fit).
mkdir "$tmp/small"
can_mount=0
# shellcheck disable=SC2016 # (sh -c's script, with its arguments)
unshare -m sh -c 'mount -t tmpfs -o size=12k tmpfs "$1" && umount "$1"' \
    sh "$tmp/small" 2>/dev/null && can_mount=1
if [ "$can_mount" = 1 ]; then
	# shellcheck disable=SC2016 # (sh -c's script, with its arguments)
	unshare -m sh -c 'mount -t tmpfs -o size=12k tmpfs "$1/small" || exit 99
	    "$2" --installed --quick --only latency --results "$1/small/res" \
		>"$1/out" 2>"$1/err"
	    rc=$?
	    cp -R "$1/small/res" "$1/res4"
	    exit "$rc"' sh "$tmp" "$brun"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q '^benchmp-run: cannot write .*\.jsonl (disk full?)' "$tmp/err" ||
		fail "full disk: exit $rc: $(tail -n 2 "$tmp/err")"
	set -- "$tmp"/res4/*/*.jsonl
	if [ ! -s "$1" ]; then
		fail "full disk: no records kept"
	else
		[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
		    jq -e -s 'length > 0 and all(.tool | type == "string")' \
		    "$1" >/dev/null ||
			fail "full disk: torn records: $(tail -c 100 "$1")"
	fi
	[ -z "$(find "$tmp/res4" -name '*.part')" ] ||
		fail "full disk: a .part file left behind"
else
	echo "$me: cannot mount a small tmpfs here: the full-disk case is not run" >&2
fi

expect_exit 2 "--budget: 99999999999999999999 is out of range" "$brun" \
    --budget 99999999999999999999
expect_exit 2 "--budget: 86401 is out of range" "$brun" --budget 86401
expect_exit 2 "--budget needs a value" "$brun" --budget=
expect_exit 2 "--results needs a value" "$brun" --results=
# Help and version on a full stdout: exit 1, saying so.
if [ -w /dev/full ]; then
	for c in "$brun" "$scal"; do
		for a in --help -V; do
			"$c" "$a" >/dev/full 2>"$tmp/err"
			rc=$?
			[ "$rc" -eq 1 ] && grep -q 'writing to standard output failed' "$tmp/err" ||
				fail "${c##*/} $a >/dev/full: exit $rc: $(cat "$tmp/err")"
		done
	done
fi
expect_exit 2 "unknown group 'cpu'" "$brun" --only cpu
expect_exit 2 "--budget: 'x' is not" "$brun" --budget x
expect_exit 2 "--passes: '0' is not a number of passes from 1 to 10" \
    "$brun" --passes 0
expect_exit 2 "--passes: '11' is not" "$brun" --passes=11
expect_exit 2 "--passes needs a value" "$brun" --passes=
expect_exit 2 "--passes: one pass only under --mpi" "$brun" --mpi --passes 2
expect_exit 2 'exclude each other' "$brun" --build "$tmp" --installed
# The suite as two arms: --a and --b together, not with --mpi or --passes.
expect_exit 2 '--a and --b go together' "$brun" --a ''
expect_exit 2 '--a and --b go together' "$brun" --b '' --b ''
expect_exit 2 'not with --mpi' "$brun" --a '' --b '' --mpi
expect_exit 2 'no --passes' "$brun" --a '' --b '' --passes 2
# An A/A comparison of the ops group, a few rounds: one line a figure with
# a verdict (any: the machine decides which), the counts, the records.
run "$brun" --installed --quick --only ops --a '' --b 'env' --budget 20 \
    --classic --no-check --results "$tmp/res-ab"
# 0, 1 a figure worse, 3 one undecided: the machine decides which.
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
	fail "benchmp-run --a --b: exit $rc: $(tail -n 3 "$tmp/err")"
elif ! grep -Eq '^lat_ops .* (worse|better|same|undecided( \(about [0-9]+ s more\))?)$' "$tmp/out" ||
    ! grep -Eq '^[0-9]+ worse, [0-9]+ better, [0-9]+ same, [0-9]+ undecided(; about [0-9]+ s more would decide the slowest of them)?$' "$tmp/out"; then
	fail "benchmp-run --a --b printed: $(head -c 600 "$tmp/out")"
elif ! ls "$tmp"/res-ab/*/*.ab.jsonl >/dev/null 2>&1 ||
    ! jq -e 'select(.verdict) | .tool' "$tmp"/res-ab/*/*.ab.json >/dev/null; then
	fail "benchmp-run --a --b: no records or verdicts in $tmp/res-ab"
fi
expect_exit 2 "unknown argument '--bogus'" "$brun" --bogus

run "$scal" --max 2 --no-plot --output "$tmp/sc.jsonl" bw_mem -N 3 64k rd
[ "$rc" -eq 0 ] || fail "benchmp-scaling: exit $rc: $(cat "$tmp/err")"
[ "$(grep -Ec '^ +[12] ' "$tmp/out")" -eq 2 ] ||
	fail "not two points: $(cat "$tmp/out")"
grep -Eq '^ +1 .* 1\.00 +100% ' "$tmp/out" ||
	fail "one worker is not the baseline: $(cat "$tmp/out")"
[ "$(jq -s 'map(.parallel) == [1, 2]' "$tmp/sc.jsonl")" = true ] ||
	fail "records: $(jq -c .parallel "$tmp/sc.jsonl")"
if command -v gnuplot >/dev/null 2>&1; then
	run "$scal" --max 1 --output "$tmp/sc1.jsonl" bw_mem -N 3 64k rd
	[ "$rc" -eq 0 ] && [ -s "$tmp/sc1.png" ] && [ -s "$tmp/sc1.svg" ] ||
		fail "benchmp-scaling did not plot by default: $(cat "$tmp/err")"
fi
# benchmp-scaling on a full disk (a 4 KB tmpfs holding a 3500-byte
# record): the failed append is cut back, the file keeps what it had.
if [ "$can_mount" = 1 ]; then
	rec=$(printf '{"pad":"%3488s"}' x)
	# shellcheck disable=SC2016 # (sh -c's script, with its arguments)
	unshare -m sh -c 'mount -t tmpfs -o size=4k tmpfs "$1/small" || exit 99
	    printf "%s\n" "$3" >"$1/small/sc.jsonl"
	    "$2" --no-plot --max 2 --output "$1/small/sc.jsonl" bw_mem -N 3 \
		64k rd >"$1/out" 2>"$1/err"
	    rc=$?
	    cp "$1/small/sc.jsonl" "$1/sc-full.jsonl"
	    exit "$rc"' sh "$tmp" "$scal" "$rec"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q '^benchmp scaling: cannot write .*sc\.jsonl (disk full?)$' "$tmp/err" ||
		fail "scaling, full disk: exit $rc: $(tail -n 2 "$tmp/err")"
	[ "$(cat "$tmp/sc-full.jsonl")" = "$rec" ] ||
		fail "scaling, full disk: torn file: $(tail -c 100 "$tmp/sc-full.jsonl")"
fi
expect_exit 2 "--max: '0' is not" "$scal" --max 0 bw_mem 64k rd
expect_exit 2 "--max: 99999999999999999999 is out of range" "$scal" \
    --max 99999999999999999999 bw_mem 64k rd
for o in --max= --output= --plot=; do
	expect_exit 2 "^benchmp scaling: ${o%=} needs a value\$" "$scal" "$o" \
	    bw_mem 64k rd
done
# An output in a missing directory: one clear line, exit 1, no shell error.
expect_exit 1 '^benchmp scaling: /nonexistent/x: directory /nonexistent does not exist$' \
    "$scal" --output /nonexistent/x bw_mem 64k rd
[ "$(wc -l <"$tmp/err")" -eq 1 ] ||
	fail "--output /nonexistent/x: stderr '$(cat "$tmp/err")'"
expect_exit 1 '^benchmp scaling: /nonexistent/p: directory /nonexistent does not exist$' \
    "$scal" --no-plot --plot /nonexistent/p bw_mem 64k rd
expect_exit 2 'missing the tool' "$scal"
expect_exit 1 'no_such_tool: no such tool' "$scal" no_such_tool
no_children
finish
