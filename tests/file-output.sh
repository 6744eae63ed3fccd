#!/bin/sh
# file-output.sh: bw_file_rd, bw_mmap_rd, lat_mmap, lat_pagefault and lat_fs
# print their lines (lmbench's definitions by default, the old ones under
# their own labels), never change the file they read, refuse FIFOs and
# devices without blocking, and clean up.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

# The file to read: 2 MB, read-only, checksummed before and after.
data=$tmp/data
dd if=/dev/urandom of="$data" bs=65536 count=32 2>/dev/null
chmod 0444 "$data"
sum=$(cksum <"$data")

bw='^[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}$'
expect_line "$bw" "$bin/bw_file_rd" -N 3 1m io_only "$data"
expect_line "$bw" "$bin/bw_file_rd" -N 3 -C -P 2 512k open2close "$data"
expect_line "$bw" "$bin/bw_mmap_rd" -N 3 1m mmap_only "$data"
expect_line "$bw" "$bin/bw_mmap_rd" -N 3 -C 2m open2close "$data"
# lat_mmap writes by default (lmbench's definition, each byte's own value
# put back): a writable copy, whose contents must not change either.
wdata=$tmp/wdata
cp "$data" "$wdata"
chmod 0644 "$wdata"
expect_line '^1\.048576 [0-9]+\.[0-9]{2}$' "$bin/lat_mmap" -N 3 1m "$wdata"
expect_line '^2\.097152 [0-9]+\.[0-9]{2}$' "$bin/lat_mmap" -N 3 -r 2m "$wdata"
expect_line '^0\.524288 [0-9]+\.[0-9]{2}$' "$bin/lat_mmap" -N 3 -C 512k "$data"
expect_line '^1\.048576 [0-9]+\.[0-9]{2} all-pages$' "$bin/lat_mmap" -N 3 \
    --all-pages 1m "$data"
expect_line '^0\.524288 [0-9]+\.[0-9]{2} all-pages-random$' "$bin/lat_mmap" \
    -N 3 --all-pages -r -C 512k "$data"
expect_line "^Pagefaults on $data: [0-9]+\.[0-9]{4} microseconds\$" \
    "$bin/lat_pagefault" -N 3 "$data"
expect_line "^Pagefaults on $data: [0-9]+\.[0-9]{4} microseconds\$" \
    "$bin/lat_pagefault" -N 3 -C "$data"
expect_line "^Pagefaults on $data \\(per fault\\): [0-9]+\.[0-9]{4} microseconds\$" \
    "$bin/lat_pagefault" -N 3 --per-fault "$data"
[ "$(cksum <"$data")" = "$sum" ] || fail "a tool changed the file it read"
[ "$(cksum <"$wdata")" = "$sum" ] || fail "lat_mmap changed the file it wrote"
# Without -C or --all-pages, lat_mmap needs to write (root always may).
if [ "$(id -u)" -ne 0 ]; then
	expect_exit 1 "cannot open $data for writing: Permission denied" \
	    "$bin/lat_mmap" -N 3 1m "$data"
fi

# lat_fs: one line per size, files in a private directory of the one named.
run "$bin/lat_fs" -N 3 -n 50
[ "$rc" -eq 0 ] || fail "lat_fs exited $rc: $(cat "$tmp/err")"
[ "$(grep -Ec '^(0|1|4|10)k	50	[0-9]+	[0-9]+$' "$tmp/out")" -eq 4 ] ||
	fail "lat_fs printed: $(cat "$tmp/out")"
mkdir "$tmp/fsdir"
expect_line '^4k	20	[0-9]+	[0-9]+$' "$bin/lat_fs" -N 3 -n 20 -s 4k -P 2 \
    "$tmp/fsdir"
