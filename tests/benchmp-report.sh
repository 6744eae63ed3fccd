#!/bin/sh
# benchmp-report.sh: benchmp report on fixture records: names escaped and cut, numbers in four digits, the machine, benchmp compare's verdicts, its errors.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
fx=$top_srcdir/tests/fixtures

# One run beside its machine description, the page written beside it.
mkdir "$tmp/one" && cp "$fx/report/names.jsonl" "$tmp/one/names.jsonl" &&
    cp "$fx/report/names.machine.json" "$tmp/one/names.machine.json" ||
	exit 99
run "$bm" report "$tmp/one/names.jsonl"
[ "$rc" -eq 0 ] || fail "one run: exit $rc: $(cat "$tmp/err")"
html=$tmp/one/names.html
[ -s "$html" ] || fail "no $html"
[ ! -s "$tmp/out" ] || fail "one run: stdout: $(head -n 2 "$tmp/out")"
head -n 1 "$html" | grep -qx '<!DOCTYPE html>' || fail "no doctype"
tail -n 1 "$html" | grep -qx '</body></html>' || fail "the page does not end"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$html" 2>"$tmp/xml" ||
		fail "not well-formed: $(head -n 3 "$tmp/xml")"
fi
[ "$(ls -A "$tmp/one")" = "$(printf '%s\n' names.html names.jsonl \
    names.machine.json)" ] || fail "files left beside the page: $(ls -A "$tmp/one")"

# has WHAT TEXT: the page holds TEXT.
has() {
	grep -qF -- "$2" "$html" || fail "$1: no '$2'"
}

# A name with <, & and " escaped in its row and in its bar's title; a
# unit with < and >, a name with '; a control character replaced.
has "escaped row" '<tr><td>a&lt;b &amp; &quot;c&quot;</td><td class="n">1.235</td><td>us</td><td class="n">1.200 to 1.300 (95%)</td><td class="n">1.23%</td>'
has "escaped title" '<g class="bar"><title>a&lt;b &amp; &quot;c&quot;: 1.235 us, interval 1.200 to 1.300 (95%)</title>'
has "escaped unit" '<td>&lt;MB/s&gt;</td>'
has "escaped quote" '<tr><td>x&#39;s &lt;bandwidth&gt;</td>'
has "control character" "<tr><td>ctl$(printf '\357\277\275')name</td>"
! grep -q 'a<b\|x'"'"'s' "$html" || fail "a name not escaped"
! LC_ALL=C grep -q "$(printf '\001')" "$html" || fail "a control character on the page"
# Four significant digits at every magnitude, whole numbers beyond them;
# a coefficient of variation below 0.01% as such.
for row in 'tiny|0.0001235' 'thousands|12346' 'whole|5.000' \
    'huge|1.5e+20' 'negative|-2.500' 'zero|0' \
    'x&#39;s &lt;bandwidth&gt;|987654321'; do
	has "number of ${row%%|*}" "<tr><td>${row%%|*}</td><td class=\"n\">${row#*|}</td>"
done
has "a small cv" '<td class="n">&lt;0.01%</td>'
# A bar's label cut to 46 columns: 45 and an ellipsis, a wide character
# counted as two.
has "a long label" 'class="lab">a figure whose name is far longer than forty-…</text>'
has "a wide label" 'class="lab">帯域幅帯域幅帯域幅帯域幅帯域幅帯域幅帯域幅帯…</text>'
has "flagged share" '<p id="flagged">Flagged: 1 of 11 figures (9%)'
has "note" '<td>noisy</td></tr>'
# The machine description found beside the records: members, sizes, the
# machine check's warnings with what each found.
has "machine" '<dt>host</dt><dd>fixture&lt;1&gt;</dd>'
has "machine sizes" '<dt>caches</dt><dd>l1d=32K, l2=1M, l3=8M</dd>'
has "machine check" '<dt>check</dt><dd>1 warning: smt (on &amp; 2 threads)</dd>'
# --machine: another description; none at all without one.
printf '{"cpus":{"n":1024}}\n' >"$tmp/other.json"
run "$bm" report --output "$tmp/m.html" --machine "$tmp/other.json" \
    "$fx/report/names.jsonl"
[ "$rc" -eq 0 ] && grep -qF '<dt>cpus</dt><dd>n=1K</dd>' "$tmp/m.html" ||
	fail "--machine: exit $rc: $(cat "$tmp/err")"
run "$bm" report --output "$tmp/n.html" "$fx/verdict/real.jsonl"
[ "$rc" -eq 0 ] && grep -qF '<p>No machine description.</p>' "$tmp/n.html" ||
	fail "no machine: exit $rc: $(cat "$tmp/err")"

