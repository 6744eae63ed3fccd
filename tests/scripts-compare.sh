#!/bin/sh
# scripts-compare.sh: benchmp-compare holds on an A/A pair of real runs and
# gates only on changes beyond the intervals and the minimum effect.
. "$top_srcdir/tests/lib.sh"

cmp=$top_srcdir/scripts/benchmp-compare
# Two back-to-back benchmp-run of one build on one machine (see
# tests/data/README); which figures they hold does not matter below.
aa1=$top_srcdir/tests/data/aa-1.jsonl
aa2=$top_srcdir/tests/data/aa-2.jsonl
a=$top_srcdir/tests/data/run-a.jsonl
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# verdict FIGURE: the verdict of the row of FIGURE in $tmp/out.
verdict() {
	awk -v f="$1" 'index($0, f " ") == 1 {
		v = $NF
		if (v == "interval")
			v = "no interval"
		else if (v == "moved")
			v = "shares moved"
		else if (v == "A" || v == "B")
			v = "only in " v
		print v
	}' "$tmp/out"
}

# The A/A pair: nothing worse, exit 0, every figure of A listed.
run "$cmp" "$aa1" "$aa2"
[ "$rc" -eq 0 ] || fail "A/A exited $rc: $(cat "$tmp/err")"
grep -q '^figure  *A  *B  *B/A  verdict$' "$tmp/out" || fail "no table header"
! grep -q ' worse$' "$tmp/out" || fail "A/A: worse: $(grep ' worse$' "$tmp/out")"
nkeys=$(jq -s 'map([.tool, .case, .params, .parallel]) | unique | length' \
    "$aa1")
[ "$(grep -cE ' (same|shares moved|better|worse|better \(modes\)|worse \(modes\)|noisy|no interval|changed|invalid|only in A)$' \
    "$tmp/out")" -ge "$nkeys" ] ||
	fail "A/A: fewer rows than the $nkeys figures of A: $(cat "$tmp/out")"

# Each file against itself: every figure the same, with or without an
# interval (the derived records of cache have one sample).
for f in "$aa1" "$aa2" "$a"; do
	run "$cmp" "$f" "$f"
	[ "$rc" -eq 0 ] || fail "$f vs itself exited $rc"
	[ "$(grep -cE ' (better|worse|shares moved|\(modes\)|noisy|no interval|changed|invalid|only in .)$' \
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
	.value *= $f | .median *= $f | .ci_lo *= $f | .ci_hi *= $f
    else . end' "$aa2" >"$tmp/regressed.jsonl"
name=$(jq -r --arg k "$(cat "$tmp/key")" 'select(([.tool, .case,
    (.params | tostring), .parallel] | tostring) == $k) | "\(.tool) \(.case)"' \
    "$aa2" | head -n 1)
run "$cmp" "$aa1" "$tmp/regressed.jsonl"
[ "$rc" -eq 1 ] || fail "10% regression in $name: exit $rc, expected 1"
grep -Eq "^$name .* worse\$" "$tmp/out" ||
	fail "10% regression in $name not marked: $(cat "$tmp/out")"
grep -q "^benchmp-compare: worse: $name" "$tmp/err" ||
	fail "10% regression in $name not named: $(cat "$tmp/err")"
[ "$(grep -c ' worse$' "$tmp/out")" -eq 1 ] ||
	fail "more than the injected figure worse: $(grep ' worse$' "$tmp/out")"
# Against the run it was made from, the other way round, it is better,
# and better is not gated.
run "$cmp" "$tmp/regressed.jsonl" "$aa2"
[ "$rc" -eq 0 ] && grep -Eq "^$name .* better\$" "$tmp/out" ||
	fail "improvement in $name: exit $rc: $(cat "$tmp/out")"
[ "$(grep -cE ' (better|worse)$' "$tmp/out")" -eq 1 ] ||
	fail "more than the injected figure changed: $(cat "$tmp/out")"
# Under the minimum effect (a threshold of 15%) the same change is same.
run "$cmp" --threshold 15 "$aa2" "$tmp/regressed.jsonl"
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
		head -n 1 "$a" | jq -c "del(.better) | $set" >>"$out" ||
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
grep -q '^benchmp-compare: worse: mhz clock (MHz), mhz_old clock (MHz), par_mem chase 4k (loads)$' \
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

