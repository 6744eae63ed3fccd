#!/bin/sh
# tools-usage.sh: usage errors exit 2 with one line naming the problem.
. "$top_srcdir/tests/lib.sh"

usage='usage: '
ls=$bin/lat_syscall
bw=$bin/bw_mem

# Each case: the expected message (a regular expression), then the command.
expect_exit 2 'missing the system call' "$ls"
expect_exit 2 "unknown system call 'bogus'" "$ls" bogus
expect_exit 2 'too many arguments' "$ls" stat /dev/null extra
expect_exit 2 'null takes no file' "$ls" null /dev/null
expect_exit 2 "-P: 0 is out of range" "$ls" -P 0 null
expect_exit 2 "-P: 99999 is out of range" "$ls" -P 99999 null
expect_exit 2 "-P: 'x' is not a number" "$ls" -P x null
expect_exit 2 "-N: 0 is out of range" "$ls" -N 0 null
expect_exit 2 "-N: '-1' is not a number" "$ls" -N -1 null
expect_exit 2 "-W: 'garbage' is not a number" "$ls" -W garbage null
expect_exit 2 "--later-warmup: 0 is out of range" "$ls" --later-warmup=0 null
expect_exit 2 "--later-warmup: 'x' is not a number" "$ls" --later-warmup=x null
expect_exit 2 "BENCHMP_LATER_WARMUP: 3600000001 is out of range" \
    env BENCHMP_LATER_WARMUP=3600000001 "$ls" null
expect_exit 2 "BENCHMP_WARMUP: 'soon' is not a number" \
    env BENCHMP_WARMUP=soon "$ls" null
expect_exit 2 'unknown option' "$ls" --bogus null
expect_exit 2 'unknown option or missing value: -P' "$ls" -P
expect_exit 2 "unknown word 'bogus' in timer config" "$ls" --timer=bogus null
expect_exit 2 "unknown clock 'nope'" "$ls" --timer=clock=nope null
expect_exit 2 "'null' is a cycle counter, not a clock" "$ls" \
    --timer=clock=null null
expect_exit 2 'missing the size and the mode' "$bw"
expect_exit 2 'missing the mode' "$bw" 64k
expect_exit 2 "unknown mode 'bogus'" "$bw" 64k bogus
expect_exit 2 "size: '12q' is not a size" "$bw" 12q rd
expect_exit 2 "size: 0 is out of range" "$bw" 0 rd
expect_exit 2 "size: 511 is out of range" "$bw" 511 rd
expect_exit 2 "size: '-1' is not a size" "$bw" -- -1 rd
expect_exit 2 "size: 99999999999999999999 is out of range" "$bw" \
    99999999999999999999 rd
expect_exit 2 "unknown argument 'conflicts'" "$bw" 64k rd conflicts
expect_exit 2 'too many arguments' "$bw" 64k rd conflict x

# The message is one line, followed by the usage line.
expect_exit 2 "$usage" "$bw" 64k bogus
[ "$(wc -l <"$tmp/err")" -eq 2 ] ||
	fail "usage error printed $(wc -l <"$tmp/err") lines, not 2"

# Bad environment values name the variable and exit 2.
for v in "ENOUGH=abc" "ENOUGH=0" "ENOUGH=12x" "TIMING_O=-1" "LOOP_O=1e9" \
    "BENCHMP_TIMER=bogus" "BENCHMP_SCHED=sometimes"; do
	expect_exit 2 "^lat_syscall: ${v%%=*}: " env "$v" "$ls" null
	expect_exit 2 "^bw_mem: ${v%%=*}: " env "$v" "$bw" 64k rd
done

# A crowd of workers (more than 64 per CPU) is refused at once, saying how
# to force it, and nothing is started or left: -P 4096 on two CPUs ran for
# over four minutes printing nothing.
TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR
cpus=$(nproc)
crowd=$((64 * cpus + 1))
t0=$(date +%s)
expect_exit 2 "^lat_syscall: -P 4096: [0-9]+ worker\(s\) per CPU on $cpus CPU\(s\) is more than 64 per CPU; .* use --force \(or BENCHMP_FORCE=1\)" \
    "$ls" -P 4096 null
