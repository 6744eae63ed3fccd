#!/bin/sh
# proc-output.sh: lat_sem, lat_fcntl, lat_proc, lat_ctx, lat_sig, lat_select
# and lat_usleep print their lines, refuse bad input and leave nothing behind.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

us='[0-9]+\.[0-9]{4} microseconds$'
ipc_ids >"$tmp/ipc_before"
# The two-process lines end with the placement measured.
pl=' \(cross\)'
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] || pl=' \(same\)'
two="[0-9]+\\.[0-9]{4} microseconds$pl\$"
expect_line "^Semaphore latency: $two" "$bin/lat_sem" -N 3
expect_line "^Semaphore latency: $two" "$bin/lat_sem" -N 3 -P 3
expect_line "^Semaphore latency \\(POSIX\\): $two" "$bin/lat_sem" -N 3 --posix
if have_jq; then
	expect_json '.case == "sysv"' "$bin/lat_sem" --json -N 3
	expect_json '.case == "posix"' "$bin/lat_sem" --json -N 3 --posix
fi
expect_line "^Fcntl lock latency: $two" "$bin/lat_fcntl" -N 3
expect_line "^Fcntl lock latency: $two" "$bin/lat_fcntl" -N 3 -P 2
expect_line "^Procedure call: $us" "$bin/lat_proc" -N 3 procedure
# exec runs the helper with an empty environment, as lmbench's does: an
# LD_PRELOAD the loader cannot honour complains once per process that
# reads it, so exec (every helper too, if the environment went with it)
# complains no more often than fork (the tool's own processes alone).
nopre="$tmp/none/benchmp-absent.so"
LD_PRELOAD=$nopre "$bin/lat_proc" -N 2 fork >/dev/null 2>"$tmp/pre.fork"
LD_PRELOAD=$nopre "$bin/lat_proc" -N 2 exec >/dev/null 2>"$tmp/pre.exec"
nf=$(grep -c "$nopre" "$tmp/pre.fork")
ne=$(grep -c "$nopre" "$tmp/pre.exec")
[ "$ne" -le "$nf" ] ||
	fail "lat_proc exec: the helper inherited the environment ($ne LD_PRELOAD complaints, fork $nf)"
expect_line "^Process fork\+exit: $us" "$bin/lat_proc" -N 3 fork
expect_line "^Process fork\+execve: $us" "$bin/lat_proc" -N 3 exec
expect_line "^Process fork\+/bin/sh -c: $us" "$bin/lat_proc" -N 3 shell
# The program exec and shell start, installed beside the tools.
expect_line '^Hello world$' "$bin/benchmp-hello"
expect_line "^Signal handler installation: $us" "$bin/lat_sig" -N 3 install
# catch and prot print the whole less parts timed apart: on a loaded
# machine the parts can come out dearer, and the tool says so (exit 1).
sig_line() {
	pat=$1
	shift
	run "$@"
	if [ "$rc" -eq 1 ] && grep -q 'took as long as the whole' "$tmp/err"
	then
		echo "$me: '$*': $(cat "$tmp/err")" >&2
		return 0
	fi
	expect_line "$pat" "$@"
}
sig_line "^Signal handler overhead: $us" "$bin/lat_sig" -N 3 catch
sig_line "^Protection fault: $us" "$bin/lat_sig" -N 3 prot
sig_line "^Protection fault: $us" "$bin/lat_sig" -N 3 prot "$top_srcdir/README.md"
expect_line "^Select on 200 fd's: $us" "$bin/lat_select" -N 3 file
expect_line "^Select on 10 tcp fd's: $us" "$bin/lat_select" -N 3 -n 10 tcp
for m in usleep nanosleep select pselect itimer; do
	expect_line "^$m 10 microseconds: $us" "$bin/lat_usleep" -N 3 -u $m 10
done
# A sleep never takes less than asked.
run "$bin/lat_usleep" -N 3 -u nanosleep 1000
awk '{ exit !($4 >= 1000) }' "$tmp/out" ||
	fail "nanosleep 1000 took less: $(cat "$tmp/out")"

# lat_ctx: the header, then one line per ring size.
run "$bin/lat_ctx" -N 3 -s 4 2 4
if [ "$rc" -ne 0 ]; then
	fail "lat_ctx exited $rc: $(head -n 2 "$tmp/err")"
