#!/bin/sh
# Write the executable maps of a running process as verdict.sh truth lines.
# perf record keeps only executable maps unless --data is given, and the
# kernel emits no MMAP2 for [vsyscall].
# Usage: live-truth.sh PID KIND COMM
set -eu
pid=$1
echo "task $pid $2 $3"
awk -v pid="$pid" '$2 ~ /x/ && NF >= 6 && $6 != "[vsyscall]" {
	split($1, r, "-"); print "map", pid, r[1], r[2], $2, $6 }' "/proc/$pid/maps"
