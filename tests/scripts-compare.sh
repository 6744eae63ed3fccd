#!/bin/sh
# scripts-compare.sh: benchmp-compare (benchmp compare under its old name)
# holds on an A/A pair of real runs and gates only on changes beyond the
# evidence and the minimum effect.
. "$top_srcdir/tests/lib.sh"

cmp=$top_srcdir/scripts/benchmp-compare
# Two back-to-back benchmp-run of one build on one machine (see
# tests/data/README); which figures they hold does not matter below.
aa1=$top_srcdir/tests/data/aa-1.jsonl
aa2=$top_srcdir/tests/data/aa-2.jsonl
a=$top_srcdir/tests/data/run-a.jsonl
if ! have_jq; then
	echo "$me: jq not found (the test makes its records with it): skipped" >&2
	exit 77
fi

# verdict FIGURE: the verdict of the row of FIGURE in $tmp/out.
verdict() {
	awk -v f="$1" 'index($0, f " ") == 1 {
		v = $NF
		if (v == "placement")
			v = "no placement"
		else if (v == "A" || v == "B")
			v = "only in " v
		else if (v == "(curve)")
			v = $(NF - 1) " " v
		print v
	}' "$tmp/out"
}

# The A/A pair: nothing worse; the figures whose processes spread wider
# than the threshold are undecided (exit 3), and --allow-undecided makes
# that 0; every figure of A listed.
run "$cmp" "$aa1" "$aa2"
[ "$rc" -eq 3 ] || fail "A/A exited $rc, expected 3: $(cat "$tmp/err")"
grep -q '^benchmp compare: undecided: ' "$tmp/err" ||
	fail "A/A: the undecided figures not named: $(cat "$tmp/err")"
grep -q '^figure  *A  *B  *B/A  verdict$' "$tmp/out" || fail "no table header"
! grep -q ' worse$' "$tmp/out" || fail "A/A: worse: $(grep ' worse$' "$tmp/out")"
nkeys=$(jq -s 'map([.tool, .case, .params, .parallel]) | unique | length' \
    "$aa1")
[ "$(grep -cE ' (same|better|worse|undecided|changed|failed|only in A)$' \
    "$tmp/out")" -ge "$nkeys" ] ||
	fail "A/A: fewer rows than the $nkeys figures of A: $(cat "$tmp/out")"
run "$cmp" --allow-undecided "$aa1" "$aa2"
[ "$rc" -eq 0 ] || fail "A/A --allow-undecided exited $rc"
run "$cmp" --allow-undecided --strict "$aa1" "$aa2"
[ "$rc" -eq 3 ] || fail "A/A --strict after --allow-undecided exited $rc"

# Each file against itself: nothing worse, better or changed (a figure
# whose processes spread over more than the threshold stays undecided).
for f in "$aa1" "$aa2" "$a"; do
	run "$cmp" --allow-undecided "$f" "$f"
	[ "$rc" -eq 0 ] || fail "$f vs itself exited $rc"
	[ "$(grep -cE ' (better|worse|changed|failed|only in .)$' \
	    "$tmp/out")" -eq 0 ] ||
		fail "$f vs itself: not all same: $(cat "$tmp/out")"
done

# A 10% regression injected into one figure whose interval is narrow in
# both runs (half-widths under 2.5%) and whose value moved by less than 2%
# between them, so that the injected change separates the intervals: worse,
# exit 1, named on stderr.  The figure is picked by jq, whatever the
# fixtures hold.
jq -n -r --slurpfile A "$aa1" --slurpfile B "$aa2" '
    def key: [.tool, .case, (.params | tostring), .parallel] | tostring;
    def narrow: (.ci_lo | type) == "number" and (.ci_hi | type) == "number"
	and .samples >= 2 and .noisy == false and .bimodal == false and
	.median > 0 and (.ci_hi - .ci_lo) / 2 / .median < 0.025;
    ($A | map({key: key, value: .}) | from_entries) as $a |
    [$B[] | select(narrow and (.better == "lower" or .better == "higher"))
     | key as $k | select($a[$k] and ($a[$k] | narrow) and
       ((.value / $a[$k].value - 1) | fabs) < 0.02) | $k] | first // empty
    ' >"$tmp/key"
[ -s "$tmp/key" ] ||
	fail "no figure with a narrow interval in both A/A runs to inject into"
