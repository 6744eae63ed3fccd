#!/bin/sh
# faults.sh: tools under faults: a worker killed mid-interval, a benchmark
# that never returns, signals at every moment of a run, fork and
# descriptors and memory refused by limits, a full disk.  Each case checks
# the exit status, the message, the time taken and that nothing is left.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

# tmp_empty WHAT: the tools' private directories are all gone.
tmp_empty() {
	[ -z "$(ls -A "$TMPDIR")" ] ||
		fail "$1: left in TMPDIR: $(ls -A "$TMPDIR")"
}

# children_of PID NAME: the processes whose parent is PID, once PID runs
# the program NAME, waiting up to $hang_s s for the first to appear.
children_of() {
	running "$1" "$2"
	n=0
	while [ -z "$(pgrep -P "$1")" ] && [ "$n" -lt $((hang_s * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	pgrep -P "$1"
}

# A worker killed with SIGKILL in the middle of its intervals: the run
# fails at once naming the worker and the signal, the others are reaped
# (a bound of $hang_s s: a loaded machine may take seconds to reap).
ENOUGH=100000 "$bin/lat_syscall" -P 2 -N 1000 null >"$tmp/out" 2>"$tmp/err" &
pid=$!
w=$(children_of "$pid" lat_syscall | head -n 1)
sleep 0.5
if [ -z "$w" ]; then
	fail "SIGKILL: no worker found"
	kill "$pid"
else
	kill -s KILL "$w"
fi
wait_gone "$pid" "$hang_s"
[ "$rc" -eq 1 ] || fail "SIGKILL: exit $rc, expected 1"
grep -Eq '^lat_syscall: worker [01] \(pid [0-9]+\) .*signal 9' "$tmp/err" ||
	fail "SIGKILL: message '$(cat "$tmp/err")'"
[ ! -s "$tmp/out" ] || fail "SIGKILL: a result was printed"
no_children

# A benchmark that never returns: lat_pipe's partner is stopped, so the
# worker waits for an answer forever.  The run gives up after the bound
# derived from the intervals (10 s plus 20 times the expected intervals
# here: about 11 s), not after an hour, and the stopped partner goes too.
# The 3 s warmup leaves time to stop the partner before the intervals.
"$bin/lat_pipe" -W 3000000 -N 11 >"$tmp/out" 2>"$tmp/err" &
pid=$!
w=$(children_of "$pid" lat_pipe | head -n 1)
partner=
[ -n "$w" ] && partner=$(children_of "$w" lat_pipe | head -n 1)
if [ -z "$partner" ]; then
	fail "hang: no partner found"
	kill "$pid"
else
	kill -s STOP "$partner"
fi
# 60 s: a hang guard, not the bound under test (the message states it).
wait_gone "$pid" 60
[ "$rc" -eq 1 ] || fail "hang: exit $rc, expected 1: $(cat "$tmp/err")"
grep -Eq '^lat_pipe: worker 0 \(pid [0-9]+\) did not finish its (first pass|intervals) within [0-9.]+ s' \
    "$tmp/err" || fail "hang: message '$(cat "$tmp/err")'"
# The partner dies with its worker (PR_SET_PDEATHSIG), a moment after.
if [ -n "$partner" ]; then
	n=0
	while kill -0 "$partner" 2>/dev/null && [ "$n" -lt 20 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	! kill -0 "$partner" 2>/dev/null ||
		fail "hang: the stopped partner $partner is left"
fi
no_children
tmp_empty hang

# SIGINT and SIGTERM at every moment of a run, calibration included (no
# ENOUGH): the tool ends with the signal's status, prints no result, and
# leaves no process, temporary file or socket.  A signal can only come
# before a run or during it: both end the same way.
if env --default-signal=INT true 2>/dev/null; then
	dfl="env --default-signal=INT"
else
	dfl=
fi
for tool in "lat_syscall null" "lat_pipe" "lat_tcp" "lat_fs" \
    "bw_mem 8m rd"; do
	# Early: calibrating (no ENOUGH); later: well inside a long run.
	# -N 100000: calibrated intervals can be 100 us (lat_tcp: 1000 of
	# them took 0.2 s here), and the run must outlast the signal.
	for at in 0.05 0.2 0.5 1.0; do
		case $at in
		0.05 | 0.2) long="-u ENOUGH -u TIMING_O -u LOOP_O" ;;
		*) long=ENOUGH=50000 ;;
		esac
		for sig in INT TERM; do
			[ "$sig" = INT ] && [ -z "$dfl" ] && continue
			# $tool and $dfl are words of a command, split on purpose.
			# shellcheck disable=SC2086
			set -- $tool
			name=$1
			shift
			# shellcheck disable=SC2086
			env $long $dfl \
			    "$bin/$name" -N 100000 "$@" >"$tmp/out" \
			    2>"$tmp/err" &
			pid=$!
			# The times count from the tool's start: a signal to
			# the env(1) before it (which a background job starts
			# with SIGINT ignored) or to libtool's wrapper script
			# (bash, which drops a SIGINT that comes while it
			# waits for a command) never reaches the tool.
			running "$pid" "$name"
			sleep "$at"
			kill -s "$sig" "$pid" 2>/dev/null
			wait_gone "$pid" "$hang_s"
			case $sig in
			INT) want=130 ;;
			TERM) want=143 ;;
			esac
			what="$tool, SIG$sig at $at s"
			[ "$rc" -eq "$want" ] ||
				fail "$what: exit $rc: $(head -n 2 "$tmp/err")"
			# A message, when there is one, says why.
			[ ! -s "$tmp/err" ] ||
			    grep -q "interrupted by SIG$sig\$" "$tmp/err" ||
				fail "$what: message '$(cat "$tmp/err")'"
			[ ! -s "$tmp/out" ] || fail "$what: printed a result"
			tmp_empty "$what"
		done
	done
