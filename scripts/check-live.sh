#!/bin/bash
# Live check: record real process trees with 'perf record -a' under base and
# patched perf, and compare every process's executable maps in
# 'perf report --tasks --mmaps' with its /proc/PID/maps taken just before the
# recording ends (scripts/live-truth.sh, scripts/verdict.sh).
#
# Each scenario runs twice: started before the recording ("-pre": perf
# synthesizes it; its exec or forks wait on a FIFO that is released once the
# recording is on) and started during it (forked and exec'd by this shell):
#   chain      sh -> exec sh -> exec live-workload idle
#   threads    a process with 4 threads (each thread is checked)
#   nonleader  a thread that is not the group leader execs live-workload idle
#   maps       a parent with 100 executable file maps forks two children
#              that keep them (the first before the FIFO) and one that
#              execs live-workload idle
# Every process idles once set up and lives on past the recording. Each
# says when its maps are final, before the FIFO and once idle, with a ready
# line in $LIVE_READY (tools/live-workload.c); the shell of chain-pre
# prints its own.
# Patched perf must get every process right; base is expected to get some
# wrong. Then an off-CPU recording across an exec, where the perf has BPF
# skeletons: patched must leave no more of the time [unknown] than base.
# Outputs in $b/live/. Ends with "live (BASE): N passed, N failed".
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
now() { echo "${EPOCHREALTIME//[!0-9]/}"; }	# microseconds

# settle PID STATE: wait (up to 10 s) for PID's line "ready PID STATE"
# (gated or idle) in $LIVE_READY.
settle() {
	local i
	for ((i = 0; i < 1000; i++)); do
		grep -qx "ready $1 $2" "$LIVE_READY" 2>/dev/null && return 0
		sleep 0.01
	done
	echo "live: process $1 printed no 'ready $1 $2'"
	return 1
}
# alive PID COMM: PID still runs, as COMM.
alive() { local c=''; read -r c <"/proc/$1/comm" 2>/dev/null && [ "$c" = "$2" ]; }
# add NAME PID KIND COMM [synth]: a process to check, with its final comm;
# synth: perf knows its image from synthesis, which reads /proc/PID/maps.
add() { pids+=("$2"); echo "$1 $2 $3 $4 ${5:--}" >>"$dir/procs"; }
# children NAME FILE [synth]: add what 'live-workload maps' printed.
children() {
	local n=0 pid kind
	while read -r pid kind; do
		n=$((n + 1))
		if [ "$kind" = exec ]; then
			add "$1-exec" "$pid" exec live-workload
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
	export LIVE_READY=$dir/ready

	# Before the recording; each then waits, idle, on the FIFO or for good.
	# shellcheck disable=SC2016 # for sh to expand
	sh -c 'echo "ready $$ gated" >>"$LIVE_READY"; read -r x <"$1"
		exec sh -c "exec \"\$0\" idle" "$2"' sh "$gate" "$helper" &
	add chain-pre $! exec live-workload
	settle $! gated || return 1
	"$helper" threads 4 &
	add threads-pre $! plain live-workload synth
	settle $! idle || return 1
	"$helper" nonleader "$gate" "$helper" idle &
	add nonleader-pre $! exec live-workload
	settle $! gated || return 1
	"$helper" maps "$out/pieces.bin" "$gate" "$helper" idle >"$dir/maps-pre.children" &
	pre=$!
	add maps-pre $! plain live-workload synth
	settle "$pre" gated || return 1
	read -r pid kind <"$dir/maps-pre.children"	# the child forked already
	pids+=("$pid")
	settle "$pid" idle || return 1

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
	# shellcheck disable=SC2016 # for sh to expand
	sh -c 'exec sh -c "exec \"\$0\" idle" "$1"' sh "$helper" &
	add chain $! exec live-workload
	"$helper" threads 4 &
	add threads $! exec live-workload
	"$helper" nonleader - "$helper" idle &
	add nonleader $! exec live-workload
	"$helper" maps "$out/pieces.bin" - "$helper" idle >"$dir/maps.children" &
	mp=$!
	add maps "$mp" exec live-workload
	# the maps parents have forked every child once they idle
	settle "$pre" idle || return 1
	settle "$mp" idle || return 1
	children maps-pre "$dir/maps-pre.children" synth
	children maps "$dir/maps.children"
	while read -r name pid kind comm _; do
		settle "$pid" idle || return 1
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
		alive "$pid" "$comm" ||
			{ echo "live: $which: $name ($pid) is gone or not $comm after the recording"; return 1; }
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

# unknown PERF DATA: the share (%) of the off-CPU time in DATA that PERF
# resolves to no DSO.
unknown() {
	"$1" report -i "$2" --stdio --no-children -s dso 2>/dev/null |
		awk '/^# Samples: .* of event / { off = /offcpu-time/ }
			off && /\[unknown\]/ { sub(/%/, "", $1); s += $1 }
			END { printf "%.2f\n", s }'
}

# Off-CPU samples are written at the end of the recording and processed
# after everything else, after the exec of their process too: those of sh
# before its exec must still resolve. One recording, read by both perfs.
offcpu() {
	local data=$out/offcpu.data u_base u_patched
	if ! "$perf" version --build-options | grep -q 'bpf_skeletons: \[ on'; then
		skip "off-CPU: $perf has no BPF skeletons"
		return
	fi
	rm -f "$data"
	if ! "$perf" record -q --off-cpu -o "$data" -- sh -c 'sleep 0.3; exec sleep 0.3' \
		>"$out/offcpu.log" 2>&1; then
		skip "off-CPU: 'perf record --off-cpu' is not permitted here (see $out/offcpu.log)"
		return
	fi
	u_base=$(unknown "$base_perf" "$data")
	u_patched=$(unknown "$perf" "$data")
	if awk -v p="$u_patched" -v b="$u_base" 'BEGIN { exit !(p <= b) }'; then
		pass "off-CPU across an exec: ${u_patched}% of the time [unknown] patched, ${u_base}% base"
	else
		fail "off-CPU across an exec: ${u_patched}% of the time [unknown] patched, more than base's ${u_base}%"
	fi
}

mkdir -p "$out"
rm -f "$out/probe.data" "$out"/*.old	# else perf keeps the old file as .old
need "$base_perf" "$perf"
if ! "$perf" record -q -a -e cpu-clock -o "$out/probe.data" -- true >"$out/probe.log" 2>&1; then
	skip "'perf record -a -e cpu-clock' is not permitted here (see $out/probe.log)"
	sed -n '1,3s/^/  /p' "$out/probe.log"
	finish "$check"
	exit
fi
cc -O2 -Wall -pthread -o "$helper" "$top/tools/live-workload.c" ||
	stop "cannot build tools/live-workload.c"
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
offcpu
finish "$check"
