#!/bin/bash
# Build the patched perf with clang-19 ($b/clang-perf), as perf's Makefile
# does for clang: with -Wthread-safety, so that its lock annotations are
# checked, and -Werror, so that any warning fails the build. The BPF
# skeletons and the python binding are left out: they are not C that the
# series touches, and the binding's build takes gcc flags.
# Usage: BASE=NAME check-clang.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=clang
need "$tree/.git"
command -v clang-19 >/dev/null || stop "no clang-19 (make deps)"
if "$top/scripts/build-perf.sh" "$tree" "$b/clang-perf" CC=clang-19 HOSTCC=clang-19 \
	WERROR=1 BUILD_BPF_SKEL=0 NO_LIBPYTHON=1 >/dev/null; then
	if grep -q -- '-Wthread-safety' "$b/clang-perf/util/.machine.o.cmd"; then
		pass "clang-19 builds the series with -Wthread-safety -Werror"
	else
		fail "clang-19 built perf without -Wthread-safety; see $b/clang-perf.log"
	fi
else
	fail "clang-19 does not build the series; see $b/clang-perf.log"
fi
finish "$check"
