#!/bin/bash
# Build the patched perf, with the harness patches, with AddressSanitizer,
# UBSan and perf's reference count checking (REFCNT_CHECKING=1, as perf's
# tests/make builds it: every get/put goes through its own allocation, so
# ASan reports a map or thread used after its put and LeakSanitizer one
# never put) into $b/asan-perf, from the worktree $b/asan-tree, and run the
# series' suites, its shell test and the existing maps and thread tests in
# one process (perf test -F), so that LeakSanitizer checks at exit, then
# perf top for 20 s on a loop of forks and execs. Any sanitizer report
# fails.
# Usage: BASE=NAME check-asan.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=asan
need "$tree/.git"
asan_tree="$b/asan-tree"
asan_perf="$b/asan-perf/perf"
out="$b/asan.out"
tests=("Processes replayed from FORK, COMM, MMAP2 and EXIT records" "Random FORK, COMM, MMAP2 and EXIT sequences"
	"perf report --tasks --mmaps across fork and exec" "Share thread maps" "Lookup mmap thread" "$BASE_MAPS_SUITE" "Synthesize thread map")

test_tree "$asan_tree"
# No python binding: it would need the sanitizer runtime preloaded.
# WERROR=0: with the sanitizers, gcc 12 warns "null destination pointer"
# (-Wformat-truncation) on fortified snprintf calls in util/build-id.c.
"$top/scripts/build-perf.sh" "$asan_tree" "$b/asan-perf" NO_LIBPYTHON=1 WERROR=0 \
	EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g -DREFCNT_CHECKING=1"
nums=()
for t in "${tests[@]}"; do
	n=$(cd "$asan_tree/tools/perf" && suite_number "$asan_perf" "$t")
	[ -n "$n" ] || stop "asan: no test '$t'"
	nums+=("$n")
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1
status=0
(cd "$asan_tree/tools/perf" && "$asan_perf" test -F "${nums[@]}") >"$out" 2>&1 || status=$?
grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED|Skip)' "$out" || true
passed=$(grep -cE ': Ok$' "$out" || true)
failed=$(grep -cE ': FAILED' "$out" || true)
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out"; then
	fail "asan: sanitizer report; see $out:"
	grep -E -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out" | head -40
elif [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
	fail "asan: perf test exited $status; see $out"
fi

# perf top for 20 s on a loop of forks and execs: its display thread reads
# the maps that its other thread changes.
top_out="$b/asan-top.out"
sh -c 'while :; do sh -c "exec /bin/true"; done' &
loop=$!
status=0
timeout --signal=INT --kill-after=10 20 "$asan_perf" top --stdio -e cpu-clock -F 1000 \
	-g -d 1 >"$top_out" 2>&1 </dev/null || status=$?
kill "$loop"
wait "$loop" 2>/dev/null || true
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$top_out"; then
	fail "asan: perf top: sanitizer report; see $top_out:"
	grep -E -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$top_out" | head -40
elif [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$status" -ne 130 ]; then
	fail "asan: perf top exited $status; see $top_out"
else
	pass "asan: perf top ran 20 s on forks and execs, no sanitizer report"
fi
finish "$check"
