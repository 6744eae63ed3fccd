#!/bin/sh
# benchmp-sched.sh: benchmp-sched's plans, visits, outputs and exit codes, an A/B of a known change, and its signals.
. "$top_srcdir/tests/lib.sh"

sched=$bin/benchmp-sched
spin=$top_builddir/tests/serve-spin
# The figures' values do not matter here, only their visits: one round a
# visit is what the engine serves, whatever BENCHMP_PROCESSES says.
unset BENCHMP_PROCESSES

# Bad plans: each refused with exit 2 and a message naming the fault.
printf 'lat_syscall null\n' >"$tmp/ok"
expect_exit 2 'longer than|a NUL byte' "$sched" --budget 1 /dev/zero
printf 'lat_syscall\0 null\n' >"$tmp/nul"
expect_exit 2 'line 1: a NUL byte' "$sched" --budget 1 "$tmp/nul"
printf '# a comment\n\nlat_syscall \033null\n' >"$tmp/ctl"
expect_exit 2 'line 3: a control byte' "$sched" --budget 1 "$tmp/ctl"
printf 'figures=0 lat_syscall null\n' >"$tmp/fig0"
expect_exit 2 'line 1: figures= takes' "$sched" --budget 1 "$tmp/fig0"
printf 'threshold=5x lat_syscall null\n' >"$tmp/thr"
expect_exit 2 'line 1: threshold= takes' "$sched" --budget 1 "$tmp/thr"
for w in burst=0 burst=101 burst=2.5 visit=0 visit=; do
	printf '%s lat_syscall null\n' "$w" >"$tmp/word"
	expect_exit 2 "line 1: ${w%%=*}= takes" "$sched" --budget 1 "$tmp/word"
done
expect_exit 2 'no command after --' "$sched" --budget 1 --
printf 'burst=2 lat_syscall null\n' >"$tmp/burst-ab"
expect_exit 2 'line 1: once and burst= lines' "$sched" --budget 1 --a '' \
    --b '' "$tmp/burst-ab"
printf '# nothing\n' >"$tmp/none"
expect_exit 2 'no command' "$sched" --budget 1 "$tmp/none"
expect_exit 2 'no such file|No such file' "$sched" --budget 1 "$tmp/missing"
expect_exit 2 'budget' "$sched" --budget 0 "$tmp/ok"
expect_exit 2 'go together' "$sched" --a '' "$tmp/ok"
expect_exit 2 'usage' "$sched" --no-such-option "$tmp/ok"
# A count is a whole number: a fraction cut short would be another run
# (--fresh-every 0.5 as 0, never fresh).
expect_exit 2 "--fresh-every: '0.5' is not a whole number" "$sched" \
    --fresh-every 0.5 "$tmp/ok"
expect_exit 2 "--max-visits: '5.9' is not a whole number" "$sched" \
    --max-visits 5.9 "$tmp/ok"
expect_exit 2 "--seed: '1.5' is not a whole number" "$sched" --seed 1.5 \
    "$tmp/ok"
# An --outdir that leaves no room for its files' names (N-A.out) is
# refused at once, not cut short into one name for them all.
expect_exit 2 '--outdir: .* is longer than 4078 characters' "$sched" \
    --budget 1 --outdir "$(printf '%04090d' 0)" "$tmp/ok"
run "$sched" --budget 1 --outdir "$(printf '%04078d' 0)" "$tmp/ok"
[ "$rc" -ne 2 ] || fail "an --outdir of 4078 characters: $(cat "$tmp/err")"

# A plan of two served figures (one a CRLF line), a figure served twice
# by one process, and a tool run once: every output in plan order, each
# served figure visited at least five times, the run's times as JSON.
printf '%s 1\r\n%s 2\nonce %s 1\n' "$spin" "$spin" "$spin" >"$tmp/plan"
printf 'figures=2 %s 2\n' "$spin" >>"$tmp/plan"
run env SPIN_NS=2000 "$sched" --budget 2 --stats "$tmp/st.json" "$tmp/plan"
if [ "$rc" -ne 0 ]; then
	fail "a plan of four lines exited $rc: $(head -n 3 "$tmp/err")"
elif [ "$(grep -c '^spin: ' "$tmp/out")" -ne 6 ]; then
	fail "six figures expected, got: $(cat "$tmp/out")"
fi
# The figure run once has one round; the served ones one per visit.
if [ "$(sed -n 4p "$tmp/out" | cut -d' ' -f4)" != 5 ] &&
    [ "$(sed -n 4p "$tmp/out" | cut -d' ' -f4)" != 1 ]; then
	fail "the line run once: $(sed -n 4p "$tmp/out")"
fi
# Five visits each, or as many as a slow machine's budget held (3 at
# least; the stats and standard error say how many).
least=3
if have_jq; then
	least=$(jq -r '.least_visits' "$tmp/st.json") || least=0
	case $least in
	3 | 4) grep -q "the budget held $least visits a figure, not 5" \
	    "$tmp/err" || fail "least visits $least, unsaid: $(cat \
	    "$tmp/err")" ;;
	5) ;;
	*) fail "least_visits: $least" ;;
	esac
fi
awk -v least="$least" '$1 == "spin:" && NR != 4 && $4 < least { bad = 1 }
    END { exit bad }' "$tmp/out" ||
	fail "a served figure with fewer than $least visits: $(cat "$tmp/out")"
if have_jq; then
	jq -e --argjson l "$least" '.visits >= 5 * $l and .wall_s > 0 and
	    .timed_s > 0 and
	    .timed_s <= .wall_s and (.figures | length) == 5 and
	    all(.figures[]; .visits >= $l) and .start_s > 0 and
	    .end_s >= 0 and .once_s > 0 and
	    .start_s + .end_s + .once_s <= .wall_s' "$tmp/st.json" >/dev/null ||
		fail "the stats: $(cat "$tmp/st.json")"
fi
grep -q 'of it measuring' "$tmp/err" ||
	fail "no timed share on stderr: $(tail -n 2 "$tmp/err")"

# A budget that cannot hold five visits of each figure (eight figures,
# two sweeps of 100 ms visits already 1.4 s past it): three each, no
# more, said on standard error and in the stats.
: >"$tmp/eight"
for i in 1 2 3 4 5 6 7 8; do
	printf 'visit=100 %s 1\n' "$spin" >>"$tmp/eight"
done
run env SPIN_NS=2000 "$sched" --budget 0.2 --stats "$tmp/eight.json" \
    "$tmp/eight"
[ "$rc" -eq 0 ] || fail "a budget of 0.2 s exited $rc: $(cat "$tmp/err")"
grep -q 'the budget held 3 visits a figure, not 5' "$tmp/err" ||
	fail "the least visits, unsaid: $(cat "$tmp/err")"
awk '$1 == "spin:" && $4 != 3 { bad = 1 } END { exit bad }' "$tmp/out" ||
	fail "not three visits each: $(cat "$tmp/out")"
if have_jq; then
	jq -e '.least_visits == 3 and (.figures | length) == 8 and
	    all(.figures[]; .visits == 3)' "$tmp/eight.json" >/dev/null ||
		fail "the stats of 0.2 s: $(cat "$tmp/eight.json")"
