#!/bin/sh
# repeat.sh: 100 back-to-back runs of the tools leave nothing behind: no
# process, no file in TMPDIR, no shared memory object, no descriptor, and
# each run gives its figure.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

# The tools make no named POSIX object (lat_sem --posix keeps its
# semaphores in shared anonymous memory): what one could leave in /dev/shm
# is named for benchmp.  The list of the whole /dev/shm is not compared:
# on a shared machine other programs make and remove objects meanwhile
# (Open MPI's vader_segment failed this test).  lat_sem's System V set is
# checked by ipc_left, which waits for the sets of other tests running
# meanwhile.
# ours_in_shm: the entries of /dev/shm named for benchmp.
ours_in_shm() {
	for f in /dev/shm/*[Bb][Ee][Nn][Cc][Hh][Mm][Pp]*; do
		[ -e "$f" ] && echo "${f#/dev/shm/}"
	done
}

shm_before=$(ours_in_shm)
ipc_ids >"$tmp/ipc_before"
# The shell's descriptors, listed into a file: inside $(...) the shell
# holds the substitution's pipe, and on a loaded machine the listing can
# catch its other end not closed yet (one more descriptor at one end).
ls /proc/$$/fd >"$tmp/fds.before" || fail "cannot list /proc/$$/fd"
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
[ "$(ours_in_shm)" = "$shm_before" ] ||
	fail "/dev/shm: left behind: $(ours_in_shm)"
left=$(ipc_left "$tmp/ipc_before")
[ -z "$left" ] || fail "System V IPC objects left behind: $left"
ls /proc/$$/fd >"$tmp/fds.after" || fail "cannot list /proc/$$/fd"
cmp -s "$tmp/fds.before" "$tmp/fds.after" ||
	fail "the shell's descriptors changed: $(tr '\n' ' ' <"$tmp/fds.before")" \
	    "then $(tr '\n' ' ' <"$tmp/fds.after")"
echo "$me: $runs runs" >&2
finish
