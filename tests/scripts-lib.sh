#!/bin/sh
# scripts-lib.sh: every script finds the code they share (scripts/benchmp-lib.sh) from the source tree, a build and an installed prefix, in paths with spaces.
. "$top_srcdir/tests/lib.sh"

src=$(cd "$top_srcdir" && pwd) || exit 99
ver=$(sed -n 's/^AC_INIT(\[benchmp\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ -n "$ver" ] || { echo "$me: no version in configure.ac" >&2; exit 99; }
names=
for f in "$src"/scripts/benchmp-*; do
	case $f in *.sh) continue ;; esac
	names="$names ${f##*/}"
done
[ -n "$names" ] || { echo "$me: no scripts in $src/scripts" >&2; exit 99; }

# check_dir DIR WHAT: every script in DIR prints its version, says what is
# wrong with its command line (exit 2) and fails when its help cannot be
# written (exit 1): all three come from the library.  benchmp-compare,
# benchmp-check, benchmp-summary, benchmp-report and benchmp-scaling
# print their version so, and run benchmp compare, check, summary, report
# and scaling for the rest, which name themselves so (compare exits 4 on
# a write error).
check_dir() {
	dir=$1
	what=$2
	for n in $names; do
		run "$dir/$n" --version
		[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$n (benchmp) $ver" ] ||
			fail "$what: $n --version: exit $rc: $(cat "$tmp/out" "$tmp/err")"
		# benchmp-repeat passes what it does not know to benchmp-run.
		case $n in
		benchmp-repeat) set -- -k 1 ;;
		*) set -- --no-such-option ;;
		esac
		said=$n
		full=1
		case $n in
		benchmp-compare) said="benchmp compare" full=4 ;;
		benchmp-check) said="benchmp check" ;;
		benchmp-summary) said="benchmp summary" ;;
		benchmp-report) said="benchmp report" ;;
		benchmp-scaling) said="benchmp scaling" ;;
		esac
		run "$dir/$n" "$@"
		[ "$rc" -eq 2 ] && head -n 1 "$tmp/err" | grep -q "^$said: " &&
		    sed -n 2p "$tmp/err" | grep -q "^usage: $said " ||
			fail "$what: $n $*: exit $rc: $(cat "$tmp/err")"
		if [ -w /dev/full ]; then
			"$dir/$n" --help >/dev/full 2>"$tmp/err"
			rc=$?
			[ "$rc" -eq "$full" ] && [ "$(cat "$tmp/err")" = \
			    "$said: writing to standard output failed" ] ||
				fail "$what: $n --help >/dev/full: exit $rc: $(cat "$tmp/err")"
		fi
	done
}

# The source tree as it is, and a copy of it under a name with spaces,
# run by path and from its own directory by name.
check_dir "$src/scripts" "source tree"
mkdir -p "$tmp/a source tree/scripts" &&
    cp "$src"/scripts/benchmp-* "$tmp/a source tree/scripts/" &&
    cp "$src/configure.ac" "$tmp/a source tree/" || exit 99
check_dir "$tmp/a source tree/scripts" "source tree with spaces"
(cd "$tmp/a source tree/scripts" && sh benchmp-summary --version) \
    >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "benchmp-summary (benchmp) $ver" ] ||
	fail "sh benchmp-summary from its directory: $(cat "$tmp/out")"

# The build this test runs in.
check_dir "$top_builddir/bin" "build tree"

# A build and an installed prefix of their own, both with spaces: a fresh
# configure (the scripts need nothing compiled) and the install of the
# scripts and of the library alone.
if [ -f "$src/config.status" ]; then
	echo "$me: the source tree is configured in place, which refuses another build: the installed copy is not tried" >&2
	exit 77
fi
[ -x "$src/configure" ] || { echo "$me: no configure in $src: the installed copy is not tried" >&2; exit 77; }
command -v make >/dev/null 2>&1 || { echo "$me: no make: the installed copy is not tried" >&2; exit 77; }
b="$tmp/a build"
p="$tmp/an installed prefix"
mkdir "$b" || exit 99
(cd "$b" && "$src/configure" -q --prefix="$p") >"$tmp/conf.log" 2>&1 ||
	{ fail "configure --prefix='$p': $(tail -n 3 "$tmp/conf.log")"; exit 1; }
# The make that runs this test passes its flags down; this one needs none.
MAKEFLAGS='' MFLAGS='' make -C "$b" install-binSCRIPTS install-pkgdataDATA \
    >"$tmp/make.log" 2>&1 ||
	{ fail "make install of the scripts: $(tail -n 3 "$tmp/make.log")"; exit 1; }
check_dir "$b/bin" "build tree with spaces"
[ -f "$p/share/benchmp/benchmp-lib.sh" ] && [ ! -e "$p/bin/benchmp-lib.sh" ] ||
	fail "the library is not installed in the pkgdatadir alone: $(ls -R "$p")"
# Installed: nothing beside the scripts, the build gone; the library comes
# from the pkgdatadir written into them.
rm -rf "$b"
check_dir "$p/bin" "installed prefix with spaces"
# Through a link in another directory: still the pkgdatadir's.
mkdir "$tmp/links" && ln -s "$p/bin/benchmp-compare" "$tmp/links/" || exit 99
run "$tmp/links/benchmp-compare" --version
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "benchmp-compare (benchmp) $ver" ] ||
	fail "installed benchmp-compare through a link: exit $rc: $(cat "$tmp/err")"
# A real job: the installed summary prints what the source tree's does.
if have_jq; then
	"$src/scripts/benchmp-summary" "$src/tests/data/run-a.jsonl" >"$tmp/want" 2>&1
	run "$p/bin/benchmp-summary" "$src/tests/data/run-a.jsonl"
	[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$tmp/out" ||
		fail "installed benchmp-summary: exit $rc: $(head -n 2 "$tmp/err")"
fi
# Without its library a script fails, naming it (the shell's message).
rm -f "$p/share/benchmp/benchmp-lib.sh"
run "$p/bin/benchmp-compare" --version
[ "$rc" -ne 0 ] && grep -q 'benchmp-lib.sh' "$tmp/err" ||
	fail "no library: exit $rc: $(cat "$tmp/err")"

exit $((failures > 0))
