#!/bin/sh
# scripts-scaling.sh: benchmp scaling (benchmp-scaling, its old name, runs
# it) finds the tools of its build without PATH; its table gives each
# throughput's interval and a bandwidth in MB/s, in its columns; a bad
# --max is a usage error; a run that fails, prints an odd record or hangs
# exits 1, leaves nothing running and the records file whole; a caller's
# ignored SIGCHLD, a directory as the tool, records in a device, a closed
# output after the plot and a run read past its deadline are handled;
# and the chart has whole worker counts on the x axis.
. "$top_srcdir/tests/lib.sh"

bindir=$(cd "$bin" && pwd) || exit 99
# No benchmp tool on PATH: only the system's programs.
PATH=/usr/local/bin:/usr/bin:/bin
export PATH
command -v bw_mem >/dev/null 2>&1 && {
	echo "$me: a bw_mem is installed on PATH: the lookup cannot be told apart: skipped" >&2
	exit 77
}

# The copy make writes beside the tools, and scripts/ of the source tree
# when the build is the tree's build/ (or the tree itself).
set -- "$bindir/benchmp-scaling"
src=$(cd "$top_srcdir" && pwd) || exit 99
if [ "$bindir" = "$src/build/bin" ] || [ "$bindir" = "$src/bin" ]; then
	set -- "$@" "$src/scripts/benchmp-scaling"
else
	echo "$me: the build is not build/ of the source tree: scripts/benchmp-scaling not tried from it" >&2
fi
for scal; do
	run "$scal" --max 2 --no-plot bw_mem -N 3 64k rd
	[ "$rc" -eq 0 ] || { fail "$scal: exit $rc: $(head -n 2 "$tmp/err")"; continue; }
	grep -q "^benchmp scaling: .*/bin/bw_mem -P 2 -N 3 64k rd\$" "$tmp/err" ||
		fail "$scal: not the build's bw_mem: $(cat "$tmp/err")"
	# workers throughput interval unit speed-up efficiency figure unit
	awk '
	    NR == 1 { ok = $1 == "workers" && $3 == "interval" && $4 == "unit" &&
		$NF == "note"; next }
	    # The footnote of rows with more workers than CPUs.
	    /^\* more workers than the [0-9]+ CPUs/ { next }
	    {
		# A note (noisy +-N% or -L%/+H%, slow spells...) follows the unit.
		sub(/  (noisy( \+-[0-9]+%| -[0-9]+%\/\+[0-9]+%)?|slow spells|cut by budget)$/, "")
		split($3, ci, "-")
		if ($4 != "MB/s" || ci[1] + 0 > $2 + 0 || ci[2] + 0 < $2 + 0 ||
		    $NF != "MB/s")
			ok = 0
		n++
	    }
	    END { exit !(ok && n == 2) }' "$tmp/out" ||
		fail "$scal: the table: $(cat "$tmp/out")"
	# Its records file: in a private directory named on stderr.
	rec=$(sed -n 's/^benchmp scaling: records in //p' "$tmp/err")
	[ -s "$rec" ] && rm -r "$(dirname "$rec")" ||
		fail "$scal: no records file: '$rec'"
done
# A latency's throughput is in operations per second, with its interval.
run "$bindir/benchmp" scaling --max 1 --no-plot --output "$tmp/l.jsonl" \
    lat_syscall -N 3 null
[ "$rc" -eq 0 ] && awk 'NR == 2 { split($3, ci, "-")
    exit !($4 == "ops/s" && ci[1] + 0 <= $2 + 0 && ci[2] + 0 >= $2 + 0) }' \
    "$tmp/out" || fail "latency: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# A stand-in tool that prints, after a line that is not a record, the