fi

# burst=N: each figure the tool announces gets N visits in a row, the
# next figure after, until the tool ends; visit=MS is passed on.
printf 'burst=3 visit=2 %s 2\n' "$spin" >"$tmp/burst"
run env SPIN_NS=2000 "$sched" --budget 1 --stats "$tmp/bst.json" "$tmp/burst"
if [ "$rc" -ne 0 ]; then
	fail "a burst line exited $rc: $(head -n 3 "$tmp/err")"
elif [ "$(awk '$1 == "spin:" && $4 == 3' "$tmp/out" | wc -l)" -ne 2 ]; then
	fail "two figures of 3 visits each expected: $(cat "$tmp/out")"
fi
if have_jq; then
	jq -e '.visits == 6 and (.figures | length) == 2' "$tmp/bst.json" \
	    >/dev/null || fail "the burst's stats: $(cat "$tmp/bst.json")"
fi

sizes() { jq -r 'select(.tool == "lat_mem_rd") | .params.size' "$1"; }

# A burst line's sweep: lat_mem_rd serves each stride's points as one
# group, whose figures get their visits in the order announced on one set
# of workers (with --fresh-every 0, never another), every point of the
# sweep run by hand measured.
if have_jq; then
	printf 'burst=2 visit=2 %s --json 1 128\n' "$bin/lat_mem_rd" \
	    >"$tmp/sweep"
	run "$sched" --budget 30 --fresh-every 0 --stats "$tmp/sw.json" \
	    "$tmp/sweep"
	[ "$rc" -eq 0 ] || fail "the sweep's burst line exited $rc: $(head \
	    -n 3 "$tmp/err")"
	cp "$tmp/out" "$tmp/sw.out"
	run env BENCHMP_MAX_TIME=86400 "$bin/lat_mem_rd" --json 1 128
	if [ "$rc" -ne 0 ]; then
		fail "lat_mem_rd 1 128 by hand exited $rc: $(head -n 3 \
		    "$tmp/err")"
	elif [ "$(sizes "$tmp/sw.out")" != "$(sizes "$tmp/out")" ]; then
		fail "the served sweep's points: $(sizes "$tmp/sw.out" |
		    tr '\n' ' '), by hand: $(sizes "$tmp/out" | tr '\n' ' ')"
	fi
	jq -e --argjson n "$(sizes "$tmp/out" | wc -l)" '(.figures |
	    length) == $n and all(.figures[]; .visits == 2) and
	    ([.figures[].sets] | add) == 1' "$tmp/sw.json" >/dev/null ||
		fail "the sweep's group: $(cat "$tmp/sw.json")"

	# cache's sizes so too: one set for all the sweep's points, a set
	# for each level's chains at most.
	printf 'burst=2 visit=2 %s -M 4m\n' "$bin/cache" >"$tmp/sweep"
	run "$sched" --budget 30 --fresh-every 0 --stats "$tmp/sw.json" \
	    "$tmp/sweep"
	[ "$rc" -eq 0 ] && grep -q '^L1 cache: ' "$tmp/out" &&
	    jq -e '([.figures[].sets] | add) as $sets | $sets >= 1 and
	    $sets < (.figures | length) - 2' "$tmp/sw.json" >/dev/null ||
		fail "cache's sizes served: exit $rc: $(cat "$tmp/out" \
		    "$tmp/sw.json" "$tmp/err")"

	# line's strides so too: one set for all seven, each stride's visits
	# in a row on it; the line found (16 to 256 bytes) or, where no
	# process's curve shows a knee (a loaded machine), said so.
	printf 'burst=2 visit=2 %s --json -M 8m\n' "$bin/line" >"$tmp/sweep"
	run "$sched" --budget 30 --fresh-every 0 --stats "$tmp/sw.json" \
	    "$tmp/sweep"
	{ { [ "$rc" -eq 0 ] && jq -e '.tool == "line" and .value >= 16 and
	    .value <= 256' "$tmp/out" >/dev/null; } ||
	    grep -q 'line: the line size was not found: ' "$tmp/err"; } &&
	    jq -e '(.figures | length) == 7 and
	    all(.figures[]; .visits == 2) and
	    ([.figures[].sets] | add) == 1' "$tmp/sw.json" >/dev/null ||
		fail "line's strides served: exit $rc: $(cat "$tmp/out" \
		    "$tmp/sw.json" "$tmp/err")"

	# par_mem's sizes so too: 4k to 1m, nine sizes of up to six chases
	# each, one group on one set; a record a size, in order.
	printf 'burst=2 visit=2 %s --json -M 1m\n' "$bin/par_mem" >"$tmp/sweep"
	run "$sched" --budget 30 --fresh-every 0 --stats "$tmp/sw.json" \
	    "$tmp/sweep"
	want='4096 8192 16384 32768 65536 131072 262144 524288 1048576 '
	[ "$rc" -eq 0 ] && [ "$(jq -r 'select(.tool == "par_mem") |
	    .params.size' "$tmp/out" | tr '\n' ' ')" = "$want" ] &&
	    jq -e '(.figures | length) >= 27 and
	    all(.figures[]; .visits == 2) and
	    ([.figures[].sets] | add) == 1' "$tmp/sw.json" >/dev/null ||
		fail "par_mem's sizes served: exit $rc: $(cat "$tmp/out" \
		    "$tmp/sw.json" "$tmp/err")"
fi

# A budget of a fifth of a second still gives a figure its five visits;
# a tenth is refused.
run env SPIN_NS=2000 "$sched" --budget 0.2 -- "$spin" 1
[ "$rc" -eq 0 ] && awk '$1 == "spin:" { n++; if ($4 < 5) bad = 1 }
    END { exit bad || n != 1 }' "$tmp/out" ||
	fail "--budget 0.2: exit $rc: $(cat "$tmp/out" "$tmp/err")"
expect_exit 2 "budget" "$sched" --budget 0.1 -- "$spin" 1

# -- TOOL ARGS: that one command is the plan, its words as they are.
run env SPIN_NS=2000 "$sched" --budget 1 -- "$spin" 1
[ "$rc" -eq 0 ] && [ "$(grep -c '^spin: ' "$tmp/out")" -eq 1 ] ||
	fail "-- TOOL ARGS exited $rc: $(cat "$tmp/out" "$tmp/err")"

# A calibration longer than a visit's share keeps its intervals and the
# visit gets fewer of them (3 at least), so that it lasts --visit.
if have_jq; then
	run env ENOUGH=10000 "$sched" --budget 1 -- lat_syscall --json null
	[ "$rc" -eq 0 ] && jq -e '.repetitions == 3 and .enough_us == 10000' \
	    "$tmp/out" >/dev/null ||
		fail "ENOUGH=10000 served: exit $rc: $(cut -c1-300 "$tmp/out")"
fi

# --memory: figures held set up past the bound let the least recently
# visited go (released), and their next visit starts fresh workers; 0 is
# no bound.
printf 'bw_mem 16m rd\nbw_mem 16m wr\n' >"$tmp/mem"
expect_exit 2 'memory' "$sched" --memory -1 "$tmp/mem"
if have_jq; then
	# (Ended by its visits, not the clock, each on fresh workers: the
	# bound is kept when a set is set up, and how often a set is fresh
	# otherwise depends on what setting one up costs.)
	run "$sched" --budget 600 --max-visits 6 --fresh-every 1 \
	    --memory 20 --stats "$tmp/mem.json" "$tmp/mem"
	[ "$rc" -eq 0 ] && [ "$(grep -c '^[0-9]' "$tmp/out")" -eq 2 ] &&
	    jq -e '.memory_mb == 20 and .releases > 0' "$tmp/mem.json" \
	    >/dev/null || fail "--memory 20: exit $rc: $(cat "$tmp/mem.json" "$tmp/out")"
	run "$sched" --budget 1 --memory 0 --stats "$tmp/mem.json" "$tmp/mem"
	[ "$rc" -eq 0 ] && jq -e '.releases == 0' "$tmp/mem.json" \
	    >/dev/null || fail "--memory 0: exit $rc: $(cat "$tmp/mem.json")"
fi

# --pool: bandwidth buffers of 8 MB or more come from memory set aside
# once, each worker at its own slot where the slots fit (the records say
# which); a pool past half the memory available is left out with a
# warning; a tool refuses a variable that names no memory file.
expect_exit 2 'pool' "$sched" --pool -1 "$tmp/mem"
expect_exit 2 'pool' "$sched" --pool 2x "$tmp/mem"
expect_exit 2 'BENCHMP_POOL' env BENCHMP_POOL=junk "$bin/bw_mem" 16m rd
expect_exit 2 'BENCHMP_POOL' env BENCHMP_POOL=0 "$bin/bw_mem" 16m rd </dev/null
# A file on the descriptor is not a pool, and is left as it was.
head -c 16777216 /dev/zero >"$tmp/notpool"
expect_exit 2 'BENCHMP_POOL' env BENCHMP_POOL=0 "$bin/bw_mem" 8m rd \
    <"$tmp/notpool"
[ "$(tr -d '\000' <"$tmp/notpool" | wc -c)" -eq 0 ] ||
    fail "BENCHMP_POOL on a file: the file was written"
if have_jq; then
	run "$sched" --budget 2 --pool 40 --stats "$tmp/pool.json" -- \
	    bw_mem --json 16m cp
	[ "$rc" -eq 0 ] && jq -e '.measured.buffer == "pool"' "$tmp/out" \
	    >/dev/null && jq -e '.pool_mb == 40 and .pool_s >= 0' \
	    "$tmp/pool.json" >/dev/null ||
	    fail "--pool 40: exit $rc: $(cat "$tmp/out" "$tmp/pool.json")"
	# Two copies' slots of 34 MB do not fit in 40 MB.
	run "$sched" --budget 2 --pool 40 -- bw_mem --json -P 2 16m cp
	[ "$rc" -eq 0 ] && jq -e '.measured.buffer == "private"' "$tmp/out" \
	    >/dev/null || fail "--pool 40, -P 2: exit $rc: $(cat "$tmp/out")"
	run "$sched" --budget 1 --pool 1048576 -- bw_mem --json 16m rd
	[ "$rc" -eq 0 ] && grep -q 'warning: no pool' "$tmp/err" &&
	    jq -e '.measured.buffer == "private"' "$tmp/out" >/dev/null ||
	    fail "--pool past the memory: exit $rc: $(cat "$tmp/err")"
fi

# An A/A's exit: 0, or 1 with a figure called worse.  A false alarm is an
# outcome an honest test gives now and then (more often on a loaded
# machine: bw_mem rd 0.976 in 24 pairs during a make distcheck).
aa_ok() {
	[ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] &&
	    jq -s -e 'any(.[]; .verdict == "worse")' "$tmp/out" >/dev/null; }
}

# A group (bw_mem's modes over one buffer): every figure announced
# together and visited in each sweep, its record in the tool's order;
# one set of workers serves them all, fresh no oftener than a figure's
# own set would be (--fresh-every 10: every 10 visits of each).  An A/B
# does not pair a group's figures: a tool told it serves an arm
# (BENCHMP_SERVE_ARM) serves them one by one, and a line whose tool
# announces a group there fails.
if have_jq; then
	run "$sched" --budget 2 --fresh-every 10 --stats "$tmp/grp.json" -- \
	    bw_mem --json 4m rd wr cp
	[ "$rc" -eq 0 ] && [ "$(jq -r .case "$tmp/out" | paste -sd, -)" = \
	    rd,wr,cp ] && jq -e '(.figures | length) == 3 and
	    all(.figures[]; .visits >= 3) and
	    ([.figures[].sets] | add) >= 1 and
	    ([.figures[].sets] | add) <= (.visits / 30 | floor) + 1' \
	    "$tmp/grp.json" >/dev/null ||
		fail "a group: exit $rc: $(cat "$tmp/err" "$tmp/grp.json")"
fi
expect_exit 4 'a group of figures, which an A/B does not pair' env \
    SPIN_GROUP=2 "$sched" --budget 1 --a '' --b '' -- "$spin"
if have_jq; then
	run "$sched" --budget 2 --json --allow-undecided --a '' --b '' -- \
	    figures=2 bw_mem --json 4m rd wr
	aa_ok && [ "$(jq -r .seq "$tmp/out" | paste -sd, -)" = \
	    1,2 ] ||
		fail "bw_mem's modes in an A/B: exit $rc: $(cat "$tmp/err" \
		    "$tmp/out")"
fi

# A tool may say its figures and parts itself (bm_serve_figures) where
# the plan line does not: its first figure is then a part, paired in the
# two calls that hold its least visits (8 pairs) and not judged; the
# plan's words, where given, stand.  The library
# refuses a count out of range, and the scheduler one on the pipe.
if have_jq; then
	run env SPIN_TELL=2,1 SPIN_NS=2000 "$sched" --budget 2 --json \
	    --allow-undecided --a '' --b '' -- "$spin" 2
	aa_ok && jq -s -e 'length == 2 and .[0].part == true and
	    .[0].pairs <= 8 and .[1].part == false' "$tmp/out" >/dev/null ||
		fail "a tool's own parts=1: exit $rc: $(cat "$tmp/err" \
		    "$tmp/out")"
	run env SPIN_TELL=2,1 SPIN_NS=2000 "$sched" --budget 2 --json \
	    --allow-undecided --a '' --b '' -- figures=2 "$spin" 2
	aa_ok && jq -s -e 'length == 2 and all(.[]; .part == null)' \
	    "$tmp/out" >/dev/null ||
		fail "the plan's figures=2 over a tool's parts: exit $rc: \
$(cat "$tmp/err" "$tmp/out")"
fi
expect_exit 1 'bm_serve_figures\(2, 2\): ' env SPIN_TELL=2,2 "$spin"
printf 'echo "figure 1 1 1 100 figures=0 parts=0" >&4; sleep 5\n' \
    >"$tmp/tell.sh"
expect_exit 4 'figures= and parts= out of range' "$sched" --budget 1 \
    -- sh "$tmp/tell.sh"

# --precision: a figure ends once its interval is within it, and the
# run says how many did (a spin of fixed cost reaches +-50% at once).
run env SPIN_NS=2000 "$sched" --budget 5 --precision 50 \
    --stats "$tmp/prec.json" -- "$spin"
[ "$rc" -eq 0 ] && grep -q '1 of 1 figures reached +-50%' "$tmp/err" ||
	fail "--precision 50: exit $rc: $(cat "$tmp/err")"
if have_jq; then
	jq -e '.figures[0].precise == true and .figures[0].visits >= 5' \
	    "$tmp/prec.json" >/dev/null ||
		fail "--precision 50: $(cat "$tmp/prec.json")"
fi

# A tool that speaks the protocol but sends a visit whose time is not a
# time (NaN, below 0, past any clock) fails its line with exit 4 and
# the fault named; it is not averaged into a figure.
for v in 'nan 100 100' '-5 100 100' '10 -1 100' '10 100 1e300'; do
	cat >"$tmp/liar" <<EOF
printf 'figure 1 1 1 100\n' >&4
read -r cmd <&3 || exit 1
printf 'visit 1 0 $v\n' >&4
read -r cmd <&3
exit 0
EOF
	printf 'sh %s\n' "$tmp/liar" >"$tmp/liarplan"
	expect_exit 4 "time out of range" "$sched" --budget 1 "$tmp/liarplan"
done

# --outdir: each line's output, messages and exit status apart.
mkdir "$tmp/od"
printf '%s\nno-such-tool-here\n' "$spin" >"$tmp/plan2"
run "$sched" --budget 1 --outdir "$tmp/od" "$tmp/plan2"
[ "$rc" -eq 4 ] || fail "a plan with a missing tool exited $rc, expected 4"
grep -q 'line 2: .*no-such-tool-here' "$tmp/err" ||
	fail "the missing tool is not named: $(cat "$tmp/err")"
[ "$(cat "$tmp/od/1.rc")" = 0 ] && grep -q '^spin: ' "$tmp/od/1.out" ||
	fail "line 1's outdir files: $(cat "$tmp/od/1.rc" "$tmp/od/1.out")"
[ "$(cat "$tmp/od/2.rc")" = 127 ] ||
	fail "line 2's exit status: $(cat "$tmp/od/2.rc")"
[ -s "$tmp/od/2.err" ] || fail "line 2's messages are not kept"
# An output not written whole (a full disk, here /dev/full) fails the
# run (exit 4) with the file named, never a line's output cut short
# under exit 0; so does --stats.
if [ -w /dev/full ]; then
	mkdir "$tmp/full"
	ln -s /dev/full "$tmp/full/1.out"
	printf '%s\n' "awk 'BEGIN { for (i = 0; i < 20000; i++) print i }'" \
	    >"$tmp/big.sh"
	printf 'once sh %s\n' "$tmp/big.sh" >"$tmp/big"
	expect_exit 4 "^benchmp-sched: $tmp/full/1.out: No space left on device\$" \
	    "$sched" --budget 1 --outdir "$tmp/full" "$tmp/big"
	expect_exit 4 '^benchmp-sched: /dev/full: No space left on device$' \
	    "$sched" --budget 1 --stats /dev/full "$tmp/big"
fi

# A tool that answers a visit twice (two lines in one write), that stops
# reading its commands after its first visit (the next one's pipe
# broken), or that exits then, served or in a burst= line: its line fails
# with the fault named (exit 4), within the budget, nothing left running.
# The scheduler never goes on visiting, without a wait, a process it can
# tell nothing.
printf '%s\n' "printf 'figure 1 1 1 100\\n' >&4" \
    'read -r cmd <&3 || exit 1' \
    "printf 'visit 1 0 100 1000 2000\\nvisit 1 0 100 1000 2000\\n' >&4" \
    'read -r cmd <&3' 'exit 0' >"$tmp/twice.sh"
printf '%s\n' "printf 'figure 1 1 1 100\\n' >&4" \
    'read -r cmd <&3 || exit 1' 'exec 3<&-' \
    "printf 'visit 1 0 100 1000 2000\\n' >&4" 'sleep 60' 'exit 0' \
    >"$tmp/deaf.sh"
sed '/^sleep/d' "$tmp/deaf.sh" >"$tmp/quits.sh"
for how in twice deaf quits burst=2:twice burst=2:deaf burst=2:quits; do
	tool=${how#*:}
	word=
	[ "$tool" = "$how" ] || word=${how%%:*}
	printf '%s sh %s\n' "$word" "$tmp/$tool.sh" >"$tmp/broken"
	"$sched" --budget 1 --timeout 5 "$tmp/broken" >"$tmp/out" \
	    2>"$tmp/err" &
	wait_gone $! "$hang_s"
	case $tool in
	twice) why='an unexpected line on the serve pipe' ;;
	deaf) why='cannot send it a command: Broken pipe' ;;
	# Its end seen with its answer, or after: both say it.
	*) why='(cannot send it a command: Broken pipe|exited before its figure ended)' ;;
	esac
	[ "$rc" -eq 4 ] && grep -Eq "^benchmp-sched: line 1: sh: .*$why\$" \
	    "$tmp/err" || fail "a tool that $how: exit $rc (137: still \
running after $hang_s s): $(cat "$tmp/err")"
	left=$(left_running "$tmp/$tool.sh")
	[ -z "$left" ] || fail "a tool that $how: left running: $left"
