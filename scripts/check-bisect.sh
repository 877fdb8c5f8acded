#!/bin/bash
# Apply the series one patch at a time (the commits after 'base' in
# build/tree), build after each and run the maps and thread tests that
# exist at that point. Works in build/check-tree and build/check-perf.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b="$top/build"
tree="$b/check-tree"
perf="$b/check-perf/perf"
tests=("Share thread maps" "Lookup mmap thread" "maps__merge_in" "Synthesize thread map"
	"Maps across FORK, exec and byte order"
	"Random FORK, COMM, MMAP2 and EXIT sequences"
	"perf report --tasks --mmaps across fork and exec")
passed=0
failed=0
i=0
n=$(git -C "$b/tree" rev-list --count base..HEAD)
for c in $(git -C "$b/tree" rev-list --reverse base..HEAD); do
	i=$((i + 1))
	subject=$(git -C "$b/tree" log -1 --format=%s "$c")
	"$top/scripts/worktree.sh" "$b/tree" "$tree" "$c"
	if ! "$top/scripts/build-perf.sh" "$tree" "$b/check-perf" >/dev/null; then
		echo "FAIL $i/$n $subject: does not build; see $b/check-perf.log"
		failed=$((failed + 1))
		continue
	fi
	present=()
	for t in "${tests[@]}"; do
		[ -n "$(cd "$tree/tools/perf" && "$top/scripts/suite-number.sh" "$perf" "$t")" ] &&
			present+=("$t")
	done
	result=$("$top/scripts/perf-test.sh" "step" "$tree" "$perf" "${present[@]}" | tail -n 1)
	if echo "$result" | grep -q ' 0 failed$'; then
		echo "PASS $i/$n $subject: builds; ${result#step: }"
		passed=$((passed + 1))
	else
		echo "FAIL $i/$n $subject: ${result#step: }"
		failed=$((failed + 1))
	fi
done
"$top/scripts/worktree.sh" "$b/tree" "$tree" HEAD
echo "bisect: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
