#!/bin/sh
# benchmp-compare.sh: the benchmp command, and benchmp compare as a CI gate: its exit statuses, JSON, JUnit and Markdown.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
fx=$top_srcdir/tests/fixtures/verdict

# split NAME: the fixture NAME as two files, $tmp/a.jsonl (A) and $tmp/b.jsonl (B).
split() {
	head -n 1 "$fx/$1.jsonl" >"$tmp/a.jsonl"
	sed -n 2p "$fx/$1.jsonl" >"$tmp/b.jsonl"
}

# gate NAME STATUS VERDICT [OPTIONS...]: benchmp compare on fixture NAME
# exits STATUS and its one row says VERDICT.
gate() {
	name=$1
	want=$2
	word=$3
	shift 3
	split "$name"
	run "$bm" compare "$@" "$tmp/a.jsonl" "$tmp/b.jsonl"
	[ "$rc" -eq "$want" ] ||
		fail "$name: exit $rc, expected $want: $(cat "$tmp/err")"
	grep -Eq "^lat_x l \(us\) +[0-9.e+-]+ +[^ ]+ +[0-9.-]+  $word\$" \
	    "$tmp/out" || fail "$name: not '$word': $(cat "$tmp/out")"
}

# The command: help lists every subcommand, -V the version, a wrong one is 2.
run "$bm" --help
[ "$rc" -eq 0 ] || fail "--help exited $rc"
for s in run compare ab sched stats check summary repeat spread report plot \
    scaling import-lmbench vs-lmbench; do
	grep -q "^  $s " "$tmp/out" || fail "--help does not list $s"
done
expect_line '^benchmp [0-9]' "$bm" -V
expect_exit 2 "no such subcommand 'nope'" "$bm" nope
expect_exit 2 'usage: benchmp' "$bm"
# help SUB runs the program's --help; compare's is built in.
run "$bm" help stats
[ "$rc" -eq 0 ] && grep -q 'benchmp-stats' "$tmp/out" ||
	fail "help stats: exit $rc: $(head -n 2 "$tmp/out" "$tmp/err")"
run "$bm" help compare
[ "$rc" -eq 0 ] && grep -q -- '--allow-undecided' "$tmp/out" ||
	fail "help compare: exit $rc"
# A subcommand's program is found beside benchmp: stats, from bin/.
printf '1 1\n1 2\n1 3\n' >"$tmp/v"
"$bm" stats <"$tmp/v" >"$tmp/out" 2>"$tmp/err" ||
	fail "benchmp stats: $(cat "$tmp/err")"
grep -q '"value":2' "$tmp/out" || fail "benchmp stats: $(cat "$tmp/out")"

# The gate: one rule a fixture (tests/check_verdict.c judges all of them).
gate worse-ranks 1 worse
grep -q '^benchmp compare: worse: lat_x l (us)$' "$tmp/err" ||
	fail "worse not named: $(cat "$tmp/err")"
gate better-ranks 0 better
gate same-ranks 0 same
gate undecided-ranks 3 undecided
grep -q 'processes would decide' "$tmp/out" ||
	fail "undecided without what would decide: $(cat "$tmp/out")"
gate undecided-ranks 0 undecided --allow-undecided
gate undecided-ranks 3 undecided --allow-undecided --strict
gate undecided-ranks 0 same --threshold 60
gate undecided-ranks 0 same --threshold-for 'lat_x *=60'
gate undecided-ranks 3 undecided --threshold-for 'other *=60'
gate value-zero 4 failed
gate units-kinds 4 failed
grep -q 'units of different kinds: us (A) and MB/s (B)' "$tmp/err" ||
	fail "units of different kinds not said: $(cat "$tmp/err")"
gate units-us-ns 0 same

# A file that is not JSON, or not there: 4, with the line named.
split worse-ranks
printf '{"tool":"x","value":1}\n{"tool":' >>"$tmp/b.jsonl"
expect_exit 4 'b.jsonl: line 3: invalid JSON' "$bm" compare "$tmp/a.jsonl" \
    "$tmp/b.jsonl"
expect_exit 4 'cannot read' "$bm" compare "$tmp/a.jsonl" /nonexistent
: >"$tmp/empty.jsonl"
expect_exit 4 'holds no records' "$bm" compare "$tmp/a.jsonl" \
    "$tmp/empty.jsonl"
expect_exit 2 'need two files' "$bm" compare "$tmp/a.jsonl"
expect_exit 2 "not a percentage" "$bm" compare --threshold x "$tmp/a.jsonl" \
    "$tmp/a.jsonl"
expect_exit 2 "not bh, holm or none" "$bm" compare --correction x \
    "$tmp/a.jsonl" "$tmp/a.jsonl"

# --json: valid JSON whatever the verdicts, with the status it exits with.
# Every fixture as one figure of its own (its name as the case), but
# real.jsonl's two records of two figures.
for f in "$fx"/*.jsonl; do
	n=${f##*/}
	[ "$n" != real.jsonl ] || continue
	sed "s/\"case\":\"[^\"]*\"/\"case\":\"${n%.jsonl}\"/" "$f"
done >"$tmp/all.jsonl"
awk 'NR % 2 == 1' "$tmp/all.jsonl" >"$tmp/all-a.jsonl"
awk 'NR % 2 == 0' "$tmp/all.jsonl" >"$tmp/all-b.jsonl"
run "$bm" compare --json --junit "$tmp/j.xml" --markdown "$tmp/m.md" \
    "$tmp/all-a.jsonl" "$tmp/all-b.jsonl"