# record of its -P from $tmp/recs (one "P RECORD" a line); with -P 2 it
# does what $tmp/two says: print (the record), fail, torn, none or hang.
# shellcheck disable=SC2016 # (the stand-in's script: its own $1 and $p)
printf '%s\n' '#!/bin/sh' 'while [ $# -gt 0 ]; do' \
    '	case $1 in -P) p=$2; shift ;; esac' '	shift' 'done' \
    'echo "a line that is not a record"' \
    "how=\$(cat '$tmp/two')" \
    'if [ "$p" = 2 ]; then' \
    '	case $how in' \
    '	fail) echo "the tool failed: boom" >&2; echo "{\"tool\":\"x\",\"val"; exit 3 ;;' \
    '	torn) echo "{\"tool\":\"x\",\"value\":"; exit 0 ;;' \
    '	none) exit 0 ;;' \
    '	hang) sleep 67 & wait; exit 0 ;;' \
    '	term) sleep 68 & wait; exit 0 ;;' \
    '	esac' 'fi' \
    "sed -n \"s/^\$p //p\" '$tmp/recs'" >"$tmp/tool" &&
    chmod +x "$tmp/tool" && echo print >"$tmp/two" || exit 99
cat >"$tmp/recs" <<'EOT' || exit 99
1 {"tool":"x","metric":"bandwidth","unit":"MB/s","value":1000,"median":1000,"ci_lo":900,"ci_hi":1100,"parallel":1}
2 {"tool":"x","metric":"bandwidth","unit":"MB/s","stat":"best process","value":1800,"median":1750,"ci_lo":1700,"ci_hi":1950,"noisy":true,"parallel":2}
4 {"tool":"x","metric":"bandwidth","unit":"MB/s","value":3000,"parallel":4,"budget_hit":true}
EOT

# The table's columns, exactly: the throughput and its interval (the
# record's, scaled to it), the unit, speed-up and efficiency over the
# first point, the figure, the note; a row with more workers than the
# CPUs this process may use is marked, with a footnote.
ncpu=$(nproc) || exit 99
# mark P: the mark of the row of P workers.
mark() {
	if [ "$1" -gt "$ncpu" ]; then echo '*'; else echo ' '; fi
}
{
	echo ' workers   throughput   interval                  unit    speed-up  efficiency            figure  note'
	echo "      1$(mark 1)         1000   900-1100                  MB/s        1.00        100%      1000.00 MB/s  "
	echo "      2$(mark 2)         1800   1700-1950                 MB/s        1.80         90%      1800.00 MB/s  noisy +-8%"
	echo "      4$(mark 4)         3000   -                         MB/s        3.00         75%      3000.00 MB/s  cut by budget"
	[ "$ncpu" -ge 4 ] || echo "* more workers than the $ncpu CPUs this process may use"
} >"$tmp/want"
run "$bindir/benchmp" scaling --max 4 --no-plot --output "$tmp/c.jsonl" "$tmp/tool"
[ "$rc" -eq 0 ] && cmp -s "$tmp/out.raw" "$tmp/want" ||
	fail "columns: exit $rc: $(diff "$tmp/want" "$tmp/out.raw") $(head -n 2 "$tmp/err")"
sed 's/^[0-9]* //' "$tmp/recs" >"$tmp/want"
cmp -s "$tmp/c.jsonl" "$tmp/want" ||
	fail "columns: the records file is not the records: $(cat "$tmp/c.jsonl")"

# Usage errors: exit 2, what is wrong, then the usage line.
for m in 0 007 -1 x 4097 99999999999999999999 ''; do
	case $m in
	'') why='--max needs a value' ;;
	[1-9]*) why="--max: $m is out of range \\(1 to 4096\\)" ;;
	*) why="--max: '$m' is not a worker count" ;;
	esac
	expect_exit 2 "^benchmp scaling: $why\$" "$bindir/benchmp" scaling \
	    --max="$m" "$tmp/tool"
	sed -n 2p "$tmp/err" | grep -q '^usage: benchmp scaling \[--max N\]' ||
		fail "--max=$m: no usage line: $(cat "$tmp/err")"
