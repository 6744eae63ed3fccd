#!/bin/sh
# benchmp-stats.sh: the library's statistics of values on stdin, exact for known inputs and equal to a record's.
. "$top_srcdir/tests/lib.sh"

st=$bin/benchmp-stats

# feed FILE: run benchmp-stats on FILE, output in $tmp/out and $tmp/err,
# the exit status in $rc.
feed() {
	"$st" <"$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# feed_json FILE FILTER: benchmp-stats on FILE prints one line for which
# jq's FILTER is true.
feed_json() {
	feed "$1"
	if [ "$rc" -ne 0 ]; then
		fail "benchmp-stats <$1 exited $rc: $(head -n 2 "$tmp/err")"
	elif [ "$(wc -l <"$tmp/out")" -ne 1 ]; then
		fail "benchmp-stats <$1 printed $(wc -l <"$tmp/out") lines"
	elif have_jq && ! jq -e "$2" "$tmp/out" >/dev/null; then
		fail "benchmp-stats <$1: jq '$2' is not true for $(cut -c1-300 "$tmp/out")"
	fi
}

# feed_exit STATUS PATTERN FILE: benchmp-stats on FILE exits STATUS with
# stderr matching PATTERN, and prints nothing on stdout.
feed_exit() {
	feed "$3"
	if [ "$rc" -ne "$1" ]; then
		fail "benchmp-stats <$3 exited $rc, expected $1: $(head -n 2 "$tmp/err")"
	elif ! grep -Eq -- "$2" "$tmp/err"; then
		fail "benchmp-stats <$3: stderr does not match '$2': $(head -n 2 "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		fail "benchmp-stats <$3 failed but printed '$(head -c 200 "$tmp/out")'"
	fi
}

# 1 to 5 in one round: the whole line, byte for byte (the order of the
# members and the number format are the record's).
seq 5 >"$tmp/five"
feed "$tmp/five"
want='{"value":3,"median":3,"min":1,"max":5,"mean":3,"stddev":1.5811388300841898,"cv":0.52704627669472992,"ci_lo":1,"ci_hi":5,"ci_level":0.9375,"ci_floor":0.0050000000000000001,"ci_stat_lo":1,"ci_stat_hi":5,"noisy":true,"bimodal":false,"samples":5,"processes":1,"within":{"median":3,"cv":0.52704627669472992,"ci_lo":1,"ci_hi":5,"ci_level":0.9375,"noisy":true,"bimodal":false},"values":[1,2,3,4,5],"process_values":[3],"process_samples":[5]}'
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] ||
	fail "1..5 in one round: exit $rc, printed '$(cat "$tmp/out")'"
# Blank lines are ignored, a CR before the newline and spaces are not
# part of the value, and the last line needs no newline.
printf '\n  1\t\n\n2\r\n 3 \n\n4\n5' >"$tmp/blank"
feed "$tmp/blank"
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] ||
	fail "1..5 with blank lines: exit $rc, printed '$(cat "$tmp/out")'"
# One line, one value, one round: its statistical interval is the value,
# covering 0; the interval is the floor's, 0.5% of the median each side.
echo 2.5 >"$tmp/one"
feed_json "$tmp/one" '.median == 2.5 and .ci_stat_lo == null and .ci_level == 0 and .ci_floor == null and .ci_lo == null and .ci_hi == null and .noisy and .samples == 1 and .processes == 1'

# The same values in rounds: the statistics are over the rounds' medians.
printf '1 1\n1 2\n2 3\n2 4\n3 5\n' >"$tmp/split"
feed_json "$tmp/split" '.process_values == [1.5, 3.5, 5] and .process_samples == [2, 2, 1] and .median == 3.5 and .min == 1.5 and .max == 5 and .ci_lo == 1.5 and .ci_hi == 5 and .ci_level == 0.75 and .samples == 5 and .processes == 3 and .values == [1, 2, 3, 4, 5] and .within.median == 3.5 and .within.ci_lo == 3 and .within.ci_hi == 4'
# Labels are any non-negative integers, rounds in the order they first
# appear, their lines in any order.
printf '9 10\n0 1\n18446744073709551615 7\n9 12\n0 3\n' >"$tmp/labels"
feed_json "$tmp/labels" '.process_values == [11, 2, 7] and .median == 7 and .processes == 3 and .samples == 5 and .values == [10, 1, 7, 12, 3]'

