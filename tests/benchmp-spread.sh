#!/bin/sh
# benchmp-spread.sh: benchmp spread on three made-up runs of known values
# (tests/fixtures/spread/run*.jsonl): the table and the totals exactly,
# compare's verdicts, the wall times, JSON, the --sides table, no PASS
# with nothing to judge, and what it refuses.
. "$top_srcdir/tests/lib.sh"

bm=$bin/benchmp
fx=$top_srcdir/tests/fixtures/spread
r1=$fx/run1.jsonl
r2=$fx/run2.jsonl
r3=$fx/run3.jsonl

# The runs alone.  lat_syscall null: 1.00, 1.01, 0.99 (its first record
# in run 1, 50, does not count: the last does), each inside the others'
# 5% intervals; lat_pipe: 10, 10, 15, never flagged (a mover that misled
# a run); lat_fifo: 20, 20, 30, flagged noisy where it is 30; tlb: 64,
# no interval; lat_unix: medians 2, 3, 4, its robust figure 1.0 each
# time (what is judged); lat_sem: not in run 2; lat_mem_rd: a sweep's
# point, counted apart.  The summaries flag lat_sem in run 1 and lat_fifo
# in run 3: 1 of 6, 0 of 5, 1 of 6.
run "$bm" spread "$r1" "$r2" "$r3"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] ||
	fail "three runs: exit $rc: $(cat "$tmp/err")"
cat >"$tmp/want" <<'EOF'
figure                                            cv   in CI
lat_syscall null (us)                           1.0%     6/6
lat_pipe [cross] (us)                          24.7%     2/6
lat_fifo [cross] (us)                          24.7%     2/6
tlb (pages)                                     0.0%       -
lat_unix [cross] (us)                           0.0%     6/6
lat_mem_rd stride 1m (ns) [curve]               2.0%     6/6

total                                                      target             verdict
figures in all 3 runs: 5                                                      
within 3% run-to-run CV: 3 (60%)                           >= 80%             MISS
beyond 10% CV: 2 (40%)                                                        
  of them off by >10% in a run that did not flag it: 1     0                  MISS
    (lat_pipe [cross] (us))
next value in previous interval: 6/8 (75%)                 >= 90%             MISS
flagged figures per run: 17% 0% 17%                        <= 15%             MISS

points of size sweeps (not counted above): 1; within 3% CV 1 (100%), beyond 10% 0, next median in previous interval 2/2 (100%)
EOF
cmp -s "$tmp/want" "$tmp/out.raw" ||
	fail "three runs: $(diff "$tmp/want" "$tmp/out.raw")"

# With compare's rows of each pair (its --tsv: verdict, figure, A, B,
# B/A), their exit statuses, and the runs' wall times and statuses.
printf 'same\tlat_syscall null (us)\t1\t1.01\t1.010\nworse\tlat_pipe [cross] (us)\t10\t15\t1.5\n' \
    >"$tmp/c12"
: >"$tmp/c13"
printf 'undecided\tlat_syscall null (us)\t1.01\t0.99\t0.98\n' >"$tmp/c23"
run "$bm" spread --compared "1-2:0:$tmp/c12" --compared="1-3:0:$tmp/c13" \
    --compared "2-3:1:$tmp/c23" --wall 12.5,-,100 --exit 0,0,1 \
    "$r1" "$r2" "$r3"
[ "$rc" -eq 0 ] || fail "with compare: exit $rc: $(cat "$tmp/err")"
t=$tmp/out.raw
head -n 1 "$t" | grep -qx 'figure  *cv  *in CI  verdicts 1-2 1-3 2-3' ||
	fail "with compare: header: $(head -n 1 "$t")"
grep -qx 'lat_syscall null (us)  *1\.0%  *6/6  same ? undecided' "$t" &&
    grep -qx 'lat_pipe \[cross\] (us)  *24\.7%  *2/6  worse ? ?' "$t" ||
	fail "with compare: rows: $(cat "$t")"
grep -qx 'pairs whose compare exited 0: 2/3 (not: 2-3)  *all  *MISS' "$t" ||
	fail "with compare: the pairs: $(grep pairs "$t")"
# A wall time not known: no verdict on them.
grep -qx 'wall time per run: 12\.5 s - 100\.0 s (exit 1)  *<= 90 s  *-' "$t" ||
	fail "wall times: $(grep wall "$t")"
