#!/bin/sh
# scripts-run-calibrate.sh: benchmp-run exports the second least LOOP_O of
# seven calibrations (enough --all --store and six runs of loop_o), keeps a LOOP_O
# the caller exported, and the tools get the value it chose; a store with
# fewer than three calibrations gets three, one with three or more one
# more.  enough and loop_o are stand-ins here that print set values (enough
# adds a run to its store), so that the choice is checked, not the machine.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
mkdir "$tmp/fake" || fail "mkdir $tmp/fake"
cat >"$tmp/fake/enough" <<'EOS'
#!/bin/sh
echo "$*" >>"$FAKE_COUNT.enough"
[ "$2" != --store ] || echo "run 1 100 0.030000 0.000700" >>"$3"
echo "export ENOUGH=100"
echo "export TIMING_O=0.030000"
echo "export LOOP_O=0.000700"
echo "export BENCHMP_CALIBRATED=00000000-0000-0000-0000-000000000000:0.030000:0.000700"
EOS
# Each call prints the next value of a list (its count in a file).
cat >"$tmp/fake/loop_o" <<'EOS'
#!/bin/sh
f=$FAKE_COUNT
n=$(cat "$f" 2>/dev/null || echo 0)
echo $((n + 1)) >"$f"
case $n in
0) v=0.000600 ;;
1) v=0.000334 ;;
2) v=0.000251 ;;
3) v=0.000500 ;;
4) v=0.000334 ;;
*) v=0.000450 ;;
esac
echo "export LOOP_O=$v"
EOS
chmod +x "$tmp/fake/enough" "$tmp/fake/loop_o" || fail "chmod"
PATH=$tmp/fake:$(cd "$bin" && pwd):$PATH
FAKE_COUNT=$tmp/count
export PATH FAKE_COUNT
unset ENOUGH TIMING_O LOOP_O

run "$brun" --installed --quick --only basic --no-check --passes 1 \
    --budget 3600 --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run: exit $rc: $(tail -n 3 "$tmp/err")"
grep -q '^benchmp-run: ENOUGH=100 TIMING_O=0.030000 LOOP_O=0.000334 (of 3 stored calibrations)$' \
    "$tmp/err" || fail "not the second least LOOP_O: $(grep LOOP_O "$tmp/err")"
[ "$(cat "$tmp/count")" = 6 ] ||
	fail "loop_o ran $(cat "$tmp/count" 2>/dev/null) times, not 6"
# The calibration is the machine's stored one, kept beside its results:
# three for a fresh store.
store=$tmp/res/$(uname -n)/calibration
[ "$(sort -u "$tmp/count.enough")" = "--all --store $store" ] ||
	fail "enough was run as: $(cat "$tmp/count.enough")"
[ "$(wc -l <"$tmp/count.enough")" -eq 3 ] ||
	fail "enough ran $(wc -l <"$tmp/count.enough") times on a fresh store, not 3"
set -- "$tmp"/res/*/*.jsonl
[ -f "$1" ] || fail "no results file"
# (The chases, tlb, line and par_mem, take no loop overhead off: 0.)
jq -e -s 'map(select(.tool == "mhz")) | length > 0 and
    all(.calibration.loop_o_us == 0.000334 and
    .calibration.from_env.loop_o == true)' "$1" >/dev/null ||
	fail "mhz did not get LOOP_O 0.000334: $(jq -c .calibration "$1" | head -n 2)"
# The two overheads it measured are vouched for to the tools, on the boot
# that enough's line names.
jq -e '.calibration.vouched == true' "$tmp"/res/*/*.machine.json \
    >/dev/null || fail "not vouched: $(jq -c .calibration \
    "$tmp"/res/*/*.machine.json)"

# A LOOP_O the caller exported stands: loop_o is not run.
rm -f "$tmp/count"
rm -rf "$tmp/res"
LOOP_O=0.000900
export LOOP_O
run "$brun" --installed --quick --only basic --no-check --passes 1 \
    --budget 3600 --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run, LOOP_O set: exit $rc: $(tail -n 3 "$tmp/err")"
grep -q ' LOOP_O=0.000900 (of 3 stored calibrations)$' "$tmp/err" ||
	fail "the caller's LOOP_O not kept: $(grep LOOP_O "$tmp/err")"
[ ! -e "$tmp/count" ] || fail "loop_o ran with LOOP_O exported"
jq -e '.calibration.vouched == false' "$tmp"/res/*/*.machine.json >/dev/null ||
	fail "the caller's LOOP_O vouched for: $(jq -c .calibration \
	    "$tmp"/res/*/*.machine.json)"

# --calibration FILE: the store is that file, wherever the records go;
# a directory, or a file in none, is a usage error.
rm -f "$tmp/count.enough"
run "$brun" --installed --quick --only basic --no-check --passes 1 \
    --results "$tmp/res" --calibration "$tmp/nodir/store"
[ "$rc" -eq 2 ] || fail "--calibration in no directory: exit $rc"
grep -q 'no directory for' "$tmp/err" ||
	fail "--calibration in no directory: $(cat "$tmp/err")"
run "$brun" --installed --quick --only basic --no-check --passes 1 \
    --results "$tmp/res" --calibration "$tmp"
[ "$rc" -eq 2 ] || fail "--calibration DIR: exit $rc"
[ ! -e "$tmp/count.enough" ] || fail "enough ran on a usage error"
run "$brun" --installed --quick --only basic --no-check --passes 1 \
    --budget 3600 --results "$tmp/res" --calibration "$tmp/store"
[ "$rc" -eq 0 ] || fail "benchmp-run --calibration: exit $rc: $(tail -n 3 "$tmp/err")"
[ "$(sort -u "$tmp/count.enough")" = "--all --store $tmp/store" ] ||
	fail "enough was run as: $(cat "$tmp/count.enough")"
# A store that holds three already gets one calibration more.
rm -f "$tmp/count.enough"
run "$brun" --installed --quick --only basic --no-check --passes 1 \
    --budget 3600 --results "$tmp/res" --calibration "$tmp/store"
[ "$rc" -eq 0 ] || fail "benchmp-run, a store of 3: exit $rc: $(tail -n 3 "$tmp/err")"
[ "$(cat "$tmp/count.enough")" = "--all --store $tmp/store" ] ||
	fail "enough was run as: $(cat "$tmp/count.enough")"
finish
