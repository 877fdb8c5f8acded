#!/bin/bash
# Run 'perf test' for the tests whose description is each DESC, from
# TREE/tools/perf so that shell tests are found, and count the results.
# Prints perf test's lines, then "LABEL: N passed, N failed" (Skip counts
# as neither). Usage: perf-test.sh LABEL TREE PERF DESC...
set -eu
. "$(dirname "$0")/lib.sh"
label=$1
dir=$(cd "$2/tools/perf" && pwd)
test_perf=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
shift 3
out=$(mktemp)
for desc in "$@"; do
	# By number: perf 6.12 runs a suite's cases only when their own
	# descriptions match, not the suite's.
	num=$(cd "$dir" && suite_number "$test_perf" "$desc")
	if [ -z "$num" ]; then
		echo " $desc: FAILED! (no such test in $test_perf)" >>"$out"
		continue
	fi
	(cd "$dir" && "$test_perf" test "$num" 2>&1) |
		grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED|Skip)' >>"$out" || true
done
cat "$out"
passed=$(grep -c ': Ok$' "$out" || true)
failed=$(grep -c -E ': FAILED!?' "$out" || true)
rm -f "$out"
finish "$label"
