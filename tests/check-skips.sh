#!/bin/sh
# check-skips.sh: a Check suite that cannot run here exits 77, which the
# summary counts as SKIP, and says why: never a pass that tested nothing.
# The machine is made to lack the thing in a namespace of this test's.
. "$top_srcdir/tests/lib.sh"

t=$top_builddir/tests
if [ ! -x "$t/check_sink_ipv6" ]; then
	echo "$me: SKIP: the Check suites are not built (no Check)" >&2
	exit 77
fi
if ! unshare -rn true 2>/dev/null || ! unshare -rm true 2>/dev/null; then
	echo "$me: SKIP: no user, network or mount namespaces here" >&2
	exit 77
fi

# A network namespace of its own has a loopback that is down: no ::1.
expect_exit 77 '^check_sink_ipv6: SKIP: no IPv6 loopback here: ' \
    unshare -rn "$t/check_sink_ipv6"
# An empty /dev: no /dev/full.  The program is the inner shell's $0.
# shellcheck disable=SC2016
expect_exit 77 '^check_sink_full: SKIP: /dev/full cannot be written here' \
    unshare -rm sh -c 'mount -t tmpfs none /dev && exec "$0"' \
    "$t/check_sink_full"

finish