run "$bm" spread --wall 12.5,30,90 "$r1" "$r2" "$r3"
grep -qx 'wall time per run: 12\.5 s 30\.0 s 90\.0 s  *<= 90 s  *PASS' \
    "$tmp/out" || fail "wall times in 90 s: $(grep wall "$tmp/out")"
grep -q '^measuring' "$tmp/out" && fail "measuring without --measured"
# The seconds measuring, against 60% of each run's wall time: met by
# every run or missed by one; one not known (or a wall time of 0) leaves
# the target unjudged.
run "$bm" spread --wall 100,100,50 --measured 60,61,40 "$r1" "$r2" "$r3"
grep -qx 'measuring per run: 60% 61% 80%  *>= 60%  *PASS' "$tmp/out" ||
	fail "measuring met: $(grep measuring "$tmp/out")"
run "$bm" spread --wall 100,100,50 --measured 60,59,40 "$r1" "$r2" "$r3"
grep -qx 'measuring per run: 60% 59% 80%  *>= 60%  *MISS' "$tmp/out" ||
	fail "measuring missed: $(grep measuring "$tmp/out")"
run "$bm" spread --wall 100,-,0 --measured 60,1,0 "$r1" "$r2" "$r3"
grep -qx 'measuring per run: 60% - -  *>= 60%  *-' "$tmp/out" ||
	fail "measuring not known: $(grep measuring "$tmp/out")"
# Each total's rounding to 0.1 s is forgiven, no more.
run "$bm" spread --wall 10,10 --measured 10.1,1 "$r1" "$r2"
[ "$rc" -eq 0 ] || fail "--measured 0.1 s over its wall: exit $rc"
expect_exit 2 "--measured: more seconds than the run's wall time" \
    "$bm" spread --wall 10,10 --measured 10.2,1 "$r1" "$r2"
expect_exit 2 '--measured needs --wall' "$bm" spread --measured 1,1 \
    "$r1" "$r2"
expect_exit 2 'not one number of seconds a run' "$bm" spread --wall 1,1 \
    --measured 1 "$r1" "$r2"
expect_exit 2 "--measured: not a number of seconds: '-1'" "$bm" spread \
    --wall 1,1 --measured 1,-1 "$r1" "$r2"

# Two runs of the first, unflagged: every target but the flags met.
run "$bm" spread "$r2" "$r2"
grep -qx 'within 3% run-to-run CV: 5 (100%)  *>= 80%  *PASS' "$tmp/out" &&
    grep -qx '  of them off by >10% in a run that did not flag it: 0  *0  *PASS' \
    "$tmp/out" &&
    grep -qx 'next value in previous interval: 4/4 (100%)  *>= 90%  *PASS' \
    "$tmp/out" &&
    grep -qx 'flagged figures per run: 0% 0%  *<= 15%  *PASS' "$tmp/out" ||
	fail "two equal runs: $(cat "$tmp/out")"

# Nothing to judge is no PASS: figures without an interval give no
# next-run total, sweep's points alone no figure total; a figure at 0
# (no measurement) is no figure that repeats.
printf '%s\n' '{"tool":"tlb","unit":"pages","value":64,"median":64}' \
    '{"tool":"lat_x","unit":"us","value":0,"median":0,"ci_lo":0,"ci_hi":0,"samples":11}' \
    >"$tmp/none.jsonl" || exit 99
run "$bm" spread "$tmp/none.jsonl" "$tmp/none.jsonl"
[ "$rc" -eq 0 ] && grep -qx 'figures in all 2 runs: 1 *' "$tmp/out" &&
    ! grep -q '^lat_x' "$tmp/out" &&
    grep -qx 'within 3% run-to-run CV: 1 (100%)  *>= 80%  *PASS' "$tmp/out" &&
    grep -Eqx 'next value in previous interval: 0/0 \([0-9-]+%?\)  *>= 90%  *-' \
    "$tmp/out" || fail "no interval, a figure at 0: exit $rc: $(cat "$tmp/out" "$tmp/err")"
printf '%s\n' '{"tool":"lat_mem_rd","unit":"ns","value":2,"median":2,"ci_lo":1.9,"ci_hi":2.1,"samples":11,"suite":{"curve":true}}' \
    >"$tmp/curve.jsonl" || exit 99
