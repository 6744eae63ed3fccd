#!/bin/sh
# ipc-output.sh: lat_pipe, lat_unix, lat_fifo, bw_pipe and bw_unix.
. "$top_srcdir/tests/lib.sh"

# FIFOs live in a private directory under $TMPDIR: point it at one we
# can check is left empty.
TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

num='[0-9]+\.[0-9]{4}'
# Each line ends with the placement it measured: cross where two CPUs
# are allowed, else same.
pl=' \(cross\)'
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] || pl=' \(same\)'
expect_line "^Pipe latency: $num microseconds$pl\$" "$bin/lat_pipe" -N 3
expect_line "^AF_UNIX sock stream latency: $num microseconds$pl\$" \
    "$bin/lat_unix" -N 3
expect_line "^AF_UNIX sock stream latency: $num microseconds$pl\$" \
    "$bin/lat_unix" -N 3 -m 4096
expect_line "^Fifo latency: $num microseconds$pl\$" "$bin/lat_fifo" -N 3
expect_line "^Fifo latency: $num microseconds$pl\$" "$bin/lat_fifo" -N 3 -P 2
expect_line "^Pipe bandwidth: [0-9]+\\.[0-9]{2} MB/sec$pl\$" "$bin/bw_pipe" -N 3 \
    -M 1m
expect_line "^AF_UNIX sock stream bandwidth: [0-9]+\\.[0-9]{2} MB/sec$pl\$" \
    "$bin/bw_unix" -N 3 -m 16k -M 1m
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
if have_jq; then
	expect_json '.tool == "lat_pipe" and .unit == "us" and .value > 0 and
	    .params.msgsize == 1' "$bin/lat_pipe" --json -N 3
	expect_json '.tool == "bw_unix" and .unit == "MB/s" and .value > 0 and
	    .params.msgsize == 65536 and .params.total == 1048576' \
	    "$bin/bw_unix" --json -N 3 -M 1m
fi

expect_exit 2 "-m: 0 is out of range" "$bin/lat_unix" -m 0
expect_exit 2 "-m: '1x' is not a size" "$bin/bw_pipe" -m 1x
expect_exit 2 "unknown option or missing value: -m" "$bin/lat_pipe" -m 10
expect_exit 2 "unexpected argument 'extra'" "$bin/lat_fifo" extra

# A partner that dies mid-run is an error naming the cause, not a hang.
for t in lat_pipe lat_fifo bw_unix; do
	ENOUGH=200000 "$bin/$t" -N 100 >"$tmp/out" 2>"$tmp/err" &
	kill_helper $! "$t" partner
	grep -Eq "^$t: worker 0: benchmark failed: $dead_partner\$" \
	    "$tmp/err" ||
		fail "$t: message '$(cat "$tmp/err")'"
done
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children
finish
