#!/bin/bash
# Apply the series one patch at a time (the commits after 'base' in the
# base's tree: the fixes posting, then the next one), build after each and
# run the maps and thread tests that exist at that point. Works in $b/check-tree and $b/check-perf.
# Usage: BASE=NAME check-bisect.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=bisect
need "$tree/.git"
main_tree=$tree
tree="$b/check-tree"
check_perf="$b/check-perf/perf"
tests=("Share thread maps" "Lookup mmap thread" "$BASE_MAPS_SUITE" "Synthesize thread map"
	"Processes replayed from FORK, COMM, MMAP2 and EXIT records"
	"Random FORK, COMM, MMAP2 and EXIT sequences"
	"perf report --tasks --mmaps across fork and exec")
i=0
n=$(git -C "$main_tree" rev-list --count base..HEAD)
nfixes=$(git -C "$main_tree" rev-list --count base..fixes)
for c in $(git -C "$main_tree" rev-list --reverse base..HEAD); do
	i=$((i + 1))
	# "fixes 3/8 subject", "next 2/13 subject": the commit in its posting
	if [ "$i" -le "$nfixes" ]; then
		subject="fixes $i/$nfixes $(git -C "$main_tree" log -1 --format=%s "$c")"
	else
		subject="next $((i - nfixes))/$((n - nfixes)) $(git -C "$main_tree" log -1 --format=%s "$c")"
	fi
	"$top/scripts/worktree.sh" "$main_tree" "$tree" "$c"
	if ! "$top/scripts/build-perf.sh" "$tree" "$b/check-perf" >/dev/null; then
		fail "$subject: does not build; see $b/check-perf.log"
		continue
	fi
	present=()
	for t in "${tests[@]}"; do
		[ -n "$(cd "$tree/tools/perf" && suite_number "$check_perf" "$t")" ] &&
			present+=("$t")
	done
	result=$("$top/scripts/perf-test.sh" "step" "$tree" "$check_perf" "${present[@]}" | tail -n 1)
	if echo "$result" | grep -q ' 0 failed$'; then
		pass "$subject: builds; ${result#*: }"
	else
		fail "$subject: ${result#*: }"
	fi
done
"$top/scripts/worktree.sh" "$main_tree" "$tree" HEAD
finish "$check"
