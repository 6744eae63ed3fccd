#!/bin/sh
# bench-ab.sh: how often benchmp-ab catches a real, known regression (power)
# and how often it calls an unchanged arm changed (false alarms).
#
# Usage: scripts/bench/bench-ab.sh [--trials N] [--stress | --heavy] [--only FIGURE]
#                            [--budget S] [--targets LIST] [--modes LIST]
#                            [--threshold P] [--tunables T] [--search-only]
#                            [--cost C] BUILDDIR
#
# The regressions are real: an LD_PRELOAD library (tests/bench/ab-shim.c)
# runs a fixed dependent chain of multiplications (for lat_syscall below
# 2%, where ten multiplications cost 2.5 times that or more, of
# additions, written aN), then a fence, before
# getppid() (what lat_syscall null times), write() (twice in each of
# lat_pipe's round trips) or memmove() (each of bw_mem 8m bcopy's copies),
# and ab-hog (tests/bench/ab-hog.c) runs bw_mem on CPU 0 beside
# a process reading a 256 MB buffer on CPU 1 for a share of each
# millisecond.  Both arms run through the same shim or hog, A with no
# chain (or a duty of 0), B with the chain, so they differ by the cost
# alone.  Each cost is searched by long benchmp-ab runs (80 rounds, no
# early stop) until one gives the target within a quarter of it (at
# most four; where none does, a line on stderr says so and the nearest is
# taken); the trials' own median ratio says what the cost was.  Then N trials (default 20) of
# each condition, A/A among them, interleaved, each one benchmp-ab run of
# --budget seconds (default 10).  With --stress, stress-ng --cpu 1 runs
# beside everything; with --heavy, stress-ng --cpu 4 --vm 1 --vm-bytes
# 256m (a load average of about 5 on two CPUs).  FIGURE: lat_syscall,
# lat_pipe, bw_mem, bcopy or memmove (default the first three;
# lat_syscall at 3% and 5%, memmove at 10%, the others at 5%, or the
# fractions of --targets, as 0.01,0.05).
# bcopy is a real change of no searched cost: bw_mem 8m bcopy with
# glibc's memmove limited by GLIBC_TUNABLES (AVX2, unaligned AVX loads,
# ERMS and AVX-512 off) in B, which is faster by about 10% on an AMD EPYC
# guest; --tunables T gives B GLIBC_TUNABLES=T instead (another machine's
# real change: glibc.cpu.x86_non_temporal_threshold=0x10000 on an Intel
# Xeon guest, doc/measurements.md).  --modes classic,served runs each trial of each condition both
# as benchmp-ab's rounds (--no-calibrate, a rounds' option, selects
# them) and as its visits (--served, benchmp-sched's A/B, the default),
# one after the other.  --threshold P is the trials' benchmp-ab --threshold
# (percent, default 2: a change within it is "same" by definition).
# --search-only prints the conditions ("figure cost label" lines, the
# searched costs among them) and runs no trial (bench-sched.sh takes its
# chain from it).  --cost C takes C (links, or aN for additions) for the
# one target of --only's figure without a search: where the search's
# rounds cannot place a point as small as 1%, a cost the trials of an
# earlier run measured (their median ratio says what it gives now).
#
# Prints per condition: the cost, the median ratio over the trials, how
# many said worse, better, same and undecided, and the median wall time of
# a trial.  Part of make bench (make bench-ab alone).
set -eu
LC_ALL=C
export LC_ALL
# shellcheck source=scripts/benchmp-lib.sh
. "${0%/*}/../benchmp-lib.sh"

