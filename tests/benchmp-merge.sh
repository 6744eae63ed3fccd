#!/bin/sh
# benchmp-merge.sh: benchmp merge on made-up passes (tests/fixtures/merge/):
# the merged records exactly as benchmp-run's jq and benchmp-stats wrote
# them (passes.out), a figure measured once kept as it is, one whose
# records cannot be merged kept as its last pass with a warning, the
# output replaced whole, a tool's own records of two sizes kept apart,
# and what it refuses.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
fx=$top_srcdir/tests/fixtures/merge
if [ ! -x "$bm" ] || [ ! -r "$fx/passes.jsonl" ]; then
	echo "$me: no $bm or no fixtures: skipped" >&2
	exit 77
fi

# Five figures: lat_x in two passes of three rounds (its value the best
# process, its rates scaled, one pass cut by the budget), bw_y once,
# lat_z without process_samples (four samples over two processes),
# memsize with no direction and a value that is not its median (the last
# pass's, scaled), lat_w whose second pass lists two values of three.
run "$bm" merge "$fx/passes.jsonl"
[ "$rc" -eq 0 ] && cmp -s "$fx/passes.out" "$tmp/out.raw" ||
	fail "two passes: exit $rc: $(diff "$fx/passes.out" "$tmp/out.raw" | head -n 5) $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    grep -qx "benchmp merge: a figure's passes not merged: lat_w sem: line 9: its values are not as many as its samples" \
    "$tmp/err" || fail "the warning of lat_w: $(cat "$tmp/err")"
# The records in the plan's order, without their plan line.
[ "$(sed 's/^{"tool":"\([a-z_]*\)".*/\1/' "$tmp/out.raw" | tr '\n' ' ')" = \
    "bw_y lat_x lat_z memsize lat_w " ] ||
	fail "not in the plan's order: $(cut -c1-40 "$tmp/out.raw")"
! grep -q '"_line"' "$tmp/out.raw" || fail "a plan line left in the output"
# A figure measured once, and one not merged, are their records as read.
for t in bw_y lat_w; do
	grep "\"tool\":\"$t\"" "$fx/passes.jsonl" | tail -n 1 |
	    sed 's/^{"_line":[0-9]*,/{/' >"$tmp/want"
	grep "\"tool\":\"$t\"" "$tmp/out.raw" | cmp -s "$tmp/want" - ||
		fail "$t is not its last record: $(grep "\"tool\":\"$t\"" "$tmp/out.raw")"
done
# The merged figure: its passes counted, the wall times added, the first
# pass's timestamp, the budget's cut kept.
grep '"tool":"lat_x"' "$tmp/out.raw" | grep -q '"samples":18,"processes":6,' &&
    grep '"tool":"lat_x"' "$tmp/out.raw" |
    grep -q '"wall_s":0.75,"budget_hit":true,.*"timestamp":"2026-01-02T03:04:05Z","suite":{[^}]*"passes":2}' ||
	fail "lat_x not merged: $(grep '"tool":"lat_x"' "$tmp/out.raw")"

# The same to a file (its copy renamed over it: no other file left), and
# from standard input.
mkdir "$tmp/o" || exit 99
echo old >"$tmp/o/merged.jsonl" || exit 99
run "$bm" merge -o "$tmp/o/merged.jsonl" "$fx/passes.jsonl"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/out.raw" ] &&
    cmp -s "$fx/passes.out" "$tmp/o/merged.jsonl" &&
    [ "$(echo "$tmp"/o/* "$tmp"/o/.[!.]*)" = "$tmp/o/merged.jsonl $tmp/o/.[!.]*" ] ||
	fail "-o: exit $rc: $(echo "$tmp"/o/* "$tmp"/o/.[!.]*) $(cat "$tmp/err")"
"$bm" merge --output="$tmp/o/stdin.jsonl" - <"$fx/passes.jsonl" 2>"$tmp/err" &&
    cmp -s "$fx/passes.out" "$tmp/o/stdin.jsonl" ||
	fail "from standard input: $(cat "$tmp/err")"

# A bad input: exit 1, naming the file and the line; the output as it was.
echo old >"$tmp/o/kept.jsonl" || exit 99
expect_exit 1 "^benchmp merge: .*not-json\\.jsonl: line 2: invalid JSON" \
    "$bm" merge -o "$tmp/o/kept.jsonl" "$fx/not-json.jsonl"
expect_exit 1 '^benchmp merge: .*no-line\.jsonl: line 2: no "_line" number' \
    "$bm" merge -o "$tmp/o/kept.jsonl" "$fx/no-line.jsonl"
