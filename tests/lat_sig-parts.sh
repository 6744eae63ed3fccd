#!/bin/sh
# lat_sig-parts.sh: lat_sig catch and prot print lmbench's figures, the
# whole less the parts it times apart (catch: less a kill(self, 0); prot:
# less catch's figure), and the record carries the whole and the parts.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
nofig='the parts measured apart .* took as long as the whole .*: no figure$'

# sig_parts MODE FILTER [PREFIX...]: a --json run of MODE whose record
# FILTER holds; with PREFIX (benchmp-sched and its options), served.  On
# a loaded machine the parts, timed apart, can come out dearer than the
# whole: the tool then says so and exits 1 (benchmp-sched 4), a correct
# outcome; three such runs in a row skip the check (said on stderr).
sig_parts() {
	mode=$1
	filter=$2
	shift 2
	for try in 1 2 3; do
		if [ "$mode" = prot ]; then
			run "$@" "$bin/lat_sig" -N 3 --json prot \
			    "$top_srcdir/README.md"
		else
			run "$@" "$bin/lat_sig" -N 3 --json "$mode"
		fi
		if [ "$rc" -ne 0 ] && grep -Eq -- "$nofig" "$tmp/err"; then
			echo "$me: $mode: try $try: $(cat "$tmp/err")" >&2
			continue
		fi
		if [ "$rc" -ne 0 ]; then
			fail "lat_sig $mode exited $rc: $(head -n 2 "$tmp/err")"
		elif ! jq -e "$filter" "$tmp/out" >/dev/null; then
			fail "lat_sig $mode: jq '$filter' is not true for $(cut -c1-400 "$tmp/out")"
		fi
		return 0
	done
	echo "$me: $mode: no figure in 3 runs (a loaded machine): not checked" >&2
}

# The value is the whole less the parts, to rounding.
close='def close(a; b): ((a - b) | fabs) <= 1e-9 + 1e-6 * (b | fabs);'
sig_parts catch "$close"'
    .measured.whole_us > 0 and .measured.kill0_us > 0 and
    .measured.handler_us == null and .value > 0 and
    close(.value; .measured.whole_us - .measured.kill0_us)'
sig_parts prot "$close"'
    .params.file != null and .measured.whole_us > 0 and
    .measured.kill0_us > 0 and .measured.handler_us > 0 and .value > 0 and
    close(.value; .measured.whole_us - .measured.handler_us)'
# Served, the parts and the whole are one group: each sweep visits all
# three of prot's (two of catch's), so their visits match.
for mode in catch prot; do
	if [ "$mode" = catch ]; then
		want='.measured.whole_us > 0 and .measured.kill0_us > 0 and
		    close(.value; .measured.whole_us - .measured.kill0_us)'
	else
		want='.measured.handler_us > 0 and
		    close(.value; .measured.whole_us - .measured.handler_us)'
	fi
	sig_parts "$mode" "$close $want" "$bin/benchmp-sched" --budget 1 \
	    --stats "$tmp/st.json" --
	n=2
	[ "$mode" = catch ] || n=3
	[ "$rc" -ne 0 ] || jq -e --argjson n "$n" '(.figures | length) == $n and
	    all(.figures[]; .line == 1) and
	    ([.figures[].visits] | max - min) <= 1' "$tmp/st.json" >/dev/null ||
		fail "lat_sig $mode served, not one group: $(cat "$tmp/st.json")"
done
# In an A/B's arm (BENCHMP_SERVE_ARM) the parts go one after another: the
# scheduler pairs no group.
run "$bin/benchmp-sched" --budget 2 --json --allow-undecided --a '' --b '' \
    -- figures=3 parts=2 "$bin/lat_sig" -N 3 --json prot "$top_srcdir/README.md"
# On a loaded machine an arm can give no figure: the line is then
# undecided, named so, and with --allow-undecided the A/B exits 0.
nofig_ab() {
	echo "$me: $1: $(grep -E -- "$nofig" "$tmp/err")" >&2
	[ "$rc" -eq 0 ] && jq -s -e 'any(.[]; .no_figure != null and
	    .verdict == "undecided")' "$tmp/out" >/dev/null ||
		fail "$1 without a figure: exit $rc: $(cat "$tmp/err" "$tmp/out")"
}
if grep -Eq -- "$nofig" "$tmp/err"; then
	nofig_ab "prot in an A/B"
elif [ "$rc" -ne 0 ] || ! jq -s -e '([.[] | select(.part == true)] | length) == 2 and
    ([.[] | select(.part == false)] | length == 1 and .[0].seq == 3 and
    .[0].tool == "lat_sig")' "$tmp/out" >/dev/null; then
	fail "lat_sig prot in an A/B: exit $rc: $(cat "$tmp/err" "$tmp/out")"
fi
# benchmp-ab by hand: the tool says its part (bm_serve_figures), which is
# paired and not judged.
run "$bin/benchmp-ab" --budget 3 --json --allow-undecided --a env --b env \
    "$bin/lat_sig" -N 3 catch
if grep -Eq -- "$nofig" "$tmp/err"; then
	nofig_ab "catch in benchmp-ab"
elif [ "$rc" -ne 0 ] || ! jq -s -e 'length == 2 and .[0].part == true and
    .[1].part == false and .[1].tool == "lat_sig"' "$tmp/out" >/dev/null; then
	fail "lat_sig catch in benchmp-ab: exit $rc: $(cat "$tmp/err" "$tmp/out")"
fi
# install times the whole sigaction: no parts.
expect_json '.value > 0 and .measured.whole_us == null' \
    "$bin/lat_sig" -N 3 --json install
finish
