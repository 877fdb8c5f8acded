#!/bin/bash
# The main job: replay the embedded sparc64 trace, read the real sparc64
# recordings of sparc64/recording/ (and, where perf record is permitted,
# record a fork/exec workload) with base and patched perf, print each task's
# maps (not those of the real recordings: too many) and one verdict line per
# perf and input.
# Usage: demo.sh OUTDIR BASE_PERF PATCHED_PERF GEN_TRACE
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
base=$2
patched=$3
gen=$4
mkdir -p "$out"
: >"$out/verdicts.txt"

show() { # LABEL PERF DATA TRUTH
	echo "== $1: perf report --tasks --mmaps"
	"$2" report -i "$3" --tasks --mmaps 2>/dev/null >"$out/$1.tasks"
	cat "$out/$1.tasks"
	"$top/scripts/verdict.sh" "$1" "$4" "$out/$1.tasks" | tee -a "$out/verdicts.txt" | tail -n 1
	echo
}

# The original report's layout: bash (1309) forks emacs-gtk (1400), both
# synthesized; then bash forks a child that execs ls (1500).
"$gen" report "$out/report.data" "$out/report.truth"
# The same trace as a sparc64 perf writes it (big-endian).
"$gen" -b report "$out/report-be.data" "$out/report-be.truth"
for which in base patched; do
	perf=$base
	[ "$which" = patched ] && perf=$patched
	show "$which-trace" "$perf" "$out/report.data" "$out/report.truth"
	show "$which-trace-sparc64" "$perf" "$out/report-be.data" "$out/report-be.truth"
done

# The same trace with samples as from --call-graph dwarf: perf reads the
# ELF machine of its processes from the recording (sparc64), whatever runs
# with their pids here, and names their registers after it. It has no
# names for sparc64's user registers: "unknown" is right, x86's names not.
"$gen" -b -d report "$out/report-be-dwarf.data"
: >"$out/regs.txt"
for which in base patched; do
	perf=$base
	[ "$which" = patched ] && perf=$patched
	name=$("$perf" report -D -i "$out/report-be-dwarf.data" 2>/dev/null |
		awk '/^\.\.\. user regs:/ { getline; print $2; exit }')
	echo "$which-regs: the first user register of a sparc64 sample: ${name:-none}" |
		tee -a "$out/regs.txt"
done
echo

# Real sparc64 data: the patched perf's recordings on a sparc64 kernel
# under qemu-system-sparc64 (make check-sparc64-system), with the truth
# from the guest's /proc/PID/maps; those of this base's perf, as perf 6.12
# cannot read a file of perf 7.3. Too many maps to print: the tasks are in
# OUTDIR, the verdicts with their problem lines here.
rec=$top/sparc64/recording/${BASE:-$(sed -n 's/^BASE_NAME=//p' "$top/base.conf")}
echo "== real sparc64 recordings (${rec#"$top"/}):"
sed 's/^/   /' "$rec/recorded-on.txt"
for which in base patched; do
	perf=$base
	[ "$which" = patched ] && perf=$patched
	for run in patched patched-d; do
		label=$which-real-sparc64${run#patched}
		xz -dc "$rec/$run.data.xz" >"$out/real-sparc64-$run.data"
		"$perf" report -i "$out/real-sparc64-$run.data" --tasks --mmaps 2>/dev/null >"$out/$label.tasks"
		"$top/scripts/verdict.sh" -s "$label" "$rec/$run.truth" "$out/$label.tasks" |
			tee -a "$out/verdicts.txt"
	done
done
echo

# A live fork/exec chain: sh -> exec sh -> exec sleep, same pid throughout.
if ! "$patched" record -q -o "$out/probe.data" -e cpu-clock -- true >/dev/null 2>&1; then
	echo "demo: perf record -e cpu-clock is not permitted here; no live recording"
	exit 0
fi
for which in base patched; do
	perf=$base
	[ "$which" = patched ] && perf=$patched
	"$perf" record -q -o "$out/$which-live.data" -e cpu-clock -- \
		sh -c 'exec sh -c "exec sleep 1"' >/dev/null 2>&1 &
	rec=$!
	pid=$("$top/scripts/wait-child.sh" "$rec" sleep) ||
		{ echo "demo: the live workload did not start" >&2; exit 1; }
	"$top/scripts/live-truth.sh" "$pid" exec sleep nogate >"$out/$which-live.truth"
	wait "$rec"
	show "$which-live" "$perf" "$out/$which-live.data" "$out/$which-live.truth"
done
echo "== verdicts"
grep -E ': overlapping [0-9]+' "$out/verdicts.txt"
