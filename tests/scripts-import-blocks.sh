#!/bin/sh
# scripts-import-blocks.sh: benchmp-import-lmbench reads every block the
# lmbench results script writes (its headings quoted or plain), in
# lmbench 3 and lmbench 2 files, truncated files and files with lines of
# other programs among them.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
imp=$top_srcdir/scripts/benchmp-import-lmbench
data=$top_srcdir/tests/data
all=$data/lmbench3-all-blocks.txt

# want FILE TOOL CASE PARAMS VALUE: one record of FILE's with these keys
# has this value.
want() {
	jq -e -s --arg t "$2" --arg c "$3" --argjson p "$4" --argjson v "$5" \
	    'map(select(.tool == $t and .case == $c and .params == $p)) |
	     length == 1 and .[0].value == $v' "$1" >/dev/null ||
		fail "${1##*/}: no $2 $3 $4 = $5"
}
# count FILE TOOL CASE N [CONFLICT]: FILE has N records of TOOL CASE.
count() {
	n=$(jq -s --arg t "$2" --arg c "$3" --arg k "${5-}" \
	    'map(select(.tool == $t and .case == $c and
	     ($k == "" or .params.conflict == $k))) | length' "$1")
	[ "$n" = "$4" ] || fail "${1##*/}: $n records of $2 $3 ${5-}, not $4"
}

# Every block of an lmbench 3 run: each heading to its tool and case (the
# first row of each block is its own number), every row imported, nothing
# unknown; the lines without a benchmp figure are named.
run "$imp" "$all"
[ "$rc" -eq 0 ] || fail "all blocks: exit $rc: $(head -n 3 "$tmp/err")"
cp "$tmp/out" "$tmp/all.jsonl"
cp "$tmp/err" "$tmp/all.err"
! grep -Eq 'unknown|outside' "$tmp/all.err" ||
	fail "all blocks: $(grep -E 'unknown|outside' "$tmp/all.err" | head -n 3)"
[ "$(jq -s length "$tmp/all.jsonl")" -eq 174 ] ||
	fail "all blocks: $(jq -s length "$tmp/all.jsonl") records, not 174"
for n in 98 115 116 129; do
	grep -q "lmbench3-all-blocks.txt:$n: no benchmp figure for" \
	    "$tmp/all.err" || fail "all blocks: no warning for line $n"
done
f=$tmp/all.jsonl
for b in 'bw_file_rd io_only 3 2011.22' 'bw_file_rd open2close 3 301.44' \
    'bw_mmap_rd mmap_only 3 30123.44' 'bw_mmap_rd open2close 3 12.34'; do
	# shellcheck disable=SC2086 # the words are the fields
	set -- $b
	count "$f" "$1" "$2" "$3"
	want "$f" "$1" "$2" '{"size":512}' "$4"
done
# Quoted ("libc bcopy unaligned) and plain (Memory read bandwidth)
# headings of bw_mem, as the results script runs it.
for b in 'bcopy no 25012.11' 'bcopy yes 26012.11' 'bzero no 45012.34' \
    'fcp no 15012.11' 'cp no 16012.11' 'frd no 18012.34' 'rd no 28012.34' \
    'fwr no 19012.34' 'wr no 29012.34' 'rdwr no 24012.34'; do
	# shellcheck disable=SC2086 # the words are the fields
	set -- $b
	count "$f" bw_mem "$1" 3 "$2"
	want "$f" bw_mem "$1" "{\"size\":512,\"conflict\":\"$2\"}" "$3"
done
# bw_mem prints 8 MB as "8.39": the size that prints so.
want "$f" bw_mem frd '{"size":8388608,"conflict":"no"}' 9811.22
count "$f" lat_mmap write-16k 5
want "$f" lat_mmap write-16k '{"size":8388608}' 73
count "$f" lat_fs create 4
want "$f" lat_fs delete '{"size":4096,"files":1000}' 158765
count "$f" lat_ctx ring 16
want "$f" lat_ctx ring '{"nprocs":96,"size":4096,"placement":"unpinned"}' 6.2
count "$f" par_mem chase 3
want "$f" par_mem chase '{"size":8388608,"line":64}' 9.88
count "$f" lat_mem_rd stride 9
count "$f" lat_mem_rd page 3
want "$f" lat_mem_rd page '{"size":8388608,"stride":16}' 98.334
count "$f" tlb tlb 1
count "$f" lat_select file 4
count "$f" lat_select tcp 4
want "$f" lat_select tcp '{"nfds":500}' 9.8704
count "$f" lat_ops 'int64 add' 1
# The bogomflops are lat_ops figures, as benchmp's lat_ops prints them.
count "$f" lat_ops 'float bogomflops' 1
want "$f" lat_ops 'double bogomflops' '{}' 2.93
! grep -q 'bogomflops' "$tmp/all.err" ||
	fail "all blocks: $(grep bogomflops "$tmp/all.err" | head -n 1)"
count "$f" par_ops 'float div' 1
count "$f" stream copy 4
jq -e -s 'map(select(.tool == "stream" and .case == "copy" and
    .metric == "bandwidth")) | map({(.params.version | tostring): .value}) |
    add == {"1": 15678.9, "2": 15841.58}' "$f" >/dev/null ||
	fail "all blocks: STREAM2 copy not apart from STREAM copy"
# bw_tcp of lmbench 3: each row is a message size, moved once per
# transfer (-m alone).
count "$f" bw_tcp tcp 8
want "$f" bw_tcp tcp \
    '{"host":"127.0.0.1","msgsize":1,"total":1,"placement":"unpinned"}' 1.23