done
expect_exit 2 "^benchmp scaling: --timeout: '0' is not a number of seconds\$" \
    "$bindir/benchmp" scaling --timeout 0 "$tmp/tool"
expect_exit 2 '^benchmp scaling: --max needs a value$' "$bindir/benchmp" \
    scaling --max
expect_exit 2 "^benchmp scaling: unknown option '--bogus'\$" \
    "$bindir/benchmp" scaling --bogus "$tmp/tool"
expect_exit 2 '^benchmp scaling: missing the tool to run$' "$bindir/benchmp" \
    scaling --max 2
expect_exit 1 '^benchmp scaling: no_such_tool: no such tool$' \
    "$bindir/benchmp" scaling no_such_tool
run "$bindir/benchmp" scaling --help
[ "$rc" -eq 0 ] && grep -q -- '--no-plot' "$tmp/out" ||
	fail "--help: exit $rc: $(head -n 2 "$tmp/out" "$tmp/err")"

# A run that fails, prints a torn record or none: exit 1 with the cause,
# and the records file holds what it held and the whole records before.
first=$(sed -n 's/^1 //p' "$tmp/recs")
for how in fail torn none; do
	echo "$how" >"$tmp/two"
	echo '{"tool":"old"}' >"$tmp/f.jsonl"
	case $how in
	fail) why='-P 2 failed: exit status 3: the tool failed: boom' ;;
	torn) why='-P 2: an odd record: invalid JSON at byte [0-9]+: ' ;;
	none) why='-P 2 printed no record' ;;
	esac
	expect_exit 1 "^benchmp scaling: $tmp/tool $why" "$bindir/benchmp" \
	    scaling --max 4 --no-plot --output "$tmp/f.jsonl" "$tmp/tool"
	[ "$(cat "$tmp/f.jsonl")" = "$(printf '%s\n%s' '{"tool":"old"}' "$first")" ] ||
		fail "$how: the records file: $(cat "$tmp/f.jsonl")"
	[ ! -s "$tmp/out" ] || fail "$how: a table printed: $(cat "$tmp/out")"
done
echo print >"$tmp/two"
# A records file that cannot be written: exit 1, said.
if [ -w /dev/full ]; then
	expect_exit 1 '^benchmp scaling: cannot write /dev/full \(disk full\?\)$' \
	    "$bindir/benchmp" scaling --max 2 --no-plot --output /dev/full \
	    "$tmp/tool"
fi

# A caller that ignores SIGCHLD (inherited through exec): each run's end
# and exit status are still seen (every point failed, its end not seen).
if command -v perl >/dev/null 2>&1; then
	# shellcheck disable=SC2016 # (perl's variables)
	run perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or die' \
	    "$bindir/benchmp" scaling --max 2 --no-plot \
	    --output "$tmp/chld.jsonl" "$tmp/tool"
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/chld.jsonl")" -eq 2 ] ||
		fail "SIGCHLD ignored: exit $rc: $(head -n 2 "$tmp/err")"
else
	echo "$me: perl not found: SIGCHLD ignored not tried" >&2
fi

# A directory is no tool: refused before anything is made (it passed,
# and left a records directory behind).
mkdir "$tmp/adir" "$tmp/scratch" || exit 99
expect_exit 1 "^benchmp scaling: $tmp/adir: no such tool\$" \
    env TMPDIR="$tmp/scratch" "$bindir/benchmp" scaling --max 1 "$tmp/adir"
[ -z "$(ls -A "$tmp/scratch")" ] ||
	fail "a directory as the tool: left $(ls -A "$tmp/scratch")"

# Records in a device: no plot by default, said (BASE was /dev/null, its
# charts beside the device); --plot with them is a usage error.
run "$bindir/benchmp" scaling --max 1 --output /dev/null "$tmp/tool"
[ "$rc" -eq 0 ] &&
    grep -q '^benchmp scaling: records in a device: no plot$' "$tmp/err" ||
	fail "--output /dev/null: exit $rc: $(cat "$tmp/err")"
