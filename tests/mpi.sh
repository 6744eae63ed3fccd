#!/bin/sh
# mpi.sh: tools as ranks of an MPI job (per-rank records, the aggregate, a failing rank), or MPI said to be off.
. "$top_srcdir/tests/lib.sh"
# The records' samples and processes count the default rounds of workers.
unset BENCHMP_PROCESSES

brun=$top_srcdir/scripts/benchmp-run
host=$(uname -n)
# The tools as if installed: the build's bin/ first on PATH.
PATH=$(cd "$bin" && pwd):$PATH
export PATH

# A build without MPI says so, and benchmp-run --mpi refuses to pretend.
if ! "$bin/lat_syscall" -V | grep -q '^features:.* mpi'; then
	"$bin/lat_syscall" -V | grep -q '^features:' ||
		fail "lat_syscall -V lists no features: $("$bin/lat_syscall" -V)"
	if have_jq; then
		expect_exit 1 'built without MPI.*--with-mpi' "$brun" --installed \
		    --mpi --only latency --results "$tmp/res"
		[ ! -d "$tmp/res" ] || fail "benchmp-run --mpi wrote results"
	fi
	finish
fi

if ! command -v mpirun >/dev/null 2>&1; then
	echo "$me: built with MPI but mpirun not found: skipped" >&2
	exit 77
fi
if ! have_jq; then
	echo "$me: jq not found: skipped" >&2
	exit 77
fi

# Open MPI: workers are forked after MPI_Init and never call MPI (no
# warning needed); containers often forbid the single-copy mechanism of
# the shared-memory transport.  Root must say it means it.
OMPI_MCA_mpi_warn_on_fork=0
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mpi_warn_on_fork OMPI_MCA_btl_vader_single_copy_mechanism
mpirun_root=
[ "$(id -u)" -eq 0 ] && mpirun_root=--allow-run-as-root
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# Rounds per run: lib.sh's BENCHMP_PROCESSES (mpirun passes it on), else 5.
k=${BENCHMP_PROCESSES:-5}

# mpi NP CMD...: run CMD on NP ranks of this machine, bounded in time.
mpi() {
	np=$1
	shift
	over=
	[ "$np" -gt "$cpus" ] && over=--oversubscribe
	# shellcheck disable=SC2086
	run timeout 120 mpirun $mpirun_root $over -np "$np" "$@"
}

for np in 2 4; do
	# Bandwidth: one record per rank, and the aggregate joins the ranks'
	# workers round for round, as -P joins a run's: each round's figure
	# sums every rank's rate, the value is the median of those sums (the
	# record's median, inside its interval), and lies between the sums of
	# the ranks' slowest and fastest intervals.
	mpi "$np" bw_mem --json -N 5 1m rd
	if [ "$rc" -ne 0 ]; then
		fail "-np $np bw_mem: exit $rc: $(head -n 3 "$tmp/err")"
		continue
	fi
	[ "$(wc -l <"$tmp/out")" -eq $((np + 1)) ] ||
		fail "-np $np bw_mem: $(wc -l <"$tmp/out") records, not $((np + 1))"
	jq -e -s --argjson np "$np" --argjson k "$k" --arg host "$host" '
	    [.[] | select(.aggregate == false)] as $r |
	    [.[] | select(.aggregate == true)] as $a |
	    ($r | map(.rank) | sort) == [range(0; $np)] and
	    ($r | all(.ranks == $np and .host == $host and .samples == 5 * $k and
	        .processes == $k)) and
	    ($a | length) == 1 and $a[0].ranks == $np and
	    $a[0].hosts == [$host] and $a[0].parallel == $np and
	    $a[0].samples == 5 * $k * $np and $a[0].processes == $k and
	    $a[0].value == $a[0].median and
	    $a[0].ci_lo <= $a[0].value and $a[0].value <= $a[0].ci_hi and
	    ($r | map(.values | min) | add) as $lo |
	    ($r | map(.values | max) | add) as $hi |
	    $lo * (1 - 1e-9) <= $a[0].value and $a[0].value <= $hi * (1 + 1e-9)' \
	    "$tmp/out" >/dev/null ||
		fail "-np $np bw_mem records: $(jq -c '{rank, aggregate, host, value, median, ci_lo, ci_hi, samples, processes}' "$tmp/out")"

	# Latency: the aggregate is the median of every rank's rounds' medians,
	# so it lies between the ranks' own medians (each rank's figure is its
	# best round).
	mpi "$np" lat_syscall --json -N 5 null
	if [ "$rc" -ne 0 ]; then
		fail "-np $np lat_syscall: exit $rc: $(head -n 3 "$tmp/err")"
		continue
	fi
	jq -e -s --argjson np "$np" --argjson k "$k" '
	    [.[] | select(.aggregate == false)] as $r |
	    [.[] | select(.aggregate == true)] as $a |
	    ($r | map(.rank) | sort) == [range(0; $np)] and
	    ($a | length) == 1 and $a[0].samples == 5 * $k * $np and
	    $a[0].value >= ($r | map(.median) | min) and
	    $a[0].value <= ($r | map(.median) | max) and
	    $a[0].value == $a[0].median' "$tmp/out" >/dev/null ||
		fail "-np $np lat_syscall records: $(jq -c '{rank, aggregate, value, median}' "$tmp/out")"
