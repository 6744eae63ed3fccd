#!/bin/sh
# readme-commands.sh: README.md's commands work as written.
#
# README.md marks its commands as fenced ```sh blocks (a reader sees
# ordinary shell examples) and its library example as a ```c block.
#
# Checked, not run: the two blocks under "## The two commands" (set up and
# run the suite; set up and run the tests).  They need root's apt-get and
# take minutes to hours.  Each must be one line of steps joined by &&,
# each step a program of the source tree that exists and is executable:
# .ci/run with an argument its case statement takes (none is "all"), a
# script with options it accepts (run with the same options and --help
# last, so that it parses them and stops).  The test command must be
# .ci/run alone, what CI runs; and what .ci/run names must exist: every
# configure option in configure --help, every make target in this
# build's Makefile, every file it gives shellcheck, and every package it
# installs in apt-cache (when this machine has apt lists).  And every
# file README links to exists, and every program of bin/ has a row in its
# tools table.
#
# Run: every other ```sh block, in order, as one shell session (sh -e,
# as a reader types them), with the ```c block saved under the name the
# line before it gives ("Save this as `NAME`:").  A ```text block is
# output README shows from its fixed example files: each of its lines must
# be a line the shell printed.  The shell runs in a
# private directory laid out as the top of the source tree (a link to
# each of its entries, and build/ a link to this build), so the commands
# run exactly as written and what they write lands there; TMPDIR is
# private too.  Only the environment differs from a reader's: lib.sh's
# short calibration and one round of workers, as in every CLI test (the
# figures do not matter here), and under --enable-sanitizers a cc that
# adds the sanitizers (a program linked to a sanitized library without
# them stops at once: the ASan runtime must come first).  No timing is
# asserted.
. "$top_srcdir/tests/lib.sh"

readme=$top_srcdir/README.md
command -v jq >/dev/null 2>&1 || {
	echo "SKIP: $me: README's examples need jq (Debian package jq)"
	exit 77
}
[ -r "$readme" ] || {
	fail "cannot read $readme"
	exit 1
}

