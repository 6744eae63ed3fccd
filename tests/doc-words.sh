#!/bin/sh
# doc-words.sh: the docs, code and scripts say nothing of how the project is run.
#
# The sources describe benchmp and the evidence behind it; the way the
# work was organised (numbered stops, sessions, an issue tracker the
# repository does not have, "the development VM" instead of the machine)
# tells a reader nothing they can check.  Each line of doc, lib, bin,
# scripts, tests, README.md and CONTRIBUTING.md that has one of those
# words fails, except the uses of "session" for a process session
# (setsid), a shell run and Open MPI's session directories, listed
# below.  Given files as arguments, the script checks those instead (its
# own test below).
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir
words='stop [0-9]|issues? [0-9]|issue N\b|development (VM|machine)|\bthe lead\b|\bsessions?\b'
# The other meanings of "session": setsid's, a shell's, Open MPI's, and
# the names of files that readme-commands.sh and mpi-hosts.sh write.
other='session (of its own|and process group)|shell session|Open MPI.s session|session\.(sh|out|err)|/session\b'

# The same words for awk, whose regular expressions have no \b: on
# lowercased text, a word boundary is a non-word character or an end.
nw='([^a-z0-9_]|$)'
aw="stop [0-9]|issues? [0-9]|issue n$nw|development (vm|machine)"
aw="$aw|(^|[^a-z0-9_])the lead$nw|(^|[^a-z0-9_])sessions?$nw"
ao="session (of its own|and process group)|shell session|open mpi.s session"
ao="$ao|session[.](sh|out|err)|/session$nw"

# scan FILE...: print each line of the files with a process word, and
# each pair of lines that has one only when joined (a line break inside
# the words, in a paragraph or a comment).
scan() {
	grep -InHiE -- "$words" "$@" 2>/dev/null | grep -viE -- "$other"
	for f in "$@"; do
		grep -Iq . "$f" 2>/dev/null || continue
		awk -v f="$f" -v w="$aw" -v o="$ao" '
		function hit(t) { t = tolower(t); return t ~ w && t !~ o }
		FNR > 1 {
			j = $0
			sub(/^[[:space:]]*([*#]|\/\/|dnl)?[[:space:]]*/, "", j)
			if (hit(p " " j) && !hit(p) && !hit($0))
				print f ":" FNR - 1 ": " p " " j
		}
		{ p = $0 }' "$f"
	done
}

if [ $# -gt 0 ]; then
	found=$(scan "$@")
	[ -z "$found" ] || { printf '%s\n' "$found"; exit 1; }
	exit 0
fi

(cd "$src" && find doc lib bin scripts tests README.md CONTRIBUTING.md -type f \
    ! -name doc-words.sh ! -name '*.png' -print | sort) >"$tmp/files"
[ "$(wc -l <"$tmp/files")" -ge 100 ] ||
	fail "only $(wc -l <"$tmp/files") files to scan under $src"
# shellcheck disable=SC2046 # the names have no blanks: find printed them
(cd "$src" && scan $(cat "$tmp/files")) >"$tmp/found"
if [ -s "$tmp/found" ]; then
	fail "words of how the project is run:"
	sed 's/^/  /' "$tmp/found" >&2
fi

# The checker itself: each word is found, the other meanings are not.
printf '%s\n' 'Measured in stop 36.' 'See issue 16.' 'As issue N asks.' \
    'On the development VM it took 2 s.' 'Asked by the lead.' \
    'A session found it.' 'Measured on the development' ' * VM, quiet.' \
    >"$tmp/bad"
run sh "$0" "$tmp/bad"
[ "$rc" -eq 1 ] || fail "the checker exited $rc on process words"
[ "$(grep -c . "$tmp/out")" -eq 7 ] ||
	fail "the checker found $(grep -c . "$tmp/out") of 7: $(cat "$tmp/out")"
printf '%s\n' 'A guardian in a session of its own (setsid).' \
    'Run in a session and process group of its own.' \
    "Open MPI's session directories go to \$dir/session." \
    'The blocks run as one shell session.' 'Parse the leading digits.' \
    "Read \$tmp/session.out." 'Parse the' ' * leading digits.' >"$tmp/good"
run sh "$0" "$tmp/good"
[ "$rc" -eq 0 ] || fail "the checker exited $rc on other meanings: $(cat "$tmp/out")"

finish
