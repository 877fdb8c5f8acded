#!/bin/bash
# Teeth: each patch in mutations/ takes a fix out of the series; the subtest
# it names must then fail, and print its Expect: line (a regex). Also the
# test patch alone on the base must fail its exec subtests.
# Works in build/check-tree (a worktree of build/tree) and build/check-perf.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b="$top/build"
tree="$b/check-tree"
suite="Maps across FORK, exec and byte order"
passed=0
failed=0

"$top/scripts/worktree.sh" "$b/tree" "$tree" HEAD

# build, then run the suite into $b/mutation.out; -vv, as -v drops the
# output of a test that a signal killed
run_suite() {
	"$top/scripts/build-perf.sh" "$tree" "$b/check-perf" >/dev/null
	local n
	n=$(cd "$tree/tools/perf" && "$top/scripts/suite-number.sh" "$b/check-perf/perf" "$suite")
	[ -n "$n" ] || { echo "no suite '$suite' in $b/check-perf/perf" >&2; return 1; }
	(cd "$tree/tools/perf" && "$b/check-perf/perf" test -vv "$n" >"$b/mutation.out" 2>&1) || true
}

# LABEL SUBTEST EXPECT: the subtest failed and printed EXPECT
expect_failure() {
	if grep -Eq "^ *[0-9]+\.[0-9]+: $2 +: FAILED" "$b/mutation.out" &&
		grep -Eq -- "$3" "$b/mutation.out"; then
		echo "PASS $1: '$2' fails: $3"
		passed=$((passed + 1))
	else
		echo "FAIL $1: '$2' did not fail with '$3'; output in $b/mutation-$1.out"
		cp "$b/mutation.out" "$b/mutation-$1.out"
		failed=$((failed + 1))
	fi
}

for m in "$top"/mutations/*.patch; do
	name=$(basename "$m" .patch)
	subtest=$(sed -n 's/^Subtest: //p' "$m")
	expect=$(sed -n 's/^Expect: //p' "$m")
	git -C "$tree" apply "$m"
	if run_suite; then
		expect_failure "$name" "$subtest" "$expect"
	else
		echo "FAIL $name: does not build; see $b/check-perf.log"
		failed=$((failed + 1))
	fi
	git -C "$tree" checkout -q -- .
done

# The test patch alone on the base: the exec subtests fail.
test_patch=$(grep -m1 'perf-tests-Add-a-test-of-maps' "$top/patches/series")
git -C "$tree" checkout -q --detach base
git -C "$tree" apply "$top/patches/$test_patch"
if run_suite; then
	expect_failure "test-alone-exec" "exec: the old image's maps are dropped" \
		"maps from before the exec remain"
	expect_failure "test-alone-exec-other-thread" \
		"exec by a thread that is not the group leader" "maps from before the exec remain"
else
	echo "FAIL test patch alone on base: does not build; see $b/check-perf.log"
	failed=$((failed + 1))
fi
git -C "$tree" checkout -q -- .
git -C "$tree" clean -q -fd
"$top/scripts/worktree.sh" "$b/tree" "$tree" HEAD

echo "mutations: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
