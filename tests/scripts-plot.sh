#!/bin/sh
# scripts-plot.sh: benchmp-plot draws real PNG and SVG files, and leaves
# no copy of one beside its output when a signal comes as it is renamed.
. "$top_srcdir/tests/lib.sh"

plot=$top_srcdir/scripts/benchmp-plot
data=$top_srcdir/tests/data
if ! have_jq || ! command -v gnuplot >/dev/null 2>&1; then
	echo "$me: jq or gnuplot not found: skipped" >&2
	exit 77
fi

# check_images BASE: BASE.png is a PNG and BASE.svg an SVG.
check_images() {
	[ "$(head -c 8 "$1.png" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] ||
		fail "$1.png is not a PNG"
	grep -q '<svg' "$1.svg" || fail "$1.svg is not an SVG"
}

run "$plot" summary --output "$tmp/one" "$data/run-a.jsonl"
[ "$rc" -eq 0 ] || fail "summary of one run: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/one"
grep -q '>lat_syscall null<' "$tmp/one.svg" || fail "summary lacks a label"
grep -q '>Other records: us<' "$tmp/one.svg" && grep -q '>Other records: MB/s<' "$tmp/one.svg" ||
	fail "summary of one run: not one chart per unit"

# A suite run: one panel per section and unit with two or more figures
# (its title "Section: unit"), none for a figure alone in its unit, no
# point of a sweep.
run "$plot" summary --output "$tmp/suite" "$data/suite-vm.jsonl"
[ "$rc" -eq 0 ] || fail "summary of a suite run: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/suite"
jq -rs '[.[] | select(.suite.curve != true and (.value | type) == "number" and
    .value > 0)] | group_by(.suite.figure) | map(last) |
    group_by([.suite.group, .unit]) | .[] | select(length >= 2) |
    "\(.[0].suite.group) \(.[0].unit)"' "$data/suite-vm.jsonl" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -ge 8 ] || fail "suite-vm.jsonl: few charts to draw"
grep -o '>[^<>]*: [^<>]*<' "$tmp/suite.svg" | tr -d '<>' >"$tmp/titles"
[ "$(wc -l <"$tmp/titles")" -eq "$(wc -l <"$tmp/want")" ] ||
	fail "summary: $(wc -l <"$tmp/titles") charts for $(wc -l <"$tmp/want") sections and units: $(cat "$tmp/titles")"
grep -qF '>Local communication latencies: us<' "$tmp/suite.svg" &&
    grep -qF '>Memory bandwidth and latencies: ns<' "$tmp/suite.svg" &&
    grep -qF '>Memory bandwidth and latencies: MB/s<' "$tmp/suite.svg" ||
	fail "summary: a section and unit without its chart: $(cat "$tmp/titles")"
! grep -q '>Basic system parameters' "$tmp/suite.svg" ||
	fail "summary: a chart of figures alone in their units (basic)"
! grep -qF '[16m]<' "$tmp/suite.svg" || fail "summary: a point of a sweep"

jq -c '.value *= 1.1' "$data/run-a.jsonl" >"$tmp/b.jsonl"
run "$plot" summary --output "$tmp/two" "$data/run-a.jsonl" "$tmp/b.jsonl"
[ "$rc" -eq 0 ] || fail "summary of two runs: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/two"

# One file per section of benchmp-run's groups with two figures of one
# unit or more, each figure a labelled row, nothing of another section in
# it; a section of figures each alone in its unit gets none.
run "$plot" sections --output "$tmp/sec" "$data/aa-1.jsonl"
[ "$rc" -eq 0 ] || fail "sections: exit $rc: $(cat "$tmp/err")"
jq -rs '[.[] | select(.suite.curve != true and .value > 0)] |
    group_by(.suite.figure) | map(last) | group_by(.suite.group) | .[] |
    (if (group_by(.unit) | map(length) | max) >= 2 then "chart" else "none" end) +
    " " + .[0].suite.group' "$data/aa-1.jsonl" >"$tmp/groups"
