#!/bin/bash
# Boot the sparc64 kernel under qemu-system-sparc64 and record the scenario
# of sparc64/guest/ there with a real kernel: with each perf given,
# 'perf record -a -e cpu-clock', then again with -d; in the guest, 'perf
# report --tasks --mmaps' of every recording by every perf given. Brings out
# to OUT:
#   OUT/RUN/perf.data         RUN = LABEL, LABEL-d (-d)
#   OUT/RUN/maps.txt          every workload's pid, kind, comm, parent,
#                             threads and maps, taken while it lived
#   OUT/RUN/report-LABEL.txt  the guest's perf report --tasks --mmaps
#   OUT/RUN/events.txt        perf script --show-task-events --show-mmap-events
#   OUT/RUN/header.txt, record.log, OUT/dmesg.txt, OUT/kernel.txt
#   OUT/console.log           the serial console
# Usage: sparc64-record.sh IMAGE OUT LABEL=PERF [LABEL=PERF...]
#   IMAGE  the kernel (scripts/sparc64-kernel.sh prints it)
#   PERF   a static sparc64 perf (scripts/sparc64-perf.sh)
# FREQ=N adds -F N to perf record; TIMEOUT (s, default 300) bounds the boot.
#
# The guest programs are linked dynamically against Debian's sparc64 cross
# libc; the initramfs holds them, ld.so and the libraries they need, taken
# from /usr/sparc64-linux-gnu. The results come out as a tar archive that
# the guest's init writes to a raw virtio disk.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "sparc64-record: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: sparc64-record.sh IMAGE OUT LABEL=PERF [LABEL=PERF...]"
image=$1
out=$(realpath -m "$2")
shift 2
sysroot=/usr/sparc64-linux-gnu
cc=sparc64-linux-gnu-gcc-12
command -v ccache >/dev/null && cc="ccache $cc"
export CCACHE_DIR=${CCACHE_DIR:-$top/build/sparc64-system/ccache}
[ -f "$image" ] || die "no kernel image $image (scripts/sparc64-kernel.sh)"
command -v qemu-system-sparc64 >/dev/null || die "no qemu-system-sparc64 (install qemu-system-sparc)"
command -v cpio >/dev/null || die "no cpio (install cpio)"
[ -e $sysroot/lib64/ld-linux.so.2 ] || die "no sparc64 ld.so (install libc6-sparc64-cross)"
rm -rf "$out"
root=$out/root
mkdir -p "$root"/{bin,etc,lib64,lib/sparc64-linux-gnu,proc,sys,dev,tmp}

# The guest programs, and the libraries beyond libc each one loads.
g=$top/sparc64/guest
flags=(-O2 -Wall -Wextra -Werror)
build() { # NAME [LINK ARGS...]
	local name=$1
	shift
	# shellcheck disable=SC2086 # cc is "ccache gcc"
	$cc "${flags[@]}" -o "$root/bin/$name" "$g/$name.c" "$@" >"$out/cc.log" 2>&1 ||
		die "sparc64/guest/$name.c does not build: $(head -5 "$out/cc.log")"
}
build init
build shell -Wl,--no-as-needed -l:libm.so.6 -l:libdl.so.2 -l:libutil.so.1 -l:libresolv.so.2
build editor -Wl,--no-as-needed -l:libm.so.6 -l:libstdc++.so.6 -l:libgcc_s.so.1
build work -pthread -Wl,--no-as-needed -l:libm.so.6 -l:librt.so.1 -l:libresolv.so.2
build leaf
build capture
mv "$root/bin/init" "$root/init"

# The perfs, and the config that names them.
: >"$root/etc/scenario.conf"
for arg in "$@"; do
	label=${arg%%=*}
	perf=${arg#*=}
	if [[ ! $label =~ ^[a-z0-9.-]+$ ]] || [ "$perf" = "$arg" ]; then
		die "bad argument '$arg' (want LABEL=PERF, LABEL of a-z 0-9 . -)"
	fi
	[ -x "$perf" ] || die "no perf $perf (scripts/sparc64-perf.sh)"
	sparc64-linux-gnu-readelf -l "$perf" | grep -q INTERP &&
		die "$perf is linked dynamically; the guest has no libraries for it"
	cp "$perf" "$root/bin/perf-$label"
	echo "perf $label" >>"$root/etc/scenario.conf"
done
[ -z "${FREQ:-}" ] || echo "freq $FREQ" >>"$root/etc/scenario.conf"

# ld.so and, recursively, every NEEDED library, plus the one the shell
# dlopen()s; where a Debian sparc64 system has them.
cp $sysroot/lib64/ld-linux.so.2 "$root/lib64/"
want=(libnss_files.so.2)
for f in "$root"/bin/*; do
	sparc64-linux-gnu-readelf -l "$f" | grep -q INTERP || continue
	mapfile -t -O "${#want[@]}" want < <(sparc64-linux-gnu-readelf -d "$f" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done
while [ ${#want[@]} -gt 0 ]; do
	lib=${want[0]}
	want=("${want[@]:1}")
	dest=$root/lib/sparc64-linux-gnu/$lib
	if [ "$lib" = ld-linux.so.2 ] || [ -e "$dest" ]; then continue; fi
	[ -e "$sysroot/lib/$lib" ] || die "no $lib in $sysroot/lib"
	cp -L "$sysroot/lib/$lib" "$dest"
	mapfile -t -O "${#want[@]}" want < <(sparc64-linux-gnu-readelf -d "$dest" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$out/initramfs.cpio" ||
	die "cannot write $out/initramfs.cpio"

# Boot. The disk starts zeroed: the archive ends at its first empty blocks.
truncate -s 256M "$out/disk.img"
start=$SECONDS
status=0
timeout -k 10 "${TIMEOUT:-300}" qemu-system-sparc64 -M sun4u -m 1G -nographic -vga none \
	-no-reboot -kernel "$image" -initrd "$out/initramfs.cpio" \
	-append 'console=ttyS0 rdinit=/init' \
	-drive file="$out/disk.img",format=raw,if=none,id=results \
	-device virtio-blk-pci,drive=results,bus=pciB \
	</dev/null >"$out/console.log" 2>&1 || status=$?
secs=$((SECONDS - start))
grep -a 'sparc64-guest: ERROR' "$out/console.log" >&2 || true
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
	die "the guest did not finish in ${TIMEOUT:-300} s; the console is $out/console.log: $(tail -n 3 "$out/console.log")"
fi
[ "$status" -eq 0 ] || die "qemu-system-sparc64 failed ($status): $(tail -n 3 "$out/console.log")"
grep -aq 'sparc64-guest: done, 0 error' "$out/console.log" ||
	die "the guest did not complete its runs (see above and $out/console.log)"
tar -xf "$out/disk.img" -C "$out" || die "no results archive on the guest's disk"
for f in "$out"/out/*; do mv "$f" "$out/"; done
rmdir "$out/out"
sizes=
for arg in "$@"; do
	for run in "${arg%%=*}" "${arg%%=*}-d"; do
		if [ ! -s "$out/$run/perf.data" ] || [ ! -s "$out/$run/maps.txt" ]; then
			die "the guest wrote no $run/perf.data or $run/maps.txt"
		fi
		sizes+=" $run $(stat -c %s "$out/$run/perf.data")"
	done
done
echo "sparc64-record: $(cut -d' ' -f1-2 "$out/kernel.txt"), boot and runs in ${secs}s;" \
	"perf.data bytes:$sizes; in $out"
