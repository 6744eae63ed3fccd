# benchmp-lib.sh: what benchmp's scripts share (sourced, POSIX sh): the
# version, usage errors, option values and number checks, private
# temporary directories, jq, the locale and the tools of a build.
# The variables it sets (bm_val, bm_tool, ...) are read by the scripts and
# $prog is theirs, which shellcheck cannot tell when it reads this alone.
# shellcheck shell=sh disable=SC2034,SC2154
#
# A script sets $prog, defines usage() and sources this file, found beside
# the script (scripts/ of the source tree, bin/ of a build, where make
# writes a copy with the version in it) or, installed, in the pkgdatadir
# configure chose (make writes that directory into the installed scripts).
# usage_error and die keep the short names every script has always used;
# everything else is bm_.

# The directory of the script that sources this file.
# (Not dirname(1): a script must start with a PATH that lacks it, to say
# that jq is missing.)
case $0 in */*) bm_here=${0%/*} ;; *) bm_here=. ;; esac
# make bench's scripts (scripts/bench/, beside bench-lib.sh) are one folder
# below the commands: they find the version and the build from there.
[ ! -f "$bm_here/bench-lib.sh" ] || bm_here=$bm_here/..

# The version is configure's: make writes it into the copy it installs;
# from the source tree it is read from configure.ac.
version='@PACKAGE_VERSION@'
case $version in
@*) version=$(sed -n 's/^AC_INIT(\[benchmp\], \[\([^]]*\)\].*/\1/p' \
    "$bm_here/../configure.ac" 2>/dev/null) ;;
esac
[ -n "$version" ] || version=unknown

# Numbers read and printed the same in every locale: a decimal comma would
# change what awk, printf, sort and jq make of them.  C.UTF-8 where there is
# one, so that names in UTF-8 stay printable; LOCPATH cannot swap it.
bm_c_locale() {
	unset LOCPATH
	export LC_ALL=C.UTF-8
	[ "$(locale charmap 2>/dev/null)" = UTF-8 ] || LC_ALL=C
}

# Print the synopsis after a usage error: the first paragraph of usage()
# on one line.  A script that shows a shorter line defines its own
# usage_line after sourcing this file.
usage_line() {
	usage | sed -n '1,/^$/p' | tr -s ' \n' ' ' | sed 's/ $//'
	echo
}

# Complain about the command line and exit 2.
usage_error() {
	echo "$prog: $1" >&2
	usage_line >&2
	exit 2
}

# Print a message to stderr and exit 1.
die() {
	echo "$prog: $1" >&2
	exit 1
}

# -h, --help: print the usage text and exit 0 (1 when it cannot be written).
bm_help() {
	usage 2>/dev/null || bm_write_failed
	exit 0
}

# -V, --version: print the version and exit 0 (1 when it cannot be written).
bm_version() {
	echo "$prog (benchmp) $version" 2>/dev/null || bm_write_failed
	exit 0
}

# Say that standard output cannot be written and exit 1 (whatever a
# script's die exits with).
bm_write_failed() {
	echo "$prog: writing to standard output failed" >&2
	exit 1
}

# bm_option ARG: what every script's option loop ends with, for an ARG
# that none of its own options matched: -h, --help and -V, --version print
# and exit, any other option is a usage error, and an operand returns
# (the loop stops there).
bm_option() {
	case $1 in
	-h | --help) bm_help ;;
	-V | --version) bm_version ;;
	-?*) usage_error "unknown option '$1'" ;;
	esac
}

# bm_no_operand ARG: the same for a script that takes no operands: an ARG
# other than -h, --help, -V or --version is a usage error.
bm_no_operand() {
	case $1 in
	-h | --help | -V | --version) bm_option "$1" ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
}

# bm_optval "$@": the value of the option in $1 into bm_val, from
# "--opt=VALUE" (bm_more=0) or "--opt VALUE" (bm_more=1: the caller shifts
# the value off too); "--opt" with nothing after it is a usage error.
bm_optval() {
	case $1 in
	--*=*)
		bm_val=${1#*=}
		bm_more=0
		;;
	*)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		bm_val=$2
		bm_more=1
		;;
	esac
}