usage="usage: bench-ab.sh [--trials N] [--stress | --heavy] [--only FIGURE] [--budget S] [--targets LIST] [--modes LIST] [--threshold P] [--tunables T] [--search-only] [--cost C] BUILDDIR"
trials=20
tunables=glibc.cpu.hwcaps=-AVX2,-AVX_Fast_Unaligned_Load,-ERMS,-AVX512F
threshold=2
stress=0
only=
budget=10
targets_opt=
modes=served
search_only=0
cost_opt=
while [ $# -gt 0 ]; do
	case $1 in
	--trials) trials=${2:?$usage}; shift 2 ;;
	--stress) stress=1; shift ;;
	--heavy) stress=2; shift ;;
	--only) only=${2:?$usage}; shift 2 ;;
	--budget) budget=${2:?$usage}; shift 2 ;;
	--targets) targets_opt=$(echo "${2:?$usage}" | tr ',' ' '); shift 2 ;;
	--modes) modes=$(echo "${2:?$usage}" | tr ',' ' '); shift 2 ;;
	--threshold) threshold=${2:?$usage}; shift 2 ;;
	--tunables) tunables=${2:?$usage}; shift 2 ;;
	--search-only) search_only=1; shift ;;
	--cost) cost_opt=${2:?$usage}; shift 2 ;;
	-*) echo "bench-ab.sh: $1: unknown option" >&2; echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
case $trials in ''|*[!0-9]*) echo "bench-ab.sh: --trials: '$trials' is not a count" >&2; exit 2 ;; esac
case $tunables in
*[[:space:]]*) tunables= ;;
glibc.?*=?*) ;;
*) tunables= ;;
esac
[ -n "$tunables" ] || { echo "bench-ab.sh: --tunables: not glibc.NAME=VALUE[:...] without spaces" >&2; exit 2; }
for m in $modes; do
	case $m in classic | served) ;; *) echo "bench-ab.sh: --modes: '$m' is not classic or served" >&2; exit 2 ;; esac
done
for t in $targets_opt; do
	awk -v t="$t" 'BEGIN { exit !(t + 0 > 0 && t + 0 < 1) }' ||
		{ echo "bench-ab.sh: --targets: '$t' is not a fraction" >&2; exit 2; }
done
if [ -n "$cost_opt" ]; then
	case $only in
	lat_syscall | lat_pipe | bw_mem | memmove) ;;
	*) echo "bench-ab.sh: --cost needs --only lat_syscall, lat_pipe, bw_mem or memmove" >&2; exit 2 ;;
	esac
	[ "$(echo "$targets_opt" | awk '{ print NF }')" = 1 ] ||
		{ echo "bench-ab.sh: --cost needs one target (--targets)" >&2; exit 2; }
	awk -v c="${cost_opt#a}" 'BEGIN { exit !(c ~ /^[0-9]+(\.[0-9]+)?$/ && c + 0 > 0) }' ||
		{ echo "bench-ab.sh: --cost: '$cost_opt' is not a positive number (aN: additions)" >&2; exit 2; }
fi
build=$(cd "$1" && pwd)
bin=$build/bin
shim=$build/tests/bench/ab-shim.so
hog=$build/tests/bench/ab-hog
for f in "$bin/benchmp-ab" "$shim" "$hog"; do
	[ -e "$f" ] || { echo "bench-ab.sh: $f: not built (make bench-ab builds it)" >&2; exit 2; }
done
command -v jq >/dev/null 2>&1 || { echo "bench-ab.sh: SKIP: no jq" >&2; exit 77; }
if [ "$stress" != 0 ] && ! command -v stress-ng >/dev/null 2>&1; then
	echo "bench-ab.sh: SKIP: --stress and --heavy need stress-ng" >&2
	exit 77
fi
[ "$(nproc)" -ge 2 ] || { echo "bench-ab.sh: SKIP: bw_mem's hog needs two CPUs" >&2; exit 77; }
stress_pid=
# stress-ng, where started, goes with the temporary directory.
bm_at_exit() {
	[ -z "$stress_pid" ] || kill "$stress_pid" 2>/dev/null || :
}
prog=bench-ab.sh
bm_tmpdir bench-ab
# The tools themselves, not libtool's wrapper scripts (bm_programs), for
# the rounds: a wrapper's start costs tens of milliseconds of shell
# (benchmp-ab stays in bin).  The served mode's benchmp-sched starts the
# tools beside itself: the programs themselves, since the tools link
# libbenchmp in, a build's wrappers otherwise (--disable-static).
bm_programs "$bin" lat_syscall
PATH=$bm_bin:$bin:$PATH
export PATH

