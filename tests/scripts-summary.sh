#!/bin/sh
# scripts-summary.sh: benchmp-summary on records files (tests/data) and on
# records tagged as benchmp-run tags them.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
summ=$top_srcdir/scripts/benchmp-summary
data=$top_srcdir/tests/data

# Records without benchmp-run's "suite" member: "Other records", each
# named by its tool, case and parameters.
run "$summ" "$data/run-a.jsonl"
[ "$rc" -eq 0 ] || fail "run-a.jsonl: exit $rc: $(cat "$tmp/err")"
grep -q '^Other records$' "$tmp/out" || fail "run-a.jsonl: no title: $(cat "$tmp/out")"
# The interval is shown with its coverage (ci_level), not as "95%".
grep -Eq '^  lat_syscall null +0\.9196 us +0\.91887-0\.92484 +95% +11\.60%' "$tmp/out" ||
	fail "run-a.jsonl: no lat_syscall null row: $(cat "$tmp/out")"
grep -Eq '^  lat_syscall write \[file=/dev/null\] +1\.0370 us .* noisy -1%/\+63%$' "$tmp/out" ||
	fail "run-a.jsonl: the noisy write row: $(cat "$tmp/out")"
[ "$(grep -c '^  bw_mem ' "$tmp/out")" -eq 3 ] ||
	fail "run-a.jsonl: not three bw_mem rows: $(cat "$tmp/out")"