while read -r k g; do
	if [ "$k" = chart ]; then
		check_images "$tmp/sec-$g"
	elif [ -e "$tmp/sec-$g.png" ] || [ -e "$tmp/sec-$g.svg" ]; then
		fail "sections: a chart of $g, whose figures are alone in their units"
	fi
done <"$tmp/groups"
grep -qF '>lat_pipe (same)<' "$tmp/sec-latency.svg" ||
	fail "sections: no lat_pipe (same) row in the latency chart"
! grep -qF '>lat_pipe (same)<' "$tmp/sec-processor.svg" ||
	fail "sections: a latency figure in the processor chart"
grep -qF '>File &amp; VM system latencies: files/s<' "$tmp/sec-filevm.svg" &&
    grep -qF '>File &amp; VM system latencies: us<' "$tmp/sec-filevm.svg" ||
	fail "sections: filevm not one chart per unit"
# mhz is alone in its unit in aa-1's processor section: in no chart.
grep -qF '>Processor, Processes: us<' "$tmp/sec-processor.svg" &&
    ! grep -qF 'MHz' "$tmp/sec-processor.svg" ||
	fail "sections: processor charts wrong (mhz alone in MHz charted?)"

run "$plot" scaling --output "$tmp/sc" "$data/scaling.jsonl"
[ "$rc" -eq 0 ] || fail "scaling: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/sc"
grep -q 'efficiency' "$tmp/sc.svg" || fail "scaling chart lacks efficiency"

run "$plot" mem --machine "$data/machine.json" --output "$tmp/mem" \
    "$data/lat_mem_rd.jsonl"
[ "$rc" -eq 0 ] || fail "mem: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/mem"
grep -q 'stride 128' "$tmp/mem.svg" || fail "mem chart lacks stride 128"
grep -q '>L3<' "$tmp/mem.svg" || fail "mem chart lacks the L3 mark"
# A real sweep with a spike (144 ns at 32M between 111 and 108, see
# tests/data/README) and its machine description beside it: the caches
# of that file marked, the latency axis set by the other points, the
# spike drawn at the top with its value.
mkdir "$tmp/res" && cp "$data/suite-vm.jsonl" "$tmp/res/run.jsonl" &&
    cp "$data/suite-vm.machine.json" "$tmp/res/run.machine.json" || exit 99
run "$plot" mem --output "$tmp/spike" "$tmp/res/run.jsonl"
[ "$rc" -eq 0 ] || fail "mem of a suite run: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/spike"
grep -q '>L1<' "$tmp/spike.svg" && grep -q '>L2<' "$tmp/spike.svg" ||
	fail "mem: the caches of the machine file beside the records not marked"
grep -q '>144.5<' "$tmp/spike.svg" && grep -q 'above the axis' "$tmp/spike.svg" ||
	fail "mem: the spike is not marked above the axis"
grep -q '<text> 140</text>' "$tmp/spike.svg" && ! grep -q '<text> 160</text>' "$tmp/spike.svg" ||
	fail "mem: the latency axis does not end at 140 (set by the spike?)"

# Names are quoted for gnuplot: a file name, an output name, TMPDIR and a
# record's own text holding quotes and gnuplot code draw the chart and run
# nothing.
# The charts are drawn from $tmp/names, where gnuplot would run the
# injected command: it must make no PWNED there.
mkdir "$tmp/names" "$tmp/it's"
here=$(pwd)
plot=$(cd "$(dirname "$plot")" && pwd)/benchmp-plot
data=$(cd "$data" && pwd)
cd "$tmp/names" || exit 99
evil="a'; system \"touch PWNED\"; print '"
cp "$data/run-a.jsonl" "$tmp/names/$evil.jsonl"
run "$plot" summary "$tmp/names/$evil.jsonl"
[ "$rc" -eq 0 ] || fail "summary of '$evil': exit $rc: $(cat "$tmp/err")"
check_images "$tmp/names/$evil-summary"
run env TMPDIR="$tmp/it's" "$plot" summary --output "$tmp/names/o'k" \
    "$data/run-a.jsonl" "$tmp/names/$evil.jsonl"
