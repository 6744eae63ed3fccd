#!/bin/sh
# port-lmbench.sh: the benchmarks of tests/port written as lmbench's are,
# built by make check on <benchmp/lmbench.h> alone with -Wall -Werror,
# run here: their lines in lmbench's formats, their figures in ranges any
# load allows, and no process left behind.
. "$top_srcdir/tests/lib.sh"
port=$top_builddir/tests/port
ENOUGH=5000
BENCHMP_PROCESSES=3
export ENOUGH BENCHMP_PROCESSES

for p in lm_lat_tcp lm_mem_chain; do
	[ -x "$port/$p" ] || { fail "$port/$p was not built"; exit 1; }
done
us='[0-9][0-9]*\.[0-9][0-9][0-9][0-9]'

# A TCP round trip over the loopback, server and client from the helpers.
run "$port/lm_lat_tcp"
if [ "$rc" -ne 0 ]; then
	fail "lm_lat_tcp exited $rc: $(head -n 3 "$tmp/err")"
else
	v=$(sed -n "s/^TCP latency using 127\.0\.0\.1 (1 bytes): \($us\) microseconds\$/\1/p" "$tmp/err")
	if [ -z "$v" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		fail "lm_lat_tcp: not one lmbench line: $(cat "$tmp/err")"
	elif ! awk -v a="$v" 'BEGIN { exit !(a > 0.1 && a < 100000) }'; then
		fail "lm_lat_tcp: $v us for a loopback round trip"
	fi
fi
# A message of 16k (bytes() reads the size), in two workers.
run "$port/lm_lat_tcp" -P 2 -m 16k
[ "$rc" -eq 0 ] && grep -q "^TCP latency using 127\.0\.0\.1 (16384 bytes): $us microseconds\$" "$tmp/err" ||
	fail "lm_lat_tcp -P 2 -m 16k: rc $rc: $(head -n 3 "$tmp/err")"
# A bad option: lmbench's usage line and a failing exit.
run "$port/lm_lat_tcp" -x
[ "$rc" -ne 0 ] && grep -q '^Usage: .*lm_lat_tcp \[-P' "$tmp/err" ||
	fail "lm_lat_tcp -x: rc $rc: $(cat "$tmp/err")"

# chain_line FILE: the "MB ns" lines; each ns in (0, 100000).
chain_lines() {
	awk 'NF == 2 && $1 ~ /^[0-9]+\.[0-9]+$/ && $2 ~ /^[0-9]+\.[0-9]+$/ {
		if (!($2 > 0 && $2 < 100000)) { print "ns " $2; exit 1 }
		n++ }
	    /^cache line: / { next }
	    NF != 2 && !/^cache line: / { print "line: " $0; exit 1 }
	    END { if (n != want) { print n " lines, not " want; exit 1 } }' \
	    want="$2" "$1"
}

# A stride chain over 256 KiB, one pointer every 64 bytes.
run "$port/lm_mem_chain" 256k 64
if [ "$rc" -ne 0 ]; then
	fail "lm_mem_chain 256k 64 exited $rc: $(head -n 3 "$tmp/err")"
elif ! why=$(chain_lines "$tmp/err" 1); then
	fail "lm_mem_chain 256k 64: $why: $(cat "$tmp/err")"
fi
grep -q '^0\.26214 ' "$tmp/err" ||
	fail "lm_mem_chain 256k 64: the size is not 0.26214 MB: $(cat "$tmp/err")"
# The random chain, the TLB chain and the line size.
run "$port/lm_mem_chain" -t -T -L -N 3 128k 64
if [ "$rc" -ne 0 ]; then
	fail "lm_mem_chain -t -T -L exited $rc: $(head -n 3 "$tmp/err")"
else
	why=$(chain_lines "$tmp/err" 2) ||
		fail "lm_mem_chain -t -T -L: $why: $(cat "$tmp/err")"
	l=$(sed -n 's/^cache line: \([0-9]*\) bytes$/\1/p' "$tmp/err")
	case $l in
	0 | 8 | 16 | 32 | 64 | 128 | 256) ;;
	*) fail "lm_mem_chain -L: cache line '$l': $(cat "$tmp/err")" ;;
	esac
fi
# Two workers and a stride larger than the buffer: usage.
run "$port/lm_mem_chain" -P 2 64k 128
[ "$rc" -eq 0 ] || fail "lm_mem_chain -P 2: rc $rc: $(head -n 3 "$tmp/err")"
run "$port/lm_mem_chain" 64 128
[ "$rc" -ne 0 ] && grep -q '^Usage: ' "$tmp/err" ||
	fail "lm_mem_chain 64 128: rc $rc: $(cat "$tmp/err")"

no_children
finish
