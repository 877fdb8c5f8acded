#!/bin/sh
# Write the executable maps of a running process as verdict.sh truth lines.
# perf record keeps only executable maps unless --data is given.
# [vsyscall], the gate area, is in every process and stays across exec, but
# no MMAP record announces it: perf knows it from synthesis or a FORK from a
# process it synthesized. With "nogate" (a 'perf record -- cmd' workload,
# which perf does not synthesize) it is left out.
# Usage: live-truth.sh PID KIND COMM [nogate]
set -eu
pid=$1
echo "task $pid $2 $3"
awk -v pid="$pid" -v nogate="${4:-}" '$2 ~ /x/ && NF >= 6 &&
	!(nogate && $6 == "[vsyscall]") {
	split($1, r, "-"); print "map", pid, r[1], r[2], $2, $6 }' "/proc/$pid/maps"