jq -c --arg k "$(cat "$tmp/key")" '
    if ([.tool, .case, (.params | tostring), .parallel] | tostring) == $k
    then (if .better == "lower" then 1.1 else 0.9 end) as $f |
	.value *= $f | .median *= $f | .ci_lo *= $f | .ci_hi *= $f |
	.process_values |= map(. * $f)
    else . end' "$aa2" >"$tmp/regressed.jsonl"
name=$(jq -r --arg k "$(cat "$tmp/key")" 'select(([.tool, .case,
    (.params | tostring), .parallel] | tostring) == $k) | "\(.tool) \(.case)"' \
    "$aa2" | head -n 1)
run "$cmp" "$aa1" "$tmp/regressed.jsonl"
[ "$rc" -eq 1 ] || fail "10% regression in $name: exit $rc, expected 1"
grep -Eq "^$name .* worse\$" "$tmp/out" ||
	fail "10% regression in $name not marked: $(cat "$tmp/out")"
grep -q "^benchmp compare: worse: $name" "$tmp/err" ||
	fail "10% regression in $name not named: $(cat "$tmp/err")"
[ "$(grep -c ' worse$' "$tmp/out")" -eq 1 ] ||
	fail "more than the injected figure worse: $(grep ' worse$' "$tmp/out")"
# Against the run it was made from, the other way round, it is better,
# and better is not gated.
run "$cmp" --allow-undecided "$tmp/regressed.jsonl" "$aa2"
[ "$rc" -eq 0 ] && grep -Eq "^$name .* better\$" "$tmp/out" ||
	fail "improvement in $name: exit $rc: $(cat "$tmp/out")"
[ "$(grep -cE ' (better|worse)$' "$tmp/out")" -eq 1 ] ||
	fail "more than the injected figure changed: $(cat "$tmp/out")"
# Under the minimum effect (a threshold of 15%) the same change is same.
run "$cmp" --allow-undecided --threshold 15 "$aa2" "$tmp/regressed.jsonl"
[ "$rc" -eq 0 ] && grep -Eq "^$name .* same\$" "$tmp/out" ||
	fail "10% under --threshold 15: exit $rc: $(cat "$tmp/out")"

# Synthetic figures from one record of run-a: each case sets the value,
# the interval and the direction fields of A and B.
# mk FILE JQ-ASSIGNMENTS...: one record per assignment.
mk() {
	out=$1
	shift
	: >"$out"
	for set in "$@"; do
		head -n 1 "$a" | jq -c "del(.better, .process_values) | $set" \
		    >>"$out" ||
			fail "mk: jq failed on $set"
	done
}
iv='.samples = 11 | .noisy = false | .bimodal = false'
# mhz 3773 -> 1000 MHz is worse: from "better" and, in an old file
# without it, from the metric clock; parallelism likewise; a size
# ("better":"none") that changed is not judged.
mk "$tmp/d1.jsonl" \
    ".tool = \"mhz\" | .case = \"clock\" | .params = {} | .metric = \"clock\" | .unit = \"MHz\" | .better = \"higher\" | .value = 3773 | .median = 3773 | .ci_lo = 3760 | .ci_hi = 3790 | $iv" \
    ".tool = \"mhz_old\" | .case = \"clock\" | .params = {} | .metric = \"clock\" | .unit = \"MHz\" | .value = 3773 | .median = 3773 | .ci_lo = 3760 | .ci_hi = 3790 | $iv" \
    ".tool = \"par_mem\" | .case = \"chase\" | .params = {size: 4096} | .metric = \"parallelism\" | .unit = \"loads\" | .value = 8 | .median = 8 | .ci_lo = 7.9 | .ci_hi = 8.1 | $iv" \
    ".tool = \"tlb\" | .case = \"tlb\" | .params = {} | .metric = \"pages\" | .unit = \"pages\" | .better = \"none\" | .value = 64 | .median = 64 | .ci_lo = 64 | .ci_hi = 64 | $iv" \
    ".tool = \"lat_x\" | .case = \"l\" | .params = {} | .metric = \"latency\" | .unit = \"us\" | .value = 1 | .median = 1 | .ci_lo = 0.99 | .ci_hi = 1.01 | $iv"