done

# A tool past its wait is sent SIGTERM and given 5 s before a SIGKILL:
# its handler removes its temporary directory, which a SIGKILL at once
# left behind.  (The handler is set before the directory is made: a
# SIGTERM before either, on a loaded machine, kills it with nothing
# made.)
printf '%s\n' "trap 'rmdir \"$tmp/tidy\" 2>/dev/null; exit 143' TERM" \
    "mkdir '$tmp/tidy' || exit 1" 'sleep 60 &' 'wait' >"$tmp/tidy.sh"
printf 'once sh %s\n' "$tmp/tidy.sh" >"$tmp/t-tidy"
expect_exit 4 '^benchmp-sched: line 1: sh: (exit status 143|killed by signal 15): no answer within 2\.0 s$' \
    "$sched" --budget 1 --timeout 1 "$tmp/t-tidy"
[ ! -d "$tmp/tidy" ] || fail "a tool's directory left behind at its wait"

# A restart's tool is read from its own first byte: what the tool before
# it left of a line at its end is not the start of the next one's first.
# shellcheck disable=SC2016 # (the stand-in's own $n)
printf '%s\n' "printf 'figure 1 1 1 100\\n' >&4" 'n=0' \
    'while read -r cmd <&3; do' \
    "	case \$cmd in end*) printf x >&4; exit 0 ;; esac" \
    "	printf 'visit 1 %d 100 1000 2000\\n' \"\$n\" >&4" \
    '	n=$((n + 1))' 'done' >"$tmp/partial.sh"
