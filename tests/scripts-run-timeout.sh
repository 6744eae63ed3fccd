#!/bin/sh
# scripts-run-timeout.sh: benchmp-run run in passes (--classic) bounds its
# wait for each tool: a tool that stops answering is killed with what it
# started --timeout S past its share of the budget, named, and the run
# goes on to the other figures and exits 1; the records the tool finished
# before are kept, and nothing is left running.  So is a machine check
# that does not answer, said as such.  A SIGTERM to the run
# reaches the tool it waits for at once.
. "$top_srcdir/tests/lib.sh"
unset BENCHMP_PROCESSES

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
if ! command -v timeout >/dev/null 2>&1; then
	echo "$me: timeout not found: skipped" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
real=$(cd "$bin" && pwd)/lat_syscall
# A lat_syscall that, for null, prints its record and then hangs.
mkdir "$tmp/fake" || fail "mkdir $tmp/fake"
cat >"$tmp/fake/lat_syscall" <<EOS
#!/bin/sh
case " \$* " in
*" null "*) "$real" "\$@"; exec sleep 611 ;;
esac
exec "$real" "\$@"
EOS
chmod +x "$tmp/fake/lat_syscall" || fail "chmod"
PATH=$tmp/fake:$(cd "$bin" && pwd):$PATH
export PATH

# --timeout's seconds, checked with --classic too.
expect_exit 2 "--timeout: '0' is not" "$brun" --installed --no-check \
    --classic --timeout 0

# The same bound for the machine check: a copy of the script beside a
# benchmp-check that hangs.
mkdir "$tmp/chk" && cp "$brun" "$tmp/chk/benchmp-run" &&
    cp "$top_srcdir/scripts/benchmp-lib.sh" "$tmp/chk/" &&
    printf '#!/bin/sh\nexec sleep 612\n' >"$tmp/chk/benchmp-check" &&
    chmod +x "$tmp/chk/benchmp-run" "$tmp/chk/benchmp-check" || exit 99
run "$tmp/chk/benchmp-run" --installed --classic --quick --only processor \
    --budget 12 --timeout 1 --results "$tmp/res"
grep -q '^benchmp-run: warning: the machine check failed: stopped after 1 s (--timeout S waits longer)$' \
    "$tmp/err" || fail "the check's bound not said: $(head -n 3 "$tmp/err")"
[ "$rc" -eq 1 ] || fail "exit $rc, not 1: $(tail -n 3 "$tmp/err")"
grep -Eq '^benchmp-run: lat_syscall .*null: no answer within [0-9.]+ s \(its share and --timeout 1 s\): killed$' \
    "$tmp/err" || fail "the hung tool not named: $(cat "$tmp/err")"
grep -Eq '^  lat_syscall .*null: no answer within [0-9.]+ s: killed$' \
    "$tmp/err" || fail "not in the failures' list: $(tail -n 5 "$tmp/err")"
set -- "$tmp"/res/*/*.jsonl
if [ -f "$1" ]; then
	# The record null printed before it hung, and the figures after it.
	jq -e -s '[.[] | select(.tool == "lat_syscall") | .case] |
	    index("null") != null and index("read") != null' "$1" \
	    >/dev/null || fail "records: $(jq -c '[.tool, .case]' "$1")"
else
	fail "no results file"
fi
left=$(left_running 'sleep 611')$(left_running 'sleep 612')
[ -z "$left" ] || fail "left running: $left"

# SIGTERM while the run waits for the hung tool (--timeout 300): passed
# on at once, the run exits 143 and leaves nothing running.
"$brun" --installed --classic --quick --only processor --budget 60 \
    --timeout 300 --no-check --results "$tmp/res2" </dev/null \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
n=0
while [ -z "$(tagged 'sleep 611')" ] && [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -n "$(tagged 'sleep 611')" ] ||
	fail "no hung lat_syscall within $hang_s s: $(tail -n 3 "$tmp/err")"
kill -s TERM "$pid"
wait_gone "$pid" "$hang_s"
[ "$rc" -eq 143 ] || fail "exit $rc after SIGTERM, not 143: $(tail -n 3 "$tmp/err")"
left=$(left_running 'sleep 611')
[ -z "$left" ] || fail "left running after SIGTERM: $left"

finish
