#!/bin/sh
# scripts-report.sh: benchmp-report writes one well-formed, self-contained
# HTML file that holds every figure of the run, the lat_mem_rd curve with
# the caches marked, and the comparison of two runs with its verdicts.
. "$top_srcdir/tests/lib.sh"

rep=$top_srcdir/scripts/benchmp-report
data=$top_srcdir/tests/data
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# wellformed FILE: every element opened in FILE is closed, in order (an
# XML parser's check when xmllint is there, else this awk one over the
# elements the report emits).
wellformed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>"$tmp/xml" ||
			fail "$1: not well-formed: $(head -n 3 "$tmp/xml")"
	fi
	awk '
	{
		s = $0
		while (match(s, /<[^>]*>/)) {
			t = substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
			if (t ~ /^[!?]/ || t ~ /\/$/)
				continue
			if (t ~ /^\//) {
				name = substr(t, 2)
				if (n == 0 || stack[n] != name) {
					printf "line %d: </%s> closes <%s>\n", NR, name,
					    n ? stack[n] : "nothing"
					bad = 1
					exit 1
				}
				n--
				continue
			}
			sub(/[ \t].*/, "", t)
			if (t == "meta")
				continue
			stack[++n] = t
		}
	}
	END {
		if (!bad && n != 0) {
			printf "%d element(s) left open, the last <%s>\n", n, stack[n]
			exit 1
		}
	}' "$1" >"$tmp/tags" || fail "$1: $(cat "$tmp/tags")"
}

# html_escape: stdin with &, <, >, " and ' as the report writes them.
html_escape() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' \
	    -e 's/"/\&quot;/g' -e "s/'/\\&#39;/g"
}

# One run with its machine description and a lat_mem_rd sweep, beside it
# as benchmp-run leaves them, plus a record benchmp-run did not name
# whose parameter is a path in a private directory.
mkdir "$tmp/res" || exit 99
cat "$data/aa-1.jsonl" "$data/lat_mem_rd.jsonl" >"$tmp/res/run.jsonl"
printf '%s\n' '{"tool":"bw_file_rd","case":"io_only","params":{"size":8388608,"file":"/tmp/benchmp-run.AbC123/file"},"metric":"bandwidth","unit":"MB/s","value":5000,"ci_lo":4900,"ci_hi":5100}' \
    >>"$tmp/res/run.jsonl"
cp "$data/machine.json" "$tmp/res/run.machine.json" || exit 99
run "$rep" "$tmp/res/run.jsonl"
[ "$rc" -eq 0 ] || fail "one run exited $rc: $(cat "$tmp/err")"
html=$tmp/res/run.html
[ -s "$html" ] || fail "no $html"
wellformed "$html"
head -n 1 "$html" | grep -q '^<!DOCTYPE html>$' || fail "no doctype"

# Self-contained: nothing fetched from anywhere.
! grep -qiE '<(script|link|img|iframe)|(src|href)=|@import|url\(' "$html" ||
	fail "the report refers to other files: $(grep -oiE '<(script|link|img|iframe)|(src|href)=[^ >]*|@import|url\(' "$html" | head -n 3)"

# Every figure of the run is in a table row, named as in the summary.
jq -r 'select(.suite != null) | .suite.figure' "$data/aa-1.jsonl" |
    sort -u >"$tmp/figures"
[ "$(wc -l <"$tmp/figures")" -gt 50 ] || fail "too few figures in aa-1"
while IFS= read -r f; do
	e=$(printf '%s' "$f" | html_escape)
	grep -qF "<tr><td>$e</td>" "$html" || fail "figure not in the report: $f"
done <"$tmp/figures"
# ... and in a chart, whose bar carries it as its tooltip, when its
# section has another figure of its unit; a figure alone in its unit is in
# the table only (no chart of one bar).
jq -rs '[.[] | select(.suite != null)] | group_by(.suite.figure) |
    map(last) | group_by([.suite.group, .unit]) | .[] |
    (if length >= 2 then "chart" else "alone" end) as $k |
    .[] | "\($k)\t\(.suite.figure)"' "$data/aa-1.jsonl" >"$tmp/charted"
grep -q '^alone' "$tmp/charted" && grep -q '^chart' "$tmp/charted" ||
	fail "aa-1 has no figure alone in its unit, or none with another"
while IFS='	' read -r k f; do
	e=$(printf '%s' "$f" | html_escape)
	if [ "$k" = chart ]; then
		grep -qF "<g class=\"bar\"><title>$e: " "$html" ||
			fail "figure not in a chart: $f"
	else
		! grep -qF "<g class=\"bar\"><title>$e: " "$html" ||
			fail "a chart of one figure: $f"
	fi