# bm_in_range N LO HI: succeed when N is a whole number (decimal digits,
# at most nine of them, so that test(1) cannot overflow) from LO to HI.
bm_in_range() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ "${#1}" -le 9 ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# bm_decimal_in N LO HI: succeed when N is a plain decimal number (digits
# and at most one point: no sign, exponent or blank) from LO to HI.
bm_decimal_in() {
	case $1 in '' | . | *[!0-9.]* | *.*.*) return 1 ;; esac
	awk -v t="$1" -v lo="$2" -v hi="$3" \
	    'BEGIN { exit !(t + 0 >= lo + 0 && t + 0 <= hi + 0) }'
}

# bm_tmpdir NAME: make $tmp, a private directory NAME.XXXXXX under $TMPDIR
# (mode 700, a name that mktemp makes up: nobody can guess it or plant a
# link at it), removed on every exit; SIGINT, SIGTERM, SIGHUP and SIGPIPE
# exit 130, 143, 129 and 141 through that cleanup (a terminal closed, or
# a reader gone from a pipe, leaves nothing behind).  A script with more
# to clean up defines bm_at_exit, which runs first.
bm_tmpdir() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") ||
		die "cannot create a temporary directory"
	bm_part=
	trap 'bm_at_exit; bm_part_drop; rm -rf "$tmp"' EXIT
	bm_traps
}

# bm_traps: SIGINT, SIGTERM, SIGHUP and SIGPIPE exit 130, 143, 129 and
# 141 (through the EXIT trap, where there is one).
bm_traps() {
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	trap 'exit 141' PIPE
}

# bm_part_drop: remove the copy bm_out_put is writing, if there is one.
bm_part_drop() {
	[ -z "${bm_part:-}" ] || rm -f -- "$bm_part"
	bm_part=
}

# bm_wait_passing PID [SIG [group]]: wait for the background process PID
# to end, passing on at once a SIGINT, SIGTERM or SIGHUP this script gets
# (as SIG where given; with "group", to the process group of its own that
# setsid(1) gave PID, and to PID if it has none yet): a trap runs
# only after a foreground command ends, and a trapped signal ends a wait,
# not PID, which is waited for again.  Its status goes to bm_wp_rc;
# bm_wp_sig is 130, 143 or 129 when a signal came, else empty.  The traps
# are bm_traps' again after.  A child of a script ignores SIGINT (no job
# control): a script in the background is sent SIGTERM for it.
bm_wait_passing() {
	bm_wp_pid=$1
	bm_wp_as=${2:-}
	bm_wp_to=$1
	[ "${3:-}" != group ] || bm_wp_to=-$1
	bm_wp_sig=
	trap 'bm_wp_sig=130; bm_wp_pass INT' INT
	trap 'bm_wp_sig=143; bm_wp_pass TERM' TERM
	trap 'bm_wp_sig=129; bm_wp_pass HUP' HUP
	while :; do
		bm_wp_rc=0
		wait "$bm_wp_pid" || bm_wp_rc=$?
		kill -0 "$bm_wp_pid" 2>/dev/null || break
	done
	bm_traps
}

# bm_wp_pass SIG: pass SIG (or bm_wait_passing's SIG) on to what it waits for.
bm_wp_pass() {
	kill -s "${bm_wp_as:-$1}" -- "$bm_wp_to" 2>/dev/null ||
		kill -s "${bm_wp_as:-$1}" "$bm_wp_pid" 2>/dev/null
}

# What a script adds to the cleanup of bm_tmpdir: nothing by default.
bm_at_exit() {
	:
}

# Exit 1 with what to install unless jq is here, and 1.6 or newer (the
# scripts' programs use its IN and INDEX).
bm_need_jq() {
	command -v jq >/dev/null 2>&1 ||
		die "jq not found: install the Debian package jq (apt-get install jq)"
	bm_jqv=$(jq --version 2>/dev/null)
	case ${bm_jqv#jq-} in
	1.[0-5] | 1.[0-5].* | 1.[0-5][!0-9]*)
		die "$bm_jqv is too old: jq 1.6 or newer is needed (Debian package jq)" ;;
	esac
}

