#!/bin/bash
# make bench: what the series costs 'perf report'. Three recordings:
#   forkexec   a live 'perf record' of a shell running /bin/true 2000 times;
#   execchain  one process exec'ing 2000 times (gen-trace);
#   machine    2000 synthesized processes of 200 maps each (gen-trace).
# Base and patched perf read each one: instructions (callgrind), peak RSS
# (/usr/bin/time -v, a separate run) and the maps alive at the end
# (--tasks --mmaps). A recording passes if the patched perf needs at most 1%
# more instructions than the base. The machine recording is also read by a
# "pre-fix" perf, the series without the FORK_EXEC check (mutation a-), to
# show what upstream's fix of synthesized FORKs buys.
# Everything goes to build/bench/; table.md holds the raw numbers.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b="$top/build"
out="$b/bench"
mkdir -p "$out"
passed=0
failed=0

# The pre-fix perf: series HEAD minus the FORK_EXEC check.
"$top/scripts/worktree.sh" "$b/tree" "$b/bench-tree" HEAD
git -C "$b/bench-tree" apply "$top/mutations/a-fork-exec-check-removed.patch"
"$top/scripts/build-perf.sh" "$b/bench-tree" "$b/bench-perf" >/dev/null

# The recordings.
# shellcheck disable=SC2016 # $(seq) is for the recorded sh to expand
"$b/perf/perf" record -q -e cpu-clock -o "$out/forkexec.data" -- \
	sh -c 'for i in $(seq 2000); do /bin/true; done'
"$b/gen-trace" execchain 2000 "$out/execchain.data"
"$b/gen-trace" machine 2000 200 "$out/machine.data"

# measure LABEL PERF NAME: set ins (instructions), rss (peak KB) and maps
# for PERF reading NAME's recording; logs in build/bench/NAME.LABEL.*
measure() {
	local log="$out/$3.$1"
	local report=("$2" report -f -i "$out/$3.data" --stdio --sort "comm,dso" -q --no-children)
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"${report[@]}" >/dev/null 2>"$log.callgrind"
	ins=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log.callgrind")
	/usr/bin/time -v -o "$log.time" "${report[@]}" >/dev/null 2>&1
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log.time")
	"$2" report -f -i "$out/$3.data" --tasks --mmaps >"$log.mmaps" 2>/dev/null
	# map lines: indented, starting with a hex range (task lines have none)
	maps=$(grep -cE '^[[:space:]]+[0-9a-f]+-[0-9a-f]+ ' "$log.mmaps" || true)
	if [ -z "$ins" ] || [ -z "$rss" ]; then
		echo "bench: no numbers for $1 perf on $3; see $log.*" >&2
		exit 1
	fi
	printf '| %s | %s | %s | %s | %s |\n' "$3" "$1" "$ins" "$rss" "$maps" >>"$out/table.md"
}

# ratio A B: A/B with 3 decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

printf '%s\n' '| recording | perf | instructions | peak RSS (KB) | maps at end |' \
	'| --- | --- | ---: | ---: | ---: |' >"$out/table.md"
for name in forkexec execchain machine; do
	measure base "$b/base-perf/perf" "$name"
	base_ins=$ins base_rss=$rss base_maps=$maps
	measure patched "$b/perf/perf" "$name"
	r=$(ratio "$ins" "$base_ins")
	echo "bench $name: instructions patched/base $r," \
		"peak RSS patched/base $(ratio "$rss" "$base_rss")," \
		"maps at end base $base_maps patched $maps"
	if awk -v r="$r" 'BEGIN { exit !(r <= 1.01) }'; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done

# The machine recording (read last above) by the pre-fix perf.
patched_ins=$ins patched_rss=$rss
measure pre-fix "$b/bench-perf/perf" machine
echo "bench machine (pre-fix): instructions prefix/patched $(ratio "$ins" "$patched_ins")," \
	"peak RSS prefix/patched $(ratio "$rss" "$patched_rss"), maps at end prefix $maps"

echo "bench: took ${SECONDS}s; raw numbers in $out/table.md"
echo "bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