printf 'restart sh %s\n' "$tmp/partial.sh" >"$tmp/partial"
run "$sched" --budget 1 --max-visits 6 --memory 0 --a '' --b '' \
    "$tmp/partial"
case $rc in
0 | 1 | 3) ;;
*) fail "a restart after a line cut short: exit $rc: $(cat "$tmp/err")" ;;
esac

# An A/B's tool that exits 1 at its end, its figure visited and ended,
# has said it has no figure (as lat_sig does on a loaded machine): that
# line is undecided, named, and the run's status is its verdicts' (3, or
# 0 with --allow-undecided), not a failure.  Exiting 1 before its
# figure ended is a failure still (4).
# shellcheck disable=SC2016 # (the stand-in's own $n and $NOFIG)
printf '%s\n' "printf 'figure 1 1 1 100\\n' >&4" 'n=0' \
    'while read -r cmd <&3; do' \
    '	case $cmd in end*) exit "${NOFIG:-0}" ;; esac' \
    '	[ "$n" -lt "${DIE_AT:-999999}" ] || exit 1' \
    "	printf 'visit 1 %d 100 1000 2000\\n' \"\$n\" >&4" \
    '	n=$((n + 1))' 'done' >"$tmp/nofig.sh"
printf 'sh %s\n' "$tmp/nofig.sh" >"$tmp/nofig"
nofig_said='^benchmp-sched: line 1, arm B: env: exit status 1 after its figures were measured: no figure, its line undecided$'
expect_exit 3 "$nofig_said" "$sched" --budget 1 --max-visits 6 --a '' \
    --b 'env NOFIG=1' "$tmp/nofig"
