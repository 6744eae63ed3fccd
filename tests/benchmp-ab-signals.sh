#!/bin/sh
# benchmp-ab-signals.sh: no arm outlives benchmp-ab, whatever signal ends it; SIGTERM and SIGINT keep the verdicts so far, in benchmp-ab and through benchmp-run; a SIGHUP ignored at the start (nohup) stays ignored.
. "$top_srcdir/tests/lib.sh"

ab=$bin/benchmp-ab
fake=$top_srcdir/tests/ab-fake.sh
AB_FAKE_STATE=$tmp/state
export AB_FAKE_STATE

# group_alive PGID: 0 when a process of group PGID is alive (a zombie,
# killed and not reaped by an init that does not reap, is not).
group_alive() {
	ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit !f }'
}

# count FILE: the number in a counter file, 0 while it is not there or
# is being rewritten (empty).
count() {
	c=$(cat "$1" 2>/dev/null)
	case $c in
	'' | *[!0-9]*) echo 0 ;;
	*) echo "$c" ;;
	esac
}

# group_ps PGID: the processes of group PGID, on one line.
group_ps() {
	ps -eo pgid=,pid=,stat=,args= | awk -v g="$1" '$1 == g' | tr '\n' ';'
}

# wait_file FILE: wait up to 20 s for FILE to be there, not empty.
wait_file() {
	n=0
	while [ ! -s "$1" ] && [ "$n" -lt 200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -s "$1" ]
}

# gone_within PGID SECONDS: 0 when no process of group PGID is alive
# within SECONDS.
gone_within() {
	n=0
	while group_alive "$1" && [ "$n" -lt $(($2 * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	! group_alive "$1"
}

# Whatever signal ends benchmp-ab, the arm under way (its whole process
# group) ends with it: SIGKILL through the guard and the arm's parent
# death signal, the others through their handlers, which then die of
# the signal.  A SIGHUP ignored when this test started (nohup) stays
# ignored by benchmp-ab, rightly: not sent then (it is tested below).
hup=HUP
case $(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null) in
*[13579bdfBDF])
	echo "$me: SIGHUP is ignored here (nohup): its check is not run" >&2
	hup= ;;
esac
for sig in KILL QUIT USR1 ALRM TERM $hup; do
	rm -f "$tmp/spawn"
	"$ab" --no-calibrate --a "env AB_FAKE_HANG=1 AB_FAKE_SPAWN=$tmp/spawn" \
	    --b '' "$fake" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	if ! wait_file "$tmp/spawn"; then
		fail "SIG$sig: the arm did not start"
		kill -s KILL "$pid"
		wait "$pid"
		continue
	fi
	pg=$(ps -o pgid= -p "$(cat "$tmp/spawn")" | tr -d ' ')
	kill -s "$sig" "$pid"
	wait_gone "$pid" 20
	case $sig in
	KILL) want=137 ;;
	QUIT) want=131 ;;
	USR1) want=138 ;;
	ALRM) want=142 ;;
	TERM) want=143 ;;
	HUP) want=129 ;;
	esac
	[ "$rc" -eq "$want" ] || fail "SIG$sig: benchmp-ab exited $rc, not $want"
	if [ -z "$pg" ]; then
		fail "SIG$sig: no process group for the arm"
	elif ! gone_within "$pg" 20; then
		fail "SIG$sig: the arm's processes are left: $(group_ps "$pg")"
		kill -s KILL -- "-$pg" 2>/dev/null
	fi
done

# A SIGHUP ignored when benchmp-ab starts (nohup) stays ignored: the
# comparison goes on (a logout once stopped it, exit 129), and SIGTERM
# then ends it as ever.
rm -f "$tmp/spawn"
sh -c 'trap "" HUP; exec "$@"' sh "$ab" --no-calibrate \
    --a "env AB_FAKE_HANG=1 AB_FAKE_SPAWN=$tmp/spawn" --b '' "$fake" \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
if wait_file "$tmp/spawn"; then
	pg=$(ps -o pgid= -p "$(cat "$tmp/spawn")" | tr -d ' ')
	kill -s HUP "$pid"
	sleep 0.5
	kill -s TERM "$pid"
	wait_gone "$pid" 20
	[ "$rc" -eq 143 ] ||
		fail "SIGHUP ignored, then SIGTERM: exit $rc, not 143: $(head -n 2 "$tmp/err")"
	if [ -n "$pg" ] && ! gone_within "$pg" 20; then
		fail "SIGHUP ignored: the arm's processes are left: $(group_ps "$pg")"
		kill -s KILL -- "-$pg" 2>/dev/null
	fi
else
	fail "SIGHUP ignored: the arm did not start"
	kill -s KILL "$pid"
	wait "$pid"
fi