done

# Rounds: each rank brings its wish for another round to a meeting, and
# all run one more when any wants it.  Rank 0 asks for 2 rounds, rank 1
# for 4 (BENCHMP_PROCESSES per application context): both run 4, none
# waits for the other.
run timeout 120 mpirun $mpirun_root -np 1 -x BENCHMP_PROCESSES=2 \
    lat_syscall --json -N 3 null : -np 1 -x BENCHMP_PROCESSES=4 \
    lat_syscall --json -N 3 null
[ "$rc" -eq 0 ] && jq -e -s '
    [.[] | select(.aggregate == false)] as $r |
    [.[] | select(.aggregate == true)] as $a |
    ($r | length) == 2 and ($r | all(.processes == 4 and .samples == 12))
    and $a[0].processes == 8' "$tmp/out" >/dev/null ||
	fail "rounds across ranks: exit $rc: $(jq -c '{rank, processes, samples}' "$tmp/out" 2>&1 | tr '\n' ' ')"

# Without --json, rank 0 prints the classic line once, for the job.
mpi 2 lat_syscall -N 5 null
[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
    grep -Eq '^Simple syscall: [0-9.]+ microseconds$' "$tmp/out" ||
	fail "-np 2 classic line: exit $rc, '$(cat "$tmp/out")'"

# Lines that show a figure other than a record's value come from the
# aggregate across ranks, formatted as the tool formats it: mhz's rounded
# MHz and par_mem's parallelism.  One run writes the records to a file
# sink and the classic line to stdout, so the two are the same figures.
mpi 2 env BENCHMP_OUTPUT="file:$tmp/mhz.jsonl" mhz
if [ "$rc" -ne 0 ]; then
	fail "-np 2 mhz: exit $rc: $(head -n 3 "$tmp/err")"
else
	m=$(jq -r 'select(.aggregate == true) | .value | round' \
	    "$tmp/mhz.jsonl")
	want=$(awk -v m="$m" 'BEGIN {
	    if (m + 0 >= 1) printf "%d MHz, %.4f nanosec clock", m, 1000 / m }')
	got=$(cat "$tmp/out")
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		fail "-np 2 mhz: line '$(cat "$tmp/out")', aggregate says '$want'"
	# A clock rate does not add up across ranks: the aggregate is the
	# median of every rank's rounds, its record's median.
	jq -e -s '[.[] | select(.aggregate == false)] as $r |
	    [.[] | select(.aggregate == true)][0] as $a |
	    $a.value == $a.median and $a.parallel == 1 and
	    $a.value >= ($r | map(.min) | min) and
	    $a.value <= ($r | map(.max) | max)' "$tmp/mhz.jsonl" >/dev/null ||
		fail "-np 2 mhz: $(jq -c '{rank, value, median, min, max}' "$tmp/mhz.jsonl")"
fi
mpi 2 env BENCHMP_OUTPUT="file:$tmp/par.jsonl" par_mem -M 16k
if [ "$rc" -ne 0 ]; then
	fail "-np 2 par_mem: exit $rc: $(head -n 3 "$tmp/err")"
else
	jq -r 'select(.aggregate == true) |
	    "\(.params.size) \(.value) \(.ci_lo <= .value and .value <= .ci_hi)"' \
	    "$tmp/par.jsonl" | awk '{ printf "%.6f %.2f %s\n", $1 / 1e6, $2, $3 }' \
	    >"$tmp/par.want"
	sed 's/$/ true/' "$tmp/out" >"$tmp/par.got"
	[ -s "$tmp/par.want" ] && cmp -s "$tmp/par.want" "$tmp/par.got" ||
		fail "-np 2 par_mem: lines '$(cat "$tmp/out")', aggregates '$(cat "$tmp/par.want")'"
fi

# A worker killed on rank 1: every rank fails, rank 0 names rank 1 and
# its host, nobody hangs and nothing is left.  Rank 1's wrapper kills its
# tool's newest child during the long warmup, once the process is the
# tool (libtool's wrapper script forks commands of its own first).
cat >"$tmp/kill1" <<'EOF'
#!/bin/sh
[ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" = 1 ] || exec "$@"
"$@" &
pid=$!
n=0
while [ "$n" -lt 200 ]; do
	case $(readlink "/proc/$pid/exe" 2>/dev/null) in
	*/bw_mem | */lt-bw_mem) break ;;
	esac
	sleep 0.05
	n=$((n + 1))
done
sleep 0.5
until w=$(pgrep -n -P "$pid") && kill -9 "$w" 2>/dev/null; do
	sleep 0.05
done
wait "$pid"
EOF
chmod +x "$tmp/kill1"
t0=$(date +%s)
mpi 2 "$tmp/kill1" bw_mem -W 3000000 1m rd
t1=$(date +%s)
[ "$rc" -ne 0 ] || fail "a killed worker on rank 1: exit 0"
grep -Eq "^bw_mem: rank 1 on $host: worker [0-9]+ \\(pid [0-9]+\\) killed by signal 9" \
    "$tmp/err" || fail "killed worker not named: $(head -n 3 "$tmp/err")"
[ $((t1 - t0)) -le 60 ] || fail "a killed worker took $((t1 - t0)) s"
[ ! -s "$tmp/out" ] || fail "a failed job printed a result: $(cat "$tmp/out")"
no_children

# A rank whose tool fails on its own (rank 1's wrapper swaps the size for
# a bad one) aborts the job with a message that names it.
cat >"$tmp/bad1" <<'EOF'
#!/bin/sh
[ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" = 1 ] || exec "$@"
tool=$1
shift 2
exec "$tool" 0x "$@"
EOF
chmod +x "$tmp/bad1"
t0=$(date +%s)
mpi 2 "$tmp/bad1" bw_mem 1m rd
t1=$(date +%s)
[ "$rc" -ne 0 ] || fail "a bad argument on rank 1: exit 0"
grep -q "^bw_mem: rank 1 on $host: size: '0x' is not a size" "$tmp/err" ||
	fail "bad argument not named: $(head -n 3 "$tmp/err")"
[ $((t1 - t0)) -le 60 ] || fail "a bad argument took $((t1 - t0)) s"
no_children

# benchmp-run --mpi: the suite on every rank, one file per host, the
# hosts side by side.  A fake launcher renames rank 1's host and divides
# its figures by ten (and passes what is not JSON, the hosts' descriptions,
# as it is), so that two hosts and an outlier appear on one
# machine: two ranks on two CPUs can move a latency by twice (seen in CI:
# rank 1's lat_pipe at 31 us against rank 0's 14 us), never by ten.
cat >"$tmp/fake-mpirun" <<'EOF'
#!/bin/sh
case $1 in --version) exec mpirun --version ;; esac
mpirun "$@" | jq -R -r '. as $line | try (fromjson |
    if .rank == 1 then .host = "other" | .value /= 10
    elif .aggregate then .hosts += ["other"] else . end | tojson)
    catch $line'
