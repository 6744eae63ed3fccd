#!/bin/sh
# lat_ctx-parts.sh: lat_ctx takes the overhead of a hop without a switch
# (a part) off each ring's; served, one ring and its overhead are one
# group whose visits match, several rings go one after another, and in
# an A/B's arm the overhead is paired as a part.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
# On a loaded machine a ring's hop can come out no dearer than the
# overhead: the tool says so and exits 1 (benchmp-sched 4), a correct
# outcome, reported on stderr and not checked further.
nofig='the switch is not measurable'

# ctx_run CMD...: run it; 0 when it measured, 1 (said) when it could not.
ctx_run() {
	run "$@"
	if [ "$rc" -ne 0 ] && grep -q -- "$nofig" "$tmp/err"; then
		echo "$me: $*: $(grep -- "$nofig" "$tmp/err")" >&2
		return 1
	fi
	return 0
}

ring='.tool == "lat_ctx" and .case == "ring" and .value > 0 and
    .measured.overhead_us > 0'
# By hand: the overhead, then the ring.
if ctx_run "$bin/lat_ctx" -N 3 --json -s 0 2; then
	[ "$rc" -eq 0 ] && jq -e "$ring and .params.nprocs == 2" "$tmp/out" \
	    >/dev/null || fail "lat_ctx 2: exit $rc: $(cat "$tmp/out" "$tmp/err")"
fi
# Served, one ring: the overhead and the ring are one group, one line's
# two figures visited alike, and the ring's record says served.
if ctx_run "$bin/benchmp-sched" --budget 1 --stats "$tmp/st.json" -- \
    "$bin/lat_ctx" -N 3 --json -s 0 2; then
	[ "$rc" -eq 0 ] && jq -e "$ring and .served == true" "$tmp/out" \
	    >/dev/null || fail "lat_ctx 2 served: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	jq -e '(.figures | length) == 2 and all(.figures[]; .line == 1) and
	    ([.figures[].visits] | max - min) <= 1' "$tmp/st.json" \
	    >/dev/null || fail "lat_ctx 2 served, not one group: $(cat "$tmp/st.json")"
fi
# Served, two rings: the overhead first, then each ring, one record each.
if ctx_run "$bin/benchmp-sched" --budget 1 --stats "$tmp/st.json" -- \
    "$bin/lat_ctx" -N 3 --json -s 0 2 3; then
	[ "$rc" -eq 0 ] && jq -s -e "length == 2 and all(.[]; $ring) and
	    ([.[].params.nprocs] == [2, 3])" "$tmp/out" >/dev/null ||
		fail "lat_ctx 2 3 served: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	jq -e '(.figures | length) == 3' "$tmp/st.json" >/dev/null ||
		fail "lat_ctx 2 3 served: $(cat "$tmp/st.json")"
fi
# In an A/B's arm the library serves the two one after another: the
# overhead is paired as a part and the ring judged.
if ctx_run "$bin/benchmp-sched" --budget 2 --json --allow-undecided \
    --a '' --b '' -- "$bin/lat_ctx" -N 3 --json -s 0 2; then
	[ "$rc" -eq 0 ] && jq -s -e 'length == 2 and .[0].part == true and
	    .[1].part == false and .[1].seq == 2 and .[1].tool == "lat_ctx"' \
	    "$tmp/out" >/dev/null ||
		fail "lat_ctx 2 in an A/B: exit $rc: $(cat "$tmp/out" "$tmp/err")"
fi
no_children
finish
