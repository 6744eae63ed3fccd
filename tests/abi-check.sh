#!/bin/sh
# abi-check.sh: libbenchmp's ABI against the baseline of its libtool version (lib/abi/).
#
# Usage: abi-check.sh            compare (what make check and .ci/run do)
#        abi-check.sh --update   store the built library's ABI as the baseline
#
# The baseline is lib/abi/libbenchmp-CURRENT.abi, written by abidw from the
# built libbenchmp.so with the installed headers as the public API, so a
# change to a type the headers do not show does not count.  A function
# or variable removed, or one whose types changed (a member moved, a
# struct resized), fails the check while the library's libtool current is
# the baseline's; functions added alone pass.  Once configure.ac bumps
# current, the check shows the difference and passes, and --update stores
# the new baseline.  abidiff's own "incompatible" bit is not enough: it
# is set for removed symbols, not for a struct that grew.  A member that
# takes reserved room (the report says "type size hasn't changed" and only
# reserved moves) is such a change too: it is accepted by looking at the
# report and storing the baseline again, without a bump of current.
# Without abidw and abidiff (Debian's abigail-tools) it skips (77), unless
# BM_ABI_REQUIRED=1 (CI) makes that a failure.
. "$top_srcdir/tests/lib.sh"

update=no
case ${1-} in
--update) update=yes ;;
'') ;;
*)
	echo "usage: $me [--update]" >&2
	exit 2
	;;
esac

# skip WHY: exit 77, or 1 when the check is required.
skip() {
	if [ "${BM_ABI_REQUIRED-}" = 1 ]; then
		echo "FAIL: $me: $1 (BM_ABI_REQUIRED=1)" >&2
		exit 1
	fi
	echo "$me: $1: skipped" >&2
	exit 77
}

command -v abidw >/dev/null 2>&1 && command -v abidiff >/dev/null 2>&1 ||
	skip "abidw and abidiff not found (Debian: abigail-tools)"
la=$top_builddir/lib/libbenchmp.la
so=$top_builddir/lib/.libs/libbenchmp.so
[ -f "$la" ] && [ -f "$so" ] || skip "no shared libbenchmp.so in this build"
# The libtool version the library was built with: current from the .la.
current=$(sed -n "s/^current=\([0-9][0-9]*\)$/\1/p" "$la")
[ -n "$current" ] || {
	echo "FAIL: $me: no current= line in $la" >&2
	exit 1
}

# abidw reads the types from the debug information: without it there is
# no ABI to compare (a build with CFLAGS lacking -g).
abidw --drop-private-types --no-corpus-path --no-comp-dir-path \
    --short-locs --header-file "$top_srcdir/lib/benchmp.h" \
    --header-file "$top_srcdir/lib/timing.h" \
    --headers-dir "$top_srcdir/lib/benchmp" \
    --out-file "$tmp/built.abi" "$so" 2>"$tmp/abidw.err" || {
	cat "$tmp/abidw.err" >&2
	echo "FAIL: $me: abidw could not read $so" >&2
	exit 1
}
grep -q '<class-decl name=.bm_result' "$tmp/built.abi" ||
	grep -q "name='bm_result'" "$tmp/built.abi" ||
	skip "no type information in $so (built without -g?)"

abidir=$top_srcdir/lib/abi
if [ "$update" = yes ]; then
	rm -f "$abidir"/libbenchmp-*.abi
	cp "$tmp/built.abi" "$abidir/libbenchmp-$current.abi"
	echo "$me: stored lib/abi/libbenchmp-$current.abi"
	exit 0
fi

base=
for f in "$abidir"/libbenchmp-*.abi; do
	[ -f "$f" ] && base=$f
done
[ -n "$base" ] || {
	echo "FAIL: $me: no baseline lib/abi/libbenchmp-N.abi" >&2
	exit 1
}
basever=${base##*/libbenchmp-}
basever=${basever%.abi}

# A baseline of another architecture says nothing of this build.
arch() { sed -n "s/.*<abi-corpus [^>]*architecture='\([^']*\)'.*/\1/p" "$1" | head -n 1; }
[ "$(arch "$base")" = "$(arch "$tmp/built.abi")" ] ||
	skip "baseline for $(arch "$base"), this build is $(arch "$tmp/built.abi")"

# abidiff's status is a bit mask: 1 error, 2 usage, 4 a change, 8 an
# incompatible change (removed symbols only).
abidiff "$base" "$tmp/built.abi" >"$tmp/diff" 2>&1
st=$?
if [ $((st & 3)) -ne 0 ]; then
	cat "$tmp/diff" >&2
	echo "FAIL: $me: abidiff failed (status $st)" >&2
	exit 1
fi
if [ "$basever" != "$current" ]; then
	[ "$st" -eq 0 ] || cat "$tmp/diff"
	echo "$me: libtool current is $current, the baseline's $basever:" \
	    "store the new ABI with make abi-baseline"
	exit 0
fi
# The counts of the summary lines ("Functions changes summary: 0 Removed,
# 1 Changed (1 filtered out), 0 Added functions"): any removed or changed
# function, variable or symbol is a break.
broken=$(awk '/changes summary:/ {
	for (i = 1; i < NF; i++)
		if (($(i + 1) ~ /^Removed/ || $(i + 1) ~ /^Changed/) && $i + 0 > 0)
			n++
} END { print n + 0 }' "$tmp/diff")
if [ $((st & 8)) -ne 0 ] || [ "$broken" -ne 0 ]; then
	cat "$tmp/diff" >&2
	echo "FAIL: $me: an incompatible ABI change while libtool current" \
	    "is still $current: bump BM_LT_VERSION in configure.ac (and" \
	    "run make abi-baseline) or undo the change" >&2
	exit 1
fi
if [ $((st & 4)) -ne 0 ]; then
	cat "$tmp/diff"
	echo "$me: compatible additions: bump revision and age in" \
	    "BM_LT_VERSION, then make abi-baseline"
fi
exit 0
