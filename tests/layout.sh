#!/bin/sh
# layout.sh: lib/ a folder a job, bin/ the programs with bin/common/ and bin/cmd/, scripts/ the commands (doc/architecture.md).
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir/bin
am=$top_srcdir/Makefile.am
[ -d "$src/common" ] || fail "no $src/common"
[ -d "$src/cmd" ] || fail "no $src/cmd"

# has_main FILE: 0 when FILE defines main() (the tools' style puts the
# name at the start of its line).
has_main() {
	grep -q '^main(' "$1"
}

# sources_of FILE: the variables of Makefile.am (NAME_SOURCES) that list
# FILE, one a line, continuation lines joined.
sources_of() {
	awk -v f="$1" '
	{ line = line $0 }
	/\\$/ { sub(/\\$/, " ", line); next }
	{
		if (line ~ /^[A-Za-z0-9_]+_SOURCES[ \t]*\+?=/) {
			v = line
			sub(/[ \t]*\+?=.*/, "", v)
			n = split(line, w, /[ \t]+/)
			for (i = 1; i <= n; i++)
				if (w[i] == f) { print v; break }
		}
		line = ""
	}' "$am" | sort -u
}

# Every C file at bin/ is a program, and a program the build knows.
nprog=0
for f in "$src"/*.c; do
	name=${f##*/}
	name=${name%.c}
	has_main "$f" || fail "bin/$name.c has no main(): shared code goes in bin/common/ or bin/cmd/"
	grep -q "bin/$name\\b" "$am" ||
		fail "bin/$name.c is not a program of Makefile.am"
	nprog=$((nprog + 1))
done
[ "$nprog" -ge 38 ] || fail "only $nprog programs found in $src"
# No header at bin/: a header is shared code.
for f in "$src"/*.h; do
	[ -e "$f" ] && fail "${f#"$top_srcdir"/} is a header outside bin/common/ and bin/cmd/"
done

# Every file in bin/common/ is shared: no main(), and in the tool library.
nshared=0
for f in "$src"/common/*.c "$src"/common/*.h; do
	[ -e "$f" ] || continue
	rel=${f#"$top_srcdir"/}
	case $f in *.c) ! has_main "$f" || fail "$rel defines main()" ;; esac
	sources_of "$rel" | grep -qx bin_libbmtool_la_SOURCES ||
		fail "$rel is not in bin_libbmtool_la_SOURCES"
	nshared=$((nshared + 1))
done
[ "$nshared" -ge 20 ] || fail "only $nshared shared files in $src/common"

# Every file in bin/cmd/ is a part of the commands that measure nothing
# (benchmp, benchmp-ab, benchmp-sched, benchmp-stats), theirs alone: no
# main(), never in the tool library nor in a tool.
ncmd=0
for f in "$src"/cmd/*.c "$src"/cmd/*.h; do
	[ -e "$f" ] || continue
	rel=${f#"$top_srcdir"/}
	case $f in *.c) ! has_main "$f" || fail "$rel defines main()" ;; esac
	vars=$(sources_of "$rel")
	[ -n "$vars" ] || fail "$rel is in no program's sources"
	for v in $vars; do
		case $v in
		bin_benchmp_SOURCES | bin_benchmp_ab_SOURCES | \
		    bin_benchmp_sched_SOURCES | bin_benchmp_stats_SOURCES) ;;
		*) fail "$rel is in $v: bin/cmd/ is the commands' alone" ;;
		esac
	done
	ncmd=$((ncmd + 1))
done
[ "$ncmd" -ge 10 ] || fail "only $ncmd parts in $src/cmd"
# Neither a tool nor the tool library includes a command's part.
for f in "$src"/*.c "$src"/common/*.c "$src"/common/*.h; do
	case ${f##*/} in
	benchmp.c | benchmp-ab.c | benchmp-sched.c | benchmp-stats.c) continue ;;
	esac
	bad=$(grep -n '^#include "cmd/' "$f") &&
		fail "${f#"$top_srcdir"/}: $bad: bin/cmd/ is the commands' alone"
done

# A program includes shared headers by their folder.
for f in "$src"/*.c; do
	bad=$(grep -n '^#include "\(tool\|mem\|ops\|net\|ipc\|file\|partner\|placement\|cluster\|ab\|sched\|compare\|stats-print\)\.h"' "$f") &&
		fail "${f#"$top_srcdir"/}: $bad: include shared headers as \"common/NAME.h\" or \"cmd/NAME.h\""
done

# lib/: the installed headers at its top and internal.h, no C file; the
# code in a folder a job, every C file of a folder built by Makefile.am.
lib=$top_srcdir/lib
for f in "$lib"/*.c; do
	[ -e "$f" ] && fail "lib/${f##*/} is not in a folder of lib/"
done
for f in "$lib"/*.h; do
	[ -e "$f" ] || continue
	case ${f##*/} in
	benchmp.h | timing.h | internal.h) ;;
	*) fail "lib/${f##*/}: a header at lib/ is installed, or internal.h" ;;
	esac
done
nlib=0
for f in "$lib"/*/*.c "$lib"/*/*.h; do
	[ -e "$f" ] || continue
	rel=${f#"$top_srcdir"/}
	case $rel in lib/benchmp/*) continue ;; esac
	[ -n "$(sources_of "$rel")" ] ||
		fail "$rel is in no library's sources in Makefile.am"
	nlib=$((nlib + 1))
done
[ "$nlib" -ge 50 ] || fail "only $nlib files in the folders of $lib"
# internal.h includes each folder's header, the one named after it.
for h in "$lib"/*/*.h; do
	d=${h%/*}
	d=${d##*/}
	[ "${h##*/}" = "$d.h" ] || continue
	grep -q "^#include \"$d/$d.h\"" "$lib/internal.h" ||
		fail "lib/internal.h does not include $d/$d.h"
done

# scripts/: the installed commands; scripts/bench/ make bench's, none
# installed and every one distributed.
for f in "$top_srcdir"/scripts/bench/*; do
	[ -e "$f" ] || continue
	rel=${f#"$top_srcdir"/}
	case ${f##*/} in
	benchmp-*) fail "$rel: an installed command belongs in scripts/" ;;
	esac
	grep -q "$rel\\b" "$am" || fail "$rel is not in Makefile.am (EXTRA_DIST)"
done
grep -n 'scripts/bench/[^ ]*' "$am" | grep -E 'bin_SCRIPTS|pkgdata_DATA|^[0-9]+:bin/' &&
	fail "Makefile.am installs a script of scripts/bench/"
sed -n '/^bin_SCRIPTS *+\{0,1\}=/,/[^\\]$/p' "$am" |
    grep -o 'bin/benchmp-[a-z-]*' >"$tmp/installed"
[ -s "$tmp/installed" ] || fail "no bin_SCRIPTS found in Makefile.am"
while read -r s; do
	[ -f "$top_srcdir/scripts/${s#bin/}" ] ||
		fail "$s is installed but scripts/${s#bin/} is not there"
done <"$tmp/installed"
finish
