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
# link at it), removed on every exit; SIGINT and SIGTERM exit 130 and 143
# through that cleanup.  A script with more to clean up defines
# bm_at_exit, which runs first.
bm_tmpdir() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") ||
		die "cannot create a temporary directory"
	trap 'bm_at_exit; rm -rf "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
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

# The jq definitions of a figure's identity, to put before a jq program:
# benchmp-repeat pairs the runs' figures as benchmp-compare does.  human: a
# size as 64k, 1m or 2g; private: a path in a private directory a tool or
# benchmp-run made (mkdtemp names it benchmp-NAME.XXXXXX), which differs
# from run to run and is not an input, as <tmp>/...; params: the record's
# parameters so; key: tool, case, params, parallel and placement.
# shellcheck disable=SC2016 # (jq's program: its $names are jq's)
bm_jq_key='
	def human: if type != "number" then tostring
	    elif . >= 1073741824 and . % 1073741824 == 0 then
	      "\(. / 1073741824)g"
	    elif . >= 1048576 and . % 1048576 == 0 then "\(. / 1048576)m"
	    elif . >= 1024 and . % 1024 == 0 then "\(. / 1024)k"
	    else tostring end;
	def private: if type == "string" then
	    sub("^.*/benchmp-[A-Za-z0-9_-]+\\.[A-Za-z0-9]{6}/"; "<tmp>/")
	    else . end;
	def params: (.params // {}) | map_values(private);
	def key: [.tool, .case, params, .parallel, .placement] | tojson;
'

# The jq definitions of the figure a user is shown and its flags, to put
# before a jq program: benchmp-summary prints them, benchmp-repeat asks
# whether a figure that moved was flagged.  The field that repeats: a
# record with a robust figure (the best process, see benchmp(3)) shows
# it, its interval and its flags (noisy when wide, disturbed); one
# without shows its median.  flags: the words of the summary's note
# (invalid, noisy, disturbed, bimodal, disagree, contradicts, bound,
# budget), of a record already passed through shown.
# shellcheck disable=SC2016 # (jq's program: its $names are jq's)
bm_jq_shown='
	# A figure: a finite number (jq reads NaN as null and Infinity or
	# 1e999 as the largest double, which no figure is).
	def fin: type == "number" and (isnan | not) and
	    fabs < 1.7976931348623157e308;
	def contra: [(.contradicts | arrays // [])[] | objects];
	def robust: (.robust | type) == "object" and (.robust.value | fin);
	def shown: if robust then . + {value: .robust.value,
	      ci_lo: .robust.ci_lo, ci_hi: .robust.ci_hi, ci_level: "best",
	      noisy: (.robust.causes | arrays // [] |
	        (index(["wide"]) != null) or (index(["few"]) != null)),
	      disturbed: (.robust.causes | arrays // [] |
	        index(["disturbed"]) != null)}
	    else . end;
	def flags: [if .value | fin then empty else "invalid" end,
	    if .noisy == true then "noisy" else empty end,
	    if .disturbed == true then "disturbed" else empty end,
	    if .bimodal == true and (robust | not) then "bimodal"
	    else empty end,
	    if .disagree == true then "disagree" else empty end,
	    if (contra | length) > 0 then "contradicts" else empty end,
	    if (.interference | objects | .bound_hit) == true then "bound"
	    else empty end,
	    if .budget_hit == true then "budget" else empty end];
'

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

# bm_programs DIR TOOL: set bm_bin to the directory of the programs in DIR.
# In a build tree DIR/TOOL is libtool's wrapper script, whose start costs
# tens of milliseconds of wall time: then bm_bin is DIR/.libs, with the
# library's directory exported in LD_LIBRARY_PATH, as installed.
bm_programs() {
	bm_bin=$1
	if [ -x "$1/.libs/$2" ] && [ -d "$1/../lib/.libs" ]; then
		bm_bin=$1/.libs
		LD_LIBRARY_PATH=$1/../lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		export LD_LIBRARY_PATH
	fi
}