# bm_find_tool NAME: set bm_tool to the benchmp tool NAME built beside this
# script (bin/ of a build or of an installed copy) or in the build of the
# source tree it is in (build/bin, or bin/ of a tree configured in place);
# 1 when there is none.
bm_find_tool() {
	for bm_d in "$bm_here" "$bm_here/../build/bin" "$bm_here/../bin"; do
		if [ -f "$bm_d/$1" ] && [ -x "$bm_d/$1" ]; then
			bm_tool=$bm_d/$1
			return 0
		fi
	done
	return 1
}

# bm_locate NAME: print where the program NAME of this build is: in bm_bin
# when a script set that, else where bm_find_tool finds a tool, else on
# PATH; 1 when there is none.
bm_locate() {
	if [ -n "${bm_bin:-}" ] && [ -x "$bm_bin/$1" ]; then
		echo "$bm_bin/$1"
	elif bm_find_tool "$1"; then
		echo "$bm_tool"
	else
		command -v "$1"
	fi
}

# bm_stats ARG...: run benchmp-stats with ARGs (found by bm_locate): every
# median, percentile and interval a script shows is the library's,
# computed there, never in awk or jq; exit 1 when there is none.
bm_stats() {
	[ -n "${bm_stats_tool:-}" ] || bm_stats_tool=$(bm_locate benchmp-stats) ||
		die "benchmp-stats not found: it computes the statistics"
	"$bm_stats_tool" "$@"
}

# bm_benchmp ARG...: run benchmp with ARGs (found by bm_locate): the
# run-to-run spread of runs and its verdicts are benchmp spread's, never
# a script's; exit 1 when there is none.
bm_benchmp() {
	[ -n "${bm_benchmp_tool:-}" ] || bm_benchmp_tool=$(bm_locate benchmp) ||
		die "benchmp not found (built beside this script, or on PATH): it judges the runs"
	"$bm_benchmp_tool" "$@"
}

# bm_programs DIR TOOL: set bm_bin to the directory of the programs in DIR.
# In a build tree without static libraries (configure --disable-static)
# DIR/TOOL is libtool's wrapper script, whose start costs tens of
# milliseconds of wall time: then bm_bin is DIR/.libs, with the library's
# directory exported in LD_LIBRARY_PATH, as installed.  (Otherwise the
# tools link libbenchmp in, and DIR holds the programs themselves.)
bm_programs() {
	bm_bin=$1
	if [ -x "$1/.libs/$2" ] && [ -d "$1/../lib/.libs" ]; then
		bm_bin=$1/.libs
		LD_LIBRARY_PATH=$1/../lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		export LD_LIBRARY_PATH
	fi
}

# What a script reads of one input file at most, and of one line of it:
# a results file of a whole run is a few MB, a record a few KB.  A file
# beyond these (/dev/zero, a log, a core) is refused before jq or awk
# read it: jq holds what it reads in memory (it grew to 1 GB in seconds
# on /dev/zero) and awk reads a line whole.
bm_max_bytes=67108864
bm_max_line=1048576

# bm_bounded FILE COPY: copy FILE (a regular file, a FIFO, a device: it
# is read once) to COPY, reading no more than bm_max_bytes and a byte of
# it; exit 1 naming FILE when it cannot be read, is larger than that or
# holds a line longer than bm_max_line.
bm_bounded() {
	[ ! -d "$1" ] || die "cannot read $1: it is a directory"
	head -c "$((bm_max_bytes + 1))" -- "$1" >"$2" 2>"$tmp/bm_err" ||
		die "cannot read $1: $(sed -n '1s/^head: //p' "$tmp/bm_err")"
	[ "$(wc -c <"$2")" -le "$bm_max_bytes" ] ||
		die "$1: larger than $((bm_max_bytes / 1048576)) MB: refused (no results file is)"
	bm_n=$(LC_ALL=C awk -v m="$bm_max_line" 'length($0) > m { print NR; exit }' <"$2")
	[ -z "$bm_n" ] ||
		die "$1: line $bm_n is longer than $((bm_max_line / 1048576)) MB: refused (no record is)"
}