else
	head -n 1 "$tmp/out" | grep -Eq '^"size=4k ovr=[0-9]+\.[0-9]{2} \((cross|same)\)$' ||
		fail "lat_ctx header: $(head -n 1 "$tmp/out")"
	[ "$(sed -n '2,$p' "$tmp/out" | grep -Ec '^[24] -?[0-9]+\.[0-9]{2}$')" \
	    -eq 2 ] || fail "lat_ctx lines: $(cat "$tmp/out")"
fi
if have_jq; then
	run "$bin/lat_ctx" --json -N 3 2 3
	[ "$(jq -s 'map(select(.tool == "lat_ctx" and .measured.overhead_us > 0))
	    | length' "$tmp/out")" = 2 ] || fail "lat_ctx --json: $(cat "$tmp/out")"
	expect_json '.tool == "lat_proc" and .case == "fork" and .value > 0' \
	    "$bin/lat_proc" --json -N 3 fork
fi

expect_exit 2 "unexpected argument 'x'" "$bin/lat_sem" x
expect_exit 2 "unexpected argument 'x'" "$bin/lat_fcntl" x
expect_exit 2 'missing the mode' "$bin/lat_proc"
expect_exit 2 "unknown mode 'spawn'" "$bin/lat_proc" spawn
expect_exit 2 'missing the number of processes' "$bin/lat_ctx"
expect_exit 2 'nprocs: 1 is out of range' "$bin/lat_ctx" 1
expect_exit 2 "-s: 'big' is not a number" "$bin/lat_ctx" -s big 2
expect_exit 2 "unknown mode 'bogus'" "$bin/lat_sig" bogus
expect_exit 2 'catch takes no file' "$bin/lat_sig" catch /dev/null
expect_exit 1 'cannot open /nonexistent' "$bin/lat_sig" prot /nonexistent
expect_exit 2 "unknown kind 'pipe'" "$bin/lat_select" pipe
expect_exit 2 '-n: 0 is out of range' "$bin/lat_select" -n 0 file
expect_exit 2 '-n: 99999 is out of range' "$bin/lat_select" -n 99999 tcp
expect_exit 2 'missing the time to sleep' "$bin/lat_usleep"
expect_exit 2 "-u: unknown method 'spin'" "$bin/lat_usleep" -u spin 10
expect_exit 2 'usecs: 99999999999 is out of range' "$bin/lat_usleep" 99999999999

# A partner that dies is an error, not a hang or a figure for nothing.
for t in lat_sem "lat_sem --posix" lat_fcntl; do
	# shellcheck disable=SC2086
	ENOUGH=200000 "$bin/"$t -N 100 >"$tmp/out" 2>"$tmp/err" &
	kill_helper $! "${t%% *}" partner
	grep -Eq "^${t%% *}: worker 0: benchmark failed: $dead_partner\$" \
	    "$tmp/err" || fail "$t: message '$(cat "$tmp/err")'"
done

# lat_sem's System V set goes with the tool: on SIGTERM and SIGINT mid-run
# as after the runs and the failure above.
ENOUGH=200000 "$bin/lat_sem" -N 100 >"$tmp/out" 2>"$tmp/err" &
pid=$!
if child_with_child "$pid" lat_sem >/dev/null; then
	kill -s TERM "$pid"
	wait_gone "$pid" "$hang_s"
	[ "$rc" -eq 143 ] ||
		fail "lat_sem: SIGTERM: exit $rc: $(head -n 2 "$tmp/err")"
else
	fail "lat_sem: no worker and partner within $hang_s s"
	kill -s KILL "$pid"
	wait "$pid"
fi
if interrupt lat_sem 1 env ENOUGH=200000 "$bin/lat_sem" -N 100; then
	[ "$rc" -eq 130 ] ||
		fail "lat_sem: SIGINT: exit $rc: $(head -n 2 "$tmp/err")"
fi
left=$(ipc_left "$tmp/ipc_before")
[ -z "$left" ] || fail "lat_sem left System V objects: $left"

# SIGINT mid-run ends the run and removes the private directory.
if interrupt lat_fcntl 1 env ENOUGH=200000 "$bin/lat_fcntl" -N 100; then
	[ "$rc" -eq 130 ] ||
		fail "lat_fcntl: SIGINT: exit $rc: $(head -n 2 "$tmp/err")"
fi
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children
finish
