#!/bin/sh
# sweeps-budget.sh: the sweeps (cache, tlb, line, par_mem, par_ops,
# lat_mem_rd) keep --max-time between the points of their plan: a bound
# spent by the first point leaves the rest unmeasured, said on stderr and
# in the records (budget_hit, measured points, points_planned,
# missing_from), or, where the points measured give no answer, exit 1
# naming the bound.  The first point is always measured, so a bound of
# 0.01 s is past after it on any machine, loaded or not.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# cut TOOL PLANNED MISSING_FROM ARGS...: the tool's last record is cut
# after one point of PLANNED, the next being MISSING_FROM.
cut() {
	t=$1 planned=$2 from=$3
	shift 3
	run "$bin/$t" --json --max-time=0.01 "$@"
	if [ "$rc" -ne 0 ]; then
		fail "$t $*: exit $rc: $(head -n 2 "$tmp/err")"
		return
	fi
	grep -q "^$t: time bound (--max-time 0.01 s): $((planned - 1)) of $planned .* not measured, from .* on (budget_hit)\$" \
	    "$tmp/err" || fail "$t $*: stderr: $(cat "$tmp/err")"
	[ "$(grep -c '^{' "$tmp/out")" -eq 1 ] ||
		fail "$t $*: not one record: $(cat "$tmp/out")"
	tail -n 1 "$tmp/out" | jq -e --argjson p "$planned" --arg f "$from" '
	    .budget_hit == true and .measured.points == 1 and
	    .measured.points_planned == $p and
	    (.measured.missing_from | tostring) == $f' >/dev/null ||
		fail "$t $*: record: $(tail -n 1 "$tmp/out" | jq -c '[.budget_hit, .measured]')"
}

# par_mem: 4k, 8k ... 64k.
cut par_mem 5 8192 -M 64k
# lat_mem_rd: 512 bytes to 1 MB in steps of 1.5 and 2, one stride.
cut lat_mem_rd 23 768 1 64
# par_ops: the 16 operations, the next named by its label.
cut par_ops 16 "integer add"

# No answer from the points measured: exit 1 naming the bound.
for c in "cache -M 4m" "line -M 8m" "tlb -M 1m"; do
	# shellcheck disable=SC2086 # (the tool and its arguments)
	run "$bin/"$c --json --max-time=0.01
	[ "$rc" -eq 1 ] && grep -q 'time bound (--max-time 0.01 s)' "$tmp/err" ||
		fail "$c --max-time=0.01: exit $rc: $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "$c --max-time=0.01: a record: $(cat "$tmp/out")"
done

# tlb: a bound that comes after the jump cuts the bisection of the knee,
# which is no error: the coarser reach, budget_hit, the points left and
# the first of them (between the reach and the first miss), and the line
# on stderr.  Where the bound falls depends on the load, so every outcome
# is accepted that is right: no jump (exit 1 naming the bound), a cut
# bisection as said, or an uncut one with nothing missing.
for mt in 0.3 0.4 0.5; do
	run env ENOUGH=100 "$bin/tlb" --json --max-time=$mt
	if [ "$rc" -eq 1 ]; then
		grep -q "time bound (--max-time $mt" "$tmp/err" ||
			fail "tlb --max-time=$mt: exit 1: $(cat "$tmp/err")"
		continue
	fi
	[ "$rc" -eq 0 ] || fail "tlb --max-time=$mt: exit $rc: $(cat "$tmp/err")"
	if jq -e '.measured.missing_from != null' "$tmp/out" >/dev/null; then
		jq -e '.budget_hit == true and
		    .measured.points < .measured.points_planned and
		    .measured.missing_from > .measured.pages and
		    .measured.missing_from < .measured.first_miss_pages' \
		    "$tmp/out" >/dev/null ||
			fail "tlb --max-time=$mt: $(jq -c '.measured' "$tmp/out")"
		grep -q '^tlb: time bound (--max-time .*, from [0-9]* pages on (budget_hit)$' "$tmp/err" ||
			fail "tlb --max-time=$mt: stderr: $(cat "$tmp/err")"
	else
		jq -e '.measured.points == null' "$tmp/out" >/dev/null ||
			fail "tlb --max-time=$mt: $(jq -c '.measured' "$tmp/out")"
	fi
done

# Without a bound that bites, nothing is missing.
run "$bin/par_mem" --json -M 16k
[ "$rc" -eq 0 ] || fail "par_mem -M 16k: exit $rc: $(head -n 2 "$tmp/err")"
jq -e -s 'length == 3 and all(.measured.missing_from == null)' "$tmp/out" \
    >/dev/null || fail "par_mem -M 16k: $(jq -c '.measured' "$tmp/out")"
! grep -q 'time bound' "$tmp/err" || fail "par_mem -M 16k: $(cat "$tmp/err")"

no_children
finish
