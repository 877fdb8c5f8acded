#!/bin/bash
# shellcheck disable=SC2086 # $b, a path under the checkout, has no spaces
# Cross-build the patched perf for sparc64 (64-bit, big-endian) and run it
# under qemu-user: the fork/exec maps suite, and 'perf report --tasks
# --mmaps' of the report trace in both byte orders, which must match the x86
# perf's. Informational: the base perf loses the maps' protection on data of
# the other byte order, on either host.
# Usage: BASE=NAME check-sparc64.sh (make check-sparc64)
set -eu
. "$(dirname "$0")/lib.sh"
check=sparc64
cd "$top"
b=${b#"$top"/}
out=$b/sparc64
suite="Processes replayed from FORK, COMM, MMAP2 and EXIT records"
fuzz="Random FORK, COMM, MMAP2 and EXIT sequences"
# The fewest make variables that build: the cross libraries besides libc are
# not installed, so every other feature detects as off. libelf and
# libtraceevent must be turned off by hand (missing, they stop the build), and
# so must 7.3's Rust ("Unknown rust cross compilation architecture sparc");
# gcc-12-sparc64-linux-gnu has no unversioned sparc64-linux-gnu-gcc.
vars=(ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu- CC=sparc64-linux-gnu-gcc-12
	NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_RUST=1)

# The cross toolchain and qemu (packages.txt installs them).
missing=
command -v sparc64-linux-gnu-gcc-12 >/dev/null || missing+=" gcc-12-sparc64-linux-gnu"
[ -e /usr/sparc64-linux-gnu/lib/libc.so ] || missing+=" libc6-dev-sparc64-cross"
command -v qemu-sparc64 >/dev/null || missing+=" qemu-user"
[ -z "$missing" ] || stop "tools: missing package(s):$missing"
need "$tree/.git" "$perf"
make -s build/gen-trace
mkdir -p "$out"

# build TREE OUT: cross-build TREE's perf into OUT (incremental), log OUT.log.
# A make with nothing to do still takes 5-20 s: skip it when OUT was built
# from the same commit (worktree.sh leaves no changes) and variables. Each
# make reruns every feature check that failed, which cross-compiling is most
# of them (~15 s): later builds reuse the first one's results (FEATURES_DUMP).
build() {
	local dump=$2/features.mk feat=() stamp
	stamp="$(git -C "$1" rev-parse HEAD) ${vars[*]}"
	[ -x "$2/perf" ] && [ "$(cat "$2/built" 2>/dev/null)" = "$stamp" ] && return
	mkdir -p "$2"
	[ "$(head -n 1 "$dump" 2>/dev/null)" = "# ${vars[*]}" ] &&
		feat=(FEATURES_DUMP="$top/$dump")
	make -C "$1/tools/perf" O="$top/$2/" -j2 "${vars[@]}" "${feat[@]}" >"$2.log" 2>&1 ||
		return 1
	[ ${#feat[@]} -gt 0 ] || { echo "# ${vars[*]}"; cat "$2/FEATURE-DUMP"; } >"$dump"
	echo "$stamp" >"$2/built"
}

# qemu WRAPPER PERF: a script running the sparc64 PERF under qemu.
qemu() {
	printf '#!/bin/sh\nexec qemu-sparc64 -L /usr/sparc64-linux-gnu "%s" "$@"\n' \
		"$top/$2" >"$1"
	chmod +x "$1"
}

# 1-2. The patched perf (and the base one, for the informational lines),
# each built in a detached worktree of build/tree, never in build/tree.
test_tree "$top/$b/sparc64-tree"
if build $b/sparc64-tree $b/sparc64-perf; then
	pass "build: $b/sparc64-perf/perf ($b/sparc64-perf.log)"
else
	grep -i error $b/sparc64-perf.log | head -10
	stop "build: perf for sparc64 failed to build; the log is $b/sparc64-perf.log"
fi
base_qemu=
scripts/worktree.sh $b/tree "$top/$b/sparc64-base-tree" base
if build $b/sparc64-base-tree $b/sparc64-base-perf; then
	base_qemu=$out/base-perf
	qemu "$base_qemu" $b/sparc64-base-perf/perf
else
	echo "INFO base perf for sparc64 failed to build; the log is $b/sparc64-base-perf.log"
fi
qemu "$out/perf" $b/sparc64-perf/perf

# 3. A SPARC V9 64-bit big-endian binary; the series' suites under qemu.
elf=$(sparc64-linux-gnu-readelf -h $b/sparc64-perf/perf)
if grep -q 'Class: *ELF64' <<<"$elf" && grep -q 'big endian' <<<"$elf" &&
	grep -q 'Machine: *Sparc v9' <<<"$elf"; then
	pass "elf: ELF64, big endian, Sparc v9"
else
	fail "elf: $b/sparc64-perf/perf is not a 64-bit big-endian SPARC V9 binary"
fi
res=$(scripts/perf-test.sh suite $b/sparc64-tree "$out/perf" "$suite" "$fuzz" \
	"Share thread maps" "$BASE_MAPS_SUITE") || true
head -n -1 <<<"$res" | sed 's/^/    /'
case $(tail -n 1 <<<"$res") in
*": 0 passed"*) fail "suite: no test ran under qemu-sparc64" ;;
*" 0 failed") pass "suite: '$suite' and '$fuzz' Ok under qemu-sparc64" ;;
*) fail "suite: under qemu-sparc64: $(tail -n 1 <<<"$res")" ;;
esac

