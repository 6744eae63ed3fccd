#!/bin/sh
# scripts-paths.sh: every script takes file and directory names with
# blanks, a newline, quotes, a backslash, "=", a leading dash and UTF-8.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
s=$top_srcdir/scripts
data=$top_srcdir/tests/data
PATH=$(cd "$bin" && pwd):$PATH
export PATH

# The hostile directory, named relative to $tmp so that it begins with a
# dash where the scripts see it; every file in it begins with one too
# (given after "--", as to any program).
cd "$tmp" || exit 99
d="-d ir 'q\"b\\s=é
nl"
mkdir -- "$d" || exit 99
cp -- "$data/aa-1.jsonl" "$d/-a 1.jsonl" &&
    cp -- "$data/aa-2.jsonl" "$d/-a 2.jsonl" &&
    cp -- "$data/machine.json" "$d/-a 1.machine.json" &&
    cp -- "$data/lat_mem_rd.jsonl" "$d/-m=1.jsonl" &&
    cp -- "$data/scaling.jsonl" "$d/-s.jsonl" &&
    cp -- "$data/lmbench-results.txt" "$d/-l=1.txt" || exit 99

# ok WHAT: the last run exited 0.
ok() {
	[ "$rc" -eq 0 ] || fail "$1: exit $rc: $(head -n 3 "$tmp/err")"
}

run "$s/benchmp-summary" -- "$d/-a 1.jsonl"
ok summary
grep -q 'lat_syscall null' "$tmp/out" || fail "summary: no rows"
run "$s/benchmp-compare" -- "$d/-a 1.jsonl" "$d/-a 2.jsonl"
{ [ "$rc" -le 1 ] || [ "$rc" -eq 3 ]; } && [ -s "$tmp/out" ] ||
	fail "compare: exit $rc: $(head -n 3 "$tmp/err")"
# The report beside A, with the machine description found beside it, and
# one of two runs written where --output says.
run "$s/benchmp-report" -- "$d/-a 1.jsonl"
ok "report"
grep -q -- 'lat_syscall null' "$d/-a 1.html" 2>/dev/null ||
	fail "report: no $d/-a 1.html"
run "$s/benchmp-report" --machine "$d/-a 1.machine.json" \
    --output "$d/-r 2.html" -- "$d/-a 1.jsonl" "$d/-a 2.jsonl"
ok "report of two runs"
grep -q -- 'Comparison' "$d/-r 2.html" 2>/dev/null || fail "report: no $d/-r 2.html"
run "$s/benchmp-import-lmbench" -- "$d/-l=1.txt"
ok import
jq -e -s --arg f "./$d/-l=1.txt" 'length > 60 and
    all(.lmbench.file == $f)' "$tmp/out" >/dev/null ||
	fail "import: the file's name is not in the records: $(jq -r .lmbench.file "$tmp/out" | sort -u | head -n 2)"
if command -v gnuplot >/dev/null 2>&1; then
	run "$s/benchmp-plot" summary -- "$d/-a 1.jsonl" "$d/-a 2.jsonl"
	ok "plot summary"
	[ -s "$d/-a 1-summary.svg" ] || fail "plot summary: no $d/-a 1-summary.svg"
	run "$s/benchmp-plot" sections --output "$d/-p" -- "$d/-a 1.jsonl"
	ok "plot sections"
	[ -s "$d/-p-latency.png" ] || fail "plot sections: no $d/-p-latency.png"
	run "$s/benchmp-plot" scaling -- "$d/-s.jsonl"
	ok "plot scaling"
	[ -s "$d/-s-scaling.svg" ] || fail "plot scaling: no $d/-s-scaling.svg"
	run "$s/benchmp-plot" mem --machine "$d/-a 1.machine.json" -- "$d/-m=1.jsonl"
	ok "plot mem"
	[ -s "$d/-m=1-mem.png" ] || fail "plot mem: no $d/-m=1-mem.png"
else
	echo "$me: gnuplot not found: benchmp-plot not tried" >&2
fi
run "$s/benchmp-check" --probe 0 --root "$d"
ok check

# benchmp-scaling with a tool, its records and its plot in that directory:
# the tool prints one record of the fixture for the -P it is given.
fake_scaler "$d/-tool" || exit 99
plot=--no-plot
command -v gnuplot >/dev/null 2>&1 && plot="--plot=$d/-sc"
run "$s/benchmp-scaling" --max 2 --output "$d/-sc.jsonl" "$plot" -- "$d/-tool" x
ok scaling
[ "$(wc -l <"$d/-sc.jsonl")" -eq 2 ] ||
	fail "scaling: not 2 records in $d/-sc.jsonl"
[ "$plot" = --no-plot ] || [ -s "$d/-sc.svg" ] ||
	fail "scaling: no plot $d/-sc.svg"

# benchmp-run: records, machine and report in the results directory, and
# the message names them (a blank in the name once lost the report).
# Its temporary directory too, in a TMPDIR that sed would misread.
mkdir "$tmp/t|&\\1 x" || exit 99
run env TMPDIR="$tmp/t|&\\1 x" "$s/benchmp-run" --installed --quick --only processor \
    --passes 1 --no-check --budget 3600 --results "$d/-res"
ok run
jq -e -s 'length > 0 and all(.suite.figure |
    test("^lat_(syscall|select|sig|proc) [a-z0-9 -]+$"))' \
    "./$d/-res"/*/*.jsonl >/dev/null || fail "run: figures not named"
set -- "$d/-res"/*/*.jsonl
[ -s "$1" ] && [ -s "${1%.jsonl}.machine.json" ] && [ -s "${1%.jsonl}.html" ] ||
	fail "run: records, machine or report missing in $d/-res: $(ls -R -- "$d/-res")"
grep -qF "report in ./$1" "$tmp/err" ||
	fail "run: the report is not named: $(tail -n 2 "$tmp/err")"
# A report that cannot be written is not announced as written.
mkdir "$tmp/noreport" && cp "$s/benchmp-run" "$s/benchmp-summary" \
    "$s/benchmp-lib.sh" "$tmp/noreport/" && printf '#!/bin/sh\nexit 1\n' \
    >"$tmp/noreport/benchmp-report" && chmod +x "$tmp/noreport/benchmp-report" ||
	exit 99
run "$tmp/noreport/benchmp-run" --installed --quick --only processor \
    --passes 1 --no-check --results "$d/-res2"
[ "$rc" -eq 1 ] && grep -q ', no report, ' "$tmp/err" &&
    ! grep -q 'report in ' "$tmp/err" ||
	fail "run without a report: exit $rc: $(tail -n 3 "$tmp/err")"

# benchmp-repeat keeps its runs in that directory.
run "$s/benchmp-repeat" -k 2 --keep "$d/-keep" --installed --quick \
    --only processor --passes 1 --no-check
ok repeat
set -- "$d/-keep/run2"/*/*.jsonl
[ -s "$1" ] || fail "repeat: no records in $d/-keep/run2"
grep -q 'lat_syscall null' "$tmp/out" || fail "repeat: no figure: $(head -n 3 "$tmp/out")"

exit $((failures > 0))
