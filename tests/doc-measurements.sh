#!/bin/sh
# doc-measurements.sh: every pointer to doc/measurements.md names a section it has.
#
# Man pages and the comments of constants keep what a tool or a constant
# is and send the reader to the evidence by section name: in a man page
# "doc/measurements.md, section \(lqNAME\(rq", in a comment
# doc/measurements.md, "NAME".  Each such name must be a heading of
# doc/measurements.md (## NAME), or the pointer leads nowhere.  Given
# files as arguments, the script checks those against the page instead
# (its own test below).
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir
page=$src/doc/measurements.md
[ -r "$page" ] || { fail "cannot read $page"; finish; }
sed -n 's/^##* //p' "$page" >"$tmp/heads"

# names FILE...: each section name the files point to, "FILE: NAME", with
# line breaks (and a comment's leading "*" or "#") read as spaces.
names() {
	for f in "$@"; do
		grep -Iq . "$f" 2>/dev/null || continue
		awk -v f="$f" '
		{ l = $0; sub(/^[[:space:]]*([*#]|\/\/)?[[:space:]]*/, "", l)
		  t = t " " l }
		END {
			gsub(/\\\(lq/, "\"", t); gsub(/\\\(rq/, "\"", t)
			gsub(/\\-/, "-", t); gsub(/[[:space:]]+/, " ", t)
			while (match(t, /measurements\.md(,| section| "section)* *"[^"]*"/)) {
				m = substr(t, RSTART, RLENGTH)
				sub(/^[^"]*"/, "", m); sub(/"$/, "", m)
				print f ": " m
				t = substr(t, RSTART + RLENGTH)
			}
		}' "$f"
	done
}

# check FILE...: every name the files point to is a heading; the count
# of pointers in $npointers.
check() {
	names "$@" >"$tmp/names"
	npointers=$(wc -l <"$tmp/names")
	while IFS= read -r l; do
		n=${l#*: }
		grep -qxF -- "$n" "$tmp/heads" ||
			fail "${l%%: *} points to \"$n\", not a section of doc/measurements.md"
	done <"$tmp/names"
}

if [ $# -gt 0 ]; then
	check "$@"
	finish
fi

# shellcheck disable=SC2046 # the names have no blanks: find printed them
check $(cd "$src" && find doc lib bin scripts tests README.md -type f \
    ! -name doc-measurements.sh ! -name '*.png' ! -name measurements.md \
    -print | sort | sed "s|^|$src/|")
[ "$npointers" -ge 20 ] || fail "only $npointers pointers found"

# The checker itself: a pointer over two lines is read whole, one to a
# section that does not exist is reported.
cat >"$tmp/ok.c" <<'EOF'
/*
 * The floor (doc/measurements.md, "benchmp(3): the
 * interval's floor").
 */
EOF
printf '%s\n' '(measurements: doc/measurements.md, section' \
    '\(lqNo such section\(rq).' >"$tmp/bad.8"
run sh "$0" "$tmp/ok.c"
[ "$rc" -eq 0 ] || fail "the checker refused a good pointer: $(cat "$tmp/err")"
run sh "$0" "$tmp/bad.8"
[ "$rc" -eq 1 ] && grep -qF 'points to "No such section"' "$tmp/err" ||
	fail "the checker let a pointer to no section pass (exit $rc)"

finish
