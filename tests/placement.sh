#!/bin/sh
# placement.sh: --placement=cross|same|both of the two-process tools (the
# CPUs in the record, the pinning itself, a one-CPU mask, BENCHMP_SCHED),
# and the socket-path, lat_ctx and BENCHMP_SCHED errors found beside it.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

ncpu=$(nproc 2>/dev/null || echo 1)

# The rows of lat_ctx's output for a ring of 2 whose time is positive
# (28.00 is one; 0.00 is not).
ctx_rows() {
	awk '$1 == "2" && NF == 2 && $2 ~ /^[0-9]+\.[0-9]+$/ &&
	    $2 + 0 > 0 { n++ } END { print n + 0 }' "$tmp/out"
}

# Every two-process tool, with arguments that keep its run short.
tools='lat_pipe
lat_unix
lat_fifo
lat_sem
lat_fcntl
lat_tcp
lat_udp
lat_connect
lat_unix_connect
bw_pipe -M 64k
bw_unix -M 64k
bw_tcp -M 64k
lat_ctx 2'

if have_jq && [ "$ncpu" -ge 2 ]; then
	# both: two records, cross on two CPUs then same on one, as seen by
	# sched_getcpu in the worker and in its partner.
	echo "$tools" | while read -r t args; do
		# shellcheck disable=SC2086
		run "$bin/$t" --json -N 3 --placement=both $args
		if [ "$rc" -ne 0 ]; then
			fail "$t --placement=both exited $rc: $(head -n 2 "$tmp/err")"
			continue
		fi
		jq -se 'length == 2 and
		    .[0].params.placement == "cross" and
		    .[0].measured.worker_cpu != .[0].measured.partner_cpu and
		    .[0].measured.cpus == "\(.[0].measured.worker_cpu),\(.[0].measured.partner_cpu)" and
		    .[1].params.placement == "same" and
		    .[1].measured.worker_cpu == .[1].measured.partner_cpu and
		    .[1].measured.cpus == "\(.[1].measured.worker_cpu),\(.[1].measured.worker_cpu)" and
		    all(.[]; .measured.placement_asked == null) and
		    .[0].later_warmup_us == null and
		    .[1].later_warmup_us == 5000' "$tmp/out" \
		    >/dev/null || fail "$t --placement=both: $(cat "$tmp/out")"
	done
	# The default is cross.
	expect_json '.params.placement == "cross" and
	    .measured.worker_cpu != .measured.partner_cpu' "$bin/lat_pipe" --json -N 3
	expect_json '.params.placement == "same" and
	    .measured.worker_cpu == .measured.partner_cpu' "$bin/lat_tcp" --json \
	    -N 3 --placement=same
	# -P 2 on two CPUs: each pair spans both CPUs.
	expect_json '.measured.cpus == "0,1 0,1" or .measured.cpus == "\(.measured.worker_cpu),\(.measured.partner_cpu) \(.measured.worker_cpu),\(.measured.partner_cpu)"' \
	    "$bin/lat_sem" --json -N 3 -P 2
	# A ring: cross spreads it round-robin (a ring of 4 cannot be "not
	# measurable" across CPUs, whose hops cost far more than the overhead).
	run "$bin/lat_ctx" --json -N 3 --placement=cross 4
	jq -se 'length == 1 and (.[0].measured.cpus | split(",")) as $p |
	    ($p | length) == 4 and $p[0] != $p[1] and $p[1] != $p[2] and
	    $p[2] != $p[3]' "$tmp/out" >/dev/null ||
		fail "lat_ctx ring, cross: $(cat "$tmp/out" "$tmp/err")"
	# Same keeps it on one CPU (and may find it not measurable).
	run "$bin/lat_ctx" --json -N 3 --placement=same 4
	if [ "$rc" -eq 0 ]; then
		jq -se 'length == 1 and (.[0].measured.cpus | split(",") |
		    length == 4 and (unique | length) == 1)' "$tmp/out" \
		    >/dev/null || fail "lat_ctx ring, same: $(cat "$tmp/out")"
	elif [ "$rc" -ne 1 ] || ! grep -q 'not measurable' "$tmp/err"; then
		fail "lat_ctx ring, same: exit $rc: $(cat "$tmp/err")"
	fi
	# Above, each round after the first of a same figure warmed up for 5
	# ms and every round of a cross one fully, even when asked otherwise.
	# -W alone is every round's; a figure of one process is like a same
	# one, and BENCHMP_LATER_WARMUP is --later-warmup's default.
	expect_json '.later_warmup_us == null and .warmup_us == 20000' \
	    "$bin/lat_sem" --json -N 3 -W 20000 --placement=same
	expect_json '.later_warmup_us == null' "$bin/lat_pipe" --json -N 3 \
	    --later-warmup=2000
	expect_json '.later_warmup_us == 5000 and .warmup_us == 50000' \
	    "$bin/lat_syscall" --json -N 3 null
	expect_json '.later_warmup_us == 2000 and .warmup_us == 20000' \
	    "$bin/lat_syscall" --json -N 3 -W 20000 --later-warmup=2000 null
	expect_json '.later_warmup_us == 3000' \
	    env BENCHMP_LATER_WARMUP=3000 "$bin/lat_syscall" --json -N 3 null
	expect_json '.later_warmup_us == 2000' env BENCHMP_LATER_WARMUP=3000 \
	    "$bin/lat_syscall" --json -N 3 --later-warmup=2000 null
	# Longer than the first round's: every round warms up for -W's.
	expect_json '.later_warmup_us == null' \
	    "$bin/lat_syscall" --json -N 3 -W 1000 --later-warmup=2000 null
	# A policy places the worker; the partner follows placement.
	expect_json '.measured.worker_cpu == 1 and .measured.partner_cpu != 1' \
	    env BENCHMP_SCHED=list:1 "$bin/lat_pipe" --json -N 3
	expect_json '.measured.worker_cpu == 1 and .measured.partner_cpu == 1' \
	    env BENCHMP_SCHED=list:1 "$bin/lat_unix" --json -N 3 \
	    --placement=same