# Invalid values: null, NaN, a string, missing; never 0, never better,
# not gated, and in the table as they are.
l='.tool = "lat_y" | .params = {} | .metric = "latency" | .unit = "us" | .median = 1 | .ci_lo = 0.99 | .ci_hi = 1.01 | '"$iv"
mk "$tmp/v1.jsonl" "$l | .case = \"null\" | .value = 1" \
    "$l | .case = \"nan\" | .value = 1" "$l | .case = \"str\" | .value = 1" \
    "$l | .case = \"gone\" | .value = 1" "$l | .case = \"anull\" | .value = null"
mk "$tmp/v2.jsonl" "$l | .case = \"null\" | .value = null" \
    "$l | .case = \"str\" | .value = \"0.5\"" "$l | .case = \"gone\" | del(.value)" \
    "$l | .case = \"anull\" | .value = 0.5"
# jq writes no NaN: the record is written by hand, as a C printf would.
head -n 1 "$tmp/v2.jsonl" | sed 's/"case":"null","params":{},/"case":"nan","params":{},/;
    s/"value":null/"value":NaN/' >"$tmp/nan.jsonl"
cat "$tmp/nan.jsonl" >>"$tmp/v2.jsonl"
grep -q '"value":NaN' "$tmp/v2.jsonl" || fail "no NaN record made"
run "$cmp" "$tmp/v1.jsonl" "$tmp/v2.jsonl"
[ "$rc" -eq 0 ] || fail "invalid values: exit $rc: $(cat "$tmp/err")"
for c in null nan str gone anull; do
	[ "$(verdict "lat_y $c")" = invalid ] ||
		fail "lat_y $c: not invalid: $(cat "$tmp/out")"
done
grep -Eq '^lat_y str .*"0\.5" +- +invalid$' "$tmp/out" ||
	fail "a string value not shown as it is: $(cat "$tmp/out")"
grep -q 'better' "$tmp/out" && fail "an invalid value counted as better"
run "$cmp" --strict "$tmp/v1.jsonl" "$tmp/v2.jsonl"
[ "$rc" -eq 1 ] && grep -q 'missing or invalid in B: lat_y null' "$tmp/err" &&
    ! grep -q 'lat_y anull' "$tmp/err" ||
	fail "--strict with invalid values in B: exit $rc: $(cat "$tmp/err")"

# Infinity and 1e999 (jq reads both as the largest double) are invalid
# too, and shown as such, never as a 309-digit number; a name's control
# bytes are printed escaped.
mk "$tmp/i1.jsonl" "$l | .case = \"inf\" | .value = 1" \
    "$l | .case = \"big\" | .value = 1" \
    "$l | .case = \"esc\\u001b[8mhid\\u009b\" | .value = 1"
sed 's/"case":"inf","params":{},\(.*\)"value":1,/"case":"inf","params":{},\1"value":Infinity,/;
    s/"case":"big","params":{},\(.*\)"value":1,/"case":"big","params":{},\1"value":1e999,/' \
    "$tmp/i1.jsonl" >"$tmp/i2.jsonl"
grep -q '"value":Infinity' "$tmp/i2.jsonl" && grep -q '"value":1e999' "$tmp/i2.jsonl" ||
	fail "no Infinity or 1e999 record made: $(cat "$tmp/i2.jsonl")"
for f in "" --tsv; do
	run "$cmp" $f "$tmp/i1.jsonl" "$tmp/i2.jsonl"
	[ "$rc" -eq 0 ] || fail "Infinity $f: exit $rc: $(cat "$tmp/err")"
	[ "$(grep -E 'lat_y (inf|big)' "$tmp/out" | grep -c invalid)" -eq 2 ] ||
		fail "Infinity, 1e999 $f: not invalid: $(cat "$tmp/out")"
	! grep -Eq '[0-9]{20}' "$tmp/out" ||
		fail "a 309-digit number $f: $(cat "$tmp/out")"
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
run "$cmp" "$m2.jsonl" "$m1.jsonl"
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
run "$cmp" --machine-a "$m2.machine.json" "$a" "$a"
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "machine of B not known: their differences are not shown" ] ||
	fail "--machine-a alone: exit $rc: $(head -n 2 "$tmp/out")"