done
no_children

# A signal ignored when the tool starts stays ignored, as nohup(1) and a
# background job expect, also once a tool has its private directory (whose
# removal catches the others); SIGTERM still ends it and removes it.
(trap '' HUP; exec env ENOUGH=50000 "$bin/lat_fs" -N 1000) >"$tmp/out" \
    2>"$tmp/err" &
pid=$!
running "$pid" lat_fs
n=0
while [ -z "$(ls -A "$TMPDIR")" ] && [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -n "$(ls -A "$TMPDIR")" ] || fail "ignored SIGHUP: lat_fs made no directory"
kill -s HUP "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "ignored SIGHUP: lat_fs ended on it"
kill -s TERM "$pid" 2>/dev/null
wait_gone "$pid" "$hang_s"
[ "$rc" -eq 143 ] ||
	fail "ignored SIGHUP, then SIGTERM: exit $rc: $(head -n 2 "$tmp/err")"
tmp_empty "ignored SIGHUP"
no_children

# Fork refused (RLIMIT_NPROC): the limit does not bind root, so root runs
# the tool as nobody, from a copy nobody may execute (the program itself,
# not libtool's wrapper script, which would fail to fork first).
nproc_dir=$(mktemp -d /tmp/benchmp-nproc.XXXXXX) || exit 99
chmod 755 "$nproc_dir"
if [ -f "$bin/.libs/lat_syscall" ]; then
	cp "$bin/.libs/lat_syscall" "$nproc_dir/"
	cp -P "$top_builddir"/lib/.libs/libbenchmp.so* "$nproc_dir/" 2>/dev/null
else
	cp "$bin/lat_syscall" "$nproc_dir/"
fi
if [ "$(id -u)" -ne 0 ]; then
	nproc_run="env"
elif command -v setpriv >/dev/null 2>&1; then
	nproc_run="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	nproc_run=