# SIGTERM in the middle: the round under way stops at once, the verdicts
# reached so far are printed, marked interrupted, and the exit is 143.
# Arm B hangs from the counter's 20th run on, after nine rounds of a
# figure too noisy to settle.
# (A background job starts with SIGINT ignored: benchmp-ab catches it
# all the same.)
for sig in TERM INT; do
	rm -f "$tmp/state"
	"$ab" --no-calibrate --json --budget 86400 \
	    --a 'env AB_FAKE_NOISE=0.5' \
	    --b 'env AB_FAKE_NOISE=0.5 AB_FAKE_HANG_AFTER=20' "$fake" \
	    >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	n=0
	while [ "$(count "$tmp/state")" -lt 21 ] &&
	    [ "$n" -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -s "$sig" "$pid"
	wait_gone "$pid" 20
	want=143
	[ "$sig" = INT ] && want=130
	if [ "$rc" -ne "$want" ]; then
		fail "SIG$sig mid-run: exit $rc, not $want: $(head -n 2 "$tmp/err")"
	elif have_jq && ! jq -e '.interrupted == true and .rounds >= 6 and
	    .tool == "fake" and (.verdict | IN("same", "worse", "better",
	    "undecided"))' "$tmp/out" >/dev/null; then
		fail "SIG$sig mid-run: $(cat "$tmp/out")"
	fi
done
# The text form says so too.
rm -f "$tmp/state"
"$ab" --no-calibrate --budget 86400 --a 'env AB_FAKE_NOISE=0.5' \
    --b 'env AB_FAKE_NOISE=0.5 AB_FAKE_HANG_AFTER=14' "$fake" \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
n=0
while [ "$(count "$tmp/state")" -lt 15 ] && [ "$n" -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -s TERM "$pid"
wait_gone "$pid" 20
if [ "$rc" -ne 143 ] || ! grep -q 'interrupted by SIGTERM' "$tmp/out" ||
    ! grep -q '^fake x latency .* 7 rounds' "$tmp/out" ||
    ! grep -q 'undecided (interrupted)$' "$tmp/out"; then
	fail "SIGTERM, text ($rc): $(cat "$tmp/out")"
fi

# SIGTERM while tens of thousands of records are paired acts at once
# too: the pairing looks at the signal (it once took a minute and let
# SIGTERM wait).
"$ab" --no-calibrate --json --budget 86400 --a 'env AB_FAKE_MANY=60000' \
    --b 'env AB_FAKE_MANY=60000' "$fake" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 3
kill -s TERM "$pid"
wait_gone "$pid" 20
[ "$rc" -eq 143 ] ||
	fail "SIGTERM among 60,000 records: exit $rc (137: not within 20 s): $(head -n 2 "$tmp/err")"

# benchmp-run --a --b --classic passes SIGTERM on to benchmp-ab at once
# and keeps its verdicts.  Arm B's prefix runs its tool until the 14th
# run, then hangs.  (The suite's A/B through benchmp-sched is
# scripts-run-visits.sh's.)
cat >"$tmp/slow" <<EOF
#!/bin/sh
n=\$(cat '$tmp/slow.count' 2>/dev/null || echo 0)
echo \$((n + 1)) >'$tmp/slow.count'
[ "\$n" -lt 14 ] || { echo \$\$ >'$tmp/slow.pid'; exec sleep 300; }
exec "\$@"
EOF
chmod +x "$tmp/slow"
PATH=$(cd "$bin" && pwd):$PATH "$top_srcdir/scripts/benchmp-run" --installed \
    --quick --only ops --no-check --classic --a '' --b "$tmp/slow" --budget 600 \
    --results "$tmp/res" >"$tmp/out" 2>"$tmp/err" &
pid=$!
n=0
while [ "$(count "$tmp/slow.count")" -lt 15 ] &&
    [ "$n" -lt 1800 ]; do
	sleep 0.1
	n=$((n + 1))
done
pg=
! wait_file "$tmp/slow.pid" || pg=$(ps -o pgid= -p "$(cat "$tmp/slow.pid")" | tr -d ' ')
kill -s TERM "$pid"
wait_gone "$pid" 20
if [ "$rc" -ne 143 ]; then
	fail "benchmp-run --a --b, SIGTERM: exit $rc: $(tail -n 3 "$tmp/err")"
elif ! grep -q 'interrupted' "$tmp/err" ||
    ! grep -Eq '^lat_ops .* (worse|better|same|undecided( \(about [0-9]+ s more\))?)$' "$tmp/out" ||
    ! ls "$tmp"/res/*/*.ab.json >/dev/null 2>&1; then
	fail "benchmp-run --a --b, SIGTERM: no verdicts kept: $(tail -n 3 "$tmp/err") $(head -c 300 "$tmp/out")"
fi
if [ -n "$pg" ] && ! gone_within "$pg" 20; then
	fail "benchmp-run --a --b, SIGTERM: the arm is left: $(group_ps "$pg")"
	kill -s KILL -- "-$pg" 2>/dev/null
fi
if pgrep -f "benchmp-ab .*$tmp/slow" >/dev/null; then
	fail "benchmp-run --a --b, SIGTERM: benchmp-ab is left running"
fi

finish
