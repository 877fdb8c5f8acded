#!/bin/bash
# make check-fuzz: 10,000 random FORK, COMM, MMAP2 and EXIT sequences through
# the patched perf's suite "Random FORK, COMM, MMAP2 and EXIT sequences"
# (tests/fork-exec-fuzz.c), in chunks of 500. A failing chunk prints the
# command that replays its failing sequence. Start seeds go to
# build/fuzz/seeds.log, each chunk's output to build/fuzz/chunk-N.log.
# Environment: PERF and TREE (the perf and the tree it runs from), SEED (the
# first seed, default 1).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
perf=$(realpath "${PERF:-$top/build/perf/perf}")
tree=$(realpath "${TREE:-$top/build/tree}")
first=${SEED:-1}
chunks=20
count=500
desc="Random FORK, COMM, MMAP2 and EXIT sequences"
log=$top/build/fuzz
mkdir -p "$log"
cd "$tree/tools/perf"
num=$("$top/scripts/suite-number.sh" "$perf" "$desc")
if [ -z "$num" ]; then
	echo "fuzz: $perf has no test \"$desc\""
	echo "fuzz: 0 passed, 1 failed"
	exit 1
fi
echo "# $(date -u +%FT%TZ) $perf, $chunks chunks of $count sequences" >>"$log/seeds.log"
passed=0
failed=0
for i in $(seq 1 "$chunks"); do
	seed=$((first + (i - 1) * count))
	out=$log/chunk-$i.log
	PERF_FORK_FUZZ_SEED=$seed PERF_FORK_FUZZ_COUNT=$count \
		"$perf" test -v "$num" >"$out" 2>&1 || true
	if grep -q ": Ok$" "$out"; then
		echo "chunk $i: seed $seed, count $count: ok" >>"$log/seeds.log"
		passed=$((passed + 1))
	else
		echo "chunk $i: seed $seed, count $count: FAILED" >>"$log/seeds.log"
		failed=$((failed + 1))
		echo "fuzz: chunk $i (seeds $seed..$((seed + count - 1))) failed, see $out:"
		mismatch=$(grep -E "^seed [0-9]+, event" "$out" | head -n 1) || true
		if [ -n "$mismatch" ]; then
			bad=$(echo "$mismatch" | cut -d" " -f2 | tr -d ,)
			echo "$mismatch"
			echo "  replay: cd $tree/tools/perf && PERF_FORK_FUZZ_SEED=$bad" \
				"PERF_FORK_FUZZ_COUNT=1 $perf test -vv $num"
			continue
		fi
		# A crash: 'perf test -v' drops the output of a test killed by a
		# signal; -F runs it inside perf, which prints each seed it starts.
		# A crash may depend on the heap, so replay from the chunk's start.
		rc=0
		PERF_FORK_FUZZ_SEED=$seed PERF_FORK_FUZZ_COUNT=$count \
			"$perf" test -F -v "$num" >>"$out" 2>&1 || rc=$?
		printf '\nperf test -F exited with %s\n' "$rc" >>"$out"
		bad=$(grep -oE "^seed [0-9]+" "$out" | tail -n 1 | cut -d" " -f2)
		echo "perf crashed (exit $rc) in the sequence of seed ${bad:-?}"
		echo "  replay: cd $tree/tools/perf && PERF_FORK_FUZZ_SEED=$seed" \
			"PERF_FORK_FUZZ_COUNT=$((${bad:-$seed} - seed + 1)) $perf test -F -v $num"
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
