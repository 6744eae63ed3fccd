#!/bin/sh
# repeat.sh: 100 back-to-back runs of the tools leave nothing behind: no
# process, no file in TMPDIR, no shared memory, no System V IPC object,
# and each run gives its figure.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

shm_before=$(ls -A /dev/shm 2>/dev/null)
ipc_ids >"$tmp/ipc_before"
# shellcheck disable=SC2012 # (a count of descriptors: ls names them, one a line)
fds_before=$(ls /proc/$$/fd | wc -l)
runs=0
while [ "$runs" -lt 100 ]; do
	for cmd in "lat_syscall null" "lat_sem" "lat_fifo" "lat_unix" \
	    "lat_tcp" "lat_unix_connect" "bw_pipe -M 64k" "lat_fs -n 20" \
	    "lat_proc fork" "bw_mem 64k rd"; do
		# shellcheck disable=SC2086
		set -- $cmd
		name=$1
		shift
		run "$bin/$name" -N 3 "$@"
		runs=$((runs + 1))
		if [ "$rc" -ne 0 ]; then
			fail "run $runs, $cmd: exit $rc: $(head -n 2 "$tmp/err")"
		elif [ ! -s "$tmp/out" ]; then
			fail "run $runs, $cmd: no figure"
		fi
	done
done
no_children
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
[ "$(ls -A /dev/shm 2>/dev/null)" = "$shm_before" ] ||
	fail "/dev/shm changed: $(ls -A /dev/shm)"
left=$(ipc_left "$tmp/ipc_before")
[ -z "$left" ] || fail "System V IPC objects left behind: $left"
# shellcheck disable=SC2012 # (a count of descriptors: ls names them, one a line)
[ "$(ls /proc/$$/fd | wc -l)" -eq "$fds_before" ] ||
	fail "the shell's descriptors changed"
echo "$me: $runs runs" >&2
finish