run "$bm" spread "$tmp/curve.jsonl" "$tmp/curve.jsonl"
[ "$rc" -eq 0 ] && grep -qx 'figures in all 2 runs: 0 *' "$tmp/out" &&
    grep -Eqx 'within 3% run-to-run CV: 0 \([0-9-]+%?\)  *>= 80%  *-' "$tmp/out" &&
    grep -Eqx '  of them off by >10% in a run that did not flag it: 0  *0  *-' \
    "$tmp/out" &&
    grep -Eqx 'next value in previous interval: 0/0 \([0-9-]+%?\)  *>= 90%  *-' \
    "$tmp/out" || fail "sweep's points alone: exit $rc: $(cat "$tmp/out" "$tmp/err")"
printf '{"tool":"lat_x","unit":"us","value":0}\n' >"$tmp/zero.jsonl" || exit 99
expect_exit 1 'no figure was measured in every run' "$bm" spread \
    "$tmp/zero.jsonl" "$tmp/zero.jsonl"

# The runs' clock (tests/fixtures/spread/clock*.jsonl): mhz read 3000,
# 3000 and 3600 MHz; lat_ops (1.2, 1.2, 1.0 ns) and par_ops (5, 5, 6
# ops) moved with it, lat_fifo (20, 20, 30 us) did not, nor did tlb (64,
# 64, 80 pages: neither a time nor a rate); bw_mem did not move.
c1=$fx/clock1.jsonl
c2=$fx/clock2.jsonl
c3=$fx/clock3.jsonl
run "$bm" spread "$c1" "$c2" "$c3"
[ "$rc" -eq 0 ] &&
    grep -qx 'within 3% run-to-run CV: 1 (17%)  *>= 80%  *MISS' "$tmp/out" &&
    grep -qx 'clock (mhz) per run: 3000 3000 3600 MHz, CV 10\.8%' \
    "$tmp/out" &&
    grep -qx '  of the 4 other figures beyond 3% CV, 2 (50%) within it once each run is scaled by its clock' \
    "$tmp/out" || fail "a clock that moved: exit $rc: $(cat "$tmp/out")"
# A clock that held: what it read, nothing scaled.
run "$bm" spread "$c1" "$c2"
[ "$rc" -eq 0 ] &&
    grep -qx 'clock (mhz) per run: 3000 3000 MHz, CV 0\.0%' "$tmp/out" &&
    ! grep -q 'scaled by its clock' "$tmp/out" ||
	fail "a clock that held: exit $rc: $(cat "$tmp/out")"

# JSON: the same numbers for machines.
if have_jq; then
	run "$bm" spread --json --compared "2-3:1:$tmp/c23" "$r1" "$r2" "$r3"
	[ "$rc" -eq 0 ] && jq -e '(.figures | length) == 6 and
	    .totals == {figures: 5, within: 3, beyond: 2, next: 6,
	        next_pairs: 8, misled: 1} and
	    .curves.figures == 1 and
	    (.figures[1] | .figure == "lat_pipe [cross] (us)" and
	        .values == [10, 10, 15] and .flagged == [false, false, false]
	        and .in_interval == 2 and .off_unflagged == 1 and
	        .verdicts == ["?"]) and
	    (.figures[3] | .in_interval == null) and
	    .runs[0].flagged == 1 and .runs[0].shown == 6 and
	    .pairs == [{a: 2, b: 3, exit: 1}] and
	    .targets == {within: "MISS", misled: "MISS", next: "MISS",
	        compare: "MISS", flagged: "MISS", wall: null,
	        measured: null} and .clock == null' \
	    "$tmp/out" >/dev/null ||
		fail "--json: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	run "$bm" spread --json "$c1" "$c2" "$c3"
	[ "$rc" -eq 0 ] && jq -e '.clock.mhz == [3000, 3000, 3600] and
	    .clock.moved == 4 and .clock.within_scaled == 2 and
	    (.clock.cv - 0.108 | fabs) < 0.001' "$tmp/out" >/dev/null ||
		fail "--json, the clock: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	run "$bm" spread --json --wall 100,-,50 --measured 60,61,40 "$r1" \
	    "$r2" "$r3"
	[ "$rc" -eq 0 ] && jq -e '[.runs[] | .measured_s] == [60, 61, 40] and
	    [.runs[] | .wall_s] == [100, null, 50] and
	    .targets.measured == null' "$tmp/out" >/dev/null ||
		fail "--json --measured: exit $rc: $(cat "$tmp/out" "$tmp/err")"
