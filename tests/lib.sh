# lib.sh: helpers shared by the CLI test scripts (sourced, POSIX sh).
# shellcheck shell=sh disable=SC2034

: "${top_builddir:=.}"
: "${top_srcdir:=.}"
bin=$top_builddir/bin
# The scripts take benchmp-stats from beside them, from ../build/bin, or
# from PATH, as an installed user has it: a build directory of another
# name (build-ci, distcheck's _build/sub) is found through PATH, last.
PATH=$PATH:$(cd "$bin" && pwd)
export PATH
me=${0##*/}
failures=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/benchmp-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Keep the runs short: the figures do not matter in these tests.
ENOUGH=2000 TIMING_O=0.03 LOOP_O=0.0003
export ENOUGH TIMING_O LOOP_O
# One round of workers per run unless a test asks for more: the rounds
# are tested where they are named (lat_syscall-output.sh, settings.sh,
# benchmp-stats.sh, check_engine), and the default five made every tool
# run of the other tests five times as long.
BENCHMP_PROCESSES=1
export BENCHMP_PROCESSES
# The tools' answers are checked here, not their default time bound (60 s
# of wall time; sweeps-budget.sh and benchmp-run's --budget test the
# bound): under a sanitizer build on a loaded machine, line's sweep
# outlasted 60 s and stopped with no knee.
BENCHMP_MAX_TIME=3600
export BENCHMP_MAX_TIME
unset BENCHMP_TIMER BENCHMP_SCHED LMBENCH_SCHED BENCHMP_LATER_WARMUP \
    BENCHMP_WARMUP
BENCHMP_TEST_TAG=$$
export BENCHMP_TEST_TAG

# Record a failure and go on.
fail() {
	echo "FAIL: $me: $*" >&2
	failures=$((failures + 1))
}

# Run a command, keeping stdout in $tmp/out and stderr in $tmp/err; the
# exit status is in $rc.  A tool's line ends with " (noisy +-N%)" or
# " (noisy)" when its figure is flagged, which depends on the machine:
# $tmp/out has lmbench's line without it (what the format tests check),
# $tmp/out.raw the line as printed (lat_syscall-output.sh checks the
# warning itself).
run() {
	"$@" >"$tmp/out.raw" 2>"$tmp/err" </dev/null
	rc=$?
	sed -E 's/ \(noisy( \+-[0-9]+%)?\)$//' "$tmp/out.raw" >"$tmp/out"
}

# Print the lines of file $1 without the noisy warning (see run).
unwarned() {
	sed -E 's/ \(noisy( \+-[0-9]+%)?\)$//' "$1"
}

# expect_exit STATUS PATTERN CMD...: the command exits with STATUS and its
# stderr matches the extended regular expression PATTERN.
expect_exit() {
	want=$1
	pat=$2
	shift 2
	run "$@"
	if [ "$rc" -ne "$want" ]; then
		fail "'$*' exited $rc, expected $want: $(head -n 2 "$tmp/err")"
	elif ! grep -Eq -- "$pat" "$tmp/err"; then
		fail "'$*': stderr does not match '$pat': $(head -n 2 "$tmp/err")"
	fi
}

# one_line CMD...: the command succeeds and prints exactly one line on
# stdout (kept in $tmp/out); 1 after reporting the failure otherwise.
one_line() {
	run "$@"
	if [ "$rc" -ne 0 ]; then
		fail "'$*' exited $rc: $(head -n 2 "$tmp/err")"
		return 1
	fi
	if [ "$(wc -l <"$tmp/out")" -ne 1 ]; then
		fail "'$*' printed $(wc -l <"$tmp/out") lines, not 1"
		return 1
	fi
}

# expect_line REGEX CMD...: one line on stdout, matching REGEX.
expect_line() {
	pat=$1
	shift
	one_line "$@" || return 0
	grep -Eq -- "$pat" "$tmp/out" ||
		fail "'$*' printed '$(cat "$tmp/out")', not matching '$pat'"
}

# run_ok_or_unmeasurable: the last run (benchmp-run) exited 0, or exited 1
# with every figure it lists as failed a lat_ctx ring whose switch was not
# measurable: a hop no dearer than the overhead measured apart, which a
# host phase can make so.  Both are correct outcomes under any load; 1
# otherwise.
run_ok_or_unmeasurable() {
	[ "$rc" -eq 0 ] && return 0
	[ "$rc" -eq 1 ] || return 1
	sed -n '/^benchmp-run: failed:$/,$p' "$tmp/err" | sed 1d \
	    >"$tmp/failed.lines"
	[ -s "$tmp/failed.lines" ] &&
	    ! grep -qv 'switch is not measurable' "$tmp/failed.lines"
}

# have_jq: 0 when jq can check JSON here.
have_jq() {
	command -v jq >/dev/null 2>&1
}

# ipc_ids: the System V IPC objects of this machine, one "kind id" per
# line, sorted (from /proc/sysvipc, or ipcs; empty when neither is there).
ipc_ids() {
	if [ -r /proc/sysvipc/sem ]; then
		for k in sem shm msg; do
			awk -v k="$k" 'NR > 1 { print k, $2 }' \
			    "/proc/sysvipc/$k" 2>/dev/null
		done | sort
	elif command -v ipcs >/dev/null 2>&1; then
		ipcs -a 2>/dev/null | awk '$2 ~ /^[0-9]+$/ { print $2 }' | sort
	fi
}

# ipc_left FILE: the System V IPC objects that are not in FILE (an earlier
# ipc_ids) and are still there after up to 30 s.  Tests of other scripts
# or users running at the same time make and remove their own, which go
# away; an object left behind does not.
ipc_left() {
	n=0
	while :; do
		new=$(ipc_ids | comm -13 "$1" -)
		[ -z "$new" ] || [ "$n" -ge 300 ] && break
		sleep 0.1
		n=$((n + 1))
	done
	echo "$new"
}

# expect_json FILTER CMD...: one JSON line for which jq's FILTER is true.
expect_json() {
	filter=$1
	shift
	one_line "$@" || return 0
	jq -e "$filter" "$tmp/out" >/dev/null ||
		fail "'$*': jq '$filter' is not true for $(cut -c1-300 "$tmp/out")"
}

# no_children: no tool process (or benchmp-sched, benchmp-ab) started by
# this script is left running.
# The tools and their forked workers inherit BENCHMP_TEST_TAG; processes
# of other test scripts running in parallel carry another tag.
no_children() {
	sleep 0.1
	left=
	for p in $(pgrep 'lat_|bw_|enough|timing_o|loop_o|benchmp-' \
	    2>/dev/null); do
		[ "$p" = $$ ] && continue
		if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
		    grep -qx "BENCHMP_TEST_TAG=$$"; then
			left="$left $p($(cat "/proc/$p/comm" 2>/dev/null))"
		fi
	done
	[ -z "$left" ] || fail "processes left behind:$left"
}

# tagged PATTERN: the pids of the processes started by this script (they
# carry its BENCHMP_TEST_TAG, as in no_children) whose command line
# matches the extended regular expression PATTERN.  make check runs other
# tests beside this one, and another build may run this very test, with
# the same programs: a pattern alone would see their processes too.
tagged() {
	for p in $(pgrep -f -- "$1" 2>/dev/null); do
		[ "$p" = $$ ] && continue
		if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
		    grep -qx "BENCHMP_TEST_TAG=$$"; then
			echo "$p"
		fi
	done
}

# left_running PATTERN: the processes of tagged PATTERN still there after
# up to $hang_s s (a hang guard: on a loaded machine a killed tool and its
# workers may take seconds to exit), one "pid command line" a line, and
# nothing when they are all gone.
left_running() {
	n=0
	while left=$(tagged "$1") && [ -n "$left" ] &&
	    [ "$n" -lt $((hang_s * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	for p in $left; do
		echo "$p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
	done
}

# The bound of the waits below: a hang guard, not a speed target (a
# sanitized tool on a 2-CPU machine at a load of 20 took seconds to start,
# fork its workers and be reaped).
hang_s=60

# running PID NAME: wait up to $hang_s s until the process PID runs the
# program NAME: a libtool wrapper script runs commands of its own before
# it execs the tool (from .libs, as NAME or lt-NAME).
running() {
	n=0
	while [ "$n" -lt $((hang_s * 100)) ]; do
		exe=$(readlink "/proc/$1/exe" 2>/dev/null)
		case ${exe##*/} in
		"$2" | "lt-$2") return 0 ;;
		esac
		sleep 0.01
		n=$((n + 1))
	done
	fail "process $1 did not start $2 within $hang_s s"
	return 1
}

# child_with_child PID NAME: once PID runs the program NAME, wait up to
# $hang_s s for a child of it that has a child of its own (a worker and its
# partner, or a server and a connection) and print the two pids.
child_with_child() {
	running "$1" "$2" || return 1
	n=0
	while [ "$n" -lt $((hang_s * 10)) ]; do
		for c in $(pgrep -P "$1"); do
			g=$(pgrep -P "$c" | head -n 1)
			if [ -n "$g" ]; then
				echo "$c $g"
				return 0
			fi
		done
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# kill_helper PID NAME WHICH: once PID runs the program NAME, kill its
# helper with SIGKILL, WHICH being "partner" (a worker's child) or "server"
# (the child with children of its own, the connections); the tool must
# then fail, exit 1, within $hang_s s.  Its message is the caller's to check.
kill_helper() {
	pair=$(child_with_child "$1" "$2")
	if [ -z "$pair" ]; then
		fail "$2: no $3 process found"
	elif [ "$3" = server ]; then
		kill -s KILL "${pair%% *}"
	else
		kill -s KILL "${pair#* }"
	fi
	wait_gone "$1" "$hang_s"
	if [ "$rc" -eq 137 ]; then
		fail "$2: still running $hang_s s after its $3 died"
	elif [ "$rc" -ne 1 ]; then
		fail "$2: exit $rc after its $3 died"
	fi
}

# The correct reports of a dead partner: a pipe's writer sees EPIPE and
# its reader end of file (both "Broken pipe"), while a socket's side may
# see ECONNRESET first, depending on where the partner was when it died.
dead_partner='(Broken pipe|Connection reset by peer)'

# wait_gone PID SECONDS: wait for a background job, killing it after
# SECONDS; sets $rc to its exit status and $took to the seconds it took
# from the call.
wait_gone() {
	t0=$(date +%s)
	n=0
	while kill -0 "$1" 2>/dev/null && [ "$n" -lt $(($2 * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -0 "$1" 2>/dev/null && kill -s KILL "$1"
	wait "$1"
	rc=$?
	took=$(($(date +%s) - t0))
}

# interrupt NAME SECONDS CMD...: start CMD in the background with SIGINT at
# its default (a background job starts with SIGINT ignored, and the tools
# rightly leave an ignored signal ignored), send SIGINT SECONDS after the
# process has become the program NAME, and wait for it as wait_gone does,
# for up to $hang_s s; its output goes to $tmp/out and $tmp/err.  Returns 1,
# having run nothing, where env(1) cannot restore the default (coreutils
# before 8.31).
interrupt() {
	env --default-signal=INT true 2>/dev/null || return 1
	name=$1
	at=$2
	shift 2
	env --default-signal=INT "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	running "$pid" "$name"
	sleep "$at"
	kill -s INT "$pid"
	wait_gone "$pid" "$hang_s"
}

# fake_scaler FILE: write FILE, a stand-in tool for benchmp-scaling that
# prints the record of tests/data/scaling.jsonl (its copy in $tmp) for
# the -P it is given.
# shellcheck disable=SC2016 # (the stand-in's script: its own $1 and $p)
fake_scaler() {
	cp "$top_srcdir/tests/data/scaling.jsonl" "$tmp/scaling.jsonl" &&
	    printf '%s\n' '#!/bin/sh' 'while [ $# -gt 0 ]; do' \
	    '	case $1 in -P) p=$2; shift ;; esac' '	shift' 'done' \
	    "jq -c --argjson p \"\$p\" 'select(.parallel == \$p)' '$tmp/scaling.jsonl'" \
	    >"$1" && chmod +x -- "$1"
}

# finish: the exit status of the script.
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$me: $failures failure(s)" >&2
		exit 1
	fi
	exit 0
}
