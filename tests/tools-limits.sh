#!/bin/sh
# tools-limits.sh: small resource limits a user may run under: a 32 KB
# stack (lat_proc's 20 KB of paths on main's stack died of SIGSEGV before
# a word, and so did every message of a failing tool, 20 KB of buffers on
# the stack; lat_pipe died of 4 KB message buffers for MPI and its 5 KB
# state, lat_fs of a warning through unbuffered stderr, whose fprintf
# formats in 8 KB of stack, in a make check with a larger environment)
# and 65 descriptors for one worker (a fixed reserve of 64
# refused it).  The programs run themselves, not libtool's wrapper script,
# which does not survive a 32 KB stack.
. "$top_srcdir/tests/lib.sh"

if [ -f "$bin/.libs/lat_proc" ]; then
	real=$bin/.libs
	LD_LIBRARY_PATH=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
else
	real=$bin
fi

# The stack limit: 32 KB, or 64 KB in a build with AddressSanitizer,
# whose runtime and redzones need more of the stack than the tools do
# (lat_proc shell ran in 24 KB, and its sanitized build needed 28 KB:
# at 32 KB a busy machine's deeper paths overflowed it).
stack=32
if [ "${BM_SANITIZERS:-no}" = yes ] || grep -q __asan_init "$real/lat_proc"
then
	stack=64
fi
# shellcheck disable=SC3045
if (ulimit -s "$stack") 2>/dev/null; then
	for args in "lat_proc exec" "lat_proc shell" "lat_syscall null" \
	    "lat_pipe" "lat_fs -n 10"; do
		# $args is a command's words, split on purpose.
		# shellcheck disable=SC2086
		set -- $args
		name=$1
		shift
		run sh -c 'ulimit -s "$0" && exec "$@"' "$stack" \
		    "$real/$name" -N 2 "$@"
		[ "$rc" -eq 0 ] && [ -s "$tmp/out" ] ||
			fail "$args under ulimit -s $stack: exit $rc: $(head -n 2 "$tmp/err")"
	done
	# Served by benchmp-sched, a figure alone and a group: its 64 KB
	# read buffer, the exec's paths, four PATH_MAX buffers on the chain
	# that finds a tool beside it and glibc's formatting to unbuffered
	# stderr were on the stack.
	for args in "lat_syscall null" "lat_sig catch"; do
		# shellcheck disable=SC2086
		set -- $args
		name=$1
		shift
		run sh -c 'ulimit -s "$0" && exec "$@"' "$stack" \
		    "$real/$name" --served=0.2 "$@"
		[ "$rc" -eq 0 ] && [ -s "$tmp/out" ] ||
			fail "$args --served under ulimit -s $stack: exit $rc: $(head -n 2 "$tmp/err")"
	done
	# A failing tool's message, under the same limit: said, exit 2.
	run sh -c 'ulimit -s "$0" && exec "$@"' "$stack" "$real/lat_proc" \
	    -N 2 --precision=0.0001 shell
	[ "$rc" -eq 2 ] && grep -q "^lat_proc: --precision: '0.0001' is not" \
	    "$tmp/err" ||
		fail "a usage error under ulimit -s $stack: exit $rc: $(head -n 2 "$tmp/err")"
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
	# lat_ctx's largest ring, 2048 pipe ends, under the common soft
	# limit of 1024 (EMFILE half way round): the soft limit is raised,
	# and a hard one too low refused before any worker starts.  (A ring
	# no dearer than the overhead is not measurable: said, exit 1.)
	if (ulimit -S -n 1024 && ulimit -H -n 2200) 2>/dev/null; then
		run sh -c 'ulimit -S -n 1024 && ulimit -H -n 2200 && exec "$@"' \
		    sh "$real/lat_ctx" --timeout=600 -N 1 -s 0 1024
		[ "$rc" -eq 0 ] && grep -q '^1024 ' "$tmp/out" ||
		    { [ "$rc" -eq 1 ] && grep -q 'switch is not measurable' \
		    "$tmp/err"; } ||
			fail "lat_ctx 1024 under ulimit -Sn 1024: exit $rc: $(head -n 2 "$tmp/err")"
	fi
	if (ulimit -n 1024) 2>/dev/null; then
		expect_exit 1 '^lat_ctx: a ring of 1024 processes needs 2056 open files, more than the limit of 1024 \(ulimit -Hn\)$' \
		    sh -c 'ulimit -n 1024 && exec "$@"' sh "$real/lat_ctx" -N 1 \
		    1024
	fi
else
	echo "$me: this sh has no ulimit -n: the descriptor limit is not tested" >&2
fi
# Workers of 2 GB (a 1 GB message and its partner's copy, or two ring
# members of 1 GB), twice as many as the memory available holds: refused
# before any worker starts, not left to the OOM killer.  ulimit -v 1 GB
# bounds the harm of a check gone missing (not under AddressSanitizer,
# whose runtime reserves terabytes of address space).
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
p=$((${avail:-0} / 1048576 + 2))
# shellcheck disable=SC3045
if [ -n "$avail" ] && [ "$p" -le 4096 ] && [ "$stack" -eq 32 ] &&
    (ulimit -v 1048576) 2>/dev/null; then
	for args in "lat_unix -m 1g" "lat_tcp -m 1g" "bw_tcp -m 1g" \
	    "lat_ctx -s 1048576 2"; do
		# shellcheck disable=SC2086
		set -- $args
		name=$1
		shift
		expect_exit 1 "^$name: $p worker\\(s\\) of 2147 MB need [0-9]+ MB; [0-9]+ MB are available \\(MemAvailable\\)\$" \
		    sh -c 'ulimit -v 1048576 && exec "$@"' sh "$real/$name" \
		    -N 1 -P "$p" "$@"
	done
else
	echo "$me: no MemAvailable, more than 4 TB, or a sanitizer: the" \
	    "memory check is not tested" >&2
fi
# lat_ctx 16 with at most 10 processes: a ring member's fork fails half
# way round and the members already started are reaped, not left as
# zombies (where nothing reaps orphans, as in a container whose first
# process does not).  RLIMIT_NPROC does not bind root: run as nobody, from
# a copy nobody may execute.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
    command -v prlimit >/dev/null 2>&1; then
	ndir=$(mktemp -d /tmp/benchmp-nproc.XXXXXX) || exit 99
	chmod 755 "$ndir"
	cp "$real/lat_ctx" "$ndir/"
	[ "$real" = "$bin" ] ||
		cp -P "$top_builddir"/lib/.libs/libbenchmp.so* "$ndir/"
	# Zombies already there (another run's, where nothing reaps them).
	z0=$(pgrep -c -r Z -u 65534 lat_ctx)
	run env LD_LIBRARY_PATH="$ndir" prlimit --nproc=10 setpriv \
	    --reuid=65534 --regid=65534 --clear-groups "$ndir/lat_ctx" -N 2 16
	[ "$rc" -eq 1 ] && grep -q "Resource temporarily unavailable\$" "$tmp/err" ||
		fail "lat_ctx 16 under 10 processes: exit $rc: $(head -n 2 "$tmp/err")"
	sleep 0.5
	z=$(($(pgrep -c -r Z -u 65534 lat_ctx) - z0))
	[ "$z" -le 0 ] || fail "lat_ctx 16 under 10 processes left $z zombies"
	rm -rf "$ndir"
else
	echo "$me: not root with setpriv and prlimit: lat_ctx's refused fork" \
	    "is not tested" >&2
fi
no_children
finish
