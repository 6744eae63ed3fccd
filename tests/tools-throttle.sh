#!/bin/sh
# tools-throttle.sh: a run throttled by a cgroup's CPU quota says so on
# stderr and in its record (a real cgroup, made here; root only).
. "$top_srcdir/tests/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "$me: SKIP: making a cgroup needs root" >&2
	exit 77
fi

# The hierarchy with the cpu controller: a cgroup v1 mount of "cpu", else
# the cgroup2 mount when its root hands the cpu controller to children.
mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break }
    $(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,cpu,/ { print $5; exit }' \
    /proc/self/mountinfo)
v=1
if [ -z "$mnt" ]; then
	mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break }
	    $(i + 1) == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	v=2
	if [ -z "$mnt" ] ||
	    ! grep -qw cpu "$mnt/cgroup.subtree_control" 2>/dev/null; then
		echo "$me: SKIP: no cgroup hierarchy with the cpu controller" \
		    "(v1 cpu mount, or cgroup2 with cpu in subtree_control)" >&2
		exit 77
	fi
fi
case $mnt in
*\\*)
	echo "$me: SKIP: the cgroup mount point $mnt has escaped bytes" >&2
	exit 77
	;;
esac
if ! cg=$(mktemp -d "$mnt/benchmp-test.XXXXXX" 2>/dev/null); then
	echo "$me: SKIP: cannot make a cgroup under $mnt" >&2
	exit 77
fi
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$tmp"' EXIT

# 1 ms of every 100 ms: one 2 ms interval (ENOUGH from lib.sh) cannot fit
# in a period, so the run is throttled unless the machine gives it less
# than 1% of a CPU anyway.
if [ "$v" = 1 ]; then
	echo 100000 >"$cg/cpu.cfs_period_us" &&
	    echo 1000 >"$cg/cpu.cfs_quota_us"
else
	echo "1000 100000" >"$cg/cpu.max"
fi || {
	echo "$me: SKIP: cannot set a CPU quota in $cg" >&2
	exit 77
}

# The tool in the cgroup: sh moves itself there, then execs the tool.
# shellcheck disable=SC2317 # called through run
in_cgroup() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
}

run in_cgroup "$bin/lat_syscall" --json -N 2 -W 0 null
throttled=$(awk '$1 == "nr_throttled" { print $2 }' "$cg/cpu.stat")
if [ "$rc" -ne 0 ]; then
	fail "lat_syscall in a 1% cgroup exited $rc: $(head -n 2 "$tmp/err")"
elif [ "${throttled:-0}" -eq 0 ]; then
	echo "$me: SKIP: the machine never let the run use its 1% quota" >&2
	exit 77
else
	grep -Eq "^lat_syscall: warning: the cgroup's CPU quota \(0\.01 CPUs\) throttled the run [1-9][0-9]* times for [0-9.]+ s: the figures may be too slow\$" \
	    "$tmp/err" || fail "no warning on stderr: '$(cat "$tmp/err")'"
	if have_jq; then
		jq -e --argjson t "$throttled" '.throttled.nr_throttled >= 1 and
		    .throttled.nr_throttled <= $t and
		    .throttled.throttled_s > 0 and .throttled.quota_cpus == 0.01' \
		    "$tmp/out" >/dev/null ||
			fail "record: $(jq -c .throttled "$tmp/out") (cgroup: $throttled)"
	else
		grep -q '"throttled":{"nr_throttled":[1-9]' "$tmp/out" ||
			fail "no throttled member in $(cut -c1-300 "$tmp/out")"
	fi
fi

# Without a quota nothing is throttled and nothing is said.
if [ "$v" = 1 ]; then
	echo -1 >"$cg/cpu.cfs_quota_us"
else
	echo "max 100000" >"$cg/cpu.max"
fi
before=$(awk '$1 == "nr_throttled" { print $2 }' "$cg/cpu.stat")
run in_cgroup "$bin/lat_syscall" --json -N 2 -W 0 null
after=$(awk '$1 == "nr_throttled" { print $2 }' "$cg/cpu.stat")
if [ "$rc" -ne 0 ]; then
	fail "lat_syscall without a quota exited $rc: $(head -n 2 "$tmp/err")"
elif [ "$before" = "$after" ]; then
	! grep -q "quota" "$tmp/err" || fail "a warning without a quota: $(cat "$tmp/err")"
	! grep -q '"throttled"' "$tmp/out" ||
		fail "a throttled member without a quota: $(cut -c1-300 "$tmp/out")"
fi
no_children
finish
