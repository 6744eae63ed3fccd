#!/bin/sh
# scripts-check.sh: benchmp-check (benchmp check under its old name) on
# fake /proc and /sys trees (--root), every check's ok and warn (and info)
# branch and missing files, bad options, and a real run on this machine
# (the JSON's shape only).
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
chk=$top_srcdir/scripts/benchmp-check
tab=$(printf '\t')

# put ROOT FILE LINE...: write the lines to ROOT/FILE, making its directory.
put() {
	pr=$1
	pf=$2
	shift 2
	mkdir -p "$(dirname "$pr/$pf")" && printf '%s\n' "$@" >"$pr/$pf" ||
		fail "cannot write $pr/$pf"
}

# stat_lines STEAL BUSY: a /proc/stat of four CPUs, each with BUSY ticks
# of which STEAL are steal, 1000 idle, and one task running (the reader).
stat_lines() {
	u=$(($2 - $1))
	printf 'cpu  %d 0 0 4000 0 0 0 %d 0 0\n' $((4 * u)) $((4 * $1))
	for c in 0 1 2 3; do
		printf 'cpu%d %d 0 0 1000 0 0 0 %d 0 0\n' "$c" "$u" "$1"
	done
	printf 'procs_running 1\nprocs_blocked 0\n'
}

# good ROOT: a machine on which every check is ok: four CPUs usable, the
# performance governor, boost off, SMT siblings outside the mask, no load,
# no steal, a probe in which a busy loop ran the whole second, bare metal,
# intel_idle, THP madvise, full ASLR, perf_event_paranoid 2, the TSC, and
# a cgroup v2 without a CPU quota.
good() {
	r=$1
	put "$r" proc/self/status "Name:${tab}sh" "Cpus_allowed_list:${tab}0-3" \
	    "CapEff:${tab}0000000000000000"
	for c in 0 1 2 3; do
		put "$r" "sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor" performance
		put "$r" "sys/devices/system/cpu/cpu$c/topology/thread_siblings_list" "$c,$((c + 4))"
	done
	put "$r" sys/devices/system/cpu/cpu0/cpufreq/scaling_driver acpi-cpufreq
	put "$r" sys/devices/system/cpu/cpufreq/boost 0
	put "$r" proc/loadavg '0.05 0.10 0.20 1/100 1234'
	stat_lines 0 1000 >"$r/proc/stat"
	put "$r" proc/uptime '100.00 350.00'
	put "$r" proc/self/schedstat '1000 0 5'
	put "$r" proc/cpuinfo "processor${tab}: 0" "flags${tab}${tab}: fpu sse2 avx2"
	put "$r" sys/class/dmi/id/sys_vendor 'Dell Inc.'
	put "$r" sys/class/dmi/id/product_name 'PowerEdge R640'
	put "$r" sys/devices/system/cpu/cpuidle/current_driver intel_idle
	put "$r" sys/devices/system/cpu/cpuidle/current_governor_ro menu
	put "$r" sys/kernel/mm/transparent_hugepage/enabled 'always [madvise] never'
	put "$r" proc/sys/kernel/randomize_va_space 2
	put "$r" proc/sys/kernel/perf_event_paranoid 2
	put "$r" sys/devices/system/clocksource/clocksource0/current_clocksource tsc
	put "$r" sys/devices/system/clocksource/clocksource0/available_clocksource 'tsc hpet acpi_pm'
	put "$r" proc/self/cgroup '0::/bench'
	put "$r" proc/self/mountinfo \
	    '22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	    '30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw'
	put "$r" sys/fs/cgroup/cgroup.controllers 'cpuset cpu io memory pids'
	put "$r" sys/fs/cgroup/bench/cpu.max 'max 100000'
	put "$r" sys/fs/cgroup/bench/cpu.stat 'usage_usec 100' \
	    'nr_periods 0' 'nr_throttled 0' 'throttled_usec 0'
	# The probe's end, one second later: 100 busy ticks more on each
	# CPU, none stolen; the busy loop ran 1 s and waited 1 ms.
	e=$r/probe-end
	put "$e" proc/uptime '101.00 353.00'
	stat_lines 0 1100 >"$e/proc/stat"
	put "$e" proc/self/schedstat '1000001000 1000000 9'
	put "$e" sys/fs/cgroup/bench/cpu.stat 'usage_usec 1000100' \
	    'nr_periods 0' 'nr_throttled 0' 'throttled_usec 0'
}