[ "$rc" -eq 0 ] || fail "quotes in TMPDIR and --output: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/names/o'k"
jq -c ".case = \"$(echo "$evil" | sed 's/"/\\"/g')\"" "$data/scaling.jsonl" \
    >"$tmp/names/sc.jsonl"
run "$plot" scaling --output "$tmp/names/sc" "$tmp/names/sc.jsonl"
[ "$rc" -eq 0 ] || fail "scaling of a quoted case: exit $rc: $(cat "$tmp/err")"
check_images "$tmp/names/sc"
[ ! -e "$tmp/names/PWNED" ] || fail "a name ran as gnuplot code"
# A cache size that is not a number is refused, not pasted into awk.
jq -c '.caches.l2 = "1; system(\"touch PWNED\")"' \
    "$data/machine.json" >"$tmp/names/machine.json"
expect_exit 1 "cache size .* is not a number of bytes" "$plot" mem \
    --machine "$tmp/names/machine.json" --output "$tmp/names/m" \
    "$data/lat_mem_rd.jsonl"
[ ! -e "$tmp/names/PWNED" ] || fail "a cache size ran as awk code"
[ ! -e "$tmp/names/m.png" ] || fail "a refused mem chart left m.png"
cd "$here" || exit 99

# A failed plot leaves no image; an output that cannot be written is an
# error with exit 1, and nothing reaches stdout.
jq -c '.value = -1 | .ci_lo = -1 | .ci_hi = -1' "$data/run-a.jsonl" \
    >"$tmp/neg.jsonl"
expect_exit 1 'no section has two figures of one unit' "$plot" summary --output "$tmp/neg" \
    "$tmp/neg.jsonl"
if [ -e "$tmp/neg.png" ] || [ -e "$tmp/neg.svg" ]; then
	fail "a failed plot left $(ls "$tmp"/neg.*)"
fi
expect_exit 1 'cannot write /nonexistent/x.png' "$plot" summary \
    --output /nonexistent/x "$data/run-a.jsonl"
[ ! -s "$tmp/out" ] || fail "--output /nonexistent/x: $(wc -c <"$tmp/out") bytes on stdout"

# A signal as a chart's copy is renamed over its output (a stand-in for
# mv(1) sends it to the shell that runs it, then fails): the script ends,
# and no copy is left beside the output.
mkdir "$tmp/sig" "$tmp/mv" || exit 99
realmv=$(command -v mv) || exit 99
# shellcheck disable=SC2016 # (the stand-in's own $3 and $PPID)
printf '%s\n' '#!/bin/sh' 'case $3 in' \
    '*/.benchmp-plot.*) kill -s TERM "$PPID"; exit 1 ;;' 'esac' \
    "exec '$realmv' \"\$@\"" >"$tmp/mv/mv" && chmod +x "$tmp/mv/mv" ||
	exit 99
PATH=$tmp/mv:$PATH run "$plot" summary --output "$tmp/sig/one" \
    "$data/run-a.jsonl"
set -- "$tmp"/sig/.benchmp-plot.*
[ "$rc" -ne 0 ] && [ ! -e "$1" ] ||
	fail "a signal as a chart was renamed: exit $rc, left: $(ls -A "$tmp/sig")"

expect_exit 2 'missing the chart' "$plot"
expect_exit 2 "unknown chart 'pie'" "$plot" pie "$data/run-a.jsonl"
expect_exit 2 'one or two files' "$plot" summary
expect_exit 2 '--machine goes with the mem chart' "$plot" summary \
    --machine "$data/machine.json" "$data/run-a.jsonl"
expect_exit 1 'holds no lat_mem_rd records' "$plot" mem --output "$tmp/x" \
    "$data/run-a.jsonl"
expect_exit 1 'cannot read /nonexistent' "$plot" scaling /nonexistent
mkdir "$tmp/nopath"
ln -s "$(command -v jq)" "$tmp/nopath/jq"
expect_exit 1 'install the Debian package gnuplot-nox' \
    env PATH="$tmp/nopath" /bin/sh "$plot" summary "$data/run-a.jsonl"
finish