case $stress in
1) load=', beside stress-ng --cpu 1' ;;
2) load=', beside stress-ng --cpu 4 --vm 1 --vm-bytes 256m' ;;
*) load= ;;
esac
echo "bench-ab.sh: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(date -u +%Y-%m-%d), trials $trials, budget $budget s, threshold $threshold%, modes $modes$load"
if [ "$stress" = 1 ]; then
	stress-ng --cpu 1 --quiet >/dev/null 2>&1 &
	stress_pid=$!
elif [ "$stress" = 2 ]; then
	stress-ng --cpu 4 --vm 1 --vm-bytes 256m --quiet >/dev/null 2>&1 &
	stress_pid=$!
fi
# One calibration for every run, as benchmp-run does.
eval "$("$bin/enough" --export --all 2>/dev/null)"
export ENOUGH TIMING_O LOOP_O

# arms FIGURE COST: the prefixes of arm A (no cost) and arm B (COST) in
# $a and $b, and the command in $cmd.
arms() {
	case $1 in
	lat_syscall)
		a="env LD_PRELOAD=$shim AB_SHIM_ITERS=0"
		b="env LD_PRELOAD=$shim AB_SHIM_ITERS=$2"
		cmd="lat_syscall null" ;;
	lat_pipe)
		a="env LD_PRELOAD=$shim AB_SHIM_CALLS=write AB_SHIM_ITERS=0"
		b="env LD_PRELOAD=$shim AB_SHIM_CALLS=write AB_SHIM_ITERS=$2"
		cmd="lat_pipe" ;;
	bw_mem)
		a="$hog 0 1 taskset -c 0"
		b="$hog $2 1 taskset -c 0"
		cmd="bw_mem 8m rd" ;;
	memmove)
		a="env LD_PRELOAD=$shim AB_SHIM_CALLS=memmove AB_SHIM_ITERS=0"
		b="env LD_PRELOAD=$shim AB_SHIM_CALLS=memmove AB_SHIM_ITERS=$2"
		cmd="bw_mem 8m bcopy" ;;
	bcopy)
		a="env"
		if [ "$2" = 0 ]; then
			b="env"
		else
			b="env GLIBC_TUNABLES=$tunables"
		fi
		cmd="bw_mem 8m bcopy" ;;
	esac
}

# calibrate FIGURE COST: the effect of COST, as a ratio B/A over
# $cal_rounds rounds with no early stop.
cal_rounds=80
calibrate() {
	arms "$1" "$2"
	# shellcheck disable=SC2086
	benchmp-ab --json --no-calibrate --min-rounds "$cal_rounds" \
	    --max-rounds "$cal_rounds" \
	    --budget 600 --a "$a" --b "$b" $cmd | jq -r '.ratio'
}

# next_cost FIGURE TARGET POINTS: the next cost to try for TARGET (0.05
# for 5%) from the file POINTS of "cost effect" lines (the effect a
# fraction, a bandwidth's drop counted as positive): between the two
# nearest points that bracket it, linearly; else scaled from the nearest
# point (four times the cost where none had an effect).  A whole count of
# links for the shim, a duty of three decimals (at most 1) for the hog.
next_cost() {
	awk -v t="$2" -v f="$1" '
	{ c[NR] = $1; e[NR] = $2 }
	END {
		lo = hi = best = 0
		# The dearest cost below the target and the cheapest above it:
		# the effect grows with the cost, and where the noise of a
		# calibration says otherwise the interval between them is halved.
		for (i = 1; i <= NR; i++) {
			if (e[i] <= t && (!lo || c[i] > c[lo])) lo = i
			if (e[i] > t && (!hi || c[i] < c[hi])) hi = i
			if (!best || (e[i] - t) ^ 2 < (e[best] - t) ^ 2) best = i
		}
		if (lo && hi && e[hi] > e[lo] && c[hi] > c[lo])
			x = c[lo] + (c[hi] - c[lo]) * (t - e[lo]) / (e[hi] - e[lo])
		else if (lo && hi)
			x = (c[lo] + c[hi]) / 2
		else if (e[best] > 0)
			x = c[best] * t / e[best]
		else
			x = 4 * c[best]
		if (f == "bw_mem") { if (x > 1) x = 1; printf "%.3f\n", x }
		else printf "%d\n", x < 1 ? 1 : x + 0.5
	}' "$3"
}

