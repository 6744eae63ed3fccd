#!/bin/sh
# scripts-no-stats.sh: no script computes a median, a quantile, a spread
# or an interval in awk, jq or sh: they all come from benchmp-stats, the
# library's one implementation.
. "$top_srcdir/tests/lib.sh"

# stats_lines DIR: print "FILE:LINE: TEXT" for each line of the files in
# DIR that computes a statistic itself, comment lines apart: the middle
# of a sorted list (a subscript halved, the parity of a count), a rank
# scaled by the count (a quantile), awk's asort, a square root (a
# standard deviation, a CV), a normal quantile (an interval) and the
# middle line of sorted output picked by sed, head or tail.
stats_lines() {
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		awk -v f="${f##*/}" '
		/^[ \t]*#/ { next }
		/[A-Za-z0-9_.)\]]\[[^][]*\/ *2([^0-9.]|$)/ ||
		/[A-Za-z] *% *2 *(==|\?)/ ||
		/[A-Za-z0-9_.)\]]\[[^][]*(length|NR)[^][]*\*/ ||
		/\(length *- *1\) *\*/ ||
		/asorti? *\(/ ||
		/sqrt/ ||
		/(^|[^0-9.])(1\.96|1\.645|2\.576)([^0-9]|$)/ ||
		/(sed -n|head -n|tail -n) *"?\$\(\(.*\/ *2/ {
			printf "%s:%d: %s\n", f, FNR, $0
		}' "$f"
	done
}

# The check catches each way a statistic was computed in the scripts
# before, and passes what is not one: comments, calls of benchmp-stats,
# halves in shell arithmetic and bit tests.
mkdir "$tmp/bad" "$tmp/good" || exit 99
cat >"$tmp/bad/awk-median" <<'EOF'
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
EOF
cat >"$tmp/bad/awk-median2" <<'EOF'
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
EOF
cat >"$tmp/bad/jq-median" <<'EOF'
  def med: sort | if length % 2 == 1 then .[length / 2 | floor]
EOF
cat >"$tmp/bad/jq-quantile" <<'EOF'
  def q($p): . as $a | ((length - 1) * $p | floor) as $i | $a[$i];
EOF
cat >"$tmp/bad/jq-quantile2" <<'EOF'
  (sort | .[length * 0.9 | floor]) as $p90 |
EOF
cat >"$tmp/bad/awk-cv" <<'EOF'
		cv = mean > 0 ? sqrt(ss / (n - 1)) / mean : 0
EOF
cat >"$tmp/bad/gawk-asort" <<'EOF'
	END { n = asort(v); print v[int((n + 1) / 2)] }
EOF
cat >"$tmp/bad/awk-interval" <<'EOF'
	lo = m - 1.96 * s; hi = m + 1.96 * s
EOF
cat >"$tmp/bad/sh-middle" <<'EOF'
med=$(sort -g "$f" | sed -n "$(( (n + 1) / 2 ))p")
EOF
cat >"$tmp/good/script" <<'EOF'
# The median is v[n / 2] of the sorted values, sqrt of the variance.
bm_stats --each --print=median,p25,cv <"$tmp/values" >"$tmp/stats"
[ "$l3" -le $((memmb * 1048576 / 2)) ] || l3=$((memmb * 1048576 / 2))
	if (d >= 0 && int(d / 2 ^ (bits[i] % 4)) % 2 == 1) {
	printf "%s interval %s%%\n", kind, lv
	mid = m > 0 ? hmid[r[3]] : 0
EOF
stats_lines "$tmp/good" >"$tmp/hits"
[ ! -s "$tmp/hits" ] ||
	fail "the check fires on lines that compute nothing: $(cat "$tmp/hits")"
for f in "$tmp"/bad/*; do
	stats_lines "$tmp/bad" | grep -q "^${f##*/}:1: " ||
		fail "the check misses ${f##*/}: $(cat "$f")"
done

# The scripts themselves, and make bench's.
{ stats_lines "$top_srcdir/scripts"; stats_lines "$top_srcdir/scripts/bench"; } \
    >"$tmp/hits"
[ ! -s "$tmp/hits" ] ||
	fail "scripts compute statistics themselves (use benchmp-stats):
$(cat "$tmp/hits")"

finish
