#!/bin/sh
# scripts-compare-tree.sh: benchmp-compare run from a configured source
# tree (the scripts' own folder, not the build's bin/) finds the build's
# benchmp as the other scripts find the build's tools, and decides a wide
# figure by its processes; with none anywhere, it says so.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
stats=$(cd "$bin" && pwd)/benchmp
[ -x "$stats" ] || { echo "$me: no $stats" >&2; exit 99; }
# A source tree with its build in build/, as CONTRIBUTING.md makes it;
# benchmp there runs the one of this build.
tree=$tmp/tree
mkdir -p "$tree/scripts" "$tree/build/bin" &&
    cp "$top_srcdir/scripts/benchmp-compare" \
    "$top_srcdir/scripts/benchmp-lib.sh" "$tree/scripts/" &&
    cp "$top_srcdir/configure.ac" "$tree/" &&
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$stats" \
    >"$tree/build/bin/benchmp" &&
    chmod +x "$tree/build/bin/benchmp" || exit 99
# PATH without this build's programs (lib.sh put them last).
path=
for d in /usr/local/bin /usr/bin /bin; do
	[ -d "$d" ] && path=${path:+$path:}$d
done

# One figure whose intervals overlap (too wide to judge by them) and
# whose six processes each moved from 10 us to 20 us: worse, by the
# rank test over the processes.
fig='.tool = "lat_w" | .case = "w" | .params = {} | .metric = "latency" |
    .unit = "us" | .better = "lower" | .samples = 11 | .noisy = false |
    .bimodal = false | del(.robust)'
head -n 1 "$top_srcdir/tests/data/run-a.jsonl" | jq -c "$fig |
    .value = 10 | .median = 10 | .ci_lo = 5 | .ci_hi = 15 |
    .process_values = [10, 10.1, 9.9, 10.05, 9.95, 10.02]" >"$tmp/a.jsonl" &&
    head -n 1 "$top_srcdir/tests/data/run-a.jsonl" | jq -c "$fig |
    .value = 12 | .median = 12 | .ci_lo = 6 | .ci_hi = 18 |
    .process_values = [20, 20.1, 19.9, 20.05, 19.95, 20.02]" \
    >"$tmp/b.jsonl" || exit 99

run env PATH="$path" "$tree/scripts/benchmp-compare" "$tmp/a.jsonl" \
    "$tmp/b.jsonl"
[ "$rc" -eq 1 ] && grep -Eq '^lat_w w .*worse' "$tmp/out" &&
    ! grep -q 'not found' "$tmp/err" ||
	fail "from the source tree: exit $rc: $(cat "$tmp/out" "$tmp/err")"
# Run by its name from its own folder, as sh benchmp-compare.
(cd "$tree/scripts" && PATH=$path sh benchmp-compare "$tmp/a.jsonl" \
    "$tmp/b.jsonl") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -Eq 'worse' "$tmp/out" ||
	fail "sh benchmp-compare from scripts/: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# No build and none on PATH: a failure (4) that says what is missing.
rm -r "$tree/build"
run env PATH="$path" "$tree/scripts/benchmp-compare" "$tmp/a.jsonl" \
    "$tmp/b.jsonl"
[ "$rc" -eq 4 ] && grep -q '^benchmp-compare: benchmp not found' "$tmp/err" ||
	fail "no benchmp: exit $rc: $(cat "$tmp/out" "$tmp/err")"
finish
