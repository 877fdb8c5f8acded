#!/bin/bash
# make check: run every check of the project, then one line with the totals.
# Each check script ends with a line "NAME: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
log=build/check
mkdir -p "$log"
passed=0
failed=0
for c in checkpatch unit demo mutations bisect full live sparc64 fuzz asan; do
	echo "=== check-$c"
	make -s "check-$c" 2>&1 | tee "$log/$c.log"
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log/$c.log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "check-$c: did not finish; see $log/$c.log"
		failed=$((failed + 1))
		continue
	fi
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
