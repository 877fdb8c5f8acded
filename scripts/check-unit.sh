#!/bin/bash
# The series' own tests on the patched perf: the fork/exec maps suite, the
# shell test, the existing maps and thread tests next to them, and the
# off-CPU, perf script and perf sched (where the base has it) shell tests that
# the fixes add to.
# Usage: BASE=NAME check-unit.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=unit
need "$tree/.git" "$perf"
sched=
[ ! -f "$tree/tools/perf/tests/shell/sched.sh" ] || sched="perf sched tests"
"$top/scripts/perf-test.sh" unit "$tree" "$perf" \
	"Processes replayed from FORK, COMM, MMAP2 and EXIT records" \
	"perf report --tasks --mmaps across fork and exec" \
	"Share thread maps" "Lookup mmap thread" "$BASE_MAPS_SUITE" \
	"Synthesize thread map" \
	"perf record offcpu profiling tests" \
	"perf script tests" ${sched:+"$sched"}