# Tagged records: in their groups, in order; a figure measured again (a
# later batch) shows its last record.
jq -c '. + {suite: {group: (if .tool == "bw_mem" then "memory"
	else "processor" end), figure: (.tool + " " + .case + " "
	+ (.params.size // 0 | tostring)), batch: 1}}' "$data/run-a.jsonl" \
    >"$tmp/t.jsonl" || fail "cannot tag run-a.jsonl"
jq -c 'select(.case == "null") | .value = 7.5 | .suite.batch = 2' \
    "$tmp/t.jsonl" >"$tmp/again.jsonl" && cat "$tmp/again.jsonl" >>"$tmp/t.jsonl"
run "$summ" "$tmp/t.jsonl"
[ "$rc" -eq 0 ] || fail "tagged: exit $rc: $(cat "$tmp/err")"
[ "$(grep -v '^  ' "$tmp/out" | grep -v '^$')" = "flagged: 4 of 9 (44%): 4 noisy, 1 bimodal
Processor, Processes
Memory bandwidth and latencies" ] || fail "tagged: groups: $(cat "$tmp/out")"
grep -Eq '^  lat_syscall null 0 +7\.5000 us ' "$tmp/out" ||
	fail "tagged: the later batch does not count: $(cat "$tmp/out")"
[ "$(grep -c 'lat_syscall null' "$tmp/out")" -eq 1 ] ||
	fail "tagged: a figure twice: $(cat "$tmp/out")"
sed -n 4p "$tmp/out" | grep -q '^  figure  *value unit  *interval, coverage  *cv  note$' ||
	fail "tagged: header: $(sed -n 4p "$tmp/out")"

# Per-rank records of three hosts (rank 2 on host c far from the others)
# and their aggregate: the hosts side by side, c marked.
for r in 0 1 2; do
	jq -c --argjson r "$r" 'select(.case == "null") |
	    . + {rank: $r, aggregate: false, host: (["a", "b", "c"][$r]),
	    value: (if $r == 2 then 2.0 else 1.0 end)}' "$tmp/t.jsonl" |
	    head -n 1 >>"$tmp/ranks.jsonl"
done
jq -c 'select(.case == "null") | . + {aggregate: true}' "$tmp/t.jsonl" |
    head -n 1 >"$tmp/agg.jsonl"
run "$summ" "$tmp/agg.jsonl" "$tmp/ranks.jsonl"
[ "$rc" -eq 0 ] || fail "hosts: exit $rc: $(cat "$tmp/err")"
grep -Eq '^  figure +a +b +c +all ranks unit$' "$tmp/out" ||
	fail "hosts: header: $(cat "$tmp/out")"
grep -Eq '^  lat_syscall null 0 +1  +1  +2\* +0\.91962 us$' "$tmp/out" ||
	fail "hosts: row: $(cat "$tmp/out")"
grep -q '^\* more than 10% from the median of the hosts (1)$' "$tmp/out" ||
	fail "hosts: no outlier note: $(cat "$tmp/out")"
run "$summ" --no-hosts "$tmp/agg.jsonl" "$tmp/ranks.jsonl"
[ "$rc" -eq 0 ] && grep -Eq '^  lat_syscall null 0 +0\.9196 us ' "$tmp/out" &&
    ! grep -q 'all ranks' "$tmp/out" ||
	fail "--no-hosts: exit $rc: $(cat "$tmp/out" "$tmp/err")"
expect_exit 1 'no aggregate records' "$summ" --hosts "$tmp/ranks.jsonl"

# Modes as modes: lat-1cpu.jsonl is a real benchmp-run under taskset -c 0
# on a loaded machine (tests/data/README); its lat_fifo found two modes.
# The note gives one reason in plain words: both modes, lower first (the
# shares and the counts stay in the record and the report).
run "$summ" "$data/lat-1cpu.jsonl"
[ "$rc" -eq 0 ] || fail "lat-1cpu: exit $rc: $(cat "$tmp/err")"
want=$(jq -r 'select(.suite.figure == "lat_fifo (same)" and .modes) |
    "two modes " + ([.modes[] | "\(.centre * 1000 | round / 1000)"] |
    join("/")) + " us"' "$data/lat-1cpu.jsonl")
[ -n "$want" ] || fail "lat-1cpu.jsonl: the lat_fifo record has no modes"
grep -F "  lat_fifo (same) " "$tmp/out" | grep -Eq " $want\$" ||
	fail "lat-1cpu: modes '$want' not in: $(grep lat_fifo "$tmp/out")"
# Under a one-CPU mask the --placement=both figures keep "(same)".
[ "$(grep -c '^  lat_[a-z_]* (same) ' "$tmp/out")" -eq 9 ] ||
	fail "lat-1cpu: not nine (same) rows: $(cat "$tmp/out")"
# The header: the share of flagged figures, counted from the records.
n=$(jq -s 'length' "$data/lat-1cpu.jsonl")
nf=$(jq -s '[.[] | select(.noisy or .bimodal or .interference.bound_hit or
    .budget_hit or .disagree or ((.contradicts // []) | length) > 0)] |
    length' "$data/lat-1cpu.jsonl")
head -n 1 "$tmp/out" | grep -Eq "^flagged: $nf of $n \($(((100 * nf + n / 2) / n))%\): [0-9]+ noisy" ||
	fail "lat-1cpu: header: $(head -n 1 "$tmp/out") ($nf of $n)"
# A noisy figure's note says how far its interval reaches, each side on
# its own where they differ (2.7004-5.8261 around 2.7140); one without
# modes or a wide interval that met disturbed intervals says "slow
# spells" (the counts are the record's and the report's).
grep -F "  lat_pipe (same) " "$tmp/out" | grep -Eq ' noisy -1%/\+115%$' ||
	fail "lat-1cpu: lat_pipe (same): $(grep lat_pipe "$tmp/out")"
grep -Eq ' (disturbed|bound hit) ' "$tmp/out" &&
	fail "lat-1cpu: counts in a note: $(grep -E ' (disturbed|bound hit) ' "$tmp/out")"
# Modes are a bimodal figure's: a record not bimodal that still carries
# modes (a merged record keeps the last pass's members) prints none.
jq -c 'select(.suite.figure == "lat_fifo (same)") | .bimodal = false' \
    "$data/lat-1cpu.jsonl" >"$tmp/stale.jsonl"
run "$summ" "$tmp/stale.jsonl"
[ "$rc" -eq 0 ] && grep -q '^  lat_fifo (same) ' "$tmp/out" &&
    ! grep -q ' / ' "$tmp/out" ||
	fail "modes of a figure not bimodal printed: $(cat "$tmp/out")"
# A figure with neither flag nor disturbed interval has an empty note.
jq -c 'select(.suite.figure == "lat_pipe (same)") | .noisy = false |
    .bimodal = false | del(.modes) | .interference.disturbed = 0 |
    .interference.bound_hit = false' "$data/lat-1cpu.jsonl" >"$tmp/clean.jsonl"
run "$summ" "$tmp/clean.jsonl"
[ "$(head -n 1 "$tmp/out")" = "flagged: 0 of 1 (0%)" ] &&
    grep -Eq '^  lat_pipe \(same\) .*%$' "$tmp/out" ||
	fail "a clean figure: $(cat "$tmp/out")"

# Flagged sweep figures: line.jsonl is a real record of
# line (64 bytes, as sysfs says), line-contradicts.jsonl the same record
# answering 32 with "disagree" and "contradicts" set (tests/data/README).
run "$summ" "$data/line.jsonl"
[ "$rc" -eq 0 ] && ! grep -q 'contradicts\|disagree' "$tmp/out" ||
	fail "line.jsonl: $(cat "$tmp/out")"
run "$summ" "$data/line-contradicts.jsonl"
grep -Eq '^  line line \[len=1048576\] +32\.0000 bytes .* contradicts sysfs coherency_line_size: 32 vs 64 bytes$' "$tmp/out" ||
	fail "line-contradicts: flags: $(cat "$tmp/out")"
grep -q '^    contradicts the machine: line size 32 bytes measured, 64 bytes by sysfs coherency_line_size$' "$tmp/out" ||
	fail "line-contradicts: note line: $(cat "$tmp/out")"
head -n 1 "$tmp/out" | grep -q '^flagged: 1 of 1 (100%): .*1 disagree, 1 contradicts$' ||
	fail "line-contradicts: header: $(head -n 1 "$tmp/out")"
# A run stopped by its time budget (--max-time) says so.
jq -c '.budget_hit = true' "$data/line.jsonl" >"$tmp/budget.jsonl"
run "$summ" "$tmp/budget.jsonl"
grep -Eq '^  line .* (cut by budget|noisy( \+-[0-9]+%| -[0-9]+%/\+[0-9]+%)?)$' "$tmp/out" &&
    head -n 1 "$tmp/out" | grep -q ' 1 budget' || fail "budget_hit: $(cat "$tmp/out")"

# Invalid values are shown as invalid, never as a number: null, a
# string, no value; a name's control bytes are printed escaped.  What
# JSON has no number for (NaN, Infinity, 1e999) is not a record: the
# file is refused with its line, and nothing is printed.
r=$(head -n 1 "$data/run-a.jsonl")
{
	printf '%s\n' "$r" | jq -c '.value = null | .case = "null2"'
	printf '%s\n' "$r" | jq -c '.value = "0.25" | .case = "string"'
	printf '%s\n' "$r" | jq -c 'del(.value) | .case = "none"'
	printf '%s\n' "$r" | jq -c '.case = "esc\u001b[8mhidden\u009b\u007f\ttab\nnl\u0000end"'
} >"$tmp/invalid.jsonl"
run "$summ" "$tmp/invalid.jsonl"
[ "$rc" -eq 0 ] || fail "invalid values: exit $rc: $(cat "$tmp/err")"
for c in null2 string none; do
	grep -Eq "^  lat_syscall $c +invalid us .* invalid value\$" "$tmp/out" ||
		fail "invalid value ($c) not shown invalid: $(grep " $c " "$tmp/out")"
done
! grep -Eq '0\.2500' "$tmp/out" ||
	fail "an invalid value shown as a number: $(cat "$tmp/out")"
! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/out" ||
	fail "control bytes reach the terminal: $(od -c "$tmp/out" | head)"
grep -Fq '  lat_syscall esc\x1b[8mhidden\u009b\x7f\x09tab\x0anl\x00end ' "$tmp/out" ||
	fail "control bytes not escaped: $(grep esc "$tmp/out")"
head -n 1 "$tmp/out" | grep -q '^flagged: 3 of 4 (75%): 3 invalid$' ||
	fail "invalid values: header: $(head -n 1 "$tmp/out")"
for v in NaN Infinity -Infinity 1e999; do
	printf '%s\n%s\n' "$r" "$r" | sed "2s/\"value\":[^,]*,/\"value\":$v,/" \
	    >"$tmp/nonfinite.jsonl"
	expect_exit 1 'nonfinite\.jsonl: line 2: invalid JSON at byte [0-9]+: ' \
	    "$summ" "$tmp/nonfinite.jsonl"
	[ ! -s "$tmp/out" ] || fail "value $v: a table printed: $(cat "$tmp/out")"
done

# The version is configure's (AC_INIT), from the source tree and in the
# copy make writes for installing.
want=$(sed -n 's/^AC_INIT(\[benchmp\], \[\([^]]*\)\].*/\1/p' \
    "$top_srcdir/configure.ac")
for c in "$summ" "$top_builddir/bin/benchmp-summary"; do
	one_line "$c" -V &&
	    [ "$(cat "$tmp/out")" = "benchmp-summary (benchmp) $want" ] ||
		fail "$c -V: $(cat "$tmp/out")"
done
run "$top_builddir/bin/benchmp-summary" "$data/run-a.jsonl"
[ "$rc" -eq 0 ] || fail "the built copy: exit $rc: $(cat "$tmp/err")"

printf '{"tool":"x","value":1}\nnot json\n' >"$tmp/bad.jsonl"
expect_exit 1 'bad\.jsonl: line 2: invalid JSON at byte 1' "$summ" "$tmp/bad.jsonl"
: >"$tmp/empty.jsonl"
expect_exit 1 'no records in' "$summ" "$tmp/empty.jsonl"
expect_exit 1 'nonexistent\.jsonl: cannot read: No such file' "$summ" "$tmp/nonexistent.jsonl"
expect_exit 2 'missing the results file' "$summ"
expect_exit 2 "unknown option '--bogus'" "$summ" --bogus "$data/run-a.jsonl"
if [ -w /dev/full ]; then
	for a in --help -V "$data/run-a.jsonl"; do
		"$summ" "$a" >/dev/full 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 1 ] && grep -q 'writing to standard output failed' "$tmp/err" ||
			fail "$a >/dev/full: exit $rc: $(cat "$tmp/err")"
	done
fi
# A figure of one value (ci_level 0) shows no interval, whatever numbers
# an older record carries in ci_lo and ci_hi (the floor made one up).
run "$summ" "$data/line.jsonl"
grep -Eq '^  line line \[len=1048576\] +64\.0000 bytes +- +0\.00%' "$tmp/out" ||
	fail "line.jsonl: an interval for one value: $(cat "$tmp/out")"
# The field that repeats: a record with a robust figure (the best
# process) shows it, its interval with "best" for a coverage, and its
# own flags (noisy for wide, disturbed), not the median's; modes are
# printed but do not flag it.  A record without one shows its median.
jq -c 'select(.suite.figure == "lat_fifo (same)") | . + {robust: {stat:
    "best process", value: 2.5, ci_lo: 2.4, ci_hi: 2.6, noisy: false,
    causes: []}} | .interference.bound_hit = false' \
    "$data/lat-1cpu.jsonl" >"$tmp/robust.jsonl"
run "$summ" "$tmp/robust.jsonl"
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "flagged: 0 of 1 (0%)" ] &&
    grep -Eq '^  lat_fifo \(same\) +2\.5000 us +2\.4-2\.6 +best .*% *$' \
    "$tmp/out" || fail "a robust figure: $(cat "$tmp/out")"
jq -c '.robust.noisy = true | .robust.causes = ["wide", "disturbed"]' \
    "$tmp/robust.jsonl" >"$tmp/robust2.jsonl"
run "$summ" "$tmp/robust2.jsonl"
[ "$rc" -eq 0 ] &&
    [ "$(head -n 1 "$tmp/out")" = "flagged: 1 of 1 (100%): 1 noisy, 1 disturbed" ] &&
    grep -Eq '^  lat_fifo \(same\) +2\.5000 us .*  (two modes|noisy)' "$tmp/out" ||
	fail "a flagged robust figure: $(cat "$tmp/out")"
# From fewer than five processes ("few") it is noisy too.
jq -c '.robust.noisy = true | .robust.causes = ["few"]' \
    "$tmp/robust.jsonl" >"$tmp/robust3.jsonl"
run "$summ" "$tmp/robust3.jsonl"
[ "$rc" -eq 0 ] &&
    [ "$(head -n 1 "$tmp/out")" = "flagged: 1 of 1 (100%): 1 noisy" ] ||
	fail "a robust figure of few processes: $(cat "$tmp/out")"
finish