# Split README.md: the top section's sh blocks to $tmp/top.N (one file
# each), the other sh blocks to $tmp/session.sh (each after a line naming
# it), the c block to $tmp/c/NAME.  awk exits 3 on an unclosed fence or
# a c block without its file name.
mkdir "$tmp/c"
awk -v dir="$tmp" '
function out(s) { print s > dir "/session.sh" }
/^## / { section = substr($0, 4) }
/^```/ && !infence {
	infence = 1
	fence = substr($0, 4)
	start = NR
	if (fence == "sh" && section == "The two commands") {
		ntop++
		file = dir "/top." ntop
	} else if (fence == "sh") {
		nrun++
		out("echo \"@@ README.md:" NR "\" >&2")
		file = ""
	} else if (fence == "text") {
		file = dir "/expect"
	} else if (fence == "c") {
		if (cname == "")
			exit 3
		file = dir "/c/" cname
	} else
		file = "/dev/null"
	next
}
/^```$/ && infence { infence = 0; next }
infence && fence == "sh" && file == "" { out($0); next }
infence { print > file; next }
{
	if (match($0, /Save this as `[^`\/]+`/))
		cname = substr($0, RSTART + 14, RLENGTH - 15)
	else if ($0 != "")
		cname = ""
}
END {
	if (infence) {
		print "README.md:" start ": unclosed fence" > "/dev/stderr"
		exit 3
	}
	print ntop + 0, nrun + 0 > dir "/counts"
}' "$readme" || {
	fail "README.md: awk could not split it (an unclosed fence, or a c block not named)"
	exit 1
}
read -r ntop nrun <"$tmp/counts"

# --- The two top commands: checked, not run. ---

if [ "$ntop" -ne 2 ]; then
	fail "README.md has $ntop sh blocks under 'The two commands', not 2"
fi

# steps FILE: the steps of the one-line command in FILE, one a line.
steps() {
	if [ "$(wc -l <"$1")" -ne 1 ]; then
		fail "$(tr '\n' ';' <"$1"): a top command is one line"
	fi
	awk '{ n = split($0, a, / *&& */); for (i = 1; i <= n; i++) print a[i] }' "$1"
}

# The cases .ci/run's argument takes.
ci_cases=$(sed -n '/^case \${1/,/^esac/s/^\([a-z][a-z |]*\)).*/\1/p' \
    "$top_srcdir/.ci/run" | tr -d ' ' | tr '|\n' '  ')

# check_step STEP: the step names a program of the source tree, with
# arguments it takes.
check_step() {
	# shellcheck disable=SC2086 # the step's words, as a shell splits them
	set -- $1
	prog=$1
	shift
	case $prog in
	/* | *..*)
		fail "'$prog': a top command's program is a path in the source tree"
		return
		;;
	esac
	if [ ! -f "$top_srcdir/$prog" ] || [ ! -x "$top_srcdir/$prog" ]; then
		fail "'$prog' is not an executable file of the source tree"
		return
	fi
	case $prog in
	.ci/run)
		arg=${1:-all}
		if [ $# -gt 1 ]; then
			fail ".ci/run takes one argument, README gives: $*"
		fi
		case " $ci_cases " in
		*" $arg "*) ;;
		*) fail ".ci/run has no case '$arg' (its cases: $ci_cases)" ;;
		esac
		;;
	scripts/*)
		run "$top_srcdir/$prog" "$@" --help
		if [ "$rc" -ne 0 ] || ! grep -q "^usage: ${prog#scripts/} " "$tmp/out"; then
			fail "'$prog $* --help' exited $rc: $(head -n 2 "$tmp/err")"
		fi
		;;
	*) fail "'$prog': a top command runs .ci/run or scripts/ only" ;;
	esac
}

if [ "$ntop" -ge 1 ]; then
	steps "$tmp/top.1" >"$tmp/steps.1"
	case $(head -n 1 "$tmp/steps.1") in
	".ci/run deps") ;;
	*) fail "the suite's command does not begin with '.ci/run deps': $(cat "$tmp/top.1")" ;;
	esac
	grep -q '^scripts/benchmp-run\( \|$\)' "$tmp/steps.1" ||
		fail "the suite's command does not run scripts/benchmp-run: $(cat "$tmp/top.1")"
	while IFS= read -r s; do
		check_step "$s"
	done <"$tmp/steps.1"
fi

if [ "$ntop" -ge 2 ]; then
	# CI runs .ci/run without an argument (its header says so): the test
	# command is that, so that the two cannot drift apart.
	if [ "$(cat "$tmp/top.2")" != ".ci/run" ]; then
		fail "the test command is '$(cat "$tmp/top.2")', not '.ci/run' (what CI runs)"
	fi
	check_step ".ci/run"
	sed -n '2,7p' "$top_srcdir/.ci/run" | grep -q '^# Usage: \.ci/run .*what CI runs' ||
		fail ".ci/run's usage no longer says that it, without argument, is what CI runs"
fi

# What .ci/run names exists: configure's options, the make targets, the
# files given to shellcheck, the packages.
ci=$top_srcdir/.ci/run
if [ -x "$top_srcdir/configure" ]; then
	"$top_srcdir/configure" --help >"$tmp/configure-help" 2>&1 ||
		fail "configure --help failed"
	opts=$(grep -E 'configure -q|^[[:space:]]*build_and_check |DISTCHECK_CONFIGURE_FLAGS=' "$ci" |
	    grep -oE -- '--(enable|disable|with|without)-[a-z-]+' | sort -u)
	[ -n "$opts" ] || fail ".ci/run: no configure option found (the test's reading of it is out of date)"
	for o in $opts; do
		grep -Eq -- "^ +$o([ =[]|\$)" "$tmp/configure-help" ||
			fail ".ci/run passes $o, which configure --help does not list"
	done
else
	echo "$me: no configure in the source tree: .ci/run's configure options not checked"
fi
targets=$(grep -oE 'make -C [^ ]+( -j[^ ]+)? [a-z][a-z-]*' "$ci" |
    awk '{ print $NF }' | sort -u)
[ -n "$targets" ] || fail ".ci/run: no make target found (the test's reading of it is out of date)"
for t in $targets; do
	grep -q "^$t:" "$top_builddir/Makefile" ||
		fail ".ci/run runs 'make $t', which this build's Makefile does not have"
done
sed -n 's/^[[:space:]]*shellcheck //p' "$ci" | tr ' ' '\n' >"$tmp/shellchecked"
[ -s "$tmp/shellchecked" ] || fail ".ci/run: no shellcheck line found (the test's reading of it is out of date)"
while IFS= read -r f; do
	# shellcheck disable=SC2086,SC2046 # the glob .ci/run gives, expanded
	set -- $(cd "$top_srcdir" && echo $f)
	[ -e "$top_srcdir/$1" ] || fail ".ci/run gives shellcheck '$f', which matches nothing"
done <"$tmp/shellchecked"
pkgs=$(sed -n '/^deps=(/,/)/p' "$ci" | sed 's/deps=(//; s/)//' | tr -s '[:space:]' '\n' | grep .)
[ -n "$pkgs" ] || fail ".ci/run: no package list found (the test's reading of it is out of date)"
if command -v apt-cache >/dev/null 2>&1 && apt-cache show dpkg >/dev/null 2>&1; then
	# One apt-cache call (each costs seconds): the packages it found.
	# shellcheck disable=SC2086 # the list, one word each
	apt-cache show --no-all-versions $pkgs 2>/dev/null |
	    sed -n 's/^Package: //p' >"$tmp/known"
	for p in $pkgs; do
		grep -qxF "$p" "$tmp/known" || fail ".ci/run installs '$p', which apt-cache does not know"
	done
else
	echo "$me: no apt lists here: .ci/run's packages not checked"
fi

# Every file README links to is there.
grep -o '](\([^)#:]*\))' "$readme" | sed 's/^](//; s/)$//' | sort -u >"$tmp/links"
[ -s "$tmp/links" ] || fail "README.md links to no file (the man pages?)"
while IFS= read -r l; do
	[ -e "$top_srcdir/$l" ] || fail "README.md links to $l, which is not there"
done <"$tmp/links"

# Every program of bin/ has a row in README's tools table, its name in
# code in the first column.
for c in "$top_srcdir"/bin/*.c; do
	t=${c##*/}
	t=${t%.c}
	grep '^| ' "$readme" | cut -d'|' -f2 | grep -Eq "\`${t}[ \`]" ||
		fail "README's tools table has no row for $t"
done

# --- Every other sh block, run as written. ---

if [ "$nrun" -eq 0 ]; then
	fail "README.md has no sh block outside 'The two commands'"
fi
if [ -z "$(ls "$tmp/c")" ]; then
	fail "README.md has no c block (the library example)"
fi

# The top of the source tree, in links: build/ is this build.
top=$tmp/top
mkdir "$top" "$tmp/tmpdir"
for e in "$top_srcdir"/* "$top_srcdir"/.[!.]*; do
	[ -e "$e" ] || continue
	case ${e##*/} in
	build) continue ;;
	esac
	ln -s "$(cd "$(dirname "$e")" && pwd)/${e##*/}" "$top/${e##*/}"
done
[ -e "$top/build" ] || ln -s "$(cd "$top_builddir" && pwd)" "$top/build"
cp "$tmp"/c/* "$top/"

# A sanitized library runs only in a program built with the sanitizers.
if [ "${BM_SANITIZERS:-no}" = yes ]; then
	mkdir "$tmp/cc"
	realcc=$(command -v cc) || {
		fail "no cc on PATH"
		exit 1
	}
	printf '#!/bin/sh\nexec %s -fsanitize=address,undefined "$@"\n' "$realcc" >"$tmp/cc/cc"
	chmod +x "$tmp/cc/cc"
	PATH=$tmp/cc:$PATH
fi

(cd "$top" && TMPDIR=$tmp/tmpdir sh -e -x "$tmp/session.sh") \
    >"$tmp/session.out" 2>"$tmp/session.err" </dev/null
rc=$?
if [ "$rc" -ne 0 ]; then
	block=$(grep '^@@ README.md:' "$tmp/session.err" | tail -n 1)
	fail "README's commands failed (exit $rc) in the block at ${block#@@ }; the end of its trace:"
	tail -n 15 "$tmp/session.err" >&2
fi

# What the commands print: each expected only when README has the command
# (and the shell ran to its end: a failure above stopped it).
expect_out() {
	if [ "$rc" -eq 0 ] && grep -qF -- "$1" "$tmp/session.sh" && ! grep -Eq -- "$2" "$tmp/session.out"; then
		fail "'$1' printed no line matching '$2'"
	fi
}
# (A flagged figure's line ends with its warning after lmbench's fields.)
w='( \(noisy( \+-[0-9]+%)?\))?'
expect_out 'lat_syscall null' "^Simple syscall: [0-9.]+ microseconds$w\$"
expect_out 'bw_mem ' "^[0-9.]+ [0-9.]+$w\$"
expect_out 'lat_pipe ' "^Pipe latency: [0-9.]+ microseconds \\((same|cross)\\)$w\$"
expect_out 'benchmp-summary ' '^flagged: '
expect_out 'benchmp compare --allow-undecided tests/data/lat-2cpu.jsonl tests/data/lat-1cpu.jsonl' '^machines differ \(A \| B\):$'
expect_out 'benchmp-scaling ' '^ *workers +throughput '
expect_out './example' '^getppid: [0-9.]+ us'
expect_out 'jq -c' '^\{"value":[0-9.e+-]+,'
if [ "$rc" -eq 0 ] && [ -f "$tmp/expect" ]; then
	while IFS= read -r l; do
		[ -z "$l" ] || grep -qxF -- "$l" "$tmp/session.out" ||
			fail "README shows a line the commands did not print: $l"
	done <"$tmp/expect"
fi

# Every records file the commands wrote holds records.
find "$top" "$tmp/tmpdir" -type f -name '*.jsonl' >"$tmp/written"
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/written" ]; then
	fail "README's commands wrote no records file"
fi
while IFS= read -r f; do
	if ! [ -s "$f" ] || ! jq -e 'has("tool") and has("value")' "$f" >/dev/null 2>&1; then
		fail "${f#"$tmp"/}: not benchmp records"
	fi
done <"$tmp/written"

[ "$failures" -eq 0 ] || exit 1
echo "$me: the two top commands checked, $nrun blocks run"