set -- "$tmp"/o/* "$tmp"/o/.[!.]*
[ "$(cat "$tmp/o/kept.jsonl")" = old ] && [ "$*" = "$tmp/o/kept.jsonl $tmp/o/merged.jsonl $tmp/o/stdin.jsonl $tmp/o/.[!.]*" ] ||
	fail "a failed merge touched its output: $*"
expect_exit 1 "^benchmp merge: $tmp/none\\.jsonl: cannot read: " \
    "$bm" merge "$tmp/none.jsonl"
expect_exit 1 "^benchmp merge: cannot write $tmp/no/such\\.jsonl: " \
    "$bm" merge -o "$tmp/no/such.jsonl" "$fx/passes.jsonl"
if [ -w /dev/full ]; then
	expect_exit 1 '^benchmp merge: cannot write /dev/full: ' \
	    "$bm" merge -o /dev/full "$fx/passes.jsonl"
	"$bm" merge "$fx/passes.jsonl" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q "writing to standard output failed" "$tmp/err" ||
		fail ">/dev/full: exit $rc: $(cat "$tmp/err")"
fi

# Usage errors exit 2 with the usage line; --help and -V exit 0.
expect_exit 2 'missing the records file' "$bm" merge
expect_exit 2 "one records file, not more: '$fx/no-line.jsonl'" \
    "$bm" merge "$fx/passes.jsonl" "$fx/no-line.jsonl"
expect_exit 2 "unknown option '--bogus'" "$bm" merge --bogus "$fx/passes.jsonl"
expect_exit 2 "an option needs a value: '-o'" "$bm" merge -o
grep -qx 'usage: benchmp merge \[-o FILE\] RAW\.jsonl (--help says more)' \
    "$tmp/err" || fail "no usage line: $(cat "$tmp/err")"
expect_line '^benchmp merge [0-9]' "$bm" merge -V
run "$bm" help merge
[ "$rc" -eq 0 ] && head -n 1 "$tmp/out" | grep -qx 'usage: benchmp merge \[-o FILE\] RAW\.jsonl' ||
	fail "help merge: exit $rc: $(head -n 2 "$tmp/out")"

# Records a tool wrote itself (no suite.figure) that differ in a
# parameter alone are two figures, not two passes of one: each written as
# read; two passes of one size still merge.
grep '"tool":"bw_y"' "$fx/passes.jsonl" | sed 's/,"suite":{[^}]*}//' \
    >"$tmp/bw.jsonl" || exit 99
{
	sed 's/"params":{}/"params":{"size":1048576}/' "$tmp/bw.jsonl"
	sed 's/^{"_line":1,/{"_line":2,/; s/"params":{}/"params":{"size":8388608}/' \
	    "$tmp/bw.jsonl"
	sed 's/^{"_line":1,/{"_line":3,/; s/"params":{}/"params":{"size":8388608}/' \
	    "$tmp/bw.jsonl"
} >"$tmp/sizes.jsonl" || exit 99
run "$bm" merge "$tmp/sizes.jsonl"
[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out.raw")" -eq 2 ] &&
    head -n 1 "$tmp/out.raw" | grep '"params":{"size":1048576}' |
    grep -vq '"passes"' &&
    sed -n 2p "$tmp/out.raw" | grep '"params":{"size":8388608}' |
    grep -q '"suite":{"passes":2}' ||
	fail "two sizes merged as one figure: exit $rc: $(cat "$tmp/out.raw" "$tmp/err")"

# A figure its tool called unsteady: merged, it shows no interval either,
# and is noisy.
grep '"tool":"lat_x"' "$fx/passes.jsonl" |
    sed 's/"better":"lower",/&"unsteady":"a state no run sees",/' \
    >"$tmp/unsteady.jsonl" || exit 99
run "$bm" merge "$tmp/unsteady.jsonl"
[ "$rc" -eq 0 ] && grep -q '"passes":2' "$tmp/out.raw" &&
    grep -q '"ci_lo":null,"ci_hi":null,"ci_level":0,' "$tmp/out.raw" &&
    grep -q '"noisy":true,' "$tmp/out.raw" ||
	fail "unsteady: exit $rc: $(cat "$tmp/out.raw" "$tmp/err")"

# A name of one of its own descriptors is written through it, at its
# offset, never renamed over: /dev/stdout redirected to a file (a link
# into /proc, which a rename would replace), and /dev/fd/3 opened for
# appending.
"$bm" merge -o "$tmp/o/merged2.jsonl" "$fx/passes.jsonl" 2>/dev/null ||
	fail "merge to a file failed"
if [ -L /dev/stdout ]; then
	"$bm" merge -o /dev/stdout "$fx/passes.jsonl" >"$tmp/o/via-stdout" \
	    2>"$tmp/err" && cmp -s "$tmp/o/merged2.jsonl" "$tmp/o/via-stdout" &&
	    [ -L /dev/stdout ] ||
		fail "-o /dev/stdout to a file: $(cat "$tmp/err")"
fi
if [ -d /dev/fd ]; then
	echo first >"$tmp/o/fd3"
	"$bm" merge -o /dev/fd/3 "$fx/passes.jsonl" 3>>"$tmp/o/fd3" \
	    2>"$tmp/err" && [ "$(head -n 1 "$tmp/o/fd3")" = first ] &&
	    [ "$(sed 1d "$tmp/o/fd3" | cksum)" = "$(cksum <"$tmp/o/merged2.jsonl")" ] ||
		fail "-o /dev/fd/3 appending: $(cat "$tmp/err")"
fi

finish
