#!/bin/sh
# tools-limits.sh: small resource limits a user may run under: a 32 KB
# stack (lat_proc's 20 KB of paths on main's stack died of SIGSEGV before
# a word) and 65 descriptors for one worker (a fixed reserve of 64 refused
# it).  The programs run themselves, not libtool's wrapper script, which
# does not survive a 32 KB stack.
. "$top_srcdir/tests/lib.sh"

if [ -f "$bin/.libs/lat_proc" ]; then
	real=$bin/.libs
	LD_LIBRARY_PATH=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
else
	real=$bin
fi

# shellcheck disable=SC3045
if (ulimit -s 32) 2>/dev/null; then
	for args in "lat_proc exec" "lat_proc shell" "lat_syscall null" \
	    "lat_pipe" "lat_fs -n 10"; do
		# $args is a command's words, split on purpose.
		# shellcheck disable=SC2086
		set -- $args
		name=$1
		shift
		run sh -c 'ulimit -s 32 && exec "$@"' sh "$real/$name" -N 2 "$@"
		[ "$rc" -eq 0 ] && [ -s "$tmp/out" ] ||
			fail "$args under ulimit -s 32: exit $rc: $(head -n 2 "$tmp/err")"
	done
else
	echo "$me: this sh has no ulimit -s: the stack limit is not tested" >&2
fi

# shellcheck disable=SC3045
if (ulimit -n 65) 2>/dev/null; then
	run sh -c 'ulimit -n 65 && exec "$@"' sh "$real/lat_syscall" -N 2 null
	[ "$rc" -eq 0 ] && [ -s "$tmp/out" ] ||
		fail "one worker under ulimit -n 65: exit $rc: $(head -n 2 "$tmp/err")"
	run sh -c 'ulimit -n 65 && exec "$@"' sh "$real/lat_pipe" -P 4 -N 2
	[ "$rc" -eq 0 ] && [ -s "$tmp/out" ] ||
		fail "lat_pipe -P 4 under ulimit -n 65: exit $rc: $(head -n 2 "$tmp/err")"
else
	echo "$me: this sh has no ulimit -n: the descriptor limit is not tested" >&2
fi
no_children
finish
