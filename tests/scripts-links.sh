#!/bin/sh
# scripts-links.sh: no script writes through a link planted at the name
# of its temporary or partial files (benchmp-scaling's default records,
# benchmp-report's and benchmp-run's ".part" copies, benchmp-plot's
# charts), nor appends records through a link.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi
s=$top_srcdir/scripts
data=$top_srcdir/tests/data
PATH=$(cd "$bin" && pwd):$PATH
export PATH
# What a planted link points at: it must come out as it went in.
echo 'precious' >"$tmp/victim"

# victim WHAT: the victim is untouched.
victim() {
	[ "$(cat "$tmp/victim")" = precious ] ||
		fail "$1: wrote through a planted link: $(head -c 80 "$tmp/victim")"
	echo 'precious' >"$tmp/victim"
}

# benchmp-scaling's default records file: once TMPDIR/benchmp-scaling-
# TOOL-PID.jsonl, where PID is the script's (the shell's below, which
# execs it).  The records go to a new directory of mode 700 instead.
mkdir "$tmp/t" || exit 99
cat >"$tmp/fake" <<EOT
#!/bin/sh
jq -c '.parallel = 1' '$data/scaling.jsonl' | head -n 1
EOT
chmod +x "$tmp/fake" || exit 99
# shellcheck disable=SC2016 # (sh -c's script: its own $$ and $1)
run env TMPDIR="$tmp/t" sh -c 'ln -s "$1" "$2/benchmp-scaling-fake-$$.jsonl"
    exec "$3" --max 1 --no-plot "$4"' sh "$tmp/victim" "$tmp/t" \
    "$s/benchmp-scaling" "$tmp/fake"
[ "$rc" -eq 0 ] || fail "scaling: exit $rc: $(head -n 2 "$tmp/err")"
victim "scaling's default records"
rec=$(sed -n 's/^benchmp scaling: records in //p' "$tmp/err")
case $rec in
"$tmp/t/benchmp-scaling."??????/fake.jsonl)
	[ -s "$rec" ] && [ ! -L "$rec" ] &&
	    [ "$(stat -c %a "$(dirname "$rec")")" = 700 ] ||
		fail "scaling: $rec is not a records file in a private directory"
	;;
*) fail "scaling: records in '$rec', not a private directory of $tmp/t" ;;
esac
# --output FILE that is a link: refused, nothing appended.
ln -s "$tmp/victim" "$tmp/link.jsonl" || exit 99
expect_exit 1 'link.jsonl is a symbolic link' "$s/benchmp-scaling" --max 1 \
    --no-plot --output "$tmp/link.jsonl" "$tmp/fake"
victim "scaling --output through a link"

# benchmp-report: a link at OUTPUT.part (its old partial copy) is left
# alone, and a link at OUTPUT itself is replaced by the report, not
# written through.
mkdir "$tmp/rep" && cp "$data/aa-1.jsonl" "$tmp/rep/run.jsonl" || exit 99
ln -s "$tmp/victim" "$tmp/rep/run.html.part" || exit 99
run "$s/benchmp-report" "$tmp/rep/run.jsonl"
[ "$rc" -eq 0 ] || fail "report: exit $rc: $(head -n 2 "$tmp/err")"
victim "report's .part"
[ -f "$tmp/rep/run.html" ] && [ ! -L "$tmp/rep/run.html" ] ||
	fail "report: no run.html"
ln -s "$tmp/victim" "$tmp/rep/out.html" || exit 99
run "$s/benchmp-report" --output "$tmp/rep/out.html" "$tmp/rep/run.jsonl"
victim "report over a link"
[ "$rc" -eq 0 ] && [ -f "$tmp/rep/out.html" ] && [ ! -L "$tmp/rep/out.html" ] ||
	fail "report over a link: exit $rc, $(ls -l "$tmp/rep/out.html")"
# The report's mode is a new file's, not mktemp's 600.
[ "$(stat -c %a "$tmp/rep/run.html")" = "$(printf '%o' $((0666 & ~0$(umask))))" ] ||
	fail "report: mode $(stat -c %a "$tmp/rep/run.html")"
for f in "$tmp/rep"/.benchmp*; do
	[ ! -e "$f" ] || fail "report: partial file $f left"
done

# benchmp-plot: links at BASE.png and BASE.svg are replaced.
if command -v gnuplot >/dev/null 2>&1; then
	ln -s "$tmp/victim" "$tmp/rep/p.png" &&
	    ln -s "$tmp/victim" "$tmp/rep/p.svg" || exit 99
	run "$s/benchmp-plot" summary --output "$tmp/rep/p" "$tmp/rep/run.jsonl"
	[ "$rc" -eq 0 ] || fail "plot: exit $rc: $(head -n 2 "$tmp/err")"
	victim "plot"
	[ ! -L "$tmp/rep/p.svg" ] && grep -q '<svg' "$tmp/rep/p.svg" ||
		fail "plot: p.svg is not the chart"
fi

# benchmp-run: links at STAMP.jsonl.part for every second the run may
# start in (its records file is named by the second); the run merges its
# passes through its partial copy.
mkdir -p "$tmp/res/$(uname -n)" || exit 99
now=$(date +%s)
i=-2
while [ "$i" -le 30 ]; do
	st=$(date -u -d "@$((now + i))" +%Y%m%dT%H%M%SZ)
	ln -s "$tmp/victim" "$tmp/res/$(uname -n)/$st.jsonl.part" || exit 99
	i=$((i + 1))
done
run "$s/benchmp-run" --installed --quick --only processor --passes 2 \
    --no-check --budget 3600 --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "run: exit $rc: $(tail -n 3 "$tmp/err")"
victim "run's .part"
set -- "$tmp/res/$(uname -n)"/*Z.jsonl
[ -f "$1" ] && [ ! -L "$1" ] && jq -e -s 'length > 0' "$1" >/dev/null ||
	fail "run: records file $1"

exit $((failures > 0))
