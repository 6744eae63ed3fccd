#!/bin/sh
# bad-input.sh: every tool refuses bad options, arguments, sizes and
# environment values (tests/data/bad-input.txt) with the status and the
# message the table gives, never with a crash, a hang or a figure.
. "$top_srcdir/tests/lib.sh"

TMPDIR=$tmp/tmpdir
mkdir "$TMPDIR"
export TMPDIR

table=$top_srcdir/tests/data/bad-input.txt
tab=$(printf '\t')
cases=0
while IFS="$tab" read -r want cmd msg; do
	case $want in
	'#'* | '') continue ;;
	esac
	cases=$((cases + 1))
	# The command's words, split on purpose; NAME=VALUE words first.
	# shellcheck disable=SC2086
	set -- $cmd
	envs=
	while [ $# -gt 0 ]; do
		case $1 in
		*=*) envs="$envs $1" ;;
		*) break ;;
		esac
		shift
	done
	tool=$1
	shift
	# shellcheck disable=SC2086
	timeout 60 env $envs "$bin/$tool" "$@" >"$tmp/out" 2>"$tmp/err" \
	    </dev/null
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "'$cmd' exited $rc, expected $want: $(head -n 2 "$tmp/err")"
	elif ! grep -qF -- "$msg" "$tmp/err"; then
		fail "'$cmd': stderr '$(head -n 2 "$tmp/err")' lacks '$msg'"
	fi
	if grep -Eq 'Sanitizer|runtime error|Segmentation|core dumped' \
	    "$tmp/err"; then
		fail "'$cmd' crashed: $(head -n 3 "$tmp/err")"
	fi
	[ ! -s "$tmp/out" ] || fail "'$cmd' printed '$(head -n 1 "$tmp/out")'"
done <"$table"
[ "$cases" -ge 100 ] || fail "only $cases cases in $table"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
no_children
echo "$me: $cases bad inputs refused" >&2
finish
