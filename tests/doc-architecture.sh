#!/bin/sh
# doc-architecture.sh: what doc/architecture.md names exists, where it says.
#
# The page promises that every file and function it names exists.  Each
# `code span` of the page is read as one of:
#   a path (has a / or a file name's extension): the file or folder is in
#     the source tree (a bare name or a path such as engine/ctx.c in a
#     table of lib/ or bin/common/ is in that folder; elsewhere anywhere
#     in the tree), or, for a build product, Makefile.am names it; a glob
#     must match a file;
#   names (identifiers, struct/enum tags, a->b.c, calls with arguments):
#     each is a word of the code: C with its comments removed, the scripts
#     and the build files without theirs, so that a stale comment keeps no
#     name alive; `struct X` and `enum X` must be defined; an ALL-CAPS
#     word may be the tail of a constant (`WARM` of BM__PHASE_WARM);
#   a long option: some program or script has it; a $variable: the
#     scripts have it;
#   anything else (shell or jq code, JSON, commands, placeholders such as
#     bin/NAME.c) is prose and not checked.
# Where the page says where a name is, the name must be in that file: a
# name in a table row is in the row's files (or a file the same cell
# names), and `name` (`path`) is in path.  And a row of the library's
# table names every environment variable its files read.  With no
# argument (make check) the script also runs on a copy of the page with
# a section of drift added, and each kind must be reported.
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir
doc=${1:-$src/doc/architecture.md}
[ -r "$doc" ] || { fail "cannot read $doc"; finish; }
code=$tmp/code
mkdir "$code"
# The separator of the fields of $tmp/spans.
us=$(printf '\037')

# The C files without their comments (strings kept), one copy each.
find "$src/lib" "$src/bin" "$src/tests" -name '*.[ch]' | while read -r f; do
	rel=${f#"$src"/}
	mkdir -p "$code/${rel%/*}"
	awk '{
		out = ""; n = length($0); i = 1
		while (i <= n) {
			c = substr($0, i, 1); d = substr($0, i, 2)
			if (incom) {
				if (d == "*/") { incom = 0; i += 2 } else i++
				continue
			}
			if (q != "") {
				out = out c
				if (c == "\\") { out = out substr($0, i + 1, 1); i++ }
				else if (c == q) q = ""
				i++
				continue
			}
			if (d == "/*") { incom = 1; out = out " "; i += 2; continue }
			if (d == "//") break
			if (c == "\"" || c == "\047") q = c
			out = out c
			i++
		}
		q = ""
		print out
	}' "$f" >"$code/$rel"
done
# The scripts and the build files without their comment lines.
for f in "$src"/scripts/* "$src"/scripts/bench/* "$src"/tests/*.sh \
    "$src/Makefile.am" "$src/configure.ac"; do
	[ -f "$f" ] || continue
	rel=${f#"$src"/}
	case $rel in */*) mkdir -p "$code/${rel%/*}" ;; esac
	grep -Ev '^[[:space:]]*(#|dnl[[:space:]])' "$f" >"$code/$rel"
done
# Every word of the code, once a line.
find "$code" -type f -exec cat {} + | tr -cs 'A-Za-z0-9_' '\n' | sort -u \
    >"$tmp/words"

# The extensions that make a name a file's.
exts='c|h|md|sh|am|ac|in|la|pc|json|jsonl|png|svg|txt|html|[1-8]'
# Placeholders that stand for any name: bin/NAME.c, RESULTS/HOST/...
placeholder='(^|/)(NAME|HOST|TIMESTAMP|RESULTS|PATH|PORT|ENDPOINT|DIR)(\.|/|$)'

