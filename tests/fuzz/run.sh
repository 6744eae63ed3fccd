#!/bin/sh
# run.sh: run each libFuzzer target for a while over a copy of its seed corpus (make fuzz).
#
# Usage: run.sh SRCDIR SECONDS TARGET...
#
# Target tests/fuzz/fuzz_NAME starts from SRCDIR/tests/fuzz/corpus/NAME,
# copied to tests/fuzz/work/NAME in the build tree: the inputs it finds
# land there, never in the source tree (which distcheck makes read-only).
# A crash, a leak or a failed invariant leaves its input in
# tests/fuzz/artifacts/ and fails the run once every target has had its
# turn.
set -u

srcdir=$1
seconds=$2
shift 2

case $seconds in
'' | *[!0-9]*)
	echo "run.sh: FUZZ_SECONDS must be a whole number of seconds, not '$seconds'" >&2
	exit 2
	;;
esac

failed=
mkdir -p tests/fuzz/artifacts || exit 1
for target in "$@"; do
	name=${target##*/fuzz_}
	seeds=$srcdir/tests/fuzz/corpus/$name
	work=tests/fuzz/work/$name
	log=tests/fuzz/work/$name.log

	rm -rf "$work"
	mkdir -p "$work" || exit 1
	if [ -d "$seeds" ]; then
		cp "$seeds"/* "$work"/ 2>/dev/null
		chmod -R u+w "$work"
	fi
	# A parse takes microseconds, so an input that runs for a minute is a
	# hang; a shorter bound would also catch a loaded machine's stalls.
	"$target" -max_total_time="$seconds" -timeout=60 -print_final_stats=1 \
	    -artifact_prefix="tests/fuzz/artifacts/$name-" "$work" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	# shellcheck disable=SC2012 # (a count of files named by hashes, one a line)
	corpus=$(ls "$work" | wc -l)
	if [ $rc -eq 0 ]; then
		echo "fuzz_$name: ${runs:-?} runs in $seconds s, corpus $corpus inputs, no crash"
	else
		echo "fuzz_$name: FAILED (exit $rc) after ${runs:-?} runs; log $log:"
		tail -n 40 "$log"
		failed="$failed fuzz_$name"
	fi
done
if [ -n "$failed" ]; then
	echo "make fuzz: failed:$failed (inputs in tests/fuzz/artifacts/)" >&2
	exit 1
fi
