#!/bin/sh
# doc-man-macros.sh: no man page puts prose on a font macro line.  The
# macros that alternate fonts (.BR, .IR, .BI, ...) join their arguments
# without spaces, so a sentence after one (".BR \- .  Where workers
# outnumber") renders run together ("-.Whereworkersoutnumber").
. "$top_srcdir/tests/lib.sh"

# Print FILE:LINE: TEXT for each alternating-font macro line whose
# arguments, split as troff splits them (blanks, "quoted strings"), hold
# a lone full stop or semicolon followed by a word, or two words
# in a row (letters only, three or more each: prose, not "r NNNN").
bad=$(awk '
/^\.(BR|RB|IR|RI|BI|IB)[ \t]/ {
	s = $0
	sub(/^\.[A-Z][A-Z][ \t]+/, "", s)
	n = 0
	while (s != "") {
		if (substr(s, 1, 1) == "\"") {
			m = index(substr(s, 2), "\"")
			if (m == 0) { a[++n] = substr(s, 2); s = "" }
			else { a[++n] = substr(s, 2, m - 1); s = substr(s, m + 2) }
		} else if (match(s, /[ \t]/)) {
			a[++n] = substr(s, 1, RSTART - 1); s = substr(s, RSTART)
		} else { a[++n] = s; s = "" }
		sub(/^[ \t]+/, "", s)
	}
	for (i = 2; i <= n; i++)
		if ((a[i - 1] ~ /^[.;]$/ && a[i] ~ /^[A-Za-z]/) ||
		    (a[i - 1] ~ /^[A-Za-z][A-Za-z][A-Za-z]+$/ &&
		     a[i] ~ /^[A-Za-z][A-Za-z][A-Za-z]+$/)) {
			print FILENAME ":" FNR ": " $0
			break
		}
}' "$top_srcdir"/doc/*.[138])
[ -z "$bad" ] || fail "prose on a font macro line (it renders run together):
$bad"
finish
