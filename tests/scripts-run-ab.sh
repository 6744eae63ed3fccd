#!/bin/sh
# scripts-run-ab.sh: benchmp-run --a/--b on a build whose bin/ is not on
# PATH runs that build's tools in both arms (the arms' prefix, env X=1,
# found none: "env: 'stream': No such file or directory"), and its table
# names a tool's figures of one case apart by their metric (stream's
# latency and bandwidth rows were both "stream copy len=...").
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
real=$(cd "$bin" && pwd) || exit 99
# A build of its own: this build's programs that the run needs, through
# scripts that exec them, and a stand-in stream whose two records (a
# latency and a bandwidth of one case) the arms' X sets.
b=$tmp/build
mkdir -p "$b/bin" || exit 99
for p in lat_syscall enough loop_o benchmp-ab benchmp-stats; do
	printf '#!/bin/sh\nexec "%s/%s" "$@"\n' "$real" "$p" >"$b/bin/$p" &&
	    chmod +x "$b/bin/$p" || exit 99
done
cat >"$b/bin/stream" <<'EOS' || exit 99
#!/bin/sh
v=$((100 + ${X:-0}))
for m in "latency ns lower $v" "bandwidth MB/s higher $((100000 / v))"; do
	# shellcheck disable=SC2086
	set -- $m
	printf '{"tool":"stream","case":"copy","params":{"len":1000},"metric":"%s","unit":"%s","better":"%s","value":%s}\n' "$1" "$2" "$3" "$4"
done
EOS
chmod +x "$b/bin/stream" || exit 99
# PATH without this build's programs (lib.sh put them last).
path=
for d in /usr/local/bin /usr/bin /bin; do
	[ -d "$d" ] && path=${path:+$path:}$d
done
! PATH=$path command -v stream >/dev/null 2>&1 ||
	{ echo "$me: a stream on PATH: skipped" >&2; exit 77; }

run env PATH="$path" "$top_srcdir/scripts/benchmp-run" --build "$b" \
    --only memory --no-check --budget 20 --results "$tmp/res" \
    --a 'env X=0' --b 'env X=50'
# Exit 1 is B worse, or a failure (no table).
if [ "$rc" -gt 1 ] || ! grep -q '^figure ' "$tmp/out"; then
	fail "--a/--b on --build: exit $rc: $(tail -n 3 "$tmp/err")"
else
	# One row a figure, told apart by its metric; B (X=50) is worse in
	# both, when decided.
	grep -Eq '^stream copy len=1000 latency ' "$tmp/out" &&
	    grep -Eq '^stream copy len=1000 bandwidth ' "$tmp/out" ||
		fail "--a/--b: the rows do not name the metric: $(cat "$tmp/out")"
	[ "$(grep -c '^stream ' "$tmp/out")" -eq 2 ] ||
		fail "--a/--b: not two rows: $(cat "$tmp/out")"
	! grep -Eq '^stream .* (better|same)$' "$tmp/out" ||
		fail "--a/--b: B's 50% loss not seen: $(cat "$tmp/out")"
	# Both arms ran the stand-in: every record of the run is its.
	n=$(cat "$tmp/res"/*/*.ab.jsonl | jq -s '[.[] | select(.tool ==
	    "stream")] | group_by(.ab_arm) | map(length) | length')
	[ "$n" = 2 ] || fail "--a/--b: records of $n arm(s)"
fi
finish
