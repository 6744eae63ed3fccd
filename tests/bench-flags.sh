#!/bin/sh
# bench-flags.sh: scripts/bench-flags.sh --rules on the recorded quiet and
# loaded suites gives the numbers benchmp(3) quotes for the robust
# figure's rules, and the library's rule is the one chosen there (twice
# the distance to the third-best process); bad usage exits 2.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
flags=$top_srcdir/scripts/bench-flags.sh
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

suites=quiet
run sh "$flags" --rules "$top_builddir" "$data/suite-quiet-1.jsonl" \
    "$data/suite-quiet-2.jsonl" "$data/suite-quiet-3.jsonl"
[ "$rc" -eq 0 ] || fail "quiet: exit $rc: $(cat "$tmp/err")"
expect median 'flagged 211 of 273'
expect median 'unflagged in 8 of their 120 runs'
expect median 'interval 138 of 182'
expect cluster 'flagged 184 of 273'
expect cluster 'unflagged in 17 of their 120 runs'
expect third2 'flagged 210 of 273'
expect third2 'unflagged in 8 of their 120 runs'
expect third2 'interval 152 of 182'
[ -n "$(line_of library)" ] && [ "$(line_of library)" = "$(line_of third2)" ] ||
	fail "quiet: the library's rule is not third2: $(line_of library)"
grep -q 'robust figures alone: .*median CV 2\.0%' "$tmp/out" ||
	fail "quiet: no robust-alone line with its CV: $(cat "$tmp/out")"

suites=loaded
run sh "$flags" --rules "$top_builddir"
[ "$rc" -eq 0 ] || fail "loaded: exit $rc: $(cat "$tmp/err")"
expect median 'flagged 195 of 327'
expect median 'interval 198 of 218'
expect third2 'flagged 207 of 327'
expect third2 'unflagged in 5 of their 72 runs'
expect third2 'interval 202 of 218'
[ "$(line_of library)" = "$(line_of third2)" ] ||
	fail "loaded: the library's rule is not third2: $(line_of library)"

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
