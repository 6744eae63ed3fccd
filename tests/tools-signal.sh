#!/bin/sh
# tools-signal.sh: SIGINT and SIGTERM to a running tool reap every worker.
. "$top_srcdir/tests/lib.sh"

# A non-interactive shell starts background jobs with SIGINT ignored, and
# the tools rightly leave an ignored signal ignored: env(1) restores the
# default disposition (coreutils 8.31 and later).
if env --default-signal=INT true 2>/dev/null; then
	sigs="INT TERM"
	dfl="env --default-signal=INT"
else
	echo "$me: env cannot reset SIGINT here: SIGINT not tested" >&2
	sigs=TERM
	dfl=
fi

for sig in $sigs; do
	# Long enough to be caught mid-run: 2 workers, 1000 intervals of 0.1 s.
	# $dfl is a command prefix, split on purpose.
	# shellcheck disable=SC2086
	ENOUGH=100000 $dfl "$bin/lat_syscall" -P 2 -N 1000 null \
	    >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	running "$pid" lat_syscall
	sleep 1
	kill -s "$sig" "$pid"
	# Give it $hang_s s to stop (at once on a quiet machine; a loaded one may
	# take seconds to reap): a tool that ignores it is killed, exit 137.
	wait_gone "$pid" "$hang_s"
	case $sig in
	INT) want=130 ;;
	TERM) want=143 ;;
	esac
	[ "$rc" -eq "$want" ] ||
		fail "SIG$sig: exit status $rc, expected $want: $(cat "$tmp/err")"
	grep -q "^lat_syscall: interrupted by SIG$sig\$" "$tmp/err" ||
		fail "SIG$sig: message '$(cat "$tmp/err")'"
	[ ! -s "$tmp/out" ] || fail "SIG$sig: a result was printed"
	no_children
done
finish
