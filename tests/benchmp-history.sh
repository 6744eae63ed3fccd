#!/bin/sh
# benchmp-history.sh: benchmp history on made-up runs: the store kept
# (one line a figure and run, a run replaced under its own name, the
# last 100 runs), a figure widened and flagged from its third past run
# on by the median of its moves (a step counted once), one that does not
# move left as it was, two identities taken in turns read apart, a
# record read twice not widened twice, a jump flagged and reached, an
# interval no farther than the values shown, two sizes of a tool's own
# records kept apart,
# --no-add, --precision, --jump, --runs, and what it refuses.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
if [ ! -x "$bm" ] || ! have_jq; then
	echo "$me: no $bm or no jq: skipped" >&2
	exit 77
fi

# rec TOOL VALUE [MEMBERS [VALUES]]: a record of a figure of TOOL with
# VALUE and an interval of +-1% at 0.87, and MEMBERS (JSON members, with
# a comma); its values (visits) VALUES, a JSON array, else five from
# half VALUE to twice it.
rec() {
	awk -v t="$1" -v v="$2" -v m="${3:-}" -v a="${4:-}" 'BEGIN {
	    printf "{\"tool\":\"%s\",\"case\":\"c\",\"params\":{},", t
	    printf "\"metric\":\"latency\",\"unit\":\"us\",\"better\":\"lower\","
	    if (v == "null")
		printf "\"value\":null,\"ci_lo\":null,\"ci_hi\":null,"
	    else
		printf "\"value\":%s,\"ci_lo\":%.10g,\"ci_hi\":%.10g,", v, v * 0.99, v * 1.01
	    printf "\"ci_level\":0.87,\"ci_kind\":\"next run\",\"noisy\":false,"
	    if (a == "" && v == "null")
		a = "[1,1,1,1,1]"
	    else if (a == "")
		a = sprintf("[%.10g,%.10g,%s,%.10g,%.10g]", v * 0.5, v * 0.9,
		    v, v * 1.1, v * 2)
	    printf "\"samples\":5,\"processes\":1,\"values\":%s,", a
	    printf "\"parallel\":1%s,\"timestamp\":\"2026-01-02T03:04:05Z\"}\n", m
	}'
}

# runfile A B: a run of lat_a at A and bw_b at B, with a figure that
# contradicts the machine and one without a value (neither kept).
runfile() {
	rec lat_a "$1"
	rec bw_b "$2"
	rec line 16 ',"contradicts":[{"what":"line"}]'
	rec lat_d null
}

st=$tmp/store
runfile 10 100 >"$tmp/r1.jsonl"
run "$bm" history --store "$st" --stamp r1 "$tmp/r1.jsonl"
[ "$rc" -eq 0 ] && cmp -s "$tmp/r1.jsonl" "$tmp/out.raw" ||
	fail "a first run is not written as read: exit $rc: $(cat "$tmp/err")"
grep -qx "benchmp history: no figure has 3 runs in $st yet: this run is kept there" \
    "$tmp/err" || fail "the first run's message: $(cat "$tmp/err")"
[ "$(cut -f 1,2 "$st" | tr '\t\n' ' ')" = "r1 10 r1 100 " ] ||
	fail "the store after one run: $(cat "$st")"
grep -q '^r1	10	\[null,"lat_a","c","latency",null,1,null,null\]$' "$st" ||
	fail "lat_a's key: $(cat "$st")"

# Two more past runs: lat_a's record says it has them, nothing else.
runfile 10.5 100 >"$tmp/r2.jsonl"
runfile 10 100 >"$tmp/r3.jsonl"
"$bm" history --store "$st" --stamp r2 "$tmp/r2.jsonl" >/dev/null 2>&1 ||
	fail "the second run"
run "$bm" history --store "$st" --stamp r3 "$tmp/r3.jsonl"
[ "$rc" -eq 0 ] || fail "the third run: exit $rc: $(cat "$tmp/err")"
jq -e -s '.[0].history == {runs: 2} and .[0].ci_lo == 9.9 and
    .[0].noisy == false and .[1].history == {runs: 2} and
    (.[2] | has("history") | not) and (.[3] | has("history") | not)' \
    "$tmp/out.raw" >/dev/null || fail "the third run: $(cat "$tmp/out.raw")"

