#!/bin/sh
# repeat.sh: 100 back-to-back runs of the tools leave nothing behind: no
# process, no file in TMPDIR, no shared memory object, no descriptor, and
# each run gives its figure.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

# The tools make no named POSIX object and no System V IPC object (their
# semaphores live in shared anonymous memory): what one could leave in
# /dev/shm is named for benchmp.  The lists of the whole machine are not
# compared: on a shared machine other programs make and remove objects
# meanwhile (Open MPI's vader_segment in /dev/shm failed this test).
# ours_in_shm: the entries of /dev/shm named for benchmp.
ours_in_shm() {
	for f in /dev/shm/*[Bb][Ee][Nn][Cc][Hh][Mm][Pp]*; do
		[ -e "$f" ] && echo "${f#/dev/shm/}"
	done
}

shm_before=$(ours_in_shm)
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
[ "$(ours_in_shm)" = "$shm_before" ] ||
	fail "/dev/shm: left behind: $(ours_in_shm)"
[ "$(ls /proc/$$/fd | wc -l)" -eq "$fds_before" ] ||
	fail "the shell's descriptors changed"
echo "$me: $runs runs" >&2
finish
