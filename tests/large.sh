#!/bin/sh
# large.sh: sizes past 2^32 bytes work where memory allows (lmbench has
# overflowed int sizes in bw_mem and lat_pagefault): the result line and
# the JSON record carry the exact size, and the figure is a number.
. "$top_srcdir/tests/lib.sh"

# 4200 MiB: past 2^32 bytes.
size=4200m
bytes=4404019200
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
if [ "${BM_SANITIZERS:-no}" = yes ]; then
	# Several times slower under ASan, and the werror build runs it.
	echo "$me: not run in the sanitizer build" >&2
	exit 77
fi
if [ "${avail:-0}" -lt 12000 ]; then
	echo "$me: ${avail:-?} MB available, 12000 needed: not run" >&2
	exit 77
fi

if have_jq; then
	expect_json ".tool == \"bw_mem\" and .params.size == $bytes and
	    .value > 0" "$bin/bw_mem" -N 1 -W 0 --processes=1 --json "$size" rd
fi

# A sparse file of the same size: reading its holes costs no disk.
file=$tmp/sparse
truncate -s "$size" "$file" || fail "cannot make a sparse file"
expect_line '^4404\.02 [0-9]+\.[0-9]{2}$' "$bin/bw_file_rd" -N 1 -W 0 --processes=1 \
    "$size" io_only "$file"
no_children
finish