want "$f" bw_tcp tcp \
    '{"host":"127.0.0.1","msgsize":10485760,"total":10485760,"placement":"unpinned"}' 4012.88
# lmbench's two-process figures are unpinned (LMBENCH_SCHED DEFAULT):
# never our pinned "cross".
jq -e -s '[.[] | select(.params.placement != null)] |
    length == 31 and all(.params.placement == "unpinned") and
    all(.suite.figure | test("cross") | not)' "$f" >/dev/null ||
	fail "all blocks: placements: $(jq -c 'select(.params.placement != null) | [.tool, .params.placement]' "$f" | sort -u | head -n 5)"
jq -e -s 'map(select(.tool == "lat_pipe")) | .[0].suite.figure ==
    "lat_pipe (unpinned)"' "$f" >/dev/null || fail "all blocks: lat_pipe's figure"
# Another LMBENCH_SCHED is said as it is.
sed 's/^\[LMBENCH_SCHED: DEFAULT\]$/[LMBENCH_SCHED: SINGLE]/' "$all" \
    >"$tmp/single.txt"
run "$imp" "$tmp/single.txt"
jq -e -s 'map(select(.tool == "lat_tcp")) |
    .[0].params.placement == "LMBENCH_SCHED=SINGLE"' "$tmp/out" >/dev/null ||
	fail "LMBENCH_SCHED=SINGLE: $(jq -c 'select(.tool == "lat_tcp") | .params' "$tmp/out")"

# lmbench 2: every memory heading quoted, the socket bandwidth on its
# heading's line.
f=$tmp/two.jsonl
run "$imp" "$data/lmbench2-results.txt"
[ "$rc" -eq 0 ] && ! grep -Eq 'unknown|outside' "$tmp/err" ||
	fail "lmbench 2: exit $rc: $(head -n 3 "$tmp/err")"
cp "$tmp/out" "$f"
[ "$(jq -s length "$f")" -eq 65 ] || fail "lmbench 2: $(jq -s length "$f") records, not 65"
for b in 'bzero no 2012.34' 'frd no 812.34' 'rd no 1112.34' 'fwr no 912.34' \
    'wr no 1212.34' 'rdwr no 1012.34' 'bcopy yes 1022.11'; do
	# shellcheck disable=SC2086 # the words are the fields
	set -- $b
	want "$f" bw_mem "$1" "{\"size\":512,\"conflict\":\"$2\"}" "$3"
done
want "$f" bw_tcp tcp \
    '{"host":"127.0.0.1","msgsize":65536,"total":10485760,"placement":"unpinned"}' 110.23
jq -e -s 'all(.lmbench.version == "lmbench-2alpha13" and .host == "relic")' \
    "$f" >/dev/null || fail "lmbench 2: version or host"

# Truncated in the middle of a row of a plain-heading block: the rows
# before the cut are imported, the torn one is not, and the file is said
# to be cut.
cut=$(grep -b '^0.065536 27123.88$' "$all" | cut -d: -f1)
head -c "$((cut + 9))" "$all" >"$tmp/cut.txt"
run "$imp" "$tmp/cut.txt"
[ "$rc" -eq 0 ] && grep -q 'truncated' "$tmp/err" ||
	fail "truncated: exit $rc: $(tail -n 2 "$tmp/err")"
want "$tmp/out" bw_mem rd '{"size":512,"conflict":"no"}' 28012.34
jq -e -s 'map(select(.tool == "bw_mem" and .case == "rd")) | length == 1' \
    "$tmp/out" >/dev/null || fail "truncated: the torn row was imported"
jq -e -s 'map(select(.tool == "bw_mem" and .case == "frd")) | length == 3' \
    "$tmp/out" >/dev/null || fail "truncated: the blocks before the cut"
# Cut at a line's end, right after a heading: nothing of that block.
head -n "$(grep -n '^Memory write bandwidth$' "$all" | cut -d: -f1)" "$all" \
    >"$tmp/cut2.txt"
run "$imp" "$tmp/cut2.txt"
[ "$rc" -eq 0 ] && [ "$(jq -s length "$tmp/out")" -gt 100 ] ||
	fail "cut after a heading: exit $rc"

# Lines of other programs and stray text among the blocks (a message, a
# row of three numbers, a heading with trailing blanks, CRLF line ends):
# each is named and skipped, every figure is still imported.
awk '{ print }
    /^Memory read bandwidth$/ { print "lat_mem_rd: warning: short run" }
    /^"libc bcopy aligned$/ { print "0.000256 1 2" }
    /^Pipe latency: / { print "Using config in CONFIG.crate" }' "$all" |
    sed 's/^Memory partial write bandwidth$/& \t/' |
    sed 's/$/\r/' >"$tmp/extra.txt"
run "$imp" "$tmp/extra.txt"
[ "$rc" -eq 0 ] || fail "extra lines: exit $rc"
[ "$(jq -s length "$tmp/out")" -eq 174 ] ||
	fail "extra lines: $(jq -s length "$tmp/out") records, not 174"
[ "$(grep -c 'unknown line' "$tmp/err")" -eq 3 ] ||
	fail "extra lines: not 3 named: $(grep 'unknown line' "$tmp/err")"
jq -S -c 'del(.lmbench)' "$tmp/out" >"$tmp/extra.cmp"
jq -S -c 'del(.lmbench)' "$tmp/all.jsonl" >"$tmp/all.cmp"
cmp -s "$tmp/extra.cmp" "$tmp/all.cmp" ||
	fail "extra lines: the figures differ: $(diff "$tmp/all.cmp" "$tmp/extra.cmp" | head -n 3)"

exit $((failures > 0))
