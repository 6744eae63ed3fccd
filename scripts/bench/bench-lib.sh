# bench-lib.sh: helpers the make bench scripts share (sourced, POSIX sh).
# shellcheck shell=sh

# What every script shares (the version, the locale, temporary directories,
# the programs of a build): the make bench scripts run from the source tree,
# where it is in scripts/, the folder above theirs.
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
# Numbers read and printed the same in every locale.
bm_c_locale

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

# Print the median of the numbers on stdin, one per line ("nan" for none),
# the library's (benchmp-stats --median).
bench_median() {
	bench_v=$(cat)
	if [ -z "$bench_v" ]; then
		echo nan
	else
		printf '%s\n' "$bench_v" | bm_stats --median
	fi
}
