#!/bin/sh
# bench-frontier.sh: what the served figures' noisy flag can reach on
# recorded suite sets, and what no flag computed within one run can.
#
# Usage: scripts/bench/bench-frontier.sh [--floors "F..."] BUILDDIR SET SET...
#
# Each SET is a directory of one set of suite runs of the same code, as
# `benchmp repeat --keep SET` leaves it (SET/run*/HOST/*.jsonl).  For the
# served figures (a record with "served": true, in every run of its set;
# not a curve's point, as bench-flags.sh counts them)
# it prints one line a floor F (default 0.02, the library's
# BM__SERVED_FLOOR, and wider ones): the share flagged, the flag's
# precision and recall against a move of more than 3% within the set
# (its runs' range over their mean, as bench-flags.sh counts it), and
# how often the next run fell inside the previous run's interval.  The
# interval and the flag are the library's (bm__stats_next_run, through
# BUILDDIR/tests/bench/rederive -n F): each side of the median's
# interval twice over and F of the median, added in quadrature; noisy
# past 3% on either side, or bimodal.
#
# Then lines that no run can compute for itself, for comparison:
# "history T" flags a figure when it moved by more than 3% in more than
# the share T of the other sets, as a store of this machine's earlier
# suites could; "history T or F" flags it when either that or the
# floor's rule does.  The first bounds what a figure's identity
# alone predicts, the second what a machine's history would add.
# Not part of make bench, which has no such sets: it reads sets recorded
# on the machine, and doc/measurements.md quotes what it printed there.
set -eu
LC_ALL=C
export LC_ALL
usage='usage: bench-frontier.sh [--floors "F..."] BUILDDIR SET SET...'
floors="0.02 0.025 0.03"
while [ $# -gt 0 ]; do
	case $1 in
	--floors) floors=${2:?$usage}; shift 2 ;;
	-*) echo "bench-frontier.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
rederive=$1/tests/bench/rederive
shift
[ -x "$rederive" ] || { echo "bench-frontier.sh: $rederive: not built (make bench builds it)" >&2; exit 2; }
for f in $floors; do
	case $f in
	0.*[!0-9]* | 0.) echo "bench-frontier.sh: floor '$f' is not a fraction below 1" >&2; exit 2 ;;
	0.[0-9]*) ;;
	*) echo "bench-frontier.sh: floor '$f' is not a fraction below 1" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null 2>&1 || { echo "bench-frontier.sh: SKIP: no jq" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-frontier.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One line a served figure a run: set, run, name, value, the median's
# interval, bimodal (1 or 0).
nset=0
for set; do
	nset=$((nset + 1))
	run=0
	for dir in "$set"/run*/; do
		[ -d "$dir" ] || continue
		run=$((run + 1))
		for f in "$dir"*/*.jsonl; do
			[ -r "$f" ] || continue
			# shellcheck disable=SC2016 # (jq's $names)
			jq -r --arg set "$nset" --arg run "$run" '
			    select(type == "object" and .served == true and
			    .suite.curve != true and .aggregate != false and
			    (.values | type) == "array" and
			    (.value | type) == "number" and
			    (.median_ci_lo | type) == "number" and
			    (.median_ci_hi | type) == "number") |
			    [$set, $run,
			     (.suite.figure // (.tool + " " + (.case // ""))),
			     .value, .median_ci_lo, .median_ci_hi,
			     (if .bimodal == true then 1 else 0 end)] |
			    map(tostring) | join("\t")' "$f" >>"$tmp/in" ||
			    { echo "bench-frontier.sh: $f: cannot read it" >&2; exit 1; }
		done
	done
	[ "$run" -ge 2 ] || { echo "bench-frontier.sh: $set: fewer than two runs" >&2; exit 2; }
done
[ -s "$tmp/in" ] || { echo "bench-frontier.sh: no served figures in these sets" >&2; exit 1; }

# Each floor's next-run intervals and flags beside the figures: in.F.
for f in $floors; do
	cut -f4-6 "$tmp/in" | "$rederive" -n "$f" >"$tmp/nr" ||
		{ echo "bench-frontier.sh: rederive -n $f failed" >&2; exit 1; }
	paste "$tmp/in" "$tmp/nr" >"$tmp/in.$f"
done

# frontier TAG FLOOR T FILE: the line of one rule on in.FILE (columns:
# set, run, name, value, the median's interval, bimodal, then the
# next-run interval and noisy): the floor's flag when FLOOR is not "-",
# and the history's when T is not "-" (the figure moved by more than 3%
# in more than the share T of the other sets); either of them when
# both.
frontier() {
	awk -F'\t' -v tag="$1" -v usefloor="$([ "$2" = - ] && echo 0 || echo 1)" \
	    -v t="$3" -v nset="$nset" '
	{
		k = $1 SUBSEP $3
		if (!(k in runs)) key[++nk] = k
		runs[k]++
		val[k, $2] = $4; bim[k, $2] = $7
		lo[k, $2] = $8; hi[k, $2] = $9; nz[k, $2] = $10
		if ($2 > maxrun[$1]) maxrun[$1] = $2
	}
	END {
		# The figures in every run of their set, and whether they moved.
		for (i = 1; i <= nk; i++) {
			k = key[i]; split(k, p, SUBSEP)
			if (runs[k] != maxrun[p[1]]) continue
			n = runs[k]; sum = 0; mn = mx = val[k, 1]
			for (r = 1; r <= n; r++) {
				v = val[k, r]; sum += v
				if (v < mn) mn = v
				if (v > mx) mx = v
			}
			if (sum <= 0) continue
			ok[k] = 1
			moved[k] = (mx - mn) / (sum / n) > 0.03
			nsets[p[2]]++; nmoved[p[2]] += moved[k]
		}
		tp = fp = fn = tot = fls = ins = pairs = 0
		for (i = 1; i <= nk; i++) {
			k = key[i]
			if (!(k in ok)) continue
			split(k, p, SUBSEP); n = runs[k]
			h = 0
			if (t != "-") {
				oth = nsets[p[2]] - 1
				h = oth > 0 && (nmoved[p[2]] - moved[k]) / oth > t + 0
			}
			for (r = 1; r <= n; r++) {
				flag = h
				if (usefloor)
					flag = flag || nz[k, r] == 1 || bim[k, r] == 1
				tot++; fls += flag
				if (flag && moved[k]) tp++
				else if (flag) fp++
				else if (moved[k]) fn++
				if (usefloor && r < n) {
					pairs++
					ins += (lo[k, r] <= val[k, r + 1] && \
					    val[k, r + 1] <= hi[k, r])
				}
			}
		}
		prec = tp + fp > 0 ? 100 * tp / (tp + fp) : 0
		rec = tp + fn > 0 ? 100 * tp / (tp + fn) : 0
		printf "%-24s flagged %4.1f%%  precision %4.1f%%  recall %4.1f%%",
		    tag, 100 * fls / tot, prec, rec
		if (pairs > 0)
			printf "  next run inside %4.1f%%", 100 * ins / pairs
		printf "  (%d figure runs, %d sets)\n", tot, nset
	}' "$tmp/in.$4"
}

first=
for f in $floors; do
	[ -n "$first" ] || first=$f
	frontier "floor $f" "$f" - "$f"
done
for t in 0.25 0.50; do
	frontier "history $t" - "$t" "$first"
	frontier "history $t or $first" "$first" "$t" "$first"
done
