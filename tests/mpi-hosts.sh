#!/bin/sh
# mpi-hosts.sh: an MPI job across two hosts built on this machine (hostnames, aggregates, benchmp-run --mpi, a worker killed on the second host).
#
# The two hosts are two network namespaces joined by a veth pair
# (10.201.0.1/24 and 10.201.0.2/24, no other link and no default route, so
# no packet of the job can leave the machine), each with its own UTS
# namespace and hostname (bmhost1, bmhost2).  mpirun runs on bmhost1.
# Open MPI reaches bmhost2 as it reaches any remote host, through its rsh
# launcher (plm_rsh_agent), with our agent in place of ssh: the agent
# starts orted inside bmhost2's namespaces, from a login-like environment
# (env -i), so what a rank needs must come through mpirun's -x as over
# ssh.  From there everything is as between two machines: orted on
# bmhost2 reports back over TCP on the veth (oob_tcp_if_include), and the
# ranks talk over the veth with the TCP transport alone (btl tcp,self).
# The hosts share one filesystem (the tools are at the same path on both,
# as the README asks of real hosts); benchmp-run does not rely on it:
# rank 0 gathers every rank's records over MPI.
. "$top_srcdir/tests/lib.sh"

# skip WHY: this machine cannot build the two hosts.
skip() {
	echo "$me: $*: skipped" >&2
	exit 77
}

"$bin/lat_syscall" -V | grep -q '^features:.* mpi' ||
	skip "built without MPI (configure --with-mpi)"
command -v mpirun >/dev/null 2>&1 || skip "mpirun not found (openmpi-bin)"
mpirun --version 2>/dev/null | grep -q 'Open MPI' ||
	skip "mpirun is not Open MPI's (the launcher agent is Open MPI's plm_rsh_agent)"
have_jq || skip "jq not found"
[ "$(id -u)" -eq 0 ] || skip "not root (network namespaces need it)"
for c in ip unshare nsenter timeout; do
	command -v "$c" >/dev/null 2>&1 || skip "$c not found"
done
# Open MPI splits the agent's command line on blanks.
case $tmp in *[[:space:]]*) skip "the temporary directory '$tmp' has a blank" ;; esac

brun=$top_srcdir/scripts/benchmp-run
# The tools as if installed at the same path on both hosts.
PATH=$(cd "$bin" && pwd):$PATH
export PATH
dir=$tmp/hosts
mkdir "$dir" || exit 99
# Names unique to this run: other runs may build hosts of their own.
ns1=bmhost1-$$
ns2=bmhost2-$$
veth1=bmv1-$$
veth2=bmv2-$$
[ -d /run/netns ] && had_netns=1 || had_netns=0
ids=

# ns_procs: the processes in either host's network or UTS namespace.
ns_procs() {
	[ -n "$ids" ] || return 0
	for d in /proc/[0-9]*; do
		for k in net uts; do
			case " $ids " in
			*" $(readlink "$d/ns/$k" 2>/dev/null) "*)
				echo "${d#/proc/}"
				break
				;;
			esac
		done
	done
}