# bad ROOT: a machine on which every check warns (virtualisation: info).
bad() {
	r=$1
	good "$r"
	for c in 0 1; do
		put "$r" "sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor" powersave
	done
	put "$r" sys/devices/system/cpu/intel_pstate/no_turbo 0
	for c in 0 1 2 3; do
		put "$r" "sys/devices/system/cpu/cpu$c/topology/thread_siblings_list" \
		    "$((c / 2 * 2))-$((c / 2 * 2 + 1))"
	done
	put "$r" proc/loadavg '2.50 1.00 0.50 3/100 1234'
	stat_lines 50 1000 >"$r/proc/stat"
	stat_lines 60 1100 >"$r/probe-end/proc/stat"
	put "$r" probe-end/proc/self/schedstat '900001000 100000000 9'
	put "$r" proc/cpuinfo "processor${tab}: 0" "flags${tab}${tab}: fpu sse2 hypervisor avx2"
	put "$r" sys/devices/system/cpu/cpuidle/current_driver haltpoll
	put "$r" sys/devices/system/cpu/cpuidle/current_governor_ro haltpoll
	put "$r" sys/kernel/mm/transparent_hugepage/enabled '[always] madvise never'
	put "$r" proc/sys/kernel/randomize_va_space 0
	put "$r" proc/sys/kernel/perf_event_paranoid 3
	put "$r" sys/devices/system/clocksource/clocksource0/current_clocksource hpet
	put "$r" sys/devices/system/clocksource/clocksource0/available_clocksource 'hpet acpi_pm'
	put "$r" sys/fs/cgroup/bench/cpu.max '10000 100000'
	put "$r" sys/fs/cgroup/bench/cpu.stat 'nr_periods 50' 'nr_throttled 5' \
	    'throttled_usec 900'
	put "$r" probe-end/sys/fs/cgroup/bench/cpu.stat 'nr_periods 60' \
	    'nr_throttled 9' 'throttled_usec 9000'
}

# checkon ROOT [OPTIONS...]: run benchmp-check --json on ROOT; its output
# is in $tmp/out.
checkon() {
	r=$1
	shift
	one_line "$chk" --json --root "$r" "$@" || return 0
	jq -e '.checks | length == 14' "$tmp/out" >/dev/null ||
		fail "--root $r: not 14 checks: $(cat "$tmp/out")"
}