[ -z "$(ls -A "$tmp/fsdir")" ] || fail "lat_fs left: $(ls -A "$tmp/fsdir")"
if have_jq; then
	run "$bin/lat_fs" --json -N 3 -n 20 -s 1k
	[ "$(jq -s 'map(select(.unit == "files/s" and .value > 0)) | length' \
	    "$tmp/out")" = 2 ] || fail "lat_fs --json: $(cat "$tmp/out")"
	# Creations and deletions on ext4 without a journal are unsteady
	# (each creation skips the inodes deleted in the last minute), and
	# only there: the device of the directory, read as the tool reads it.
	dev=$(stat -c '%Hd:%Ld' "$tmp/fsdir")
	name=$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/$dev/uevent" 2>/dev/null)
	want=false
	if [ -n "$name" ] && [ -e "/proc/fs/ext4/$name" ] &&
	    [ ! -e "/proc/fs/jbd2/$name-8" ]; then
		want=true
	fi
	run "$bin/lat_fs" --json -N 3 -n 20 -s 1k "$tmp/fsdir"
	jq -e -s --argjson want "$want" '
	    def marked: has("unsteady") == $want and
	        (if $want then .noisy and (.unsteady | test("journal"))
	         else true end);
	    (map(select(.case == "create")) | length == 1 and (.[0] | marked))
	    and (map(select(.case == "delete")) | length == 1 and
	     (.[0] | marked))' "$tmp/out" >/dev/null ||
		fail "lat_fs unsteady ($name, want $want): $(cat "$tmp/out")"
	expect_json '.tool == "lat_pagefault" and .case == "per-fault" and
	    .measured.faults_per_pass >= 1 and .params.pages == 512 and
	    .calibration.enough_us == 2000' \
	    "$bin/lat_pagefault" --json -N 3 --per-fault "$data"
	# lmbench's definitions take intervals of at least 20 ms, whatever
	# ENOUGH (2000 here) says; the old ones follow ENOUGH.
	expect_json '.tool == "lat_pagefault" and .case == "per-page" and
	    .params.pages == 512 and .measured.map_unmap_us > 0 and .value > 0
	    and .enough_us == 20000 and .calibration.enough_us == 2000' \
	    "$bin/lat_pagefault" --json -N 3 "$data"
	# Served, the map and unmap and the passes are one group, both
	# visited in every sweep (unless the loaded machine made the map as
	# dear as a pass: no figure, said).
	run "$bin/benchmp-sched" --budget 1 --stats "$tmp/pf.json" -- \
	    "$bin/lat_pagefault" --json "$data"
	if [ "$rc" -ne 0 ] && grep -q 'took as long as a pass' "$tmp/err"; then
		echo "$me: lat_pagefault served: $(grep 'as long as' "$tmp/err")" >&2
	elif [ "$rc" -ne 0 ] || ! jq -e '.case == "per-page" and
	    .measured.map_unmap_us > 0 and .value > 0' "$tmp/out" \
	    >/dev/null || ! jq -e '(.figures | length) == 2 and
	    ([.figures[].visits] | max - min) <= 1' "$tmp/pf.json" \
	    >/dev/null; then
		fail "lat_pagefault served, not one group: exit $rc: $(cat \
		    "$tmp/err" "$tmp/out" "$tmp/pf.json")"
	fi
	expect_json '.case == "write-16k" and .params.stride == 16384 and
	    .params.span == 104857 and .enough_us == 20000 and
	    .calibration.enough_us == 2000' \
	    "$bin/lat_mmap" --json -N 3 1m "$wdata"
	expect_json '.case == "write-160k" and .params.stride == 163840 and
	    .params.span == 1048576' "$bin/lat_mmap" --json -N 3 -r 1m "$wdata"
	expect_json '.case == "all-pages" and .calibration.enough_us == 2000' \
	    "$bin/lat_mmap" --json -N 3 --all-pages 1m "$data"
fi

# Bad input and missing or short files.
expect_exit 1 "cannot open $tmp/missing" "$bin/bw_file_rd" 1m io_only \
    "$tmp/missing"
expect_exit 1 'holds 2097152 bytes, fewer than the 4194304 asked for' \
    "$bin/bw_mmap_rd" 4m mmap_only "$data"
expect_exit 1 'holds 2097152 bytes, fewer than the 3145728 asked for' \
    "$bin/bw_file_rd" 3m io_only "$data"
expect_exit 1 'holds 2097152 bytes, fewer than the 4194304 asked for' \
    "$bin/lat_mmap" 4m "$data"
expect_exit 1 "is not a regular file" "$bin/lat_pagefault" "$tmp"
: >"$tmp/empty"
expect_exit 1 "holds 0 bytes, less than a page" "$bin/lat_pagefault" \
    "$tmp/empty"

