#!/bin/sh
# scripts-locale.sh: every script prints the same bytes in a decimal-comma
# locale (de_DE.UTF-8, generated in a private directory) as in C, and the
# tools print a decimal point in any locale.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
if ! command -v localedef >/dev/null 2>&1; then
	echo "$me: localedef not found (Debian package libc-bin): skipped" >&2
	exit 77
fi
mkdir "$tmp/loc" || exit 99
if ! localedef -i de_DE -f UTF-8 "$tmp/loc/de_DE.UTF-8" >"$tmp/err" 2>&1; then
	echo "$me: cannot generate de_DE.UTF-8 (localedef needs the Debian package locales): skipped: $(head -n 1 "$tmp/err")" >&2
	exit 77
fi
# de CMD...: run CMD in the decimal-comma locale.
de() {
	LOCPATH=$tmp/loc LC_ALL=de_DE.UTF-8 "$@"
}
# The locale must really print a comma here, or nothing is tested.
if [ "$(de awk 'BEGIN { printf "%.1f", 1.5 }')" != "1,5" ]; then
	echo "$me: awk prints no decimal comma in the generated de_DE.UTF-8: skipped" >&2
	exit 77
fi
s=$top_srcdir/scripts
data=$top_srcdir/tests/data
PATH=$(cd "$bin" && pwd):$PATH
export PATH

# same NAME CMD...: CMD prints the same stdout and stderr, and exits the
# same, in C and in de_DE; its output is kept in $tmp/NAME.c.
same() {
	name=$1
	shift
	LC_ALL=C "$@" >"$tmp/$name.c" 2>"$tmp/$name.c.err" </dev/null
	rc_c=$?
	de "$@" >"$tmp/$name.de" 2>"$tmp/$name.de.err" </dev/null
	rc_de=$?
	if [ "$rc_c" -ne "$rc_de" ]; then
		fail "$name: exit $rc_c in C, $rc_de in de_DE: $(head -n 2 "$tmp/$name.de.err")"
	elif ! cmp -s "$tmp/$name.c" "$tmp/$name.de"; then
		fail "$name: de_DE differs from C: $(diff "$tmp/$name.c" "$tmp/$name.de" | head -n 5)"
	elif ! cmp -s "$tmp/$name.c.err" "$tmp/$name.de.err"; then
		fail "$name: stderr in de_DE differs: $(diff "$tmp/$name.c.err" "$tmp/$name.de.err" | head -n 5)"
	fi
}

same summary "$s/benchmp-summary" "$data/run-a.jsonl"
grep -q '[0-9]\.[0-9]' "$tmp/summary.c" || fail "summary: no decimal figure"
same compare "$s/benchmp-compare" "$data/aa-1.jsonl" "$data/aa-2.jsonl"
same compare-t "$s/benchmp-compare" --threshold 5.9 --tsv \
    "$data/aa-1.jsonl" "$data/aa-2.jsonl"
[ -s "$tmp/compare-t.c" ] || fail "compare --threshold 5.9: no output"
same import "$s/benchmp-import-lmbench" "$data/lmbench-results.txt"
mkdir "$tmp/rc" "$tmp/rd" && cp "$data/aa-1.jsonl" "$tmp/rc/run.jsonl" &&
    cp "$data/aa-1.jsonl" "$tmp/rd/run.jsonl" || exit 99
LC_ALL=C "$s/benchmp-report" "$tmp/rc/run.jsonl" "$data/aa-2.jsonl" &&
    de "$s/benchmp-report" "$tmp/rd/run.jsonl" "$data/aa-2.jsonl" &&
    cmp -s "$tmp/rc/run.html" "$tmp/rd/run.html" ||
	fail "report: de_DE differs from C: $(diff "$tmp/rc/run.html" "$tmp/rd/run.html" | head -n 4)"
if command -v gnuplot >/dev/null 2>&1; then
	for c in summary scaling; do
		f=$data/aa-1.jsonl
		[ $c = scaling ] && f=$data/scaling.jsonl
		LC_ALL=C "$s/benchmp-plot" $c --output "$tmp/rc/$c" "$f" >/dev/null &&
		    de "$s/benchmp-plot" $c --output "$tmp/rd/$c" "$f" >/dev/null &&
		    cmp -s "$tmp/rc/$c.svg" "$tmp/rd/$c.svg" ||
			fail "plot $c: de_DE differs from C: $(diff "$tmp/rc/$c.svg" "$tmp/rd/$c.svg" | head -n 4)"
	done
fi
mkdir "$tmp/root" || exit 99
same check "$s/benchmp-check" --probe 0 --root "$tmp/root"