# The page's code spans, one a line: UNIT, KIND, BASE, FILES, SPAN, NEXT
# and CLASS, separated by the unit separator (\037: a field may be
# empty), where a unit is a paragraph or a table row, KIND "row" for the
# job cell of a table row (FILES: the spans of its first cell, BASE the
# folder of its table) and "text" otherwise, NEXT the span that follows
# this one after nothing but " (", if any, and CLASS what the span is.
awk '
function flush(   i, m, parts, cell, files, nc) {
	if (buf == "")
		return
	unit++
	if (isrow) {
		nc = split(buf, cell, "|")
		files = ""
		m = split(cell[2], parts, "`")
		for (i = 2; i <= m; i += 2)
			files = files (files == "" ? "" : " ") parts[i]
		if (cell[2] ~ /^ *-+ *$/ || tablehead) {
			tablehead = 0
			spans(buf, "text", "")
		} else {
			spans(cell[2], "text", "")
			spans(cell[3], "row", files)
			for (i = 4; i < nc; i++)
				spans(cell[i], "text", "")
		}
	} else
		spans(buf, "text", "")
	buf = ""
}
function spans(s, kind, files,   m, parts, i, next1, t) {
	m = split(s, parts, "`")
	for (i = 2; i <= m; i += 2) {
		next1 = (i + 2 <= m && parts[i + 1] ~ /^ *\($/) ? parts[i + 2] : ""
		t = parts[i]
		sub(/^ +/, "", t)
		sub(/ +$/, "", t)
		gsub(/->/, ".", t)
		printf "%d\037%s\037%s\037%s\037%s\037%s\037%s\n", unit, kind,
		    base, files, t, next1, class(t)
		if (!isrow && t ~ /\/$/)
			lastdir = t
	}
}
# What a span is: opt, var, call, path, tag, names, or prose (not checked).
function class(t) {
	if (t ~ /^--[a-z]/)
		return "opt"
	if (t ~ /^\$[a-z_]/)
		return "var"
	if (t ~ /^[A-Za-z_][A-Za-z0-9_]*\([][A-Za-z0-9_&.,* -]*\)$/)
		return "call"
	# Options, commands with options, code, specs, JSON, long prose.
	if (t == "" || t ~ /^-/ || t ~ / -/ || t ~ /[;{"\047=|$<>%:]/ ||
	    t ~ /( .*){4}/)
		return "prose"
	if (t ~ /^[A-Za-z0-9_.*\/-]+$/ && (t ~ /\// || t ~ exts))
		return t ~ placeholder ? "prose" : "path"
	if (t ~ /^(struct|enum) [A-Za-z_][A-Za-z0-9_]*$/)
		return "tag"
	if (t ~ /^[A-Za-z_][A-Za-z0-9_.*&, ()[-]*[])]?$/)
		return "names"
	return "prose"
}
/^\|/ {
	if (!isrow) {
		flush()
		tablehead = 1
		base = lastdir
		isrow = 1
	}
	buf = $0
	flush()
	next
}
{
	if (isrow) {
		isrow = 0
		base = ""
		lastdir = ""
	}
}
/^[[:space:]]*$/ { flush(); next }
/^#/ { flush(); lastdir = ""; next }
{ buf = buf (buf == "" ? "" : " ") $0 }
END { flush() }
' exts="^[^.].*\\.($exts)\$" placeholder="$placeholder" "$doc" >"$tmp/spans"
[ -s "$tmp/spans" ] || fail "no code span found in $doc"

# is_word W: W is a word of the code (or an ALL-CAPS tail of one).
is_word() {
	grep -qx -- "$1" "$tmp/words" && return 0
	case $1 in
	*[!A-Z0-9_]* | ?) return 1 ;;
	esac
	grep -q -- "_$1\$" "$tmp/words"
}

# in_files WORD FILE...: WORD is a word of one of the files' code.
in_files() {
	w=$1
	shift
	for f in "$@"; do
		[ -f "$code/$f" ] && grep -qw -- "$w" "$code/$f" && return 0
	done
	return 1
}

# where NAME BASE: the paths (from the top of the tree) of the file or
# glob NAME, a bare name looked up in BASE or else anywhere, a path in
# BASE or else from the top; none: empty.
where() {
	case $1 in
	/*) return ;;
	*/*)
		# A path below the table's folder (engine/ctx.c in lib/), else
		# from the top of the tree.
		if [ -n "$2" ]; then
			found=
			for p in "$src/$2"$1; do
				[ -e "$p" ] && echo "${p#"$src"/}" && found=1
			done
			[ -z "$found" ] || return
		fi
		set -- "$1" ""
		;;
	esac
	if [ -n "$2" ]; then
		for p in "$src/$2"$1; do
			[ -e "$p" ] && echo "${p#"$src"/}"
		done
		return
	fi
	case $1 in
	*/*)
		for p in "$src"/$1; do
			[ -e "$p" ] && echo "${p#"$src"/}"
		done
		;;
	*)
		find "$src/lib" "$src/bin" "$src/tests" "$src/scripts" \
		    "$src/doc" "$src/.ci" -name "$1" 2>/dev/null |
		    sed "s|^$src/||"
		for p in "$src"/$1; do
			[ -e "$p" ] && echo "${p#"$src"/}"
		done
		;;
	esac
}


# check_names: each name of the span $s is a word of the code, in the
# files of its row ($kind row), and in the file it is said to be in ($next).
check_names() {
	# The files of the row and those its cell names, once a row.
	if [ "$kind" = row ] && [ -n "$files" ] && [ "$unit" != "$rowunit" ]; then
		rowunit=$unit
		rowpaths=
		for f in $files $(awk -F "$us" -v u="$unit" \
		    '$1 == u { print $2 }' "$tmp/rowspans" |
		    grep -E '\.[ch]$'); do
			rowpaths="$rowpaths $(where "$f" "$base")"
		done
	fi
	for w in $(printf '%s' "$s" | tr -cs 'A-Za-z0-9_*' ' '); do
		case $w in
		[0-9]* | '*') continue ;;
		*'*' | *_)
			# A family (bm_region_*, tool_): some word starts so.
			w=${w%%\**}
			grep -q -- "^$w." "$tmp/words" ||
				fail "$doc: no name starts with '$w' in the code"
			continue
			;;
		_*)
			# A tail (_bandwidth of bm_record_bandwidth).
			grep -q -- "[A-Za-z0-9]$w\$" "$tmp/words" ||
				fail "$doc: no name ends with '$w' in the code"
			continue
			;;
		esac
		nnames=$((nnames + 1))
		if ! is_word "$w"; then
			fail "$doc: '$w' (in '$s') is not in the code"
			continue
		fi
		# The row's files, or a file the cell names, have it.
		if [ "$kind" = row ] && [ -n "$files" ]; then
			# shellcheck disable=SC2086
			in_files "$w" $rowpaths ||
				fail "$doc: '$w' is not in $files (its row)"
		fi
	done
	# `name` (`path`): the name is in that file.
	case $next in
	*/*.[ch] | *.[ch])
		paths=$(where "$next" "$base")
		n=${s%%(*}
		n=${n#struct }
		n=${n#enum }
		# shellcheck disable=SC2086
		[ -z "$paths" ] || in_files "$n" $paths ||
			fail "$doc: '$n' is not in $next, which it says"
		;;
	esac
}

# The spans of the job cells, UNIT and SPAN, to look up from the loop.
awk -F "$us" '$2 == "row" { print $1 FS $5 }' "$tmp/spans" >"$tmp/rowspans"
nfiles=0
nnames=0
rowunit=
while IFS=$us read -r unit kind base files s next class; do
	case $class in
	opt)
		# A long option: some program or script has it.
		o=${s%%[= ]*}
		nnames=$((nnames + 1))
		grep -rqF -- "${o#--}" "$code" ||
			fail "$doc: no program has the option '$o'"
		;;
	var)
		# A shell variable of the scripts.
		v=${s#?}
		v=${v%%/*}
		nnames=$((nnames + 1))
		is_word "$v" || fail "$doc: no variable '$v' in the scripts"
		;;
	call)
		# A call with its arguments: the function exists.
		nnames=$((nnames + 1))
		is_word "${s%%(*}" ||
			fail "$doc: no function '${s%%(*}' in the code"
		;;
	path)
		# A name in a table is in the table's folder (a path with a
		# folder may be from the top of the tree instead).
		nfiles=$((nfiles + 1))
		b=$base
		if [ -z "$(where "$s" "$b")" ]; then
			# A build product is named by Makefile.am.
			grep -qF -- "$s" "$src/Makefile.am" ||
				fail "$doc: '$s' does not exist${b:+ in $b}"
		fi
		;;
	tag)
		# struct and enum tags must be defined.
		nnames=$((nnames + 1))
		find "$code" -name '*.[ch]' -exec grep -Eq -- \
		    "${s%% *}[[:space:]]+${s#* }[[:space:]]*\\{" {} + ||
			fail "$doc: '$s' is not defined"
		;;
	names)
		check_names
		;;
	esac
done <"$tmp/spans"
[ "$nfiles" -ge 20 ] && [ "$nnames" -ge 100 ] ||
	fail "$doc: only $nfiles paths and $nnames names checked"

# The library's table names every environment variable its files read.
awk -F "$us" '$2 == "row" && $3 == "lib/" { print $1 FS $4 }' \
    "$tmp/spans" | sort -u | while IFS=$us read -r unit files; do
	for f in $files; do
		for p in $(where "$f" lib/); do
			grep -Eo '"(BENCHMP_[A-Z0-9_]+|LMBENCH_[A-Z0-9_]+|ENOUGH|TIMING_O|LOOP_O)"' \
			    "$code/$p" | tr -d '"'
		done
	done | sort -u | while read -r v; do
		awk -F "$us" -v u="$unit" -v v="$v" \
		    '$1 == u && $5 == v { found = 1 } END { exit !found }' \
		    "$tmp/spans" ||
			echo "FAIL: $me: $doc: the row of $files does not name $v, which they read" >&2
	done
done 2>"$tmp/envfail"
if [ -s "$tmp/envfail" ]; then
	cat "$tmp/envfail" >&2
	failures=$((failures + $(wc -l <"$tmp/envfail")))
fi

# The page's paragraphs, one a line (for claims that span lines).
awk 'BEGIN { RS = "" } { gsub(/\n[[:space:]]*/, " "); print }' "$doc" \
    >"$tmp/paras"
# The backquotes in the patterns below are markdown's code spans.

# "at most N lines": the page is no longer, and N is at most 200.
grep -o 'this page has at most [0-9]* lines' "$tmp/paras" |
    awk '{ print $6 }' >"$tmp/limits"
while read -r n; do
	[ "$n" -le 200 ] || fail "$doc: a limit of $n lines is over 200"
	[ "$(wc -l <"$doc")" -le "$n" ] ||
		fail "$doc: more than $n lines ($(wc -l <"$doc"))"
done <"$tmp/limits"

# The length of each program's main(), from "int" to the closing brace.
for f in "$src"/bin/*.c; do
	awk -v f="${f##*/}" '/^main\(/ { s = NR - 1 }
	    s && /^}/ { print NR - s + 1, f; exit }' "$f"