# A FIFO or a device as the file: refused at once, never a blocking open()
# (a FIFO without a writer blocked open() forever).  timeout(1) turns a
# hang into exit 124.
mkfifo "$tmp/fifo"
for cmd in "bw_file_rd 1m io_only" "bw_file_rd -C 1m open2close" \
    "bw_mmap_rd 1m mmap_only" "bw_mmap_rd 1m open2close" "lat_mmap 1m" \
    "lat_mmap -C 1m" "lat_mmap --all-pages 1m" "lat_pagefault" \
    "lat_pagefault --per-fault" "lat_sig prot"; do
	# shellcheck disable=SC2086
	set -- $cmd
	name=$1
	shift
	expect_exit 1 "^$name: $tmp/fifo is not a regular file\$" \
	    timeout 20 "$bin/$name" -N 3 "$@" "$tmp/fifo"
done
for m in open fstat; do
	expect_exit 1 "^lat_syscall: $tmp/fifo is not a regular file" \
	    timeout 20 "$bin/lat_syscall" -N 3 "$m" "$tmp/fifo"
done
expect_exit 1 '^lat_sig: /dev/zero is not a regular file$' \
    timeout 20 "$bin/lat_sig" -N 3 prot /dev/zero
expect_exit 1 '^bw_file_rd: /dev/null is not a regular file$' \
    timeout 20 "$bin/bw_file_rd" -N 3 1k io_only /dev/null
expect_exit 1 '^lat_mmap: /dev/zero is not a regular file$' \
    timeout 20 "$bin/lat_mmap" -N 3 1k /dev/zero
# stat never opens the file, and /dev/null stays lat_syscall's default.
expect_line '^Simple stat: ' timeout 20 "$bin/lat_syscall" -N 3 stat "$tmp/fifo"
expect_line '^Simple open/close: ' "$bin/lat_syscall" -N 3 open
expect_exit 2 "unknown mode 'mmap_only'" "$bin/bw_file_rd" 1m mmap_only "$data"
expect_exit 2 "unknown mode 'io_only'" "$bin/bw_mmap_rd" 1m io_only "$data"
expect_exit 2 'size: 0 is out of range' "$bin/lat_mmap" 0 "$data"
expect_exit 2 "size: '1q' is not a size" "$bin/bw_file_rd" 1q io_only "$data"
expect_exit 2 'missing the size, the mode or the file' "$bin/bw_mmap_rd" 1m
expect_exit 2 'missing the file' "$bin/lat_pagefault"
expect_exit 2 '-n: 0 is out of range' "$bin/lat_fs" -n 0
expect_exit 2 "-s: 'x' is not a size" "$bin/lat_fs" -s x
expect_exit 1 "cannot make a private directory in $tmp/nodir" "$bin/lat_fs" \
    -n 10 "$tmp/nodir"

# Served, a first pass long beside the visit makes the engine kill the
# worker set in its warmup and start one with fewer intervals, whose
# workers have the killed ones' numbers: their copies (-C) and lat_fs's
# directories are named by the process too (the new ones failed, "File
# exists").  Short intervals and -N 200 make that happen here; where it
# does not, the runs only measure.
dd if=/dev/urandom of="$tmp/data8" bs=65536 count=128 2>/dev/null
expect_line "$bw" env ENOUGH=100 "$bin/bw_file_rd" -C -N 200 --served=1 \
    8m io_only "$tmp/data8"
expect_line '^0k	20	[0-9]+	[0-9]+$' env ENOUGH=100 "$bin/lat_fs" -N 200 \
    --served=0.5 -n 20 -s 0 "$tmp/fsdir"
[ -z "$(ls -A "$tmp/fsdir")" ] || fail "lat_fs left: $(ls -A "$tmp/fsdir")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"

# SIGINT mid-run ends the run and removes the clones and the private
# directory.
if interrupt bw_file_rd 1 env ENOUGH=200000 "$bin/bw_file_rd" -N 100 -C \
    -P 2 1m io_only "$data"; then
	[ "$rc" -eq 130 ] ||
		fail "bw_file_rd: SIGINT: exit $rc: $(head -n 2 "$tmp/err")"
fi
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"

# A reader that goes away (SIGPIPE on the next line) removes it too.
"$bin/lat_fs" -n 20 2>/dev/null | head -n 1 >/dev/null
[ -z "$(ls -A "$TMPDIR")" ] ||
	fail "left in TMPDIR after SIGPIPE: $(ls -A "$TMPDIR")"
no_children
finish