# search FIGURE TARGET [UNIT]: the cost whose calibrated effect is
# nearest TARGET, after at most four calibrations, each point kept in
# $tmp/points.FIGURE.UNIT for the next target.  A short chain costs less a
# link than a long one (out-of-order execution hides it), so the cost is
# searched, not scaled once.  UNIT a: lat_syscall's chain of additions
# (a cycle a link), its costs written aN, as the shim reads them.
search() {
	pts=$tmp/points.$1.${3:-}
	[ -e "$pts" ] || : >"$pts"
	k=0
	while [ "$k" -lt 4 ]; do
		c=$(next_cost "$1" "$2" "$pts")
		if ! awk -v c="$c" '$1 == c { found = 1 } END { exit !found }' "$pts"; then
			r=$(calibrate "$1" "${3:-}$c")
			echo "bench-ab.sh: $1: cost ${3:-}$c gave B/A $r over $cal_rounds rounds" >&2
			effect "$1" "$c" "$r" >>"$pts"
		fi
		awk -v c="$c" -v t="$2" '$1 == c { d = $2 - t; if (d < 0) d = -d
		    exit !(d <= t / 4) }' "$pts" && break
		k=$((k + 1))
	done
	# The nearest cost; where none came within a quarter of the target (a
	# load that hides a short chain's cost in its noise), said so.
	awk -v t="$2" -v f="$1" -v u="${3:-}" '{ d = $2 - t; if (d < 0) d = -d
	    if (NR == 1 || d < bd) { bd = d; bc = $1; be = $2 } }
	    END {
		if (bd > t / 4)
			printf "bench-ab.sh: %s: no cost came within a quarter of %+.2f%%; the nearest, cost %s%s, gave %+.2f%%: its trials test that\n", f, t * 100, u, bc, be * 100 > "/dev/stderr"
		print u bc
	    }' "$pts"
}

# effect FIGURE COST RATIO: the "cost effect" line of a calibration.
effect() {
	awk -v c="$2" -v r="$3" -v f="$1" 'BEGIN {
		printf "%s %.6f\n", c, f == "bw_mem" || f == "memmove" ? 1 - r : r - 1 }'
}

# The conditions: "figure cost label" lines, A/A first.
: >"$tmp/conds"
for fig in lat_syscall lat_pipe bw_mem bcopy memmove; do
	if [ -z "$only" ]; then
		[ "$fig" != bcopy ] && [ "$fig" != memmove ] || continue
	elif [ "$only" != "$fig" ]; then
		continue
	fi
	if [ "$fig" = bcopy ]; then
		echo "$fig 0 A/A" >>"$tmp/conds"
		echo "$fig 1 tunables" >>"$tmp/conds"
		continue
	fi
	if [ -n "$cost_opt" ]; then
		echo "$fig 0 A/A" >>"$tmp/conds"
		echo "$fig $cost_opt +$(awk -v t="$targets_opt" 'BEGIN { print t * 100 }')%" >>"$tmp/conds"
		continue
	fi
	case $fig in
	lat_syscall) c0=10 ;;
	lat_pipe) c0=1000 ;;
	bw_mem) c0=0.2 ;;
	memmove) c0=20000 ;;
	esac
	r0=$(calibrate "$fig" "$c0")
	echo "bench-ab.sh: $fig: cost $c0 gave B/A $r0 over $cal_rounds rounds"
	effect "$fig" "$c0" "$r0" >"$tmp/points.$fig."
	echo "$fig 0 A/A" >>"$tmp/conds"
	targets="0.05"
	[ "$fig" != lat_syscall ] || targets="0.03 0.05"
	[ "$fig" != memmove ] || targets="0.10"
	[ -z "$targets_opt" ] || targets=$targets_opt
	for t in $targets; do
		# Below 2% a multiplication's link can be too coarse for
		# getppid() (one +0.2-0.5%, two +1.6% on an 86 ns call of a Xeon
		# guest): additions there, about 0.4% a link.  Where the first
		# calibration's ten links gave less than 2.5 times the target
		# (+0.18% on a 1.1 us call of an EPYC guest, whose additions
		# gave nothing measurable), a link is fine enough: multiplications.
		unit=
		[ "$fig" != lat_syscall ] ||
		    ! awk -v t="$t" -v r="$r0" 'BEGIN { exit !(t < 0.02 && r - 1 >= 2.5 * t) }' ||
		    unit=a
		c=$(search "$fig" "$t" "$unit")
		echo "$fig $c +$(awk -v t="$t" 'BEGIN { print t * 100 }')%" >>"$tmp/conds"
	done