fi

# What it refuses: a line that is not a record (named), a run without
# records, no figure in every run, a compare file that is not --tsv.
printf '%s\n' "$(head -n 1 "$r1")" 'not json' >"$tmp/bad.jsonl"
expect_exit 1 "bad\.jsonl: line 2: invalid JSON" "$bm" spread "$r1" \
    "$tmp/bad.jsonl"
: >"$tmp/empty.jsonl"
expect_exit 1 'empty\.jsonl: holds no records' "$bm" spread "$r1" \
    "$tmp/empty.jsonl"
printf '{"tool":"other","value":1}\n' >"$tmp/other.jsonl"
expect_exit 1 'no figure was measured in every run' "$bm" spread "$r1" \
    "$tmp/other.jsonl"
printf 'same\n' >"$tmp/c-bad"
expect_exit 1 'c-bad: line 1: not a row of benchmp compare --tsv' \
    "$bm" spread --compared "1-2:0:$tmp/c-bad" "$r1" "$r2"
expect_exit 1 'none: cannot read' "$bm" spread "$r1" "$tmp/none"

# Usage errors: exit 2, what was wrong and the usage line.
expect_exit 2 'need two runs or more' "$bm" spread "$r1"
expect_exit 2 "unknown option '--bogus'" "$bm" spread --bogus "$r1" "$r2"
expect_exit 2 'not one wall time a run' "$bm" spread --wall 1 "$r1" "$r2"
expect_exit 2 "--wall: not a number of seconds: 'x'" "$bm" spread \
    --wall 1,x "$r1" "$r2"
expect_exit 2 'not one exit status a run' "$bm" spread --exit 0 "$r1" "$r2"
expect_exit 2 '--compared: not I-J:STATUS:FILE' "$bm" spread \
    --compared 2-1:0:x "$r1" "$r2"
expect_exit 2 '--compared: a run past the last' "$bm" spread \
    --compared 1-3:0:x "$r1" "$r2"
expect_exit 2 '--sides takes no --json' "$bm" spread --json --sides x y
expect_exit 2 '--compared, --wall, --measured or --exit' "$bm" spread \
    --measured 1 --sides x y
expect_exit 2 'go with --sides' "$bm" spread --sides-walls x "$r1" "$r2"
grep -q '^usage: benchmp spread ' "$tmp/err" ||
	fail "no usage line: $(cat "$tmp/err")"
run "$bm" spread --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp spread ' "$tmp/out" ||
	fail "--help: exit $rc"

# --sides: benchmp-vs-lmbench's table from made-up values (the script's
# own test runs it whole); a line that is not SIDE, FIGURE, VALUE is
# named.
printf 'lat_syscall null|one|line||a|b\nlat_pipe|two|line||a|b\n' >"$tmp/table"
printf 'lmbench\tlat_syscall null\t0.20\nlmbench\tlat_syscall null\t0.30\nlmbench\tlat_syscall null\t0.25\nours\tlat_syscall null\t0.24\nlmbench\tlat_pipe\t5\nsame\tlat_pipe\t4.8\ncross\tlat_pipe\t50\n' \
    >"$tmp/values"
run "$bm" spread --sides "$tmp/table" "$tmp/values"
[ "$rc" -eq 0 ] &&
    grep -qx 'lat_syscall null  *0\.25  *20\.0  *-  *0\.24  *-  *-  *-4\.0  *ok' \
    "$tmp/out" &&
    grep -qx 'lat_pipe \[same\]  *5  *-  *-  *4\.8 .* -4\.0  *ok <- lmbench' \
    "$tmp/out" &&
    grep -qx 'lat_pipe \[cross\] .* +900\.0  *(other placement)' "$tmp/out" &&
    grep -qx '3 rows: 2 ok, 0 differ, 1 other placement or not compared' \
    "$tmp/out" || fail "--sides: exit $rc: $(cat "$tmp/out" "$tmp/err")"
printf 'ours\tlat_pipe\tfast\n' >>"$tmp/values"
expect_exit 1 'values: line 8: not SIDE<tab>FIGURE<tab>VALUE' "$bm" spread \
    --sides "$tmp/table" "$tmp/values"

finish
