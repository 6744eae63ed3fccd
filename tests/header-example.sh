#!/bin/sh
# header-example.sh: benchmp.h stays short, its example builds and runs, every topic header stands alone.
# $CC and $BM_SAN_FLAGS are words to split ("gcc -m32", two -f flags).
# shellcheck disable=SC2086
. "$top_srcdir/tests/lib.sh"

hdr=$top_srcdir/lib/benchmp.h
cc=${CC:-cc}
libtool=$top_builddir/libtool

# The core header is read in one sitting: 300 lines at most.
lines=$(wc -l <"$hdr")
[ "$lines" -le 300 ] || fail "lib/benchmp.h has $lines lines, more than 300"

# The example is the indented code of the header's first comment: each of
# its lines starts " *<tab>".
sed -n '1,/^ \*\//p' "$hdr" | sed -n 's/^ \*	//p' >"$tmp/example.c"
grep -q 'bm_run(' "$tmp/example.c" || fail "no example with bm_run() in benchmp.h's top comment"

# Build it as a program outside the project would be, strict C99 with
# warnings as errors, against the library of this build.
if ! $cc -std=c99 -pedantic -Wall -Wextra -Werror $BM_SAN_FLAGS \
    -I"$top_srcdir/lib" -c -o "$tmp/example.o" "$tmp/example.c" \
    2>"$tmp/cc.err"; then
	cat "$tmp/cc.err" >&2
	fail "the example of benchmp.h does not compile"
elif ! "$libtool" --quiet --tag=CC --mode=link $cc $BM_SAN_FLAGS \
    -o "$tmp/example" "$tmp/example.o" "$top_builddir/lib/libbenchmp.la" \
    2>"$tmp/cc.err"; then
	cat "$tmp/cc.err" >&2
	fail "the example of benchmp.h does not link"
else
	run "$libtool" --mode=execute "$tmp/example"
	[ "$rc" -eq 0 ] || fail "the example exits $rc: $(cat "$tmp/err")"
	grep -Eq '^getppid: [0-9]+\.[0-9]{4} microseconds$' "$tmp/out" ||
		fail "the example prints no lmbench line: $(head -n 1 "$tmp/out")"
	sed -n 2p "$tmp/out" | grep -q '^{.*"tool": *"example".*}$' ||
		fail "the example prints no JSON record: $(sed -n 2p "$tmp/out")"
fi

# Each topic header compiles on its own, in C and, when there is a C++
# compiler, in C++: it includes what it uses.
cxx=
command -v c++ >/dev/null 2>&1 && cxx='c++'
n=0
for h in "$top_srcdir"/lib/benchmp/*.h; do
	name=benchmp/${h##*/}
	[ "$name" = benchmp/lmbench.h ] && continue
	printf '#include <%s>\n' "$name" >"$tmp/one.c"
	$cc -std=c99 -pedantic -Wall -Wextra -Werror -I"$top_srcdir/lib" \
	    -fsyntax-only "$tmp/one.c" 2>"$tmp/cc.err" ||
		fail "$name does not compile alone: $(head -n 3 "$tmp/cc.err")"
	if [ -n "$cxx" ]; then
		cp "$tmp/one.c" "$tmp/one.cc"
		$cxx -Wall -Wextra -Werror -I"$top_srcdir/lib" -fsyntax-only \
		    "$tmp/one.cc" 2>"$tmp/cc.err" ||
			fail "$name does not compile alone in C++: $(head -n 3 "$tmp/cc.err")"
	fi
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n topic headers under lib/benchmp"

finish