done <"$tmp/charted"

# lmbench's sections, each a table and at least one chart.
for t in 'Processor, Processes' 'Context switching' \
    'Local communication latencies' 'Local communication bandwidths' \
    'File &amp; VM system latencies' 'Memory bandwidth and latencies'; do
	grep -qF ">$t</h2>" "$html" || fail "no section $t"
done
[ "$(grep -c '^<svg ' "$html")" -ge 7 ] ||
	fail "fewer charts than sections: $(grep -c '^<svg ' "$html")"
# Two-process figures coloured by their placement, with the legend.
grep -qF '>cross</text>' "$html" && grep -qF '>same</text>' "$html" ||
	fail "no placement legend"

# The machine description, and the lat_mem_rd curve: one line per stride,
# the three caches marked, every point in the table.
grep -qF '<dd>fixture</dd>' "$html" || fail "no machine description"
# benchmp-run's machine check: its warnings, each with what it found.
jq '. + {check: {checks: [{name: "load", status: "warn", found: "load <2>",
    advice: "a"}, {name: "thp", status: "ok", found: "madvise", advice: "b"}],
    warnings: 1}}' "$data/machine.json" >"$tmp/check.machine.json" &&
    "$rep" --machine "$tmp/check.machine.json" --output "$tmp/check.html" \
    "$tmp/res/run.jsonl" 2>"$tmp/err" &&
    grep -qF '<dt>check</dt><dd>1 warning: load (load &lt;2&gt;)</dd>' \
    "$tmp/check.html" || fail "the machine check in the report: $(cat "$tmp/err")"
[ "$(grep -o '<polyline ' "$html" | wc -l)" -eq \
    "$(jq -s 'map(.params.stride) | unique | length' "$data/lat_mem_rd.jsonl")" ] ||
	fail "not one curve per stride"
for c in 'L1d 32K' 'L2 1M' 'LLC 8M'; do
	grep -qF ">$c</text>" "$html" || fail "cache not marked: $c"
done
[ "$(grep -o '<tr><td>lat_mem_rd stride ' "$html" | wc -l)" -eq \
    "$(wc -l <"$data/lat_mem_rd.jsonl")" ] || fail "lat_mem_rd points missing"

# A path is named by its role, never by the private directory.
! grep -qF 'benchmp-run.AbC123' "$html" || fail "a temporary path in the report"
grep -qF '<tr><td>bw_file_rd io_only 8M (file)</td>' "$html" ||
	fail "the unnamed record is not named by its file's role"

# Two runs: B is A with lat_syscall null twice as slow (a narrow interval):
# benchmp-compare calls it worse and the report highlights that row.
jq -c 'if .suite.figure == "lat_syscall null" then
    .value *= 2 | .median *= 2 | .ci_lo *= 2 | .ci_hi *= 2 else . end' \
    "$data/aa-1.jsonl" >"$tmp/b.jsonl" || exit 99
run "$rep" --output "$tmp/two.html" "$data/aa-1.jsonl" "$tmp/b.jsonl"
[ "$rc" -eq 0 ] || fail "two runs exited $rc: $(cat "$tmp/err")"
wellformed "$tmp/two.html"
grep -qF '<tr class="worse"><td>lat_syscall null</td>' "$tmp/two.html" ||
	fail "the regression is not highlighted"
[ "$(grep -o '<tr class="worse">' "$tmp/two.html" | wc -l)" -eq 1 ] ||
	fail "more than the one regression marked worse"
grep -qF '1 figure(s) worse' "$tmp/two.html" || fail "no count of regressions"
# The ratio chart's key: a swatch of each verdict colour.
grep -qF 'fill="#e15759"/><text x="614" y="14" class="axis">worse</text>' "$tmp/two.html" &&
    grep -qF '>better</text>' "$tmp/two.html" ||
	fail "the ratio chart has no key of the verdict colours"
# The A/A pair: every figure of A compared, none worse.
run "$rep" --output "$tmp/aa.html" "$data/aa-1.jsonl" "$data/aa-2.jsonl"
[ "$rc" -eq 0 ] || fail "A/A exited $rc: $(cat "$tmp/err")"
wellformed "$tmp/aa.html"
! grep -qF '<tr class="worse">' "$tmp/aa.html" || fail "A/A: a figure worse"
while IFS= read -r f; do
	e=$(printf '%s' "$f" | html_escape)
	grep -qF "<g><title>$e: B/A " "$tmp/aa.html" ||
		fail "A/A: figure not compared: $f"
done <"$tmp/figures"