# The fourth: lat_a moved 5% from run to run (10, 10.5, 10; 7.5% at one
# standard deviation, the median |log ratio| over 0.6745): its interval
# is widened to Student's t on two degrees at 0.87 (t / sqrt(2 + t^2) =
# 0.87: t = 2.4954), and it is noisy; bw_b never moved and stays as it was.
runfile 10 100 >"$tmp/r4.jsonl"
run "$bm" history --store "$st" --stamp r4 -o "$tmp/o4.jsonl" "$tmp/r4.jsonl"
[ "$rc" -eq 0 ] || fail "the fourth run: exit $rc: $(cat "$tmp/err")"
grep -qx "benchmp history: 2 of 2 figures with past runs in $st: 1 intervals widened to their moves, 1 noisy by them" \
    "$tmp/err" || fail "the fourth run's message: $(cat "$tmp/err")"
jq -e -s '.[0] as $a | ($a.history.move - 0.05 | fabs) < 1e-4 and
    $a.history.runs == 3 and $a.ci_lo == $a.history.ci_lo and
    $a.ci_hi == $a.history.ci_hi and $a.history.run_ci_lo == 9.9 and
    $a.history.run_ci_hi == 10.1 and $a.history.run_noisy == false and
    $a.history.past_median == 10 and
    ((10 / $a.ci_lo | log) / ((1.05 | log) / 0.6745 / (2 | sqrt) *
        (4 / 3 | sqrt)) - 2.4954 | fabs) < 0.002 and
    ($a.ci_hi * $a.ci_lo - 100 | fabs) < 1e-9 and $a.noisy == true and
    ($a.history.move_sd - 0.07502 | fabs) < 1e-4 and
    $a.noisy_why == ["its runs on this machine move +-7.50% from one to the next (one standard deviation, from the median of its last 3), past the precision of +-3%"] and
    .[1].history.move == 0 and .[1].ci_lo == 99 and .[1].ci_hi == 101 and
    .[1].noisy == false and (.[1] | has("noisy_why") | not)' \
    "$tmp/o4.jsonl" >/dev/null || fail "the fourth run: $(head -n 2 "$tmp/o4.jsonl")"
# The rest of each record is as read.
jq -c 'del(.history, .ci_lo, .ci_hi, .noisy, .noisy_why)' "$tmp/o4.jsonl" \
    >"$tmp/rest" && jq -c 'del(.ci_lo, .ci_hi, .noisy)' "$tmp/r4.jsonl" |
    cmp -s - "$tmp/rest" || fail "other members changed: $(cat "$tmp/rest")"

# Read again under its own name: the run replaces itself in the store,
# is not a past run of itself, and a widened record is not widened twice.
cp "$st" "$tmp/st4" || exit 99
run "$bm" history --store "$st" --stamp r4 "$tmp/o4.jsonl"
[ "$rc" -eq 0 ] && cmp -s "$tmp/o4.jsonl" "$tmp/out.raw" && cmp -s "$st" "$tmp/st4" ||
	fail "read twice: exit $rc: $(diff "$tmp/o4.jsonl" "$tmp/out.raw" | head -n 3) $(diff "$st" "$tmp/st4")"
# A noisy reason already there is kept first.
rec lat_a 10 ',"noisy_why":["its processes disagree"]' >"$tmp/why.jsonl"
run "$bm" history --store "$st" --stamp r5 --no-add "$tmp/why.jsonl"
jq -e '.noisy == true and (.noisy_why | length) == 2 and
    .noisy_why[0] == "its processes disagree"' "$tmp/out.raw" >/dev/null ||
	fail "a second reason: $(cat "$tmp/out.raw")"
cmp -s "$st" "$tmp/st4" || fail "--no-add wrote the store"
# --precision: a move of 7.5% at one standard deviation is within 10%.
run "$bm" history --store "$st" --stamp r5 --no-add --precision 10 "$tmp/r4.jsonl"
jq -e -s '.[0].noisy == false and .[0].history.runs == 4' "$tmp/out.raw" \
    >/dev/null || fail "--precision 10: $(head -n 1 "$tmp/out.raw")"
# --runs 3: the last three runs (10.5, 10, 10), one move of two.
run "$bm" history --store "$st" --stamp r5 --no-add --runs 3 "$tmp/r4.jsonl"
jq -e -s '.[0].history.runs == 3 and
    (.[0].history.move - 0.0244 | fabs) < 1e-3' "$tmp/out.raw" >/dev/null ||
	fail "--runs 3: $(head -n 1 "$tmp/out.raw")"