# The jq definitions of a record's shape, to put before a jq program.
# odd: what is wrong with a record (an object with a "tool"), as text
# ("params is an array, not an object"), or null: each member benchmp's
# tools and scripts write, and those of its suite, robust and
# interference members, has the type they write it with, or is null; a
# parameter is a string, number or boolean.  Members it does not know
# are not looked at.
# shellcheck disable=SC2016 # (jq's program: its $names are jq's)
bm_jq_odd='
	def bm_a: {object: "an object", array: "an array",
	    string: "a string", number: "a number", boolean: "a boolean",
	    null: "null"}[.];
	def bm_is($k; $a): (.[$k] | type) as $y |
	    if $y == "null" or $y == $a then empty
	    else "\($k) is \($y | bm_a), not \($a | bm_a)" end;
	def bm_is($k; $a; $b): (.[$k] | type) as $y |
	    if $y == "null" or $y == $a or $y == $b then empty
	    else "\($k) is \($y | bm_a), not \($a | bm_a) or \($b | bm_a)" end;
	def bm_is($k; $a; $b; $c): (.[$k] | type) as $y |
	    if $y == "null" or $y == $a or $y == $b or $y == $c then empty
	    else "\($k) is \($y | bm_a), not \($a | bm_a), \($b | bm_a) or \($c | bm_a)" end;
	def odd: if type != "object" or .tool == null then null else first(
	    bm_is("tool"; "string"), bm_is("case"; "string"; "number"),
	    (("metric", "unit", "better", "host", "timestamp", "version",
	      "placement") as $k | bm_is($k; "string")),
	    bm_is("imported"; "string"; "boolean"),
	    bm_is("value"; "number"; "string"),
	    bm_is("ci_level"; "number"; "string"),
	    (("parallel", "rank", "samples", "processes", "repetitions",
	      "median", "min", "max", "mean", "stddev", "cv", "ci_lo",
	      "ci_hi", "ci_floor", "ci_stat_lo", "ci_stat_hi", "ops_per_s",
	      "cycles_per_op", "cycle_ns_per_op", "wall_s", "warmup_us",
	      "enough_us", "overhead_share") as $k | bm_is($k; "number")),
	    (("noisy", "bimodal", "disagree", "budget_hit", "aggregate",
	      "overhead_flagged") as $k |
	      bm_is($k; "boolean")),
	    (("params", "suite", "robust", "interference", "calibration",
	      "within", "measured", "timer", "sources") as $k |
	      bm_is($k; "object")),
	    (("modes", "contradicts", "values", "process_values",
	      "process_samples", "answers") as $k | bm_is($k; "array")),
	    (.suite | objects | (bm_is("group"; "string"),
	      bm_is("figure"; "string"), bm_is("role"; "string"),
	      bm_is("batch"; "number"), bm_is("passes"; "number"),
	      bm_is("curve"; "boolean")) | "suite." + .),
	    (.robust | objects | (bm_is("value"; "number"),
	      bm_is("ci_lo"; "number"), bm_is("ci_hi"; "number"),
	      bm_is("noisy"; "boolean"), bm_is("stat"; "string"),
	      bm_is("causes"; "array")) | "robust." + .),
	    (.interference | objects | (bm_is("accounted"; "boolean"),
	      bm_is("disturbed"; "number"), bm_is("intervals"; "number"),
	      bm_is("bound_hit"; "boolean"), bm_is("discarded"; "number")) |
	      "interference." + .),
	    (.params | objects | keys_unsorted[] as $k |
	      bm_is($k; "string"; "number"; "boolean") | "params." + .),
	    null) end;
'