mk "$tmp/d2.jsonl" \
    ".tool = \"mhz\" | .case = \"clock\" | .params = {} | .metric = \"clock\" | .unit = \"MHz\" | .better = \"higher\" | .value = 1000 | .median = 1000 | .ci_lo = 995 | .ci_hi = 1005 | $iv" \
    ".tool = \"mhz_old\" | .case = \"clock\" | .params = {} | .metric = \"clock\" | .unit = \"MHz\" | .value = 1000 | .median = 1000 | .ci_lo = 995 | .ci_hi = 1005 | $iv" \
    ".tool = \"par_mem\" | .case = \"chase\" | .params = {size: 4096} | .metric = \"parallelism\" | .unit = \"loads\" | .value = 4 | .median = 4 | .ci_lo = 3.9 | .ci_hi = 4.1 | $iv" \
    ".tool = \"tlb\" | .case = \"tlb\" | .params = {} | .metric = \"pages\" | .unit = \"pages\" | .better = \"none\" | .value = 32 | .median = 32 | .ci_lo = 32 | .ci_hi = 32 | $iv" \
    ".tool = \"lat_x\" | .case = \"l\" | .params = {} | .metric = \"latency\" | .unit = \"us\" | .value = 0.5 | .median = 0.5 | .ci_lo = 0.49 | .ci_hi = 0.51 | $iv"
run "$cmp" "$tmp/d1.jsonl" "$tmp/d2.jsonl"
[ "$rc" -eq 1 ] || fail "mhz down: exit $rc, expected 1"
for f in "mhz clock" "mhz_old clock" "par_mem chase 4k"; do
	[ "$(verdict "$f")" = worse ] || fail "$f down is not worse: $(cat "$tmp/out")"
done
[ "$(verdict "tlb tlb")" = changed ] || fail "tlb: not 'changed': $(cat "$tmp/out")"
[ "$(verdict "lat_x l")" = better ] || fail "latency halved: $(cat "$tmp/out")"
grep -q '^benchmp compare: worse: mhz clock (MHz), mhz_old clock (MHz), par_mem chase 4k (loads)$' \
    "$tmp/err" || fail "worse figures not named: $(cat "$tmp/err")"
run "$cmp" "$tmp/d2.jsonl" "$tmp/d1.jsonl"
[ "$rc" -eq 1 ] && [ "$(verdict "mhz clock")" = better ] &&
    [ "$(verdict "lat_x l")" = worse ] ||
	fail "mhz up, latency doubled: exit $rc: $(cat "$tmp/out")"

# A sweep's point (suite.curve) that got worse is shown as such and gates
# nothing; the same figure as a summary point (a role) gates.
c='.tool = "lat_mem_rd" | .case = "page" | .params = {size: 1572864} | .metric = "latency" | .unit = "ns" | '"$iv"
mk "$tmp/c1.jsonl" "$c | .suite = {curve: true} | .value = 10 | .median = 10 | .ci_lo = 9.9 | .ci_hi = 10.1"
mk "$tmp/c2.jsonl" "$c | .suite = {curve: true} | .value = 20 | .median = 20 | .ci_lo = 19.9 | .ci_hi = 20.1"
run "$cmp" "$tmp/c1.jsonl" "$tmp/c2.jsonl"
[ "$rc" -eq 0 ] && grep -q ' worse (curve)$' "$tmp/out" &&
    ! grep -q ' worse$' "$tmp/out" ||
	fail "a curve point doubled: exit $rc: $(cat "$tmp/out" "$tmp/err")"
mk "$tmp/c2.jsonl" "$c | .suite = {role: \"L2\"} | .value = 20 | .median = 20 | .ci_lo = 19.9 | .ci_hi = 20.1"
run "$cmp" "$tmp/c1.jsonl" "$tmp/c2.jsonl"
[ "$rc" -eq 0 ] || fail "A a curve point: its change gated: exit $rc"
mk "$tmp/c1.jsonl" "$c | .suite = {role: \"L2\"} | .value = 10 | .median = 10 | .ci_lo = 9.9 | .ci_hi = 10.1"
run "$cmp" "$tmp/c1.jsonl" "$tmp/c2.jsonl"
[ "$rc" -eq 1 ] && grep -q ' worse$' "$tmp/out" ||
	fail "a role point doubled: exit $rc: $(cat "$tmp/out")"

