#!/bin/bash
# The series' own tests on the patched perf: the fork/exec maps suite, the
# shell test, and the existing maps and thread tests next to them.
# Usage: check-unit.sh TREE PERF
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/perf-test.sh" unit "$1" "$2" \
	"Maps across FORK, exec and byte order" \
	"Random FORK, COMM, MMAP2 and EXIT sequences" \
	"perf report --tasks --mmaps across fork and exec" \
	"Share thread maps" "Lookup mmap thread" "maps__merge_in" \
	"Synthesize thread map"