# The same machine: nothing printed above the table (older output).
run "$cmp" --machine-a "$m2.machine.json" --machine-b "$m2.machine.json" "$a" "$a"
[ "$rc" -eq 0 ] && head -n 1 "$tmp/out" | grep -q '^figure ' ||
	fail "one machine twice: exit $rc: $(head -n 2 "$tmp/out")"
# --tsv: rows only, six fields (the sixth the modes of both runs).
run "$cmp" --tsv "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 0 ] && awk -F'\t' 'NF != 6 { exit 1 }' "$tmp/out" &&
    ! grep -q 'machine\|affinity' "$tmp/out" ||
	fail "--tsv 2cpu/1cpu: $(head -n 3 "$tmp/out")"
expect_exit 2 'cannot read /nonexistent' "$cmp" --machine-b /nonexistent "$a" "$a"
expect_exit 2 '--machine-a needs a value' "$cmp" --machine-a
echo '[1]' >"$tmp/notmachine.json"
expect_exit 2 'not a machine description' "$cmp" --machine-a \
    "$tmp/notmachine.json" "$a" "$a"

# Modes compared like with like.  lat_fifo (same): one mode on two CPUs
# (2.806 us), two under taskset -c 0 (2.80 us for 40% of the processes,
# 7.19 us for 60%): the value more than doubles, but the first mode
# stayed put and a second one took a share, so "shares moved", with the
# modes of both under the row; not worse, not gated.
f="lat_fifo fifo 1 same (us)"
run "$cmp" "$m2.jsonl" "$m1.jsonl"
[ "$(verdict "$f")" = "shares moved" ] ||
	fail "lat_fifo same: not 'shares moved': $(grep -A 1 "^$f" "$tmp/out")"
grep -A 1 "^$f" "$tmp/out" | grep -Eq '^    modes: A 2\.806 \(100%\), B 2\.802 \(40%\) / 7\.192 \(60%\)$' ||
	fail "lat_fifo same: modes: $(grep -A 1 "^$f" "$tmp/out")"
grep -q 'shares moved' "$tmp/out" && grep -Eq '^[0-9].* shares moved' "$tmp/out" ||
	fail "shares moved not counted: $(tail -n 2 "$tmp/out")"
# Both runs bimodal (lat_pipe (same) of lat-2cpu, derived): the shares
# swapped and the value moved to the other mode: shares moved; the same
# modes and shares: same; every mode 20% slower: worse (modes), shown,
# not gated; one mode up and one down: noisy.
jq -c 'select(.modes and .tool == "lat_pipe")' "$m2.jsonl" >"$tmp/ma.jsonl"
[ "$(jq -r '.modes | length' "$tmp/ma.jsonl")" = 2 ] ||
	fail "lat-2cpu.jsonl: lat_pipe (same) has not two modes"
jq -c '.modes[0].share = 0.4 | .modes[1].share = 0.6 |
    .value = .modes[1].centre | .median = .value' "$tmp/ma.jsonl" >"$tmp/mb.jsonl"
run "$cmp" "$tmp/ma.jsonl" "$tmp/mb.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_pipe")" = "shares moved" ] ||
	fail "shares swapped: exit $rc: $(cat "$tmp/out")"
grep -Eq '^    modes: A 2\.733 \(60%\) / 6\.452 \(40%\), B 2\.733 \(40%\) / 6\.452 \(60%\)$' "$tmp/out" ||
	fail "shares swapped: modes line: $(cat "$tmp/out")"
run "$cmp" "$tmp/ma.jsonl" "$tmp/ma.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_pipe")" = same ] ||
	fail "bimodal vs itself: $(cat "$tmp/out")"
jq -c '.modes |= map(.centre *= 1.2) | .value *= 1.2 | .median *= 1.2 |
    .ci_lo *= 1.2 | .ci_hi *= 1.2' "$tmp/ma.jsonl" >"$tmp/mc.jsonl"
