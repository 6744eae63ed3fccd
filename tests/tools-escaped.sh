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
no_children
finish