# cleanup: end every process on the two hosts, then remove the hosts, the
# veth pair (it goes with its namespaces) and the temporary directory.
cleanup() {
	pids=$(ns_procs)
	n=0
	while [ -n "$pids" ] && [ "$n" -lt 50 ]; do
		# shellcheck disable=SC2086
		kill -s KILL $pids 2>/dev/null
		sleep 0.1
		pids=$(ns_procs)
		n=$((n + 1))
	done
	for f in "$dir/uts1" "$dir/uts2"; do
		[ -e "$f" ] && umount "$f" 2>/dev/null
	done
	for ns in "$ns1" "$ns2"; do
		[ -e "/run/netns/$ns" ] && ip netns delete "$ns"
	done
	# The first namespace made /run/netns (a mount point): undo that
	# too when nobody else uses it (umount fails while others do).
	if [ "$had_netns" = 0 ] && [ -d /run/netns ] &&
	    [ -z "$(ls -A /run/netns)" ]; then
		umount /run/netns 2>/dev/null
		rmdir /run/netns 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# The two hosts.
ip netns add "$ns1" 2>"$tmp/err" ||
	skip "no network namespaces here: $(head -n 1 "$tmp/err")"
ip netns add "$ns2" || exit 99
ip link add "$veth1" netns "$ns1" type veth peer name "$veth2" netns "$ns2" \
    2>"$tmp/err" || skip "no veth pairs here: $(head -n 1 "$tmp/err")"
ip -n "$ns1" addr add 10.201.0.1/24 dev "$veth1" &&
    ip -n "$ns2" addr add 10.201.0.2/24 dev "$veth2" &&
    ip -n "$ns1" link set lo up && ip -n "$ns2" link set lo up &&
    ip -n "$ns1" link set "$veth1" up && ip -n "$ns2" link set "$veth2" up ||
	exit 99
: >"$dir/uts1" && : >"$dir/uts2" || exit 99
unshare --uts="$dir/uts1" hostname bmhost1 2>"$tmp/err" ||
	skip "no persistent UTS namespaces here: $(head -n 1 "$tmp/err")"
unshare --uts="$dir/uts2" hostname bmhost2 || exit 99
ids="net:[$(stat -L -c %i "/run/netns/$ns1")] net:[$(stat -L -c %i "/run/netns/$ns2")]"
ids="$ids uts:[$(stat -L -c %i "$dir/uts1")] uts:[$(stat -L -c %i "$dir/uts2")]"
[ "$(ip netns exec "$ns2" nsenter --uts="$dir/uts2" hostname)" = bmhost2 ] ||
	exit 99

# Open MPI's launcher agent in place of ssh: agent HOST COMMAND... runs
# COMMAND with sh in HOST's namespaces, as sshd would run it, and notes
# the host it was asked for.
cat >"$dir/agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in -*) shift ;; *) break ;; esac
done
host=\$1
shift
echo "\$host" >>"$dir/agent.log"
case \$host in
bmhost1) ns=$ns1 uts=$dir/uts1 ;;
bmhost2) ns=$ns2 uts=$dir/uts2 ;;
*) echo "agent: \$host: unknown host" >&2; exit 255 ;;
esac
exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME" \\
    ip netns exec "\$ns" nsenter --uts="\$uts" sh -c "\$*"
EOF
chmod +x "$dir/agent"
printf 'bmhost1 slots=1\nbmhost2 slots=1\n' >"$dir/hostfile"
# Open MPI over the veth only, one rank per host.  (Split on blanks on
# purpose: $dir has none.)  benchmp-run adds --mca mpi_warn_on_fork 0
# unless given, which it is here, since Open MPI refuses it twice.
# Open MPI's session directories (ompi.HOST.UID) go to a directory of
# this run: runs at the same time have the same host names, and a run
# that is interrupted ends Open MPI with SIGKILL, which leaves them.
mkdir "$dir/session" || exit 99
mca="--mca plm_rsh_agent $dir/agent --mca btl tcp,self
    --mca btl_tcp_if_include 10.201.0.0/24
    --mca oob_tcp_if_include 10.201.0.0/24 --mca mpi_warn_on_fork 0
    --mca orte_tmpdir_base $dir/session"
mpiopts="--allow-run-as-root --hostfile $dir/hostfile -np 2 $mca"

# on1 CMD...: run CMD on bmhost1, the launching host.
on1() {
	ip netns exec "$ns1" nsenter --uts="$dir/uts1" "$@"
}

# mpi CMD...: CMD as a job of one rank per host, bounded in time (PATH,
# where the tools are, and the settings go to bmhost2 with -x, as over ssh).
mpi() {
	# shellcheck disable=SC2086
	run timeout 120 ip netns exec "$ns1" nsenter --uts="$dir/uts1" \
	    mpirun $mpiopts -x PATH -x ENOUGH -x TIMING_O -x LOOP_O "$@"
}

# left_on_hosts WHAT: nothing of the job runs on either host any more
# (what is ending may take up to 10 s on a loaded machine).
left_on_hosts() {
	n=0
	while [ -n "$(ns_procs)" ] && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	left=$(ns_procs)
	[ -z "$left" ] || fail "$1: left running on the hosts: $(for p in $left; do
		printf ' %s(%s)' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)"; done)"
}

# Latency: each rank's record names its own host, and the aggregate, the
# median of every sample of both, lies between the ranks' figures.
mpi lat_syscall --json -N 5 null
if [ "$rc" -ne 0 ]; then
	fail "lat_syscall across two hosts: exit $rc: $(head -n 5 "$tmp/err")"
else
	jq -e -s '
	    [.[] | select(.aggregate == false)] as $r |
	    [.[] | select(.aggregate == true)] as $a |
	    length == 3 and ($r | length) == 2 and
	    ($r | map([.rank, .host]) | sort) ==
	        [[0, "bmhost1"], [1, "bmhost2"]] and
	    ($r | all(.ranks == 2)) and
	    ($a | length) == 1 and $a[0].ranks == 2 and
	    $a[0].hosts == ["bmhost1", "bmhost2"] and
	    $a[0].samples == ($r | map(.samples) | add) and
	    $a[0].parallel == ($r | map(.parallel) | max) and
	    $a[0].value >= ($r | map(.median) | min) and
	    $a[0].value <= ($r | map(.median) | max)' "$tmp/out" >/dev/null ||
		fail "lat_syscall records: $(jq -c '{rank, host, hosts, aggregate, value, samples}' "$tmp/out")"
