#!/bin/bash
# Cross-build a static sparc64 perf from commit REV of the git tree TREE into
# OUT, for the guest of scripts/sparc64-record.sh (its initramfs holds no
# libraries for perf). The source is a snapshot of REV ('git archive' into
# OUT.src), so TREE is only read, and edits there during a build do not
# matter. Incremental; log OUT.log. Prints the binary's path.
# Usage: sparc64-perf.sh TREE REV OUT
#
# The fewest features: the cross libraries besides libc are not installed,
# so every feature but libc's detects as off; libelf and libtraceevent must
# be turned off by hand (missing, they stop the build), and so must Rust
# (perf 7.x probes for it). A make with nothing to do still reruns the
# feature probes (~15 s); it is skipped when OUT was built from the same
# commit, and later builds reuse the first one's probe results
# (FEATURES_DUMP).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "sparc64-perf: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: sparc64-perf.sh TREE REV OUT"
sha=$(git -C "$1" rev-parse -q --verify "$2^{commit}") || die "$1 has no commit $2"
command -v sparc64-linux-gnu-gcc-12 >/dev/null ||
	die "no sparc64-linux-gnu-gcc-12 (install gcc-12-sparc64-linux-gnu)"
[ -e /usr/sparc64-linux-gnu/lib/libc.a ] || die "no sparc64 libc.a (install libc6-dev-sparc64-cross)"
mkdir -p "$3"
out=$(cd "$3" && pwd)
src=$out.src
log=$out.log
cc=sparc64-linux-gnu-gcc-12
command -v ccache >/dev/null && cc="ccache $cc"
export CCACHE_DIR=${CCACHE_DIR:-$top/build/sparc64-system/ccache}
vars=(ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu- "CC=$cc" LDFLAGS=-static
	NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_RUST=1 NO_LIBPYTHON=1 NO_LIBPERL=1
	BUILD_BPF_SKEL=0 WERROR=0)

stamp="$sha ${vars[*]} $(sha256sum "$0" | cut -d' ' -f1)"
if [ -x "$out/perf" ] && [ "$(cat "$out/built" 2>/dev/null)" = "$stamp" ]; then
	echo "$out/perf"
	exit 0
fi
rm -f "$out/built"
if [ "$(cat "$src/.commit" 2>/dev/null)" != "$sha" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$1" archive "$sha" | tar -x -C "$src" || die "cannot export $sha of $1"
	[ -f "$src/tools/perf/Makefile.perf" ] || die "$1 has no tools/perf"
	echo "$sha" >"$src/.commit"
fi
dump=$out/features.mk feat=()
[ "$(head -n 1 "$dump" 2>/dev/null)" = "# ${vars[*]}" ] && feat=(FEATURES_DUMP="$dump")
if ! make -C "$src/tools/perf" O="$out/" -j2 "${vars[@]}" ${feat[@]+"${feat[@]}"} >"$log" 2>&1; then
	echo "sparc64-perf: perf of $sha failed to build; the log is $log:" >&2
	grep -E 'error|Error' "$log" | head -20 >&2
	exit 1
fi
[ ${#feat[@]} -gt 0 ] || { echo "# ${vars[*]}"; cat "$out/FEATURE-DUMP"; } >"$dump"
if sparc64-linux-gnu-readelf -l "$out/perf" | grep -q INTERP ||
	! sparc64-linux-gnu-readelf -h "$out/perf" | grep -q 'Sparc v9'; then
	die "$out/perf is not a static sparc64 binary; see $log"
fi
echo "$stamp" >"$out/built"
echo "$out/perf"
