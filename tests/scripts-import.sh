#!/bin/sh
# scripts-import.sh: benchmp-import-lmbench turns lmbench's results lines
# into records keyed as our tools key them, which benchmp-compare pairs.
. "$top_srcdir/tests/lib.sh"

imp=$top_srcdir/scripts/benchmp-import-lmbench
cmp=$top_srcdir/scripts/benchmp-compare
fixture=$top_srcdir/tests/data/lmbench-results.txt
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# Usage errors and unreadable files.
expect_exit 2 'no results file' "$imp"
expect_exit 2 'unknown option' "$imp" --bogus "$fixture"
expect_exit 1 "cannot read $tmp/none" "$imp" "$tmp/none"
run "$imp" --help
if [ "$rc" -ne 0 ] || ! grep -q '^usage:' "$tmp/out"; then
	fail "--help: exit $rc"
fi

# The hand-written fixture: every record is a JSON object marked imported,
# with no interval and no samples, the header's host and date, and the
# values exactly as written.
run "$imp" "$fixture"
[ "$rc" -eq 0 ] || fail "fixture: exit $rc: $(head -n 2 "$tmp/err")"
cp "$tmp/out" "$tmp/fixture.jsonl"
jq -e -s 'length > 60 and all(.imported == "lmbench" and
    .host == "oldbox" and .timestamp == "2019-11-19T14:03:27Z" and
    (has("ci_lo") | not) and (has("ci_hi") | not) and
    (has("samples") | not) and (.value | type) == "number" and
    (.better | IN("lower", "higher", "none")))' "$tmp/fixture.jsonl" \
    >/dev/null || fail "fixture: records not as expected"
# want TOOL CASE PARAMS VALUE: a record with these keys and this value.
want() {
	jq -e -s --arg t "$1" --arg c "$2" --argjson p "$3" --argjson v "$4" \
	    'map(select(.tool == $t and .case == $c and .params == $p)) |
	     length == 1 and .[0].value == $v' "$tmp/fixture.jsonl" \
	    >/dev/null || fail "fixture: no $1 $2 $3 = $4"
}
want lat_syscall null '{}' 0.186
want lat_select tcp '{"nfds":100}' 3.9006
want lat_fs delete '{"size":10240,"files":1000}' 130992
want bw_mem rd '{"size":67108864,"conflict":"no"}' 9011.11
want lat_ctx ring '{"nprocs":4,"size":16384,"placement":"unpinned"}' 10.31
want lat_mem_rd page '{"size":67108864,"stride":16}' 104.52
want lat_udp udp '{"host":"127.0.0.1","msgsize":4,"placement":"unpinned"}' 10.2231
want lat_ops 'int64 add' '{}' 0.34
want mhz clock '{}' 2993
# Each record lands in benchmp-run's section under the figure name
# benchmp-run gives the same measurement; lat_mem_rd's largest sizes are
# the summary's main mem (stride chase) and rand mem (-t chase).
# fig TOOL CASE PARAMS GROUP FIGURE
fig() {
	jq -e -s --arg t "$1" --arg c "$2" --argjson p "$3" --arg g "$4" \
	    --arg f "$5" 'map(select(.tool == $t and .case == $c and
	     .params == $p)) | length == 1 and .[0].suite.group == $g and
	     .[0].suite.figure == $f' "$tmp/fixture.jsonl" >/dev/null ||
		fail "fixture: $1 $2 $3 not in $4 as '$5'"
}
fig mhz clock '{}' basic mhz
fig lat_syscall null '{}' processor 'lat_syscall null'
fig lat_select tcp '{"nfds":100}' processor 'lat_select -n 100 tcp'
fig lat_ops 'int64 add' '{}' ops 'lat_ops [int64 add]'
fig par_ops 'integer add' '{}' ops 'par_ops [integer add]'
fig lat_ctx ring '{"nprocs":2,"size":0,"placement":"unpinned"}' context \
    'lat_ctx -s 0 2 8 16 [2 procs]'
fig lat_ctx ring '{"nprocs":4,"size":16384,"placement":"unpinned"}' context \
    'lat_ctx -s 16 [4 procs]'
fig lat_udp udp '{"host":"127.0.0.1","msgsize":4,"placement":"unpinned"}' \
    latency 'lat_udp (unpinned)'