done | sort -n >"$tmp/mains"
# "no program's `main` ... longer than N lines": none is; the two files
# the page names as the longest are the longest two.
# shellcheck disable=SC2016 # markdown's backquotes
grep -o 'main` in `bin/` is longer than [0-9]* lines' "$tmp/paras" |
    awk '{ print $7 }' >"$tmp/limits"
max=$(tail -n 1 "$tmp/mains")
while read -r n; do
	[ "${max%% *}" -le "$n" ] ||
		fail "$doc: the main of ${max#* } has ${max%% *} lines, over $n"
done <"$tmp/limits"
# shellcheck disable=SC2016 # markdown's backquotes
longest=$(grep -o '`[a-z_]*\.c`.s and `[a-z_]*\.c`.s are the longest' \
    "$tmp/paras" | tr -c 'a-z_.\n' ' ' | awk '{ print $1; print $4 }' |
    sort | tr '\n' ' ')
if [ -n "$longest" ]; then
	top2=$(tail -n 2 "$tmp/mains" | awk '{ print $2 }' | sort | tr '\n' ' ')
	[ "$longest" = "$top2" ] ||
		fail "$doc: the longest mains are $top2, not $longest"
fi

# `NAME` = VALUE: the code defines NAME as VALUE (an integer suffix or
# parentheses aside).
# shellcheck disable=SC2016 # markdown's backquotes
grep -o '`[A-Z][A-Z0-9_]*` = [0-9][0-9]*' "$tmp/paras" | tr -d '`' |
    sort -u >"$tmp/defs"