expect_exit 2 '^benchmp scaling: --plot: the records go to a device' \
    "$bindir/benchmp" scaling --max 1 --output /dev/null --plot "$tmp/dev" \
    "$tmp/tool"
[ ! -e "$tmp/dev.png" ] || fail "--plot with /dev/null: a chart drawn"

# The plot's line on standard output is written out and checked: a
# reader gone by then is a failure said (it exited 0).  gnuplot, a
# stand-in that runs the real one, waits until the table's reader is
# gone.
if command -v gnuplot >/dev/null 2>&1 && have_jq &&
    mkfifo "$tmp/fifo" 2>/dev/null; then
	mkdir "$tmp/gp" || exit 99
	# shellcheck disable=SC2016 # (the stand-in's own $n)
	printf '%s\n' '#!/bin/sh' 'n=0' \
	    "while [ ! -e '$tmp/gp.go' ] && [ \$n -lt $((hang_s * 10)) ]; do" \
	    '	sleep 0.1' '	n=$((n + 1))' 'done' \
	    "exec '$(command -v gnuplot)' \"\$@\"" >"$tmp/gp/gnuplot" &&
	    chmod +x "$tmp/gp/gnuplot" || exit 99
	PATH=$tmp/gp:$PATH "$bindir/benchmp" scaling --max 1 \
	    --output "$tmp/p.jsonl" --plot "$tmp/p" "$tmp/tool" >"$tmp/fifo" \
	    2>"$tmp/err" </dev/null &
	pid=$!
	# The header and the one row, then the pipe has no reader.
	head -n 2 <"$tmp/fifo" >"$tmp/table"
	: >"$tmp/gp.go"
	wait_gone "$pid" "$hang_s"
	[ "$rc" -eq 1 ] &&
	    grep -q '^benchmp scaling: writing to standard output failed$' \
	    "$tmp/err" || fail "the plot's line to a closed pipe: exit $rc: $(cat "$tmp/err")"
else
	echo "$me: gnuplot, jq or mkfifo not here: a closed output after the plot not tried" >&2
fi