grep -q "(arm B's tool gave no figure)\$" "$tmp/out" &&
    grep -q '^benchmp-sched: 0 worse, 0 better, 0 same, 1 undecided$' \
    "$tmp/out" || fail "a tool without its figure: $(cat "$tmp/out")"
expect_exit 0 "$nofig_said" "$sched" --budget 1 --max-visits 6 --a '' \
    --b 'env NOFIG=1' --allow-undecided --json "$tmp/nofig"
if have_jq; then
	jq -e '.no_figure == "B" and .verdict == "undecided"' "$tmp/out" \
	    >/dev/null ||
		fail "a tool without its figure, --json: $(cat "$tmp/out")"
fi
expect_exit 4 '^benchmp-sched: line 1, arm B: env: exit status 1' \
    "$sched" --budget 1 --max-visits 6 --a '' --b 'env DIE_AT=2' \
    "$tmp/nofig"

# A caller that ignores SIGCHLD (inherited through exec): the tools' ends
# are still seen, a tool killed by a signal named so (exit 4), never
# taken for one that exited 0.
if command -v perl >/dev/null 2>&1; then
	printf 'once sh -c "kill -s TERM $$"\n' >"$tmp/term"
	# shellcheck disable=SC2016 # (perl's variables)
	expect_exit 4 '^benchmp-sched: line 1: sh: killed by signal 15$' \
	    perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or die' "$sched" \
	    --budget 1 "$tmp/term"
	# shellcheck disable=SC2016 # (perl's variables)
	run perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or die' "$sched" \
	    --budget 1 -- "$spin" 1
	[ "$rc" -eq 0 ] && grep -q '^spin: ' "$tmp/out" ||
		fail "SIGCHLD ignored: a served tool: exit $rc: $(cat "$tmp/err")"
fi

# An A/B of a known change: B spins twice as long, so it is worse (exit
# 1), or at worst undecided (exit 3) on a machine too busy to settle it,
# its ratio above 1 either way.  The same in both arms is never worse.
printf '%s\n' "$spin" >"$tmp/one"
# doubled WHAT ENV [OPTION]: an A/B of the doubled cost, ENV in both arms;
# worse (exit 1) or undecided (exit 3).
doubled() {
	run "$sched" --budget 30 ${3:+"$3"} --a "env SPIN_NS=2000 $2" \
	    --b "env SPIN_NS=4000 $2" "$tmp/one"
	case $rc in
	1 | 3) ;;
	*) fail "A/B of $1 exited $rc: $(head -n 3 "$tmp/err")" ;;
	esac
}
doubled 'a doubled cost' '' --json
if have_jq; then
	jq -e '.ratio > 1.5 and .ratio < 2.7 and .pairs >= 5 and
	    (.verdict == "worse" or .verdict == "undecided")' "$tmp/out" \
	    >/dev/null || fail "the doubled cost's verdict: $(cat "$tmp/out")"
	[ "$rc" -ne 1 ] || jq -e '.verdict == "worse"' "$tmp/out" >/dev/null ||
		fail "exit 1 without a worse figure: $(cat "$tmp/out")"
	# It printed no record: the ratio is of the time per operation.
	jq -e '.ratio_of == "time per operation" and (has("unit") | not) and
	    .mode == "served" and .control == false and .rounds == .pairs' \
	    "$tmp/out" >/dev/null || fail "an unnamed figure: $(cat "$tmp/out")"
fi
# The same change where the tool prints records, here a rate (higher
# better): the figure is named by them, and B/A is the rate's, about 0.5.
doubled 'a halved rate' SPIN_RECORD=1 --json
if have_jq; then
	jq -e '.ratio_of == "figure" and .tool == "serve-spin" and
	    .case == "spin" and .unit == "ops/s" and .better == "higher" and
	    .ratio > 0.37 and .ratio < 0.67 and (.ci_lo == null or
	    (.ci_lo <= .ratio and .ratio <= .ci_hi)) and
	    .a_median > .b_median and .b_median > 0 and
	    (.verdict == "worse" or .verdict == "undecided")' "$tmp/out" \
	    >/dev/null || fail "the halved rate's verdict: $(cat "$tmp/out")"
fi
doubled 'a halved rate' SPIN_RECORD=1
grep -Eq '^serve-spin .* B/A 0\.[3-6][0-9]* .*\(A [0-9.e+]+, B [0-9.e+]+ ops/s\)$' \
    "$tmp/out" || fail "the halved rate's line: $(cat "$tmp/out")"
# An A/A: its one figure judged, the verdict the one its interval gives.
# How often an A/A calls a change is scripts/bench/bench-ab.sh's to
# measure (20 trials and more): at a 95% level, a loaded machine's A/A
# may call one, and the exit status then says so (1).
run "$sched" --budget 2 --a 'env SPIN_NS=2000' --b 'env SPIN_NS=2000' \
    "$tmp/one"
case $rc in
0 | 1 | 3) ;;
*) fail "an A/A exited $rc: $(cat "$tmp/out")" ;;
esac
# aa_verdict: whether $tmp/out holds figures judged, each verdict the one
# its interval gives ("B/A 1.0006 [0.9989, 1.0023] 95%  same", or "B/A
# 1.0077 (no interval)  undecided"), and $rc is 1 exactly when one is
# worse.
aa_verdict() {
	awk -v rc="$rc" '
	    / B\/A / { n++; for (i = 1; i < NF && $i != "B/A"; i++) ;
		lo = hi = v = ""
		if (substr($(i + 2), 1, 1) == "[") {
			lo = $(i + 2); hi = $(i + 3)
			gsub(/[\[,\]]/, "", lo); gsub(/[\[,\]]/, "", hi)
		}
		for (j = i + 2; j <= NF && v == ""; j++)
			if ($j ~ /^(worse|better|same|undecided)$/)
				v = $j
		if (v == "worse") {
			w = 1
			if (lo == "" || !(lo + 0 > 1))
				bad = 1
		} else if (v == "better") {
			if (hi == "" || !(hi + 0 < 1))
				bad = 1
		} else if (v == "")
			bad = 1 }
	    END { exit !(n >= 1 && !bad && (w == 1) == (rc == 1)) }' \
	    "$tmp/out"
}
aa_verdict || fail "an A/A's verdict: exit $rc: $(cat "$tmp/out")"
# more_line: whether each figure of $tmp/out left undecided with an
# interval says the time more that would decide it, and no other does.
more_line() {
	awk '/ B\/A / {
		want = / undecided / && / \[/ && !/out of reach/
		has = /\(about [0-9]+ s more would decide it(; its visits reached the most a figure gets)?\)$/
		if (want != has)
			bad = 1 }
	    END { exit bad }' "$tmp/out"
}
more_line || fail "an A/A's time more: $(cat "$tmp/out")"

