#!/bin/sh
# scripts-report-render.sh: the report of a suite run, rendered in headless
# chromium, loads without a JavaScript or console error and has exactly
# one bar chart per section and unit with two or more figures to compare,
# none of one bar, and the lat_mem_rd curve with its marks and legend.
. "$top_srcdir/tests/lib.sh"

rep=$top_srcdir/scripts/benchmp-report
data=$top_srcdir/tests/data
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	echo "$me: no chromium (Debian package chromium): skipped" >&2
	exit 77
fi
# Chromium writes its profile and caches under HOME: all of it in $tmp.
HOME=$tmp
export HOME

# browse URL ARGS...: load URL in headless chromium with ARGS (--dump-dom,
# --screenshot=...), its stdout in $tmp/out and its log (console messages
# included) in $tmp/log; the exit status in $rc.  --no-sandbox: the tests
# may run as root, where the sandbox refuses to start.
browse() {
	u=$1
	shift
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	    --no-first-run --user-data-dir="$tmp/profile" \
	    --enable-logging=stderr --v=0 "$@" "$u" >"$tmp/out" 2>"$tmp/log" \
	    </dev/null
	rc=$?
}

# The console check must see an error where there is one: a page with a
# failing script shows it in the log, and the window.onerror marker that
# wraps the report below marks the page.  A browser that cannot do this
# here cannot check anything: skipped, with its own words.
marker='<script>window.onerror = function (m) { document.documentElement.setAttribute("data-jserror", String(m)); };</script>'
printf '<!DOCTYPE html><html><head>%s</head><body><p>x</p><script>no_such_function();</script></body></html>\n' \
    "$marker" >"$tmp/bad.html"
browse "file://$tmp/bad.html" --dump-dom
if [ "$rc" -ne 0 ] || ! grep -q '<p>x</p>' "$tmp/out"; then
	echo "$me: $browser cannot render a page here (exit $rc): $(grep -v dbus "$tmp/log" | head -n 2): skipped" >&2
	exit 77
fi
grep -q 'data-jserror=' "$tmp/out" ||
	fail "the window.onerror marker missed an error: $(head -c 300 "$tmp/out")"
grep -q 'CONSOLE.*no_such_function' "$tmp/log" ||
	fail "the console log missed an error: $(grep -v dbus "$tmp/log" | head -n 3)"

# The report of a suite run beside its machine description, as
# benchmp-run leaves them (tests/data/suite-vm.jsonl: trimmed from a real
# run, see tests/data/README).
mkdir "$tmp/res" || exit 99
cp "$data/suite-vm.jsonl" "$tmp/res/run.jsonl" &&
    cp "$data/suite-vm.machine.json" "$tmp/res/run.machine.json" || exit 99
run "$rep" "$tmp/res/run.jsonl"
[ "$rc" -eq 0 ] || fail "the report: exit $rc: $(cat "$tmp/err")"
html=$tmp/res/run.html
# The report has no script of its own; the copy loaded carries the
# marker first in its head.
sed "s|<head>|<head>$marker|" "$html" >"$tmp/res/marked.html" || exit 99
browse "file://$tmp/res/marked.html" --dump-dom
[ "$rc" -eq 0 ] || fail "$browser on the report: exit $rc: $(grep -v dbus "$tmp/log" | head -n 3)"
cp "$tmp/out" "$tmp/dom"
grep -q '</html>' "$tmp/dom" || fail "no page in the DOM: $(head -c 300 "$tmp/dom")"
! grep -q 'data-jserror=' "$tmp/dom" ||
	fail "a JavaScript error: $(grep -o 'data-jserror="[^"]*"' "$tmp/dom")"
! grep -q 'CONSOLE' "$tmp/log" ||
	fail "console messages: $(grep CONSOLE "$tmp/log" | head -n 3)"

# The bar charts the browser built: section, unit and bars of each, from
# the DOM it parsed (not the file it was given).
awk 'BEGIN { RS = "<svg " }
NR > 1 && /class="chart bars"/ {
	s = $0; u = $0
	sub(/.*data-section="/, "", s); sub(/".*/, "", s)
	sub(/.*data-unit="/, "", u); sub(/".*/, "", u)
	sub(/<\/svg>.*/, "")
	printf "%s\t%s\t%d\n", s, u, gsub(/<g class="bar">/, "")
}' "$tmp/dom" | sort >"$tmp/charts"
# What there should be: one chart per section and unit with two or more
# figures of a finite value (the sweep points beside the summary are the
# curve's, not a section's).
jq -rs '[.[] | select(.suite.curve != true and (.value | type) == "number")] |
    group_by(.suite.figure) | map(last) | group_by([.suite.group, .unit]) |
    .[] | select(length >= 2) |
    "\(.[0].suite.group)\t\(.[0].unit | @html)\t\(length)"' \
    "$data/suite-vm.jsonl" | sort >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -ge 8 ] || fail "the fixture has few sections to chart"
diff "$tmp/want" "$tmp/charts" >"$tmp/diff" ||
	fail "charts (section, unit, bars) differ from the figures: $(cat "$tmp/diff")"
! awk -F'\t' '$3 < 2' "$tmp/charts" | grep -q . ||
	fail "a chart of fewer than two bars: $(awk -F'\t' '$3 < 2' "$tmp/charts")"
# Basic system parameters (mhz, tlb, line, mem par: four units) has none.
! grep -q '^basic	' "$tmp/charts" || fail "a chart in basic: $(cat "$tmp/charts")"

# The lat_mem_rd curve: one, a line per chase order, a legend whose every
# entry has a swatch, the caches inside the sweep marked, and the spike of
# the -t line (144 ns at 32M, between 111 and 108) above the axis,
# marked, not setting it.
awk 'BEGIN { RS = "<svg " } NR > 1 && /class="chart curve"/ {
	sub(/<\/svg>.*/, ""); print }' "$tmp/dom" >"$tmp/curve"
[ "$(grep -c . "$tmp/curve")" -eq 1 ] || fail "not one lat_mem_rd curve"
[ "$(grep -o '<polyline ' "$tmp/curve" | wc -l)" -eq 2 ] ||
	fail "not two lines in the curve"
grep -o '<g class="legend"[^>]*><path [^>]*>' "$tmp/curve" | wc -l >"$tmp/n"
[ "$(cat "$tmp/n")" -ge 3 ] || fail "legend entries with a swatch: $(cat "$tmp/n")"
for c in 'L1d 48K' 'L2 2M' 'LLC used 32M'; do
	grep -qF "\"axis halo\">$c</text>" "$tmp/curve" || fail "cache not marked: $c"
done
grep -q '<g class="clipped"><title>[^<]*144.5 ns' "$tmp/curve" ||
	fail "the 144 ns spike is not marked"
top=$(grep -o 'class="lab">[0-9.]*</text>' "$tmp/curve" |
    sed 's/[^0-9.]//g; s/^\.//' | sort -g | tail -n 1)
[ -n "$top" ] && awk -v t="$top" 'BEGIN { exit !(t >= 116.6 && t < 144) }' ||
	fail "the latency axis ends at '$top', not between 116.6 and 144"

# A screenshot of the page: a PNG (doc/report.png is one of these).
browse "file://$html" --hide-scrollbars --window-size=1000,2000 \
    --screenshot="$tmp/report.png"
[ "$rc" -eq 0 ] && [ "$(head -c 8 "$tmp/report.png" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] ||
	fail "no screenshot: exit $rc: $(grep -v dbus "$tmp/log" | head -n 3)"
finish
