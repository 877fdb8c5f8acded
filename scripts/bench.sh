#!/bin/bash
# make bench: what the series costs 'perf report'. The recordings:
#   forkexec   a live 'perf record' of a shell running /bin/true 2000 times;
#   execchain  one process exec'ing 2000 times (gen-trace);
#   execchain-dwarf  one process exec'ing 10,000 times, pids no process
#              has, samples as from --call-graph dwarf (gen-trace -g -d):
#              the DWARF unwinder set up and run (on files it cannot open);
#   callchain  36,000 samples with frame-pointer call chains of 40 kernel
#              and 22 user entries (1 in 8 user only, 1 in 8 with no
#              context markers), of a shell and a child that execs 12
#              times, a third of the user entries in no map (gen-trace);
#   branch     18,000 samples with 32-entry branch stacks (8 entries with a
#              kernel address) of a shell and a child that execs 8 times
#              (gen-trace); perf report is in branch mode (the file has
#              HEADER_BRANCH_STACK): each entry's target is resolved and
#              counted by comm,dso;
#   remap      a process that execs, then maps the 64 pages of a JIT's code
#              cache 300,000 times over (gen-trace): the maps it replaces
#              must be freed;
#   machine    2000 synthesized processes of 200 maps each (gen-trace);
#   bigexec    a parent with 100,000 maps whose 10 children (kernel FORK)
#              each exec (gen-trace): exec must cost O(maps).
#   bigexec-30k, bigexec-30k-dwarf  a parent with 30,000 maps, whose pid no
#              process has, and 10 children that exec, without and with
#              samples as from --call-graph dwarf (gen-trace -g, -g -d):
#              the e_machine lookup of the DWARF unwinder must not make the
#              second cost more than twice the first.
# callchain and branch have a kernel map ([kernel.kallsyms]_text) with no
# build-id: perf would take the symbols of this machine's /proc/kallsyms
# (and /proc/modules, vmlinux from the current directory or /boot), so they
# are read with --kallsyms=/dev/null: kernel addresses resolve to the
# kernel map, with no symbol, the same on every machine.
# Base and patched perf read each one: instructions (callgrind), peak RSS
# and wall time (/usr/bin/time -v, separate runs), and the maps alive at the
# end (--tasks --mmaps). A recording passes if the patched perf needs at
# most 1% more instructions than the base; bigexec, no more than the v2
# series did (0.852 of the instructions, 0.651 of the peak RSS).
# Peak RSS is the least of 5 runs, each perf run from a fresh copy in
# $b/bench: a perf binary's own footprint moves by +-0.5% with its layout
# and page cache state (the "idle" line, a one-exec trace, shows it). A
# peak RSS above 1.01 of the base fails; up to that, the line says so.
# The machine recording is also read by a "pre-fix" perf, the series
# without the FORK_EXEC check, to show what upstream's fix of synthesized
# FORKs buys.
# Everything goes to $b/bench/; table.md holds the raw numbers.
# Usage: BASE=NAME bench.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=bench
need "$perf" "$base_perf" "$top/build/gen-trace"
out=$b/bench
gen=$top/build/gen-trace
mkdir -p "$out"

# The pre-fix perf: series HEAD minus the FORK_EXEC check.
"$top/scripts/worktree.sh" "$tree" "$b/bench-tree" HEAD
src=$b/bench-tree/tools/perf/util/machine.c
sed -i 's/if (event->fork.header.misc & PERF_RECORD_MISC_FORK_EXEC)$/if (0 \&\& (event->fork.header.misc \& PERF_RECORD_MISC_FORK_EXEC))/' "$src"
grep -q 'if (0 && (event->fork.header.misc' "$src" ||
	stop "bench: no FORK_EXEC check to remove in $src"
"$top/scripts/build-perf.sh" "$b/bench-tree" "$b/bench-perf" >/dev/null

# The recordings.
# shellcheck disable=SC2016 # $(seq) is for the recorded sh to expand
"$perf" record -q -e cpu-clock -o "$out/forkexec.data" -- \
	sh -c 'for i in $(seq 2000); do /bin/true; done'
"$gen" execchain 2000 "$out/execchain.data"
"$gen" -g -d execchain 10000 "$out/execchain-dwarf.data"
"$gen" callchain 36000 "$out/callchain.data"
"$gen" branch 18000 "$out/branch.data"
"$gen" remap 300000 "$out/remap.data"
"$gen" machine 2000 200 "$out/machine.data"
"$gen" bigexec 100000 10 "$out/bigexec.data"
"$gen" -g bigexec 30000 10 "$out/bigexec-30k.data"
"$gen" -g -d bigexec 30000 10 "$out/bigexec-30k-dwarf.data"
"$gen" execchain 1 "$out/idle.data"
# The perfs measured, copied afresh: same page cache history for both.
# Paths of one length and one environment for all: the strings and the
# stack of a run move its instruction count by about 0.2%.
mkdir -p "$out/base" "$out/next" "$out/pref"
cp "$base_perf" "$out/base/perf"
cp "$perf" "$out/next/perf"
cp "$b/bench-perf/perf" "$out/pref/perf"

