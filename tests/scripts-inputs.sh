#!/bin/sh
# scripts-inputs.sh: every script that reads records bounds what it reads
# and names the file and line of what it cannot use: a file larger than
# 64 MB (a sparse one, and /dev/zero where the script reads devices) or
# with a line longer than 1 MB is refused at once; a corrupt line in the
# middle of a file is refused by benchmp-plot as by benchmp-summary, not
# drawn around; a record of an odd shape (params an array, suite a
# string) is named with its line and member, never as a raw jq error.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
s=$top_srcdir/scripts
data=$top_srcdir/tests/data
gp=0
! command -v gnuplot >/dev/null 2>&1 || gp=1
# A stand-in for a hang on the old scripts (jq growing on /dev/zero, awk
# spinning): a failure, not a time this test measures.
lim=
! command -v timeout >/dev/null 2>&1 || lim="timeout 600"

# refused WHAT PATTERN CMD...: CMD exits 1 (benchmp-compare: 4, a file
# it cannot compare) with a message matching PATTERN, and no raw jq error.
refused() {
	what=$1
	pat=$2
	shift 2
	# shellcheck disable=SC2086 # (the time bound's words)
	run $lim "$@"
	want=1
	case $* in *benchmp-compare*) want=4 ;; esac
	[ "$rc" -eq "$want" ] ||
		fail "$what: exit $rc, not $want: $(head -n 2 "$tmp/err")"
	grep -Eq -- "$pat" "$tmp/err" ||
		fail "$what: stderr does not match '$pat': $(head -n 2 "$tmp/err")"
	! grep -q 'jq: error' "$tmp/err" ||
		fail "$what: a raw jq error: $(head -n 2 "$tmp/err")"
}

# What each script reads records with, FILE last.
readers() {
	echo "summary $s/benchmp-summary"
	echo "report $s/benchmp-report --output $tmp/r.html"
	echo "compare $s/benchmp-compare $data/aa-1.jsonl"
	[ "$gp" = 0 ] || echo "plot $s/benchmp-plot summary --output $tmp/p"
	[ "$gp" = 0 ] || echo "sections $s/benchmp-plot sections --output $tmp/p"
}

# Too large: a sparse file of 70 MB (no disk), and too long a line.
truncate -s 70M "$tmp/big.jsonl" 2>/dev/null ||
	dd if=/dev/zero of="$tmp/big.jsonl" bs=1 count=0 seek=70M 2>/dev/null ||
	exit 99
awk 'BEGIN { s = "x"; while (length(s) < 1100000) s = s s; print s }' \
    >"$tmp/long.jsonl" || exit 99
readers | while read -r name cmd; do
	# shellcheck disable=SC2086 # (the reader's words: no blanks in them)
	refused "$name: 70 MB" "big.jsonl: larger than 64 MB" $cmd "$tmp/big.jsonl"
	# shellcheck disable=SC2086
	refused "$name: a long line" "long.jsonl: line 1 is longer than 1 MB" \
	    $cmd "$tmp/long.jsonl"
	echo "$failures" >"$tmp/failures"
done
failures=$(cat "$tmp/failures")
# /dev/zero, where a script takes a device.
refused "compare /dev/zero" "/dev/zero: larger than 64 MB" \
    "$s/benchmp-compare" "$data/aa-1.jsonl" /dev/zero
refused "import /dev/zero" "/dev/zero: larger than 64 MB" \
    "$s/benchmp-import-lmbench" /dev/zero
refused "import 70 MB" "big.jsonl: larger than 64 MB" \
    "$s/benchmp-import-lmbench" "$tmp/big.jsonl"
if [ "$gp" = 1 ]; then
	refused "plot /dev/zero" "/dev/zero: larger than 64 MB" \
	    "$s/benchmp-plot" summary --output "$tmp/p" /dev/zero
	refused "plot scaling /dev/zero" "/dev/zero: larger than 64 MB" \
	    "$s/benchmp-plot" scaling --output "$tmp/p" /dev/zero
	refused "plot mem --machine /dev/zero" "/dev/zero: larger than 64 MB" \
	    "$s/benchmp-plot" mem --output "$tmp/p" --machine /dev/zero \
	    "$data/lat_mem_rd.jsonl"