[ $(($(date +%s) - t0)) -le 60 ] || fail "-P 4096: not refused within 60 s"
expect_exit 2 "^bw_mem: -P $crowd: 65 worker" "$bw" -P "$crowd" 64k rd
expect_exit 2 "^lat_syscall: -P $crowd: " env BENCHMP_FORCE=0 "$ls" \
    -P "$crowd" null
expect_exit 2 "^lat_syscall: BENCHMP_FORCE: 'yes' is not 0 or 1" \
    env BENCHMP_FORCE=yes "$ls" null
# Forced, the run goes on to the engine: here to its descriptor check,
# which refuses it before any worker starts.
if [ "$crowd" -le 4096 ]; then
	expect_exit 1 "^lat_syscall: $crowd workers need [0-9]+ descriptors" \
	    prlimit --nofile=30:30 "$ls" --force -P "$crowd" null
	expect_exit 1 "^lat_syscall: $crowd workers need [0-9]+ descriptors" \
	    env BENCHMP_FORCE=1 prlimit --nofile=30:30 "$ls" -P "$crowd" null
fi
# 64 per CPU is allowed.
expect_exit 1 "^lat_syscall: $((64 * cpus)) workers need" \
    prlimit --nofile=30:30 "$ls" -P $((64 * cpus)) null
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children

# Runtime failures exit 1 and name the cause.
expect_exit 1 'cannot stat /nonexistent: No such file' "$ls" stat /nonexistent
expect_exit 1 'cannot open /nonexistent: No such file' "$ls" open /nonexistent

# Help and version go to stdout and succeed.
for t in lat_syscall bw_mem enough timing_o loop_o lat_cmd; do
	run "$bin/$t" --help
	[ "$rc" -eq 0 ] && grep -q "^usage: $t " "$tmp/out" ||
		fail "$t --help: exit $rc, stdout '$(head -n 1 "$tmp/out")'"
	run "$bin/$t" -V
	[ "$rc" -eq 0 ] && grep -Eq "^$t \\(benchmp\\) [0-9]+\\.[0-9]+" \
	    "$tmp/out" || fail "$t -V: exit $rc, '$(cat "$tmp/out")'"
done
# ... and a stdout that cannot take them is a failure that says so.
if [ -w /dev/full ]; then
	for a in --help -V --timer=list; do
		"$ls" "$a" >/dev/full 2>"$tmp/err" </dev/null
		rc=$?
		[ "$rc" -eq 1 ] && grep -qx 'lat_syscall: writing to standard output: No space left on device' "$tmp/err" ||
			fail "lat_syscall $a >/dev/full: exit $rc, stderr '$(cat "$tmp/err")'"
	done
fi
run "$ls" --timer=list
[ "$rc" -eq 0 ] && grep -Eq '^clock +posix-monotonic +ok' "$tmp/out" &&
    grep -Eq '^cycle +null +ok' "$tmp/out" ||
	fail "--timer=list: exit $rc, '$(head -n 3 "$tmp/out")'"
# x86-rdtscp works exactly where the CPU has the instruction.
if grep -q '^flags.* rdtscp' /proc/cpuinfo 2>/dev/null; then
	grep -Eq '^cycle +x86-rdtscp +ok' "$tmp/out" ||
		fail "x86-rdtscp should work on this CPU"
elif grep -q '^flags' /proc/cpuinfo 2>/dev/null &&
    grep -q '^cycle *x86-rdtscp' "$tmp/out"; then
	grep -Eq '^cycle +x86-rdtscp +unavailable: CPU lacks RDTSCP' \
	    "$tmp/out" || fail "x86-rdtscp should say the CPU lacks RDTSCP"
	# A valid config the machine cannot honour is a runtime refusal.
	expect_exit 1 'no cycle counter works: x86-rdtscp: CPU lacks RDTSCP' \
	    "$ls" --timer=cycle=x86-rdtscp null
fi
no_children
finish
