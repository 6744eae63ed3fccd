#!/bin/sh
# benchmp-summary.sh: benchmp summary on fixture records: the single table
# and the hosts side by side, as benchmp-summary's jq and awk printed them
# (tests/fixtures/summary/*.txt), and what it refuses.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
fx=$top_srcdir/tests/fixtures/summary

# The single table, byte for byte.
run "$bm" summary "$fx/table.jsonl"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] ||
	fail "table: exit $rc: $(head -n 2 "$tmp/err")"
cmp -s "$fx/table.txt" "$tmp/out.raw" ||
	fail "table differs: $(diff "$fx/table.txt" "$tmp/out.raw" | head -n 6)"
t=$tmp/out.raw
# Each part on its own, to name what broke.
head -n 1 "$t" | grep -qx 'flagged: 8 of 15 (53%): 2 noisy, 1 bimodal, 1 invalid, 2 budget, 1 disagree, 1 contradicts, 1 disturbed, 1 bound' ||
	fail "the flagged line: $(head -n 1 "$t")"
grep -q '^  lat_pipe (same) .*  31\.00%  noisy -9%/+31%$' "$t" ||
	fail "a noisy figure's reason: $(grep lat_pipe "$t")"
grep -q '^  lat_fifo (same) .*  two modes 1\.2/1\.8 us$' "$t" ||
	fail "a bimodal figure's modes: $(grep lat_fifo "$t")"
grep -q '^    contradicts the machine: line size 32 bytes measured, 64 bytes by sysfs coherency_line_size$' "$t" ||
	fail "no contradiction line: $(grep -A 1 '^  line ' "$t")"
grep -q '^  line .*  contradicts sysfs coherency_line_size: 32 vs 64 bytes$' "$t" ||
	fail "a contradiction's reason: $(grep '^  line ' "$t")"
grep -q '^  lat_ctx 2p/0K  *5\.8000 us  *5\.7-5\.9  *best .*  slow spells$' "$t" &&
    grep -q '^  lat_sig catch .*  slow spells$' "$t" &&
    grep -q '^  lat_mmap 1m .*  cut by budget$' "$t" ||
	fail "slow spells, the budget: $(grep -E 'lat_(ctx|sig|mmap)' "$t")"
# Control bytes of a name and a unit are written escaped, none raw.
grep -Fq '  lat_x esc\x1b[8m\u009bhidden ' "$t" && grep -Fq ' u\x07s ' "$t" ||
	fail "control bytes not escaped: $(grep lat_x "$t")"
! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$t" ||
	fail "a control byte reaches the terminal: $(od -c "$t" | head -n 4)"
! LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$t" ||
	fail "a C1 control reaches the terminal"
# A wide name is padded by its display width (16 columns, of the 46 of
# the widest figure, bw_file_rd's), not its bytes (27): 30 spaces, the
# separator, and the value right-aligned in 12.
rocket=$(printf '\360\237\232\200')
grep -q "$rocket \{37\}3\.0000 us .*  <0\.01%\$" "$t" ||
	fail "the wide name's padding: $(grep "$rocket" "$t")"
# The last record of a figure wins; a value that is not a number (null)
# is invalid; the basic group ends with scal load; a robust figure is
# "best"; from 1e9 up a value has six significant digits.
[ "$(grep -c '^  lat_syscall null ' "$t")" -eq 1 ] &&
    grep -q '^  lat_syscall null  *0\.2134 us ' "$t" ||
	fail "not the last record: $(grep lat_syscall "$t")"
grep -q '^  lat_null  *invalid us .*  invalid value$' "$t" ||
	fail "null not invalid: $(grep lat_null "$t")"
grep -q '^  scal load  *2 procs  *-  *-  (-P, the most of any figure)$' "$t" ||
	fail "no scal load row: $(cat "$t")"
grep -q '^  lat_unix (same)  *3\.9000 us  *3\.85-3\.95  *best ' "$t" ||
	fail "a robust figure: $(grep lat_unix "$t")"
# A record without a suite: under Other records, by tool, case and
# parameters (a NUL as \x00).
sed -n '/^Other records$/,$p' "$t" | grep -q '^  bw_mem rd \[size=1048576 conflict=no\]  *15980\.2800 MB/s ' &&
    grep -Fq '  bw_file_rd 0 [size=4096 mmap=true file=a\x00b]      1.5e+10 B/s ' "$t" ||
	fail "no Other records entry: $(cat "$t")"
grep -q '^1 figures stopped at the time budget' "$t" &&
    grep -q '^1 more points of the size sweeps' "$t" ||
	fail "the lines after the table: $(tail -n 4 "$t")"

