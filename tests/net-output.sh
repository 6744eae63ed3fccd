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

# The tools speak IPv4, as lmbench's: an IPv6 address is refused by name
# (it reached for a server that listens on IPv4 alone: "Connection
# refused").  Where localhost gives ::1 first, the clients above reached
# the IPv4 server all the same.
expect_exit 1 'cannot resolve ::1 to an IPv4 address' "$bin/lat_tcp" -N 3 ::1
expect_exit 1 'cannot resolve ::1 to an IPv4 address' "$bin/lat_udp" \
    -p "$port" -S ::1
# A UDP stop with no server: the port's ICMP error is no answer (it made
# -S exit 0).
expect_exit 1 'the server did not answer the stop' "$bin/lat_udp" \
    -p "$port" -S 127.0.0.1

# server_gone NAME: the server NAME -s -p $port (or $sock) has exited.
server_gone() {
	[ -z "$(left_running "$1 -s -p $2")" ] ||
		fail "$1 -s -p $2: the server is still running"
}

# Out of descriptors (ulimit -n 4: its socket is the server's last one),
# the server tries to accept again instead of exiting with nobody told:
# a stop it cannot accept goes unanswered, and the server is still there.
if [ -f "$bin/.libs/lat_connect" ]; then
	real=$bin/.libs
	LD_LIBRARY_PATH=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
else
	real=$bin
fi
# shellcheck disable=SC3045
if (ulimit -n 4) 2>/dev/null; then
	# (LeakSanitizer's check at the tool's exit needs descriptors of
	# its own: off for this one command of a sanitized build.)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    sh -c 'ulimit -n 4 && exec "$@"' sh "$real/lat_connect" -s -p "$port" \
	    </dev/null >/dev/null 2>"$tmp/err" ||
		fail "lat_connect -s under ulimit -n 4: $(cat "$tmp/err")"
	expect_exit 1 'the server did not answer the stop' "$bin/lat_connect" \
	    -p "$port" -S 127.0.0.1
	srv=$(tagged "lat_connect -s -p $port")
	[ -n "$srv" ] || fail "lat_connect -s out of descriptors exited"
	for p in $srv; do
		kill "$p"
	done
	server_gone lat_connect "$port"
fi

# SIGTERM or SIGHUP to lat_unix_connect's server removes its socket, and
# the socket of one killed outright is replaced by the next -s: the next
# -s failed, "Address already in use".  A SIGHUP ignored when this test
# started (nohup) stays ignored by the server, rightly: not sent then.
hup=HUP
case $(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null) in
*[13579bdfBDF])
	echo "$me: SIGHUP is ignored here (nohup): its check is not run" >&2
	hup= ;;
esac
for sig in TERM $hup KILL; do
	run "$bin/lat_unix_connect" -s -p "$sock"
	[ "$rc" -eq 0 ] ||
		fail "lat_unix_connect -s before SIG$sig: $(cat "$tmp/err")"
	for p in $(tagged "lat_unix_connect -s -p $sock"); do
		kill -s "$sig" "$p"
	done
	server_gone lat_unix_connect "$sock"
	[ "$sig" = KILL ] || [ ! -e "$sock" ] || fail "SIG$sig left $sock"
done
run "$bin/lat_unix_connect" -s -p "$sock"
[ "$rc" -eq 0 ] || fail "lat_unix_connect -s on a stale socket: $(cat "$tmp/err")"
run "$bin/lat_unix_connect" -s -p "$sock"
[ "$rc" -eq 1 ] && grep -q 'Address already in use$' "$tmp/err" ||
	fail "a second lat_unix_connect -s: exit $rc: $(cat "$tmp/err")"
run "$bin/lat_unix_connect" -S -p "$sock"
[ "$rc" -eq 0 ] || fail "lat_unix_connect -S: $(cat "$tmp/err")"
server_gone lat_unix_connect "$sock"
rm -f "$sock"

if command -v python3 >/dev/null 2>&1; then
	# A stop to an AF_UNIX listener whose backlog is full gives up after
	# 5 s (its connect waited for ever).
	# shellcheck disable=SC2016 # Python's text
	python3 -c '
import socket, sys, time
l = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
l.bind(sys.argv[1])
l.listen(0)
held = []
try:
    while True:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.setblocking(False)
        c.connect(sys.argv[1])
        held.append(c)
except BlockingIOError:
    pass
print("full", flush=True)
time.sleep(float(sys.argv[2]))
' "$TMPDIR/full.sock" $((hang_s * 2)) >"$tmp/full" 2>&1 &
	fpid=$!
	n=0
	while ! grep -q full "$tmp/full" && kill -0 "$fpid" 2>/dev/null &&
	    [ "$n" -lt $((hang_s * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	expect_exit 1 "cannot reach the server at $TMPDIR/full.sock" \
	    timeout "$hang_s" "$bin/lat_unix_connect" -S -p "$TMPDIR/full.sock"
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	rm -f "$TMPDIR/full.sock"

	# A client that sends part of a header and holds its connection is
	# dropped after 5 s, and the next client served: the server read the
	# rest with no bound, and served nobody else, for good.
	run "$bin/lat_tcp" -s -p "$port"
	[ "$rc" -eq 0 ] || fail "lat_tcp -s exited $rc: $(cat "$tmp/err")"
	# shellcheck disable=SC2016 # Python's text
	python3 -c '
import socket, sys
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
c.sendall(b"BMP")
print("sent", flush=True)
c.settimeout(float(sys.argv[2]))
try:
    print("closed" if c.recv(1) == b"" else "data")
except socket.timeout:
    print("held")
except OSError:
    print("closed")
' "$port" "$hang_s" >"$tmp/part" 2>&1 &
	ppid=$!
	n=0
	while ! grep -q sent "$tmp/part" && kill -0 "$ppid" 2>/dev/null &&
	    [ "$n" -lt $((hang_s * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	expect_line "^TCP latency using localhost: $us" "$bin/lat_tcp" \
	    --timeout=120 -N 3 -p "$port" localhost
	wait "$ppid"
	grep -qx closed "$tmp/part" ||
		fail "a partial header held the server: $(cat "$tmp/part")"
	run "$bin/lat_tcp" -p "$port" -S localhost
	[ "$rc" -eq 0 ] || fail "lat_tcp -S exited $rc: $(cat "$tmp/err")"
	server_gone lat_tcp "$port"
else
	echo "$me: no python3: a partial header and a full backlog are not" \
	    "tested" >&2
fi

# A server that dies mid-run is an error, not a hang.
ENOUGH=200000 "$bin/lat_tcp" -N 100 >"$tmp/out" 2>"$tmp/err" &
kill_helper $! lat_tcp partner
grep -Eq "^lat_tcp: worker 0: benchmark failed: $dead_partner\$" "$tmp/err" ||
	fail "lat_tcp: message '$(cat "$tmp/err")'"

[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children
finish
