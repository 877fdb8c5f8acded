#!/bin/bash
# Cross-build the small sparc64 guest kernel of scripts/sparc64-record.sh:
# arch/sparc/configs/sparc64_defconfig merged with sparc64/kernel.config,
# plus the guest build fixes for that kernel series, sparc64/kernel-X.Y-*.patch
# (none is part of the perf series). Prints the image path (for qemu-system-sparc64 -kernel).
#
# Usage: sparc64-kernel.sh SRC [OUT]
#   SRC  a linux-source-*.deb or an extracted kernel source directory
#   OUT  work directory (default build/sparc64-system/kernel)
#
# Cached: the kernel is rebuilt only when its inputs change (the .deb's
# sha256 or the source directory's path and version, the fragment, the
# patches, this script); a rebuild is incremental and goes through ccache.
# The source is copied into OUT/src so that the patches never touch SRC.
# Build log: OUT/build.log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=${1:?usage: sparc64-kernel.sh SRC [OUT]}
out=$(realpath -m "${2:-$top/build/sparc64-system/kernel}")
frag=$top/sparc64/kernel.config
image=$out/obj/arch/sparc/boot/image
log=$out/build.log
die() { echo "sparc64-kernel: $*" >&2; exit 1; }

command -v sparc64-linux-gnu-gcc-12 >/dev/null ||
	die "no sparc64-linux-gnu-gcc-12 (install gcc-12-sparc64-linux-gnu)"
command -v ccache >/dev/null || die "no ccache (install ccache)"
[ -e "$src" ] || die "no such source: $src"
mkdir -p "$out"

# What the build depends on, one line each.
if [ -d "$src" ]; then
	src=$(cd "$src" && pwd)
	[ -f "$src/arch/sparc/Kconfig" ] || die "$src is not a kernel source tree"
	version=$(make -s -C "$src" kernelversion 2>/dev/null) ||
		die "cannot read the kernel version of $src"
	id="dir $src $version"
else
	version=$(dpkg-deb -f "$src" Version) || die "$src is not a .deb"
	id="deb $(sha256sum "$src" | cut -d' ' -f1)"
fi
series=$(echo "$version" | cut -d. -f1,2)
patches=()
for p in "$top/sparc64/kernel-$series"-*.patch; do
	[ -e "$p" ] && patches+=("$p")
done
stamp=$(
	echo "$id"
	sha256sum "$frag" "$0" ${patches[@]+"${patches[@]}"} | cut -d' ' -f1
)
if [ -f "$image" ] && [ "$(cat "$out/built" 2>/dev/null)" = "$stamp" ]; then
	echo "$image"
	exit 0
fi

# The source copy, redone when SRC or the patches change.
srcstamp=$(echo "$id"; sha256sum ${patches[@]+"${patches[@]}"} /dev/null | cut -d' ' -f1)
if [ "$(cat "$out/src.stamp" 2>/dev/null)" != "$srcstamp" ]; then
	echo "sparc64-kernel: copying the source into $out/src" >&2
	rm -rf "$out/src" "$out/src.stamp"
	mkdir -p "$out/src"
	if [ -d "$src" ]; then
		cp -a "$src/." "$out/src/" || die "cannot copy $src"
	else
		dpkg-deb --fsys-tarfile "$src" |
			tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
			tar -xJ -C "$out/src" --strip-components=1 ||
			die "cannot extract the kernel source from $src"
	fi
	[ -f "$out/src/arch/sparc/Kconfig" ] || die "no arch/sparc in $src"
	for p in ${patches[@]+"${patches[@]}"}; do
		patch -d "$out/src" -p1 -s --no-backup-if-mismatch <"$p" >"$out/patch.log" 2>&1 ||
			die "build fix $(basename "$p") does not apply: $(head -3 "$out/patch.log")"
	done
	echo "$srcstamp" >"$out/src.stamp"
fi

# Configure (defconfig + fragment) and build; make's own dependencies keep
# this incremental, ccache keeps a fresh object directory cheap.
export CCACHE_DIR=${CCACHE_DIR:-$top/build/sparc64-system/ccache}
kmake=(make -C "$out/src" O="$out/obj" ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu-
	CC="ccache sparc64-linux-gnu-gcc-12" HOSTCC="ccache gcc" -j2)
mkdir -p "$out/obj"
echo "sparc64-kernel: building $id (log $log)" >&2
{
	"${kmake[@]}" sparc64_defconfig &&
		(cd "$out/obj" && "$out/src/scripts/kconfig/merge_config.sh" -m .config "$frag") &&
		"${kmake[@]}" olddefconfig
} >"$log" 2>&1 || die "configuring failed; see $log: $(grep -iE 'error' "$log" | head -3)"
# Each fragment line the final config contradicts: a value it lost, or an
# option left on (an option whose dependencies are off is simply absent).
missed=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*=.*\)/\1/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1/p' "$frag" |
	while read -r line; do
		case $line in
		*=*) grep -qxF "$line" "$out/obj/.config" || echo "$line" ;;
		*) if grep -qE "^$line=[ym]" "$out/obj/.config"; then echo "$line still on"; fi ;;
		esac
	done)
[ -z "$missed" ] || die "the config lost these lines of $frag:"$'\n'"$missed"
if ! "${kmake[@]}" >>"$log" 2>&1; then
	echo "sparc64-kernel: the kernel failed to build; see $log:" >&2
	grep -E 'error|Error' "$log" | head -20 >&2
	exit 1
fi
[ -f "$image" ] || die "the build made no $image; see $log"
echo "$stamp" >"$out/built"
echo "$image"
