#!/bin/sh
# scripts-vs-lmbench.sh: benchmp-vs-lmbench parses both sides' lines and
# builds its table, on test doubles: stub scripts that print fixed
# lmbench-format lines in place of lmbench's tools and of benchmp's; a
# signal ends a tool that hangs and what it left.
. "$top_srcdir/tests/lib.sh"

vs=$top_srcdir/scripts/benchmp-vs-lmbench
unset LMBENCH

# Without lmbench: skipped, exit 77, said why.
expect_exit 77 'no lmbench.*skipped' sh "$vs"
# Usage errors.
expect_exit 2 "-k: '0' is not a whole number" sh "$vs" -k 0 --lmbench "$tmp"
expect_exit 2 "--timeout: 'x'" sh "$vs" --timeout x --lmbench "$tmp"
expect_exit 2 "holds no lmbench lat_syscall" sh "$vs" --lmbench "$tmp/none"
expect_exit 2 "unknown argument" sh "$vs" --bogus
expect_exit 2 "not NAME=VALUE" sh "$vs" --lmbench-env 'ENOUGH=1 junk'
expect_exit 2 "--served: '0' is not fifth or a whole number" sh "$vs" --served 0 \
    --lmbench "$tmp"

# The doubles.  THIS IS A TEST DOUBLE, not lmbench: each stub prints the
# next of its values (a counter per tool and side), lmbench's to stderr as
# lmbench does, benchmp's to stdout; benchmp's two-process stubs print by
# --placement.
lmb=$tmp/lmbench-double
ours=$tmp/benchmp-double
mkdir "$lmb" "$ours" || exit 99
cat >"$tmp/stub" <<'EOF'
#!/bin/sh
# A test double of a benchmark tool (lmbench's or benchmp's): fixed lines.
d=$(dirname "$0")
t=$(basename "$0")
n=$(cat "$d/count.$t" 2>/dev/null || echo 0)
echo $((n + 1)) >"$d/count.$t"
echo "$*" >>"$d/args.$t"
i=$((n % 3 + 1))
# pick A B C: the value of this run.
pick() { eval "echo \${$i}"; }
case $d in
*lmbench-double)
	exec 1>&2
	case $t in
	lat_syscall) echo "Simple syscall: $(pick 0.20 0.30 0.25) microseconds" ;;
	lat_pipe) sleep 1; echo "Pipe latency: 5.0 microseconds" ;;
	lat_ops) printf '%s: %s nanoseconds\n' 'integer add' 0.50 \
	    'float bogomflops' 2.81 'double bogomflops' 3.00 ;;
	lat_ctx) printf '\n"size=0k ovr=1.37\n2 3.00\n8 9.00\n' ;;
	lat_mem_rd)
		echo '"stride=128'
		for s in 0.00049 0.00781 0.01562 0.12500 0.25000 1.00000 4.00000 \
		    16.00000 32.00000 64.00000 128.00000 256.00000 512.00000 1024.00000; do
			echo "$s $s"
		done
		echo ;;
	lat_fs) printf '0k\t100\t5000\t90000\n10k\t100\t2000\t50000\n' ;;
	mhz) echo "-1 System too busy"; exit 1 ;;
	lat_sig) echo "Signal handler installation: 0.2570 microseconds" ;;
	lat_unix)
		# A run that hangs until SIGTERM (which it notes), and a
		# partner that ignores SIGTERM, as lmbench's lat_fifo leaves one.
		sh -c 'trap "" TERM; exec sleep 616' &
		trap 'echo TERM >"$d/term.$t"; exit 143' TERM
		sleep 617 &
		wait ;;
	esac ;;
*)
	case $t in
	lat_syscall) echo "Simple syscall: 0.1000 microseconds" ;;
	lat_pipe)
		case $1 in
		--placement=same) echo "Pipe latency: 4.8000 microseconds" ;;
		--placement=cross) echo "Pipe latency: 50.0000 microseconds" ;;
		*) echo "stub: no placement" >&2; exit 2 ;;
		esac ;;
	lat_ops) printf '%s: %s nanoseconds\n' 'integer add' 0.50 \
	    'float bogomflops' 2.70 ;;
	lat_ctx)
		[ "$1" = --placement=same ] && v="3.10 9.30" || v="30.00 90.00"
		# shellcheck disable=SC2086
		set -- $v
		printf '\n"size=0k ovr=1.00\n2 %s\n8 %s (noisy +-5%%)\n' "$1" "$2" ;;
	lat_mem_rd) echo "stub: lat_mem_rd failed" >&2; exit 1 ;;
	lat_fs) printf '0k\t100\t5500\t90000\n10k\t100\t2000\t50000\n' ;;
	mhz) echo "2950 MHz, 0.3390 nanosec clock" ;;
	lat_sig) echo "lat_sig: stub failure" >&2; exit 1 ;;
	esac ;;