# Nine rounds, medians 10 to 90 given shuffled: the interval is the 2nd
# and 8th smallest round medians, covering 1 - 20/512.
for m in 50 10 90 30 70 20 80 40 60; do
	for d in -1 0 1; do
		echo "$m $((m + d))"
	done
done >"$tmp/nine"
feed_json "$tmp/nine" '.processes == 9 and .samples == 27 and .median == 50 and .ci_lo == 20 and .ci_hi == 80 and .ci_level == 0.9609375 and .process_values == [50, 10, 90, 30, 70, 20, 80, 40, 60] and .noisy and .within.median == 50'

# Two rounds near 10 and two near 20 are two modes at the process level,
# not within rounds; one odd round of four is not a mode.
printf '1 9.9\n1 10\n1 10.1\n2 19.9\n2 20\n2 20.1\n3 10\n3 10.1\n3 9.9\n4 20.1\n4 20\n4 19.9\n' >"$tmp/modes"
feed_json "$tmp/modes" '.bimodal and (.within.bimodal | not) and .median == 15 and .process_values == [10, 20, 10, 20]'
printf '1 9.9\n1 10\n1 10.1\n2 19.9\n2 20\n2 20.1\n3 10\n3 10.1\n3 9.9\n4 10.1\n4 10\n4 9.9\n' >"$tmp/odd"
feed_json "$tmp/odd" '(.bimodal | not) and .median == 10 and .process_values == [10, 20, 10, 10]'

# The same statistics as a tool's record: its values, labelled with their
# rounds (in sample order, the rounds one after the other), give the
# record's members byte for byte; two passes merge into one figure over
# all their rounds.
if have_jq; then
	# pairs FILE PASS: the record's values as "LABEL VALUE" lines, each
	# labelled by its round from the rounds' counts (process_samples: a
	# round whose disturbed intervals were run again may keep more).
	pairs() {
		jq -r --argjson p "$2" '[.process_samples | to_entries[] |
		    .key as $r | range(0; .value) | $r] as $round |
		    .values | to_entries[] |
		    "\($p * 1000 + $round[.key]) \(.value)"' "$1"
	}
	# No interference accounting: a run it finds disturbed is noisy for a
	# reason the values alone do not hold (one run in three on a 2-vCPU
	# guest), and here the values are all benchmp-stats is given.
	for pass in 1 2; do
		run "$bin/lat_syscall" --json --no-interference --processes=3 null
		[ "$rc" -eq 0 ] ||
			fail "lat_syscall --json --no-interference --processes=3 null exited $rc: $(cat "$tmp/err")"
		cp "$tmp/out" "$tmp/rec$pass"
	done
	jq -e '.processes == 3 and .samples % 3 == 0' "$tmp/rec1" >/dev/null ||
		fail "lat_syscall --processes=3: not 3 rounds: $(cut -c1-300 "$tmp/rec1")"
	pairs "$tmp/rec1" 1 >"$tmp/pairs1"
	# With the record's direction, the record's members: its value (the
	# best process), the next run's interval and the robust figure.
	"$st" --better=lower <"$tmp/pairs1" >"$tmp/out" 2>"$tmp/err" ||
		fail "benchmp-stats --better=lower exited $?: $(head -n 2 "$tmp/err")"
	keys='{value, stat, median, min, max, mean, stddev, cv, ci_lo, ci_hi, ci_level, ci_kind, median_ci_lo, median_ci_hi, median_ci_level, noisy, bimodal, samples, processes, within, values, process_values, process_samples, robust}'
	[ "$(jq -c "$keys" "$tmp/out")" = "$(jq -c "$keys" "$tmp/rec1")" ] ||
		fail "the statistics of a record's values differ from the record's: $(cut -c1-300 "$tmp/out")"
	inner=$(sed 's/^{//; s/}$//' "$tmp/out")
	grep -qF ",$inner," "$tmp/rec1" ||
		fail "benchmp-stats's members are not the record's text: $(cut -c1-300 "$tmp/out")"
	{ cat "$tmp/pairs1"; pairs "$tmp/rec2" 2; } >"$tmp/merged"
	feed "$tmp/merged"
	jq -e --slurpfile a "$tmp/rec1" --slurpfile b "$tmp/rec2" '
	    ($a[0].process_values + $b[0].process_values) as $pv |
	    ($pv | sort) as $s |
	    .processes == 6 and .samples == $a[0].samples + $b[0].samples and
	    .process_values == $pv and .median == ($s[2] + $s[3]) / 2 and
	    .process_samples == $a[0].process_samples + $b[0].process_samples and
	    .min == $s[0] and .max == $s[5] and .ci_stat_lo == $s[0] and
	    .ci_stat_hi == $s[5] and .ci_level == 0.96875 and
	    .ci_lo == ([$s[0], .median - .median * .ci_floor] | min) and
	    .ci_hi == ([$s[5], .median + .median * .ci_floor] | max) and
	    .values == $a[0].values + $b[0].values' "$tmp/out" >/dev/null ||
		fail "two passes merged: $(cut -c1-300 "$tmp/out")"
