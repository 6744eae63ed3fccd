# bench-lib.sh: helpers the make bench scripts share (sourced, POSIX sh).
# shellcheck shell=sh

# Numbers read and printed the same in every locale: a decimal comma would
# change what awk, printf, sort and jq make of them.  C.UTF-8 where there is
# one, so that names in UTF-8 stay printable; LOCPATH cannot swap it.
unset LOCPATH
export LC_ALL=C.UTF-8
[ "$(locale charmap 2>/dev/null)" = UTF-8 ] || LC_ALL=C

# The figure of a result line in FILE: the number after the colon of a
# "NAME: T microseconds" line, the number of a "B MB/sec" line (lmbench's
# mb()), else the second field (lmbench's and benchmp's "SIZE MB/S").
bench_figure() {
	awk 'NR == 1 {
		if ($0 ~ /: [0-9.]+ microseconds/) { sub(/.*: /, ""); print $1 }
		else if ($2 == "MB/sec") print $1
		else print $2
	}' "$1"
}

# Print the median of the numbers on stdin, one per line ("nan" for none).
bench_median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	}'
}
