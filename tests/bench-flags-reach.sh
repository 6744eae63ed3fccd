#!/bin/sh
# bench-flags-reach.sh: scripts/bench/bench-flags-reach.sh on three small
# sets made here, whose moves and flags are known, gives the counts and
# shares worked out by hand below; bad usage exits 2.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
reach=$top_srcdir/scripts/bench/bench-flags-reach.sh

# put SET RUN FIGURE VALUE NOISY: one record in SET's run RUN.
put() {
	mkdir -p "$tmp/$1/run$2/host"
	printf '{"tool":"t","suite":{"figure":"%s"},"value":%s,"values":[%s],"noisy":%s}\n' \
	    "$3" "$4" "$4" "$5" >>"$tmp/$1/run$2/host/r.jsonl"
}
# Figure A moves 10% in every set and is flagged in each run; B moves 10%
# in set 1 alone and is never flagged; C moves 1% (not a move) and is
# flagged in set 2.
for s in 1 2 3; do
	put "s$s" 1 A 100 true
	put "s$s" 2 A 110 true
	put "s$s" 1 B 100 false
	if [ "$s" = 1 ]; then put "s$s" 2 B 110 false; else put "s$s" 2 B 100.5 false; fi
	c=false; [ "$s" = 2 ] && c=true
	put "s$s" 1 C 100 "$c"
	put "s$s" 2 C 101 "$c"
done
# Hand-worked: 18 figure-runs, 8 of them moving (A's 6, B's 2 in set 1).
# Recorded: A's 6 and C's 2 flagged, 6 of them moving.  Own shares: A 1,
# B 1/3, C 0.  The other sets' shares: A 1; B 0 in set 1 and 0.5 in sets
# 2 and 3; C 0.
cat >"$tmp/want" <<'END'
3 sets, 3 figures, 18 figure-runs, of them moved >3%: 8 (44%)
as recorded: flagged 8 (44%), precision 75%, recall 75%
each figure's own share of moving sets (better than any rule of its past):
  share >= 1.00: flagged 6 (33%), precision 100%, recall 75%
  share >= 0.33: flagged 12 (67%), precision 67%, recall 100%
  share >= 0.00: flagged 18 (100%), precision 44%, recall 100%
  at a recall of 95% or more: precision 67% at most
the other sets' share (leave this set out):
  share >= 1.00: flagged 6 (33%), precision 100%, recall 75%
  share >= 0.50: flagged 10 (56%), precision 60%, recall 75%
  share >= 0.00: flagged 18 (100%), precision 44%, recall 100%
  at a recall of 95% or more: precision 44% at most
END
run sh "$reach" "$tmp/s1" "$tmp/s2" "$tmp/s3"
if [ "$rc" -ne 0 ]; then
	fail "three sets: exit $rc: $(cat "$tmp/err")"
elif ! cmp -s "$tmp/out" "$tmp/want"; then
	fail "three sets: $(diff "$tmp/want" "$tmp/out")"
fi

# Bad usage: one set, an option, a missing directory, a set of one run.
expect_exit 2 'usage' sh "$reach" "$tmp/s1"
expect_exit 2 'unknown option' sh "$reach" --rules "$tmp/s1" "$tmp/s2"
expect_exit 2 'not a directory' sh "$reach" "$tmp/s1" "$tmp/none"
rm -r "$tmp/s3/run2"
expect_exit 2 'fewer than two runs' sh "$reach" "$tmp/s1" "$tmp/s3"
printf 'not json\n' >"$tmp/s2/run2/host/r.jsonl"
expect_exit 2 'not a record' sh "$reach" "$tmp/s1" "$tmp/s2"

[ "$failures" -eq 0 ]
