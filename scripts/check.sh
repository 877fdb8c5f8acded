#!/bin/bash
# make check: run the checks CHECK... (make check-CHECK) on $BASE, then one
# line with the totals. Each check script ends with a line
# "NAME (BASE): N passed, N failed".
# Usage: BASE=NAME check.sh CHECK...
set -u
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1
log=$b/check
mkdir -p "$log"
for c in "$@"; do
	echo "=== check-$c ($base)"
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