# A flag the note has no words for (bimodal without its modes): counted,
# and the row ends with its cv, no blanks after it.
printf '{"tool":"t","value":1,"unit":"us","bimodal":true}\n' >"$tmp/b.jsonl"
run "$bm" summary "$tmp/b.jsonl"
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/out.raw")" = "flagged: 1 of 1 (100%): 1 bimodal" ] &&
    grep -q '^  t  *1\.0000 us  *-  *-$' "$tmp/out.raw" ||
	fail "bimodal without modes: $(cat "$tmp/out.raw")"

# A latency, bandwidth or rate of 0 or less is no measurement: invalid,
# counted and noted, no number shown; a reading (a count) may be 0.
printf '%s\n' '{"tool":"z","case":"lat","metric":"latency","value":0,"unit":"us"}' \
    '{"tool":"z","case":"bw","metric":"bandwidth","value":-3,"unit":"MB/s"}' \
    '{"tool":"z","case":"n","metric":"reading","value":0,"unit":"pages"}' \
    >"$tmp/z.jsonl"
run "$bm" summary "$tmp/z.jsonl"
[ "$rc" -eq 0 ] &&
    [ "$(head -n 1 "$tmp/out.raw")" = "flagged: 2 of 3 (67%): 2 invalid" ] &&
    grep -q '^  z lat  *invalid us .*  invalid value$' "$tmp/out.raw" &&
    grep -q '^  z bw  *invalid MB/s .*  invalid value$' "$tmp/out.raw" &&
    grep -q '^  z n  *0\.0000 pages ' "$tmp/out.raw" ||
	fail "values of 0: $(cat "$tmp/out.raw")"

# The hosts side by side: each host's median of its ranks (of the latest
# batch; "-" for a host with no number), * on one more than 10% from the
# median of the hosts; the default with per-rank records.
run "$bm" summary "$fx/aggregate.jsonl" "$fx/ranks.jsonl"
[ "$rc" -eq 0 ] && cmp -s "$fx/hosts.txt" "$tmp/out.raw" ||
	fail "hosts: exit $rc: $(diff "$fx/hosts.txt" "$tmp/out.raw" | head -n 6) $(head -n 2 "$tmp/err")"
grep -Fqx '  figure                                     a           b           c    d\x1b[2J    all ranks unit' "$tmp/out.raw" &&
    grep -q '^  lat_syscall null  *1\.02  *1\.02  *1\.6\*  *-  *1\.05 us$' "$tmp/out.raw" &&
    grep -q '^  bw_pipe (same)  *2010  *2100  *2050  *2080  *2100 MB/s$' "$tmp/out.raw" &&
    grep -q '^\* more than 10% from the median of the hosts (1)$' "$tmp/out.raw" ||
	fail "hosts: $(cat "$tmp/out.raw")"
run "$bm" summary --no-hosts "$fx/aggregate.jsonl" "$fx/ranks.jsonl"
[ "$rc" -eq 0 ] && ! grep -q 'all ranks' "$tmp/out.raw" &&
    grep -q '^  lat_syscall null  *1\.0500 us ' "$tmp/out.raw" ||
	fail "--no-hosts: exit $rc: $(cat "$tmp/out.raw")"
run "$bm" summary --hosts "$fx/aggregate.jsonl"
[ "$rc" -eq 0 ] && grep -q '^  figure  *all ranks unit$' "$tmp/out.raw" ||
	fail "--hosts without ranks: exit $rc: $(cat "$tmp/out.raw")"
expect_exit 1 'no aggregate records in .*ranks\.jsonl: give ' \
    "$bm" summary "$fx/ranks.jsonl"

# What is not records: the file and line named, exit 1, nothing printed.
expect_exit 1 'not-records\.jsonl: line 2: invalid JSON at byte 5: ' \
    "$bm" summary "$fx/not-records.jsonl"
[ ! -s "$tmp/out.raw" ] || fail "output on a failure: $(cat "$tmp/out.raw")"
expect_exit 1 'odd\.jsonl: line 1: params is an array, not an object$' \
    "$bm" summary "$fx/odd.jsonl"
printf '{"tool":"t","value":1}\n{"tool":"t","value":true}\n' >"$tmp/v.jsonl"
expect_exit 1 'v\.jsonl: line 2: value is a boolean, not a string or a number$' \
    "$bm" summary "$tmp/v.jsonl"
printf '{"tool":"t","value":1}\n\n[1]\n' >"$tmp/a.jsonl"
expect_exit 1 'a\.jsonl: line 3: not a record' "$bm" summary "$tmp/a.jsonl"
printf '{"tool":"t","value":NaN}\n' >"$tmp/nan.jsonl"
expect_exit 1 'nan\.jsonl: line 1: invalid JSON' "$bm" summary "$tmp/nan.jsonl"
printf '{"tool":"t","value":1,"aggregate":false}\n' >"$tmp/nohost.jsonl"
expect_exit 1 'nohost\.jsonl: line 1: a per-rank record \(aggregate false\) without its host$' \
    "$bm" summary "$tmp/nohost.jsonl"
