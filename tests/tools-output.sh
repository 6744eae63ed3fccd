#!/bin/sh
# tools-output.sh: --output and BENCHMP_OUTPUT send records to sinks.
. "$top_srcdir/tests/lib.sh"

ls=$bin/lat_syscall
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# Eight tools at once append to one file: eight whole records.
f=$tmp/shared.jsonl
i=0
while [ "$i" -lt 8 ]; do
	"$ls" -N 3 --output="file:$f" null >"$tmp/out.$i" 2>"$tmp/err.$i" &
	i=$((i + 1))
done
wait
i=0
while [ "$i" -lt 8 ]; do
	grep -q '^Simple syscall: ' "$tmp/out.$i" ||
		fail "tool $i did not print its line: $(cat "$tmp/err.$i")"
	i=$((i + 1))
done
[ "$(wc -l <"$f")" -eq 8 ] || fail "$(wc -l <"$f") records, not 8"
[ "$(jq -s 'map(select(.tool == "lat_syscall" and .value > 0)) | length' \
    "$f")" = 8 ] || fail "the shared file does not hold 8 valid records"

# BENCHMP_OUTPUT=- puts the record on stdout instead of the line.
expect_json '.tool == "lat_syscall" and .case == "read"' \
    env BENCHMP_OUTPUT=- "$ls" -N 3 read
# --output wins over the environment (whose value is still checked: a
# malformed one is refused, see settings.sh).
run env BENCHMP_OUTPUT="file:$tmp/env-o.jsonl" "$ls" -N 3 \
    --output="file:$tmp/o.jsonl" null
[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/o.jsonl")" -eq 1 ] &&
    [ ! -e "$tmp/env-o.jsonl" ] ||
	fail "--output did not override BENCHMP_OUTPUT: exit $rc"

# An unusable sink fails before anything is measured (ENOUGH is 10 s).
t0=$(date +%s)
expect_exit 2 "^lat_syscall: BENCHMP_OUTPUT: unknown sink 'bogus'" \
    env ENOUGH=10000000 BENCHMP_OUTPUT=bogus "$ls" null
expect_exit 2 "^lat_syscall: --output: sink 'file:' has no path" \
    env ENOUGH=10000000 "$ls" --output=file: null
expect_exit 1 'cannot open sink file /nonexistent/x.jsonl' \
    env ENOUGH=10000000 "$ls" --output=file:/nonexistent/x.jsonl null
# A measurement would take over 10 s each; 30 s for the three is a bound
# a loaded machine meets.
[ $(($(date +%s) - t0)) -lt 30 ] || fail "bad sinks were not refused at once"
# A full disk is an error, and the tool says so.
if [ -w /dev/full ]; then
	expect_exit 1 'writing to sink file:/dev/full: No space left' "$ls" -N 3 \
	    --output=file:/dev/full null
fi

# Stream sinks: a listener on a Unix socket and one on a TCP port each get
# the record as one whole line of JSON, from --output and BENCHMP_OUTPUT.
listen=$top_builddir/tests/stream-listen
# A Unix socket's path must fit in sun_path (108 bytes).
d=$(mktemp -d "$tmp/s.XXXXXX") || exit 99
[ "${#d}" -le 90 ] || d=$(mktemp -d /tmp/bs.XXXXXX) || exit 99
for how in unix-opt tcp-opt tcp-env; do
	rm -f "$d/ready" "$d/s"
	case $how in
	unix*) "$listen" "unix:$d/s" "$d/ready" >"$d/got" 2>"$d/lerr" & ;;
	*) "$listen" tcp "$d/ready" >"$d/got" 2>"$d/lerr" & ;;
	esac
	pid=$!
	n=0
	while [ ! -f "$d/ready" ] && kill -0 "$pid" 2>/dev/null &&
	    [ "$n" -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	case $how in
	unix*) sink="unix:$d/s" ;;
	*) sink="tcp:127.0.0.1:$(cat "$d/ready")" ;;
	esac
	case $how in
	*-env) run env BENCHMP_OUTPUT="$sink" "$ls" -N 1 null ;;
	*) run "$ls" -N 1 --output="$sink" null ;;
	esac
	[ "$rc" -eq 0 ] || fail "$how: lat_syscall exited $rc: $(cat "$tmp/err")"
	grep -q '^Simple syscall: ' "$tmp/out" ||
		fail "$how: lat_syscall printed '$(cat "$tmp/out")'"
	wait_gone "$pid" 30
	[ "$rc" -eq 0 ] || fail "$how: stream-listen exited $rc: $(cat "$d/lerr")"
	[ "$(wc -l <"$d/got")" -eq 1 ] &&
	    [ "$(jq -s 'map(select(.tool == "lat_syscall" and .value > 0)) |
	    length' "$d/got")" = 1 ] ||
		fail "$how: the listener got '$(head -c 200 "$d/got")'"
done
# Nobody listening is an error that names the sink, exit 1; a bad spec is
# a usage error, exit 2.
rm -f "$d/s"
expect_exit 1 "^lat_syscall: --output: sink unix:$d/s: nobody listens there" \
    env ENOUGH=10000000 "$ls" --output="unix:$d/s" null
expect_exit 2 \
    "^lat_syscall: BENCHMP_OUTPUT: sink 'tcp:127.0.0.1:65536': the port .* out of range" \
    env ENOUGH=10000000 BENCHMP_OUTPUT=tcp:127.0.0.1:65536 "$ls" null
rm -rf "$d"

no_children
finish