fi

# Bad data exits 1, naming the line and what is wrong.
printf '1\nx\n' >"$tmp/e"
feed_exit 1 "^benchmp-stats: line 2: 'x' is not a number$" "$tmp/e"
printf '1 2\n3 4x\n' >"$tmp/e"
feed_exit 1 "^benchmp-stats: line 2: '4x' is not a number$" "$tmp/e"
for v in nan NaN inf -inf infinity 1e999; do
	printf '1\n2\n%s\n' "$v" >"$tmp/e"
	feed_exit 1 "^benchmp-stats: line 3: '$v' is not a finite number$" \
	    "$tmp/e"
done
echo 1e-400 >"$tmp/e"
feed_exit 1 "line 1: 1e-400 is out of the range of a double" "$tmp/e"
printf '1\n2\n\n3 4\n' >"$tmp/e"
feed_exit 1 'line 4: ROUND VALUE after lines of values alone' "$tmp/e"
printf '1 2\n3\n' >"$tmp/e"
feed_exit 1 'line 2: a value alone after lines of ROUND VALUE' "$tmp/e"
for r in -1 1.5 +2 0x10 a; do
	echo "$r 5" >"$tmp/e"
	re=$(printf '%s' "$r" | sed 's/[+.]/[&]/g')
	feed_exit 1 "line 1: round '$re' is not a non-negative integer" \
	    "$tmp/e"
done
echo "18446744073709551616 5" >"$tmp/e"
feed_exit 1 'line 1: round 18446744073709551616 is out of range' "$tmp/e"
echo "1 2 3" >"$tmp/e"
feed_exit 1 'line 1: more than two fields' "$tmp/e"
printf '\n \n\t\n' >"$tmp/e"
feed_exit 1 '^benchmp-stats: no values on standard input$' "$tmp/e"
feed_exit 1 'no values on standard input' /dev/null
# A line too long and a NUL byte are errors, not truncated values.
{ echo 1; printf '%02000d\n' 5; } >"$tmp/e"
feed_exit 1 'line 2: longer than 1023 characters' "$tmp/e"
printf '1\n2\0003\n' >"$tmp/e"
feed_exit 1 'line 2: a NUL byte' "$tmp/e"
# The limits: 100,000 rounds and 10,000,000 values.
awk 'BEGIN { for (i = 0; i <= 100000; i++) print i, 1 }' >"$tmp/e"
feed_exit 1 'line 100001: more than 100000 rounds' "$tmp/e"
awk 'BEGIN { for (i = 0; i < 100000; i++) print i, i }' >"$tmp/many"
feed_json "$tmp/many" '.processes == 100000 and .median == 49999.5'
awk 'BEGIN { for (i = 0; i <= 10000000; i++) print 1 }' >"$tmp/e"
feed_exit 1 'line 10000001: more than 10000000 values' "$tmp/e"
rm -f "$tmp/e" "$tmp/many"

# Usage: -h and -V on stdout, exit 0; anything else exits 2.
for h in -h --help; do
	run "$st" "$h"
	[ "$rc" -eq 0 ] && grep -q '^usage: benchmp-stats ' "$tmp/out" &&
	    grep -q 'ROUND VALUE' "$tmp/out" && [ ! -s "$tmp/err" ] ||
		fail "benchmp-stats $h: exit $rc, printed '$(head -n 3 "$tmp/out")'"
