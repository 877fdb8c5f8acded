#!/bin/bash
# Run the demo and require its verdicts: patched perf right on every input;
# base perf shows the problems the series fixes (so the verdicts can fail).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b="$top/build"
"$top/scripts/demo.sh" "$b/demo" "$b/base-perf/perf" "$b/perf/perf" "$b/gen-trace" >"$b/demo.log" 2>&1 ||
	{ echo "demo failed; see $b/demo.log"; tail -5 "$b/demo.log"; echo "demo: 0 passed, 1 failed"; exit 1; }
passed=0
failed=0
expect() { # LABEL REGEX WHY
	line=$(grep "^$1: overlapping" "$b/demo/verdicts.txt" || true)
	if [ -z "$line" ]; then
		echo "SKIP $1: no verdict (see $b/demo.log)"
	elif echo "$line" | grep -Eq "$2"; then
		echo "PASS $1: $3"
		passed=$((passed + 1))
	else
		echo "FAIL $1: $3: $line"
		failed=$((failed + 1))
	fi
}
for input in trace trace-sparc64 live; do
	expect "patched-$input" ': OK$' "no overlapping, inherited or leftover maps"
done
expect base-trace 'leftover [1-9][0-9]*,' "base keeps maps from before the exec"
expect base-trace-sparc64 'prot [1-9][0-9]*:' "base loses the protection of big-endian maps"
expect base-live 'leftover [1-9][0-9]*,' "base keeps maps from before the exec"
echo "demo: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