# expect NAME STATUS PATTERN: the check NAME of the last run has STATUS
# and its "found" matches the extended regular expression PATTERN.
expect() {
	got=$(jq -r --arg n "$1" '.checks[] | select(.name == $n) |
	    .status + "\t" + .found' "$tmp/out")
	st=${got%%"$tab"*}
	found=${got#*"$tab"}
	if [ "$st" != "$2" ]; then
		fail "$1: status '$st', expected $2 ($found) [$what]"
	elif ! printf '%s\n' "$found" | grep -Eq -- "$3"; then
		fail "$1: found '$found' does not match '$3' [$what]"
	fi
}

# advice NAME PATTERN: the check NAME's advice matches PATTERN.
advice() {
	got=$(jq -r --arg n "$1" '.checks[] | select(.name == $n) | .advice' \
	    "$tmp/out")
	printf '%s\n' "$got" | grep -Eq -- "$2" ||
		fail "$1: advice '$got' does not match '$2' [$what]"
}

# Every check ok (virtualisation: bare metal).
what=good
good "$tmp/good"
checkon "$tmp/good"
expect governor ok '^performance on CPUs 0-3 \(driver acpi-cpufreq\)$'
expect boost ok 'boost off'
expect smt ok 'outside the affinity mask'
expect load ok '^load average 0\.05 0\.10 0\.20 .*; 0 other tasks runnable'
expect steal ok '0\.00% of the busy time of CPUs 0-3 since boot'
expect probe-steal ok '0\.00% .* during a 1\.00 s probe$'
expect runqueue ok 'waited 1\.0 ms on a run queue and ran 100\.0% of a 1\.00 s probe'
expect virtualisation ok 'no hypervisor bit .*Dell Inc\., PowerEdge R640'
expect cpuidle ok '^driver intel_idle, governor menu$'
expect thp ok 'madvise$'
expect aslr ok 'randomize_va_space 2'
expect perf-paranoid ok '^perf_event_paranoid 2$'
expect clocksource ok '^tsc$'
expect cpu-quota ok '^no CPU quota \(cgroup v2 /sys/fs/cgroup/bench\); throttled 0 times, 0 during the probe$'
jq -e '.warnings == 0 and all(.checks[]; .status == "ok")' "$tmp/out" \
    >/dev/null || fail "good: not all ok: $(cat "$tmp/out")"

# Every check warns (virtualisation: info).
what=bad
bad "$tmp/bad"
checkon "$tmp/bad"
expect governor warn '^powersave on CPUs 0-1; performance on CPUs 2-3'
advice governor 'performance'
expect boost warn 'turbo on \(intel_pstate no_turbo 0\)'
expect smt warn 'threads of one core among the usable CPUs: 0-1; 2-3$'
advice smt 'taskset -c 0,2\)'
expect load warn '^load average 2\.50 .*; 0 other tasks'
expect steal warn '^hypervisor steal 5\.00% of the busy time of CPUs 0-3 since boot \(200 of 4000 ticks\)$'
expect probe-steal warn '10\.00% of the busy time .* \(CPU 0: 10\.00%\)$'
expect runqueue warn 'waited 100\.0 ms on a run queue and ran 90\.0%'
expect virtualisation info "hypervisor bit is set"
expect cpuidle warn '^driver haltpoll, governor haltpoll$'
expect thp warn 'always$'
expect aslr warn 'randomize_va_space 0'
expect perf-paranoid warn '^perf_event_paranoid 3$'
expect clocksource warn '^hpet \(available: hpet acpi_pm\)$'
advice clocksource 'no usable TSC'
expect cpu-quota warn '^a quota of 0\.10 CPU \(10000 us every 100000 us, cgroup v2 /sys/fs/cgroup/bench\) for 4 usable CPUs; throttled 5 times, 4 during the probe$'
jq -e '.warnings == 13 and ([.checks[] | select(.status != "warn")] |
    map(.name)) == ["virtualisation"]' "$tmp/out" >/dev/null ||
	fail "bad: not 13 warnings: $(cat "$tmp/out")"

# The table: a header, a row per check, the advice under a row that is not
# ok, and the warnings named on the last line.
what=table
run "$chk" --root "$tmp/bad"
[ "$rc" -eq 0 ] || fail "table: exit $rc: $(cat "$tmp/err")"
head -n 1 "$tmp/out" | grep -Eq '^check +status +found$' ||
	fail "table: header: $(head -n 1 "$tmp/out")"
grep -Eq '^cpuidle +warn +driver haltpoll' "$tmp/out" &&
    grep -A 1 '^cpuidle ' "$tmp/out" | grep -Eq '^ +advice: an idle vCPU polls' ||
	fail "table: the cpuidle row and its advice: $(cat "$tmp/out")"
[ "$(tail -n 1 "$tmp/out")" = "13 warnings: governor, boost, smt, load, steal, probe-steal, runqueue, cpuidle, thp, aslr, perf-paranoid, clocksource, cpu-quota" ] ||
	fail "table: last line: $(tail -n 1 "$tmp/out")"
run "$chk" --root "$tmp/good"
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "0 warnings" ] &&
    ! grep -q 'advice:' "$tmp/out" ||
	fail "table of the good root: $(cat "$tmp/out")"