[ "$rc" -eq 4 ] || fail "all fixtures: exit $rc, expected 4 (failed ones)"
if have_jq; then
	jq -e '.status == 4 and (.figures | length) > 3 and
	    .counts.failed > 0 and
	    all(.figures[]; .verdict | IN("same", "better", "worse",
	      "changed", "undecided", "failed", "only in A", "only in B"))' \
	    "$tmp/out" >/dev/null || fail "--json: $(head -c 300 "$tmp/out")"
fi
grep -q '<testsuite name="benchmp compare"' "$tmp/j.xml" &&
    grep -q '<failure message="failed' "$tmp/j.xml" ||
	fail "--junit: $(head -n 5 "$tmp/j.xml")"
[ "$(grep -c '<testcase ' "$tmp/j.xml")" -eq \
    "$(grep -c '^| ' "$tmp/m.md" | awk '{ print $1 - 1 }')" ] ||
	fail "--junit and --markdown count different figures"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$tmp/j.xml" || fail "--junit: not well-formed XML"
fi
# The clock: where mhz's figure is better or worse, compare says how many
# of the other figures better or worse moved with it (the spread
# fixtures: mhz 3000 then 3600 MHz; lat_ops 1.2 then 1.0 ns and par_ops
# 5 then 6 ops with it, lat_fifo 20 then 30 us not; tlb changed, bw_mem
# same); a clock that held says nothing.  A record without its
# interval's level shows the interval without one.
sp=$top_srcdir/tests/fixtures/spread
run "$bm" compare "$sp/clock1.jsonl" "$sp/clock3.jsonl"
[ "$rc" -eq 1 ] &&
    grep -qx 'the clock moved: mhz read 3000 MHz in A, 3600 in B (B/A 1\.200); 2 of the 3 other figures better or worse moved with it (within 3% once scaled by it)' \
    "$tmp/out" && grep -qx '    B/A 1\.176-1\.224 (intervals)' "$tmp/out" ||
	fail "a clock that moved: exit $rc: $(cat "$tmp/out")"
run "$bm" compare "$sp/clock1.jsonl" "$sp/clock2.jsonl"
[ "$rc" -eq 0 ] && ! grep -q 'clock moved' "$tmp/out" ||
	fail "a clock that held: exit $rc: $(cat "$tmp/out")"
if have_jq; then
	run "$bm" compare --json "$sp/clock1.jsonl" "$sp/clock3.jsonl"
	jq -e '.clock.a == 3000 and .clock.b == 3600 and
	    (.clock.ratio - 1.2 | fabs) < 1e-9 and .clock.decided == 3 and
	    .clock.with_clock == 2' "$tmp/out" >/dev/null ||
		fail "--json, the clock: $(cat "$tmp/out")"
	run "$bm" compare --json "$sp/clock1.jsonl" "$sp/clock2.jsonl"
	jq -e 'has("clock") | not' "$tmp/out" >/dev/null ||
		fail "--json, a clock that held: $(cat "$tmp/out")"
fi

# Each run against its machine's past runs (history.past_median, five
# figures or more): A's at their past medians, B's 10% worse (times 10%
# longer, a rate 10% lower is 11.1% worse); a side with fewer is not
# known, and without any the line is not printed.
past() {
	for t in a b c d; do
		printf '{"tool":"lat_%s","unit":"us","value":%s,"ci_lo":%s,"ci_hi":%s,"samples":5,"history":{"runs":5,"past_median":10}}\n' \
		    "$t" "$1" "$1" "$1"
	done
	printf '{"tool":"bw_e","unit":"MB/s","value":%s,"ci_lo":%s,"ci_hi":%s,"samples":5,"history":{"runs":5,"past_median":100}}\n' \
	    "$2" "$2" "$2"
}
past 10 100 >"$tmp/pa.jsonl"
past 11 90 >"$tmp/pb.jsonl"
run "$bm" compare --allow-undecided "$tmp/pa.jsonl" "$tmp/pb.jsonl"
grep -qx "past runs: A's median figure within 0\.05% of its median over its machine's past runs (0 of 5 worse by more than 3%, 0 better); B's median figure 10\.0% worse than its median over its machine's past runs (5 of 5 worse by more than 3%, 0 better)" \
    "$tmp/out" || fail "each run against its past: $(cat "$tmp/out")"
head -n 4 "$tmp/pa.jsonl" >"$tmp/pa4.jsonl"
run "$bm" compare --allow-undecided "$tmp/pa4.jsonl" "$tmp/pb.jsonl"
grep -q "^past runs: A's median figure not known; B's median figure 10\.0% worse" \
    "$tmp/out" || fail "a side too few: $(cat "$tmp/out")"
run "$bm" compare --allow-undecided "$tmp/pa4.jsonl" "$tmp/pa4.jsonl"
! grep -q '^past runs' "$tmp/out" || fail "no side: $(cat "$tmp/out")"
if have_jq; then
	run "$bm" compare --json --allow-undecided "$tmp/pa4.jsonl" \
	    "$tmp/pb.jsonl"
	jq -e '.past.a == null and .past.b.figures == 5 and
	    (.past.b.shift - 0.1 | fabs) < 1e-9 and .past.b.worse == 5 and
	    .past.b.better == 0' "$tmp/out" >/dev/null ||
		fail "--json, the past runs: $(cat "$tmp/out")"
fi

# A report that cannot be written is a failure.
if [ -w /dev/full ]; then
	split same-ranks
	"$bm" compare "$tmp/a.jsonl" "$tmp/b.jsonl" >/dev/full 2>"$tmp/err"
	[ $? -eq 4 ] || fail "a full disk: not exit 4"
	expect_exit 4 '/dev/full' "$bm" compare --junit /dev/full \
	    "$tmp/a.jsonl" "$tmp/b.jsonl"
fi

finish