# Visits close to the value: the interval reaches no farther than 5%
# (in log ratio) beyond the values lat_a has shown, 10 to 10.5 in its
# past runs and 9.9 to 10.1 in this run's visits, where Student's t
# reached 8.12 to 12.3; still noisy by its moves.
rec lat_a 10 '' '[9.9,10,10.1]' >"$tmp/near.jsonl"
run "$bm" history --store "$st" --stamp r5 --no-add "$tmp/near.jsonl"
jq -e '(.ci_lo - 9.9 * (-0.05 | exp) | fabs) < 1e-9 and
    (.ci_hi - 10.5 * (0.05 | exp) | fabs) < 1e-9 and
    .history.ci_lo == .ci_lo and .history.ci_hi == .ci_hi and
    .noisy == true' "$tmp/out.raw" >/dev/null ||
	fail "an interval beyond the values: $(cat "$tmp/out.raw")"
# A step (10 four times, then 20) is one move: the median is none, but
# it is a jump past 10%: noisy, its interval as wide as the jump (a
# factor of two each way); with --jump 0 (or 150) it is as its run says.
: >"$tmp/step"
for v in 10 10 10 10 20; do
	runfile "$v" 100 >"$tmp/s.jsonl"
	"$bm" history --store "$tmp/step" --stamp "s$v.$(wc -l <"$tmp/step")" \
	    "$tmp/s.jsonl" >/dev/null 2>&1 || fail "the step's run at $v"
done
runfile 20 100 >"$tmp/s.jsonl"
run "$bm" history --store "$tmp/step" --stamp last --no-add "$tmp/s.jsonl"
jq -e -s '.[0].history as $h | $h.runs == 5 and $h.move == 0 and
    $h.move_sd == 0 and $h.jump == 1 and ($h.ci_lo - 10 | fabs) < 1e-9 and
    ($h.ci_hi - 40 | fabs) < 1e-9 and .[0].ci_lo == $h.ci_lo and
    .[0].noisy == true and
    .[0].noisy_why == ["its runs on this machine jumped by 100% from one to the next within its last 5, past 10%: the next may jump as far"] and
    .[1].history.jump == 0 and .[1].noisy == false' "$tmp/out.raw" \
    >/dev/null || fail "a step: $(head -n 1 "$tmp/out.raw")"
for j in 0 150; do
	run "$bm" history --store "$tmp/step" --stamp last --jump "$j" \
	    --no-add "$tmp/s.jsonl"
	jq -e -s '.[0].history == {runs: 5, move: 0, move_sd: 0, jump: 1,
	    ci_lo: 20, ci_hi: 20, run_ci_lo: 19.8, run_ci_hi: 20.2,
	    run_noisy: false, past_median: 10} and .[0].ci_lo == 19.8 and
	    .[0].noisy == true and
	    .[0].noisy_why == ["it lies +100% from the median of its last 5 runs on this machine, past the precision of +-3%: the next run may move back"]' \
	    "$tmp/out.raw" >/dev/null ||
		fail "a step, --jump $j: $(head -n 1 "$tmp/out.raw")"
done
# Without a jump, a value more than the precision from the median of its
# past runs is noisy (10, 10.1, 9.9, then 10.5: +5%), one within it not
# (10.2: +2%).
: >"$tmp/dev"
for v in 10 10.1 9.9; do
	runfile "$v" 100 >"$tmp/d.jsonl"
	"$bm" history --store "$tmp/dev" --stamp "d$v" "$tmp/d.jsonl" \
	    >/dev/null 2>&1 || fail "the deviation's run at $v"
done
runfile 10.5 100 >"$tmp/d.jsonl"
run "$bm" history --store "$tmp/dev" --stamp d --no-add "$tmp/d.jsonl"
jq -e -s '.[0].noisy == true and .[0].history.past_median == 10 and
    .[0].noisy_why == ["it lies +5.0% from the median of its last 3 runs on this machine, past the precision of +-3%: the next run may move back"] and
    .[1].noisy == false' "$tmp/out.raw" >/dev/null ||
	fail "a value past the precision: $(head -n 1 "$tmp/out.raw")"
runfile 10.2 100 >"$tmp/d.jsonl"
run "$bm" history --store "$tmp/dev" --stamp d --no-add "$tmp/d.jsonl"
jq -e -s '.[0].noisy == false' "$tmp/out.raw" >/dev/null ||
	fail "a value within the precision: $(head -n 1 "$tmp/out.raw")"

