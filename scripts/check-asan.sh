#!/bin/bash
# Build the patched perf with AddressSanitizer and UBSan (build/asan-perf,
# from the worktree build/asan-tree) and run the series' suites and the
# existing maps and thread tests in one process (perf test -F), so that
# LeakSanitizer checks at exit. Any sanitizer report fails.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b="$top/build"
tree="$b/asan-tree"
perf="$b/asan-perf/perf"
out="$b/asan.out"
tests=("Maps across FORK, exec and byte order" "Random FORK, COMM, MMAP2 and EXIT sequences"
	"Share thread maps" "Lookup mmap thread" "maps__merge_in" "Synthesize thread map")

"$top/scripts/worktree.sh" "$b/tree" "$tree" HEAD
# No python binding: it would need the sanitizer runtime preloaded.
# WERROR=0: with the sanitizers, gcc 12 warns "null destination pointer"
# (-Wformat-truncation) on fortified snprintf calls in util/build-id.c.
"$top/scripts/build-perf.sh" "$tree" "$b/asan-perf" NO_LIBPYTHON=1 WERROR=0 \
	EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g"
nums=()
for t in "${tests[@]}"; do
	n=$(cd "$tree/tools/perf" && "$top/scripts/suite-number.sh" "$perf" "$t")
	if [ -z "$n" ]; then
		echo "FAIL asan: no test '$t'"
		echo "asan: 0 passed, 1 failed"
		exit 1
	fi
	nums+=("$n")
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1
status=0
(cd "$tree/tools/perf" && "$perf" test -F "${nums[@]}") >"$out" 2>&1 || status=$?
grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED|Skip)' "$out" || true
passed=$(grep -cE ': Ok$' "$out" || true)
failed=$(grep -cE ': FAILED' "$out" || true)
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out"; then
	echo "FAIL asan: sanitizer report; see $out:"
	grep -E -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out" | head -40
	failed=$((failed + 1))
elif [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "FAIL asan: perf test exited $status; see $out"
	failed=$((failed + 1))
fi
echo "asan: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