# restart: both arms' tools started afresh for every pair of visits,
# each going on with its figure; refused outside an A/B and for a line
# of several figures.
printf 'restart %s\n' "$spin" >"$tmp/restart"
run "$sched" --budget 2 --json --a 'env SPIN_NS=2000 SPIN_SAY=1' \
    --b 'env SPIN_NS=2000 SPIN_SAY=1' "$tmp/restart"
case $rc in
0 | 1 | 3) ;;
*) fail "a restart A/A exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
if have_jq; then
	pairs=$(jq -r '.pairs' "$tmp/out")
	starts=$(grep -c '^serve-spin: started' "$tmp/err")
	[ "$pairs" -ge 5 ] && [ "$starts" -eq $((2 * pairs)) ] ||
		fail "restart: $starts starts for $pairs pairs: $(cat "$tmp/out")"
	# A change called only where its interval is past 1 (see the A/A
	# above).
	jq -e --argjson rc "$rc" '(.verdict == "worse" and .lo > 1 and
	    $rc == 1) or (.verdict == "better" and .hi < 1 and $rc != 1) or
	    ((.verdict == "same" or .verdict == "undecided") and $rc != 1)' \
	    "$tmp/out" >/dev/null ||
		fail "a restart A/A's verdict: exit $rc: $(cat "$tmp/out")"
fi
# Generations: an A/B's tools of one figure are started afresh from time
# to time (the first time after four calls of four turns, a visit of
# each arm: 48 visits make two generations at least, and no verdict
# comes before six), each generation one cluster of the verdict; with
# --fresh-every 0, never, and each call's four turns count alone.
run "$sched" --budget 600 --max-visits 48 --json \
    --a 'env SPIN_NS=2000 SPIN_SAY=1' --b 'env SPIN_NS=2000 SPIN_SAY=1' \
    "$tmp/one"
case $rc in
0 | 1 | 3) ;;
*) fail "a generations A/A exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
if have_jq; then
	clusters=$(jq -r '.clusters' "$tmp/out")
	starts=$(grep -c '^serve-spin: started' "$tmp/err")
	[ "$clusters" -ge 2 ] && [ "$starts" -eq $((2 * clusters)) ] &&
	    jq -e '.pairs >= 20 and .pairs <= 48' "$tmp/out" >/dev/null ||
		fail "generations: $starts starts, $clusters clusters: $(cat "$tmp/out")"
fi
# first_order WHAT: each generation's two tools start one after the
# other, the arm started second the time before first (the first
# generation's in the plan's order): the arms the starts name, taken two
# by two, are the clusters' started_first, which alternates; the interval
# takes the two blocks apart (blocked) exactly where it has one and three
# generations of each arm started first at least.
first_order() {
	have_jq || return 0
	order=$(sed -n 's/^serve-spin: started (arm \([AB]\))$/\1/p' \
	    "$tmp/err" | awk 'NR % 2 == 1 { printf "%s", $0 }')
	jq -e --arg o "$order" '(.started_first == $o) and
	    (.started_first | test("AA|BB|-") | not) and
	    .blocked == (.lo != null and (.started_first |
	    test("A.*A.*A") and test("B.*B.*B")))' "$tmp/out" >/dev/null ||
		fail "$1: started first $order: $(cat "$tmp/out")"
}
first_order generations
# The same over more generations (six where the machine is not too busy
# to restart so often), whatever the verdict.
run "$sched" --budget 600 --max-visits 160 --json \
    --a 'env SPIN_NS=2000 SPIN_SAY=1' --b 'env SPIN_NS=2000 SPIN_SAY=1' \
    "$tmp/one"
case $rc in
0 | 1 | 3) ;;
*) fail "a blocked A/A exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
first_order 'more generations'
# The seconds more that would decide a figure left undecided with an
# interval, and only such a figure: each call's four turns a cluster
# (--fresh-every 0), 40 visits give ten (six at least where a verdict
# settles it first) and an interval, whatever the verdict at 0.1% (one
# process an arm for the whole run may differ from the other by a few
# percent: worse or better then).
run "$sched" --budget 600 --fresh-every 0 --max-visits 40 --threshold 0.1 \
    --json --a 'env SPIN_NS=2000' --b 'env SPIN_NS=2000' "$tmp/one"
case $rc in
0 | 1 | 3) ;;
*) fail "an A/A of ten clusters exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
if have_jq; then
	jq -e '.clusters >= 6 and .lo != null and
	    ((.verdict == "undecided") == (.more_s != null)) and
	    (.more_s == null or .more_s > 0)' "$tmp/out" >/dev/null ||
		fail "ten clusters: more_s: $(cat "$tmp/out")"
fi
run "$sched" --budget 600 --fresh-every 0 --max-visits 40 --threshold 0.1 \
    --a 'env SPIN_NS=2000' --b 'env SPIN_NS=2000' "$tmp/one"
more_line || fail "ten clusters: the time more: $(cat "$tmp/out")"
# A pair whose restarts cost more than the budget holds for the six
# generations a verdict needs (a second's set-up an arm, a 4 s budget) is
# not restarted: undecided, said so when it was judged out of reach (it
# may not be, if the budget ends first on a loaded machine).
run "$sched" --budget 4 --json \
    --a 'env SPIN_NS=2000 SPIN_SAY=1 SPIN_SETUP_MS=1000' \
    --b 'env SPIN_NS=2000 SPIN_SAY=1 SPIN_SETUP_MS=1000' "$tmp/one"
[ "$rc" -eq 3 ] ||
	fail "an A/A out of reach exited $rc: $(cat "$tmp/out" "$tmp/err")"
if have_jq; then
	starts=$(grep -c '^serve-spin: started' "$tmp/err")
	[ "$starts" -eq 2 ] && jq -e '.verdict == "undecided" and
	    .clusters == 1 and ((has("out_of_reach") | not) or
	    (.out_of_reach and .reach_s > 0))' "$tmp/out" >/dev/null ||
		fail "out of reach: $starts starts: $(cat "$tmp/out")"
fi
run "$sched" --budget 4 --a 'env SPIN_NS=2000 SPIN_SETUP_MS=1000' \
    --b 'env SPIN_NS=2000 SPIN_SETUP_MS=1000' "$tmp/one"
