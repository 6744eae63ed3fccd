#!/bin/sh
# bench-frontier.sh: what the served figures' noisy flag can reach on
# recorded suite sets, and what no flag computed within one run can.
#
# Usage: scripts/bench/bench-frontier.sh [--floors "F..."] SET SET...
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
# interval is the library's next-run rule (bm__stats_next_run): each
# side of the median's interval twice over and F of the median, added
# in quadrature; noisy past 3% on either side, or bimodal.
#
# Then lines that no run can compute for itself, for comparison:
# "history T" flags a figure when it moved by more than 3% in more than
# the share T of the other sets, as a store of this machine's earlier
# suites could; "history T or F" flags it when either that or the
# floor's rule does.  The first bounds what a figure's identity
# alone predicts, the second what a machine's history would add.
# Part of make bench's evidence (doc/measurements.md).
set -eu
LC_ALL=C
export LC_ALL
usage='usage: bench-frontier.sh [--floors "F..."] SET SET...'
floors="0.02 0.025 0.03"
while [ $# -gt 0 ]; do
	case $1 in
	--floors) floors=${2:?$usage}; shift 2 ;;
	-*) echo "bench-frontier.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
for f in $floors; do
	case $f in
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

awk -F'\t' -v floors="$floors" -v nset="$nset" '
function abs(x) { return x < 0 ? -x : x }
{
	k = $1 SUBSEP $3
	if (!((k) in runs)) { key[++nk] = k }
	runs[k]++
	val[k, $2] = $4; clo[k, $2] = $5; chi[k, $2] = $6; bim[k, $2] = $7
	if ($2 > maxrun[$1]) maxrun[$1] = $2
}
END {
	# The figures in every run of their set: their mean and range.
	for (i = 1; i <= nk; i++) {
		k = key[i]; split(k, p, SUBSEP); s = p[1]
		if (runs[k] != maxrun[s]) continue
		n = runs[k]; sum = 0; mn = ""; mx = ""
		for (r = 1; r <= n; r++) {
			v = val[k, r]; sum += v
			if (mn == "" || v < mn) mn = v
			if (mx == "" || v > mx) mx = v
		}
		mean = sum / n
		if (mean <= 0) continue
		ok[k] = 1
		moved[k] = (mx - mn) / mean > 0.03
		name = p[2]
		nsets[name]++; nmoved[name] += moved[k]
	}
	nf = split(floors, fl, " ")
	for (j = 1; j <= nf; j++)
		judge(sprintf("floor %s", fl[j]), fl[j], -1)
	for (t = 0.25; t <= 0.51; t += 0.25) {
		judge(sprintf("history %.2f", t), -1, t)
		judge(sprintf("history %.2f or %s", t, fl[1]), fl[1], t)
	}
}
# Flag each figure of each run by the floor rule (f >= 0) and by its
# moves in the other sets (t >= 0: in more than that share of them);
# print the counts.
function judge(tag, f, t,    i, k, p, n, r, m, lo, hi, flag, tp, fp, fn, tot, fls, ins, pairs, name, oth, h, wl, wh, prec, rec) {
	tp = fp = fn = tot = fls = ins = pairs = 0
	for (i = 1; i <= nk; i++) {
		k = key[i]
		if (!(k in ok)) continue
		split(k, p, SUBSEP); name = p[2]; n = runs[k]
		h = 0
		if (t >= 0) {
			oth = nsets[name] - 1
			h = oth > 0 && (nmoved[name] - moved[k]) / oth > t
		}
		for (r = 1; r <= n; r++) {
			m = val[k, r]
			wl = m - clo[k, r]; wh = chi[k, r] - m
			lo = sqrt(2 * wl ^ 2 + (f * m) ^ 2)
			hi = sqrt(2 * wh ^ 2 + (f * m) ^ 2)
			flag = h
			if (f >= 0)
				flag = flag || lo > 0.03 * abs(m) || \
				    hi > 0.03 * abs(m) || bim[k, r] == 1
			tot++; fls += flag
			if (flag && moved[k]) tp++
			else if (flag) fp++
			else if (moved[k]) fn++
			if (f >= 0 && r < n) {
				pairs++
				ins += (m - lo <= val[k, r + 1] && \
				    val[k, r + 1] <= m + hi)
			}
		}
	}
	prec = tp + fp > 0 ? 100 * tp / (tp + fp) : 0
	rec = tp + fn > 0 ? 100 * tp / (tp + fn) : 0
	printf "%-24s flagged %4.1f%%  precision %4.1f%%  recall %4.1f%%", tag,
	    100 * fls / tot, prec, rec
	if (pairs > 0)
		printf "  next run inside %4.1f%%", 100 * ins / pairs
	printf "  (%d figure runs, %d sets)\n", tot, nset
}' "$tmp/in"