fi
# bmhost2's daemon came through the agent, and bmhost1's ranks did not.
[ "$(sort -u "$dir/agent.log" 2>/dev/null)" = bmhost2 ] ||
	fail "the agent was asked for '$(cat "$dir/agent.log" 2>/dev/null)', not bmhost2 alone"
left_on_hosts "lat_syscall"

# Bandwidth: the aggregate joins the hosts' workers round for round (each
# round's figure the sum of their rates): its value is its median, inside
# its interval, between the sums of the hosts' slowest and fastest
# intervals.
mpi bw_mem --json -N 5 1m rd
if [ "$rc" -ne 0 ]; then
	fail "bw_mem across two hosts: exit $rc: $(head -n 5 "$tmp/err")"
else
	jq -e -s '
	    [.[] | select(.aggregate == false)] as $r |
	    [.[] | select(.aggregate == true)] as $a |
	    length == 3 and
	    ($r | map([.rank, .host]) | sort) ==
	        [[0, "bmhost1"], [1, "bmhost2"]] and
	    ($a | length) == 1 and $a[0].hosts == ["bmhost1", "bmhost2"] and
	    $a[0].samples == ($r | map(.samples) | add) and
	    $a[0].parallel == ($r | map(.parallel) | add) and
	    $a[0].processes == $r[0].processes and
	    $a[0].value == $a[0].median and
	    $a[0].ci_lo <= $a[0].value and $a[0].value <= $a[0].ci_hi and
	    ($r | map(.values | min) | add) as $lo |
	    ($r | map(.values | max) | add) as $hi |
	    $lo > 0 and $lo * (1 - 1e-9) <= $a[0].value and
	    $a[0].value <= $hi * (1 + 1e-9)' \
	    "$tmp/out" >/dev/null ||
		fail "bw_mem records: $(jq -c '{rank, host, hosts, aggregate, value, median, ci_lo, ci_hi, samples}' "$tmp/out")"
fi
left_on_hosts "bw_mem"

# benchmp-run --mpi from bmhost1: one folder per host and the aggregates,
# all on the launching host.  bmhost2 has a login's PATH, without the
# tools: benchmp-run names them by their full path.
# shellcheck disable=SC2086
run timeout 120 ip netns exec "$ns1" nsenter --uts="$dir/uts1" "$brun" \
    --installed --quick --only latency --budget 3600 --results "$dir/res" --mpi -np 2 \
    --hostfile "$dir/hostfile" -- $mca
if [ "$rc" -ne 0 ]; then
	fail "benchmp-run --mpi across two hosts: exit $rc: $(tail -n 5 "$tmp/err")"