[ "$rc" -eq 3 ] && grep -q ' undecided .* 1 clusters' "$tmp/out" ||
	fail "an A/A out of reach's line: exit $rc: $(cat "$tmp/out")"
# A line's last figure has generations too: each start passes the
# figure before it with one visit (a tool's part, as lat_ctx's overhead),
# three starts an arm for two generations; the first figure has none.
printf 'figures=2 %s 2\n' "$spin" >"$tmp/two"
run "$sched" --budget 600 --max-visits 48 --json \
    --a 'env SPIN_NS=2000 SPIN_SAY=1' --b 'env SPIN_NS=2000 SPIN_SAY=1' \
    "$tmp/two"
case $rc in
0 | 1 | 3) ;;
*) fail "a two-figure A/A exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
if have_jq; then
	clusters=$(jq -s -r 'map(select(.seq == 2)) | .[0].clusters' "$tmp/out")
	starts=$(grep -c '^serve-spin: started' "$tmp/err")
	[ "$clusters" -ge 2 ] && [ "$starts" -eq $((2 * clusters)) ] &&
	    jq -s -e 'length == 2 and (map(select(.seq == 2)) | .[0].pairs >= 5)' \
	    "$tmp/out" >/dev/null ||
		fail "a last figure's generations: $starts starts: $(cat "$tmp/out")"
fi
run "$sched" --budget 600 --max-visits 12 --fresh-every 0 --json \
    --a 'env SPIN_NS=2000 SPIN_SAY=1' --b 'env SPIN_NS=2000 SPIN_SAY=1' \
    "$tmp/one"
if have_jq; then
	starts=$(grep -c '^serve-spin: started' "$tmp/err")
	[ "$starts" -eq 2 ] && jq -e '.clusters * 4 == .pairs' "$tmp/out" \
	    >/dev/null ||
		fail "--fresh-every 0: $starts starts: $(cat "$tmp/out")"
fi
# Placement: an A/B's two arms of a generation have their workers on
# the same CPUs (BENCHMP_SCHED=list:), the first of them changing with
# each start; the caller's BENCHMP_SCHED is left as it is; on one CPU,
# nothing is pinned.
# shellcheck disable=SC2016 # (the script's own $names)
printf '#!/bin/sh\necho "pin=${BENCHMP_SCHED-unset}" >&2\nexec "$@"\n' \
    >"$tmp/logpin"
chmod +x "$tmp/logpin"
run "$sched" --budget 600 --max-visits 48 --a "$tmp/logpin" \
    --b "$tmp/logpin" "$tmp/one"
grep '^pin=' "$tmp/err" | sort | uniq -c >"$tmp/pins"
if [ "$(nproc)" -ge 2 ]; then
	awk '$2 !~ /^pin=list:[0-9]+(,[0-9]+)+$/ || $1 % 2 { bad = 1 }
	    END { exit bad || NR < 2 }' "$tmp/pins" ||
		fail "the arms' placement: $(cat "$tmp/pins")"
else
	grep -qx ' *[0-9]* pin=unset' "$tmp/pins" ||
		fail "pinned on one CPU: $(cat "$tmp/pins")"
fi
run env BENCHMP_SCHED=default "$sched" --budget 600 --max-visits 6 \
    --a "$tmp/logpin" --b "$tmp/logpin" "$tmp/one"
[ "$(grep '^pin=' "$tmp/err" | sort -u)" = pin=default ] ||
	fail "the caller's BENCHMP_SCHED: $(grep '^pin=' "$tmp/err")"

# parts=: an A/B pairs a part a few times (its five visits in calls of
# four turns), never judges or counts it.
printf 'figures=2 parts=1 %s 2\n' "$spin" >"$tmp/parts"
run "$sched" --budget 600 --max-visits 12 --json \
    --a 'env SPIN_NS=2000' --b 'env SPIN_NS=2000' "$tmp/parts"
case $rc in
0 | 1 | 3) ;;
*) fail "an A/A with a part exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
if have_jq; then
	jq -s -e 'length == 2 and (.[0] | .part and .parts == 1 and
	    .pairs >= 5 and .pairs <= 8) and
	    (.[1] | .part == false and .pairs >= 5)' \
	    "$tmp/out" >/dev/null || fail "parts=1: $(cat "$tmp/out")"
fi
# Outside an A/B a part is visited 5 times too, its figure the rest.
run "$sched" --budget 600 --max-visits 12 --stats "$tmp/parts.json" \
    "$tmp/parts"
[ "$rc" -eq 0 ] || fail "a run with a part exited $rc: $(cat "$tmp/err")"
if have_jq; then
	jq -e '[.figures[] | .visits] == [5, 12]' "$tmp/parts.json" \
	    >/dev/null || fail "parts=1, no A/B: $(cat "$tmp/parts.json")"
fi
printf 'figures=2 parts=2 %s 2\n' "$spin" >"$tmp/parts2"
expect_exit 2 'line 1: parts=2 leaves no figure of figures=2' "$sched" \
    --budget 1 --a '' --b '' "$tmp/parts2"
expect_exit 2 'line 1: restart is for an A/B' "$sched" --budget 1 "$tmp/restart"
printf 'restart figures=2 %s 2\n' "$spin" >"$tmp/restart2"
expect_exit 2 'line 1: restart is for a line of one' "$sched" --budget 1 \
    --a '' --b '' "$tmp/restart2"

# A fresh worker set that costs much (a second of set-up against visits
# of milliseconds) comes no oftener than keeps that cost within a quarter
# of the kept visits' time: measured on the first set, none follows it
# (--fresh-every 2 alone would make 12 sets of 24 visits).
# --stats counts the sets the spinner says it set up, and their time.
run env SPIN_SETUP_MS=1000 "$sched" --budget 120 --max-visits 24 \
    --fresh-every 2 --visit 5 --stats "$tmp/cs.json" -- "$spin"
sets=$(grep -c '^serve-spin: set up' "$tmp/err")
[ "$rc" -eq 0 ] && [ "$sets" -ge 1 ] && [ "$sets" -le 2 ] ||
	fail "costly sets: exit $rc, $sets sets for 24 visits: $(cat "$tmp/err")"
if have_jq; then
	jq -e --argjson n "$sets" '.figures[0].sets == $n' "$tmp/cs.json" \
	    >/dev/null || fail "costly sets: $sets set up, stats: $(cat "$tmp/cs.json")"
	# The visits that made the sets took a set-up's second each.
	jq -e '.figures[0] | .set_s >= .sets * 1.0 and .set_s <= .wall_s' \
	    "$tmp/cs.json" >/dev/null ||
		fail "costly sets: set_s: $(cat "$tmp/cs.json")"
fi

# benchmp-ab --served: the same A/B through benchmp-sched; the options
# of the rounds are refused.
run "$bin/benchmp-ab" --served --control --a 'env SPIN_NS=2000' --budget 2 \
    "$spin"
case $rc in
0 | 1 | 3) aa_verdict ||
	fail "benchmp-ab --served A/A's verdict: exit $rc: $(cat "$tmp/out")" ;;