fig bw_mem bcopy '{"size":65536,"conflict":"no"}' bandwidth 'bw_mem 64k bcopy'
fig bw_mem rd '{"size":67108864,"conflict":"no"}' memory 'bw_mem 64m rd'
fig lat_fs delete '{"size":10240,"files":1000}' filevm \
    'lat_fs -s 10k -n 1000 [delete]'
fig lat_pagefault per-page '{}' filevm lat_pagefault
fig lat_mem_rd stride '{"size":67108864,"stride":64}' memlat \
    'lat_mem_rd 64 64 [main mem 64m]'
fig lat_mem_rd page '{"size":67108864,"stride":16}' memlat \
    'lat_mem_rd -t 64 16 [rand mem 64m]'
jq -e -s '(map(select(.suite.role)) | length == 2) and
    ([.[] | select(.tool == "lat_mem_rd" and .suite.role == null)] |
     length > 0 and all(.suite.curve == true))' "$tmp/fixture.jsonl" \
    >/dev/null || fail "fixture: lat_mem_rd roles and curve not as expected"
# The groups are benchmp-run's: every imported group is one of its plan.
jq -r '.suite.group' "$tmp/fixture.jsonl" | sort -u >"$tmp/groups"
"$top_srcdir/scripts/benchmp-run" --only nosuchgroup 2>&1 |
    sed -n "s/.*unknown group 'nosuchgroup' (\(.*\)).*/\1/p" |
    tr ',' '\n' | tr -d ' ' | sed '/^$/d' | sort -u >"$tmp/plan-groups"
[ -s "$tmp/plan-groups" ] || fail "benchmp-run did not list its groups"
comm -23 "$tmp/groups" "$tmp/plan-groups" >"$tmp/stray"
[ ! -s "$tmp/stray" ] || fail "groups benchmp-run has not: $(cat "$tmp/stray")"
# The lines without a benchmp figure and the unknown line are warnings
# naming their line numbers.
for n in 38 54 118; do
	grep -q "lmbench-results.txt:$n: " "$tmp/err" ||
		fail "fixture: no warning for line $n: $(cat "$tmp/err")"
done

# A truncated copy: the cut last line is not imported and the file says
# so; what comes before it is.
head -c "$(($(grep -b 'Select on 100 tcp' "$fixture" | cut -d: -f1) + 20))" \
    "$fixture" >"$tmp/cut.txt"
run "$imp" "$tmp/cut.txt"
[ "$rc" -eq 0 ] || fail "truncated: exit $rc"
grep -q 'cut.txt:29: the file is truncated' "$tmp/err" ||
	fail "truncated: not said: $(cat "$tmp/err")"
# Lines 21-28, and the header's MHZ.
[ "$(wc -l <"$tmp/out")" -eq 9 ] ||
	fail "truncated: $(wc -l <"$tmp/out") records, expected 9"
# Nothing but a header and garbage: exit 1, no crash.
{ head -n 10 "$fixture"; printf '"size=0k ovr=1\n\001\002 x\n"stride=x\n'; } \
    >"$tmp/none.txt"
expect_exit 1 'no lmbench figure found' "$imp" "$tmp/none.txt"

# Our tools print lmbench's lines: run some briefly, keep both the line and
# the --json record of one run, import the lines and match the keys.
ENOUGH=1000
f=$tmp/file
dd if=/dev/zero of="$f" bs=65536 count=4 2>/dev/null || fail "dd"
: >"$tmp/ours.jsonl"
{
	head -n 20 "$fixture"
	for args in "lat_syscall null" "lat_syscall stat" "lat_select -n 10 file" \
	    "lat_sig catch" "lat_proc fork" "lat_pipe" "lat_unix" "lat_fifo" \
	    "lat_unix_connect" "lat_tcp" "bw_pipe" "lat_ops" "par_ops" "mhz"; do
		# shellcheck disable=SC2086 # the words are the command
		set -- $args
		t=$1
		shift
		BENCHMP_OUTPUT=file:$tmp/ours.jsonl timeout 120 \
		    "$bin/$t" -N 3 "$@" || fail "$t $*: exit $?"
	done
	echo '"Memory partial read bandwidth'
	for s in 4k 64k; do
		BENCHMP_OUTPUT=file:$tmp/ours.jsonl timeout 60 \
		    "$bin/bw_mem" -N 3 "$s" rd || fail "bw_mem $s: exit $?"
	done
	echo
	BENCHMP_OUTPUT=file:$tmp/ours.jsonl timeout 60 \
	    "$bin/lat_ctx" -N 3 -s 0 2 3 || fail "lat_ctx: exit $?"
	echo
	BENCHMP_OUTPUT=file:$tmp/ours.jsonl timeout 60 \
	    "$bin/lat_mem_rd" -N 3 1 64 || fail "lat_mem_rd: exit $?"
	echo
	BENCHMP_OUTPUT=file:$tmp/ours.jsonl timeout 60 \
	    "$bin/lat_fs" -N 3 -s 0 || fail "lat_fs: exit $?"
} >"$tmp/made.txt" 2>"$tmp/made.err"
run "$imp" "$tmp/made.txt"
[ "$rc" -eq 0 ] || fail "made: exit $rc: $(head -n 3 "$tmp/err")"
! grep -q 'unknown' "$tmp/err" ||
	fail "made: lines of our tools unknown: $(grep unknown "$tmp/err")"
