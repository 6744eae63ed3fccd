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
# past 3% on either side, or bimodal.  The library also stops the
# interval 2% beyond the figure's least and greatest values
# (record-decide.c, decide_reach); the floors here are read without it.
#
# Then, over the same figure runs:
#  - "recorded": the flags the records carry (noisy, bimodal, disagree,
#    contradicts, bound or budget met: the summary's count);
#  - "every figure": all of them flagged, the share that moved;
#  - "history T" flags a figure when it moved by more than 3% in more
#    than the share T of the other sets, as a store of this machine's
#    earlier suites could, for each T the sets give; "history T or F"
#    when either that or the first floor's rule does.  They bound what
#    a figure's identity alone predicts, and what a machine's history
#    would add;
#  - "own T" flags a figure when it moved in more than the share T of
#    all the sets, its own included: no rule can know that before the
#    runs, so it is better than any rule that gives a figure its flag
#    from its record, past or present;
#  - the highest precision each kind of rule reaches at a recall of 95%
#    or more ("every figure" when none of its lines does).
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
prog=bench-frontier.sh
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"
bm_tmpdir bench-frontier

# One line a served figure a run: set, run, name, value, the median's
# interval, bimodal and recorded flags (1 or 0).
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
			     (if .bimodal == true then 1 else 0 end),
			     (if .noisy == true or .bimodal == true or
			       .disagree == true or
			       ((.contradicts // []) | length) > 0 or
			       .interference.bound_hit == true or
			       .budget_hit == true then 1 else 0 end)] |
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

# frontier FILE [FLOOR]: the lines of the rules on in.FILE (columns:
# set, run, name, value, the median's interval, bimodal, recorded flags,
# then the next-run interval and noisy).  With FLOOR, the floor's line
# alone; with none, the other rules', the floor's flag being FILE's.
frontier() {
	awk -F'\t' -v floor="${2:-}" -v first="$1" -v nset="$nset" '
	{
		k = $1 SUBSEP $3
		if (!(k in runs)) key[++nk] = k
		runs[k]++
		val[k, $2] = $4; bim[k, $2] = $7; rec[k, $2] = $8
		lo[k, $2] = $9; hi[k, $2] = $10; nz[k, $2] = $11
		if ($2 > maxrun[$1]) maxrun[$1] = $2
	}
	# share(V): V rounded to a thousandth, so that equal shares compare
	# equal.
	function share(v) { return int(1000 * v + 0.5) / 1000 }
	# line(TAG, RULE, T, USEFLOOR): the line of one rule: "history" or
	# "own" past the share T, "recorded", "every" or "none"; or the
	# floor flag too when USEFLOOR.  Its precision and recall are
	# kept in best[] by kind, for the reach at a recall of 95%.
	function line(tag, rule, t, usefloor,    i, k, n, r, h, flag,
	    tp, fp, fn, tot, fls, ins, pairs, prec, recall, kind) {
		tp = fp = fn = tot = fls = ins = pairs = 0
		for (i = 1; i <= nk; i++) {
			k = key[i]
			if (!(k in ok)) continue
			n = runs[k]
			h = 0
			if (rule == "history")
				h = oth[k] > t + 0
			else if (rule == "own")
				h = own[k] > t + 0
			else if (rule == "every")
				h = 1
			for (r = 1; r <= n; r++) {
				flag = h || (rule == "recorded" && rec[k, r] == 1)
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
		recall = tp + fn > 0 ? 100 * tp / (tp + fn) : 0
		printf "%-24s flagged %4.1f%%  precision %4.1f%%  recall %4.1f%%",
		    tag, 100 * fls / tot, prec, recall
		if (pairs > 0)
			printf "  next run inside %4.1f%%", 100 * ins / pairs
		printf "  (%d figure runs, %d sets)\n", tot, nset
		kind = rule (usefloor ? " or floor" : "")
		if (tp + fn > 0 && tp >= 0.95 * (tp + fn) &&
		    (!(kind in best) || prec > best[kind]))
			best[kind] = prec
		if (rule == "every") everyprec = prec
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
		if (floor != "") {
			line("floor " floor, "none", 0, 1)
			exit 0
		}
		# The shares of each figure in a set, and the thresholds they
		# give: every share but the highest (past it nothing is
		# flagged).
		for (k in ok) {
			split(k, p, SUBSEP)
			c = nsets[p[2]] - 1
			oth[k] = c > 0 ? share((nmoved[p[2]] - moved[k]) / c) : 0
			own[k] = share(nmoved[p[2]] / nsets[p[2]])
			ht[oth[k]] = 1; ot[own[k]] = 1
		}
		line("recorded", "recorded", 0, 0)
		line("every figure", "every", 0, 0)
		nh = sorted(ht, hs); no = sorted(ot, os)
		for (i = 1; i < nh; i++)
			line(sprintf("history %.2f", hs[i]), "history", hs[i], 0)
		for (i = 1; i < nh; i++)
			line(sprintf("history %.2f or %s", hs[i], first),
			    "history", hs[i], 1)
		for (i = 1; i < no; i++)
			line(sprintf("own %.2f", os[i]), "own", os[i], 0)
		printf "at a recall of 95%% or more, the highest precision:"
		printf " history %s, history or floor %s %s, own %s\n",
		    reach("history"), first, reach("history or floor"),
		    reach("own")
	}
	# sorted(SET, OUT): the keys of SET in OUT[1..n], lowest first; n.
	function sorted(set, out,    n, v, i, j, t) {
		n = 0
		for (v in set) out[++n] = v + 0
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && out[j - 1] > out[j]; j--) {
				t = out[j]; out[j] = out[j - 1]; out[j - 1] = t
			}
		return n
	}
	# reach(KIND): the best precision of KIND at a recall of 95%, or
	# that of flagging every figure.
	function reach(kind) {
		if (kind in best)
			return sprintf("%.1f%%", best[kind])
		return sprintf("%.1f%% (every figure)", everyprec)
	}' "$tmp/in.$1"
}

first=
for f in $floors; do
	[ -n "$first" ] || first=$f
	frontier "$f" "$f"
done
frontier "$first"