run "$cmp" "$tmp/ma.jsonl" "$tmp/mc.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_pipe")" = "(modes)" ] &&
    grep -q ' worse (modes)$' "$tmp/out" ||
	fail "modes 20% slower: exit $rc: $(cat "$tmp/out")"
run "$cmp" "$tmp/mc.jsonl" "$tmp/ma.jsonl"
[ "$rc" -eq 0 ] && grep -q ' better (modes)$' "$tmp/out" ||
	fail "modes 20% faster: exit $rc: $(cat "$tmp/out")"
jq -c '.modes[0].centre *= 0.8 | .modes[1].centre *= 1.2' "$tmp/ma.jsonl" \
    >"$tmp/md.jsonl"
run "$cmp" "$tmp/ma.jsonl" "$tmp/md.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_pipe")" = noisy ] ||
	fail "modes apart: exit $rc: $(cat "$tmp/out")"

# --matched: the figures of both files only, with a count of the rest;
# the default when a file is an lmbench import, where --all lists all.
run "$cmp" --matched "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 0 ] && ! grep -q ' only in [AB]$' "$tmp/out" &&
    [ "$(grep -c ' same$' "$tmp/out")" -ge 1 ] &&
    grep -q '^9 figure(s) of one file only not listed (--matched; --all lists them)$' "$tmp/out" ||
	fail "--matched: exit $rc: $(cat "$tmp/out")"
imp=$top_srcdir/scripts/benchmp-import-lmbench
"$imp" "$top_srcdir/tests/data/lmbench-results.txt" >"$tmp/imp.jsonl" 2>/dev/null
[ -s "$tmp/imp.jsonl" ] || fail "the lmbench import failed"
run "$cmp" "$tmp/imp.jsonl" "$m2.jsonl"
[ "$rc" -eq 0 ] && ! grep -q ' only in [AB]$' "$tmp/out" &&
    grep -q 'lat_pipe pipe 1 unpinned (us) \[unpinned at ' "$tmp/out" &&
    grep -Eq '^[0-9]+ figure\(s\) of one file only not listed' "$tmp/out" ||
	fail "an import: not matched by default: exit $rc: $(cat "$tmp/out")"
run "$cmp" --all "$tmp/imp.jsonl" "$m2.jsonl"
[ "$rc" -eq 0 ] && grep -q ' only in A$' "$tmp/out" &&
    grep -q ' only in B$' "$tmp/out" ||
	fail "an import with --all: exit $rc: $(tail -n 3 "$tmp/out")"
run "$cmp" --strict --matched "$m2.jsonl" "$m1.jsonl"
[ "$rc" -eq 1 ] && grep -q 'missing or invalid in B: lat_pipe pipe 1 cross' "$tmp/err" ||
	fail "--strict --matched: exit $rc: $(cat "$tmp/err")"

# Figures in one file only are listed, without any option.
head -n 2 "$a" >"$tmp/two.jsonl"
run "$cmp" "$tmp/two.jsonl" "$a"
[ "$rc" -eq 0 ] && [ "$(grep -c ' only in B$' "$tmp/out")" -eq 7 ] ||
	fail "only in B: exit $rc: $(cat "$tmp/out")"
run "$cmp" "$a" "$tmp/two.jsonl"
[ "$rc" -eq 0 ] && [ "$(grep -c ' only in A$' "$tmp/out")" -eq 7 ] ||
	fail "only in A: exit $rc: $(cat "$tmp/out")"
run "$cmp" --strict "$a" "$tmp/two.jsonl"
[ "$rc" -eq 1 ] || fail "--strict with figures missing in B: exit $rc"

# Records without an interval: the same record is same; a change beyond
# the threshold is not judged; within it, same.
jq -c 'del(.ci_lo, .ci_hi)' "$a" >"$tmp/noci.jsonl"
run "$cmp" "$tmp/noci.jsonl" "$tmp/noci.jsonl"
[ "$rc" -eq 0 ] && [ "$(grep -c ' same$' "$tmp/out")" -eq 9 ] ||
	fail "no interval vs itself: exit $rc: $(cat "$tmp/out")"
jq -c 'if .case == "null" then .value *= 2 elif .case == "open" then
    .value *= 1.02 else . end' "$tmp/noci.jsonl" >"$tmp/noci2.jsonl"