# A jump of 12.5% (8, 8, 9) past --jump 12 is said to a tenth.
: >"$tmp/j"
for v in 8 8 9; do
	runfile "$v" 100 >"$tmp/s.jsonl"
	"$bm" history --store "$tmp/j" --stamp "j$(wc -l <"$tmp/j")" \
	    "$tmp/s.jsonl" >/dev/null 2>&1 || fail "the jump's run at $v"
done
run "$bm" history --store "$tmp/j" --stamp last --jump 12 --precision 50 \
    --no-add "$tmp/s.jsonl"
jq -e -s '.[0].noisy_why == ["its runs on this machine jumped by 12.5% from one to the next within its last 3, past 12%: the next may jump as far"]' \
    "$tmp/out.raw" >/dev/null || fail "a jump of 12.5%: $(head -n 1 "$tmp/out.raw")"

# Records a tool wrote itself (no suite.figure) that differ in a
# parameter alone are two figures: kept under two keys (their parameters
# last, as benchmp compare keys them: a private temporary path as
# <tmp>/), each read against its own past runs alone; a labelled
# record's key holds no parameters (the stores kept so far still match).
sizes() {
	rec bw "$1" | sed 's|"params":{}|"params":{"size":1048576,"file":"/tmp/benchmp-run.AbC123/f"}|'
	rec bw "$2" | sed 's|"params":{}|"params":{"size":8388608,"file":"/tmp/benchmp-run.XyZ987/f"}|'
}
: >"$tmp/sizes"
for r in 1 2 3; do
	sizes 1000 100 >"$tmp/z.jsonl"
	"$bm" history --store "$tmp/sizes" --stamp "z$r" "$tmp/z.jsonl" \
	    >/dev/null 2>&1 || fail "the sizes' run $r"
done
[ "$(cut -f 3 "$tmp/sizes" | sort -u | wc -l)" -eq 2 ] &&
    grep -q '^z1	1000	\[null,"bw","c","latency",null,1,null,null,{"size":1048576,"file":"<tmp>/f"}\]$' \
    "$tmp/sizes" ||
	fail "two sizes under one key: $(cat "$tmp/sizes")"
run "$bm" history --store "$tmp/sizes" --stamp z4 --no-add "$tmp/z.jsonl"
[ "$rc" -eq 0 ] && jq -e -s '.[0].history.runs == 3 and
    .[0].history.move == 0 and .[0].history.past_median == 1000 and
    .[1].history.runs == 3 and .[1].history.move == 0 and
    .[1].history.past_median == 100 and .[0].noisy == false and
    .[1].noisy == false' "$tmp/out.raw" >/dev/null ||
	fail "two sizes read as one figure: exit $rc: $(cat "$tmp/out.raw")"
rec bw 5 ',"suite":{"figure":"bw 1m"}' |
    sed 's|"params":{}|"params":{"size":1048576}|' >"$tmp/label.jsonl"
"$bm" history --store "$tmp/label" --stamp l1 "$tmp/label.jsonl" \
    >/dev/null 2>&1 &&
    grep -q '^l1	5	\["bw 1m","bw","c","latency",null,1,null,null\]$' \
    "$tmp/label" || fail "a labelled record's key: $(cat "$tmp/label")"

# Values no interval can hold (1e-300, 1e300, 1e-300): runs alone.
printf 'x%s\t%s\t[null,"lat_a","c","latency",null,1,null,null]\n' \
    1 1e-300 2 1e300 3 1e-300 >"$tmp/huge" || exit 99
for j in 10 0; do
	run "$bm" history --store "$tmp/huge" --stamp now --jump "$j" \
	    --no-add "$tmp/r4.jsonl"
	[ "$rc" -eq 0 ] && jq -e -s '.[0].history == {runs: 3} and
	    .[0].ci_lo == 9.9' "$tmp/out.raw" >/dev/null ||
		fail "huge moves, --jump $j: exit $rc: $(head -n 1 "$tmp/out.raw") $(cat "$tmp/err")"
done

# The store keeps the last 100 runs: 99 past and this one.
awk 'BEGIN { for (i = 1; i <= 105; i++)
    printf "p%03d\t10\t[null,\"lat_a\",\"c\",\"latency\",null,1,null,null]\n", i }' \
    >"$tmp/many"
