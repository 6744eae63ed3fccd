#!/bin/sh
# bench-flags-reach.sh: how far any flag rule that judges a figure by its
# own record of moves can reach, against the moves of recorded suite sets.
#
# Usage: scripts/bench/bench-flags-reach.sh SET SET...
#
# Each SET is a directory of one set of suite runs as benchmp-repeat
# --keep leaves it (SET/runN/HOST/*.jsonl, two runs or more).  A figure
# moved in a set where its runs' range is more than 3% of their mean (the
# move bench-flags.sh judges the flags against); each of its runs in that
# set counts as a moving figure-run.  The script prints, over all sets:
#
#  - the flags as recorded (the summary's count: noisy, bimodal, disagree,
#    contradicts, bound, budget), their precision and recall;
#  - "each figure's own share": every figure flagged in every run where
#    the share of the sets in which it moved is at least p, for each p
#    the sets give.  The shares are those of the same sets, so this is
#    better than any rule that gives a figure one flag from its past can
#    do on them: the highest precision at a recall of 95% or more is the
#    reach of such rules;
#  - "the other sets' share": each set's figures flagged by their share
#    of moving sets among the other sets (a rule with perfect memory of
#    the other sets and nothing of this one).
#
# Needs jq.  Not part of make bench: it reads sets recorded on a machine
# (doc/measurements.md gives the commands and the figures).
set -eu
LC_ALL=C
export LC_ALL

usage="usage: bench-flags-reach.sh SET SET..."
case ${1:-} in
-*)	echo "bench-flags-reach.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
esac
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-flags-reach.sh: SKIP: no jq" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-flags-reach.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One line a figure-run: set, run, name, value, flagged (0/1).
s=0
for d; do
	s=$((s + 1))
	[ -d "$d" ] || { echo "bench-flags-reach.sh: $d: not a directory" >&2; exit 2; }
	r=0
	for f in "$d"/run*/*/*.jsonl; do
		[ -f "$f" ] || continue
		r=$((r + 1))
		# shellcheck disable=SC2016 # (jq's $set and $run)
		jq -r --arg set "$s" --arg run "$r" 'select(type == "object" and
		    (.values | type) == "array" and (.values | length) > 0 and
		    .suite.curve != true and .aggregate != false and
		    (.value | type) == "number") |
		    [$set, $run, (.suite.figure // (.tool + " " + (.case // ""))),
		     .value,
		     (if .noisy == true or .bimodal == true or
		       .disagree == true or ((.contradicts // []) | length) > 0 or
		       .interference.bound_hit == true or .budget_hit == true
		      then 1 else 0 end)] | map(tostring) | join("\t")' "$f" \
		    >>"$tmp/runs" ||
			{ echo "bench-flags-reach.sh: $f: not a record of JSON lines" >&2; exit 2; }
	done
	[ "$r" -ge 2 ] || { echo "bench-flags-reach.sh: $d: fewer than two runs (runN/HOST/*.jsonl)" >&2; exit 2; }
	echo "$s $r" >>"$tmp/sets"
done

awk -F'\t' -v nsets="$s" '
FNR == NR { split($0, w, " "); nruns[w[1]] = w[2]; next }
{
	k = $1 SUBSEP $3
	if (!(k in n)) { mn[k] = $4; mx[k] = $4 }
	n[k]++; sum[k] += $4; fl[k] += $5
	if ($4 < mn[k]) mn[k] = $4
	if ($4 > mx[k]) mx[k] = $4
	if (!($3 in fig)) nfig++
	fig[$3] = 1
}
# curve(TAG, KIND): for each share p the sets give, the figure-runs
# flagged where the figure share (KIND 0: of all sets; 1: of the other
# sets) is at least p, their precision and recall; then the highest
# precision at a recall of 95% or more.
function curve(tag, kind,    i, p, t, c, f, k, share, flagged, hit, best, line) {
	for (f in fig)
		if (kind == 0)
			ps[int(1000 * nmoved[f] / cnt[f] + 0.5) / 1000] = 1
		else
			for (k in set)
				if ((k, f) in moved)
					ps[cnt[f] > 1 ? int(1000 * (nmoved[f] - moved[k, f]) / (cnt[f] - 1) + 0.5) / 1000 : 0] = 1
	best = -1
	printf "%s\n", tag
	c = 0
	for (p in ps) th[++c] = p + 0
	# Highest share first.
	for (i = 1; i <= c; i++)
		for (t = i + 1; t <= c; t++)
			if (th[t] > th[i]) { p = th[i]; th[i] = th[t]; th[t] = p }
	for (i = 1; i <= c; i++) {
		flagged = hit = 0
		for (k in set)
			for (f in fig) {
				if (!((k, f) in moved))
					continue
				if (kind == 0)
					share = nmoved[f] / cnt[f]
				else if (cnt[f] > 1)
					share = (nmoved[f] - moved[k, f]) / (cnt[f] - 1)
				else
					share = 0
				if (int(1000 * share + 0.5) / 1000 >= th[i]) {
					flagged += n[k, f]
					hit += moved[k, f] * n[k, f]
				}
			}
		printf "  share >= %.2f: flagged %d (%.0f%%), precision %.0f%%, recall %.0f%%\n",
		    th[i], flagged, 100 * flagged / total, 100 * hit / flagged,
		    100 * hit / allmoved
		if (hit >= 0.95 * allmoved && 100 * hit / flagged > best)
			best = 100 * hit / flagged
	}
	printf "  at a recall of 95%% or more: precision %.0f%% at most\n", best
	delete ps; delete th
}
END {
	for (k in n) {
		split(k, w, SUBSEP)
		set[w[1]] = 1
		m = sum[k] / n[k]
		mv = m != 0 && (mx[k] - mn[k]) / (m < 0 ? -m : m) > 0.03
		moved[k] = mv; nmoved[w[2]] += mv; cnt[w[2]]++
		total += n[k]; allmoved += mv * n[k]
		rfl += fl[k]; rhit += mv * fl[k]
	}
	printf "%d sets, %d figures, %d figure-runs, of them moved >3%%: %d (%.0f%%)\n",
	    nsets, nfig, total, allmoved, 100 * allmoved / total
	printf "as recorded: flagged %d (%.0f%%), precision %.0f%%, recall %.0f%%\n",
	    rfl, 100 * rfl / total, rfl ? 100 * rhit / rfl : 0,
	    allmoved ? 100 * rhit / allmoved : 0
	if (allmoved == 0) {
		print "no figure moved more than 3%: nothing to reach"
		exit 0
	}
	curve("each figure'"'"'s own share of moving sets (better than any rule of its past):", 0)
	curve("the other sets'"'"' share (leave this set out):", 1)
}' "$tmp/sets" "$tmp/runs"