else
	set -- "$dir"/res/aggregate/*.jsonl
	if [ -f "$1" ] && jq -e -s 'length > 0 and all(.aggregate == true and
	    .hosts == ["bmhost1", "bmhost2"])' "$1" >/dev/null; then
		nagg=$(jq -s length "$1")
	else
		nagg=0
		fail "no aggregate records: $(ls -R "$dir/res")"
	fi
	for h in bmhost1 bmhost2; do
		set -- "$dir"/res/"$h"/*.jsonl
		if [ ! -f "$1" ]; then
			fail "no results file for $h: $(ls -R "$dir/res")"
			continue
		fi
		jq -e -s --arg h "$h" --argjson n "$nagg" 'length == $n and
		    all(.host == $h and .aggregate == false)' "$1" >/dev/null ||
			fail "$1: $(jq -c '{tool, host, aggregate}' "$1" | head -n 3)"
	done
	# Each host's folder has its own machine description.
	for h in bmhost1 bmhost2; do
		set -- "$dir"/res/"$h"/*.machine.json
		[ -f "$1" ] && jq -e --arg h "$h" '.host == $h and .cpus > 0 and
		    .caches.last_level > 0 and .memory_kb > 0 and
		    (.benchmp | length) > 0' "$1" >/dev/null ||
			fail "no machine description of $h: $(ls -R "$dir/res"; cat "$1")"
	done
	grep -Eq '^  figure +bmhost1 +bmhost2 +all ranks' "$tmp/out" ||
		fail "hosts not side by side: $(head -n 5 "$tmp/out")"
fi
left_on_hosts "benchmp-run --mpi"

# A worker killed on bmhost2 fails the job on both hosts, twice: as Open
# MPI runs a job by default (it ends the other ranks once one has failed:
# mpirun must exit non-zero), and with that off, so that rank 0 must fail
# by itself (a wrapper notes each rank's host and exit status).  Either
# way rank 0 names rank 1 and bmhost2, the job ends within 60 s of the
# kill, prints no result and leaves nothing behind.
cat >"$dir/status" <<EOF
#!/bin/sh
"\$@"
s=\$?
echo "\$(hostname) \$s" >"$dir/status.\$OMPI_COMM_WORLD_RANK"
exit \$s
EOF
chmod +x "$dir/status"
uts2="uts:[$(stat -L -c %i "$dir/uts2")]"
net2="net:[$(stat -L -c %i "/run/netns/$ns2")]"
for abort in 1 0; do
	rm -f "$dir"/status.*
	# shellcheck disable=SC2086
	on1 timeout 60 mpirun $mpiopts -x PATH -x ENOUGH -x TIMING_O \
	    -x LOOP_O --mca orte_abort_on_non_zero_status "$abort" \
	    --tag-output "$dir/status" bw_mem -W 3000000 1m rd \
	    >"$tmp/out" 2>"$tmp/err" </dev/null &
	job=$!
	# bw_mem's worker on bmhost2: a bw_mem process in bmhost2's UTS
	# namespace whose parent is bw_mem (the rank) too.
	worker=
	n=0
	while [ -z "$worker" ] && [ "$n" -lt 200 ] &&
	    kill -0 "$job" 2>/dev/null; do
		for p in $(pgrep bw_mem); do
			[ "$(readlink "/proc/$p/ns/uts")" = "$uts2" ] ||
				continue
			pp=$(ps -o ppid= -p "$p" | tr -d ' ')
			case $(readlink "/proc/$pp/exe") in
			*/bw_mem | */lt-bw_mem) worker=$p ;;
			esac
		done
		[ -n "$worker" ] || sleep 0.05
		n=$((n + 1))
	done
	what="a worker killed on bmhost2 (abort on failure: $abort)"
	if [ -z "$worker" ]; then
		fail "$what: no bw_mem worker found on bmhost2"
	else
		[ "$(readlink "/proc/$worker/ns/net")" = "$net2" ] ||
			fail "$what: the worker is not in bmhost2's network namespace"
		kill -s KILL "$worker"
	fi
	t0=$(date +%s)
	wait_gone "$job" 70
	[ $(($(date +%s) - t0)) -le 60 ] ||
		fail "$what: the job ended $(($(date +%s) - t0)) s later"
	if [ "$abort" = 1 ]; then
		[ "$rc" -ne 0 ] || fail "$what: exit 0"
	else
		for r in 0 1; do
			[ "$(cat "$dir/status.$r" 2>/dev/null)" = "bmhost$((r + 1)) 1" ] ||
				fail "$what: rank $r: '$(cat "$dir/status.$r" 2>/dev/null)', not 'bmhost$((r + 1)) 1'"
		done
	fi
	grep -Eq "^\\[1,0\\]<stderr>:bw_mem: rank 1 on bmhost2: worker [0-9]+ \\(pid $worker\\) killed by signal 9" \
	    "$tmp/err" ||
		fail "$what: rank 0 does not name it: $(head -n 3 "$tmp/err")"
	! grep -q 'stdout>:' "$tmp/out" ||
		fail "$what: a result: $(cat "$tmp/out")"
	left_on_hosts "$what"
done

# Nothing is left: no process in the hosts' namespaces (checked before
# they go), none of Open MPI's session directories (it removes them when
# its jobs end, failed or not), no namespace, veth or temporary directory
# after the cleanup.
left=$(ns_procs)
[ -z "$(ls -A "$dir/session")" ] ||
	fail "Open MPI's session directories left: $(ls -A "$dir/session")"
cleanup
trap - EXIT
[ -z "$left" ] || fail "processes on the hosts before the cleanup: $left"
# (A namespace lives on while a process is in it.)
left=$(ns_procs)
[ -z "$left" ] || fail "processes on the hosts after the cleanup: $left"
for ns in "$ns1" "$ns2"; do
	[ ! -e "/run/netns/$ns" ] || fail "namespace $ns left"
done
for v in "$veth1" "$veth2"; do
	! ip link show "$v" >/dev/null 2>&1 || fail "veth $v left here"
done
[ ! -e "$tmp" ] || fail "$tmp left"
# (And none went to the usual place: orte_tmpdir_base reached bmhost2.)
set -- "${TMPDIR:-/tmp}"/ompi.bmhost[12].* /tmp/ompi.bmhost[12].*
for f; do
	[ ! -e "$f" ] || fail "Open MPI's session directory $f left"
done
finish
