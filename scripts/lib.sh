# shellcheck shell=bash
# Shared by the harness scripts; source it first thing:
#   . "$(dirname "$0")/lib.sh"
#
# Sets, for the base named by $BASE (default: the one base.conf pins):
#   top     the checkout
#   base    the base's name (7.3, 6.12)
#   conf    its base.conf; BASE_* from it are set too
#   series  its patch folder (patches/ or backports/NAME/), with fixes/ and
#           next/ in it (see parts, series_files)
#   b       its build folder (build/ or build/NAME/)
#   tree, base_tree, perf, base_perf   the trees and perfs under $b
# Gives pass, fail, skip, stop and finish NAME for the "NAME: N passed, N failed"
# line every check ends with, and suite_number.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
default_base=$(sed -n 's/^BASE_NAME=//p' "$top/base.conf")
base=${BASE:-$default_base}
if [ "$base" = "$default_base" ]; then
	conf=$top/base.conf
	series=$top/patches
	b=$top/build
elif [ -f "$top/backports/$base/base.conf" ]; then
	conf=$top/backports/$base/base.conf
	series=$top/backports/$base
	b=$top/build/$base
else
	echo "BASE=$base: no such base; the bases are $default_base (default) and" \
		"$(cd "$top/backports" && echo *)" >&2
	exit 2
fi
# shellcheck source=/dev/null # variables only
. "$conf"
# A series is two postings, each a folder of format-patch files with a
# series file, applied in this order: fixes/ for perf-tools (on 6.12, the
# stable candidates), then next/ for perf-tools-next (on 6.12, the
# distribution patches). In the tree, branch 'fixes' ends the first.
parts="fixes next"

# series_files: the path of every patch of the series, in order.
series_files() {
	local part p
	for part in $parts; do
		[ -f "$series/$part/series" ] || continue
		while read -r p; do
			case "$p" in '' | '#'*) continue ;; esac
			echo "$series/$part/$p"
		done <"$series/$part/series"
	done
}
# shellcheck disable=SC2034 # for the scripts that source this
tree=$b/tree
# shellcheck disable=SC2034
base_tree=$b/base-tree
# shellcheck disable=SC2034
perf=$b/perf/perf
# shellcheck disable=SC2034
base_perf=$b/base-perf/perf
export BASE=$base

passed=0
failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
skip() { echo "SKIP $*"; }
# finish NAME: the last line of a check, its exit status.
finish() {
	echo "$1 ($base): $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# stop WHY: the check ($check) cannot go on: fail with WHY, finish, exit 1.
stop() {
	fail "$1"
	finish "${check:-check}"
	exit 1
}

# need FILE...: stop the check unless every FILE exists; for the trees and
# perfs a check runs on.
need() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || stop "missing $f (make BASE=$base tree perf base-perf)"
	done
}

# suite_number PERF DESC: the number 'perf test list' gives the suite whose
# description is DESC, or nothing. By number, as 'perf test DESC' runs only
# the cases whose own descriptions match. Run from tools/perf.
suite_number() {
	"$1" test list 2>/dev/null | awk -v d="$2" '{ n = $1; sub(/^ *[0-9]+: /, "") }
		$0 == d && n ~ /^[0-9]+:$/ { sub(/:/, "", n); print n; exit }'
}

# Patches the harness applies on top of the series in its own test trees
# (fuzz, asan, sparc64), never part of the series: the random sequences
# test lives there (see harness-patches/README).
if [ "$series" = "$top/patches" ]; then
	harness_patches=$top/harness-patches
else
	harness_patches=$series/harness-patches
fi

# test_tree DIR: make DIR a clean worktree of $tree at HEAD, plus the
# harness patches.
test_tree() {
	local p
	"$top/scripts/worktree.sh" "$tree" "$1" HEAD
	for p in "$harness_patches"/*.patch; do
		[ -e "$p" ] || continue
		git -C "$1" apply "$p" || { echo "harness patch ${p#"$top"/} does not apply" >&2; return 1; }
	done
}
