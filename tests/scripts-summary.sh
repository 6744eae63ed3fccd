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
grep -Eq '^  lat_syscall null +0\.9196 us +0\.91887-0\.92484 +11\.6%' "$tmp/out" ||
	fail "run-a.jsonl: no lat_syscall null row: $(cat "$tmp/out")"
grep -Eq '^  lat_syscall write \[file=/dev/null\] +1\.0370 us .* noisy$' "$tmp/out" ||
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
[ "$(grep -v '^  ' "$tmp/out" | grep -v '^$')" = "Processor, Processes
Memory bandwidth and latencies" ] || fail "tagged: groups: $(cat "$tmp/out")"
grep -Eq '^  lat_syscall null 0 +7\.5000 us ' "$tmp/out" ||
	fail "tagged: the later batch does not count: $(cat "$tmp/out")"
[ "$(grep -c 'lat_syscall null' "$tmp/out")" -eq 1 ] ||
	fail "tagged: a figure twice: $(cat "$tmp/out")"
sed -n 3p "$tmp/out" | grep -q '^  figure  *median unit  *CI  *cv  note$' ||
	fail "tagged: header: $(sed -n 3p "$tmp/out")"

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
expect_exit 1 'records that are not JSON' "$summ" "$tmp/bad.jsonl"
: >"$tmp/empty.jsonl"
expect_exit 1 'no records in' "$summ" "$tmp/empty.jsonl"
expect_exit 1 'cannot read it' "$summ" "$tmp/nonexistent.jsonl"
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
finish
