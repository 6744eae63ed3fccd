#!/bin/sh
# bench-records.sh: how the commands that read files of records scale
# with the records.  benchmp compare, summary, spread, history, report
# and merge are timed on N records of distinct figures (about 280 bytes
# each, made up by awk) and on 4N, each the median of three runs, and
# the ratio t(4N) / t(N) printed: about 4 where a command reads its
# records in linear time, about 16 where it compares each record with
# every one before it.
#
# Usage: scripts/bench/bench-records.sh [--n N] BUILDDIR
#
# Run A holds the figures once each; runs B and C hold them again, their
# values 1% and 2% higher (compare A B, spread A B C, report A B).
# history reads a store of three past runs of every figure, in the
# store's format (STAMP, VALUE, KEY as benchmp merge makes it), and
# writes nothing there (--no-add).  N defaults to 20000: 4N records stay
# well within the 64 MB a file of records may hold.
set -eu
prog=bench-records.sh
# shellcheck source=scripts/bench/bench-lib.sh
. "${0%/*}/bench-lib.sh"

usage="usage: bench-records.sh [--n N] BUILDDIR"
n=20000
while [ $# -gt 0 ]; do
	case $1 in
	--n) n=${2:?$usage}; shift 2 ;;
	-h | --help) echo "$usage"; exit 0 ;;
	-*) echo "$prog: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
case $n in
'' | *[!0-9]* | 0*) echo "$prog: --n: '$n' is not a count" >&2; exit 2 ;;
esac
bm=$1/bin/benchmp
[ -x "$bm" ] || { echo "$prog: $bm: not built" >&2; exit 2; }
# The medians are the library's, this build's.
bm_stats_tool=$1/bin/benchmp-stats
[ -x "$bm_stats_tool" ] || { echo "$prog: $bm_stats_tool: not built" >&2; exit 2; }
bm_tmpdir bench-records

# records FILE COUNT SCALE: COUNT records of distinct figures, their
# values SCALE times run A's.
records() {
	awk -v n="$2" -v s="$3" 'BEGIN {
		for (i = 1; i <= n; i++) {
			v = (1 + (i % 97) / 100) * s
			printf "{\"tool\":\"lat_x\",\"case\":\"c%d\",\"params\":" \
			    "{\"size\":%d},\"suite\":{\"group\":\"basic\",\"figure\":" \
			    "\"fig %d\"},\"metric\":\"latency\",\"unit\":\"us\"," \
			    "\"value\":%.6g,\"median\":%.6g,\"ci_lo\":%.6g," \
			    "\"ci_hi\":%.6g,\"ci_level\":0.95,\"samples\":11," \
			    "\"cv\":0.012,\"parallel\":1,\"timestamp\":" \
			    "\"2026-12-01T00:00:00Z\",\"_line\":%d}\n",
			    i, i, i, v, v, v * 0.98, v * 1.02, i
		}
	}' >"$1"
}

# store FILE COUNT: three past runs of the COUNT figures of records, one
# line a figure and run: STAMP <tab> VALUE <tab> KEY.
store() {
	awk -v n="$2" 'BEGIN {
		for (r = 1; r <= 3; r++)
			for (i = 1; i <= n; i++)
				printf "r%d\t%.6g\t[\"fig %d\",\"lat_x\",\"c%d\"," \
				    "\"latency\",null,1,null,null]\n", r,
				    (1 + (i % 97) / 100) * (1 + r / 100), i, i
	}' >"$1"
}

# compare_runs A B: benchmp compare, whose verdicts (1 worse, 3
# undecided) are no failure here.
compare_runs() {
	rc=0
	"$bm" compare "$1" "$2" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]
}

# timed CMD...: the median wall seconds of three runs of CMD into t; its
# output of the last run in $tmp/out and $tmp/err.
timed() {
	: >"$tmp/t"
	for k in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" >"$tmp/out" 2>"$tmp/err" || {
			echo "$prog: '$*' failed (run $k): $(head -n 1 "$tmp/err")" >&2
			exit 1
		}
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >>"$tmp/t"
	done
	t=$(bench_median <"$tmp/t")
}

# The commands, named as printed; each runs on the files of one size.
cmds="compare summary spread history report merge"

# run CMD SIZE: one command on the files of SIZE records, timed into t.
run() {
	d=$tmp/$2
	case $1 in
	compare) timed compare_runs "$d/a.jsonl" "$d/b.jsonl" ;;
	summary) timed "$bm" summary "$d/a.jsonl" ;;
	spread) timed "$bm" spread "$d/a.jsonl" "$d/b.jsonl" "$d/c.jsonl" ;;
	history)
		timed "$bm" history --store "$d/store" --no-add "$d/a.jsonl"
		# A store the key of no figure matched would time nothing.
		grep -q "$2 of $2 figures with past runs" "$tmp/err" ||
			{ echo "$prog: history found no past runs: $(head -n 1 "$tmp/err")" >&2; exit 1; }
		;;
	report) timed "$bm" report --output "$d/page.html" "$d/a.jsonl" "$d/b.jsonl" ;;
	merge) timed "$bm" merge -o "$d/merged.jsonl" "$d/a.jsonl" ;;
	esac
}

big=$((4 * n))
for size in "$n" "$big"; do
	mkdir "$tmp/$size"
	records "$tmp/$size/a.jsonl" "$size" 1
	records "$tmp/$size/b.jsonl" "$size" 1.01
	records "$tmp/$size/c.jsonl" "$size" 1.02
	store "$tmp/$size/store" "$size"
done
bytes=$(wc -c <"$tmp/$n/a.jsonl")
echo "$prog: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(date -u +%Y-%m-%d), $bm"
echo "N = $n and 4N = $big records of distinct figures ($((bytes / n)) bytes each); each time the median of 3 runs"
echo "ratio t(4N) / t(N): about 4 linear, about 16 quadratic"
printf '%-10s %10s %10s %7s\n' command "t(N) s" "t(4N) s" ratio
for c in $cmds; do
	run "$c" "$n"
	t_n=$t
	run "$c" "$big"
	printf '%-10s %10.3f %10.3f %7s\n' "$c" "$t_n" "$t" "$(awk -v a="$t_n" \
	    -v b="$t" 'BEGIN { if (a > 0) printf "%.1f", b / a; else print "-" }')"
done
