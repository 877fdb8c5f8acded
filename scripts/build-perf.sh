#!/bin/sh
# Build perf from SRC (a tree with tools/perf) out of tree into OUT.
# Usage: build-perf.sh SRC OUT [make variables...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
log="$out.log"
# ccache (packages.txt) under build/ccache: rebuilds of the same sources,
# in another tree or after a clean clone's first build, are fast.
if [ -d /usr/lib/ccache ]; then
	export PATH="/usr/lib/ccache:$PATH" CCACHE_DIR="${CCACHE_DIR:-$top/build/ccache}"
	export CCACHE_BASEDIR="$top/build" CCACHE_NOHASHDIR=1
fi
# shellcheck disable=SC2046 # one make variable per line
if ! make -C "$src/tools/perf" O="$out/" -j"$(nproc)" \
	$(grep -v '^#' "$top/build-options.txt") "$@" >"$log" 2>&1; then
	echo "build: perf in $src failed to build; the log is $log:" >&2
	grep -E 'error|Error' "$log" | head -20 >&2
	exit 1
fi
echo "build: $out/perf"