# Bad values: null, a string, missing, 0, negative: a failure of the
# record, never a verdict (never better), shown as written; exit 4.
l='.tool = "lat_y" | .params = {} | .metric = "latency" | .unit = "us" | .median = 1 | .ci_lo = 0.99 | .ci_hi = 1.01 | '"$iv"
mk "$tmp/v1.jsonl" "$l | .case = \"null\" | .value = 1" \
    "$l | .case = \"str\" | .value = 1" "$l | .case = \"gone\" | .value = 1" \
    "$l | .case = \"zero\" | .value = 1" "$l | .case = \"neg\" | .value = 1" \
    "$l | .case = \"anull\" | .value = null"
mk "$tmp/v2.jsonl" "$l | .case = \"null\" | .value = null" \
    "$l | .case = \"str\" | .value = \"0.5\"" "$l | .case = \"gone\" | del(.value)" \
    "$l | .case = \"zero\" | .value = 0" "$l | .case = \"neg\" | .value = -1" \
    "$l | .case = \"anull\" | .value = 0.5"
run "$cmp" "$tmp/v1.jsonl" "$tmp/v2.jsonl"
[ "$rc" -eq 4 ] || fail "bad values: exit $rc: $(cat "$tmp/err")"
for c in null str gone zero neg anull; do
	[ "$(verdict "lat_y $c")" = failed ] ||
		fail "lat_y $c: not failed: $(cat "$tmp/out")"
done
grep -Eq '^lat_y str .*"0\.5" +- +failed$' "$tmp/out" ||
	fail "a string value not shown as it is: $(cat "$tmp/out")"
grep -q 'B: the value is 0' "$tmp/err" ||
	fail "why a figure failed not said: $(cat "$tmp/err")"
grep -q 'better' "$tmp/out" && fail "a bad value counted as better"

# NaN, Infinity and 1e999 are not JSON (a C printf writes them, jq reads
# them): the file is refused, naming the line, never a 309-digit number.
for v in NaN Infinity 1e999; do
	sed "s/\"value\":0.5,/\"value\":$v,/" "$tmp/v2.jsonl" >"$tmp/nan.jsonl"
	grep -q "\"value\":$v" "$tmp/nan.jsonl" || fail "no $v record made"
	expect_exit 4 'nan.jsonl: line 6: invalid JSON' "$cmp" "$tmp/v1.jsonl" \
	    "$tmp/nan.jsonl"
done

# A name's control bytes are printed escaped.
mk "$tmp/i1.jsonl" "$l | .case = \"esc\\u001b[8mhid\\u009b\" | .value = 1"
for f in "" --tsv; do
	run "$cmp" $f "$tmp/i1.jsonl" "$tmp/i1.jsonl"
	[ "$rc" -eq 0 ] || fail "escapes $f: exit $rc: $(cat "$tmp/err")"
	! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/out" ||
		fail "control bytes reach the terminal $f: $(od -c "$tmp/out" | head)"
	grep -Fq 'lat_y esc\x1b[8mhid\u009b' "$tmp/out" ||
		fail "control bytes not escaped $f: $(cat "$tmp/out")"
done

# Two real runs of one build (tests/data/README): lat-2cpu on both CPUs,
# lat-1cpu under taskset -c 0, on a loaded machine.  Their machines'
# differences come first, before any verdict: the affinity and the usable
# CPUs at least.
m2=$top_srcdir/tests/data/lat-2cpu
m1=$top_srcdir/tests/data/lat-1cpu
run "$cmp" --allow-undecided "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 0 ] || fail "2cpu/1cpu: exit $rc: $(cat "$tmp/err")"
[ "$(head -n 1 "$tmp/out")" = "machines differ (A | B):" ] ||
	fail "2cpu/1cpu: no machines first: $(head -n 3 "$tmp/out")"
sed '/^figure /q' "$tmp/out" >"$tmp/head"
grep -q '^  affinity: 0-1 | 0$' "$tmp/head" &&
    grep -q '^  cpus_usable: 2 | 1$' "$tmp/head" ||
	fail "2cpu/1cpu: affinity not above the table: $(cat "$tmp/head")"
! grep -q 'timestamp' "$tmp/head" ||
	fail "2cpu/1cpu: the time stamp is no difference: $(cat "$tmp/head")"
# A machine file given names it; one side without is said.
run "$cmp" --allow-undecided --machine-a "$m2.machine.json" "$a" "$a"
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "machine of B not known: their differences are not shown" ] ||
	fail "--machine-a alone: exit $rc: $(head -n 2 "$tmp/out")"
