#!/bin/sh
# bench-frontier.sh: scripts/bench/bench-frontier.sh on two small sets of
# served records whose flags, moves and intervals are known by hand;
# bad usage exits 2.
. "$top_srcdir/tests/lib.sh"

[ -x "$top_builddir/tests/bench/rederive" ] || {
	echo "FAIL: $me: tests/bench/rederive not built" >&2; exit 1; }
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
frontier=$top_srcdir/scripts/bench/bench-frontier.sh

# rec FILE NAME VALUE LO HI [NOISY]: a served record of figure NAME, its
# median's interval [LO, HI], its noisy flag NOISY (false), appended to
# FILE.
rec() {
	printf '{"tool":"t","case":"%s","served":true,"value":%s,"values":[%s],"median_ci_lo":%s,"median_ci_hi":%s,"bimodal":false,"noisy":%s}\n' \
	    "$2" "$3" "$3" "$4" "$5" "${6:-false}" >>"$1"
}
mkdir -p "$tmp/a/run1/vm" "$tmp/a/run2/vm" "$tmp/b/run1/vm" \
    "$tmp/b/run2/vm" || exit 99
# Set a: f1 steady, its interval tight; f2 moved by 10%, its interval
# wide (noisy at every floor), recorded noisy.
rec "$tmp/a/run1/vm/x.jsonl" f1 100 99.9 100.1
rec "$tmp/a/run2/vm/x.jsonl" f1 100.5 100.4 100.6
rec "$tmp/a/run1/vm/x.jsonl" f2 100 95 105 true
rec "$tmp/a/run2/vm/x.jsonl" f2 110 105 115 true
# Set b: both steady and tight; f2 moved by 1%, inside its interval;
# f1 recorded noisy in its first run.
rec "$tmp/b/run1/vm/x.jsonl" f1 100 99.9 100.1 true
rec "$tmp/b/run2/vm/x.jsonl" f1 100.2 100.1 100.3
rec "$tmp/b/run1/vm/x.jsonl" f2 100 99.9 100.1
rec "$tmp/b/run2/vm/x.jsonl" f2 101 100.9 101.1
# A record not served is not counted.
printf '{"tool":"t","case":"f3","value":1,"values":[1],"median_ci_lo":0,"median_ci_hi":2}\n' \
    >>"$tmp/a/run1/vm/x.jsonl"

run sh "$frontier" --floors 0.02 "$top_builddir" "$tmp/a" "$tmp/b"
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$tmp/err")"
# expect TAG TEXT: the line of TAG holds TEXT.
expect() {
	grep "^$1 " "$tmp/out" | grep -qF -- "$2" ||
		fail "$1: no '$2' in: $(grep "^$1 " "$tmp/out")"
}
# The floor: a's f2 flagged twice, moved; 3 of 4 next runs inside (a's
# f2 moved past its interval of +-7.3).  rederive -n gives the library's
# interval.
expect 'floor 0.02' 'flagged 25.0%  precision 100.0%  recall 100.0%  next run inside 75.0%  (8 figure runs, 2 sets)'
# The flags recorded: a's f2 twice, b's f1 once.
expect 'recorded' 'flagged 37.5%  precision 66.7%  recall 100.0%'
expect 'every figure' 'flagged 100.0%  precision 25.0%  recall 100.0%'
# History alone: the other set's shares are 0, but 1 for b's f2, which
# is flagged, as a's moved, and did not move; a's f2 is not, as b's did
# not, and did.  No line for the highest share, which flags nothing.
expect 'history 0.00' 'flagged 25.0%  precision  0.0%  recall  0.0%'
expect 'history 0.00 or 0.02' 'flagged 50.0%  precision 50.0%  recall 100.0%'
grep -q '^history 1.00' "$tmp/out" && fail "a line for the highest share"
# Own share: f2 moved in half the sets, f1 in none.
expect 'own 0.00' 'flagged 50.0%  precision 50.0%  recall 100.0%'
grep -q '^own 0.50' "$tmp/out" && fail "a line for the highest own share"
# The reach: history alone never reaches 95% (every figure's 25%); with
# the floor, and the own share, 50%.
grep -qxF 'at a recall of 95% or more, the highest precision: history 25.0% (every figure), history or floor 0.02 50.0%, own 50.0%' \
    "$tmp/out" || fail "the reach: $(grep '^at a recall' "$tmp/out")"

# Bad usage: exit 2 with a message.
for args in "$top_builddir $tmp/a" "--floors 2 $top_builddir $tmp/a $tmp/b" \
    "--floors 0.5x $top_builddir $tmp/a $tmp/b" \
    "--bogus $top_builddir $tmp/a $tmp/b" "$tmp/a $tmp/b $tmp/b" ""; do
	# shellcheck disable=SC2086 # (the words of args)
	run sh "$frontier" $args
	[ "$rc" -eq 2 ] || fail "bench-frontier.sh $args: exit $rc, not 2"
	[ -s "$tmp/err" ] || fail "bench-frontier.sh $args: no message"
done
run "$top_builddir/tests/bench/rederive" -n 1
[ "$rc" -eq 2 ] && grep -q 'not a floor' "$tmp/err" ||
	fail "rederive -n 1: exit $rc: $(cat "$tmp/err")"
printf '100\tx\t101\n' >"$tmp/bad"
"$top_builddir/tests/bench/rederive" -n 0.02 <"$tmp/bad" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "rederive -n on a bad line: exit $rc, not 1"
# A set of one run cannot say whether a figure moved.
rm -r "$tmp/b/run2" || exit 99
run sh "$frontier" "$top_builddir" "$tmp/a" "$tmp/b"
[ "$rc" -eq 2 ] && grep -q 'fewer than two runs' "$tmp/err" ||
	fail "one run: exit $rc: $(cat "$tmp/err")"

finish