# Nothing there: every check unknown, no error.
what=empty
mkdir "$tmp/empty"
checkon "$tmp/empty"
jq -e '.warnings == 0 and all(.checks[]; .status == "unknown" and
    (.found | length) > 0 and (.advice | length) > 0)' "$tmp/out" \
    >/dev/null || fail "empty root: $(cat "$tmp/out")"
# --probe 0: the probe's checks are not measured.
what=probe0
checkon "$tmp/bad" --probe 0
expect probe-steal unknown 'not measured'
expect runqueue unknown 'not measured'
expect cpu-quota warn 'throttled 5 times$'

# The other branches, each on a copy of the good root.
# variant NAME: a fresh copy of the good root in $v.
variant() {
	what=$1
	v=$tmp/v-$1
	good "$v"
}
variant cpus-online
rm "$v/proc/self/status"
put "$v" sys/devices/system/cpu/online 0-1
checkon "$v"
expect governor ok '^performance on CPUs 0-1 '
expect perf-paranoid ok '^perf_event_paranoid 2$'
variant no-turbo
put "$v" sys/devices/system/cpu/intel_pstate/no_turbo 1
checkon "$v"
expect boost ok 'turbo off \(intel_pstate no_turbo 1\)'
variant policy-boost
rm "$v/sys/devices/system/cpu/cpufreq/boost"
for c in 0 1 2 3; do
	put "$v" "sys/devices/system/cpu/cpu$c/cpufreq/boost" 0
done
checkon "$v"
expect boost ok 'boost off'
put "$v" sys/devices/system/cpu/cpu1/cpufreq/boost 1
put "$v" sys/devices/system/cpu/cpu2/cpufreq/boost 1
checkon "$v"
expect boost warn 'boost on \(CPUs 1-2, '
variant global-boost
put "$v" sys/devices/system/cpu/cpufreq/boost 1
checkon "$v"
expect boost warn 'boost on \(all, '
variant smt-none
for c in 0 1 2 3; do
	put "$v" "sys/devices/system/cpu/cpu$c/topology/thread_siblings_list" "$c"