: >"$tmp/empty.jsonl"
printf '\n  \n' >"$tmp/blank.jsonl"
expect_exit 1 'no records in .*empty\.jsonl .*blank\.jsonl$' \
    "$bm" summary "$tmp/empty.jsonl" "$tmp/blank.jsonl"
expect_exit 1 'table\.jsonl\.nope: cannot read: No such file' \
    "$bm" summary "$fx/table.jsonl" "$fx/table.jsonl.nope"
[ ! -s "$tmp/out.raw" ] || fail "output on a failure: $(cat "$tmp/out.raw")"
expect_exit 1 ": cannot read: Is a directory" "$bm" summary "$tmp"

# Usage errors: 2, the message and the usage line; the help, the version.
expect_exit 2 "^benchmp summary: unknown option '--bogus'\$" \
    "$bm" summary --bogus "$fx/table.jsonl"
grep -qx 'usage: benchmp summary \[--hosts | --no-hosts\] FILE\.\.\.' "$tmp/err" ||
	fail "no usage line: $(cat "$tmp/err")"
expect_exit 2 'missing the results file' "$bm" summary --hosts
expect_line '^benchmp summary [0-9]' "$bm" summary -V
run "$bm" help summary
[ "$rc" -eq 0 ] && head -n 1 "$tmp/out" | grep -q '^usage: benchmp summary ' ||
	fail "help summary: exit $rc: $(head -n 2 "$tmp/out")"
if [ -w /dev/full ]; then
	"$bm" summary "$fx/table.jsonl" >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q 'writing to standard output failed' "$tmp/err" ||
		fail ">/dev/full: exit $rc: $(cat "$tmp/err")"
fi

# benchmp-summary is benchmp summary under its old name.
run "$top_srcdir/scripts/benchmp-summary" "$fx/table.jsonl"
[ "$rc" -eq 0 ] && cmp -s "$fx/table.txt" "$tmp/out.raw" ||
	fail "scripts/benchmp-summary: exit $rc: $(head -n 2 "$tmp/err")"
# The clock: mhz more than 3% from the median of its past runs (benchmp
# history's past_median) is named under the flagged line; within 3%, or
# without past runs, nothing is said.
clk() {
	printf '{"tool":"mhz","case":"clock","unit":"MHz","better":"higher","value":%s,"median":%s,"samples":5,"suite":{"group":"basic","figure":"mhz"}%s}\n' \
	    "$1" "$1" "$2"
}
clk 3600 ',"history":{"runs":9,"past_median":3000}' >"$tmp/clock.jsonl"
run "$bm" summary "$tmp/clock.jsonl"
[ "$rc" -eq 0 ] && sed -n 2p "$tmp/out" | grep -qx 'clock: mhz read 3600 MHz, +20\.0% from 3000 MHz, the median of its last 9 runs on this machine: the figures the clock times moved with it' ||
	fail "a clock that moved: exit $rc: $(cat "$tmp/out")"
for h in ',"history":{"runs":9,"past_median":3500}' ',"history":{"runs":2}' ''; do
	clk 3600 "$h" >"$tmp/clock.jsonl"
	run "$bm" summary "$tmp/clock.jsonl"
	[ "$rc" -eq 0 ] && ! grep -q '^clock:' "$tmp/out" ||
		fail "a clock not moved or not known ($h): $(cat "$tmp/out")"
done

# The run against its past runs (history.past_median), from five figures
# with them: lat_a, lat_b and lat_c at 11 us against 10, bw_d at 100 MB/s
# against 110 (each 10% worse), lat_e at 10 against 10; the median
# figure 10% worse, four of five worse by more than 3%, none better.
# Four figures with past runs are too few for the line.
fig() {
	printf '{"tool":"%s","unit":"%s","value":%s,"median":%s,"samples":5,"history":{"runs":5,"past_median":%s}}\n' \
	    "$1" "$2" "$3" "$3" "$4"
}
{
	fig lat_a us 11 10
	fig lat_b us 11 10
	fig lat_c us 11 10
	fig bw_d MB/s 100 110
	fig lat_e us 10 10
} >"$tmp/past.jsonl"
run "$bm" summary "$tmp/past.jsonl"
[ "$rc" -eq 0 ] && sed -n 2p "$tmp/out" | grep -qx 'past runs: the median figure 10\.0% worse than its median over this machine'"'"'s past runs; 4 of 5 worse by more than 3%, 0 better' ||
	fail "the run against its past: exit $rc: $(cat "$tmp/out")"
head -n 4 "$tmp/past.jsonl" >"$tmp/past4.jsonl"
run "$bm" summary "$tmp/past4.jsonl"
[ "$rc" -eq 0 ] && ! grep -q '^past runs:' "$tmp/out" ||
	fail "four figures with past runs: exit $rc: $(cat "$tmp/out")"
finish
