#!/bin/bash
# Live check: record real process trees with 'perf record -a' under base and
# patched perf, and compare every process's executable maps in
# 'perf report --tasks --mmaps' with its /proc/PID/maps taken just before the
# recording ends (scripts/live-truth.sh, scripts/verdict.sh).
#
# Each scenario runs twice: started before the recording ("-pre": perf
# synthesizes it; its exec or forks wait on a FIFO that is released once the
# recording is on) and started during it (forked and exec'd by this shell):
#   chain      sh -> exec sh -> exec sleep
#   threads    a process with 4 threads (each thread is checked)
#   nonleader  a thread that is not the group leader execs sleep
#   maps       a parent with 100 executable file maps forks two children
#              that keep them (the first before the FIFO) and one that
#              execs sleep
# Every process idles once set up and lives on past the recording.
# Patched perf must get every process right; base is expected to get some
# wrong. Outputs in $b/live/. Ends with "live (BASE): N passed, N failed".
# Usage: BASE=NAME check-live.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=live
out=$b/live
secs=${LIVE_SECONDS:-3}	# length of the recording ('sleep N')
helper=$b/live-workload
gate=$out/gate
pids=()	# every process started here, killed on exit

cleanup() {
	disown -a	# no "Killed" notices
	[ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
	pids=()
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
finish() { echo "live ($base): $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
now() { echo "${EPOCHREALTIME//[!0-9]/}"; }	# microseconds

# idle PID COMM [gated]: PID has comm COMM and each of its threads sleeps in
# pause() or nanosleep, or (gated) waits for a writer of the FIFO. No forks:
# they are slow on a loaded machine.
idle() {
	local ok='pause|nanosleep' t c='' w
	[ $# -lt 3 ] || ok="$ok|wait_for_partner|fifo_open"
	read -r c <"/proc/$1/comm" 2>/dev/null || return 1
	[ "$c" = "$2" ] || return 1
	for t in /proc/"$1"/task/*; do
		w=
		read -r w <"$t/wchan" 2>/dev/null || true	# no newline
		[[ $w =~ $ok ]] || return 1
	done
}
# settle PID COMM [gated]: wait (up to 10 s) until idle.
settle() {
	local i
	for ((i = 0; i < 1000; i++)); do
		idle "$@" && return 0
		sleep 0.01
	done
	echo "live: process $1 did not settle as '$2' (${3:-final} state)"
	return 1
}
# add NAME PID KIND COMM [synth]: a process to check, with its final comm;
# synth: perf knows its image from synthesis, which reads /proc/PID/maps.
add() { pids+=("$2"); echo "$1 $2 $3 $4 ${5:--}" >>"$dir/procs"; }
# children NAME FILE [synth]: add what 'live-workload maps' printed.
children() {
	local n=0 pid kind
	while read -r pid kind; do
		n=$((n + 1))
		if [ "$kind" = exec ]; then
			add "$1-exec" "$pid" exec sleep
		else
			add "$1-child$n" "$pid" plain live-workload "${3:--}"
		fi
	done <"$2"
}
# truth NAME PID KIND: truth lines of PID and of each of its threads (they
# share its maps). Every process here descends from a process perf
# synthesized, this shell, so perf knows its [vsyscall] too.
truth() {
	local lines t line rest
	lines=$("$top/scripts/live-truth.sh" "$2" "$3" "$1")
	for t in /proc/"$2"/task/*; do
		while read -r line; do	# "task PID ..." or "map PID ..."
			rest=${line#* }
			echo "${line%% *} ${t##*/} ${rest#* }"
		done <<<"$lines"
	done
}

# run WHICH PERF: record the scenarios, snapshot the truth, compare.
run() {
	local which=$1 perf=$2 pre mp rec wl end name pid kind comm w=0 n=0
	dir=$out/$which
	rm -rf "$dir" "$out/$which.data" "$out/$which.data.old"
	mkdir -p "$dir"

	# Before the recording; each then waits, idle, on the FIFO or for good.
	sh -c 'read -r x <"$1"; exec sh -c "exec sleep 120"' sh "$gate" &
	add chain-pre $! exec sleep
	settle $! sh gated || return 1
	"$helper" threads 4 &
	add threads-pre $! plain live-workload synth
	settle $! live-workload || return 1
	"$helper" nonleader "$gate" /bin/sleep 120 &
	add nonleader-pre $! exec sleep
	settle $! live-workload gated || return 1
	"$helper" maps "$out/pieces.bin" "$gate" /bin/sleep 120 >"$dir/maps-pre.children" &
	pre=$!
	add maps-pre $! plain live-workload synth
	settle "$pre" live-workload gated || return 1
	read -r pid kind <"$dir/maps-pre.children"	# the child forked already
	pids+=("$pid")
	settle "$pid" live-workload || return 1

	"$perf" record -q -a -e cpu-clock -o "$out/$which.data" -- sleep "$secs" \
		>"$dir/record.log" 2>&1 &
	rec=$!
	pids+=("$rec")
	# perf synthesizes the running processes and enables the events
	# before it lets its workload exec sleep.
	wl=$("$top/scripts/wait-child.sh" "$rec" sleep) ||
		{ echo "live: $which perf record did not start"; return 1; }
	end=$(($(now) + secs * 1000000))

	: <>"$gate"	# release every process waiting on the FIFO
	sh -c 'exec sh -c "exec sleep 120"' &
	add chain $! exec sleep
	"$helper" threads 4 &
	add threads $! exec live-workload
	"$helper" nonleader - /bin/sleep 120 &
	add nonleader $! exec sleep
	"$helper" maps "$out/pieces.bin" - /bin/sleep 120 >"$dir/maps.children" &
	mp=$!
	add maps "$mp" exec live-workload
	# the maps parents have forked every child once they idle
	settle "$pre" live-workload || return 1
	settle "$mp" live-workload || return 1
	children maps-pre "$dir/maps-pre.children" synth
	children maps "$dir/maps.children"
	while read -r name pid kind comm _; do
		settle "$pid" "$comm" || return 1
	done <"$dir/procs"

	# Everything is idle now: snapshot near the end of the recording.
	while [ "$(now)" -lt $((end - 2000000)) ]; do sleep 0.05; done
	while read -r name pid kind comm _; do
		truth "$name" "$pid" "$kind" >"$dir/$name.truth"
	done <"$dir/procs"
	kill -0 "$wl" 2>/dev/null ||
		echo "live: note: $which: the recording ended before the snapshot did;" \
			"the processes idle, so it holds (LIVE_SECONDS=$secs)"
	wait "$rec" || { echo "live: $which perf record failed: $(tail -n 3 "$dir/record.log")"; return 1; }
	while read -r name pid kind comm _; do
		idle "$pid" "$comm" ||
			{ echo "live: $which: $name ($pid) is gone or busy after the recording"; return 1; }
	done <"$dir/procs"
	cleanup

	"$perf" report -i "$out/$which.data" --tasks --mmaps >"$dir/tasks" 2>"$dir/report.log" ||
		{ echo "live: $which perf report failed"; return 1; }
	# lost events can explain wrong maps
	grep -i 'lost' "$dir/report.log" | sed "s/^/live: note: $which: /" || true
	while read -r name pid kind comm _; do
		n=$((n + 1))
		"$top/scripts/verdict.sh" "$which-$name" "$dir/$name.truth" "$dir/tasks" >"$dir/$name.verdict"
		cat "$dir/$name.verdict"
		if tail -n 1 "$dir/$name.verdict" | grep -q 'WRONG$'; then
			w=$((w + 1))
		fi
	done <"$dir/procs"
	echo "live $which: $w wrong of $n processes"
	echo "$w $n" >"$dir/count"
}

mkdir -p "$out"
rm -f "$out/probe.data" "$out"/*.old	# else perf keeps the old file as .old
for p in "$base_perf" "$perf"; do
	[ -x "$p" ] || { fail "$p is not built (make perf base-perf)"; finish; }
done
if ! "$perf" record -q -a -e cpu-clock -o "$out/probe.data" -- true >"$out/probe.log" 2>&1; then
	echo "skipped: 'perf record -a -e cpu-clock' is not permitted here (see $out/probe.log)"
	sed -n '1,3s/^/  /p' "$out/probe.log"
	finish
fi
cc -O2 -Wall -pthread -o "$helper" "$top/tools/live-workload.c" ||
	{ fail "cannot build tools/live-workload.c"; finish; }
rm -f "$gate"
mkfifo "$gate"

for which in base patched; do
	p=$base_perf
	[ "$which" = patched ] && p=$perf
	if ! run "$which" "$p"; then
		cleanup
		fail "$which: the live recording did not complete"
		continue
	fi
	read -r w n <"$out/$which/count"
	if [ "$which" = patched ]; then
		if [ "$w" -eq 0 ]; then
			pass "patched: every process's maps match /proc ($n processes)"
		else
			fail "patched: $w of $n processes have wrong maps"
		fi
	elif [ "$w" -gt 0 ]; then
		pass "base shows the bug: $w of $n processes have wrong maps"
	else
		echo "NOTE base: all $n processes right; this run does not show the bug"
	fi
done
finish
