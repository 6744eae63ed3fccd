#!/bin/sh
# scripts-run-results.sh: benchmp-run refuses a results directory it
# cannot write at once, with one message, before building or calibrating,
# and leaves no copy of its records beside them when a signal comes.
. "$top_srcdir/tests/lib.sh"

if ! command -v jq >/dev/null 2>&1; then
	echo "$me: SKIP: jq not found (benchmp-run needs it)" >&2
	exit 77
fi
brun=$top_srcdir/scripts/benchmp-run
PATH=$(cd "$bin" && pwd):$PATH
export PATH
ro=$tmp/read-only
mkdir "$ro"

# Root writes in a mode 555 directory: a read-only tmpfs in a mount
# namespace of its own instead; an ordinary user gets mode 555.
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$ro"
	run "$brun" --installed --no-check --quick --only basic --passes 1 \
	    --results "$ro"
elif unshare -m true 2>/dev/null; then
	# shellcheck disable=SC2016 # expanded by the inner sh
	run unshare -m sh -c 'mount -t tmpfs -o ro none "$1" && shift &&
	    exec "$@"' sh "$ro" "$brun" --installed --no-check --quick \
	    --only basic --passes 1 --results "$ro"
	if grep -q "^mount:" "$tmp/err"; then
		echo "$me: SKIP: cannot mount a read-only tmpfs here" >&2
		exit 77
	fi
else
	echo "$me: SKIP: root, and no unshare -m for a read-only directory" >&2
	exit 77
fi
[ "$rc" -eq 1 ] || fail "exit $rc: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "benchmp-run: cannot write in $ro" ] ||
	fail "stderr is not one line naming the directory: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "printed: $(head -n 3 "$tmp/out")"
chmod 755 "$ro"

# A signal as a copy of the records is renamed over them (a stand-in for
# mv(1) sends SIGTERM to the shell that runs it, then fails): the run
# exits of it and leaves no copy beside the results.
mkdir "$tmp/mv" || exit 99
realmv=$(command -v mv) || exit 99
# shellcheck disable=SC2016 # (the stand-in's own $3 and $PPID)
printf '%s\n' '#!/bin/sh' 'case $3 in' \
    '*/.benchmp-run.*) kill -s TERM "$PPID"; exit 1 ;;' 'esac' \
    "exec '$realmv' \"\$@\"" >"$tmp/mv/mv" && chmod +x "$tmp/mv/mv" ||
	exit 99
PATH=$tmp/mv:$PATH run "$brun" --installed --no-check --quick --only basic \
    --passes 1 --budget 3600 --results "$tmp/sig"
left=$(find "$tmp/sig" -name '.benchmp-run.*')
[ "$rc" -eq 143 ] && [ -z "$left" ] ||
	fail "a signal as the records were renamed: exit $rc, left: $left"
no_children
finish