# Two runs built from compare's fixtures (a figure each, its case the
# fixture's name): each row of the comparison bears the verdict benchmp
# compare gives that figure, worse rows marked worse.
for f in "$fx"/verdict/*.jsonl; do
	n=$(basename "$f" .jsonl)
	[ "$n" != real ] || continue
	sed -n 1p "$f" | sed "s/\"case\":\"[^\"]*\"/\"case\":\"$n\"/" >>"$tmp/a.jsonl"
	sed -n 2p "$f" | sed "s/\"case\":\"[^\"]*\"/\"case\":\"$n\"/" >>"$tmp/b.jsonl"
done
run "$bm" report --output "$tmp/two.html" "$tmp/a.jsonl" "$tmp/b.jsonl"
[ "$rc" -eq 0 ] || fail "two runs: exit $rc: $(cat "$tmp/err")"
"$bm" compare --tsv --all "$tmp/a.jsonl" "$tmp/b.jsonl" >"$tmp/tsv" 2>/dev/null
[ "$(wc -l <"$tmp/tsv")" -ge 20 ] || fail "compare gave $(wc -l <"$tmp/tsv") rows"
grep -q '^worse	' "$tmp/tsv" && grep -q '^same	' "$tmp/tsv" &&
    grep -q '^failed	' "$tmp/tsv" || fail "compare's fixtures lack a verdict"
while IFS='	' read -r verdict name _; do
	label=${name% (*)}
	class=$(printf '%s' "$verdict" | tr -cd '[:lower:]')
	grep -qF "<tr class=\"$class\"><td>$label</td>" "$tmp/two.html" ||
		fail "two runs: $label is not marked $verdict"
	grep -qF "<title>$label: B/A " "$tmp/two.html" ||
		fail "two runs: $label not in the ratio chart"
done <"$tmp/tsv"
worse=$(grep -c '^worse	' "$tmp/tsv")
grep -qF "$worse figure(s) worse." "$tmp/two.html" || fail "no count of the worse"
grep -qF '<title>benchmp report: a.jsonl and b.jsonl</title>' \
    "$tmp/two.html" || fail "the title does not name both runs"
# B's own figure is listed, never dropped.
printf '%s\n' '{"tool":"lat_z","case":"own","unit":"us","value":1}' \
    >>"$tmp/b.jsonl"
run "$bm" report --output "$tmp/own.html" "$tmp/a.jsonl" "$tmp/b.jsonl"
[ "$rc" -eq 0 ] && grep -qF '<tr><td>lat_z own</td><td>B</td><td class="n">1.000</td>' \
    "$tmp/own.html" || fail "B's own figure not listed: exit $rc"

# A file that is not records: exit 1, its line named, nothing written,
# nothing left beside the page.
mkdir "$tmp/bad" || exit 99
bad() {
	printf '%s\n%s\n' "$(head -n 1 "$fx/report/names.jsonl")" "$2" \
	    >"$tmp/bad/bad.jsonl"
	expect_exit 1 "bad.jsonl: $1" "$bm" report "$tmp/bad/bad.jsonl"
	[ "$(ls -A "$tmp/bad")" = bad.jsonl ] ||
		fail "$1: files written: $(ls -A "$tmp/bad")"
}
bad 'line 2: invalid JSON at byte 1' 'not json'
bad 'line 2: not a record' '[1]'
bad 'line 2: params is an array, not an object' '{"tool":"x","params":[1]}'
bad 'line 2: invalid JSON at byte [0-9]+: a number out of range' \
    '{"tool":"x","value":1e999}'
: >"$tmp/empty.jsonl"
expect_exit 1 'empty.jsonl: holds no records' "$bm" report "$tmp/empty.jsonl"
printf '%s\n' '{"tool":"x","value":1,"aggregate":false}' >"$tmp/rank.jsonl"
expect_exit 1 'rank.jsonl: holds no records' "$bm" report "$tmp/rank.jsonl"
expect_exit 1 'nonexistent.jsonl: cannot read' "$bm" report \
    "$tmp/nonexistent.jsonl"
printf '[1]\n' >"$tmp/m.json"
expect_exit 1 'm.json: not a machine description: not an object' \
    "$bm" report --output "$tmp/x.html" --machine "$tmp/m.json" \
    "$fx/report/names.jsonl"
[ ! -e "$tmp/x.html" ] || fail "a page written with a bad machine"
# Usage errors: exit 2 and the usage line.
expect_exit 2 'missing the results file' "$bm" report
grep -q '^usage: benchmp report ' "$tmp/err" || fail "no usage line"
expect_exit 2 "unknown option '--bogus'" "$bm" report --bogus "$tmp/a.jsonl"
expect_exit 2 'at most two results files' "$bm" report "$tmp/a.jsonl" \
    "$tmp/a.jsonl" "$tmp/a.jsonl"
expect_exit 2 "an option needs a value: '--output'" "$bm" report --output
expect_exit 2 '--output needs a file name' "$bm" report --output= \
    "$tmp/a.jsonl"
# Its help and version, here and through benchmp help.
run "$bm" report --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp report ' "$tmp/out" ||
	fail "--help: exit $rc"
run "$bm" help report
[ "$rc" -eq 0 ] && grep -q -- '--machine FILE' "$tmp/out" ||
	fail "help report: exit $rc"
expect_line '^benchmp report [0-9][0-9.]*$' "$bm" report -V

finish
