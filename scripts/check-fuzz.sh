#!/bin/bash
# make check-fuzz: 10,000 random FORK, COMM, MMAP2 and EXIT sequences through
# the suite "Random FORK, COMM, MMAP2 and EXIT sequences", in chunks of 500.
# The suite is a harness patch (harness-patches/, backports/NAME/harness-patches/),
# built into $b/fuzz-perf from the worktree $b/fuzz-tree; a base with no
# harness patches runs its own perf. A failing chunk prints the command
# that replays its failing sequence. Start seeds go to $b/fuzz/seeds.log,
# each chunk's output to $b/fuzz/chunk-N.log.
# Environment: SEED (the first seed, default 1).
# Usage: BASE=NAME check-fuzz.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=fuzz
need "$tree/.git" "$perf"
first=${SEED:-1}
chunks=20
count=500
desc="Random FORK, COMM, MMAP2 and EXIT sequences"
log=$b/fuzz
mkdir -p "$log"
if compgen -G "$harness_patches/*.patch" >/dev/null; then
	test_tree "$b/fuzz-tree"
	"$top/scripts/build-perf.sh" "$b/fuzz-tree" "$b/fuzz-perf" >/dev/null
	tree=$b/fuzz-tree
	perf=$b/fuzz-perf/perf
fi
cd "$tree/tools/perf"
num=$(suite_number "$perf" "$desc")
[ -n "$num" ] || stop "fuzz: $perf has no test \"$desc\""
echo "# $(date -u +%FT%TZ) $perf, $chunks chunks of $count sequences" >>"$log/seeds.log"
for i in $(seq 1 "$chunks"); do
	seed=$((first + (i - 1) * count))
	out=$log/chunk-$i.log
	PERF_FORK_FUZZ_SEED=$seed PERF_FORK_FUZZ_COUNT=$count \
		"$perf" test -v "$num" >"$out" 2>&1 || true
	if grep -q ": Ok$" "$out"; then
		echo "chunk $i: seed $seed, count $count: ok" >>"$log/seeds.log"
		pass "chunk $i: seeds $seed..$((seed + count - 1))"
	else
		echo "chunk $i: seed $seed, count $count: FAILED" >>"$log/seeds.log"
		fail "chunk $i (seeds $seed..$((seed + count - 1))), see $out:"
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
finish "$check"