# measure LABEL PERF NAME: set ins (instructions), rss (peak KB), secs
# (wall) and maps for PERF reading NAME's recording; logs in
# $b/bench/NAME.LABEL.*
measure() {
	local log="$out/$3.$1" i r t opts=()
	# a kernel map: no symbols from this machine (see the top)
	case $3 in callchain | branch) opts=(--kallsyms=/dev/null) ;; esac
	local clean=(env -i PATH="$PATH" HOME="$HOME")
	local report=("$2" report -f -i "$out/$3.data" "${opts[@]}" --stdio --sort "comm,dso" -q --no-children)
	rm -f "$log.runs"
	"${clean[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"${report[@]}" >/dev/null 2>"$log.callgrind"
	ins=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log.callgrind")
	rss='' secs=''
	for i in 1 2 3 4 5; do
		"${clean[@]}" /usr/bin/time -v -o "$log.time" "${report[@]}" >/dev/null 2>&1
		r=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log.time")
		# "Elapsed (wall clock) time (h:mm:ss or m:ss): M:SS.ss" in seconds
		t=$(sed -n 's/.*Elapsed (wall clock).*: //p' "$log.time" |
			awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
		echo "$i $r $t" >>"$log.runs"
		if [ -z "$rss" ] || [ "$r" -lt "$rss" ]; then rss=$r; fi
		if [ -z "$secs" ] || awk -v a="$t" -v b="$secs" 'BEGIN { exit !(a < b) }'; then
			secs=$t
		fi
	done
	"$2" report -f -i "$out/$3.data" "${opts[@]}" --tasks --mmaps >"$log.mmaps" 2>/dev/null
	# map lines: indented, starting with a hex range (task lines have none)
	maps=$(grep -cE '^[[:space:]]+[0-9a-f]+-[0-9a-f]+ ' "$log.mmaps" || true)
	if [ -z "$ins" ] || [ -z "$rss" ] || [ -z "$secs" ]; then
		stop "no numbers for $1 perf on $3; see $log.*"
	fi
	printf '| %s | %s | %s | %s | %s | %s |\n' "$3" "$1" "$ins" "$rss" "$secs" "$maps" >>"$out/table.md"
}

# ratio A B: A/B with 3 decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / (b > 0 ? b : 0.01) }'; }
# at_most R MAX: R <= MAX
at_most() { awk -v r="$1" -v m="$2" 'BEGIN { exit !(r <= m) }'; }

printf '%s\n' '| recording | perf | instructions | peak RSS (KB) | wall (s) | maps at end |' \
	'| --- | --- | ---: | ---: | ---: | ---: |' >"$out/table.md"
for name in idle forkexec execchain execchain-dwarf callchain branch remap bigexec \
	bigexec-30k bigexec-30k-dwarf machine; do
	measure base "$out/base/perf" "$name"
	base_ins=$ins base_rss=$rss base_secs=$secs base_maps=$maps
	measure patched "$out/next/perf" "$name"
	r=$(ratio "$ins" "$base_ins")
	t=$(ratio "$secs" "$base_secs")
	m=$(ratio "$rss" "$base_rss")
	line="$name: instructions patched/base $r, wall $t ($base_secs s / $secs s),"
	line="$line peak RSS patched/base $m ($base_rss KB / $rss KB),"
	line="$line maps at end base $base_maps patched $maps"
	[ "$name" = bigexec-30k ] && nodwarf_ins=$ins nodwarf_secs=$secs
	if [ "$name" = idle ] || [ "$name" = bigexec-30k ]; then
		echo "bench $line"
	elif [ "$name" = bigexec-30k-dwarf ]; then
		# against the same data without DWARF, read by the patched perf
		r2=$(ratio "$ins" "$nodwarf_ins")
		t2=$(ratio "$secs" "$nodwarf_secs")
		line="$line; with DWARF/without: instructions $r2, wall $t2"
		if at_most "$r2" 2 && at_most "$t2" 2; then pass "$line"; else fail "$line"; fi
	elif [ "$name" = bigexec ]; then
		if at_most "$r" 0.852 && at_most "$m" 0.651; then pass "$line"; else fail "$line"; fi
	elif at_most "$r" 1.01 && at_most "$m" 1.01; then
		at_most "$m" 1.00 || line="$line (peak RSS above the base's, by less than the noise)"
		pass "$line"
	else
		fail "$line"
	fi
done

# The machine recording (read last above) by the pre-fix perf.
patched_ins=$ins patched_rss=$rss
measure pre-fix "$out/pref/perf" machine
echo "bench machine (pre-fix): instructions prefix/patched $(ratio "$ins" "$patched_ins")," \
	"peak RSS prefix/patched $(ratio "$rss" "$patched_rss"), maps at end prefix $maps"

echo "bench: took ${SECONDS}s; raw numbers in $out/table.md"
finish "$check"