# benchmp-scaling on a tool that prints the fixture's record for its -P.
fake_scaler "$tmp/fake" || exit 99
LC_ALL=C "$s/benchmp-scaling" --max 4 --no-plot --output "$tmp/sc-c.jsonl" \
    "$tmp/fake" >"$tmp/sc.c" 2>/dev/null &&
    de "$s/benchmp-scaling" --max 4 --no-plot --output "$tmp/sc-de.jsonl" \
    "$tmp/fake" >"$tmp/sc.de" 2>"$tmp/err" && cmp -s "$tmp/sc.c" "$tmp/sc.de" ||
	fail "scaling: de_DE differs from C: $(diff "$tmp/sc.c" "$tmp/sc.de" | head -n 4) $(head -n 2 "$tmp/err")"
grep -q '2\.3[0-9] ' "$tmp/sc.c" ||
	fail "scaling: no speed-up 2.3x at 2 workers: $(cat "$tmp/sc.c")"

# benchmp-repeat on a benchmp-run that writes the fixtures: all but its
# wall times (measured) are the same.
mkdir "$tmp/rep" && cp "$s/benchmp-repeat" "$s/benchmp-compare" \
    "$s/benchmp-summary" "$s/benchmp-lib.sh" "$tmp/rep/" ||
	exit 99
cat >"$tmp/rep/benchmp-run" <<EOT
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in --results) r=\$2; shift ;; esac
	shift
done
mkdir -p "\$r/h" || exit 1
n=1
[ -e '$tmp/rep/second' ] && n=2
touch '$tmp/rep/second'
cp '$data/aa-'\$n.jsonl "\$r/h/s.jsonl"
EOT
chmod +x "$tmp/rep/benchmp-run" || exit 99
for l in c de; do
	rm -f "$tmp/rep/second"
	if [ $l = c ]; then
		LC_ALL=C "$tmp/rep/benchmp-repeat" -k 2 --threshold 5.9 \
		    >"$tmp/rep.$l" 2>"$tmp/err"
	else
		de "$tmp/rep/benchmp-repeat" -k 2 --threshold 5.9 \
		    >"$tmp/rep.$l" 2>"$tmp/err"
	fi
	[ $? -le 1 ] || fail "repeat in $l: $(head -n 2 "$tmp/err")"
	grep -Eq '^wall time per run: +[0-9]+\.[0-9] s [0-9]+\.[0-9] s' \
	    "$tmp/rep.$l" || fail "repeat in $l: wall times: $(grep wall "$tmp/rep.$l")"
	grep -v -e '^wall time' -e '^benchmp-repeat: 2 runs of benchmp-run on ' \
	    "$tmp/rep.$l" >"$tmp/rep.$l.cmp"
done
grep -q 'lat_syscall null' "$tmp/rep.c" || fail "repeat: no figure"
cmp -s "$tmp/rep.c.cmp" "$tmp/rep.de.cmp" ||
	fail "repeat: de_DE differs from C: $(diff "$tmp/rep.c.cmp" "$tmp/rep.de.cmp" | head -n 4)"

# benchmp-run in de_DE: every figure with a decimal point, none with a
# comma, and its summary is benchmp-summary's in C of the same records
# (under a budget no load reaches, so that no budget line follows it).
run de "$s/benchmp-run" --installed --quick --only processor --passes 1 \
    --no-check --budget 3600 --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "run in de_DE: exit $rc: $(tail -n 3 "$tmp/err")"
! grep -Eq '[0-9],[0-9]' "$tmp/out" && grep -Eq ' [0-9]+\.[0-9]+ us' "$tmp/out" ||
	fail "run in de_DE: $(cat "$tmp/out")"
set -- "$tmp/res"/*/*.jsonl
LC_ALL=C "$s/benchmp-summary" --no-hosts "$1" >"$tmp/again" 2>&1 &&
    sed '/^measuring: /d' "$tmp/out" | cmp -s - "$tmp/again" ||
	fail "run in de_DE: its table is not C's: $(diff "$tmp/out" "$tmp/again" | head -n 4)"

# The tools: C's decimal point whatever the locale, as none calls
# setlocale (a tool that did would print its doubles with a comma).
grep -l 'setlocale *(' "$top_srcdir"/lib/*.c "$top_srcdir"/bin/*.c \
    "$top_srcdir"/bin/*/*.c 2>/dev/null >"$tmp/setlocale"
[ ! -s "$tmp/setlocale" ] ||
	fail "setlocale in $(cat "$tmp/setlocale"): check its printf of doubles and this test"
run de lat_syscall null
grep -Eq '^Simple syscall: [0-9]+\.[0-9]+ microseconds$' "$tmp/out" ||
	fail "lat_syscall in de_DE: $(cat "$tmp/out")"
run de lat_syscall --json null
jq -e '.value > 0' "$tmp/out" >/dev/null ||
	fail "lat_syscall --json in de_DE: $(head -c 200 "$tmp/out")"

exit $((failures > 0))