# A scaling run beside the suite: its own section, one chart and table per
# figure scaled, a row per worker count; its records in no summary table.
cat "$data/aa-1.jsonl" "$data/scaling.jsonl" >"$tmp/scal.jsonl" || exit 99
run "$rep" --output "$tmp/scal.html" "$tmp/scal.jsonl"
[ "$rc" -eq 0 ] || fail "scaling: exit $rc: $(cat "$tmp/err")"
wellformed "$tmp/scal.html"
grep -qF '<h2 id="scaling">Scaling (benchmp-scaling)</h2>' "$tmp/scal.html" ||
	fail "scaling: no section"
grep -qF '<h3>bw_mem rd 8M</h3>' "$tmp/scal.html" || fail "scaling: no figure"
for p in $(jq -r '.parallel' "$data/scaling.jsonl"); do
	grep -qF "<g><title>bw_mem rd 8M: $p workers, speed-up " "$tmp/scal.html" ||
		fail "scaling: no point for $p workers"
	grep -qF "<tr><td class=\"n\">$p</td>" "$tmp/scal.html" ||
		fail "scaling: no row for $p workers"
done
! grep -qF '<tr><td>bw_mem rd 8M</td>' "$tmp/scal.html" ||
	fail "scaling: its records in a summary table"
! grep -qF 'id="scaling"' "$html" || fail "a scaling section without scaling records"

# An imported lmbench run: its records in benchmp-run's sections, every
# figure in a table row, marked imported, no interval drawn.
"$top_srcdir/scripts/benchmp-import-lmbench" "$data/lmbench-results.txt" \
    >"$tmp/imp.jsonl" 2>/dev/null || fail "import failed"
run "$rep" --output "$tmp/imp.html" "$tmp/imp.jsonl"
[ "$rc" -eq 0 ] || fail "imported: exit $rc: $(cat "$tmp/err")"
wellformed "$tmp/imp.html"
jq -r '.suite.figure' "$tmp/imp.jsonl" | sort -u >"$tmp/impfig"
[ "$(wc -l <"$tmp/impfig")" -gt 50 ] || fail "imported: too few figures"
while IFS= read -r f; do
	e=$(printf '%s' "$f" | html_escape)
	grep -qF "<tr><td>$e</td>" "$tmp/imp.html" ||
		fail "imported: figure not in the report: $f"
done <"$tmp/impfig"
for t in 'Basic system parameters' 'Processor, Processes' \
    'Basic integer, uint64, float and double operations' \
    'Context switching' 'Local communication latencies' \
    'Local communication bandwidths' 'File &amp; VM system latencies' \
    'Memory bandwidth and latencies' 'Memory latencies'; do
	grep -qF ">$t</h2>" "$tmp/imp.html" || fail "imported: no section $t"
done
! grep -qF '>Other records</h2>' "$tmp/imp.html" ||
	fail "imported: records outside lmbench's sections"
grep -qF 'imported from lmbench' "$tmp/imp.html" || fail "imported: not marked"
! grep -qF 'class="ci"' "$tmp/imp.html" || fail "imported: an interval drawn"
# Beside a benchmp run, as A and as B: the shared figures compared (no
# interval, so never worse), the others listed, none dropped.
for order in "imp aa" "aa imp"; do
	# shellcheck disable=SC2086 # (two words: which run is A, which B)
	set -- $order
	x=$tmp/imp.jsonl y=$data/aa-1.jsonl
	[ "$1" = imp ] || { x=$data/aa-1.jsonl y=$tmp/imp.jsonl; }
	run "$rep" --output "$tmp/$1$2.html" "$x" "$y"
	[ "$rc" -eq 0 ] || fail "$order: exit $rc: $(cat "$tmp/err")"
	wellformed "$tmp/$1$2.html"
	grep -qF "<g><title>lat_syscall null: B/A " "$tmp/$1$2.html" ||
		fail "$order: lat_syscall null not compared"
	! grep -qF '<tr class="worse">' "$tmp/$1$2.html" ||
		fail "$order: a figure without interval judged worse"
	grep -qF '>Figures of one run only</h3>' "$tmp/$1$2.html" ||
		fail "$order: no list of unpaired figures"
	# As A every imported figure keeps its name; as B a paired one is
	# named by its partner in A.
	[ "$1" = imp ] || continue
	while IFS= read -r f; do
		e=$(printf '%s' "$f" | html_escape)
		grep -qF "<tr><td>$e</td>" "$tmp/$1$2.html" ||
			fail "$order: imported figure dropped: $f"
	done <"$tmp/impfig"