fi
if [ -n "$nproc_run" ]; then
	# shellcheck disable=SC2086
	expect_exit 1 '^lat_syscall: fork worker 0: Resource temporarily unavailable$' \
	    env LD_LIBRARY_PATH="$nproc_dir" prlimit --nproc=1 $nproc_run \
	    "$nproc_dir/lat_syscall" -P 4 null
	no_children
	# The shell of lat_proc shell cannot fork (3: the tool, its worker
	# and the shell): the cause, not "No child processes".  Wherever the
	# limit bites first, the message is the fork's.
	if [ -f "$bin/.libs/lat_proc" ]; then
		cp "$bin/.libs/lat_proc" "$nproc_dir/"
	else
		cp "$bin/lat_proc" "$nproc_dir/"
	fi
	cp "$bin/benchmp-hello" "$nproc_dir/"
	# shellcheck disable=SC2086
	expect_exit 1 '^lat_proc: (fork worker 0|worker 0: benchmark failed): Resource temporarily unavailable$' \
	    env LD_LIBRARY_PATH="$nproc_dir" prlimit --nproc=3 $nproc_run \
	    "$nproc_dir/lat_proc" shell
	no_children
else
	echo "$me: no setpriv to run as nobody; fork refusal is tested" \
	    "in check_engine only" >&2
fi
rm -rf "$nproc_dir"

# lat_proc shell pastes the helper's path into sh -c quoted: a directory
# with a quote and a blank in its name works.
qdir=$tmp/"it's here"
mkdir "$qdir"
if [ -f "$bin/.libs/lat_proc" ]; then
	cp "$bin/.libs/lat_proc" "$qdir/"
	cp -P "$top_builddir"/lib/.libs/libbenchmp.so* "$qdir/" 2>/dev/null
else
	cp "$bin/lat_proc" "$qdir/"
fi
cp "$bin/benchmp-hello" "$qdir/"
expect_line '^Process fork\+/bin/sh -c: [0-9]+\.[0-9]{4} microseconds$' \
    env LD_LIBRARY_PATH="$qdir" "$qdir/lat_proc" -N 3 shell
rm -rf "$qdir"
no_children

# Descriptors exhausted (RLIMIT_NOFILE): refused before anything starts;
# the need is counted (what is open, inherited from make too, plus two
# per worker and a few), not a fixed reserve of 64 that refused one worker
# under a limit of 65.
expect_exit 1 '^lat_syscall: 64 workers need 1[3-9][0-9] descriptors; the limit is 30$' \
    prlimit --nofile=30:30 "$bin/lat_syscall" -P 64 null
expect_line '^Simple syscall: [0-9]+\.[0-9]{4} microseconds$' \
    prlimit --nofile=65:65 "$bin/lat_syscall" null
no_children

# Memory exhausted (RLIMIT_AS) in initialize.  AddressSanitizer reserves
# terabytes of address space for its shadow, so it cannot run under the
# limit at all: that build checks the engine's initialize failure in
# check_engine instead.
if [ "${BM_SANITIZERS:-no}" != yes ]; then
	expect_exit 1 '^bw_mem: cannot allocate 1074 MB: Cannot allocate memory$' \
	    prlimit --as=$((400 << 20)) "$bin/bw_mem" 1g rd
	expect_exit 1 '^bw_mem: cannot allocate [0-9]+ MB: Cannot allocate memory$' \
	    prlimit --as=$((400 << 20)) "$bin/bw_mem" -P 2 256m cp
	no_children
fi

# A closed standard descriptor: the tool's own descriptors must not take
# its number, so a closed stdout loses the result loudly (exit 1), never
# into a worker's pipe or /dev/null with exit 0; a closed stdin or stderr
# changes nothing.
for c in "lat_proc fork" "lat_proc exec" "lat_syscall null" lat_pipe; do
	# shellcheck disable=SC2086
	set -- $c
	t=$1
	shift
	timeout 60 "$bin/$t" -N 1 "$@" >&- 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" -eq 1 ] && grep -qx "$t: writing the result: Bad file descriptor" "$tmp/err" ||
		fail "$c >&-: exit $rc, stderr '$(head -n 2 "$tmp/err")'"
	timeout 60 "$bin/$t" -N 1 "$@" >"$tmp/out" 2>&- <&-
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] ||
		fail "$c <&- 2>&-: exit $rc, stdout '$(cat "$tmp/out")'"