done
expect_line '^benchmp-stats \(benchmp\) [0-9]' "$st" -V
expect_line '^benchmp-stats \(benchmp\) [0-9]' "$st" --version
expect_exit 2 '^benchmp-stats: unknown option: -x$' "$st" -x
expect_exit 2 'unknown option: --bogus' "$st" --bogus
expect_exit 2 'unexpected argument: file' "$st" file
expect_exit 2 '^usage: benchmp-stats ' "$st" file

# --better: the robust figure of five rounds is the value, the best
# round's median, with twice its log distance to the third-best each side
# (at least 1%): 100 and 102 give 100 / 1.0404 to 100 * 1.0404, wide past
# the default 3% precision.  --disturbed is accepted and no longer flags.
# None from two rounds.
printf '0 100\n1 101\n2 102\n3 103\n4 104\n' >"$tmp/five"
st_robust() {
	"$st" "$@" <"$tmp/five" >"$tmp/out" 2>"$tmp/err" ||
		fail "benchmp-stats $* exited $?: $(head -n 2 "$tmp/err")"
}
if have_jq; then
	# shellcheck disable=SC2016 # (jq's variables)
	near='def near($a; $b): ($a - $b | fabs) < 1e-9 * ($b | fabs);'
	st_robust --better=lower
	jq -e "$near"'.median == 102 and .value == 100 and
	    .stat == "best process" and .robust.stat == "best process" and
	    .robust.value == 100 and near(.ci_lo; 100 / 1.0404) and
	    near(.ci_hi; 104.04) and .ci_lo == .robust.ci_lo and
	    .ci_level == 0.9 and .noisy == true and .robust.noisy == true and
	    .robust.causes == ["wide"]' "$tmp/out" >/dev/null ||
		fail "--better=lower: $(cat "$tmp/out")"
	st_robust --better=higher --disturbed=5/20
	jq -e "$near"'.value == 104 and .robust.value == 104 and
	    near(.robust.ci_hi; 104 * (104 / 102) * (104 / 102))' \
	    "$tmp/out" >/dev/null ||
		fail "--better=higher --disturbed=5/20: $(cat "$tmp/out")"
	printf '0 100\n1 100.2\n2 100.4\n3 100.6\n4 100.8\n' >"$tmp/five"
	st_robust --better=higher --disturbed=10/20
	jq -e '.robust.noisy == false and .noisy == false and
	    .robust.causes == []' "$tmp/out" >/dev/null ||
		fail "a tight figure flagged: $(cat "$tmp/out")"
	# From three rounds: the third-best is the worst, not flagged for
	# being three; from two, none.
	printf '0 100\n1 100.2\n2 100.4\n' >"$tmp/five"
	st_robust --better=lower
	jq -e '.robust.value == 100 and .robust.noisy == false and
	    .robust.causes == []' "$tmp/out" >/dev/null ||
		fail "the robust figure of three rounds: $(cat "$tmp/out")"
	printf '0 100\n1 101\n' >"$tmp/five"
	st_robust --better=lower
	jq -e 'has("robust") | not' "$tmp/out" >/dev/null ||
		fail "a robust figure from two rounds: $(cat "$tmp/out")"
	# Without --better, no robust member: the value is the median.
	st_robust
	jq -e '(has("robust") | not) and .value == .median' "$tmp/out" \
	    >/dev/null || fail "a robust figure without --better: $(cat "$tmp/out")"
	# --shift: the change from run A (label 0) to run B (label 1).
	printf '0 1.00\n0 1.01\n0 0.99\n0 1.02\n0 1.00\n1 1.10\n1 1.11\n1 1.12\n1 1.09\n1 1.10\n' >"$tmp/five"
	st_robust --shift
	jq -e '.ratio > 1.09 and .ratio < 1.11 and .ci_lo > 1 and
	    .ci_hi < 1.15 and .ci_level >= 0.95 and .p < 0.01 and .a == 5 and
	    .b == 5' "$tmp/out" >/dev/null || fail "--shift: $(cat "$tmp/out")"
	st_robust --shift=0.999
	jq -e '.ci_lo == null and .p < 0.01' "$tmp/out" >/dev/null ||
		fail "--shift=0.999 of five and five: $(cat "$tmp/out")"
