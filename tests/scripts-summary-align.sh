#!/bin/sh
# scripts-summary-align.sh: benchmp-summary keeps its columns in line when
# figure names are long or hold UTF-8 (accents, combining marks, wide
# characters), and prints a coefficient of variation with two decimals,
# however small.
. "$top_srcdir/tests/lib.sh"

summ=$top_srcdir/scripts/benchmp-summary
data=$top_srcdir/tests/data
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
# The columns are measured with wc -L, which counts display columns in a
# UTF-8 locale (a wide character two, a combining mark none).
if [ "$(printf 'e\314\201\346\265\213\n' | LC_ALL=C.UTF-8 wc -L 2>/dev/null)" != 3 ]; then
	echo "$me: no C.UTF-8 locale where wc -L counts display columns: skipped" >&2
	exit 77
fi

# One record of run-a.jsonl under six names in one group: short, ASCII
# longer than the default column, accented, a combining mark, wide
# characters and an emoji; each with its own cv, from tiny to large.
r=$(head -n 1 "$data/run-a.jsonl")
i=0
for n in 'lat_syscall null' \
    'a figure whose name is much longer than thirty-two columns' \
    'lat_rés_über ça' \
    "lat_syscall cafe$(printf '\314\201') [é]" \
    'lat_测试 名前' \
    "lat_$(printf '\360\237\232\200') rocket"; do
	i=$((i + 1))
	cv=$(echo "$i" | awk '{ split("0.00008524 0.0000001 0 0.0085 0.1234 2.5", c, " "); print c[$1] }')
	printf '%s\n' "$r" | jq -c --arg n "$n" --argjson cv "$cv" --argjson b "$i" \
	    '. + {cv: $cv, suite: {group: "processor", figure: $n, batch: $b}}'
done >"$tmp/names.jsonl" || exit 99

LC_ALL=C.UTF-8
export LC_ALL
run "$summ" "$tmp/names.jsonl"
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$tmp/err")"
grep '^  ' "$tmp/out" >"$tmp/rows"
[ "$(wc -l <"$tmp/rows")" -eq 7 ] || fail "not a header and six rows: $(cat "$tmp/out")"

# Each row up to the end of its value, and the header up to the end of
# "value", end in the same display column; so do the rows up to the end
# of their cv.
while IFS= read -r l; do
	printf '%s\n' "$l" | sed -E 's/^(.* +(value|[0-9.]+)) .*/\1/' |
	    wc -L
done <"$tmp/rows" | sort -u >"$tmp/ends"
[ "$(wc -l <"$tmp/ends")" -eq 1 ] ||
	fail "values not in one column (ends $(tr '\n' ' ' <"$tmp/ends")): $(cat "$tmp/rows")"
while IFS= read -r l; do
	printf '%s\n' "$l" | sed -E 's/^(.* (cv|[<0-9.]+%))( .*)?$/\1/' | wc -L
done <"$tmp/rows" | sort -u >"$tmp/ends"
[ "$(wc -l <"$tmp/ends")" -eq 1 ] ||
	fail "cv not in one column (ends $(tr '\n' ' ' <"$tmp/ends")): $(cat "$tmp/rows")"
# The long name is whole, not cut.
grep -qF '  a figure whose name is much longer than thirty-two columns ' "$tmp/rows" ||
	fail "the long name is cut: $(cat "$tmp/rows")"

# The cv: two decimals, "<0.01%" below them, never an exponent.
for w in 'lat_syscall null:0.01%' 'longer than:<0.01%' 'lat_rés_über:0.00%' \
    'cafe:0.85%' '测试:12.34%' 'rocket:250.00%'; do
	grep -F "${w%%:*}" "$tmp/rows" | grep -Eq " ${w#*:}(  |$)" ||
		fail "cv of ${w%%:*} is not ${w#*:}: $(grep -F "${w%%:*}" "$tmp/rows")"
done
! grep -q 'e-[0-9]' "$tmp/out" || fail "a number with an exponent: $(cat "$tmp/out")"
finish