esac
EOF
for t in lat_syscall lat_pipe lat_ops lat_ctx lat_mem_rd lat_fs mhz lat_sig \
    lat_unix hello; do
	cp "$tmp/stub" "$lmb/$t" && cp "$tmp/stub" "$ours/$t" &&
		chmod +x "$lmb/$t" "$ours/$t" || exit 99
done

# row FIGURE: the table's row of FIGURE.
row() {
	awk -v f="$1" 'index($0, f " ") == 1 && substr($0, length(f) + 1) ~ /^  / { print }' \
	    "$tmp/out"
}
# has FIGURE REGEX: the row of FIGURE matches REGEX.
has() {
	r=$(row "$1")
	[ -n "$r" ] || { fail "no row '$1' in: $(cat "$tmp/out")"; return; }
	printf '%s\n' "$r" | grep -Eq -- "$2" || fail "row '$1' is '$r', not matching '$2'"
}

run sh "$vs" -k 3 --lmbench "$lmb" --bin "$ours" \
    --only 'lat_syscall null,lat_pipe,lat_ops,lat_ctx,lat_mem_rd,lat_fs,mhz,lat_sig install'
# benchmp's lat_sig install and lat_mem_rd failed: exit 1, said on stderr.
[ "$rc" -eq 1 ] || fail "exited $rc, not 1: $(cat "$tmp/err")"
grep -q "ours: 'lat_sig install' failed (exit 1): lat_sig: stub failure" "$tmp/err" ||
	fail "lat_sig's failure not reported: $(cat "$tmp/err")"
grep -q "lmbench: 'mhz' failed (exit 1): -1 System too busy" "$tmp/err" ||
	fail "lmbench's mhz failure not reported: $(cat "$tmp/err")"
grep -q '^figure  *lmbench  *cv%  *wall_s  *benchmp  *cv%  *wall_s  *diff%  *verdict$' \
    "$tmp/out" || fail "no header: $(cat "$tmp/out")"
grep -q '^benchmp-vs-lmbench .*: 3 runs per side' "$tmp/out" || fail "no title line"
# The median (0.25 of 0.20 0.30 0.25), the CV (20.0%), -60% off: value.
has 'lat_syscall null' '^lat_syscall null +0\.25 +20\.0 +[0-9.]+ +0\.1 +0\.0 +[0-9.]+ +-60\.0 +differs:value'
# lmbench's 5.0 sat at same (4.8): that row judges, cross does not.
has 'lat_pipe [same]' ' 5 +0\.0 +[0-9.]+ +4\.8 +0\.0 +[0-9.]+ +-4\.0 +(ok|differs:wall) <- lmbench$'
has 'lat_pipe [cross]' ' 5 .* 50 .* \+900\.0 +\(other placement\)$'
has 'lat_ctx -s 0 2 [same]' ' 3 .* 3\.1 .*<- lmbench$'
has 'lat_ctx -s 0 8 [cross]' ' 9 .* 90 .*\(other placement\)$'
has 'lat_ops integer add' ' 0\.5 .* 0\.5 .* \+0\.0 '
# The bogomflops rows compare as any lat_ops row; one side's alone is said.
has 'lat_ops float bogomflops' ' 2\.81 .* 2\.7 .* -3\.9 '
has 'lat_ops double bogomflops' ' 3 .* benchmp lacks it$'
has 'lat_fs 0k creates/s' ' 5000 .* 5500 .* \+10\.0 '
has 'lat_fs 10k deletes/s' ' 50000 .* 50000 '
has 'mhz' ' - .* 2950 .* lmbench failed$'
has 'lat_sig install' ' benchmp failed$'
# lat_mem_rd: benchmp failed; each of lmbench's roles took the largest
# size at or under the role's own (the stub's value is its size), over
# half of it (the stub's sizes double), and main memory is 64 to 512 MB.
for r in L1 L2 L3 mem; do
	l=$(grep "^lat_mem_rd $r (" "$tmp/out")
	[ -n "$l" ] || { fail "no lat_mem_rd $r row: $(cat "$tmp/out")"; continue; }
	printf '%s\n' "$l" | awk -v r="$r" '{ s = $3; sub(/^\(/, "", s)
	    exit !($5 <= s + 0 && $5 > s / 4 && $NF == "failed" &&
		(r != "mem" || (s + 0 >= 64 && s + 0 <= 512))) }' ||
		fail "lat_mem_rd $r row: '$l'"
done
grep -Eq '^[0-9]+ rows: [0-9]+ ok, [0-9]+ differ, [0-9]+ other' "$tmp/out" ||
	fail "no count line"