# bm_records FILE COPY: the records of FILE, JSON Lines, in COPY (one
# compact JSON object a line; blank lines and values that are not
# objects, which no script reads, left out), read within the bounds of
# bm_bounded; exit 1 naming FILE and the line of the first that is not
# JSON or is a record of an odd shape (see odd above).  (jq 1.6 cannot
# stop at a line: its halt_error goes on, or aborts, under -R.  A bad
# line is written as "!" and the reason, which no JSON text begins with.)
bm_records() {
	bm_bounded "$1" "$tmp/bm_lines"
	# (jq counts a last line without its newline as line 0.)
	echo >>"$tmp/bm_lines" || die "cannot write in $tmp"
	jq -R -r "$bm_jq_odd"'input_line_number as $n |
	    if test("^[ \t\r]*$") then empty else
	    (try [fromjson] catch (tostring |
	      sub(" \\(while parsing .*"; "") |
	      sub(" at line 1, column "; " at column "))) |
	    if type == "string" then "!records that are not JSON: line \($n) (\(.))"
	    else .[0] | objects | odd as $why |
	      if $why == null then tojson
	      else "!line \($n): \($why)" end end end' \
	    <"$tmp/bm_lines" >"$2" 2>"$tmp/bm_err" ||
		die "$1: cannot read it: $(head -n 1 "$tmp/bm_err")"
	bm_why=$(grep -m 1 '^!' "$2")
	[ -z "$bm_why" ] || die "$1: ${bm_why#!}"
}

# bm_out_check FILE: before anything is drawn or run, make sure that FILE
# (a report, a chart) can be written, and set bm_through to how: 0 when
# it is written beside FILE and renamed over it (FILE is missing, a
# regular file or a link, which is replaced, never written through), in
# a directory that must be writable; 1 when it is written through (a
# character device such as /dev/null or /dev/stdout, or a FIFO: renaming
# over those would replace the node, and as root /dev/null itself).
# Anything else (a directory, a block device, a socket) exits 1.
bm_out_check() {
	bm_through=0
	if [ -c "$1" ] || [ -p "$1" ]; then
		bm_through=1
		return 0
	fi
	[ ! -e "$1" ] || [ -f "$1" ] ||
		die "cannot write $1: not a regular file, a character device or a FIFO"
	bm_d=$(dirname -- "$1")
	[ -d "$bm_d" ] && [ -w "$bm_d" ] ||
		die "cannot write $1: $bm_d is not a writable directory"
}

# bm_out_put SRC FILE: write the file SRC to FILE whole, as bm_out_check
# said, or exit 1 naming FILE and leave it as it was.  Renamed into place,
# the copy is first written beside FILE under a name mktemp makes up
# (created exclusively: a link planted there is never followed), with the
# mode a new file gets: never half a file at FILE.
bm_out_put() {
	bm_out_check "$2"
	if [ "$bm_through" = 1 ]; then
		{ cat -- "$1" >"$2"; } 2>"$tmp/bm_err" ||
			die "cannot write $2: $(sed -n '1{s/^cat: //;s/^.*: cannot create [^:]*: //;p;}' "$tmp/bm_err")"
		return 0
	fi
	bm_d=$(dirname -- "$2")
	case $bm_d in -*) bm_d=./$bm_d ;; esac
	bm_part=
	: >"$tmp/bm_err"
	# A signal before the rename removes the copy: bm_tmpdir's EXIT trap
	# does, and these traps where the caller runs this in a subshell,
	# which has no EXIT trap of its own.
	trap 'bm_part_drop; exit 130' INT
	trap 'bm_part_drop; exit 143' TERM
	trap 'bm_part_drop; exit 129' HUP
	trap 'bm_part_drop; exit 141' PIPE
	if ! bm_part=$(mktemp "$bm_d/.$prog.XXXXXX" 2>"$tmp/bm_err") ||
	    ! chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$bm_part" ||
	    ! cat -- "$1" >"$bm_part" 2>"$tmp/bm_err" ||
	    [ -d "$2" ] || ! mv -f -- "$bm_part" "$2" 2>"$tmp/bm_err"; then
		bm_part_drop
		bm_why=$(sed -n '1s/^[a-z]*: //p' "$tmp/bm_err")
		die "cannot write $2${bm_why:+: $bm_why}"
	fi
	bm_part=
	bm_traps
}

# bm_print FILE: copy FILE to standard output, or exit 1 saying that it
# cannot be written (a full disk, /dev/full, a closed pipe).
bm_print() {
	cat -- "$1" 2>/dev/null || bm_write_failed
}