done
checkon "$v"
expect smt ok '^one thread per core$'
variant runnable
sed 's/^procs_running 1$/procs_running 3/' "$tmp/good/proc/stat" >"$v/proc/stat"
checkon "$v"
expect load warn '; 2 other tasks runnable now$'
variant runq-share
put "$v" probe-end/proc/self/schedstat '500001000 0 9'
checkon "$v"
expect runqueue warn 'waited 0\.0 ms on a run queue and ran 50\.0%'
variant no-uptime
rm "$v/proc/uptime" "$v/probe-end/proc/uptime"
checkon "$v" --probe 2
expect runqueue warn 'ran 50\.0% of a 2\.00 s probe'
variant dmi-vm
put "$v" proc/cpuinfo "processor${tab}: 0" "Features${tab}: fp asimd"
put "$v" sys/class/dmi/id/sys_vendor QEMU
put "$v" sys/class/dmi/id/product_name 'Standard PC (Q35 + ICH9, 2009)'
checkon "$v"
expect virtualisation info 'DMI names a virtual machine \(DMI: QEMU, Standard PC'
variant dmi-metal
put "$v" proc/cpuinfo "processor${tab}: 0" "Features${tab}: fp asimd"
checkon "$v"
expect virtualisation ok 'no CPU flags; no virtual machine in the DMI \(DMI: Dell Inc\.'
variant cpuidle-none
rm "$v/sys/devices/system/cpu/cpuidle/current_governor_ro"
put "$v" sys/devices/system/cpu/cpuidle/current_driver none
checkon "$v"
expect cpuidle ok '^driver none$'
variant thp-never
put "$v" sys/kernel/mm/transparent_hugepage/enabled 'always madvise [never]'
checkon "$v"
expect thp ok 'never$'
variant aslr-partial
put "$v" proc/sys/kernel/randomize_va_space 1
checkon "$v"
expect aslr info 'randomize_va_space 1'
variant perf-cap
put "$v" proc/sys/kernel/perf_event_paranoid 3
put "$v" proc/self/status "Cpus_allowed_list:${tab}0-3" "CapEff:${tab}0000000000200000"
checkon "$v"
expect perf-paranoid ok '^perf_event_paranoid 3, lifted by CAP_SYS_ADMIN$'
put "$v" proc/self/status "Cpus_allowed_list:${tab}0-3" "CapEff:${tab}0000004000000000"
checkon "$v"
expect perf-paranoid ok '^perf_event_paranoid 3, lifted by CAP_PERFMON$'
put "$v" proc/self/status "Cpus_allowed_list:${tab}0-3" "CapEff:${tab}000001bfffdfffff"
checkon "$v"
expect perf-paranoid warn '^perf_event_paranoid 3$'
variant perf-bad
put "$v" proc/sys/kernel/perf_event_paranoid 'x2'
checkon "$v"
expect perf-paranoid unknown "reads 'x2'"
variant clock-kvm
put "$v" sys/devices/system/clocksource/clocksource0/current_clocksource kvm-clock
put "$v" sys/devices/system/clocksource/clocksource0/available_clocksource 'kvm-clock tsc acpi_pm'
checkon "$v"
expect clocksource warn '^kvm-clock '
advice clocksource 'echo tsc > '
variant clock-arm
put "$v" sys/devices/system/clocksource/clocksource0/current_clocksource arch_sys_counter
checkon "$v"
expect clocksource ok '^arch_sys_counter$'
# CPU quotas: one at least the usable CPUs, throttling seen only during
# the probe, a parent's tighter quota, cgroup v1 (with a mount of a
# subtree and without mountinfo), and a v2 hierarchy without the cpu
# controller beside v1's.
variant quota-wide
put "$v" sys/fs/cgroup/bench/cpu.max '400000 100000'
checkon "$v"
expect cpu-quota ok '^a quota of 4\.00 CPU .* for 4 usable CPUs'
put "$v" sys/fs/cgroup/bench/cpu.stat 'nr_throttled 0'
put "$v" probe-end/sys/fs/cgroup/bench/cpu.stat 'nr_throttled 2'
checkon "$v"
expect cpu-quota warn 'throttled 0 times, 2 during the probe$'
variant quota-parent
put "$v" proc/self/cgroup '0::/bench/job/leaf'
put "$v" sys/fs/cgroup/bench/cpu.max '150000 100000'
put "$v" sys/fs/cgroup/bench/job/cpu.max '50000 100000'
put "$v" sys/fs/cgroup/bench/job/leaf/cpu.max 'max 100000'
put "$v" sys/fs/cgroup/bench/job/cpu.stat 'nr_throttled 7'
checkon "$v" --probe 0
expect cpu-quota warn '^a quota of 0\.50 CPU \(50000 us every 100000 us, cgroup v2 /sys/fs/cgroup/bench/job\) for 4 usable CPUs; throttled 7 times$'
variant quota-v1
rm -r "$v/sys/fs/cgroup"
put "$v" proc/self/cgroup '4:cpu,cpuacct:/docker/abc' '0::/'
put "$v" proc/self/mountinfo \
    '31 25 0:27 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct'
put "$v" 'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us' -1
put "$v" 'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us' 100000
put "$v" 'sys/fs/cgroup/cpu,cpuacct/cpu.stat' 'nr_periods 0' 'nr_throttled 0' \
    'throttled_time 0'
