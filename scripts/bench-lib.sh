# bench-lib.sh: helpers the make bench scripts share (sourced, POSIX sh).
# shellcheck shell=sh

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
