#!/bin/sh
# tools-escaped.sh: a message that quotes what the user typed shows its
# control bytes escaped (\x1b), so an ESC or a BEL never reaches the
# terminal as such: in an option, an option's value and the environment.
. "$top_srcdir/tests/lib.sh"

ls=$bin/lat_syscall
esc=$(printf '\033')
bel=$(printf '\007')

# expect_escaped STATUS PATTERN CMD...: as expect_exit, and stderr holds no
# control byte (a newline ends each line).
expect_escaped() {
	expect_exit "$@"
	if tr -d '\n' <"$tmp/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		fail "'$*': a control byte on stderr: $(od -c "$tmp/err" |
		    head -n 3)"
	fi
}

expect_escaped 2 'unknown option or missing value: -\\x1b$' "$ls" "-$esc" null
expect_escaped 2 "--processes: 'a\\\\x07b' is not a number" \
    "$ls" "--processes=a${bel}b" null
expect_escaped 2 "ENOUGH: '\\\\x1b\\[31m' is not a number" \
    env "ENOUGH=${esc}[31m" "$ls" null
expect_escaped 2 "unknown clock '\\\\x1b'" \
    env "BENCHMP_TIMER=clock=$esc" "$ls" null
# BENCHMP_PROGRESS is read by the tools that sweep (lat_mem_rd).
expect_escaped 2 "BENCHMP_PROGRESS=\\\\x1b\\[2J: expected always" \
    env "BENCHMP_PROGRESS=${esc}[2J" "$bin/lat_mem_rd" -N 1 1 4096

# benchmp-stats: its usage errors and the input lines it quotes.
st=$bin/benchmp-stats
expect_escaped 2 "unexpected argument: a\\\\x1b\\[31mb$" "$st" "a${esc}[31mb"
expect_escaped 2 "unknown option: --x\\\\x07$" "$st" "--x$bel"
expect_escaped 2 "--better: not lower or higher: \\\\x1b$" "$st" "--better=$esc"
printf '1\n2%s\n' "$esc" >"$tmp/in"
"$st" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "benchmp-stats on an ESC in its input exited $rc"
grep -q "line 2: '2\\\\x1b' is not a number" "$tmp/err" ||
	fail "benchmp-stats on an ESC: $(od -c "$tmp/err" | head -n 3)"
! tr -d '\n' <"$tmp/err" | LC_ALL=C grep -q '[[:cntrl:]]' ||
	fail "benchmp-stats on an ESC: a control byte on stderr"
no_children
finish