checkon "$v" --probe 0
expect cpu-quota ok '^no CPU quota \(cgroup v1 /sys/fs/cgroup/cpu,cpuacct\); throttled 0 times$'
put "$v" 'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us' 250000
checkon "$v" --probe 0
expect cpu-quota warn '^a quota of 2\.50 CPU \(250000 us every 100000 us, cgroup v1 '
variant quota-v1-plain
rm -r "$v/sys/fs/cgroup" "$v/proc/self/mountinfo"
put "$v" proc/self/cgroup '3:cpu:/batch' '0::/'
put "$v" sys/fs/cgroup/cpu/batch/cpu.cfs_quota_us 20000
put "$v" sys/fs/cgroup/cpu/batch/cpu.cfs_period_us 100000
checkon "$v" --probe 0
expect cpu-quota warn '^a quota of 0\.20 CPU .*cgroup v1 /sys/fs/cgroup/cpu/batch\)'
variant quota-hybrid
put "$v" proc/self/cgroup '1:cpu:/' '0::/bench'
put "$v" proc/self/mountinfo \
    '30 25 0:26 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw' \
    '31 25 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu'
put "$v" sys/fs/cgroup/unified/cgroup.controllers ''
mkdir -p "$v/sys/fs/cgroup/unified/bench"
put "$v" sys/fs/cgroup/cpu/cpu.cfs_quota_us 30000
put "$v" sys/fs/cgroup/cpu/cpu.cfs_period_us 100000
checkon "$v" --probe 0
expect cpu-quota warn '^a quota of 0\.30 CPU .*cgroup v1 /sys/fs/cgroup/cpu\)'
variant quota-none
rm "$v/proc/self/cgroup"
checkon "$v" --probe 0
expect cpu-quota unknown 'no cgroup'

# What a file holds is shown, never breaks the JSON: quotes, backslashes,
# control and non-ASCII bytes.
variant hostile
printf 'Evil "Corp" \\ \001\033[8m caf\303\251\n' >"$v/sys/class/dmi/id/sys_vendor"
checkon "$v"
expect virtualisation ok 'Evil "Corp" \\ \?\?\[8m caf\?\?'
# A root given with a trailing slash.
what=slash
checkon "$tmp/good/"
expect governor ok '^performance on CPUs 0-3 '

# Files under the root are read within bounds: /dev/zero as a /proc
# file, a sparse file of 2 GB and a line of 2 MB are refused at once,
# naming the file, with exit 1 and no report; a sysfs value of /dev/zero
# is no value.  (timeout -s KILL: an unbounded read would spin, and the
# check traps TERM.)
variant zero-stat
rm "$v/proc/stat"
ln -s /dev/zero "$v/proc/stat"
expect_exit 1 "benchmp check: $v/proc/stat: larger than 16 MB: refused" \
    timeout -s KILL 60 "$chk" --root "$v"
[ ! -s "$tmp/out" ] || fail "$what: a report after a refused file: $(head -n 2 "$tmp/out")"
variant sparse-cpuinfo
if truncate -s 2G "$v/proc/cpuinfo" 2>/dev/null; then
	expect_exit 1 "$v/proc/cpuinfo: larger than 16 MB: refused" \
	    timeout -s KILL 60 "$chk" --root "$v" --probe 0
fi
variant long-line
head -c 2000000 /dev/zero | tr '\0' x >"$v/proc/self/mountinfo"
expect_exit 1 "$v/proc/self/mountinfo: line 1 is longer than 1 MB: refused" \
    timeout -s KILL 60 "$chk" --root "$v" --probe 0
variant zero-governor
for c in 0 1 2 3; do
	f=$v/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor
	rm -f "$f"
	ln -s /dev/zero "$f"
done
run timeout -s KILL 60 "$chk" --root "$v" --probe 0
[ "$rc" -eq 0 ] && grep -q '^governor ' "$tmp/out" ||
	fail "$what: exit $rc: $(head -n 2 "$tmp/err")"
# A FIFO without a writer is read as empty, at once: no read waits.
variant fifo
rm "$v/proc/loadavg"
mkfifo "$v/proc/loadavg" || fail "cannot make a FIFO"
run timeout -s KILL 60 "$chk" --root "$v" --json
[ "$rc" -eq 0 ] || fail "$what: exit $rc: $(head -n 2 "$tmp/err")"
expect load ok '^0 other tasks runnable now$'

