#!/bin/bash
# Cross-build a static sparc64 perf from TREE/tools/perf into OUT, for the
# guest of scripts/sparc64-record.sh (its initramfs holds no libraries for
# perf). Incremental; log OUT.log. Prints the binary's path.
# Usage: sparc64-perf.sh TREE OUT
#
# The fewest features: the cross libraries besides libc are not installed,
# so every feature but libc's detects as off; libelf and libtraceevent must
# be turned off by hand (missing, they stop the build), and so must Rust
# (perf 7.x probes for it). A make with nothing to do still reruns the
# feature probes (~15 s); it is skipped when OUT was built from the same
# clean git commit, and later builds reuse the first one's probe results
# (FEATURES_DUMP).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "sparc64-perf: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: sparc64-perf.sh TREE OUT"
[ -f "$1/tools/perf/Makefile.perf" ] || die "$1 has no tools/perf"
command -v sparc64-linux-gnu-gcc-12 >/dev/null ||
	die "no sparc64-linux-gnu-gcc-12 (install gcc-12-sparc64-linux-gnu)"
[ -e /usr/sparc64-linux-gnu/lib/libc.a ] || die "no sparc64 libc.a (install libc6-dev-sparc64-cross)"
tree=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
log=$out.log
cc=sparc64-linux-gnu-gcc-12
command -v ccache >/dev/null && cc="ccache $cc"
export CCACHE_DIR=${CCACHE_DIR:-$top/build/sparc64-system/ccache}
vars=(ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu- "CC=$cc" LDFLAGS=-static
	NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_RUST=1 NO_LIBPYTHON=1 NO_LIBPERL=1
	BUILD_BPF_SKEL=0 WERROR=0)

stamp=
if git -C "$tree" rev-parse -q --verify HEAD >/dev/null 2>&1 &&
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no -- tools)" ]; then
	stamp="$(git -C "$tree" rev-parse HEAD) ${vars[*]} $(sha256sum "$0" | cut -d' ' -f1)"
	if [ -x "$out/perf" ] && [ "$(cat "$out/built" 2>/dev/null)" = "$stamp" ]; then
		echo "$out/perf"
		exit 0
	fi
fi
rm -f "$out/built"
dump=$out/features.mk feat=()
[ "$(head -n 1 "$dump" 2>/dev/null)" = "# ${vars[*]}" ] && feat=(FEATURES_DUMP="$dump")
if ! make -C "$tree/tools/perf" O="$out/" -j2 "${vars[@]}" ${feat[@]+"${feat[@]}"} >"$log" 2>&1; then
	echo "sparc64-perf: perf in $tree failed to build; the log is $log:" >&2
	grep -E 'error|Error' "$log" | head -20 >&2
	exit 1
fi
[ ${#feat[@]} -gt 0 ] || { echo "# ${vars[*]}"; cat "$out/FEATURE-DUMP"; } >"$dump"
if sparc64-linux-gnu-readelf -l "$out/perf" | grep -q INTERP ||
	! sparc64-linux-gnu-readelf -h "$out/perf" | grep -q 'Sparc v9'; then
	die "$out/perf is not a static sparc64 binary; see $log"
fi
[ -z "$stamp" ] || echo "$stamp" >"$out/built"
echo "$out/perf"