fi
expect_exit 1 'two runs' sh -c "printf '0 1\n0 2\n' | '$st' --shift"
expect_exit 2 'shift' "$st" --shift=2
expect_exit 2 'not lower or higher' "$st" --better=best
expect_exit 2 'not D/N' "$st" --better=lower --disturbed=3/2
expect_exit 2 'not D/N' "$st" --better=lower --disturbed=-1/2
expect_exit 2 'not D/N' "$st" --better=lower --disturbed=1
expect_exit 2 'without --better' "$st" --disturbed=1/2
expect_exit 2 'without --better' "$st" --disturbed=0/0

# --median and --print: the library's statistics of one sample as text,
# each number in the fewest digits that read back as the same double.
printf '4\n1\n3\n2\n' >"$tmp/four"
expect_print() {
	want=$1
	shift
	"$st" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] ||
		fail "benchmp-stats $* <$(tr '\n' ' ' <"$tmp/in"): exit $rc, printed '$(cat "$tmp/out")' $(head -n 1 "$tmp/err"), expected '$want'"
}
seq 5 >"$tmp/in"
expect_print 3 --median
cp "$tmp/four" "$tmp/in"
expect_print 2.5 --median
expect_print 2.5 --print=median
tab=$(printf '\t')
expect_print "4${tab}1${tab}4${tab}2.5${tab}1.2909944487358056${tab}0.5163977794943222" \
    --print=count,min,max,mean,stddev,cv
# Percentiles interpolate between ranks (bm_percentile): p25 of 1..4 is
# 1.75, p0 and p100 the extremes; a median of two sums them exactly once.
expect_print "1${tab}1.75${tab}2.5${tab}3.25${tab}4" --print=p0,p25,p50,p75,p100
printf '0.1\n0.2\n' >"$tmp/in"
expect_print 0.15000000000000002 --median
# The interval of the median and its coverage, as bm_stats_compute gives
# them: 1 to 5 of five values, 93.75%, no floor.
seq 5 >"$tmp/in"
expect_print "1${tab}5${tab}0.9375" --print=ci_lo,ci_hi,ci_level
# One value: its median, no spread.
echo 7 >"$tmp/in"
expect_print "7${tab}0${tab}1" --print=median,cv,count
# --each: every key is its own sample, keys in the order they first
# appear, spaces inside a key kept, the value the last field; before a
# tab the key is kept exactly, spaces and tabs in it too.
printf 'b x\t3\na 1\nb x 5\n a  2 \nb x\t4\r\n\n' >"$tmp/in"
expect_print "b x${tab}4${tab}3
a${tab}1.5${tab}2" --each --print=median,count
expect_print "b x${tab}4
a${tab}1.5" --each --median
printf ' k\t2 \t1\n k\t2 \t3\nk 2\t5\n' >"$tmp/in"
expect_print " k${tab}2 ${tab}2
k 2${tab}5" --each --median
# Bad input exits 1 naming what is wrong: ROUND VALUE without --each, a
# value without a key, a key whose value is no number.
printf '1 2\n1 3\n' >"$tmp/e"
expect_exit 1 'take values alone; with --each' sh -c "'$st' --median <'$tmp/e'"
printf 'a 1\n5\n' >"$tmp/e"
expect_exit 1 'line 2: a value without a key' sh -c "'$st' --each --median <'$tmp/e'"
printf 'a 1\na b\n' >"$tmp/e"
expect_exit 1 "line 2: 'b' is not a number" sh -c "'$st' --each --median <'$tmp/e'"
expect_exit 1 'no values' sh -c "'$st' --median </dev/null"
# Usage errors exit 2.
expect_exit 2 'not a list of' "$st" --print=median,bogus
expect_exit 2 'not a list of' "$st" --print=p101
expect_exit 2 'not a list of' "$st" --print=p
expect_exit 2 'not a list of' "$st" --print=median,
expect_exit 2 'not a list of' "$st" --print=
expect_exit 2 'without --print or --median' "$st" --each
expect_exit 2 'with --better or --shift' "$st" --median --better=lower
expect_exit 2 'with --better or --shift' "$st" --print=cv --shift

finish