done
grep -qF '<td>B</td>' "$tmp/aaimp.html" || fail "aa imp: B's own figures not listed"
grep -qF 'A imported from lmbench' "$tmp/impaa.html" || fail "imp aa: A not marked"
grep -qF 'B imported from lmbench' "$tmp/aaimp.html" || fail "aa imp: B not marked"

# Modes, flags and the interference accounting in each figure's note, and
# the share of flagged figures above the machine: lat-1cpu.jsonl is a
# real run under taskset -c 0 on a loaded machine (tests/data/README).
run "$rep" --output "$tmp/modes.html" "$data/lat-1cpu.jsonl"
[ "$rc" -eq 0 ] || fail "lat-1cpu: exit $rc: $(cat "$tmp/err")"
wellformed "$tmp/modes.html"
want=$(jq -r 'select(.suite.figure == "lat_fifo (same)" and .modes) |
    "modes " + ([.modes[] | "\(.centre * 1000 | round / 1000) us (\(.share *
    100 | round)%)"] | join(" / "))' "$data/lat-1cpu.jsonl")
[ -n "$want" ] || fail "lat-1cpu.jsonl: the lat_fifo record has no modes"
grep -F '<tr><td>lat_fifo (same)</td>' "$tmp/modes.html" |
    grep -Fq "<td>noisy; bimodal; $want; disturbed " ||
	fail "lat-1cpu: lat_fifo's note is not 'noisy; bimodal; $want; disturbed ...'"
n=$(jq -s 'length' "$data/lat-1cpu.jsonl")
nf=$(jq -s '[.[] | select(.noisy or .bimodal or .interference.bound_hit)] |
    length' "$data/lat-1cpu.jsonl")
grep -q "<p id=\"flagged\">Flagged: $nf of $n figures" "$tmp/modes.html" ||
	fail "lat-1cpu: no 'Flagged: $nf of $n': $(grep -o '<p id="flagged">[^<]*' "$tmp/modes.html")"
# A sweep figure that contradicts the machine, and whose processes
# disagreed: both numbers and the source in its note; a budget hit.
jq -c '.budget_hit = true' "$data/line-contradicts.jsonl" >"$tmp/lc.jsonl"
run "$rep" --output "$tmp/lc.html" "$tmp/lc.jsonl"
[ "$rc" -eq 0 ] || fail "line-contradicts: exit $rc: $(cat "$tmp/err")"
wellformed "$tmp/lc.html"
for w in 'disagree (the processes gave different answers)' \
    'contradicts the machine: line size 32 bytes measured, 64 bytes by sysfs coherency_line_size' \
    'budget hit (the run stopped at its time bound)'; do
	grep -qF "$w" "$tmp/lc.html" || fail "line-contradicts: no '$w'"
done
# A value that is not a number is invalid, its cells "-"; 1e999, which
# no double holds, is not read as a 309-digit number: the file is
# refused with its line, and no page is written.
sed 's/"value":[^,]*,/"value":"fast",/' "$data/line.jsonl" >"$tmp/str.jsonl"
run "$rep" --output "$tmp/str.html" "$tmp/str.jsonl"
[ "$rc" -eq 0 ] && grep -qF '<td class="n">-</td><td>bytes</td>' "$tmp/str.html" &&
    grep -qF '<td>invalid; noisy' "$tmp/str.html" ||
	fail "a string value: exit $rc, or not shown invalid"
sed 's/"value":[^,]*,/"value":1e999,/' "$data/line.jsonl" >"$tmp/big.jsonl"
expect_exit 1 'big.jsonl: line 1: invalid JSON at byte [0-9]+: a number out of range' \
    "$rep" --output "$tmp/big.html" "$tmp/big.jsonl"
[ ! -e "$tmp/big.html" ] || fail "1e999: a page written"

# Errors: usage 2, unreadable or empty input 1, nothing written then.
expect_exit 2 'missing the results file' "$rep"
expect_exit 2 'unknown option' "$rep" --bogus "$data/aa-1.jsonl"
expect_exit 2 'at most two' "$rep" "$data/aa-1.jsonl" "$data/aa-1.jsonl" \
    "$data/aa-1.jsonl"
expect_exit 1 'cannot read' "$rep" "$tmp/nonexistent.jsonl"
echo 'not json' >"$tmp/bad.jsonl"
expect_exit 1 'bad.jsonl: line 1: invalid JSON' "$rep" "$tmp/bad.jsonl"
[ ! -e "$tmp/bad.html" ] || fail "a report written from bad input"
: >"$tmp/empty.jsonl"
expect_exit 1 'holds no records' "$rep" "$tmp/empty.jsonl"
expect_exit 1 'not a writable directory' "$rep" --output "$tmp/no/such.html" \
    "$data/aa-1.jsonl"

exit $((failures > 0))
