#!/bin/sh
# bench-flags.sh: scripts/bench/bench-flags.sh --rules on the recorded quiet,
# budgeted and loaded suites gives the numbers doc/measurements.md quotes
# for the robust figure's rules, and the library's rule is the one chosen
# there (twice the distance to the third-best process, from three
# processes: "five", the rule before, gives the numbers quoted for it);
# bad usage exits 2.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
flags=$top_srcdir/scripts/bench/bench-flags.sh
data=$top_srcdir/tests/data
[ -x "$top_builddir/tests/bench/rederive" ] || {
	echo "FAIL: $me: tests/bench/rederive not built" >&2; exit 1; }

# The line of one rule, "flagged ... next inside ..." (field shown).
line_of() {
	grep "^rule $1 " "$tmp/out" | sed 's/^[^:]*: //'
}
# expect RULE TEXT: the rule's line holds TEXT.
expect() {
	case $(line_of "$1") in
	*"$2"*) ;;
	*) fail "$suites: rule $1: no '$2' in: $(line_of "$1")" ;;
	esac
}

# rules_on SET: bench-flags.sh --rules on tests/data/suite-SET-{1,2,3}.
rules_on() {
	suites=$1
	run sh "$flags" --rules "$top_builddir" "$data/suite-$1-1.jsonl" \
	    "$data/suite-$1-2.jsonl" "$data/suite-$1-3.jsonl"
	[ "$rc" -eq 0 ] || fail "$1: exit $rc: $(cat "$tmp/err")"
}

rules_on quiet
expect median 'flagged 206 of 273'
expect median 'unflagged in 6 of their 102 runs'
expect median 'interval 147 of 182'
expect cluster 'flagged 178 of 273'
expect cluster 'unflagged in 16 of their 102 runs'
expect third2 'flagged 204 of 273'
expect third2 'within 3% CV 46 of 91'
expect third2 'unflagged in 7 of their 102 runs'
expect third2 'interval 166 of 182'
expect five 'flagged 221 of 273'
expect five 'within 3% CV 45 of 91'
expect five 'unflagged in 3 of their 120 runs'
expect five 'interval 151 of 182'
# The library's rule: third2 in log space, noisy past 3% alone.
expect library 'flagged 218 of 273'
expect library 'unflagged in 2 of their 102 runs'
expect library 'interval 165 of 182'
grep -q 'robust figures alone: .*median CV 2\.9%' "$tmp/out" ||
	fail "quiet: no robust-alone line with its CV: $(cat "$tmp/out")"

# The budgeted suites (three quiet runs of benchmp-run at its 90 s
# budget, most figures with three or four processes): where the robust
# figure from three processes matters.
rules_on budget
expect third2 'within 3% CV 51 of 102'
expect third2 'interval 185 of 204'
expect third2 'flagged 258 of 306'
expect third2 'unflagged in 7 of their 117 runs'
expect five 'flagged 270 of 306'
expect five 'within 3% CV 32 of 102'
expect five 'interval 136 of 204'
expect five 'unflagged in 3 of their 186 runs'
expect median 'interval 148 of 204'
expect library 'flagged 269 of 306'
expect library 'unflagged in 4 of their 117 runs'
expect library 'interval 185 of 204'

suites=loaded
run sh "$flags" --rules "$top_builddir"
[ "$rc" -eq 0 ] || fail "loaded: exit $rc: $(cat "$tmp/err")"
expect median 'flagged 182 of 327'
expect median 'interval 197 of 218'
expect third2 'flagged 201 of 327'
expect third2 'unflagged in 6 of their 72 runs'
expect third2 'interval 205 of 218'
expect five 'flagged 218 of 327'
expect five 'unflagged in 3 of their 72 runs'
expect five 'interval 201 of 218'
expect library 'flagged 216 of 327'
expect library 'unflagged in 4 of their 72 runs'
expect library 'interval 204 of 218'

# Without --rules, one "now" line, as before.
run sh "$flags" "$top_builddir"
[ "$rc" -eq 0 ] && [ "$(grep -c '^now (field shown): ' "$tmp/out")" -eq 1 ] ||
	fail "default: exit $rc, output: $(cat "$tmp/out")"

# Bad usage: exit 2 with a message.
for args in "--rules" "--bogus $top_builddir" ""; do
	# shellcheck disable=SC2086 # (the words of args)
	run sh "$flags" $args
	[ "$rc" -eq 2 ] && grep -q 'usage: bench-flags.sh' "$tmp/err" ||
		fail "bench-flags.sh $args: exit $rc: $(cat "$tmp/err")"
done
run "$top_builddir/tests/bench/rederive" -r nope
[ "$rc" -eq 2 ] && grep -q 'nope: no such rule' "$tmp/err" ||
	fail "rederive -r nope: exit $rc: $(cat "$tmp/err")"

finish
