#!/bin/sh
# ab-fake.sh: a stand-in tool for benchmp-ab's tests, whose figure the environment sets.
#
# Prints one record, as a tool does with --json: a latency of
# AB_FAKE_BASE (default 100) times 1 + AB_FAKE_EFFECT (default 0), times a
# noise factor 1 + AB_FAKE_NOISE * u (default 0.01), u uniform in [-1, 1]
# from a seeded sequence: each call takes the next number of the counter in
# the file AB_FAKE_STATE, so runs repeat exactly.  AB_FAKE_BETTER=higher
# makes it a bandwidth.  AB_FAKE_FAIL=1 exits 3 with a message,
# AB_FAKE_HANG=1 sleeps, AB_FAKE_SPAWN=FILE leaves a sleeping child whose
# pid goes to FILE, AB_FAKE_TWO=1 prints a second figure, AB_FAKE_GARBAGE=1
# prints a broken record, AB_FAKE_PRIVATE=1 names a private directory of
# its own in its params (another each call, as lat_unix_connect's socket).
# AB_FAKE_BETTER=none makes it a figure with no better direction (a line
# size in bytes); AB_FAKE_UNIT and AB_FAKE_SCALE print the value in
# another unit (ns and 1000 for us); AB_FAKE_VALUE prints that text as
# the value; AB_FAKE_PARAMS that text as the params; AB_FAKE_MANY=N
# prints N records of N figures; AB_FAKE_HANG_AFTER=N sleeps from the
# counter's Nth call on.  A carriage return in an argument fails it.
set -eu
cr=$(printf '\r')
case "$*" in
*"$cr"*)
	echo "ab-fake: a carriage return in its arguments" >&2
	exit 3 ;;
esac
if [ "${AB_FAKE_FAIL:-0}" = 1 ]; then
	echo "ab-fake: failing as asked" >&2
	exit 3
fi
if [ -n "${AB_FAKE_SPAWN:-}" ]; then
	sleep 300 &
	echo $! >"$AB_FAKE_SPAWN"
fi
if [ "${AB_FAKE_HANG:-0}" = 1 ]; then
	sleep 300
fi
if [ "${AB_FAKE_GARBAGE:-0}" = 1 ]; then
	echo '{"tool":"fake","value":'
	exit 0
fi
state=${AB_FAKE_STATE:?AB_FAKE_STATE names the counter file}
n=$(cat "$state" 2>/dev/null || echo 0)
echo $((n + 1)) >"$state"
if [ "$n" -ge "${AB_FAKE_HANG_AFTER:-999999}" ]; then
	sleep 300
fi
better=${AB_FAKE_BETTER:-lower}
metric=latency
unit=us
if [ "$better" = higher ]; then
	metric=bandwidth
	unit=MB/s
elif [ "$better" = none ]; then
	metric=line
	unit=bytes
fi
if [ -n "${AB_FAKE_MANY:-}" ]; then
	awk -v n="$AB_FAKE_MANY" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "{\"tool\":\"fake\",\"case\":\"c%d\",\"params\":{\"i\":%d},\"metric\":\"latency\",\"unit\":\"us\",\"better\":\"lower\",\"value\":%d}\n", n - i, i, 1 + i % 7
	}'
	exit 0
fi
awk -v n="$n" -v base="${AB_FAKE_BASE:-100}" -v eff="${AB_FAKE_EFFECT:-0}" \
    -v noise="${AB_FAKE_NOISE:-0.01}" -v better="$better" \
    -v metric="$metric" -v unit="${AB_FAKE_UNIT:-$unit}" \
    -v scale="${AB_FAKE_SCALE:-1}" -v value="${AB_FAKE_VALUE:-}" \
    -v params="${AB_FAKE_PARAMS:-}" -v two="${AB_FAKE_TWO:-0}" \
    -v priv="${AB_FAKE_PRIVATE:-0}" 'BEGIN {
	srand(n + 1)
	u = 2 * rand() - 1
	v = sprintf("%.9g", scale * base * (1 + eff) * (1 + noise * u))
	if (value != "")
		v = value
	if (params == "")
		params = priv ? sprintf("{\"host\":\"/tmp/benchmp-fake.%06d/s0\"}", n % 1000000) : "{}"
	printf "{\"tool\":\"fake\",\"case\":\"x\",\"params\":%s,\"metric\":\"%s\",\"unit\":\"%s\",\"better\":\"%s\",\"value\":%s,\"values\":[1,2]}\n", params, metric, unit, better, v
	if (two)
		printf "{\"tool\":\"fake\",\"case\":\"y\",\"params\":{\"size\":8},\"metric\":\"%s\",\"unit\":\"%s\",\"better\":\"%s\",\"value\":%.9g}\n", metric, unit, better, 2 * base * (1 + noise * u)
}'
