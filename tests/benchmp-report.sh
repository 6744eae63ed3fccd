#!/bin/sh
# benchmp-report.sh: benchmp report on fixture records: names escaped and cut, numbers in four digits, the machine, benchmp compare's verdicts, values near the largest double, its errors.
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

# The host's moves, after the flagged share and before the machine: the
# run against its past runs (history.past_median) and its clock, in
# benchmp summary's words.  hist FILE MHZ: the records of FILE (mhz at
# 3000 MHz, lat_ops 1.2 ns, par_ops 5, bw_mem 10000 MB/s, lat_fifo 20 us,
# tlb 64 pages) with their past medians: mhz's MHZ over nine runs;
# lat_ops 1 (20% worse), par_ops 5.5 and bw_mem 11000 (10% worse),
# lat_fifo 20 (as before), tlb 70 (better neither way: not counted),
# each over five.  With MHZ 2500, mhz is 20% better: of five figures the
# median is 10.0% worse, three worse by more than 3%, one better.
sp=$fx/spread
hist() {
	awk -v mhz="$2" 'BEGIN {
		m["mhz"] = mhz; m["lat_ops"] = 1; m["par_ops"] = 5.5
		m["bw_mem"] = 11000; m["lat_fifo"] = 20; m["tlb"] = 70
	}
	{
		match($0, /"tool":"[^"]*"/)
		t = substr($0, RSTART + 8, RLENGTH - 9)
		sub(/}$/, ",\"history\":{\"runs\":" (t == "mhz" ? 9 : 5) \
		    ",\"past_median\":" m[t] "}}")
		print
	}' "$1"
}
# para FILE ID: the paragraph of FILE with id ID, or nothing.
para() {
	grep -o "<p id=\"$2\">[^<]*</p>" "$1"
}
hist "$sp/clock1.jsonl" 2500 >"$tmp/past.jsonl"
run "$bm" report --output "$tmp/past.html" "$tmp/past.jsonl"
[ "$rc" -eq 0 ] || fail "past runs: exit $rc: $(cat "$tmp/err")"
past='<p id="past">Past runs: the median figure 10.0% worse than its median over this machine&#39;s past runs; 3 of 5 worse by more than 3%, 1 better.</p>'
clock='<p id="clock">Clock: mhz read 3000 MHz, +20.0% from 2500 MHz, the median of its last 9 runs on this machine: the figures the clock times moved with it.</p>'
[ "$(para "$tmp/past.html" past)" = "$past" ] ||
	fail "past runs: $(para "$tmp/past.html" past)"
[ "$(para "$tmp/past.html" clock)" = "$clock" ] ||
	fail "the clock: $(para "$tmp/past.html" clock)"
sed -n '/<p id="flagged">/,/<h2 id="machine">/p' "$tmp/past.html" |
    grep -o '^<[a-z0-9]* id="[a-z]*"' | tr '\n' ' ' >"$tmp/order"
[ "$(cat "$tmp/order")" = '<p id="flagged" <p id="past" <p id="clock" <h2 id="machine" ' ] ||
	fail "the head's order: $(cat "$tmp/order")"
# The words are benchmp summary's, from the same code.
run "$bm" summary "$tmp/past.jsonl"
for id in past clock; do
	want=$(grep "^$id" "$tmp/out" | sed "s/'/\&#39;/g; s/^p/P/; s/^c/C/")
	[ "$(para "$tmp/past.html" $id | sed 's/<[^>]*>//g')" = "$want." ] ||
		fail "$id: not summary's: $want"
done
# A clock within 3% of its past runs' (2950 MHz): no clock, and mhz no
# longer better by more than 3%; four figures with past runs are too few
# to set the run against them, the clock still moved; records without
# history: neither, and no empty paragraph.
hist "$sp/clock1.jsonl" 2950 >"$tmp/held.jsonl"
hist "$sp/clock1.jsonl" 2500 | sed 4q >"$tmp/four.jsonl"
for f in held four; do
	run "$bm" report --output "$tmp/$f.html" "$tmp/$f.jsonl"
	[ "$rc" -eq 0 ] || fail "$f: exit $rc: $(cat "$tmp/err")"
done
[ "$(para "$tmp/held.html" past)" = "$(printf '%s' "$past" |
    sed 's/, 1 better/, 0 better/')" ] && ! grep -q 'id="clock"' "$tmp/held.html" ||
	fail "a clock that held: $(grep -o '<p id="[pc][a-z]*">[^<]*' "$tmp/held.html")"
! grep -q 'id="past"' "$tmp/four.html" &&
    [ "$(para "$tmp/four.html" clock)" = "$clock" ] ||
	fail "four figures: $(grep -o '<p id="[pc][a-z]*">[^<]*' "$tmp/four.html")"
