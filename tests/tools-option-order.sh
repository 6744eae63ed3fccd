#!/bin/sh
# tools-option-order.sh: every tool takes its options before, between or
# after its operands, as GNU tools do, and "--" ends the options.
. "$top_srcdir/tests/lib.sh"

# The GNU order is getopt_long's unless POSIXLY_CORRECT asks for POSIX's.
unset POSIXLY_CORRECT

tools="bw_file_rd bw_mem bw_mmap_rd bw_pipe bw_tcp bw_unix cache enough \
lat_connect lat_ctx lat_fcntl lat_fifo lat_fs lat_mem_rd lat_mmap lat_ops \
lat_pagefault lat_pipe lat_proc lat_select lat_sem lat_sig lat_syscall \
lat_tcp lat_udp lat_unix lat_unix_connect lat_usleep line loop_o memsize \
mhz par_mem par_ops stream timing_o tlb"

# Every tool is in the list (lat_cmd has its own cases below).
for p in "$bin"/lat_* "$bin"/bw_* "$bin"/par_* cache enough line loop_o \
    memsize mhz stream timing_o tlb; do
	p=${p##*/}
	[ -x "$bin/$p" ] || [ "$p" = lat_cmd ] || continue
	case " $tools lat_cmd " in
	*" $p "*) ;;
	*) fail "$p is not in this test's list of tools" ;;
	esac
done

# An option after an operand is an option: --help there prints the help
# (it said "unexpected argument 'x'", or took x for the mode, before).
for t in $tools; do
	run "$bin/$t" x --help
	if [ "$rc" -ne 0 ]; then
		fail "$t x --help exited $rc: $(head -n 1 "$tmp/err")"
	elif [ "$(head -c 7 "$tmp/out")" != 'usage: ' ]; then
		fail "$t x --help printed '$(head -n 1 "$tmp/out")'"
	fi
done

# After "--" an option's name is an operand, named in the tool's message.
for t in $tools; do
	case $t in
	bw_mem) set -- -h rd ;;
	bw_file_rd) set -- -h io_only /dev/null ;;
	bw_mmap_rd) set -- -h mmap_only /dev/null ;;
	lat_mmap) set -- -h /dev/null ;;
	*) set -- -h ;;
	esac
	run "$bin/$t" -- "$@"
	if [ "$rc" -eq 0 ] || [ -s "$tmp/out" ]; then
		fail "$t -- $*: exit $rc, stdout '$(head -n 1 "$tmp/out")'"
	elif ! head -n 1 "$tmp/err" | grep -q -- "-h"; then
		fail "$t -- $*: '-h' is not the operand: $(head -n 1 "$tmp/err")"
	fi
done

# shape FILE: what identifies each record in FILE: the tool, the case, the
# metric, the unit, the intervals (-N) and the parameters.
shape() {
	jq -c '[.tool, .case, .metric, .unit, .repetitions, .params]' "$1"
}