done
# The record still reaches a file sink when stdout is closed.
timeout 60 "$bin/lat_syscall" -N 1 --output="file:$tmp/closed.jsonl" null >&- 2>/dev/null
grep -q '^{"tool":"lat_syscall",' "$tmp/closed.jsonl" ||
	fail "lat_syscall >&- with a file sink wrote no record"

# A FIFO as the file sink: without a reader the tool says so and exits 1
# at once (a blocking open waited for ever); with one, the record arrives.
mkfifo "$tmp/fifo"
run timeout 20 "$bin/lat_syscall" -N 1 --output="file:$tmp/fifo" null
[ "$rc" -eq 1 ] && grep -q "^lat_syscall: --output: sink file $tmp/fifo is a FIFO with no reader\$" "$tmp/err" ||
	fail "FIFO sink without a reader: exit $rc: $(cat "$tmp/err")"
run timeout 20 env BENCHMP_OUTPUT="file:$tmp/fifo" "$bin/lat_syscall" -N 1 null
[ "$rc" -eq 1 ] && grep -q "^lat_syscall: BENCHMP_OUTPUT: .* FIFO with no reader\$" "$tmp/err" ||
	fail "FIFO in BENCHMP_OUTPUT without a reader: exit $rc: $(cat "$tmp/err")"
# The script holds the FIFO open (read and write, so the open returns at
# once) while the tool writes its record, then reads it.
exec 4<>"$tmp/fifo"
run timeout 20 "$bin/lat_syscall" -N 1 --output="file:$tmp/fifo" null
[ "$rc" -eq 0 ] || fail "FIFO sink with a reader: exit $rc: $(cat "$tmp/err")"
timeout 10 head -n 1 <&4 >"$tmp/fifo.out"
exec 4<&-
grep -q '^{"tool":"lat_syscall",' "$tmp/fifo.out" ||
	fail "FIFO sink with a reader: got '$(head -c 200 "$tmp/fifo.out")'"
expect_exit 1 "^lat_syscall: --output: cannot open sink file $tmp: Is a directory\$" \
    "$bin/lat_syscall" --output="file:$tmp" null

# A full disk: results to /dev/full, as the standard output or a file sink,
# are a write error with exit 1, never a silent loss.
"$bin/lat_syscall" null >/dev/full 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "stdout on /dev/full: exit $rc"
grep -q '^lat_syscall: writing the result: No space left on device$' \
    "$tmp/err" || fail "stdout on /dev/full: '$(cat "$tmp/err")'"
expect_exit 1 '^lat_syscall: writing to sink file:/dev/full: No space left on device$' \
    "$bin/lat_syscall" --output=file:/dev/full null

# A file sink that fills up (a file-size limit stands in for the disk):
# the tool fails, and the file holds whole records only, never half of one.
if have_jq; then
	sink=$tmp/records.jsonl
	expect_exit 1 "^lat_ops: writing to sink file:$sink: only [0-9]+ of [0-9]+ bytes written\$" \
	    prlimit --fsize=3000 "$bin/lat_ops" --output="file:$sink"
	[ -s "$sink" ] || fail "size limit: nothing was written"
	[ "$(tail -c 1 "$sink" | od -An -c | tr -d ' ')" = '\n' ] ||
		fail "size limit: the file ends inside a record"
	while IFS= read -r line; do
		printf '%s\n' "$line" | jq -e '.tool == "lat_ops"' >/dev/null ||
			fail "size limit: a broken record: $(echo "$line" | cut -c1-80)"
	done <"$sink"
	# Once full, a write fails outright: the record is not written at all.
	size=$(wc -c <"$sink")
	expect_exit 1 "^lat_syscall: writing to sink file:$sink: File too large\$" \
	    prlimit --fsize="$size" "$bin/lat_syscall" --output="file:$sink" null
	[ "$(wc -c <"$sink")" -eq "$size" ] || fail "size limit: file grew"
fi
no_children
tmp_empty end
finish
