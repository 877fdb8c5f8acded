#!/bin/bash
# Teeth: each patch in the base's mutations/ (mutations/ for the default
# base, backports/NAME/mutations/) takes a fix out of the series; the subtest
# it names must then fail, and print its Expect: line (a regex). The suite is
# "Processes replayed from FORK, COMM, MMAP2 and EXIT records" unless a Suite: line names another
# (as 'perf test list' prints it). With no Subtest: line (a shell test, which
# has no subtests) the suite itself must fail.
# Works in $b/check-tree (a worktree of $b/tree) and $b/check-perf.
# Usage: BASE=NAME [ONLY=NAME] check-mutations.sh  (ONLY: one mutation, by file name)
set -eu
. "$(dirname "$0")/lib.sh"
check=mutations
need "$tree/.git"
mutations=$top/mutations
[ "$series" = "$top/patches" ] || mutations=$series/mutations
main_tree=$tree
tree="$b/check-tree"
default_suite="Processes replayed from FORK, COMM, MMAP2 and EXIT records"

"$top/scripts/worktree.sh" "$main_tree" "$tree" HEAD

# build, then run $suite into $b/mutation.out; -vv, as -v drops the
# output of a test that a signal killed
run_suite() {
	# callers test it with if, where set -e does not stop a failed build
	"$top/scripts/build-perf.sh" "$tree" "$b/check-perf" >/dev/null || return 1
	local n
	n=$(cd "$tree/tools/perf" && suite_number "$b/check-perf/perf" "$suite")
	[ -n "$n" ] || { echo "no suite '$suite' in $b/check-perf/perf" >&2; return 1; }
	(cd "$tree/tools/perf" && "$b/check-perf/perf" test -vv "$n" >"$b/mutation.out" 2>&1) || true
}

# regex TEXT: TEXT as an extended regex that matches it alone
regex() {
	printf '%s\n' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# LABEL SUBTEST EXPECT: the subtest failed and printed EXPECT; with no
# SUBTEST (a shell test, which has none), the suite failed
expect_failure() {
	local line what
	if [ -n "$2" ]; then
		line="^ *[0-9]+\.[0-9]+: $(regex "$2") *: FAILED"
		what="'$2'"
	else
		line="^ *[0-9]+: $(regex "$suite") *: FAILED"
		what="'$suite'"
	fi
	if grep -Eq -- "$line" "$b/mutation.out" &&
		grep -Eq -- "$3" "$b/mutation.out"; then
		pass "$1: $what fails: $3"
	else
		fail "$1: $what did not fail with '$3'; output in $b/mutation-$1.out"
		cp "$b/mutation.out" "$b/mutation-$1.out"
	fi
}

for m in "$mutations"/${ONLY:-*}.patch; do
	name=$(basename "$m" .patch)
	suite=$(sed -n 's/^Suite: //p' "$m")
	suite=${suite:-$default_suite}
	subtest=$(sed -n 's/^Subtest: //p' "$m")
	expect=$(sed -n 's/^Expect: //p' "$m")
	if ! git -C "$tree" apply "$m"; then
		fail "$name: does not apply to the series; regenerate it from a git diff in $tree"
		continue
	fi
	if run_suite; then
		expect_failure "$name" "$subtest" "$expect"
	else
		fail "$name: does not build; see $b/check-perf.log"
	fi
	git -C "$tree" checkout -q -- .
done

"$top/scripts/worktree.sh" "$main_tree" "$tree" HEAD
finish "$check"