run "$bm" history --store "$tmp/many" --stamp now "$tmp/r4.jsonl"
[ "$rc" -eq 0 ] && [ "$(cut -f 1 "$tmp/many" | uniq | wc -l)" -eq 100 ] &&
    [ "$(head -n 1 "$tmp/many" | cut -f 1)" = p007 ] &&
    [ "$(tail -n 1 "$tmp/many" | cut -f 1)" = now ] ||
	fail "the last 100 runs: exit $rc, $(cut -f 1 "$tmp/many" | uniq | wc -l) runs from $(head -n 1 "$tmp/many" | cut -f 1)"
# The default name is the earliest timestamp of the records.
rm -f "$tmp/st0"
"$bm" history --store "$tmp/st0" "$tmp/r1.jsonl" >/dev/null 2>&1 &&
    [ "$(cut -f 1 "$tmp/st0" | uniq)" = 2026-01-02T03:04:05Z ] ||
	fail "the default name: $(cat "$tmp/st0")"

# Two builds taken in turns (lat_a at 10 and 20): without --identity
# every run moves by a factor of two; with it, each build's runs are a
# series of their own that does not move, and the store names them.
: >"$tmp/turns"
: >"$tmp/plain"
for r in 1 2 3 4 5 6; do
	if [ $((r % 2)) -eq 1 ]; then id=a; v=10; else id=b; v=20; fi
	runfile "$v" 100 >"$tmp/t.jsonl"
	"$bm" history --store "$tmp/turns" --stamp "t$r" --identity "build $id" \
	    "$tmp/t.jsonl" >/dev/null 2>&1 || fail "the turns' run $r"
	"$bm" history --store "$tmp/plain" --stamp "t$r" "$tmp/t.jsonl" \
	    >/dev/null 2>&1 || fail "the plain turns' run $r"
done
runfile 10 100 >"$tmp/t.jsonl"
run "$bm" history --store "$tmp/turns" --stamp t7 --identity "build a" "$tmp/t.jsonl"
[ "$rc" -eq 0 ] && jq -e -s '.[0].history.runs == 3 and
    .[0].history.move == 0 and .[0].noisy == false and .[0].ci_lo == 9.9' \
    "$tmp/out.raw" >/dev/null ||
	fail "two identities in turns: exit $rc: $(head -n 1 "$tmp/out.raw")"
grep -qx "benchmp history: 2 of 2 figures with past runs of this identity in $tmp/turns: 0 intervals widened to their moves, 0 noisy by them" \
    "$tmp/err" || fail "the identity's message: $(cat "$tmp/err")"
[ "$(grep -c '	build a$' "$tmp/turns")" -eq 8 ] &&
    [ "$(grep -c '	build b$' "$tmp/turns")" -eq 6 ] ||
	fail "the store's identities: $(cat "$tmp/turns")"
run "$bm" history --store "$tmp/plain" --stamp t7 "$tmp/t.jsonl"
jq -e -s '(.[0].history.move - 1 | fabs) < 1e-9 and .[0].noisy == true' \
    "$tmp/out.raw" >/dev/null ||
	fail "the same turns as one series: $(head -n 1 "$tmp/out.raw")"
# Lines without an identity are the runs of none: not read under one.
run "$bm" history --store "$tmp/plain" --stamp t8 --identity "build a" \
    --no-add "$tmp/t.jsonl"
jq -e -s '(.[0] | has("history") | not)' "$tmp/out.raw" >/dev/null ||
	fail "an identity read lines of none: $(head -n 1 "$tmp/out.raw")"

# The clock: mhz's figure more than 3% from the median of its past runs
# is named on stderr (the clock moved); within 3%, with fewer than
# three past runs, or in a record read before, nothing is said.
clk() {
	printf '{"tool":"mhz","case":"clock","params":{},"metric":"clock","unit":"MHz","better":"higher","value":%s,"ci_lo":%s,"ci_hi":%s,"ci_level":0.87,"samples":5}\n' \
	    "$1" "$1" "$1"
}
cs=$tmp/clock-store
for v in 3000 3010 2990; do
	clk "$v" >"$tmp/c.jsonl"
	run "$bm" history --store "$cs" "--stamp=c$v" "$tmp/c.jsonl"
	[ "$rc" -eq 0 ] && ! grep -q 'the clock' "$tmp/err" ||
		fail "the clock's past run $v: exit $rc: $(cat "$tmp/err")"