# A run that ended within its timeout is read to its end even when this
# command is kept from running until past it (the run stops it here, as
# a loaded machine may keep it): its output was closed unread at the
# deadline ("printed no record").  The output is more than one read, in
# a pipe grown to hold it all (perl) while nobody reads it.
if command -v perl >/dev/null 2>&1; then
	printf '%s\n' '#!/bin/sh' \
	    "perl -e 'fcntl(STDOUT, 1031, 1048576) or exit 1' || { : >'$tmp/big.nopipe'; exit 3; }" \
	    "kill -s STOP \$PPID && echo \"\$PPID \$\$ \$(date +%s)\" >'$tmp/big.stopped'" \
	    "awk 'BEGIN { for (i = 0; i < 8000; i++) print \"padding line\", i, \"no record\" }'" \
	    "sed -n 's/^1 //p' '$tmp/recs'" >"$tmp/bigtool" &&
	    chmod +x "$tmp/bigtool" || exit 99
	t0=$(date +%s)
	st=
	"$bindir/benchmp" scaling --timeout 3 --max 1 --no-plot \
	    --output "$tmp/big.jsonl" "$tmp/bigtool" >"$tmp/out" 2>"$tmp/err" \
	    </dev/null &
	pid=$!
	# Until the stand-in has stopped benchmp, or benchmp has ended.
	n=0
	while [ ! -s "$tmp/big.stopped" ] && [ ! -e "$tmp/big.nopipe" ] &&
	    ! awk '{ exit $3 != "Z" }' "/proc/$pid/stat" 2>/dev/null &&
	    [ "$n" -lt $((hang_s * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if [ -s "$tmp/big.stopped" ]; then
		read -r parent bigpid st <"$tmp/big.stopped"
		# The stand-in ends (a zombie, not reaped while its parent is
		# stopped), and the time goes past its deadline.
		n=0
		while ! awk '{ exit $3 != "Z" }' "/proc/$bigpid/stat" \
		    2>/dev/null && [ "$n" -lt $((hang_s * 10)) ]; do
			sleep 0.1
			n=$((n + 1))
		done
		while [ $(($(date +%s) - st)) -lt 5 ]; do
			sleep 0.2
		done
		kill -s CONT "$parent"
	fi
	kill -s CONT "$pid" 2>/dev/null
	wait_gone "$pid" "$hang_s"
	if [ -e "$tmp/big.nopipe" ]; then
		echo "$me: perl cannot grow a pipe here: a run read past its deadline not tried" >&2
	elif [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/big.jsonl")" -eq 1 ]; then
		:
	elif { [ -z "$st" ] || [ $((st - t0)) -gt 2 ]; } && [ "$rc" -eq 1 ] &&
	    grep -q 'did not finish within its timeout' "$tmp/err"; then
		# Its start so slow that its deadline came first: timed out.
		echo "$me: the stand-in started too late to stop benchmp before its deadline: not told" >&2
	else
		fail "a run read past its deadline: exit $rc: $(head -n 2 "$tmp/err")"
	fi
else
	echo "$me: perl not found: a run read past its deadline not tried" >&2
fi

# A run still going after --timeout is killed with what it started, and
# so is one under way when the command is stopped (SIGTERM: 143).
echo hang >"$tmp/two"
expect_exit 1 "^benchmp scaling: $tmp/tool -P 2 failed: did not finish within its timeout" \
    "$bindir/benchmp" scaling --timeout 1 --max 2 --no-plot \
    --output "$tmp/h.jsonl" "$tmp/tool"
[ -z "$(left_running 'sleep 67')" ] || fail "--timeout: the run's sleep left running"
echo term >"$tmp/two"
"$bindir/benchmp" scaling --max 2 --no-plot --output "$tmp/t.jsonl" \
    "$tmp/tool" >/dev/null 2>"$tmp/err" </dev/null &
pid=$!
n=0
while [ -z "$(tagged 'sleep 68')" ] && [ "$n" -lt $((hang_s * 10)) ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -s TERM "$pid"
wait_gone "$pid" "$hang_s"
[ "$rc" -eq 143 ] || fail "SIGTERM: exit $rc: $(cat "$tmp/err")"
[ -z "$(left_running 'sleep 68')" ] || fail "SIGTERM: the run's sleep left running"
[ "$(wc -l <"$tmp/t.jsonl")" -eq 1 ] || fail "SIGTERM: records: $(cat "$tmp/t.jsonl")"

# The chart: the worker counts measured as ticks, none fractional (in
# the SVG, the x axis's labels are the numbers anchored in the middle).
if command -v gnuplot >/dev/null 2>&1 && have_jq; then
	run "$top_srcdir/scripts/benchmp-plot" scaling --output "$tmp/sc" \
	    "$top_srcdir/tests/data/scaling.jsonl"
	[ "$rc" -eq 0 ] || fail "plot: exit $rc: $(head -n 2 "$tmp/err")"
	awk '/text-anchor="middle">/ { getline; gsub(/<[^>]*>|[ \t]/, "")
	    if ($0 ~ /^[0-9.]+$/) print }' "$tmp/sc.svg" | paste -sd' ' - \
	    >"$tmp/ticks"
	[ "$(cat "$tmp/ticks")" = "1 2 4" ] ||
		fail "plot: x ticks '$(cat "$tmp/ticks")', not '1 2 4'"
	# The key says what the bars are: the records' interval, its level
	# and the processes of a point (scaling.jsonl: the median's 95%, its
	# processes not recorded, written before the next run's interval).
	grep -q 'speed-up (median interval 95%)' "$tmp/sc.svg" ||
		fail "plot: no interval in the key"
else
	echo "$me: gnuplot or jq not found: the chart not tried" >&2
fi
exit $((failures > 0))