run "$cmp" "$tmp/noci.jsonl" "$tmp/noci2.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_syscall null")" = "no interval" ] &&
    [ "$(verdict "lat_syscall open /dev/null")" = same ] ||
	fail "no interval, changed: exit $rc: $(cat "$tmp/out")"

# Too noisy to judge: a wide interval or a noisy flag, not gated.
jq -c 'if .case == "null" then .value *= 1.5 | .median *= 1.5 |
    .ci_lo = .median * 0.8 | .ci_hi = .median * 1.2 elif .case == "read"
    then .value *= 1.5 | .median *= 1.5 | .ci_lo *= 1.5 | .ci_hi *= 1.5 |
    .noisy = true else . end' "$a" >"$tmp/wide.jsonl"
run "$cmp" "$a" "$tmp/wide.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_syscall null")" = noisy ] &&
    [ "$(verdict "lat_syscall read /dev/zero")" = noisy ] ||
	fail "noisy figures: exit $rc: $(cat "$tmp/out")"

# The last record of a figure counts; a torn last line (a full disk) is
# skipped with a warning and the good records still compare.
jq -c 'if .case == "null" then .value *= 1.5 | .median *= 1.5 |
    .ci_lo *= 1.5 | .ci_hi *= 1.5 else . end' "$a" >"$tmp/last.jsonl"
{ cat "$tmp/last.jsonl"; head -n 1 "$a"; head -c 100 "$a"; } >"$tmp/torn.jsonl"
run "$cmp" "$a" "$tmp/torn.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_syscall null")" = same ] &&
    grep -q 'torn.jsonl: skipped 1 line(s) that are not JSON records (line 11)' \
    "$tmp/err" || fail "torn file: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# Private temporary directories in parameters are not part of the key.
jq -c 'if .case == "read" then .params.file = "/tmp/x/benchmp-run.abc123/file"
    else . end' "$a" >"$tmp/p1.jsonl"
jq -c 'if .case == "read" then .params.file = "/var/tmp/benchmp-run.XyZ789/file"
    else . end' "$a" >"$tmp/p2.jsonl"
run "$cmp" "$tmp/p1.jsonl" "$tmp/p2.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_syscall read <tmp>/file")" = same ] ||
	fail "private directories: exit $rc: $(cat "$tmp/out")"

# Errors: exit 2 with a message.
expect_exit 2 'need two files' "$cmp" "$a"
expect_exit 2 "unknown option '--bogus'" "$cmp" --bogus "$a" "$a"
for t in -1 1001 abc 1e3 '' . 1.2.3; do
	expect_exit 2 "--threshold: '$t' is not a percentage" \
	    "$cmp" --threshold "$t" "$a" "$a"
done
expect_exit 2 'threshold needs a value' "$cmp" --threshold
run "$cmp" --threshold=0 "$a" "$a"
[ "$rc" -eq 0 ] || fail "--threshold=0: exit $rc"
run "$cmp" --threshold .5 "$a" "$a"
[ "$rc" -eq 0 ] && grep -q "(minimum change 0.5%)" "$tmp/out" ||
	fail "--threshold .5: exit $rc: $(tail -n 1 "$tmp/out")"
expect_exit 2 'cannot read /nonexistent' "$cmp" "$a" /nonexistent
expect_exit 2 "cannot read $tmp" "$cmp" "$a" "$tmp"
echo 'not json' >"$tmp/bad.jsonl"
expect_exit 2 'bad.jsonl holds no records' "$cmp" "$a" "$tmp/bad.jsonl"
: >"$tmp/empty.jsonl"
expect_exit 2 'holds no records' "$cmp" "$a" "$tmp/empty.jsonl"
mkdir "$tmp/nopath"
expect_exit 2 'install the Debian package jq' env PATH="$tmp/nopath" \
    /bin/sh "$cmp" "$a" "$a"
run "$cmp" --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp-compare' "$tmp/out" ||
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