done
clk 3600 >"$tmp/c.jsonl"
run "$bm" history --store "$cs" --stamp c3600 --no-add "$tmp/c.jsonl"
grep -qx "benchmp history: the clock (mhz) read 3600 MHz, +20.0% from 3000 MHz, the median of its last 3 runs in $cs: the figures the clock times moved with it" \
    "$tmp/err" || fail "a clock that moved: $(cat "$tmp/err")"
# A record read before (it has "history") was judged then.
clk 3600 | sed 's/}$/,"history":{"runs":3}}/' >"$tmp/c.jsonl"
run "$bm" history --store "$cs" --stamp c3600 --no-add "$tmp/c.jsonl"
[ "$rc" -eq 0 ] && ! grep -q 'the clock' "$tmp/err" ||
	fail "a clock read before: exit $rc: $(cat "$tmp/err")"
clk 3080 >"$tmp/c.jsonl"
run "$bm" history --store "$cs" --stamp c3080 --no-add "$tmp/c.jsonl"
[ "$rc" -eq 0 ] && ! grep -q 'the clock' "$tmp/err" ||
	fail "a clock within 3%: exit $rc: $(cat "$tmp/err")"

# What it refuses: usage errors (2), a store of the wrong shape, an
# input that is not records (1, the output and the store as they were).
for a in "--runs 2" "--runs 101" "--runs 3.5" "--runs x" "--precision 0" \
    "--precision 101" "--precision -1" "--jump -1" "--jump 1001" \
    "--jump x" "--stamp=" "--bad"; do
	# shellcheck disable=SC2086 # (the option and its value)
	expect_exit 2 "^benchmp history: " "$bm" history --store "$st" $a "$tmp/r1.jsonl"
done
expect_exit 2 "^benchmp history: --stamp: " "$bm" history --store "$st" \
    --stamp "$(printf 'a\tb')" "$tmp/r1.jsonl"
expect_exit 2 "^benchmp history: --identity: " "$bm" history --store "$st" \
    --identity "$(printf 'a\nb')" "$tmp/r1.jsonl"
expect_exit 2 "^benchmp history: missing --store FILE" "$bm" history "$tmp/r1.jsonl"
expect_exit 2 "^benchmp history: missing the records file" "$bm" history --store "$st"
expect_exit 2 "^benchmp history: one records file, not more" "$bm" history \
    --store "$st" "$tmp/r1.jsonl" "$tmp/r2.jsonl"
cp "$st" "$tmp/bad" && printf 'r9\tten\t[null]\n' >>"$tmp/bad" || exit 99
echo old >"$tmp/kept.jsonl" || exit 99
expect_exit 1 "^benchmp history: $tmp/bad: line 9: the value is not a number over 0" \
    "$bm" history --store "$tmp/bad" -o "$tmp/kept.jsonl" "$tmp/r1.jsonl"
printf 'r9\t10\n' >"$tmp/bad2" || exit 99
expect_exit 1 "^benchmp history: $tmp/bad2: line 1: not STAMP, VALUE and KEY" \
    "$bm" history --store "$tmp/bad2" "$tmp/r1.jsonl"
printf 'r9\t10\t[null]\t\n' >"$tmp/bad4" || exit 99
expect_exit 1 "^benchmp history: $tmp/bad4: line 1: an empty identity" \
    "$bm" history --store "$tmp/bad4" "$tmp/r1.jsonl"
printf 'r9\t10\t[null]' >"$tmp/bad3" || exit 99
expect_exit 1 "^benchmp history: $tmp/bad3: line 1: cut off" \
    "$bm" history --store "$tmp/bad3" "$tmp/r1.jsonl"
printf '{"tool":\n' >"$tmp/notjson.jsonl" || exit 99
cp "$st" "$tmp/st.before" || exit 99
expect_exit 1 "^benchmp history: $tmp/notjson\\.jsonl: line 1: " \
    "$bm" history --store "$st" -o "$tmp/kept.jsonl" "$tmp/notjson.jsonl"
[ "$(cat "$tmp/kept.jsonl")" = old ] && cmp -s "$st" "$tmp/st.before" ||
	fail "a failed run touched its output or the store"
expect_exit 1 "^benchmp history: cannot write $tmp/no/such: " \
    "$bm" history --store "$tmp/no/such" "$tmp/r1.jsonl"
# No copy is left beside the outputs.
set -- "$tmp"/.benchmp-history.*
[ ! -e "$1" ] || fail "a copy left behind: $*"

exit "$((failures > 0))"
