#!/bin/sh
# tools-served.sh: a tool run with --served tells benchmp-sched how many
# figures it measures one after another and which of them are parts
# (figures= and parts=), so that the scheduler shares the visits out as
# the suite's plan does; and such a run ends with its records.
. "$top_srcdir/tests/lib.sh"

# words TOOL ARGS...: start the tool with --served, wait (60 s at most)
# until its process has become benchmp-sched (the same process: the tool
# execs it), and put the scheduler's words, one a line, in $tmp/words;
# then stop the run.
words() {
	"$@" >"$tmp/w.out" 2>"$tmp/w.err" &
	wpid=$!
	: >"$tmp/words"
	i=0
	while [ "$i" -lt 1200 ]; do
		if [ -r "/proc/$wpid/cmdline" ] &&
		    tr '\0' '\n' <"/proc/$wpid/cmdline" >"$tmp/words.new" 2>/dev/null &&
		    grep -q 'benchmp-sched$' "$tmp/words.new"; then
			mv "$tmp/words.new" "$tmp/words"
			break
		fi
		kill -0 "$wpid" 2>/dev/null || break
		sleep 0.05
		i=$((i + 1))
	done
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	[ -s "$tmp/words" ] ||
		fail "$*: benchmp-sched was not seen running: $(cat "$tmp/w.err")"
}

# expect_words WANT TOOL ARGS...: the words between -- and the tool are
# WANT ("" for none).
expect_words() {
	want=$1
	shift
	words "$@"
	got=$(awk 'seen && /^(figures|parts)=/ { printf "%s%s", sep, $0;
	    sep = " "; next } seen { exit } $0 == "--" { seen = 1 }' \
	    "$tmp/words")
	[ "$got" = "$want" ] ||
		fail "$*: benchmp-sched got '$got', not '$want': $(tr '\n' ' ' <"$tmp/words")"
}

if [ ! -r /proc/self/cmdline ]; then
	echo "$me: no /proc: a process's words cannot be read" >&2
	exit 77
fi

# lat_ctx: its overhead, a part, then each ring (twice under both).
expect_words 'figures=3 parts=1' "$bin/lat_ctx" --served=20 -s 0 2 4
expect_words 'figures=5 parts=1' "$bin/lat_ctx" --served=20 \
    --placement=both -s 0 2 4
# lat_sig: catch takes kill(self, 0) off; prot that and catch's handler
# (served as one group with them, which the scheduler visits together).
expect_words 'figures=2 parts=1' "$bin/lat_sig" --served=20 catch
expect_words 'figures=3 parts=2' "$bin/lat_sig" --served=20 prot
expect_words '' "$bin/lat_sig" --served=20 install
# lat_pagefault: the map and unmap alone, a part, then the passes.
expect_words 'figures=2 parts=1' "$bin/lat_pagefault" --served=20 \
    "$top_srcdir/configure.ac"
expect_words '' "$bin/lat_pagefault" --served=20 --per-fault \
    "$top_srcdir/configure.ac"
# stream: four kernels as one group (announced together: no figures=),
# or -k's alone.
expect_words '' "$bin/stream" --served=20 -M 1m
expect_words '' "$bin/stream" --served=20 -M 1m -k copy
expect_words 'figures=18' "$bin/lat_ops" --served=20
# par_ops: an operation's one chain, then its best chains; one chain a
# part when one operation is named.
expect_words 'figures=32' "$bin/par_ops" --served=20
expect_words 'figures=4' "$bin/par_ops" --served=20 int64-add float-mul
expect_words 'figures=2 parts=1' "$bin/par_ops" --served=20 int64-add
expect_words 'figures=2 parts=1' "$bin/par_ops" --served=20 int64-add \
    "int64 add"
expect_words 'figures=2' "$bin/lat_ops" --served=20 int64-add \
    float-bogomflops
expect_words '' "$bin/lat_ops" --served=20 double-bogomflops
# lat_fs: a size after another, its four by default.
expect_words 'figures=4' "$bin/lat_fs" --served=20 -n 10 "$tmp"
expect_words 'figures=2' "$bin/lat_fs" --served=20 -s 0 -s 1k -n 10 "$tmp"
expect_words '' "$bin/lat_fs" --served=20 -s 0 -n 10 "$tmp"
# par_mem --role=top: one chain at the largest size, a part, then the
# most chains (4 where a buffer of 16 lines holds no more); its sweep,
# one figure.
expect_words 'figures=2 parts=1' "$bin/par_mem" --served=20 --role=top -M 1m
expect_words 'figures=2 parts=1' "$bin/par_mem" --served=20 --role=top \
    -M 8k -L 512
expect_words '' "$bin/par_mem" --served=20 -M 1m
# A two-process figure in both placements; one figure alone.
expect_words 'figures=2' "$bin/lat_pipe" --served=20 --placement=both
expect_words '' "$bin/lat_pipe" --served=20 --placement=cross
expect_words '' "$bin/lat_syscall" --served=20 null

# A served run of a part and a figure ends, each figure with its visits:
# the ring's record says served, with 5 visits or more, or 3 at least
# where the budget held no more (benchmp-sched's floor, on a loaded
# machine).
if have_jq; then
	expect_json '.served == true and .processes >= 3 and .value > 0' \
	    "$bin/lat_ctx" --served=0.3 --json -s 0 2
	# par_ops's chains searched in the process, then visited.
	expect_json '.served == true and .case == "integer add" and
	    .measured.chains >= 1 and .measured.chains <= 8 and
	    .value > 0' "$bin/par_ops" --served=0.3 --json integer-add
	# par_mem's largest size: one chain's median over each visit of the
	# most chains, a served figure of its visits, its role said (or,
	# were the chains no faster than one, a parallelism of 1).
	expect_json '.params.size == 1048576 and .measured.role == "top" and
	    .measured.ratio_2 == null and .measured.ratio_8 == null and
	    ((.measured.chains == 16 and .measured.ratio_16 == .value and
	    .served == true and .stat == "median of visits" and
	    .processes >= 3) or (.measured.chains == 1 and .value == 1)) and
	    (has("disagree") | not)' \
	    "$bin/par_mem" --served=0.5 --json --role=top -M 1m
	# A fresh worker set's first warmup: 10 ms served, the full 50 ms
	# across CPUs and by hand, and what BENCHMP_WARMUP says.
	expect_json '.served == true and .warmup_us == 10000' \
	    "$bin/lat_syscall" --served=0.3 --json null
	# (On one CPU a cross figure falls back to one.)
	expect_json '(.params.placement == "cross" and .warmup_us == 50000) or
	    (.params.placement == "same" and .warmup_us == 10000)' \
	    "$bin/lat_pipe" --served=0.3 --json --placement=cross
	expect_json '.params.placement == "same" and .warmup_us == 10000' \
	    "$bin/lat_pipe" --served=0.3 --json --placement=same
	expect_json '(has("served") | not) and .warmup_us == 50000' \
	    "$bin/lat_syscall" --json null
	expect_json '.served == true and .warmup_us == 20000' \
	    env BENCHMP_WARMUP=20000 "$bin/lat_syscall" --served=0.3 \
	    --json null
fi
no_children
finish
