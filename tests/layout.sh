#!/bin/sh
# layout.sh: bin/ holds the programs, one file each, and bin/common/ what they share (doc/architecture.md).
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir/bin
am=$top_srcdir/Makefile.am
[ -d "$src/common" ] || fail "no $src/common"

# has_main FILE: 0 when FILE defines main() (the tools' style puts the
# name at the start of its line).
has_main() {
	grep -q '^main(' "$1"
}

# Every C file at bin/ is a program, and a program the build knows.
nprog=0
for f in "$src"/*.c; do
	name=${f##*/}
	name=${name%.c}
	has_main "$f" || fail "bin/$name.c has no main(): shared code goes in bin/common/"
	grep -q "bin/$name\\b" "$am" ||
		fail "bin/$name.c is not a program of Makefile.am"
	nprog=$((nprog + 1))
done
[ "$nprog" -ge 38 ] || fail "only $nprog programs found in $src"
# No header at bin/: a header is shared code.
for f in "$src"/*.h; do
	[ -e "$f" ] && fail "${f#"$top_srcdir"/} is a header outside bin/common/"
done

# Every file in bin/common/ is shared: no main(), and in the tool library.
nshared=0
for f in "$src"/common/*.c "$src"/common/*.h; do
	[ -e "$f" ] || continue
	rel=${f#"$top_srcdir"/}
	case $f in *.c) ! has_main "$f" || fail "$rel defines main()" ;; esac
	grep -q "$rel\\b" "$am" ||
		fail "$rel is not in bin_libbmtool_la_SOURCES"
	nshared=$((nshared + 1))
done
[ "$nshared" -ge 20 ] || fail "only $nshared shared files in $src/common"

# A program includes shared headers by their folder.
for f in "$src"/*.c; do
	bad=$(grep -n '^#include "\(tool\|mem\|ops\|net\|ipc\|file\|partner\|placement\|cluster\)\.h"' "$f") &&
		fail "${f#"$top_srcdir"/}: $bad: include shared headers as \"common/NAME.h\""
done
finish
