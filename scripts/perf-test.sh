#!/bin/bash
# Run 'perf test' for the tests whose description matches each PATTERN, from
# TREE/tools/perf so that shell tests are found, and count the results.
# Prints perf test's lines, then "LABEL: N passed, N failed" (Skip counts
# as neither). Usage: perf-test.sh LABEL TREE PERF PATTERN...
set -eu
label=$1
tree=$(cd "$2" && pwd)
perf=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
shift 3
out=$(mktemp)
list=$(cd "$tree/tools/perf" && "$perf" test list 2>/dev/null)
for desc in "$@"; do
	# By number: perf 6.12 runs a suite's cases only when their own
	# descriptions match, not the suite's.
	num=$(echo "$list" | awk -v d="$desc" '{ n = $1; sub(/^ *[0-9]+: /, "") }
		$0 == d && n ~ /^[0-9]+:$/ { sub(/:/, "", n); print n; exit }')
	if [ -z "$num" ]; then
		echo " $desc: FAILED! (no such test in $perf)" >>"$out"
		continue
	fi
	(cd "$tree/tools/perf" && "$perf" test "$num" 2>&1) |
		grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED|Skip)' >>"$out" || true
done
cat "$out"
passed=$(grep -c ': Ok$' "$out" || true)
failed=$(grep -c -E ': FAILED!?' "$out" || true)
rm -f "$out"
echo "$label: $passed passed, $failed failed"