run "$bm" report --output "$tmp/none.html" "$sp/clock1.jsonl"
[ "$rc" -eq 0 ] && grep -q '<p id="flagged">' "$tmp/none.html" &&
    ! grep -q 'id="past"\|id="clock"\|Past runs\|Clock:' "$tmp/none.html" ||
	fail "no history: exit $rc: $(grep -o '<p id="[pc][a-z]*">[^<]*' "$tmp/none.html")"
# Two runs: each run's, the past runs as benchmp compare words them.  B's
# clock 16.7% below its past runs' 3600 MHz, mhz 20% worse with it: four
# of five worse, none better.
hist "$sp/clock1.jsonl" 3600 >"$tmp/slow.jsonl"
run "$bm" report --output "$tmp/past2.html" "$tmp/past.jsonl" \
    "$tmp/slow.jsonl"
[ "$rc" -eq 0 ] || fail "two runs' past: exit $rc: $(cat "$tmp/err")"
[ "$(para "$tmp/past2.html" past)" = '<p id="past">Past runs: A&#39;s median figure 10.0% worse than its median over its machine&#39;s past runs (3 of 5 worse by more than 3%, 1 better); B&#39;s median figure 10.0% worse than its median over its machine&#39;s past runs (4 of 5 worse by more than 3%, 0 better).</p>' ] ||
	fail "two runs' past: $(para "$tmp/past2.html" past)"
[ "$(para "$tmp/past2.html" clock)" = '<p id="clock">Clock: A: mhz read 3000 MHz, +20.0% from 2500 MHz, the median of its last 9 runs on this machine: the figures the clock times moved with it; B: mhz read 3000 MHz, -16.7% from 3600 MHz, the median of its last 9 runs on this machine: the figures the clock times moved with it.</p>' ] ||
	fail "two runs' clocks: $(para "$tmp/past2.html" clock)"
# B without history: not known, and A's clock alone; the line is
# benchmp compare's.
run "$bm" report --output "$tmp/past1.html" "$tmp/past.jsonl" \
    "$sp/clock1.jsonl"
[ "$rc" -eq 0 ] && para "$tmp/past1.html" past |
    grep -qF '(3 of 5 worse by more than 3%, 1 better); B&#39;s median figure not known.</p>' &&
    [ "$(para "$tmp/past1.html" clock)" = "$(printf '%s' "$clock" |
    sed 's/Clock: /Clock: A: /')" ] ||
	fail "B without history: exit $rc: $(grep -o '<p id="[pc][a-z]*">[^<]*' "$tmp/past1.html")"
run "$bm" compare "$tmp/past.jsonl" "$sp/clock1.jsonl"
want=$(grep '^past runs:' "$tmp/out" | sed "s/'/\&#39;/g; s/^p/P/")
[ -n "$want" ] && [ "$(para "$tmp/past1.html" past |
    sed 's/<[^>]*>//g')" = "$want." ] || fail "not compare's: $want"
for h in two past2 past1; do
	grep -q '<p id="flagged">' "$tmp/$h.html" || fail "$h: no flagged share"
done
! grep -q 'id="past"\|id="clock"' "$tmp/two.html" ||
	fail "two runs without history: $(grep -o '<p id="[pc][a-z]*">[^<]*' "$tmp/two.html")"

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
# Values near the largest double (their round axis top, 2e308, is no
# number): a page with a log axis and a bounded grid, a bar chart and a
# lat_mem_rd curve, written in time (a hang guard, 60 s, and 2 GB of
# address space where no sanitizer maps its shadow: the grid never ends
# otherwise).
if command -v timeout >/dev/null 2>&1; then
	printf '%s\n' \
	    '{"tool":"huge","case":"a","params":{},"metric":"latency","unit":"us","value":1.7e308,"samples":5,"suite":{"group":"processor","figure":"huge a"}}' \
	    '{"tool":"huge","case":"b","params":{},"metric":"latency","unit":"us","value":1.6e308,"samples":5,"suite":{"group":"processor","figure":"huge b"}}' \
	    '{"tool":"lat_mem_rd","case":"stride","params":{"size":1024,"stride":64},"metric":"latency","unit":"ns","value":1.62e308,"samples":5}' \
	    '{"tool":"lat_mem_rd","case":"stride","params":{"size":2048,"stride":64},"metric":"latency","unit":"ns","value":1.6e308,"samples":5}' \
	    >"$tmp/huge.jsonl" || exit 99
	lim=
	[ "${BM_SANITIZERS:-no}" = yes ] || lim='ulimit -v 2000000;'
	# shellcheck disable=SC2016 # (sh -c's script, with its arguments)
	run sh -c "$lim"' exec timeout -s KILL 60 "$@"' sh "$bm" report \
	    --output "$tmp/huge.html" "$tmp/huge.jsonl"
	[ "$rc" -eq 0 ] && tail -n 1 "$tmp/huge.html" | grep -qx '</body></html>' &&
	    grep -qF 'class="axis">log scale, 1e+307 to 1e+308</text>' \
	    "$tmp/huge.html" ||
		fail "values near the largest double: exit $rc: $(head -c 300 "$tmp/err")"
fi

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