EOF
chmod +x "$tmp/fake-mpirun"
MPIRUN=$tmp/fake-mpirun run "$brun" --installed --quick --only latency \
    --mpi -np 2 --budget 3600 --results "$tmp/res"
[ "$rc" -eq 0 ] || fail "benchmp-run --mpi: exit $rc: $(tail -n 3 "$tmp/err")"
for h in "$host" other; do
	set -- "$tmp"/res/"$h"/*.jsonl
	if [ -f "$1" ]; then
		[ "$(jq -s 'length' "$1")" -ge 7 ] ||
			fail "$1: $(jq -s 'length' "$1") records"
		jq -e -s --arg h "$h" 'all(.host == $h and .aggregate == false)' \
		    "$1" >/dev/null || fail "$1 holds records of other hosts"
	else
		fail "no results file for host $h"
	fi
done
set -- "$tmp"/res/aggregate/*.jsonl
[ -f "$1" ] && jq -e -s 'length >= 7 and all(.aggregate == true)' "$1" \
    >/dev/null || fail "no aggregate records"
grep -Eq "^  figure +$host +other +all ranks" "$tmp/out" ||
	fail "hosts not side by side: $(head -n 5 "$tmp/out")"
grep -Eq '^  lat_pipe .*\*' "$tmp/out" ||
	fail "the host divided by ten is not marked: $(cat "$tmp/out")"

# A program of its own that links MPI and libbenchmp and calls MPI_Init
# (benchmp(3), MPI): its bm_run meets the other ranks through the
# library's MPI module, so rank 1's failing benchmark is rank 0's
# BM_ERANK (-1012) too, with rank 1's detail.
mpi 2 "$top_builddir/tests/mpi-own"
[ "$rc" -eq 0 ] || fail "mpi-own: exit $rc: $(cat "$tmp/out" "$tmp/err" | head -n 5)"
grep -q '^rank 0: -1012 rank 1 on ' "$tmp/out" ||
	fail "mpi-own: rank 0 did not hear of rank 1's failure: $(cat "$tmp/out")"
# Without its module such a program's ranks fail, saying so (BM_ENOTSUP,
# -1005); one that never calls MPI_Init is not affected.
mpi 2 env BENCHMP_MPI_MODULE="$tmp/none.so" "$top_builddir/tests/mpi-own"
[ "$rc" -ne 0 ] && grep -q "^rank 0: -1005 MPI: cannot load $tmp/none\.so" "$tmp/out" ||
	fail "mpi-own without its module: exit $rc: $(cat "$tmp/out")"
run env BENCHMP_MPI_MODULE="$tmp/none.so" "$top_builddir/tests/mpi-own" no-init
[ "$rc" -eq 0 ] && grep -q '^rank 0: 0 ' "$tmp/out" ||
	fail "mpi-own no-init without its module: exit $rc: $(cat "$tmp/out" "$tmp/err")"
no_children
finish
