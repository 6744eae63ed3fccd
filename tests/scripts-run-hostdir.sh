#!/bin/sh
# scripts-run-hostdir.sh: benchmp-run refuses a results directory whose
# RESULTS/HOST it cannot write (a file there, or a directory without
# write permission) at once, with one message naming it, before
# calibrating or measuring.
. "$top_srcdir/tests/lib.sh"

if ! have_jq; then
	echo "$me: SKIP: jq not found (benchmp-run needs it)" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
PATH=$(cd "$bin" && pwd):$PATH
export PATH
host=$(uname -n)

# refused DIR WHAT: benchmp-run --results DIR exits 1 with the one line
# "cannot write in DIR/HOST", having printed and measured nothing.
refused() {
	run "$brun" --installed --no-check --quick --only basic --passes 1 \
	    --results "$1"
	[ "$rc" -eq 1 ] || fail "$2: exit $rc: $(head -n 3 "$tmp/err")"
	[ "$(cat "$tmp/err")" = "benchmp-run: cannot write in $1/$host" ] ||
		fail "$2: stderr is not one line naming $1/$host: $(head -n 3 "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "$2: printed: $(head -n 3 "$tmp/out")"
}

# A file where the host's directory goes.
mkdir "$tmp/file" && : >"$tmp/file/$host" || exit 99
refused "$tmp/file" "a file at RESULTS/HOST"
[ -f "$tmp/file/$host" ] && [ ! -s "$tmp/file/$host" ] ||
	fail "the file at RESULTS/HOST was changed"

# A host directory that cannot be written (root writes in any mode: a
# read-only tmpfs in a mount namespace of its own instead).
mkdir -p "$tmp/ro/$host" || exit 99
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$tmp/ro/$host"
	refused "$tmp/ro" "a host directory of mode 555"
	chmod 755 "$tmp/ro/$host"
elif unshare -m true 2>/dev/null; then
	# shellcheck disable=SC2016 # expanded by the inner sh
	run unshare -m sh -c 'mount -t tmpfs -o ro none "$1" && shift &&
	    exec "$@"' sh "$tmp/ro/$host" "$brun" --installed --no-check \
	    --quick --only basic --passes 1 --results "$tmp/ro"
	if grep -q "^mount:" "$tmp/err"; then
		echo "$me: cannot mount a read-only tmpfs here: that case skipped" >&2
	else
		[ "$rc" -eq 1 ] &&
		    [ "$(cat "$tmp/err")" = "benchmp-run: cannot write in $tmp/ro/$host" ] ||
			fail "read-only host directory: exit $rc: $(head -n 3 "$tmp/err")"
	fi
else
	echo "$me: root, and no unshare -m: the read-only case skipped" >&2
fi
no_children
finish