done
[ -n "$only" ] && ! grep -q . "$tmp/conds" &&
	{ echo "bench-ab.sh: --only: '$only' is not lat_syscall, lat_pipe, bw_mem, bcopy or memmove" >&2; exit 2; }
if [ "$search_only" = 1 ]; then
	cat "$tmp/conds"
	exit 0
fi

# The conditions in each mode: "figure cost label mode" lines.
: >"$tmp/runs"
while read -r fig cost label; do
	for m in $modes; do
		echo "$fig $cost $label $m" >>"$tmp/runs"
	done
done <"$tmp/conds"

# The trials, the conditions and modes interleaved: trial i of each
# before i + 1.
i=1
while [ "$i" -le "$trials" ]; do
	n=0
	while read -r fig cost label mode; do
		n=$((n + 1))
		arms "$fig" "$cost"
		if [ "$mode" = served ]; then
			how=--served
		else
			how=--no-calibrate
		fi
		s=$(date +%s.%N)
		# shellcheck disable=SC2086
		benchmp-ab --json "$how" --budget "$budget" --threshold "$threshold" \
		    --a "$a" --b "$b" $cmd >"$tmp/out" 2>"$tmp/err" </dev/null || :
		e=$(date +%s.%N)
		jq -r --arg n "$n" --arg w "$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')" \
		    '"\($n) \(.verdict) \(.ratio) \($w)"' "$tmp/out" >>"$tmp/trials" ||
			{ echo "bench-ab.sh: $fig $label $mode: $(head -n 1 "$tmp/err")" >&2; exit 1; }
	done <"$tmp/runs"
	i=$((i + 1))
done

# The table: per condition, the median ratio and wall time (benchmp-stats
# computes them), and the count of each verdict.
printf '%-12s %-9s %-7s %-7s %8s %6s %6s %6s %9s %8s\n' figure label cost mode ratio worse better same undecided wall_s
n=0
while read -r fig cost label mode; do
	n=$((n + 1))
	awk -v n="$n" '$1 == n' "$tmp/trials" >"$tmp/c"
	ratio=$(awk '{ print $3 }' "$tmp/c" | "$bin/benchmp-stats" | jq -r .median)
	wall=$(awk '{ print $4 }' "$tmp/c" | "$bin/benchmp-stats" | jq -r .median)
	awk -v fig="$fig" -v cost="$cost" -v label="$label" -v ratio="$ratio" \
	    -v wall="$wall" -v mode="$mode" '{ v[$2]++ }
	    END {
		printf "%-12s %-9s %-7s %-7s %8.4f %3d/%-2d %3d/%-2d %3d/%-2d %6d/%-2d %8.2f\n",
		    fig, label, cost, mode, ratio, v["worse"], NR, v["better"], NR,
		    v["same"], NR, v["undecided"], NR, wall
	    }' "$tmp/c"
done <"$tmp/runs"
