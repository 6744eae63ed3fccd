#!/bin/sh
# file-limits.sh: a write cut short names its cause: "File too large" past
# a file-size limit (ulimit -f; SIGXFSZ does not kill the tool) and "No
# space left on device" on a full file system, not a stale errno.
. "$top_srcdir/tests/lib.sh"

mkdir "$tmp/d" "$tmp/t"
dd if=/dev/zero of="$tmp/f" bs=1024 count=1024 2>/dev/null ||
	fail "cannot make a 1 MB file"

# ulimit -f counts 512-byte blocks in sh: 4 is 2 KB, below a 10 KB file.
# shellcheck disable=SC3045
if (ulimit -f 4) 2>/dev/null; then
	run sh -c 'ulimit -f 4 && exec "$@"' sh "$bin/lat_fs" -s 10k -n 5 "$tmp/d"
	[ "$rc" -eq 1 ] || fail "lat_fs past ulimit -f: exit $rc: $(cat "$tmp/err")"
	grep -q "File too large\$" "$tmp/err" ||
		fail "lat_fs past ulimit -f: '$(cat "$tmp/err")'"
	[ -z "$(ls -A "$tmp/d")" ] || fail "lat_fs left $(ls -A "$tmp/d")"
	# -C copies the 1 MB file into the private directory: 100 KB allowed.
	run sh -c 'ulimit -f 200 && exec "$@"' sh env TMPDIR="$tmp/t" \
	    "$bin/bw_file_rd" -C 1m io_only "$tmp/f"
	[ "$rc" -eq 1 ] ||
		fail "bw_file_rd -C past ulimit -f: exit $rc: $(cat "$tmp/err")"
	grep -q "File too large\$" "$tmp/err" ||
		fail "bw_file_rd -C past ulimit -f: '$(cat "$tmp/err")'"
	[ -z "$(ls -A "$tmp/t")" ] || fail "bw_file_rd left $(ls -A "$tmp/t")"
else
	echo "$me: this sh has no ulimit -f: the size limit is not tested" >&2
fi

# A full file system: a 64 KB tmpfs in a mount namespace of its own (root).
if unshare -m true 2>/dev/null; then
	# shellcheck disable=SC2016 # expanded by the inner sh
	run unshare -m sh -c 'mount -t tmpfs -o size=64k none "$1" &&
	    shift && exec "$@"' sh "$tmp/d" "$bin/lat_fs" -s 10k -n 50 "$tmp/d"
	if grep -q "^mount:" "$tmp/err"; then
		echo "$me: cannot mount a tmpfs here: a full disk is not tested" >&2
	else
		[ "$rc" -eq 1 ] ||
			fail "lat_fs on a full tmpfs: exit $rc: $(cat "$tmp/err")"
		grep -q "No space left on device\$" "$tmp/err" ||
			fail "lat_fs on a full tmpfs: '$(cat "$tmp/err")'"
	fi
else
	echo "$me: unshare -m is not allowed here: a full disk is not tested" >&2
fi
no_children
finish