# The same machine: nothing printed above the table (older output).
run "$cmp" --allow-undecided --machine-a "$m2.machine.json" \
    --machine-b "$m2.machine.json" "$a" "$a"
[ "$rc" -eq 0 ] && head -n 1 "$tmp/out" | grep -q '^figure ' ||
	fail "one machine twice: exit $rc: $(head -n 2 "$tmp/out")"
# --tsv: rows only, five fields.
run "$cmp" --tsv --allow-undecided "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 0 ] && awk -F'\t' 'NF != 5 { exit 1 }' "$tmp/out" &&
    ! grep -q 'machine\|affinity' "$tmp/out" ||
	fail "--tsv 2cpu/1cpu: $(head -n 3 "$tmp/out")"
expect_exit 4 'cannot read /nonexistent' "$cmp" --machine-b /nonexistent "$a" "$a"
expect_exit 2 "needs a value: '--machine-a'" "$cmp" --machine-a
echo '[1]' >"$tmp/notmachine.json"
expect_exit 4 'not a machine description: not a JSON object' "$cmp" --machine-a \
    "$tmp/notmachine.json" "$a" "$a"

# A figure in two modes is judged by its processes as any other (the
# modes' own rules of the jq compare are gone): lat_fifo (same), one mode
# on two CPUs, 40% of the processes in the first mode and 60% in a mode
# 2.6 times slower under taskset -c 0: the rank interval of B/A spans 1,
# undecided, with how many processes would decide.
f="lat_fifo fifo 1 same (us)"
run "$cmp" "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 3 ] && [ "$(verdict "$f")" = undecided ] ||
	fail "lat_fifo same: exit $rc: $(grep -A 1 "^$f" "$tmp/out")"
grep -A 1 "^$f" "$tmp/out" | grep -Eq '^    undecided: interval of B/A .* processes would decide$' ||
	fail "lat_fifo same: no interval said: $(grep -A 1 "^$f" "$tmp/out")"

# --matched: the figures of both files only, with a count of the rest;
# the default when a file is an lmbench import, where --all lists all.
run "$cmp" --allow-undecided --matched "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 0 ] && ! grep -q ' only in [AB]$' "$tmp/out" &&
    [ "$(grep -cE ' (same|undecided)$' "$tmp/out")" -ge 1 ] &&
    grep -q '^9 figure(s) of one file only not listed (--matched; --all lists them)$' "$tmp/out" ||
	fail "--matched: exit $rc: $(cat "$tmp/out")"
imp=$top_srcdir/scripts/benchmp-import-lmbench
"$imp" "$top_srcdir/tests/data/lmbench-results.txt" >"$tmp/imp.jsonl" 2>/dev/null
[ -s "$tmp/imp.jsonl" ] || fail "the lmbench import failed"
run "$cmp" --allow-undecided "$tmp/imp.jsonl" "$m2.jsonl"
[ "$rc" -eq 0 ] && ! grep -q ' only in [AB]$' "$tmp/out" &&
    grep -q 'lat_pipe pipe 1 unpinned (us) \[unpinned at ' "$tmp/out" &&
    grep -Eq '^[0-9]+ figure\(s\) of one file only not listed' "$tmp/out" ||
	fail "an import: not matched by default: exit $rc: $(cat "$tmp/out")"
run "$cmp" --allow-undecided --all "$tmp/imp.jsonl" "$m2.jsonl"
[ "$rc" -eq 0 ] && grep -q ' only in A$' "$tmp/out" &&
    grep -q ' only in B$' "$tmp/out" ||
	fail "an import with --all: exit $rc: $(tail -n 3 "$tmp/out")"

# Figures in one file only are listed, without any option, and gate
# nothing.
head -n 2 "$a" >"$tmp/two.jsonl"
run "$cmp" --allow-undecided "$tmp/two.jsonl" "$a"
[ "$rc" -eq 0 ] && [ "$(grep -c ' only in B$' "$tmp/out")" -eq 7 ] ||
	fail "only in B: exit $rc: $(cat "$tmp/out")"
run "$cmp" --allow-undecided "$a" "$tmp/two.jsonl"
[ "$rc" -eq 0 ] && [ "$(grep -c ' only in A$' "$tmp/out")" -eq 7 ] ||
	fail "only in A: exit $rc: $(cat "$tmp/out")"

