#!/bin/sh
# Print the number 'perf test list' gives the suite with description DESC.
# perf 6.12 runs a suite's cases only when selected by number, not by the
# suite's description. Usage: suite-number.sh PERF DESC  (from tools/perf)
set -eu
"$1" test list 2>/dev/null | awk -v d="$2" '{ n = $1; sub(/^ *[0-9]+: /, "") }
	$0 == d && n ~ /^[0-9]+:$/ { sub(/:/, "", n); print n; exit }'