# Each stub ran 3 times per side and placement.
[ "$(cat "$lmb/count.lat_pipe")" -eq 3 ] && [ "$(cat "$ours/count.lat_pipe")" -eq 6 ] ||
	fail "lat_pipe ran $(cat "$lmb/count.lat_pipe") and $(cat "$ours/count.lat_pipe") times, not 3 and 6"

# Every benchmp run succeeded: exit 0.
run sh "$vs" -k 1 --lmbench "$lmb" --bin "$ours" --only lat_syscall
[ "$rc" -eq 0 ] || fail "lat_syscall alone exited $rc: $(cat "$tmp/err")"
expect_exit 2 "names no figure" sh "$vs" --lmbench "$lmb" --bin "$ours" --only nothing
# --served S: benchmp's tools of one line get --served=S before their
# operands (with the placement); lat_ops, several figures a run, does not.
rm -f "$ours"/args.*
run sh "$vs" -k 1 --served 2 --lmbench "$lmb" --bin "$ours" \
    --only 'lat_syscall null,lat_pipe,lat_ops'
[ "$rc" -eq 0 ] || fail "--served exited $rc: $(cat "$tmp/err")"
grep -q '^benchmp-vs-lmbench .*; benchmp --served=2$' "$tmp/out" ||
	fail "--served not in the title: $(head -n 1 "$tmp/out")"
[ "$(cat "$ours/args.lat_syscall")" = "--served=2 null" ] ||
	fail "lat_syscall got: $(cat "$ours/args.lat_syscall")"
grep -qx -- '--placement=same --served=2' "$ours/args.lat_pipe" &&
    grep -qx -- '--placement=cross --served=2' "$ours/args.lat_pipe" ||
	fail "lat_pipe got: $(cat "$ours/args.lat_pipe")"
! grep -q served "$ours/args.lat_ops" ||
	fail "lat_ops got: $(cat "$ours/args.lat_ops")"
# --served fifth: a fifth of the figure's last lmbench run, less 0.15 s,
# 0.2 s at least (the doubles' runs last milliseconds).
rm -f "$ours"/args.*
run sh "$vs" -k 2 --served fifth --lmbench "$lmb" --bin "$ours" \
    --only 'lat_syscall null'
[ "$rc" -eq 0 ] || fail "--served fifth exited $rc: $(cat "$tmp/err")"
grep -q '^benchmp-vs-lmbench .*; benchmp --served=fifth$' "$tmp/out" ||
	fail "--served fifth not in the title: $(head -n 1 "$tmp/out")"
[ "$(sort -u "$ours/args.lat_syscall")" = "--served=0.20 null" ] ||
	fail "lat_syscall got: $(cat "$ours/args.lat_syscall")"

# --list runs nothing and needs no lmbench.
run sh "$vs" --list
[ "$rc" -eq 0 ] && grep -q '^bw_mem 8m rd ' "$tmp/out" || fail "--list: $rc"

# A signal while lmbench's tool runs (a SIGINT as a terminal sends it,
# where env(1) can give the script its default back; else SIGTERM): the
# tool, in a process group of its own, is sent SIGTERM at once, its
# partner that ignores SIGTERM is killed, and the script exits of the
# signal.
if env --default-signal=INT true 2>/dev/null; then
	sig=INT want=130
	set -- env --default-signal=INT
else
	sig=TERM want=143
	set --
fi
# (Without setsid(1) the tools share the script's process group, and
# what a tool leaves is not ended: nothing to test.)
if ! command -v setsid >/dev/null 2>&1; then
	echo "$me: no setsid: the signal case is not run" >&2
	finish
fi
"$@" sh "$vs" -k 1 --lmbench "$lmb" --bin "$ours" --only lat_unix \
    </dev/null >"$tmp/out" 2>"$tmp/err" &
pid=$!
n=0
while { [ -z "$(tagged 'sleep 617')" ] || [ -z "$(tagged 'sleep 616')" ]; } &&
    [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
if [ -z "$(tagged 'sleep 617')" ]; then
	fail "$sig: lat_unix did not start within $hang_s s: $(cat "$tmp/err")"
	kill -s KILL "$pid" 2>/dev/null
	wait "$pid"
else
	kill -s "$sig" "$pid"
	wait_gone "$pid" "$hang_s"
	[ "$rc" -eq "$want" ] ||
		fail "$sig: exit $rc, not $want: $(cat "$tmp/err")"
	[ -s "$lmb/term.lat_unix" ] || fail "$sig: the tool was not sent SIGTERM"
	left=$(left_running 'sleep 61[67]')
	[ -z "$left" ] || fail "$sig: left running: $left"
fi
for p in $(tagged 'sleep 61[67]'); do kill -s KILL "$p"; done

finish