fi

# both: two classic lines, labelled; lat_ctx: one header per placement.
if [ "$ncpu" -ge 2 ]; then
	run "$bin/lat_pipe" -N 3 --placement=both
	if ! { [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
	    sed -n 1p "$tmp/out" | grep -Eq '^Pipe latency: [0-9.]+ microseconds \(cross\)$' &&
	    sed -n 2p "$tmp/out" | grep -Eq '^Pipe latency: [0-9.]+ microseconds \(same\)$'; }; then
		fail "lat_pipe --placement=both printed: $(cat "$tmp/out")"
	fi
	run "$bin/bw_tcp" -N 3 -M 64k --placement=both
	if ! { [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
	    grep -Eq '^0\.065536 [0-9.]+ MB/sec \(same\)$' "$tmp/out"; }; then
		fail "bw_tcp --placement=both printed: $(cat "$tmp/out")"
	fi
	# A ring on one CPU hops about as fast as the overhead alone, and a
	# loaded machine can make it "not measurable" (exit 1): a row or
	# that message for each placement, never a time <= 0.
	run "$bin/lat_ctx" -N 3 --placement=both 2
	rows=$(ctx_rows)
	nm=$(grep -c 'switch is not measurable' "$tmp/err")
	if ! { [ "$(grep -c '^"size=0k ovr=[0-9.]* (cross)$' "$tmp/out")" -eq 1 ] &&
	    [ "$(grep -c '^"size=0k ovr=[0-9.]* (same)$' "$tmp/out")" -eq 1 ] &&
	    [ $((rows + nm)) -eq 2 ] &&
	    { { [ "$rc" -eq 0 ] && [ "$nm" -eq 0 ]; } ||
	      { [ "$rc" -eq 1 ] && [ "$nm" -gt 0 ]; }; }; }; then
		fail "lat_ctx --placement=both: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	fi
fi
# The default line is lmbench's, then the placement it measured: cross
# where two CPUs are allowed, else same; --placement=same says same.
pl=cross
[ "$ncpu" -ge 2 ] || pl=same
expect_line "^Pipe latency: [0-9]+\\.[0-9]{4} microseconds \\($pl\\)\$" \
    "$bin/lat_pipe" -N 3
expect_line '^Pipe latency: [0-9]+\.[0-9]{4} microseconds \(same\)$' \
    "$bin/lat_pipe" -N 3 --placement=same
expect_line "^Fcntl lock latency: [0-9]+\\.[0-9]{4} microseconds \\($pl\\)\$" \
    "$bin/lat_fcntl" -N 3
expect_line "^Semaphore latency: [0-9]+\\.[0-9]{4} microseconds \\($pl\\)\$" \
    "$bin/lat_sem" -N 3

# The pinning is real: while the run lasts, the worker and its partner
# are each allowed one CPU, two different ones (read until the worker has
# moved back from the partner's CPU, which it borrows to fork it).
if [ "$ncpu" -ge 2 ]; then
	ENOUGH=100000 "$bin/lat_pipe" -N 1000 >/dev/null 2>&1 &
	pid=$!
	pair=$(child_with_child "$pid" lat_pipe)
	ok=0
	n=0
	while [ -n "$pair" ] && [ "$n" -lt $((hang_s * 10)) ]; do
		w=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' \
		    "/proc/${pair%% *}/status" 2>/dev/null)
		p=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' \
		    "/proc/${pair#* }/status" 2>/dev/null)
		case "$w$p" in
		*[,-]*) ;;
		*) [ -n "$w" ] && [ -n "$p" ] && [ "$w" != "$p" ] && ok=1 ;;
		esac
		[ "$ok" = 1 ] && break
		sleep 0.1
		n=$((n + 1))
	done
	[ "$ok" = 1 ] || fail "lat_pipe's worker and partner not pinned apart: worker '$w', partner '$p'"
	kill -s TERM "$pid"
	wait_gone "$pid" "$hang_s"
fi

# One CPU: cross is impossible; measure on it, say so once, exit 0.
if command -v taskset >/dev/null 2>&1; then
	run taskset -c 0 "$bin/lat_pipe" -N 3
	[ "$rc" -eq 0 ] || fail "taskset -c 0 lat_pipe exited $rc"
	grep -Eq '^Pipe latency: [0-9.]+ microseconds \(same\)$' "$tmp/out" ||
		fail "taskset -c 0 lat_pipe printed: $(cat "$tmp/out")"
	if ! { [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	    grep -q 'cross placement needs two CPUs.*CPU 0' "$tmp/err"; }; then
		fail "taskset -c 0 lat_pipe said: $(cat "$tmp/err")"
	fi
	if have_jq; then
		expect_json '.params.placement == "same" and
		    .measured.placement_asked == "cross" and
		    .measured.cpus == "0,0"' taskset -c 0 "$bin/lat_tcp" --json -N 3
		# both: the one figure it can measure, labelled.
		run taskset -c 0 "$bin/lat_sem" -N 3 --placement=both
		if ! { [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
		    grep -q ' microseconds (same)$' "$tmp/out"; }; then
			fail "taskset -c 0 lat_sem --placement=both: $rc $(cat "$tmp/out")"
		fi
	fi
	# same asks nothing impossible: no warning.
	run taskset -c 0 "$bin/lat_pipe" -N 3 --placement=same
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
		fail "taskset -c 0 lat_pipe --placement=same: $rc $(cat "$tmp/err")"
	fi
fi

# Usage errors.
expect_exit 2 "--placement: 'across' is not cross, same or both" \
    "$bin/lat_pipe" --placement=across
expect_exit 2 '--placement applies only to the tool.s own server' \
    "$bin/lat_tcp" --placement=same localhost
expect_exit 2 'BENCHMP_SCHED: CPU 999 is not among the' \
    env BENCHMP_SCHED=list:999 "$bin/lat_pipe" -N 3

# A socket path too long for sun_path: a message and exit 1, never a
# crash or a socket file cut short, whether the TMPDIR is just too long
# (77, 78) or far too long (85, 200 characters).
for len in 77 78 85 200; do
	long=$tmp/$(printf '%*s' $((len - ${#tmp} - 1)) '' | tr ' ' d)
	mkdir -p "$long"
	[ "${#long}" -eq "$len" ] || fail "made a TMPDIR of ${#long}, not $len"
	expect_exit 1 'socket path .* is too long' env TMPDIR="$long" \
	    "$bin/lat_unix_connect" -N 3
	run env TMPDIR="$long" "$bin/lat_unix_connect" -s
	if [ "$rc" -eq 0 ]; then
		run env TMPDIR="$long" "$bin/lat_unix_connect" -S
		[ "$rc" -eq 0 ] || fail "lat_unix_connect -S, TMPDIR of $len: $rc"
	elif [ "$rc" -ne 1 ] || ! grep -q 'File name too long' "$tmp/err"; then
		fail "lat_unix_connect -s, TMPDIR of $len: $rc $(cat "$tmp/err")"
	fi
	[ -z "$(ls -A "$long")" ] || fail "left in a TMPDIR of $len: $(ls -A "$long")"
	rm -rf "$long"
done

# lat_ctx: a working set that swamps the switch gives a positive figure or
# "not measurable" with exit 1, never a zero or negative time.
run "$bin/lat_ctx" -N 3 -s 32768 --placement=same 2
if [ "$rc" -eq 0 ]; then
	[ "$(ctx_rows)" -eq 1 ] ||
		fail "lat_ctx -s 32768 2 printed: $(cat "$tmp/out")"
elif [ "$rc" -ne 1 ] || ! grep -q 'switch is not measurable' "$tmp/err"; then
	fail "lat_ctx -s 32768 2: exit $rc: $(cat "$tmp/err")"
fi
grep -q '^2 -' "$tmp/out" && fail "lat_ctx printed a negative time"

[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children
finish
