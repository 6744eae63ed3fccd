#!/bin/sh
# lat_sem-kill.sh: lat_sem killed by SIGKILL (which no handler sees)
# leaves no System V semaphore set behind: its guardian removes it.  Run in
# an IPC namespace of its own, so that the sets of other tests and users
# are neither counted nor touched (unshare -i; root only).
. "$top_srcdir/tests/lib.sh"

if ! unshare -i true 2>/dev/null; then
	echo "$me: SKIP: unshare -i (a private IPC namespace) is not allowed here" >&2
	exit 77
fi

if [ ! -r /proc/sysvipc/sem ]; then
	echo "$me: SKIP: no /proc/sysvipc/sem to read the sets from" >&2
	exit 77
fi

# In the namespace: start lat_sem (long: intervals of 0.1 s), wait until
# its worker has a partner (the set is in use), SIGKILL the tool alone,
# then wait up to 30 s for the set to go and print what is left.
cat >"$tmp/inner.sh" <<'EOF'
. "$top_srcdir/tests/lib.sh"
ENOUGH=100000 "$bin/lat_sem" -N 1000 >/dev/null 2>&1 &
pid=$!
pair=$(child_with_child "$pid" lat_sem)
[ -n "$pair" ] || echo "no worker with a partner"
[ "$(awk 'NR > 1' /proc/sysvipc/sem | wc -l)" -eq 1 ] ||
	echo "not one set while running: $(cat /proc/sysvipc/sem)"
# (the shell's "Killed" on stderr is not a failure)
{ kill -s KILL "$pid"; wait "$pid"; } 2>/dev/null
n=0
while [ "$n" -lt 300 ] && [ "$(awk 'NR > 1' /proc/sysvipc/sem | wc -l)" -ne 0 ]; do
	sleep 0.1
	n=$((n + 1))
done
awk 'NR > 1 { print "left: set " $2 }' /proc/sysvipc/sem
no_children
EOF
top_srcdir=$top_srcdir top_builddir=$top_builddir \
    unshare -i sh "$tmp/inner.sh" >"$tmp/inner.out" 2>&1
[ ! -s "$tmp/inner.out" ] || fail "$(cat "$tmp/inner.out")"
finish