# The field that repeats: two records whose medians moved by 40% (worse)
# but whose robust figures (the best process) stayed within 1% compare
# as the same; a robust figure that moved is judged on its own interval;
# with a robust figure in one record only, the medians are compared.
lx='.tool = "lat_r" | .case = "r" | .params = {} | .metric = "latency" | .unit = "us"'
rb() { echo ".robust = {stat: \"best process\", value: $1, ci_lo: $2, ci_hi: $3, noisy: false, causes: []}"; }
mk "$tmp/r1.jsonl" "$lx | .value = 10 | .median = 10 | .ci_lo = 9.9 | .ci_hi = 10.1 | $iv | $(rb 8 7.92 8.08)"
mk "$tmp/r2.jsonl" "$lx | .value = 14 | .median = 14 | .ci_lo = 13.9 | .ci_hi = 14.1 | $iv | $(rb 8.05 7.97 8.13)"
mk "$tmp/r3.jsonl" "$lx | .value = 10 | .median = 10 | .ci_lo = 9.9 | .ci_hi = 10.1 | $iv | $(rb 12 11.9 12.1)"
mk "$tmp/r4.jsonl" "$lx | .value = 14 | .median = 14 | .ci_lo = 13.9 | .ci_hi = 14.1 | $iv"
run "$cmp" "$tmp/r1.jsonl" "$tmp/r2.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_r r")" = same ] &&
    grep -Eq '^lat_r r \(us\) +8 +8\.05 ' "$tmp/out" ||
	fail "robust figures within 1%: exit $rc: $(cat "$tmp/out")"
run "$cmp" "$tmp/r1.jsonl" "$tmp/r3.jsonl"
[ "$rc" -eq 1 ] && [ "$(verdict "lat_r r")" = worse ] ||
	fail "robust figure 50% up: exit $rc: $(cat "$tmp/out")"
run "$cmp" "$tmp/r1.jsonl" "$tmp/r4.jsonl"
[ "$rc" -eq 1 ] && [ "$(verdict "lat_r r")" = worse ] &&
    grep -Eq '^lat_r r \(us\) +10 +14 ' "$tmp/out" ||
	fail "one robust figure: medians not compared: $(cat "$tmp/out")"
# A best process that moved to where one of the other run's processes
# was: the shares of two modes moved (either way round), not the figure;
# the same move with no process of A there is worse.
pv='.process_values = [2.79, 2.78, 2.73, 4.48]'
mk "$tmp/r5.jsonl" "$lx | .value = 2.79 | $iv | $(rb 2.73 2.6 2.86) | $pv"
mk "$tmp/r6.jsonl" "$lx | .value = 4.03 | $iv | $(rb 3.99 3.9 4.07) | .process_values = [4.25, 4.33, 4.03, 3.99, 4.0]"
mk "$tmp/r7.jsonl" "$lx | .value = 2.79 | $iv | $(rb 2.73 2.6 2.86) | .process_values = [2.79, 2.78, 2.73]"
run "$cmp" "$tmp/r5.jsonl" "$tmp/r6.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_r r")" = "shares moved" ] ||
	fail "best moved into A's slow process: exit $rc: $(cat "$tmp/out")"
run "$cmp" "$tmp/r6.jsonl" "$tmp/r5.jsonl"
[ "$rc" -eq 0 ] && [ "$(verdict "lat_r r")" = "shares moved" ] ||
	fail "best moved from B's slow mode: exit $rc: $(cat "$tmp/out")"
run "$cmp" "$tmp/r7.jsonl" "$tmp/r6.jsonl"
[ "$rc" -eq 1 ] && [ "$(verdict "lat_r r")" = worse ] ||
	fail "best moved beyond all of A's processes: exit $rc: $(cat "$tmp/out")"

# A report that cannot be written is a runtime failure: exit 1 naming
# the cause, not 2 (which says the inputs could not be compared); the
# A/A pair has no worse figure, so 1 can only be the write's.
if [ -w /dev/full ]; then
	"$cmp" "$aa1" "$aa2" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "A/A to /dev/full exited $rc: $(cat "$tmp/err")"
	grep -q '^benchmp-compare: writing the report to standard output failed: .*No space left' \
	    "$tmp/err" || fail "A/A to /dev/full: $(cat "$tmp/err")"
	"$cmp" --tsv "$a" "$a" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q 'writing the report' "$tmp/err" ||
		fail "--tsv to /dev/full exited $rc: $(cat "$tmp/err")"
fi

finish