while read -r name _ value; do
	got=$(find "$code" -name '*.[ch]' -exec grep -h -E \
	    "^[[:space:]]*#[[:space:]]*define[[:space:]]+${name}[[:space:]]" \
	    {} + | head -n 1 | awk '{ $1 = ""; $2 = ""; print }' |
	    tr -d ' ()' | sed 's/[uUlL]*$//')
	[ "$got" = "$value" ] ||
		fail "$doc: $name is '${got:-not defined}' in the code, not $value"
done <"$tmp/defs"

# "benchmp-run's `main` calls, in order, ...": the calls of its main().
calls=$(sed -n '/^main() {/,/^}/p' "$src/scripts/benchmp-run" |
    awk 'NR > 1 && $1 ~ /^[a-z_]+$/ && $0 !~ /=/ { print $1 }' |
    tr '\n' ',' | sed 's/,$//')
grep -o "benchmp-run's \`main\` calls, in order, [^.]*" "$tmp/paras" |
    sed 's/^[^,]*, in order, //; s/ and /, /' | tr -cd 'a-z_,\n' \
    >"$tmp/orders"
while read -r said; do
	[ "$said" = "$calls" ] ||
		fail "$doc: benchmp-run's main calls $calls, not $said"
done <"$tmp/orders"

# "`.shellcheckrc` disables SC2015 alone".
# shellcheck disable=SC2016 # markdown's backquotes
if grep -q 'shellcheckrc` disables SC2015 alone' "$tmp/paras"; then
	[ "$(grep -E '^disable=' "$src/.shellcheckrc" | tr '\n' ' ')" = \
	    'disable=SC2015 ' ] ||
		fail "$doc: .shellcheckrc disables more than SC2015"