# Records without an interval or processes: the same record is same, a
# change within the threshold same, beyond it undecided.
jq -c 'del(.ci_lo, .ci_hi, .process_values)' "$a" >"$tmp/noci.jsonl"
run "$cmp" "$tmp/noci.jsonl" "$tmp/noci.jsonl"
[ "$rc" -eq 0 ] && [ "$(grep -c ' same$' "$tmp/out")" -eq 9 ] ||
	fail "no interval vs itself: exit $rc: $(cat "$tmp/out")"
jq -c 'if .case == "null" then .value *= 2 elif .case == "open" then
    .value *= 1.02 else . end' "$tmp/noci.jsonl" >"$tmp/noci2.jsonl"
run "$cmp" "$tmp/noci.jsonl" "$tmp/noci2.jsonl"
[ "$rc" -eq 3 ] && [ "$(verdict "lat_syscall null")" = undecided ] &&
    [ "$(verdict "lat_syscall open /dev/null")" = same ] &&
    grep -q 'no interval and no processes' "$tmp/out" ||
	fail "no interval, changed: exit $rc: $(cat "$tmp/out")"

# Too wide to judge: B's value half as large again, its interval from
# 0.75 to 1.8 times A's value: undecided.  A record flagged noisy whose
# value and interval moved by half is worse: the flag says the interval
# is wide for the precision asked, not that the runs overlap.
jq -c 'if .case == "null" then .value *= 1.5 | .median *= 1.5 |
    .ci_lo = .median * 0.5 | .ci_hi = .median * 1.2 elif .case == "read"
    then .value *= 1.5 | .median *= 1.5 | .ci_lo *= 1.5 | .ci_hi *= 1.5 |
    .noisy = true else . end' "$a" >"$tmp/wide.jsonl"
run "$cmp" "$a" "$tmp/wide.jsonl"
[ "$rc" -eq 1 ] && [ "$(verdict "lat_syscall null")" = undecided ] &&
    [ "$(verdict "lat_syscall read /dev/zero")" = worse ] ||
	fail "wide and noisy figures: exit $rc: $(cat "$tmp/out")"

# The last record of a figure counts; a torn last line (a full disk) is
# refused, naming the line: the file is not what its run wrote.
jq -c 'if .case == "null" then .value *= 1.5 | .median *= 1.5 |
    .ci_lo *= 1.5 | .ci_hi *= 1.5 else . end' "$a" >"$tmp/last.jsonl"
{ cat "$tmp/last.jsonl"; head -n 1 "$a"; } >"$tmp/again.jsonl"
run "$cmp" --tsv --allow-undecided "$a" "$tmp/again.jsonl"
[ "$rc" -eq 0 ] && awk -F'\t' '$2 == "lat_syscall null (us)" &&
    $3 == $4 { ok = 1 } END { exit !ok }' "$tmp/out" ||
	fail "the last record does not count: exit $rc: $(cat "$tmp/out")"
head -c 100 "$a" >>"$tmp/again.jsonl"
expect_exit 4 'again.jsonl: line 11: invalid JSON' "$cmp" "$a" \
    "$tmp/again.jsonl"

# Private temporary directories in parameters are not part of the key.
jq -c 'if .case == "read" then .params.file = "/tmp/x/benchmp-run.abc123/file"
    else . end' "$a" >"$tmp/p1.jsonl"
jq -c 'if .case == "read" then .params.file = "/var/tmp/benchmp-run.XyZ789/file"
    else . end' "$a" >"$tmp/p2.jsonl"
run "$cmp" --allow-undecided "$tmp/p1.jsonl" "$tmp/p2.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_syscall read <tmp>/file")" != "only in A" ] &&
    [ -n "$(verdict "lat_syscall read <tmp>/file")" ] ||
	fail "private directories: exit $rc: $(cat "$tmp/out")"

# Usage errors: exit 2 with a message.
expect_exit 2 'need two files' "$cmp" "$a"
expect_exit 2 "unknown option '--bogus'" "$cmp" --bogus "$a" "$a"
for t in -1 1001 abc 1e3 '' . 1.2.3; do
	expect_exit 2 "--threshold: '$t' is not a percentage" \
	    "$cmp" --threshold "$t" "$a" "$a"
done
expect_exit 2 "needs a value: '--threshold'" "$cmp" --threshold
run "$cmp" --allow-undecided --threshold=0 "$a" "$a"
[ "$rc" -eq 0 ] || fail "--threshold=0: exit $rc"
run "$cmp" --allow-undecided --threshold .5 "$a" "$a"
[ "$rc" -eq 0 ] && grep -q "(minimum change 0.5%)" "$tmp/out" ||
	fail "--threshold .5: exit $rc: $(tail -n 1 "$tmp/out")"