fi
refused "report --machine 70 MB" "big.jsonl: larger than 64 MB" \
    "$s/benchmp-report" --output "$tmp/r.html" --machine "$tmp/big.jsonl" \
    "$data/aa-1.jsonl"

# A corrupt line in the middle: refused with its line, by every reader
# (in jq's words by the scripts, the library's reader's by the commands
# in C).
{ head -n 3 "$data/aa-1.jsonl"; echo 'garbage'; tail -n +4 "$data/aa-1.jsonl"; } \
    >"$tmp/corrupt.jsonl" || exit 99
readers | while read -r name cmd; do
	why="records that are not JSON: line 4"
	case $name in compare | summary | report) why="line 4: invalid JSON" ;; esac
	# shellcheck disable=SC2086
	refused "$name: a corrupt line" "corrupt.jsonl: $why" $cmd "$tmp/corrupt.jsonl"
	echo "$failures" >"$tmp/failures"
done
failures=$(cat "$tmp/failures")
[ ! -e "$tmp/p.png" ] || fail "plot drew a chart of a corrupt file"
[ ! -e "$tmp/r.html" ] || fail "report drew a page of a corrupt file"

# Records of an odd shape, after two good ones: each is named with its
# file, line and member.
for odd in 'params|[1]|params is an array, not an object' \
    'suite|"x"|suite is a string, not an object' \
    'robust|"x"|robust is a string, not an object' \
    'case|{}|case is an object, not a string or a number' \
    'parallel|"2"|parallel is a string, not a number' \
    'modes|{}|modes is an object, not an array' \
    'interference|{"disturbed":"x"}|interference.disturbed is a string, not a number' \
    'suite|{"group":1}|suite.group is a number, not a string' \
    'params|{"size":[1]}|params.size is an array, not a string, a number or a boolean'
do
	key=${odd%%|*}
	rest=${odd#*|}
	val=${rest%%|*}
	why=${rest#*|}
	{ head -n 2 "$data/aa-1.jsonl"; sed -n 3p "$data/aa-1.jsonl" |
	    jq -c --argjson v "$val" --arg k "$key" '.[$k] = $v'; } \
	    >"$tmp/odd.jsonl" || exit 99
	readers | while read -r name cmd; do
		# shellcheck disable=SC2086
		refused "$name: $key $val" "odd.jsonl: line 3: $why" $cmd "$tmp/odd.jsonl"
		echo "$failures" >"$tmp/failures"
	done
	failures=$(cat "$tmp/failures")
done

# Machine descriptions of an odd shape: the report is drawn without the
# part it cannot use, or the file is named; never a raw jq error.
for m in '{"check":"x"}' '{"check":{"checks":[1]}}' '{"caches":[1]}'; do
	printf '%s\n' "$m" >"$tmp/m.json"
	run "$s/benchmp-report" --output "$tmp/r.html" --machine "$tmp/m.json" \
	    "$data/lat_mem_rd.jsonl"
	[ "$rc" -eq 0 ] || fail "report --machine $m: exit $rc: $(head -n 2 "$tmp/err")"
done
# lat_mem_rd records without sizes (a suite run at one size): the
# report is drawn without a curve, not stopped by a division by null.
run "$s/benchmp-report" --output "$tmp/r.html" "$data/suite-quiet-1.jsonl"
[ "$rc" -eq 0 ] && grep -q 'no curve is drawn' "$tmp/r.html" ||
	fail "report of lat_mem_rd records without sizes: exit $rc: $(head -n 2 "$tmp/err")"
printf '[1]\n' >"$tmp/m.json"
refused "report --machine [1]" "m.json: not a machine description: not an object" \
    "$s/benchmp-report" --output "$tmp/r.html" --machine "$tmp/m.json" \
    "$data/aa-1.jsonl"
refused "compare --machine-a [1]" "m.json: not a machine description: not a JSON object" \
    "$s/benchmp-compare" --machine-a "$tmp/m.json" "$data/aa-1.jsonl" \
    "$data/aa-2.jsonl"
finish