*) fail "benchmp-ab --served A/A exited $rc: $(cat "$tmp/out" "$tmp/err")" ;;
esac
expect_exit 2 'not with --served' "$bin/benchmp-ab" --served --control \
    --a '' --max-rounds 10 "$spin"
expect_exit 2 '--served and --rounds: give one' "$bin/benchmp-ab" --served \
    --rounds --control --a '' "$spin"
# The visits are benchmp-ab's default; a program that serves no figure
# fails (exit 4, named), never an A/B of no change.
run "$bin/benchmp-ab" --control --a 'env SPIN_NS=2000' --budget 2 "$spin"
case $rc in
0 | 1 | 3) grep -q '^benchmp-sched: A: env SPIN_NS=2000 | B: ' "$tmp/out" ||
	fail "benchmp-ab's default is not the visits: $(cat "$tmp/out")" ;;
*) fail "benchmp-ab's default A/A exited $rc: $(cat "$tmp/err")" ;;
esac
# A plan on standard input is benchmp-sched's to read.
"$bin/benchmp-ab" --control --a 'env SPIN_NS=2000' --budget 2 --plan - \
    <"$tmp/one" >"$tmp/out" 2>"$tmp/err"
rc=$?
case $rc in
0 | 1 | 3) aa_verdict || fail "a plan on stdin: $(cat "$tmp/out")" ;;
*) fail "a plan on stdin: exit $rc: $(cat "$tmp/err")" ;;
esac
printf '#!/bin/sh\necho "{\\"tool\\":\\"x\\",\\"value\\":1}"\n' >"$tmp/rec"
chmod +x "$tmp/rec"
expect_exit 4 'line 1, arm A: .*served no figure' "$bin/benchmp-ab" \
    --control --a '' --budget 2 "$tmp/rec"
# A directory prefix takes the tool from that directory in both arms
# (serve-spin is neither on PATH nor beside the scheduler).
mkdir "$tmp/armdir"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$spin" >"$tmp/armdir/serve-spin"
chmod +x "$tmp/armdir/serve-spin"
run "$bin/benchmp-ab" --served --a "env SPIN_NS=2000 $tmp/armdir/" \
    --b "env SPIN_NS=2000 $tmp/armdir/" --budget 2 serve-spin 1
case $rc in
0 | 1 | 3) aa_verdict ||
	fail "a directory prefix's A/A's verdict: $(cat "$tmp/out")" ;;
*) fail "a directory prefix, --served: exit $rc: $(cat "$tmp/err")" ;;
esac
expect_exit 2 "arm A .*cannot find '$tmp/nodir/serve-spin'" \
    "$bin/benchmp-ab" --served --a "$tmp/nodir/" --b "$tmp/armdir/" \
    --budget 2 serve-spin 1

# SIGTERM: the scheduler ends within seconds, its tools with it.
SPIN_NS=2000 "$sched" --budget 600 "$tmp/one" >"$tmp/sig.out" \
    2>"$tmp/sig.err" &
pid=$!
# Meanwhile: its served tool holds the scheduler's two pipes at 3 and 4
# alone, no other descriptor of it on either (what the tool runs does not
# inherit them).
tool=$(pgrep -P "$pid" | head -n 1)
n=0
while [ -z "$tool" ] && [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	tool=$(pgrep -P "$pid" | head -n 1)
	n=$((n + 1))
done
if [ -z "$tool" ]; then
	fail "no served tool within $hang_s s"
elif running "$tool" serve-spin; then
	for fd in 3 4; do
		end=$(readlink "/proc/$tool/fd/$fd") ||
			{ fail "the served tool has no descriptor $fd"; continue; }
		held=0
		for f in "/proc/$tool/fd/"*; do
			[ "$(readlink "$f")" = "$end" ] && held=$((held + 1))
		done
		[ "$held" -eq 1 ] ||
			fail "the served tool holds $end $held times, not at $fd alone"
	done
fi
sleep 1
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	fail "benchmp-sched outlived SIGTERM by 30 s"
	kill -KILL "$pid"
fi
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM: exit $rc, expected 143"
# This run's tools alone: another build may run this test meanwhile.
left=$(left_running serve-spin)
if [ -n "$left" ]; then
	fail "a served tool outlived the scheduler: $left"
	for p in $(tagged serve-spin); do
		kill -s KILL "$p"
	done
fi

# A signal before the first sweep's end (its one visit takes 3 s): the
# line run once, whose turn comes after that sweep, never starts.
printf 'visit=3000 %s 1
once sh -c ": >%s"
' "$spin" "$tmp/started" \
    >"$tmp/late"
SPIN_NS=2000 "$sched" --budget 600 "$tmp/late" >"$tmp/late.out" \
    2>"$tmp/late.err" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM in the first sweep: exit $rc, expected 143"
[ ! -e "$tmp/started" ] ||
	fail "a line run once started after SIGTERM: $(cat "$tmp/late.err")"
left=$(left_running serve-spin)
[ -z "$left" ] || fail "a served tool outlived the scheduler: $left"

# A SIGHUP ignored when the scheduler starts (nohup) stays ignored, by
# it and its tools: the run goes on (a logout once ended it, exit 129),
# and SIGTERM then ends it as ever, its tool with it.
printf 'once sh -c ": >%s; sleep 60; : hup-once"\n' "$tmp/hup.started" \
    >"$tmp/hup-plan"
sh -c 'trap "" HUP; exec "$@"' sh "$sched" --budget 600 "$tmp/hup-plan" \
    >"$tmp/hup.out" 2>"$tmp/hup.err" &
pid=$!
n=0
while [ ! -e "$tmp/hup.started" ] && [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -e "$tmp/hup.started" ] || fail "SIGHUP ignored: the line did not start"
kill -s HUP "$pid"
sleep 0.5
kill -s TERM "$pid"
wait_gone "$pid" "$hang_s"
[ "$rc" -eq 143 ] ||
	fail "SIGHUP ignored, then SIGTERM: exit $rc, not 143: $(head -n 2 "$tmp/hup.err")"
left=$(left_running hup-once)
[ -z "$left" ] || fail "SIGHUP ignored: a tool outlived the scheduler: $left"

# --timeout bounds every wait: a line run once that does not end is
# killed --timeout past the budget, a served tool that never announces a
# figure --timeout after its start; each named with its wait, exit 4,
# nothing left running (the sleeps carry a word of their own).
printf 'once sh -c "sleep 60; : timeout-once"\n' >"$tmp/t-once"
expect_exit 4 '^benchmp-sched: line 1: .*: killed by signal (15|9): no answer within 2\.0 s$' \
    "$sched" --budget 1 --timeout 1 "$tmp/t-once"
printf 'sh -c "sleep 60; : timeout-start"\n' >"$tmp/t-start"
expect_exit 4 '^benchmp-sched: line 1: .*: killed by signal (15|9): no answer within 1\.0 s$' \
    "$sched" --budget 1 --timeout 1 "$tmp/t-start"
left=$(left_running 'timeout-(once|start)')
[ -z "$left" ] || fail "--timeout left running: $left"
expect_exit 2 "--timeout: '0' is not a number from 1 to 86400" "$sched" \
    --timeout 0 "$tmp/t-once"
finish