fi

# "`lat_pipe.c` is `CALL`": the program's file holds that call.
# shellcheck disable=SC2016 # markdown's backquotes
grep -o '`[a-z_]*\.c` is `[^`]*`' "$tmp/paras" | tr '`' ' ' |
    sed 's/ is /|/; s/^ *//; s/ *$//; s/ *| */|/' >"$tmp/onecall"
while IFS='|' read -r f c; do
	grep -qF -- "$c" "$src/bin/$f" || fail "$doc: bin/$f has no $c"
done <"$tmp/onecall"

# The checker itself, on a copy of the page with a section of drift: each
# kind is reported (names built here, so that this file has none of them).
if [ $# -eq 0 ]; then
	x=zz_gone_$$
	cp "$doc" "$tmp/drift.md"
	cat >>"$tmp/drift.md" <<EOF

## Drift

A table of \`lib/\`:

| files | job |
|---|---|
| \`engine/calibrate.c\` | \`bm_run\`, \`${x}_fn\` |
| \`engine/ctx.c\` | \`bm_ctx_new\` |

\`tool_parse\` (\`lib/stats/stats.c\`), \`lib/$x.c\`, \`struct ${x}_opts\`, \`--$x\`.

\`TOOL_MAX_PER_CPU\` = 65.  benchmp-run's \`main\` calls, in order,
\`summarise\` and \`parse_options\`.  No program's \`main\` in \`bin/\` is
longer than 20 lines.  \`lat_pipe.c\` is \`net_main(argc)\`.
EOF
	i=0
	while [ "$i" -lt 200 ]; do echo; i=$((i + 1)); done >>"$tmp/drift.md"
	echo 'Checked: this page has at most 200 lines.' >>"$tmp/drift.md"
	run sh "$0" "$tmp/drift.md"
	[ "$rc" -eq 1 ] || fail "the checker exited $rc on a page with drift"
	for want in "'bm_run' is not in engine/calibrate.c" \
	    "'${x}_fn' (in '${x}_fn') is not in the code" \
	    "the row of engine/ctx.c does not name ENOUGH" \
	    "'tool_parse' is not in lib/stats/stats.c" \
	    "'lib/$x.c' does not exist" "'struct ${x}_opts' is not defined" \
	    "no program has the option '--$x'" \
	    "TOOL_MAX_PER_CPU is '64' in the code, not 65" \
	    "benchmp-run's main calls parse_options," \
	    "lines, over 20" "more than 200 lines" \
	    "bin/lat_pipe.c has no net_main(argc)"; do
		grep -qF -- "$want" "$tmp/err" ||
			fail "the checker did not report: $want"
	done
fi

finish