# 4. The report trace in both byte orders, read by x86 and by sparc64.
# tasks FILE: the task lines and map lines (start-end perms name) of a report
tasks() {
	awk '/^ +[0-9a-f]+-[0-9a-f]+ [-r][-w][-x][-sp] / {
		s = $0
		for (i = 0; i < 4; i++)
			sub(/^ *[^ ]+ +/, "", s)
		print $1, $2, s
		next
	}
	/\|/' "$1"
}
# report LABEL PERF ORDER: perf report of ORDER's trace, verdict line on out.
# qemu-user maps no [vdso] into sparc64 guests (a sparc64 kernel does), so
# perf under qemu, which resolves [vdso] maps through its own vdso
# (util/vdso.c), drops them: [vdso] is left out on both hosts.
report() {
	"$2" report -i "$out/$3.data" --tasks --mmaps 2>"$out/$1.err" |
		grep -vF '[vdso]' >"$out/$1.tasks" || true
	scripts/verdict.sh "$1" "$out/$3.truth" "$out/$1.tasks" | tail -n 1
}
for order in be le; do
	build/gen-trace "-${order:0:1}" report "$out/$order.data" "$out/$order.full-truth"
	grep -vF '[vdso]' "$out/$order.full-truth" >"$out/$order.truth"
done
for host in x86 sparc64; do
	perf=$b/perf/perf
	[ $host = sparc64 ] && perf=$out/perf
	for order in be le; do
		line=$(report "$host-$order" "$perf" $order)
		case $line in
		*" prot 0: OK") pass "report: $line" ;;
		*) fail "report: $line (see $out/$host-$order.tasks)" ;;
		esac
	done
done
tasks "$out/x86-be.tasks" >"$out/x86-be.maps"
same=1
for r in x86-le sparc64-be sparc64-le; do
	tasks "$out/$r.tasks" >"$out/$r.maps"
	cmp -s "$out/x86-be.maps" "$out/$r.maps" ||
		{ same=0; diff "$out/x86-be.maps" "$out/$r.maps" | head -5; }
done
if [ $same = 1 ] && [ -s "$out/x86-be.maps" ]; then
	pass "maps: the same tasks and maps from x86 and sparc64, both byte orders"
else
	fail "maps: x86 and sparc64 reports differ (see $out/*.maps)"
fi

# Informational: the base perf, same and other byte order, on both hosts.
for host in x86 sparc64; do
	perf=$b/base-perf/perf
	[ $host = sparc64 ] && perf=$base_qemu
	[ -x "$perf" ] || continue
	for order in be le; do
		echo "INFO $(report "base-$host-$order" "$perf" $order)"
	done
done
finish "$check"
