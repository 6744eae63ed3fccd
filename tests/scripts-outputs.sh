#!/bin/sh
# scripts-outputs.sh: a script writes through an output that is a device
# or a FIFO and never renames over it (run as root, benchmp-report
# --output /dev/full turned the device into a regular file), refuses a
# directory, and fails with exit 1 when its output cannot be written:
# each script's standard output on /dev/full, a report on a full device.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
s=$top_srcdir/scripts
data=$top_srcdir/tests/data
gp=0
! command -v gnuplot >/dev/null 2>&1 || gp=1

# The devices: nodes of /dev/null and /dev/full made in $tmp, so that a
# script that renames over them replaces nothing of the system's; else,
# not as root (who could write in /dev), the system's own.
null=''
full=''
if mknod "$tmp/null" c 1 3 2>/dev/null && mknod "$tmp/full" c 1 7 2>/dev/null &&
    echo x >"$tmp/null" && ! echo x 2>/dev/null >"$tmp/full"; then
	null=$tmp/null full=$tmp/full
elif [ "$(id -u)" -ne 0 ]; then
	null=/dev/null full=/dev/full
else
	echo "$me: root, and no device nodes in $TMPDIR: the device cases skipped" >&2
fi

# still_device FILE WHAT: FILE is still a character device.
still_device() {
	[ -c "$1" ] || fail "$2: $1 is no longer a device: $(ls -l "$1")"
}

# benchmp-report into a device: written through.
if [ -n "$null" ]; then
	run "$s/benchmp-report" --output "$null" "$data/aa-1.jsonl"
	[ "$rc" -eq 0 ] || fail "report > null device: exit $rc: $(head -n 2 "$tmp/err")"
	still_device "$null" "report > null device"
	expect_exit 1 "cannot write $full: .*No space left on device" \
	    "$s/benchmp-report" --output "$full" "$data/aa-1.jsonl"
	still_device "$full" "report > full device"
	if [ "$gp" = 1 ]; then
		run "$s/benchmp-plot" summary --output "$tmp/nul" "$data/aa-1.jsonl"
		[ -f "$tmp/nul.png" ] && [ "$rc" -eq 0 ] || exit 99
		rm -f "$tmp/nul.svg"
		if mknod "$tmp/nul.svg" c 1 3 2>/dev/null || [ "$null" = /dev/null ]; then
			[ -c "$tmp/nul.svg" ] || ln -s /dev/null "$tmp/nul.svg"
			run "$s/benchmp-plot" summary --output "$tmp/nul" "$data/aa-1.jsonl"
			[ "$rc" -eq 0 ] || fail "plot with a device at BASE.svg: exit $rc: $(head -n 2 "$tmp/err")"
			still_device "$tmp/nul.svg" "plot with a device at BASE.svg"
		fi
	fi
fi

# A FIFO: the report goes through it to its reader.
if command -v timeout >/dev/null 2>&1 && mkfifo "$tmp/fifo"; then
	timeout 600 cat "$tmp/fifo" >"$tmp/got" &
	reader=$!
	run "$s/benchmp-report" --output "$tmp/fifo" "$data/aa-1.jsonl"
	[ "$rc" -eq 0 ] || fail "report > FIFO: exit $rc: $(head -n 2 "$tmp/err")"
	if [ -p "$tmp/fifo" ]; then
		wait "$reader"
		grep -q '</html>' "$tmp/got" || fail "report > FIFO: the reader got $(wc -c <"$tmp/got") bytes"
	else
		kill "$reader" 2>/dev/null
		fail "report > FIFO: the FIFO was replaced: $(ls -l "$tmp/fifo")"
	fi
fi

# A directory: refused, nothing moved into it.
mkdir "$tmp/dir" || exit 99
expect_exit 1 "cannot write $tmp/dir: not a regular file" \
    "$s/benchmp-report" --output "$tmp/dir" "$data/aa-1.jsonl"
[ -z "$(ls -A "$tmp/dir")" ] || fail "report --output DIR wrote in it: $(ls -A "$tmp/dir")"
if [ "$gp" = 1 ]; then
	mkdir "$tmp/d.svg" || exit 99
	expect_exit 1 "cannot write $tmp/d.svg: not a regular file" \
	    "$s/benchmp-plot" summary --output "$tmp/d" "$data/aa-1.jsonl"
	[ -z "$(ls -A "$tmp/d.svg")" ] && [ ! -e "$tmp/d.png" ] ||
		fail "plot with a directory at BASE.svg wrote: $(ls -A "$tmp/d.svg") $(ls "$tmp"/d.*)"
fi

# benchmp-scaling's default plot beside its records: a directory at
# BASE.svg is refused before the tool runs, not after.
if [ "$gp" = 1 ]; then
	mkdir -p "$tmp/sd/x.svg" || exit 99
	fake_scaler "$tmp/fake0" || exit 99
	expect_exit 1 "cannot write $tmp/sd/x.svg: not a regular file" \
	    "$s/benchmp-scaling" --max 2 --output "$tmp/sd/x.jsonl" "$tmp/fake0"
	! grep -q -- '-P 1' "$tmp/err" || fail "scaling ran before refusing its plot"
fi

# Standard output on /dev/full: exit 1 (benchmp-compare: 4, its status
# for a failure), with the cause said.
cd "$tmp" || exit 99
fake_scaler "$tmp/fake" || exit 99
lm=$data/lmbench-results.txt
{
	echo "1 summary $s/benchmp-summary $data/aa-1.jsonl"
	echo "4 compare $s/benchmp-compare $data/aa-1.jsonl $data/aa-2.jsonl"
	echo "1 import $s/benchmp-import-lmbench $lm"
	echo "1 scaling $s/benchmp-scaling --max 2 --no-plot --output $tmp/sc.jsonl $tmp/fake"
	if [ "$gp" = 1 ]; then
		echo "1 plot-summary $s/benchmp-plot summary --output $tmp/o1 $data/aa-1.jsonl"
		echo "1 plot-sections $s/benchmp-plot sections --output $tmp/o2 $data/suite-vm.jsonl"
		echo "1 plot-scaling $s/benchmp-plot scaling --output $tmp/o3 $data/scaling.jsonl"
		echo "1 plot-mem $s/benchmp-plot mem --output $tmp/o4 $data/lat_mem_rd.jsonl"
		echo "1 scaling-plot $s/benchmp-scaling --max 2 --output $tmp/sc2.jsonl $tmp/fake"
	fi
} >"$tmp/cmds"
while read -r want name cmd; do
	# shellcheck disable=SC2086 # (the command's words: no blanks in them)
	$cmd >/dev/full 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "$name > /dev/full: exit $rc, not $want: $(tail -n 2 "$tmp/err")"
	grep -Eq 'writing to standard output failed|No space left on device' "$tmp/err" ||
		fail "$name > /dev/full: no message: $(tail -n 2 "$tmp/err")"
done <"$tmp/cmds"
finish