cp "$tmp/out" "$tmp/made.jsonl"
# Each imported record has a record of ours with the same tool, case,
# metric, unit and better, whose params hold all of the imported ones
# (but the placement: lmbench's two-process figures are unpinned), and
# the same value as printed (the line rounds it: within its last digit).
jq -n -r --slurpfile I "$tmp/made.jsonl" --slurpfile O "$tmp/ours.jsonl" '
    $I[] | . as $i | [$O[] | select(.tool == $i.tool and
	.case == $i.case and .metric == $i.metric and .unit == $i.unit and
	.better == $i.better and .params as $q |
	all($i.params | to_entries[]; $q[.key] == .value or
	    .key == "placement" and .value == "unpinned"))] |
    if length == 0 then "no record of ours for \($i.lmbench.text)"
    elif (map((.value - $i.value) | fabs <=
	  ([$i.value | fabs * 0.005, 0.006] | max)) | any | not)
    then "value \($i.value) is not ours: \($i.lmbench.text)"
    else empty end' >"$tmp/bad" || fail "made: jq failed"
[ ! -s "$tmp/bad" ] || fail "made: $(head -n 5 "$tmp/bad")"
# bw_mem prints 4k as "0.00" MB: too few digits to know the size, so
# that one line is skipped with a warning, the rest imported.
grep -q 'size 0.00 MB fits several sizes: not imported' "$tmp/err" ||
	fail "made: 0.00 MB not refused: $(cat "$tmp/err")"
nours=$(($(jq -s length "$tmp/ours.jsonl") - 1))
nimp=$(jq -s length "$tmp/made.jsonl")
[ "$nimp" -eq "$nours" ] ||
	fail "made: $nimp records imported, $nours written by our tools"

# compare pairs every imported figure with ours, says "undecided" or
# "same", never better or worse, and exits 0 or 3; then against itself.
# (How an unpinned figure pairs with a pinned one is compare's to say.)
run "$cmp" "$tmp/made.jsonl" "$tmp/ours.jsonl"
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] ||
	fail "compare imported/ours: exit $rc: $(cat "$tmp/err")"
! grep -E ' (better|worse|failed|only in A)$' "$tmp/out" |
    grep -vq ' unpinned ' ||
	fail "compare imported/ours: $(grep -E ' (better|worse|failed|only in A)$' "$tmp/out")"
run "$cmp" "$tmp/fixture.jsonl" "$tmp/fixture.jsonl"
if [ "$rc" -ne 0 ] ||
    grep -Eq ' (better|worse|undecided|failed|only in .)$' "$tmp/out"; then
	fail "fixture vs itself: $(cat "$tmp/out")"
fi
# A figure doubled in an imported file: a change without an interval or
# processes is undecided (exit 3), never "worse".
jq -c 'if .tool == "lat_syscall" and .case == "null" then .value *= 2 |
    .median *= 2 else . end' "$tmp/fixture.jsonl" >"$tmp/doubled.jsonl"
run "$cmp" "$tmp/fixture.jsonl" "$tmp/doubled.jsonl"
[ "$rc" -eq 3 ] || fail "doubled: exit $rc"
grep -Eq '^lat_syscall null .* undecided$' "$tmp/out" ||
	fail "doubled: not 'undecided': $(grep 'lat_syscall null' "$tmp/out")"

[ "$failures" -eq 0 ]