# Bad options: a message and exit 2.
expect_exit 2 "--probe: 'x' is not a number" "$chk" --probe x
expect_exit 2 "--probe: '61' is not a number" "$chk" --probe 61
expect_exit 2 "--probe: '-1' is not a number" "$chk" --probe=-1
expect_exit 2 "--probe: '01' is not a number" "$chk" --probe 01
expect_exit 2 "--probe: '' is not a number" "$chk" --probe ''
expect_exit 2 '--probe needs a value' "$chk" --probe
expect_exit 2 '--probe needs a value' "$chk" --probe=
expect_exit 2 "--root: '$tmp/none' is not a directory" "$chk" --root "$tmp/none"
expect_exit 2 "--root: '$tmp/good/proc/loadavg' is not a directory" \
    "$chk" --root "$tmp/good/proc/loadavg"
expect_exit 2 '--root needs a value' "$chk" --root=
expect_exit 2 "unknown argument '--bogus'" "$chk" --bogus
expect_exit 2 "unknown argument 'extra'" "$chk" --json extra
run "$chk" --help
[ "$rc" -eq 0 ] && grep -q '^usage: benchmp check ' "$tmp/out" ||
	fail "--help: exit $rc: $(head -n 1 "$tmp/out")"
# The old name runs benchmp check: the same report from either.
"$top_builddir/bin/benchmp" check --json --root "$tmp/bad" >"$tmp/direct" ||
	fail "benchmp check --root: exit $?"
run "$chk" --json --root "$tmp/bad"
cmp -s "$tmp/out" "$tmp/direct" ||
	fail "benchmp-check and benchmp check differ: $(cat "$tmp/direct")"
want=$(sed -n 's/^AC_INIT(\[benchmp\], \[\([^]]*\)\].*/\1/p' \
    "$top_srcdir/configure.ac")
for c in "$chk" "$top_builddir/bin/benchmp-check"; do
	one_line "$c" -V &&
	    [ "$(cat "$tmp/out")" = "benchmp-check (benchmp) $want" ] ||
		fail "$c -V: $(cat "$tmp/out")"
done

# This machine, with a probe: the JSON's shape (its values are this
# machine's), in any locale.
what=real
names='["governor","boost","smt","load","steal","probe-steal","runqueue","virtualisation","cpuidle","thp","aslr","perf-paranoid","clocksource","cpu-quota"]'
one_line env LC_ALL=de_DE.UTF-8 "$chk" --json --probe 1 &&
jq -e --argjson names "$names" '(keys == ["checks", "warnings"]) and
    ([.checks[].name] == $names) and
    all(.checks[]; keys == ["advice", "found", "name", "status"] and
        (.status | IN("ok", "warn", "info", "unknown")) and
        (.found | type == "string" and length > 0) and
        (.advice | type == "string" and length > 0)) and
    .warnings == ([.checks[] | select(.status == "warn")] | length)' \
    "$tmp/out" >/dev/null || fail "real run: $(cat "$tmp/out")"
run "$chk" --probe 0
[ "$rc" -eq 0 ] && [ "$(grep -c '' "$tmp/out")" -ge 16 ] ||
	fail "real run, table: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# Killed during its probe, it ends with the signal, and leaves nothing
# behind: the busy loop is the check itself (benchmp, which the wrapper
# becomes), no process of its own.
"$chk" --probe 60 >/dev/null 2>&1 &
pid=$!
n=0
while [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != benchmp ] &&
    [ "$n" -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = benchmp ] ||
	fail "benchmp-check did not become benchmp check"
kids=$(pgrep -P "$pid" | tr '\n' ' ')
[ -z "$kids" ] || fail "processes started by the probe: $kids"
kill -s TERM "$pid"
wait_gone "$pid" "$hang_s"
[ "$rc" -eq 143 ] || fail "killed during the probe: exit $rc"

finish