# moved K WORD...: run $prog with $lead (if any) and the words, the first
# K words moved after the others.  POSIX sh has no arrays: the words move
# with set --.
moved() {
	k=$1
	shift
	while [ "$k" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		k=$((k - 1))
	done
	run "$prog" ${lead:+"$lead"} "$@"
}

# same_shape N PROGRAM OPERAND... OPTION...: PROGRAM's first N arguments
# are operands and the rest options.  With the options before the
# operands, after them and after the first operand, the program succeeds
# and prints the same records, each of one interval (-N 1 among the
# options).
same_shape() {
	n=$1
	prog=$2
	shift 2
	name=${prog##*/}
	lead=
	moved "$n" "$@"
	if [ "$rc" -ne 0 ] || ! shape "$tmp/out" >"$tmp/before"; then
		fail "$name: options first: exit $rc: $(head -n 2 "$tmp/err")"
		return
	fi
	run "$prog" "$@"
	if [ "$rc" -ne 0 ] || ! shape "$tmp/out" >"$tmp/after"; then
		fail "$name $*: exit $rc: $(head -n 2 "$tmp/err")"
	elif ! cmp -s "$tmp/before" "$tmp/after"; then
		fail "$name $*: records $(head -n 1 "$tmp/after"), with" \
		    "the options first $(head -n 1 "$tmp/before")"
	elif ! jq -s -e 'all(.[]; .repetitions == 1)' "$tmp/out" \
	    >/dev/null; then
		fail "$name $*: not -N 1: $(head -n 1 "$tmp/after")"
	fi
	lead=$1
	shift
	moved $((n - 1)) "$@"
	if [ "$rc" -ne 0 ] || ! shape "$tmp/out" | cmp -s "$tmp/before" -; then
		fail "$name: options after the first operand: exit $rc," \
		    "records $(shape "$tmp/out" | head -n 1)" \
		    "$(head -n 1 "$tmp/err")"
	fi
}

if ! have_jq; then
	echo "$me: SKIP the runs: jq is not installed" >&2
	finish
fi
f=$tmp/file
d=$tmp/dir
mkdir "$d"
head -c 65536 /dev/zero >"$f"
same_shape 2 "$bin/lat_syscall" stat /dev/null --json -N 1
same_shape 1 "$bin/lat_syscall" null --json -N 1
same_shape 2 "$bin/bw_mem" 64k rd --json -N 1
same_shape 3 "$bin/bw_file_rd" 64k io_only "$f" --json -N 1
same_shape 3 "$bin/bw_mmap_rd" 64k mmap_only "$f" --json -N 1
same_shape 2 "$bin/lat_mmap" 64k "$f" --json -N 1
same_shape 1 "$bin/lat_pagefault" "$f" --json -N 1
same_shape 1 "$bin/lat_ctx" 2 --json -N 1 -s 0
same_shape 1 "$bin/lat_fs" "$d" --json -N 1 -s 0 -n 10
same_shape 2 "$bin/lat_mem_rd" 1 64 --json -N 1
same_shape 1 "$bin/lat_proc" procedure --json -N 1
same_shape 1 "$bin/lat_select" file --json -N 1 -n 10
same_shape 1 "$bin/lat_sig" install --json -N 1
same_shape 1 "$bin/lat_usleep" 1 --json -N 1 -u nanosleep
same_shape 1 "$bin/memsize" 1 --json -N 1

# The network clients name their server's host: a server of each started
# by -s on a port of this test's, stopped by -S.
port=$((20000 + $$ % 20000))
for t in lat_tcp lat_udp lat_connect bw_tcp; do
	run "$bin/$t" -s -p "$port"
	if [ "$rc" -ne 0 ]; then
		fail "$t -s exited $rc: $(cat "$tmp/err")"
		continue
	fi
	case $t in
	bw_tcp) extra="-M 64k" ;;
	*) extra= ;;
	esac
	# shellcheck disable=SC2086
	same_shape 1 "$bin/$t" localhost --json -N 1 -p "$port" $extra
	run "$bin/$t" -S localhost -p "$port"
	[ "$rc" -eq 0 ] || fail "$t -S exited $rc: $(cat "$tmp/err")"
done

# lat_cmd: what follows the command is the command's, options included
# (as time(1) and env(1) take it); its own options come before it.
if one_line "$bin/lat_cmd" --keep-output --json -N 1 echo -N 1 --json; then
	jq -e '.repetitions == 1 and .params.command == "echo"' "$tmp/out" \
	    >/dev/null || fail "lat_cmd --json -N 1 echo: $(head -c 200 "$tmp/out")"
	grep -qx -- '-N 1 --json' "$tmp/err" ||
		fail "lat_cmd: echo was not given '-N 1 --json':" \
		    "$(head -n 2 "$tmp/err")"
fi
expect_exit 1 'cannot run -N' "$bin/lat_cmd" -- -N 1

# POSIXLY_CORRECT asks for POSIX's order: the options end at the first
# operand, as with every getopt_long program.
expect_exit 2 'too many arguments' env POSIXLY_CORRECT=1 "$bin/lat_syscall" \
    null -N 1

no_children
finish
