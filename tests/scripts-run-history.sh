#!/bin/sh
# scripts-run-history.sh: benchmp-run keeps each run's figures in the
# machine's store of past runs (one a way of running), widens a figure's
# interval and flags it from its past runs there (benchmp-history(1)),
# takes --history FILE and --no-history, and refuses what cannot be.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
host=$(uname -n)
set -- --installed --quick --only basic --no-check --passes 1 --budget 3600

# The first run: its figures go to RESULTS/HOST/history.quick.passes
# under its name; no past runs, so no record has "history".
run "$brun" "$@" --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run: exit $rc: $(tail -n 3 "$tmp/err")"
st=$tmp/res/$host/history.quick.passes
rec=$(echo "$tmp/res/$host/"*.jsonl)
stamp=$(basename "$rec" .jsonl)
[ -s "$st" ] && [ "$(cut -f 1 "$st" | sort -u)" = "$stamp" ] ||
	fail "the store: $(head -n 2 "$st" 2>&1)"
[ "$(wc -l <"$st")" -eq "$(jq -s '[.[] | select((.value | type) == "number" and .value > 0 and ((.contradicts // []) | length) == 0)] | length' "$rec")" ] ||
	fail "not one line a figure: $(wc -l <"$st") lines"
jq -e -s 'all(has("history") | not)' "$rec" >/dev/null ||
	fail "a first run with history"
grep -q "^benchmp history: no figure has 3 runs of this identity in $st yet" \
    "$tmp/err" || fail "no message of the store: $(tail -n 3 "$tmp/err")"
# Its lines name what was measured: one identity, the kernel's among it.
ident=$(cut -f 4 "$st" | sort -u)
case $ident in
*"; $(uname -sr); benchmp "*"; CFLAGS "*) ;;
*) fail "the store's identity: $ident" ;;
esac
[ "$(printf '%s\n' "$ident" | wc -l)" -eq 1 ] ||
	fail "more than one identity in one run: $ident"

# Three past runs made of the first, mhz 10% higher in the second: the
# next run's mhz moves 10% from run to run (15% at one standard
# deviation), its interval is widened and it is noisy for it.
awk -F'\t' -v OFS='\t' '{ v = $2; $1 = "p1"; print; $1 = "p2"
    if ($3 ~ /"mhz"/) $2 = v * 1.1; print; $1 = "p3"; $2 = v; print }' \
    "$st" | sort -s -t "$(printf '\t')" -k 1,1 >"$tmp/past"
run "$brun" "$@" --results "$tmp/res2" --history "$tmp/past"
[ "$rc" -eq 0 ] || fail "--history: exit $rc: $(tail -n 3 "$tmp/err")"
[ ! -e "$tmp/res2/$host/history.quick.passes" ] ||
	fail "--history: the default store written too"
rec2=$(echo "$tmp/res2/$host/"*.jsonl)
jq -e -s 'map(select(.tool == "mhz")) | length == 1 and
    all(.history.runs == 3 and (.history.move - 0.1 | fabs) < 1e-6 and
    .ci_lo <= .history.ci_lo and .ci_hi >= .history.ci_hi and
    .noisy == true and (.noisy_why | any(startswith(
    "its runs on this machine move +-15% from one to the next"))))' \
    "$rec2" >/dev/null || fail "mhz from its past runs: $(jq -c 'select(.tool == "mhz") | {value, ci_lo, ci_hi, noisy_why, history}' "$rec2")"
[ "$(cut -f 1 "$tmp/past" | uniq | tr '\n' ' ')" = "p1 p2 p3 $(basename "$rec2" .jsonl) " ] ||
	fail "the run not kept in --history's file: $(cut -f 1 "$tmp/past" | uniq)"
# The summary shows it flagged.
grep -Eq '^  mhz .*noisy' "$tmp/out.raw" ||
	fail "mhz not flagged in the summary: $(grep mhz "$tmp/out.raw")"

# Another setting of the environment is another identity: none of the
# past runs is read, and its lines are kept under it.
run env GLIBC_TUNABLES=glibc.malloc.perturb=0 "$brun" "$@" \
    --results "$tmp/res5" --history "$tmp/past"
[ "$rc" -eq 0 ] && jq -e -s 'all(has("history") | not)' \
    "$tmp/res5/$host/"*.jsonl >/dev/null ||
	fail "another identity read the past runs: exit $rc: $(tail -n 3 "$tmp/err")"
stamp5=$(basename "$(echo "$tmp/res5/$host/"*.jsonl)" .jsonl)
n5=$(grep -c "^$stamp5	.*; GLIBC_TUNABLES glibc.malloc.perturb=0\$" "$tmp/past")
[ "$n5" -gt 0 ] && [ "$n5" -eq "$(grep -c "^$stamp5	" "$tmp/past")" ] ||
	fail "the run under its identity: $(tail -n 1 "$tmp/past")"

# --no-history: no store, the run's own intervals.
run "$brun" "$@" --results "$tmp/res3" --no-history
[ "$rc" -eq 0 ] && [ ! -e "$tmp/res3/$host/history.quick.passes" ] &&
    jq -e -s 'all(has("history") | not)' "$tmp/res3/$host/"*.jsonl >/dev/null ||
	fail "--no-history: exit $rc: $(ls "$tmp/res3/$host")"

# What cannot be: usage errors before anything runs.
mkdir "$tmp/dir" || exit 99
expect_exit 2 "--history and --no-history exclude each other" \
    "$brun" "$@" --results "$tmp/res4" --history "$tmp/h" --no-history
expect_exit 2 "--history: '$tmp/dir' is a directory" \
    "$brun" "$@" --results "$tmp/res4" --history "$tmp/dir"
expect_exit 2 "--history: no directory for '$tmp/none/h'" \
    "$brun" "$@" --results "$tmp/res4" --history "$tmp/none/h"
expect_exit 2 "--history needs a value" \
    "$brun" "$@" --results "$tmp/res4" --history=
expect_exit 2 "--history: not under --mpi" \
    "$brun" --mpi --results "$tmp/res4" --history "$tmp/h"
expect_exit 2 "--history is for a run, not for --a and --b" \
    "$brun" --a "" --b "" --results "$tmp/res4" --history "$tmp/h"
[ ! -e "$tmp/res4" ] || fail "a refused run wrote $tmp/res4"

exit "$((failures > 0))"
