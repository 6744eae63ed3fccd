#!/bin/sh
# linkage.sh: the tools and libbenchmp link nothing optional; the zmq sink and MPI load theirs when used.
. "$top_srcdir/tests/lib.sh"

if command -v readelf >/dev/null 2>&1; then
	needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
elif command -v objdump >/dev/null 2>&1; then
	needed() { objdump -p "$1" | awk '$1 == "NEEDED" { print $2 }'; }
else
	echo "$me: neither readelf nor objdump found: skipped" >&2
	exit 77
fi

# What a tool may need: the C library (libdl, libpthread and librt were
# parts of it before glibc 2.34), libm, libbenchmp; the sanitizers' run
# time in a sanitizer build.  Not MPI's libraries, in an MPI build too: a
# rank loads them with its module (lib/engine/mpi.h).
allowed='libc\.so|libm\.so|libbenchmp\.so|ld-linux|libdl\.so|libpthread\.so|librt\.so'
[ "$BM_SANITIZERS" = yes ] && allowed="$allowed|libasan\.so|libubsan\.so"
features=$("$bin/lat_syscall" -V | sed -n 's/^features://p')

# elf FILE: 0 when FILE is an ELF object.
elf() {
	[ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]
}

# check FILE: every NEEDED entry of FILE is allowed.
check() {
	if ! elf "$1"; then
		fail "$1 is not an ELF file"
		return
	fi
	extra=$(needed "$1" | grep -Ev "^($allowed)" | tr '\n' ' ')
	[ -z "$extra" ] || fail "${1#"$top_builddir"/} needs $extra"
	checked=$((checked + 1))
}

checked=0
so=$top_builddir/lib/.libs/libbenchmp.so
if [ -f "$so" ]; then
	check "$so"
	needed "$so" | grep -q '^libc\.so' ||
		fail "readelf finds no libc in libbenchmp.so: the check sees nothing"
fi
# A tool is bin/NAME, or with a shared libbenchmp libtool's wrapper
# script in bin/ and the program in bin/.libs/ (NAME or lt-NAME).  The
# scripts made from scripts/ (bin/benchmp-run, ...) have no source in
# bin/ and are not programs.
ntools=0
for f in "$bin"/*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	case $f in *.la | *.o | *.lo) continue ;; esac
	name=${f##*/}
	[ -f "$top_srcdir/bin/$name.c" ] || continue
	prog=$f
	if ! elf "$f"; then
		prog=$bin/.libs/$name
		[ -f "$prog" ] || prog=$bin/.libs/lt-$name
	fi
	check "$prog"
	ntools=$((ntools + 1))
done
# Every tool of Makefile.am is checked, not a few that happened to exist.
want=$(grep -o 'bin/[a-z_-]*' "$top_srcdir/Makefile.am" |
    sort -u | while read -r t; do
	[ -f "$top_srcdir/$t.c" ] && grep -q '^main\|int[[:space:]]*main' \
	    "$top_srcdir/$t.c" && echo "$t"
done | wc -l)
[ "$ntools" -ge "$want" ] ||
	fail "checked $ntools programs in $bin, expected $want"

# The zmq sink, when built in: it works with the library present ...
pull=$top_builddir/tests/zmq-pull
case " $features " in
*" zmq "*)
	if [ ! -x "$pull" ]; then
		fail "the zmq sink is built but its test helper $pull is not"
	else
		# An ipc:// path must fit in sun_path (108 bytes).
		d=$(mktemp -d "$tmp/zmq.XXXXXX") || exit 99
		[ "${#d}" -le 90 ] || d=$(mktemp -d /tmp/bz.XXXXXX) || exit 99
		"$pull" "ipc://$d/s" 1 "$d/ready" >"$d/got" 2>"$d/err" &
		pid=$!
		n=0
		while [ ! -f "$d/ready" ] && kill -0 "$pid" 2>/dev/null &&
		    [ "$n" -lt 300 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		run "$bin/lat_syscall" -N 1 --output="zmq:ipc://$d/s" null
		[ "$rc" -eq 0 ] ||
			fail "lat_syscall --output=zmq: exited $rc: $(cat "$tmp/err")"
		grep -q '^Simple syscall: ' "$tmp/out" ||
			fail "lat_syscall --output=zmq: printed '$(cat "$tmp/out")'"
		wait_gone "$pid" 30
		[ "$rc" -eq 0 ] || fail "zmq-pull exited $rc: $(cat "$d/err")"
		grep -q '^{"tool":"lat_syscall",' "$d/got" ||
			fail "zmq-pull received '$(head -c 200 "$d/got")'"
		rm -rf "$d"
	fi
	# ... and says which library it could not load, exit 1, when absent;
	# a library that is not libzmq is named as such.
	expect_exit 1 \
	    "zmq sink: cannot load $tmp/none/libzmq\.so\.5: .*No such file" \
	    env BENCHMP_ZMQ_LIBRARY="$tmp/none/libzmq.so.5" \
	    "$bin/lat_syscall" -N 1 --output="zmq:ipc://$tmp/s" null
	expect_exit 1 'zmq sink: libm\.so\.6 has no zmq_' \
	    env BENCHMP_ZMQ_LIBRARY=libm.so.6 \
	    "$bin/lat_syscall" -N 1 --output="zmq:ipc://$tmp/s" null
	expect_exit 1 'BENCHMP_OUTPUT: zmq sink: cannot load' \
	    env BENCHMP_OUTPUT="zmq:ipc://$tmp/s" BENCHMP_ZMQ_LIBRARY="$tmp/none" \
	    "$bin/lat_syscall" -N 1 null
	;;
*)
	expect_exit 1 'built without libzmq' \
	    "$bin/lat_syscall" -N 1 --output="zmq:ipc://$tmp/s" null
	;;
esac

# MPI's module, in an MPI build: it alone needs MPI's library, and a rank
# that cannot load it says which file and exits 1 (a launcher's variable
# makes the tool a rank; the module is not loaded, so MPI never starts).
case " $features " in
*" mpi "*)
	mod=$top_builddir/lib/.libs/benchmp-mpi.so
	if [ ! -f "$mod" ]; then
		fail "an MPI build without its module $mod"
	else
		needed "$mod" | grep -q '^libmpi' ||
			fail "the MPI module needs no libmpi: $(needed "$mod" | tr '\n' ' ')"
	fi
	expect_exit 1 "cannot start MPI: cannot load $tmp/none\.so: .*No such file" \
	    env OMPI_COMM_WORLD_SIZE=1 BENCHMP_MPI_MODULE="$tmp/none.so" \
	    "$bin/lat_syscall" -N 1 null
	expect_exit 1 "cannot start MPI: .*libm\.so\.6 is not this build's MPI module" \
	    env OMPI_COMM_WORLD_SIZE=1 BENCHMP_MPI_MODULE=libm.so.6 \
	    "$bin/lat_syscall" -N 1 null
	;;
esac
no_children
finish
