#!/bin/sh
# net-output.sh: lat_tcp, lat_udp, lat_connect, lat_unix_connect and bw_tcp,
# with their own server and with a server started by -s and stopped by -S.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

# With their own server the lines end with the placement measured (cross
# where two CPUs are allowed); a remote host's lines, placed by nobody,
# are lmbench's alone.
pl=' \(cross\)'
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] || pl=' \(same\)'
us='[0-9]+\.[0-9]{4} microseconds$'
own="[0-9]+\\.[0-9]{4} microseconds$pl\$"
expect_line "^TCP latency using 127\.0\.0\.1: $own" "$bin/lat_tcp" -N 3
expect_line "^TCP latency using 127\.0\.0\.1: $own" "$bin/lat_tcp" -N 3 -m 1k -P 2
expect_line "^UDP latency using 127\.0\.0\.1: $own" "$bin/lat_udp" -N 3
expect_line "^TCP/IP connection cost to 127\.0\.0\.1: $own" "$bin/lat_connect" -N 3
expect_line "^UNIX connection cost: $own" "$bin/lat_unix_connect" -N 3
expect_line "^1\\.048576 [0-9]+\\.[0-9]{2} MB/sec$pl\$" "$bin/bw_tcp" -N 3 -M 1m
if have_jq; then
	expect_json '.tool == "bw_tcp" and .unit == "MB/s" and .value > 0 and
	    .params.total == 1048576' "$bin/bw_tcp" --json -N 3 -M 1m
	expect_json '.tool == "lat_udp" and .params.msgsize == 4 and .value > 0' \
	    "$bin/lat_udp" --json -N 3
fi

# lmbench's model: a server in the background, a client naming the host,
# then a stop.  The port is one of this test's, picked from its pid.
port=$((20000 + $$ % 20000))
for t in lat_tcp lat_udp lat_connect bw_tcp; do
	run "$bin/$t" -s -p "$port"
	[ "$rc" -eq 0 ] || fail "$t -s exited $rc: $(cat "$tmp/err")"
	case $t in
	bw_tcp) pat='^1\.048576 [0-9]+\.[0-9]{2} MB/sec$'; extra="-M 1m" ;;
	lat_connect) pat="^TCP/IP connection cost to localhost: $us"; extra= ;;
	*) pat="^[TU][CD]P latency using localhost: $us"; extra= ;;
	esac
	# shellcheck disable=SC2086
	expect_line "$pat" "$bin/$t" -N 3 -p "$port" $extra localhost
	run "$bin/$t" -p "$port" -S localhost
	[ "$rc" -eq 0 ] || fail "$t -S exited $rc: $(cat "$tmp/err")"
	n=0
	while pgrep -f "$t -s -p $port" >/dev/null && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	pgrep -f "$t -s -p $port" >/dev/null && fail "$t: server still running"
done
sock=$TMPDIR/unix.sock
run "$bin/lat_unix_connect" -s -p "$sock"
[ "$rc" -eq 0 ] || fail "lat_unix_connect -s exited $rc: $(cat "$tmp/err")"
expect_line "^UNIX connection cost: $us" "$bin/lat_unix_connect" -N 3 -p "$sock"
run "$bin/lat_unix_connect" -S -p "$sock"
[ "$rc" -eq 0 ] || fail "lat_unix_connect -S exited $rc: $(cat "$tmp/err")"
# The server removes its socket as it exits, a moment after -S returns:
# wait up to 10 s for that.
n=0
while [ -e "$sock" ] && [ "$n" -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -e "$sock" ] && fail "the stopped server left $sock"

# No server: a clear error, quickly.
expect_exit 1 'cannot reach the server at localhost: Connection refused' \
    "$bin/lat_tcp" -p "$port" -S localhost
expect_exit 1 'worker 0: .*Connection refused' "$bin/lat_connect" -N 3 \
    -p "$port" localhost
expect_exit 1 'cannot resolve no.such.host.invalid' "$bin/lat_tcp" \
    no.such.host.invalid
expect_exit 2 '-p: 0 is out of range' "$bin/lat_tcp" -p 0
expect_exit 2 '-p: 70000 is out of range' "$bin/bw_tcp" -p 70000
expect_exit 2 '-m: 65508 is out of range' "$bin/lat_udp" -m 65508
expect_exit 2 '-m: 0 is out of range' "$bin/lat_tcp" -m 0
expect_exit 2 "-M: 'lots' is not a size" "$bin/bw_tcp" -M lots
expect_exit 2 '-s and -S exclude each other' "$bin/lat_tcp" -s -S localhost
expect_exit 2 "unexpected argument 'host'" "$bin/lat_unix_connect" host
expect_exit 2 'too many arguments' "$bin/lat_connect" a b

# A server that dies mid-run is an error, not a hang.
ENOUGH=200000 "$bin/lat_tcp" -N 100 >"$tmp/out" 2>"$tmp/err" &
kill_helper $! lat_tcp partner
grep -Eq "^lat_tcp: worker 0: benchmark failed: $dead_partner\$" "$tmp/err" ||
	fail "lat_tcp: message '$(cat "$tmp/err")'"

[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children
finish
