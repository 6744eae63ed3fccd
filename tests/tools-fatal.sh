#!/bin/sh
# tools-fatal.sh: every catchable fatal signal (not only INT and TERM)
# removes lat_fs's private directory and lat_sem's semaphore set, reaps
# the workers, and the tool dies of that signal.
. "$top_srcdir/tests/lib.sh"

# A background job of a non-interactive shell starts with SIGQUIT (and
# SIGINT) ignored, and the tools leave an ignored signal ignored: env(1)
# restores the default (coreutils 8.31 and later).
sigs="USR1 USR2 ALRM XCPU VTALRM PROF"
dfl=
if env --default-signal=QUIT true 2>/dev/null; then
	sigs="QUIT $sigs"
	dfl="env --default-signal=QUIT"
else
	echo "$me: env cannot reset SIGQUIT here: SIGQUIT not tested" >&2
fi
# SIGQUIT and SIGXCPU dump core by default: not here (where ulimit can).
# shellcheck disable=SC3045
ulimit -c 0 2>/dev/null || :

mkdir "$tmp/t"
ipc_ids >"$tmp/ipc-before"
for tool in lat_fs lat_sem; do
	for sig in $sigs; do
		# Long enough to be caught mid-run: intervals of 0.1 s.
		# $dfl is a command prefix, split on purpose.
		# shellcheck disable=SC2086
		TMPDIR=$tmp/t ENOUGH=100000 $dfl "$bin/$tool" -N 1000 \
		    >"$tmp/out" 2>"$tmp/err" &
		pid=$!
		running "$pid" "$tool"
		sleep 1
		kill -s "$sig" "$pid"
		wait_gone "$pid" "$hang_s"
		# kill -l turns an exit status into the signal's name.
		[ "$rc" -gt 128 ] && [ "$(kill -l "$rc")" = "$sig" ] ||
			fail "$tool SIG$sig: exit status $rc: $(cat "$tmp/err")"
		# Before the run (the tool's own setup) it dies without a word.
		[ ! -s "$tmp/err" ] ||
			grep -q "^$tool: interrupted by SIG$sig\$" "$tmp/err" ||
			fail "$tool SIG$sig: message '$(cat "$tmp/err")'"
		[ ! -s "$tmp/out" ] || fail "$tool SIG$sig: a result was printed"
		left=$(ls -A "$tmp/t")
		[ -z "$left" ] || fail "$tool SIG$sig: left $left in TMPDIR"
		rm -rf "${tmp:?}/t/"*
		no_children
	done
done
left=$(ipc_left "$tmp/ipc-before")
[ -z "$left" ] || fail "lat_sem left System V objects: $left"
finish