# Files that cannot be read or are not records: exit 4, naming them.
expect_exit 4 '/nonexistent: cannot read' "$cmp" "$a" /nonexistent
expect_exit 4 "$tmp: cannot read" "$cmp" "$a" "$tmp"
echo 'not json' >"$tmp/bad.jsonl"
expect_exit 4 'bad.jsonl: line 1: invalid JSON' "$cmp" "$a" "$tmp/bad.jsonl"
: >"$tmp/empty.jsonl"
expect_exit 4 'holds no records' "$cmp" "$a" "$tmp/empty.jsonl"
# The script alone, with no benchmp beside it or on PATH: exit 4.
mkdir "$tmp/nopath" "$tmp/alone"
cp "$cmp" "$top_srcdir/scripts/benchmp-lib.sh" "$tmp/alone/" || exit 99
expect_exit 4 'benchmp not found' env PATH="$tmp/nopath" \
    /bin/sh "$tmp/alone/benchmp-compare" "$a" "$a"
run "$cmp" --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp compare' "$tmp/out" ||
	fail "--help: exit $rc"
# Unpinned figures (lmbench's two-process figures, imported with
# params.placement "unpinned") pair with the placement their value sat at,
# or say they cannot.  A holds lat_pipe at cross and same (about 62 and
# 1.85 us); B three unpinned lmbench figures of it, told apart by msgsize.
jq -c 'select(.tool == "lat_pipe")' "$aa1" >"$tmp/pinned.jsonl"
jq -c 'select(.params.placement == "same") | .value' "$tmp/pinned.jsonl" >"$tmp/v"
same_v=$(cat "$tmp/v")
for v in "$same_v * 1.02" 11 "$same_v * 27"; do
	jq -c --argjson v "$(awk "BEGIN { print $v }")" -n '{tool: "lat_pipe",
	    case: "pipe", params: {msgsize: 1, placement: "unpinned"},
	    metric: "latency", unit: "us", value: $v, median: $v,
	    better: "lower", parallel: 1, imported: "lmbench"}'
done >"$tmp/unpinned.jsonl"
# One unpinned figure per file B: each compared alone.
n=0
while IFS= read -r rec; do
	n=$((n + 1))
	printf '%s\n' "$rec" >"$tmp/u$n.jsonl"
done <"$tmp/unpinned.jsonl"
# (--all: an import is compared --matched by default.)
run "$cmp" --all "$tmp/pinned.jsonl" "$tmp/u1.jsonl"
grep -q 'cross.*only in A$' "$tmp/out" &&
    grep -q 'same (us) \[B unpinned at same\] .* same$' "$tmp/out" ||
	fail "unpinned at same: $(cat "$tmp/out")"
run "$cmp" "$tmp/pinned.jsonl" "$tmp/u2.jsonl"
grep -q ' no placement$' "$tmp/out" && ! grep -q 'unpinned at' "$tmp/out" ||
	fail "unpinned between the placements: $(cat "$tmp/out")"
grep -q '1 no placement' "$tmp/out" || fail "no placement not counted: $(cat "$tmp/out")"
# The other way round: A unpinned, B pinned; 27 times same is nearer cross.
run "$cmp" --all "$tmp/u3.jsonl" "$tmp/pinned.jsonl"
grep -q 'unpinned (us) \[unpinned at cross\] ' "$tmp/out" &&
    grep -q 'same (us) .*only in B$' "$tmp/out" ||
	fail "A unpinned near cross: $(cat "$tmp/out")"

# A report that cannot be written is a failure: exit 4 naming the cause.
if [ -w /dev/full ]; then
	"$cmp" "$aa1" "$aa2" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 4 ] || fail "A/A to /dev/full exited $rc: $(cat "$tmp/err")"
	grep -q '^benchmp compare: writing to standard output: .*No space left' \
	    "$tmp/err" || fail "A/A to /dev/full: $(cat "$tmp/err")"
	"$cmp" --tsv "$a" "$a" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 4 ] && grep -q 'writing to standard output' "$tmp/err" ||
		fail "--tsv to /dev/full exited $rc: $(cat "$tmp/err")"
fi

finish
